"""Numba lowering of the movement, reduction and array primitives.

Movement primitives (broadcast_in_dim, transpose, slice, iota, reshapes that only add or drop
size-1 axes) are index maps (`View`), free until a loop reads through them. Reductions are
`Reduce` sinks fused into their producer's loop. The rest are `Kernel`s: `dot_general` calls
BLAS through `np.dot` (`rt.dot`) on contiguous float matrices (transposed operands passed as
`.T` views, batch dimensions as a loop of `np.dot` into slices of the output) and explicit
loops for integers; pad and concatenate assign into slices; argmax/argmin are loops.
"""

from __future__ import annotations

import numpy as np

from core.jit.errors import LoweringError
from core.jit.loops import LoopNest, copy_into
from core.jit.lowering import Kernel, Reduce, View, alloc, const, np_type, reshape
from core.prims import collectives, indexing, linalg, reductions, rev, shapes

# ---------------------------------------------------------------------------------------------
# Views


def _broadcast_in_dim(in_shape, out_shape, *, shape, broadcast_dimensions):
    return tuple(
        (0, ()) if in_shape[k] == 1 and shape[d] != 1 else (0, ((d, 1),))
        for k, d in enumerate(broadcast_dimensions)
    )


def _transpose(in_shape, out_shape, *, permutation):
    return tuple((0, ((permutation.index(k), 1),)) for k in range(len(in_shape)))


def _slice(in_shape, out_shape, *, start_indices, limit_indices, strides):
    return tuple((s, ((k, st),)) for k, (s, st) in enumerate(zip(start_indices, strides)))


def _reshape(in_shape, out_shape, *, new_sizes):
    """Index arithmetic when only size-1 axes change; None otherwise."""
    big_in = [k for k, n in enumerate(in_shape) if n != 1]
    big_out = [d for d, n in enumerate(out_shape) if n != 1]
    if [in_shape[k] for k in big_in] != [out_shape[d] for d in big_out]:
        return None
    to_out = dict(zip(big_in, big_out))
    return tuple((0, ((to_out[k], 1),)) if k in to_out else (0, ()) for k in range(len(in_shape)))


def _iota(in_shape, out_shape, *, dtype, shape, dimension):
    return ((0, ((dimension, 1),)),)


def _rev(in_shape, out_shape, *, dimensions):
    return tuple(
        (n - 1, ((k, -1),)) if k in dimensions else (0, ((k, 1),)) for k, n in enumerate(in_shape)
    )


shapes.broadcast_in_dim_p.def_lowering(View(_broadcast_in_dim))
shapes.transpose_p.def_lowering(View(_transpose))
shapes.reshape_p.def_lowering(View(_reshape))
shapes.iota_p.def_lowering(View(_iota))
indexing.slice_p.def_lowering(View(_slice))
rev.rev_p.def_lowering(View(_rev))

for _prim, _kind in [
    (reductions.reduce_sum_p, "sum"),
    (reductions.reduce_prod_p, "prod"),
    (reductions.reduce_max_p, "max"),
    (reductions.reduce_min_p, "min"),
    (reductions.reduce_and_p, "and"),
    (reductions.reduce_or_p, "or"),
]:
    _prim.def_lowering(Reduce(_kind))

# ---------------------------------------------------------------------------------------------
# Kernels


def _dot_general(ctx, eqn):
    """out[b, m, n] = sum_k x[b, m, k] y[b, k, n] after grouping each operand's axes."""
    (xc, yc), (xb, yb) = eqn.params["dimension_numbers"]
    xa, ya = ctx.in_avals
    out = ctx.out_avals[0]
    xf = [d for d in range(xa.ndim) if d not in xc and d not in xb]
    yf = [d for d in range(ya.ndim) if d not in yc and d not in yb]
    nb, m, k, n = _size(xa, xb), _size(xa, xf), _size(xa, xc), _size(ya, yf)
    dt = out.dtype
    x, x_t = _matrices(ctx, 0, list(xb), xf, list(xc), dt)
    y, y_t = _matrices(ctx, 1, list(yb), list(yc), yf, dt)
    if dt.kind in "fc" and m * n * k > 0:
        o_shape = (m, n) if nb == 1 else (nb, m, n)
        o = ctx.assign("d", alloc(o_shape, dt))
        if nb == 1:
            ctx.line(f"rt.dot({x}{'.T' * x_t}, {y}{'.T' * y_t}, {o})")
        else:
            with ctx.block(f"for b in range({nb}):"):
                ctx.line(f"rt.dot({x}[b]{'.T' * x_t}, {y}[b]{'.T' * y_t}, {o}[b])")
    else:  # integers (no BLAS), or empty operands
        o_shape = (nb, m, n)
        o = ctx.assign("d", alloc(o_shape, dt, const(0, dt)))
        if nb == 1:
            x, y = (
                ctx.assign("x", reshape(x, (1, k, m) if x_t else (1, m, k))),
                ctx.assign("y", reshape(y, (1, n, k) if y_t else (1, k, n))),
            )
        xi = "b, p, i" if x_t else "b, i, p"
        yi = "b, j, p" if y_t else "b, p, j"
        with (
            ctx.block(f"for b in range({nb}):"),
            ctx.block(f"for i in range({m}):"),
            ctx.block(f"for p in range({k}):"),
        ):
            xv = ctx.assign("x", f"{x}[{xi}]")
            with ctx.block(f"for j in range({n}):"):
                ctx.line(f"{o}[b, i, j] += {xv} * {y}[{yi}]")
    if out.shape == ():
        return [f"{o}[{', '.join('0' * len(o_shape))}]"]
    if out.shape == o_shape:
        return [o]
    return [ctx.assign("d", reshape(o, out.shape))]


