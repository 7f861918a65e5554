"""Numba lowering rules of `core.prims.linalg`."""

from __future__ import annotations

import math

import numpy as np

from core import dtypes
from core.backends.numba.library.skinny import SHORT_COLUMNS, SHORT_K, SKINNY_ROWS
from core.backends.numba.registry import Kernel, register_lowering
from core.backends.numba.source import alloc, const, np_type, reshape
from core.prims.linalg import dot_general_p


def _dot_general_lowering(ctx, eqn):
    """out[b, m, n] = sum_k x[b, m, k] y[b, k, n] after grouping each operand's axes: BLAS
    (`lib.dot`, batched `lib.gemm_batched`), register tiles for few rows times an operand
    inside a loop and for short contractions (`lib.skinny_nn`; dot products of rows,
    `lib.skinny_dot`, for an operand stored transposed), loops for integers."""
    (xc, yc), (xb, yb) = eqn.params["dimension_numbers"]
    xa, ya = ctx.in_avals
    out = ctx.out_avals[0]
    xf = [d for d in range(xa.ndim) if d not in xc and d not in xb]
    yf = [d for d in range(ya.ndim) if d not in yc and d not in yb]
    xs, ys = ctx.in_shape(0), ctx.in_shape(1)
    nb, m, k, n = (
        _size_lowering(xs, xb),
        _size_lowering(xs, xf),
        _size_lowering(xs, xc),
        _size_lowering(ys, yf),
    )
    dt = out.dtype
    blas = dtypes.kind(dt) in "fc" and m * n * k > 0
    if blas and nb > 1:
        o_shape = (nb, m, n)
        o = _batched_lowering(ctx, (list(xb), xf, list(xc)), (list(yb), list(yc), yf), k, o_shape)
    elif blas:
        x, x_t = _matrices_lowering(ctx, 0, list(xb), xf, list(xc), dt)
        y, y_t = _matrices_lowering(ctx, 1, list(yb), list(yc), yf, dt)
        o_shape = (m, n)
        o = ctx.assign("d", alloc(o_shape, dt))
        # Few rows only in loops (a scan's per-step product): a product of the kernel's own
        # runs once, where BLAS does as well, and which path it took would depend on the batch
        # size, so a batch of 16 after one of 32 would compile the kernel again. A short
        # contraction into whole vectors of columns (an LSTM's input projection, 64 x 1024)
        # takes the register tiles anywhere: BLAS packs both operands for a few steps.
        floats = np.dtype(dt) in (np.float32, np.float64)
        skinny = ctx.depth > 1 and m <= SKINNY_ROWS
        short = k <= SHORT_K and n >= SHORT_COLUMNS and n % SHORT_COLUMNS == 0 and not y_t
        if (skinny or short) and not x_t and floats:
            # b stored (k, n): tiles of rows by vectors of b's rows (`skinny_rows`); stored
            # transposed: dot products of rows (`skinny_columns`)
            code, part, whole = np.dtype(dt).str[1:], "skinny_rows", "skinny_nn"
            if y_t:
                part, whole = "skinny_columns", "skinny_dot"
            if ctx.in_task:  # on this task's thread: its rows, all the columns (0.. n)
                ctx.line(f"lib.{part}__{code}({x}, {y}, {o}, ({m}, {k}, {n}), 0, {n})")
            else:
                ctx.line(f"lib.{whole}__{code}({x}, {y}, {o}, ({m}, {k}, {n}))")
        else:
            ctx.line(f"lib.dot({x}{'.T' * x_t}, {y}{'.T' * y_t}, {o})")
    else:  # integers (no BLAS), or empty operands
        x, x_t = _matrices_lowering(ctx, 0, list(xb), xf, list(xc), dt)
        y, y_t = _matrices_lowering(ctx, 1, list(yb), list(yc), yf, dt)
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
        return [f"rt.ld({o}, 0)"]  # its one element (a flat load: lean code lowers it)
    if out.shape == o_shape:
        return [o]
    return [ctx.assign("d", reshape(o, ctx.out_shape(0)))]


def _size_lowering(shape, dims) -> int:
    return math.prod(shape[d] for d in dims)


