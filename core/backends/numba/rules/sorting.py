"""Numba lowering of sort, top_k and the cumulative reductions (`core/prims/sorting.py`).

Explicit loops over the operand viewed as (outer, n, inner) with the working axis in
the middle, so the inner loop runs over contiguous memory.

Multi-key sorts are stable argsorts applied from the last key to the first (a least-significant
key first radix order), which numba's mergesort supports; NaNs sort last, as in numpy. top_k
sorts floats by their IEEE totalOrder keys, as XLA's TopK (-nan lowest, -0.0 below 0.0).
"""

from __future__ import annotations

import math

import numpy as np

from core.backends.numba.registry import Kernel, register_lowering
from core.backends.numba.source import alloc, cast, combine, const, identity, reshape
from core.prims.sorting import (
    SCAN_BLOCK,
    cummax_p,
    cummin_p,
    cumprod_p,
    cumsum_p,
    sort_p,
    top_k_p,
)


def _moved_lowering(ctx, i, axis, ndim) -> str:
    """Operand i with `axis` moved last, as a C-contiguous (rows, n) array."""
    aval, shape = ctx.in_avals[i], ctx.in_shape(i)
    n = shape[axis]
    rows = math.prod(shape[:axis]) * math.prod(shape[axis + 1 :])
    arr = ctx.array(i)
    if axis != ndim - 1:
        perm = tuple(d for d in range(ndim) if d != axis) + (axis,)
        arr = f"rt.contiguous({arr}.transpose({perm}))"
    if aval.dtype == np.bool_:
        arr = f"{arr}.astype(np.uint8)"
    return ctx.assign("m", reshape(arr, (rows, n)))


def _moved_back_lowering(ctx, name, shape, axis) -> str:
    """Array `name` of `shape` with its last axis moved to `axis`, as a C-contiguous array."""
    ndim = len(shape)
    moved = tuple(shape[d] for d in range(ndim) if d != axis) + (shape[axis],)
    arr = reshape(name, moved)
    if axis != ndim - 1:
        inverse = tuple(int(i) for i in np.argsort([*(d for d in range(ndim) if d != axis), axis]))
        arr = f"rt.contiguous({arr}.transpose({inverse}))"
    return ctx.assign("o", arr)


def _sort_lowering(ctx, eqn):
    dim, num_keys = eqn.params["dimension"], eqn.params["num_keys"]
    avals = ctx.in_avals
    if not avals[0].shape or avals[0].shape[dim] == 0:
        return [ctx.array(i) if avals[0].shape else ctx.scalar(i) for i in range(len(avals))]
    shape = ctx.in_shape(0)
    ops = [_moved_lowering(ctx, i, dim, len(shape)) for i in range(len(avals))]
    n = shape[dim]
    rows = math.prod(shape[:dim]) * math.prod(shape[dim + 1 :])
    outs = [ctx.assign("s", alloc((rows, n), a.dtype)) for a in avals]
    with ctx.block(f"for r in range({rows}):"):
        perm = ctx.assign("perm", f"np.arange({n})")
        for key, aval in reversed(list(zip(ops[:num_keys], avals))):
            # a complex key sorts by its real part, then its imaginary part (XLA's comparator,
            # each NaN last; numba's sort of complex numbers puts every one holding a NaN last)
            parts = (".imag", ".real") if aval.dtype.kind == "c" else ("",)
            for part in parts:
                ctx.line(f"{perm} = {perm}[np.argsort({key}[r][{perm}]{part}, kind='mergesort')]")
        with ctx.block(f"for j in range({n}):"):
            for src, dst, aval in zip(ops, outs, avals):
                val = f"{src}[r, {perm}[j]]"
                ctx.line(
                    f"{dst}[r, j] = {val} != 0"
                    if aval.dtype == np.bool_
                    else f"{dst}[r, j] = {val}"
                )
    return [_moved_back_lowering(ctx, o, shape, dim) for o in outs]


register_lowering(sort_p, Kernel(_sort_lowering))


