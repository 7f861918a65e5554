"""Numba lowering rules of `core.prims.control_flow.scan`."""

from __future__ import annotations

import math

from core.backends.numba import scan_rows
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
    split = scan_rows.row_split(jaxpr, nc, ncar, length) if ctx.may_thread else None
    if split is not None:
        return _chunked(ctx, eqn, scan_rows.whole(split, jaxpr, nc) if ctx.rows_whole() else split)
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
        for x, a in zip(xs, jaxpr.in_avals[nc + ncar :]):  # row i: an element, or a view
            row = f"rt.ld({x}, {i})" if a.shape == () else reshape(f"{x}[{i}]", ctx.shape(a.shape))
            x_vals.append(ctx.named(ctx.assign("x", row), a))
        args = [*consts, *as_values(ctx, carry, carry_avals), *x_vals]
        outs = ctx.emit_jaxpr(jaxpr, args, slots)
        for k, (y, v, a, n) in enumerate(zip(ys, outs[ncar:], y_avals, y_sizes)):
            slot = slots[ncar + k]
            if any(v is x for x in x_vals):  # a slice passed through: ys is that xs
                ys[k] = xs[next(j for j, x in enumerate(x_vals) if v is x)]
            elif a.shape == ():  # ys is (length, 1): row i is element i
                ctx.line(f"rt.st({y}, {i}, {ctx.as_scalar(v)})")
            elif slot is not None and ctx.in_block(v, slot):
                continue  # stored in place by the loop that computed it
            elif a.size:
                row = ctx.as_array(v)
                ctx.copy_into(y, (length, n), row, (1, n), dst_starts=[i, 0])
        rebind(ctx, carry, outs[:ncar], carry_avals)
    return carry + [
        ctx.assign("ys", reshape(y, (length, *shape))) for y, shape in zip(ys, y_shapes)
    ]


def _chunked(ctx, eqn, split: scan_rows.RowSplit):
    """The scan as `split.parts` tasks of a `prange` loop, each running the whole loop on its
    `split.chunk` rows of the carries and xs (`core/backends/numba/scan_rows.py`): carries
    start as views of the rows of the initial values and end copied into the rows of the
    results; each iteration reads its xs rows as views and stores its ys into their rows of the
    stacked results."""
    p = eqn.params
    nc, ncar, body = p["num_consts"], p["num_carry"], split.body
    ins = [ctx.operand(i) for i in range(len(eqn.inputs))]
    consts = [_in_order(ctx, v) for v in ins[:nc]]
    length, rows = ctx.size(p["length"]), ctx.size(split.chunk)
    parts = ctx.size(split.parts, variable=True)  # 1 in the kernel's whole-rows sizes
    avals = body.in_avals
    carry_avals, x_avals, y_avals = avals[nc : nc + ncar], avals[nc + ncar :], body.out_avals[ncar:]
    inner = lambda a: ctx.shape(a.shape[1:])  # noqa: E731  (a chunk's shape past its rows)
    row_shape = lambda a: (rows, *inner(a))  # noqa: E731
    size = lambda a: rows * math.prod(inner(a))  # noqa: E731  (a chunk's elements)
    init = [
        ctx.assign("v", reshape(ctx.as_array(v), (parts, size(a))))
        for v, a in zip(ins[nc : nc + ncar], carry_avals)
    ]
    xs = [
        ctx.assign("v", reshape(ctx.as_array(v), (length, parts, size(a))))
        for v, a in zip(ins[nc + ncar :], x_avals)
    ]
    finals = [ctx.assign("c", alloc((parts, size(a)), a.dtype)) for a in carry_avals]
    ys = [ctx.assign("ys", alloc((length, parts, size(a)), a.dtype)) for a in y_avals]
    ch, i = ctx.new_name("ch"), ctx.new_name("it")
    loop = f"range({length} - 1, -1, -1)" if p["reverse"] else f"range({length})"
    step, part = Size(1, i), Size(1, ch)  # loop variables as block starts (never folded)
    # The blocks' shapes and starts name no axis of `parts` chunks: the whole-rows generation
    # (one chunk, `ctx.rows_whole`) must write the same source, and loops drop axes of size 1.
    carried = {id(v) for v in body.outvars[:ncar]}
    slots: list = [None] * ncar
    for y, v, a in zip(ys, body.outvars[ncar:], y_avals):
        block = ((length, parts * rows, *inner(a)), (step, part * rows, *[0] * (a.ndim - 1)))
        slots.append((y, *block) if id(v) not in carried else None)
    with ctx.task(), ctx.block(f"for {ch} in prange({parts}):"):
        carry = new_names(ctx, "c", ncar)
        views = [reshape(f"{c}[{ch}]", row_shape(a)) for c, a in zip(init, carry_avals)]
        ctx.line(f"{', '.join(carry)}, = {', '.join(views)},")
        with ctx.block(f"for {i} in {loop}:"):
            x_vals = []
            for x, a in zip(xs, x_avals):
                x_vals.append(
                    ctx.named(ctx.assign("x", reshape(f"{x}[{i}, {ch}]", row_shape(a))), a)
                )
            args = [*consts, *as_values(ctx, carry, carry_avals), *x_vals]
            outs = ctx.emit_jaxpr(body, args, slots)
            for k, (y, v, a) in enumerate(zip(ys, outs[ncar:], y_avals)):
                slot = slots[ncar + k]
                if slot is not None and ctx.in_block(v, slot):
                    continue  # stored in place by the loop that computed it
                ctx.copy_into(
                    y,
                    (length, parts * size(a)),
                    ctx.as_array(v),
                    (1, size(a)),
                    dst_starts=[i, part * size(a)],
                )
            rebind(ctx, carry, outs[:ncar], carry_avals)
        for c, final, a in zip(carry, finals, carry_avals):
            ctx.copy_into(final, (parts * size(a),), c, (size(a),), dst_starts=[part * size(a)])
    return [
        *(ctx.assign("c", reshape(c, ctx.out_shape(k))) for k, c in enumerate(finals)),
        *(ctx.assign("ys", reshape(y, ctx.out_shape(ncar + k))) for k, y in enumerate(ys)),
    ]


register_lowering(scan_p, Kernel(_scan_lowering))