def _matrices_lowering(ctx, i, batch, rows, cols, dtype):
    """Operand i as C-contiguous `(rows, cols)` matrices (`(batch, rows, cols)` when batched),
    or as `(cols, rows)` ones and True, to be used transposed.

    Free when the operand (or the array it is a transposed view of) stores its axes in one of
    these orders, size-1 axes aside; otherwise a transposed copy.
    """
    aval, shape = ctx.in_avals[i], ctx.in_shape(i)
    name, phys = ctx.array_layout(i)
    big = lambda ds: [d for d in ds if aval.shape[d] != 1]  # noqa: E731
    b, r, c = _size_lowering(shape, batch), _size_lowering(shape, rows), _size_lowering(shape, cols)
    lead = () if b == 1 else (b,)
    stored = tuple(shape[d] for d in phys)
    view = lambda shape: name if shape == stored else reshape(name, shape)  # noqa: E731
    if big(batch + rows + cols) == big(phys):
        expr, swapped = view((*lead, r, c)), False
    elif big(batch + cols + rows) == big(phys):
        expr, swapped = view((*lead, c, r)), True
    else:  # one copy loop, in the order the product reads or its transpose: whichever reads
        # the operand's last stored axis innermost (a weight gradient's `h^T` of time-major
        # states, (T, B, H) read as (H, B * T), read H 16 KB apart, 1-2 ms a step), but in
        # loops, whose products of few rows want their first operand untransposed
        swapped = bool(ctx.depth == 1 and rows and big(phys) and big(phys)[-1] in rows)
        order = batch + (cols + rows if swapped else rows + cols)
        imap = tuple((0, ((order.index(d), 1),)) for d in range(aval.ndim))
        value = ctx.operand(i).compose(imap, tuple(aval.shape[d] for d in order))
        expr = reshape(ctx.as_array(value), (*lead, *((c, r) if swapped else (r, c))))
    if aval.dtype != dtype:
        expr = f"{expr}.astype({np_type(dtype)})"
    return (expr if expr == name else ctx.assign("g", expr)), swapped


def _batched_lowering(ctx, x_axes, y_axes, k, o_shape) -> str:
    """The batched product (`core/jit/bgemm.py`) of the two operands, each given as its
    (batch, rows, cols) axes: read in place when the array it lives in stores every batch
    element as a BLAS matrix (`_strided`), else through a copy; returns the new (batch, m, n)
    array."""
    dt = ctx.out_avals[0].dtype
    operands = []
    for i, axes in enumerate((x_axes, y_axes)):
        found = _strided(ctx, i, *axes) if ctx.in_avals[i].dtype == dt else None
        if found is None:  # a contiguous (batch, rows, cols) copy, or (batch, cols, rows)
            name, swapped = _matrices_lowering(ctx, i, *axes, dt)
            r, c = (_size_lowering(ctx.in_shape(i), a) for a in axes[1:])
            found = (name, r * c, c if not swapped else r, swapped)
        operands.append(found)
    sizes = [ctx.in_shape(0)[d] for d in x_axes[0]]
    offsets = _offsets_lowering(ctx, o_shape[0], sizes, [op[1] for op in operands])
    o = ctx.assign("d", alloc(o_shape, dt))
    (x, _, ldx, tx), (y, _, ldy, ty) = operands
    m, n = o_shape[1:]
    p = f"({m}, {k}, {n}, {ldx}, {ldy}, {int(tx)}, {int(ty)})"
    code = np.dtype(dt).str[1:]
    ctx.line(f"lib.gemm_batched__{code}({x}, {offsets[0]}, {y}, {offsets[1]}, {o}, {p})")
    return o


def _strided(ctx, i, batch, rows, cols):
    """Operand i in place: `(array, batch strides, leading dimension, transposed)` when it is
    a C-contiguous array (or a transposed view of one) that stores its row axes next to each
    other and in order, its column axes likewise, and one of the two groups innermost, so that
    each batch element is a BLAS matrix at an offset; None otherwise."""
    aval, shape, value = ctx.in_avals[i], ctx.in_shape(i), ctx.operand(i)
    phys = value.permutation()
    if phys is None:
        return None
    stored = [d for d in phys if aval.shape[d] != 1]  # physical order of the axes that count
    stride, s = {}, 1
    for d in reversed(phys):
        stride[d], s = s, s * shape[d]
    rb, cb = ([d for d in axes if aval.shape[d] != 1] for axes in (rows, cols))
    for axes in (rb, cb):
        if axes and stored[stored.index(axes[0]) :][: len(axes)] != axes:
            return None
    strides = [stride[d] for d in batch]
    if not cb or cb[-1] == stored[-1]:  # row-major: a row's elements are adjacent
        return value.expr, strides, stride[rb[-1]] if rb else _size_lowering(shape, cols), False
    if not rb or rb[-1] == stored[-1]:  # column-major
        return value.expr, strides, stride[cb[-1]], True
    return None


def _offsets_lowering(ctx, nb, sizes, strides) -> list[str]:
    """Per operand, an int64 array of the offsets of the `nb` batch elements (row-major over
    batch axes of `sizes`) in its array: `strides` gives the stride of each batch axis, or the
    size of one matrix (a contiguous copy). One loop nest fills them all."""
    names = [ctx.assign("bo", alloc((nb,), np.dtype(np.int64))) for _ in strides]
    idx = [ctx.new_name("j") for _ in sizes]
    flat = ""
    for j, n in zip(idx, sizes):
        ctx.open(f"for {j} in range({n}):")
        flat = f"({flat}) * {n} + {j}" if flat else j
    for name, st in zip(names, strides):
        if isinstance(st, list):
            terms = " + ".join(f"{j} * {t}" for j, t in zip(idx, st)) or "0"
        else:
            terms = f"({flat}) * {st}"
        ctx.line(f"rt.st({name}, {flat}, {terms})")
    ctx.close(len(sizes))
    return names


register_lowering(dot_general_p, Kernel(_dot_general_lowering))