def _top_k_lowering(ctx, eqn):
    """Per row, a stable ascending sort of the row's keys complemented (`~`: descending, ties
    in index order, as XLA's TopK), written as `sort` writes its sorts (which the lean back end
    writes out as a merge sort, `core/backends/llvm/rewrite.py`); float keys are their IEEE
    totalOrder integers (-nan lowest, -0.0 below 0.0)."""
    k, axis = eqn.params["k"], eqn.params["axis"]
    xa, x_shape = ctx.in_avals[0], ctx.in_shape(0)
    n = x_shape[axis]
    rows = math.prod(x_shape[:axis]) * math.prod(x_shape[axis + 1 :])
    x = _moved_lowering(ctx, 0, axis, len(x_shape))
    vals = ctx.assign("v", alloc((rows, k), xa.dtype))
    idx = ctx.assign("i", alloc((rows, k), np.int32))
    if k:
        if xa.dtype.kind == "f":  # XLA's TopK compares in IEEE totalOrder (-0.0 < 0.0)
            bits = 8 * xa.dtype.itemsize
            ints = np.dtype(f"int{bits}")
            key = ctx.assign("key", alloc((rows, n), ints))
            with ctx.block(f"for r in range({rows}):"), ctx.block(f"for j in range({n}):"):
                b = ctx.assign("b", f"rt.bitcast(rt.ld({x}, r * {n} + j), {const(0, ints)})")
                mask = const(2 ** (bits - 1) - 1, ints)
                ctx.line(f"rt.st({key}, r * {n} + j, ~({b} ^ (({b} >> {bits - 1}) & {mask})))")
        else:
            key = ctx.assign(
                "key", alloc((rows, n), xa.dtype if xa.dtype != np.bool_ else np.uint8)
            )
            with ctx.block(f"for r in range({rows}):"), ctx.block(f"for j in range({n}):"):
                ctx.line(f"rt.st({key}, r * {n} + j, ~rt.ld({x}, r * {n} + j))")
        with ctx.block(f"for r in range({rows}):"):
            perm = ctx.assign("perm", f"np.arange({n})")
            ctx.line(f"{perm} = {perm}[np.argsort({key}[r][{perm}], kind='mergesort')]")
            with ctx.block(f"for j in range({k}):"):
                q = ctx.assign("q", f"{perm}[j]")
                ctx.line(f"{idx}[r, j] = {q}")
                val = f"{x}[r, {q}]"
                ctx.line(
                    f"{vals}[r, j] = {val} != 0"
                    if xa.dtype == np.bool_
                    else f"{vals}[r, j] = {val}"
                )
    shape = (*x_shape[:axis], k, *x_shape[axis + 1 :])
    return [_moved_back_lowering(ctx, o, shape, axis) for o in (vals, idx)]


register_lowering(top_k_p, Kernel(_top_k_lowering))


_KIND = {"cumsum": "sum", "cumprod": "prod", "cummax": "max", "cummin": "min"}


def _split_lowering(shape, axis) -> tuple[int, int, int]:
    return math.prod(shape[:axis]), shape[axis], math.prod(shape[axis + 1 :])


def _cumulative_lowering(ctx, eqn):
    axis, reverse = eqn.params["axis"], eqn.params["reverse"]
    xa, shape = ctx.in_avals[0], ctx.in_shape(0)
    outer, n, inner = _split_lowering(shape, axis)
    x = ctx.assign("x", reshape(ctx.array(0), (outer, n, inner)))
    o = ctx.assign("o", alloc((outer, n, inner), xa.dtype))
    kind = _KIND[eqn.prim.name]
    if n and kind in ("sum", "prod") and xa.dtype.kind in "fc":
        _xla_order_scan(ctx, x, o, (outer, n, inner), kind, xa.dtype, reverse)
    elif n:
        first, step = (n - 1, -1) if reverse else (0, 1)
        with ctx.block(f"for i in range({outer}):"):
            with ctx.block(f"for j in range({inner}):"):
                ctx.line(f"{o}[i, {first}, j] = {x}[i, {first}, j]")
            with ctx.block(f"for q in range(1, {n}):"):
                p = ctx.assign("p", f"{first} + {step} * q")
                with ctx.block(f"for j in range({inner}):"):
                    new = combine(kind, xa.dtype, f"{o}[i, {p} - {step}, j]", f"{x}[i, {p}, j]")
                    new = cast(new, xa.dtype) if xa.dtype.kind in "iub" else new
                    ctx.line(f"{o}[i, {p}, j] = {new}")
    return [ctx.assign("o", reshape(o, shape))]


