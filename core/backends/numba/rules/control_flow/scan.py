"""Numba lowering rules of `core.prims.control_flow.scan`."""

from __future__ import annotations

import math

from core.backends.numba.generic import Size
from core.backends.numba.registry import Kernel, register_lowering
from core.backends.numba.rules.control_flow.common import as_values, new_names, rebind
from core.backends.numba.source import alloc, reshape
from core.prims.control_flow.scan import scan_p


def _in_order(ctx, value):
    """A const of the loop: a transposed view of an array copied once into its own order (every
    iteration reads it; the products of few rows need their weights stored as rows, which
    `core/jit/scan_motion.py` asks for with a transpose), anything else as it is."""
    perm = value.permutation()
    if perm is None or perm == sorted(perm):
        return value
    return ctx.named(ctx.as_array(value), value)


def _scan_lowering(ctx, eqn):
    p = eqn.params
    jaxpr, nc, ncar, length = p["jaxpr"], p["num_consts"], p["num_carry"], p["length"]
    ins = [ctx.operand(i) for i in range(len(eqn.inputs))]
    consts, init = [_in_order(ctx, v) for v in ins[:nc]], ins[nc : nc + ncar]
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
    # Loops of the body store each y straight into its row of ys (no copy per iteration),
    # except a y that is also the new carry, which has to be an array of its own.
    step = Size(1, i)  # the loop variable as the row's start (a nonzero value: never folded)
    carried = {id(v) for v in jaxpr.outvars[:ncar]}
    slots: list = [None] * ncar
    for y, v, shape in zip(ys, jaxpr.outvars[ncar:], y_shapes):
        free = shape and id(v) not in carried and math.prod(shape)
        slots.append((y, (length, *shape), (step, *[0] * len(shape))) if free else None)
    with ctx.block(f"for {i} in {loop}:"):
        x_vals = []
        for x, a in zip(xs, jaxpr.in_avals[nc + ncar :]):
            x_vals.append(ctx.named(ctx.assign("x", f"{x}[{i}]"), a))
        args = [*consts, *as_values(ctx, carry, carry_avals), *x_vals]
        outs = ctx.emit_jaxpr(jaxpr, args, slots)
        for k, (y, v, a, n) in enumerate(zip(ys, outs[ncar:], y_avals, y_sizes)):
            slot = slots[ncar + k]
            if any(v is x for x in x_vals):  # a slice passed through: ys is that xs
                ys[k] = xs[next(j for j, x in enumerate(x_vals) if v is x)]
            elif a.shape == ():
                ctx.line(f"{y}[{i}, 0] = {ctx.as_scalar(v)}")
            elif slot is not None and ctx.in_block(v, slot):
                continue  # stored in place by the loop that computed it
            elif a.size:
                row = ctx.as_array(v)
                ctx.copy_into(y, (length, n), row, (1, n), dst_starts=[i, 0])
        rebind(ctx, carry, outs[:ncar], carry_avals)
    return carry + [
        ctx.assign("ys", reshape(y, (length, *shape))) for y, shape in zip(ys, y_shapes)
    ]


register_lowering(scan_p, Kernel(_scan_lowering))
