"""Numba lowering rules of `core.prims.indexing`."""

from __future__ import annotations

from core.backends.numba.registry import Kernel, View, register_lowering
from core.backends.numba.source import alloc
from core.prims.indexing import concatenate_p, pad_p, slice_p, stack_p


def _slice_lowering(in_shape, out_shape, *, start_indices, limit_indices, strides):
    strides = (1,) * len(start_indices) if strides is None else strides
    return tuple((s, ((k, st),)) for k, (s, st) in enumerate(zip(start_indices, strides)))


register_lowering(slice_p, View(_slice_lowering))


def _pad_lowering(ctx, eqn):
    """Fill with the padding value, then copy the operand into a strided block."""
    cfg = eqn.params["padding_config"]
    xa, out = ctx.in_avals[0], ctx.out_avals[0]
    x_shape, out_shape = ctx.in_shape(0), ctx.out_shape(0)
    o = ctx.assign("p", alloc(out_shape, out.dtype, ctx.scalar(1)))
    counts, src_starts, dst_starts, steps = [], [], [], []
    for n, (lo, _, it), size in zip(x_shape, cfg, out_shape):
        step = it + 1
        first = 0 if lo >= 0 else (-lo + step - 1) // step  # operand range that lands inside
        last = min(n, (size - 1 - lo) // step + 1) if size - 1 - lo >= 0 else 0
        if last <= first:
            return [o]
        counts.append(last - first)
        src_starts.append(first)
        dst_starts.append(lo + first * step)
        steps.append(step)
    if xa.shape:
        ctx.copy_into(
            o,
            out_shape,
            ctx.array(0),
            x_shape,
            counts=counts,
            dst_starts=dst_starts,
            dst_steps=steps,
            src_starts=src_starts,
        )
    return [o]


register_lowering(pad_p, Kernel(_pad_lowering))


def _concatenate_lowering(ctx, eqn):
    """One loop nest per operand, reading it through its index map (a broadcast or iota
    operand is never materialized) and storing into its block of the output."""
    dim = eqn.params["dimension"]
    out, out_shape = ctx.out_avals[0], ctx.out_shape(0)
    o = ctx.assign("c", alloc(out_shape, out.dtype))
    start = 0
    for i, aval in enumerate(ctx.in_avals):
        if aval.size:
            starts = [0] * out.ndim
            starts[dim] = start
            ctx.store_value(ctx.operand(i), o, out_shape, out.dtype, starts)
        start += ctx.in_shape(i)[dim]
    return [o]


register_lowering(concatenate_p, Kernel(_concatenate_lowering))


def _stack_lowering(ctx, eqn):
    """As `concatenate`'s: one loop nest per operand, read through its index map with the new
    axis inserted (the view a reshape to a size-1 axis gives), storing into its block."""
    axis = eqn.params["axis"]
    out, out_shape = ctx.out_avals[0], ctx.out_shape(0)
    o = ctx.assign("c", alloc(out_shape, out.dtype))
    for i, aval in enumerate(ctx.in_avals):
        if aval.size:
            shape = ctx.in_shape(i)
            block = (*shape[:axis], 1, *shape[axis:])
            imap = tuple((0, ((k + (k >= axis), 1),)) for k in range(aval.ndim))
            starts = [0] * out.ndim
            starts[axis] = i
            ctx.store_value(ctx.operand(i).compose(imap, block), o, out_shape, out.dtype, starts)
    return [o]


register_lowering(stack_p, Kernel(_stack_lowering))
