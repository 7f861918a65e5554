"""Numba lowering rules of `core.prims.linalg`."""

from __future__ import annotations

import math

from core import dtypes
from core.backends.numba.registry import Kernel, register_lowering
from core.backends.numba.source import alloc, const, np_type, reshape
from core.prims.linalg import dot_general_p


def _dot_general_lowering(ctx, eqn):
    """out[b, m, n] = sum_k x[b, m, k] y[b, k, n] after grouping each operand's axes."""
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
    x, x_t = _matrices_lowering(ctx, 0, list(xb), xf, list(xc), dt)
    y, y_t = _matrices_lowering(ctx, 1, list(yb), list(yc), yf, dt)
    if dtypes.kind(dt) in "fc" and m * n * k > 0:
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
    else:
        perm = tuple(batch + rows + cols)
        expr = reshape(f"rt.contiguous({ctx.array(i)}.transpose({perm}))", (*lead, r, c))
        swapped = False
    if aval.dtype != dtype:
        expr = f"{expr}.astype({np_type(dtype)})"
    return (expr if expr == name else ctx.assign("g", expr)), swapped


register_lowering(dot_general_p, Kernel(_dot_general_lowering))