def _xla_order_scan(ctx, x, o, shape, kind, dtype, reverse) -> None:
    """Emits the running sum or product of `x` into `o` (both (outer, n, inner)) in the
    order of XLA's CPU (see `core.prims.sorting.xla_order_scan`): blocks of 16 scanned from
    the identity in increasing index order, the blocks' totals scanned the same way (a
    (blocks, inner) array of totals and one of their scan per level), then each element
    combined with the total before (after) its block. The loops keep the inner axis innermost,
    as the plain scan does."""
    outer, n, inner = shape
    block = SCAN_BLOCK
    ident = identity(kind, dtype)
    sizes = [n]  # the levels' lengths: the axis, its blocks' totals, their blocks' totals...
    while sizes[-1] > block:
        sizes.append(-(-sizes[-1] // block))
    reads, writes = [lambda p: f"{x}[i, {p}, j]"], [lambda p: f"{o}[i, {p}, j]"]
    for size in sizes[1:]:
        for refs in (reads, writes):
            t = ctx.assign("t", alloc((size, inner), dtype))
            refs.append(lambda p, a=t: f"{a}[{p}, j]")

    op = "+" if kind == "sum" else "*"  # not `combine`'s reassociable ops: the order matters

    def fold_into(dst, acc, value):
        with ctx.block(f"for j in range({inner}):"):
            ctx.line(f"{dst} = {acc} {op} {value}")

    with ctx.block(f"for i in range({outer}):"):
        for lv, size in enumerate(sizes):  # each level: its blocks scanned, their totals kept
            src, dst = reads[lv], writes[lv]
            with ctx.block(f"for b in range({-(-size // block)}):"):
                start = ctx.assign("s", f"b * {block}")
                stop = ctx.assign("e", f"min({start} + {block}, {size})")
                if reverse:  # output p folds p..e-1 in increasing order
                    with ctx.block(f"for p in range({start}, {stop}):"):
                        fold_into(dst("p"), ident, src("p"))
                        with ctx.block(f"for q in range(p + 1, {stop}):"):
                            fold_into(dst("p"), dst("p"), src("q"))
                    total = dst(start)
                else:
                    fold_into(dst(start), ident, src(start))
                    with ctx.block(f"for p in range({start} + 1, {stop}):"):
                        fold_into(dst("p"), dst("p - 1"), src("p"))
                    total = dst(f"{stop} - 1")
                if lv + 1 < len(sizes):
                    with ctx.block(f"for j in range({inner}):"):
                        ctx.line(f"{reads[lv + 1]('b')} = {total}")
        for lv in range(len(sizes) - 2, -1, -1):  # each level combined with the scanned totals
            size, dst, totals = sizes[lv], writes[lv], writes[lv + 1]
            blocks = sizes[lv + 1]
            span = f"range({(blocks - 1) * block})" if reverse else f"range({block}, {size})"
            with ctx.block(f"for p in {span}:"):
                b = ctx.assign("b", f"p // {block} + 1" if reverse else f"p // {block} - 1")
                fold_into(dst("p"), dst("p"), totals(b))


register_lowering(cumsum_p, Kernel(_cumulative_lowering))
register_lowering(cumprod_p, Kernel(_cumulative_lowering))
register_lowering(cummax_p, Kernel(_cumulative_lowering))
register_lowering(cummin_p, Kernel(_cumulative_lowering))