def _size(aval, dims) -> int:
    return int(np.prod([aval.shape[d] for d in dims], dtype=np.int64))


def _matrices(ctx, i, batch, rows, cols, dtype):
    """Operand i as C-contiguous `(rows, cols)` matrices (`(batch, rows, cols)` when batched),
    or as `(cols, rows)` ones and True, to be used transposed.

    Free when the operand (or the array it is a transposed view of) stores its axes in one of
    these orders, size-1 axes aside; otherwise a transposed copy.
    """
    aval = ctx.in_avals[i]
    name, phys = ctx.array_layout(i)
    big = lambda ds: [d for d in ds if aval.shape[d] != 1]  # noqa: E731
    b, r, c = _size(aval, batch), _size(aval, rows), _size(aval, cols)
    lead = () if b == 1 else (b,)
    stored = tuple(aval.shape[d] for d in phys)
    view = lambda shape: name if shape == stored else reshape(name, shape)  # noqa: E731
    if big(batch + rows + cols) == big(phys):
        expr, swapped = view((*lead, r, c)), False
    elif big(batch + cols + rows) == big(phys):
        expr, swapped = view((*lead, c, r)), True
    else:
        perm = tuple(batch + rows + cols)
        expr = reshape(f"rt.contiguous({ctx.array(i)}.transpose({perm}))", (*lead, r, c))
        swapped = False
    if aval.dtype != dtype:
        expr = f"{expr}.astype({np_type(dtype)})"
    return (expr if expr == name else ctx.assign("g", expr)), swapped


def _pad(ctx, eqn):
    """Fill with the padding value, then copy the operand into a strided block."""
    cfg = eqn.params["padding_config"]
    xa, out = ctx.in_avals[0], ctx.out_avals[0]
    o = ctx.assign("p", alloc(out.shape, out.dtype, ctx.scalar(1)))
    counts, src_starts, dst_starts, steps = [], [], [], []
    for n, (lo, _, it), size in zip(xa.shape, cfg, out.shape):
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
        copy_into(
            ctx.em,
            o,
            out.shape,
            ctx.array(0),
            xa.shape,
            counts=counts,
            dst_starts=dst_starts,
            dst_steps=steps,
            src_starts=src_starts,
        )
    return [o]


def _concatenate(ctx, eqn):
    """One loop nest per operand, reading it through its index map (a broadcast or iota
    operand is never materialized) and storing into its block of the output."""
    dim = eqn.params["dimension"]
    out = ctx.out_avals[0]
    o = ctx.assign("c", alloc(out.shape, out.dtype))
    start = 0
    for x, aval in zip(eqn.inputs, ctx.in_avals):
        if aval.size:
            starts = [0] * out.ndim
            starts[dim] = start
            nest = LoopNest(ctx.em, aval.shape, ctx.gen.parallel)
            src = nest.load(ctx.gen.read(x))
            dst = nest.store(out.dtype, into=(o, out.shape, starts))
            nest.emit(lambda n, src=src, dst=dst: n.write(dst, n.read(src)))
        start += aval.shape[dim]
    return [o]


def _argext(op: str):
    def rule(ctx, eqn):
        (axis,) = eqn.params["axes"]
        xa, out = ctx.in_avals[0], ctx.out_avals[0]
        n = xa.shape[axis]
        outer = int(np.prod(xa.shape[:axis], dtype=np.int64))
        inner = int(np.prod(xa.shape[axis + 1 :], dtype=np.int64))
        x = ctx.assign("x", reshape(ctx.array(0), (outer, n, inner)))
        o = ctx.assign("o", alloc((outer, inner), out.dtype, const(0, out.dtype)))
        nan = xa.dtype.kind in "fc"
        with ctx.block(f"for i in range({outer}):"), ctx.block(f"for j in range({inner}):"):
            best = ctx.assign("best", f"{x}[i, 0, j]")
            with ctx.block(f"for p in range(1, {n}):"):
                v = ctx.assign("v", f"{x}[i, p, j]")
                cond = f"{v} {op} {best}"
                if nan:
                    cond = f"({cond}) | (({v} != {v}) & ({best} == {best}))"
                with ctx.block(f"if {cond}:"):
                    ctx.line(f"{best} = {v}")
                    ctx.line(f"{o}[i, j] = p")
        if out.shape == ():
            return [f"{o}[0, 0]"]
        return [ctx.assign("o", reshape(o, out.shape))]

    return rule


linalg.dot_general_p.def_lowering(Kernel(_dot_general))
indexing.pad_p.def_lowering(Kernel(_pad))
indexing.concatenate_p.def_lowering(Kernel(_concatenate))
reductions.argmax_p.def_lowering(Kernel(_argext(">")))
reductions.argmin_p.def_lowering(Kernel(_argext("<")))


def _collective(ctx, eqn):
    raise LoweringError(
        f"the collective {eqn.prim.name!r} outside a `vmap` that binds its axis_name (inside "
        "`vmap(..., axis_name=...)` it is batched away before compilation)"
    )


for _prim in (
    collectives.psum_p,
    collectives.pmax_p,
    collectives.pmin_p,
    collectives.all_gather_p,
    collectives.axis_index_p,
):
    _prim.def_lowering(Kernel(_collective))
