"""Numba lowering rules of `core.prims.control_flow.scan`."""

from __future__ import annotations

import math

from core.backends.numba.registry import Kernel, register_lowering
from core.backends.numba.rules.control_flow.common import as_values, new_names, rebind
from core.backends.numba.source import alloc, reshape
from core.prims.control_flow.scan import scan_p


def _scan_lowering(ctx, eqn):
    p = eqn.params
    jaxpr, nc, ncar, length = p["jaxpr"], p["num_consts"], p["num_carry"], p["length"]
    ins = [ctx.operand(i) for i in range(len(eqn.inputs))]
    consts, init = ins[:nc], ins[nc : nc + ncar]
    xs = [ctx.as_array(v) for v in ins[nc + ncar :]]
    carry_avals, y_avals = ctx.out_avals[:ncar], jaxpr.out_avals[ncar:]
    carry = new_names(ctx, "c", ncar)
    rebind(ctx, carry, init, carry_avals)
    length = ctx.size(length)
    y_shapes = [ctx.shape(a.shape) for a in y_avals]
    y_sizes = [math.prod(shape) for shape in y_shapes]
    ys = [ctx.assign("ys", alloc((length, n), a.dtype)) for n, a in zip(y_sizes, y_avals)]
    i = ctx.new_name("it")
    loop = f"range({length} - 1, -1, -1)" if p["reverse"] else f"range({length})"
    with ctx.block(f"for {i} in {loop}:"):
        x_vals = []
        for x, a in zip(xs, jaxpr.in_avals[nc + ncar :]):
            x_vals.append(ctx.named(ctx.assign("x", f"{x}[{i}]"), a))
        outs = ctx.emit_jaxpr(jaxpr, [*consts, *as_values(ctx, carry, carry_avals), *x_vals])
        for k, (y, v, a, n) in enumerate(zip(ys, outs[ncar:], y_avals, y_sizes)):
            if any(v is x for x in x_vals):  # a slice passed through: ys is that xs
                ys[k] = xs[next(j for j, x in enumerate(x_vals) if v is x)]
            elif a.shape == ():
                ctx.line(f"{y}[{i}, 0] = {ctx.as_scalar(v)}")
            elif a.size:
                row = ctx.as_array(v)
                ctx.copy_into(y, (length, n), row, (1, n), dst_starts=[i, 0])
        rebind(ctx, carry, outs[:ncar], carry_avals)
    return carry + [
        ctx.assign("ys", reshape(y, (length, *shape))) for y, shape in zip(ys, y_shapes)
    ]


register_lowering(scan_p, Kernel(_scan_lowering))
