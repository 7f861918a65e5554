"""Numba lowering of the windowed reductions and of the selections of max/min pooling
(`core/prims/windows.py`), any rank: one call of a library function
(`core/backends/numba/library/windows.py`) with the window's sizes, strides, paddings and
dilations as run-time parameters, so no pooling layer compiles loop code of its own.

The trailing axes that every window covers with one tap (the channels of a pooling layer) are
merged into one contiguous inner run, which the library's loops vectorize over. Sizes are the
kernel's `Size`s (`KernelCtx.in_shape`), so a kernel of a split program serves every batch size.
"""

from __future__ import annotations

import math

import numpy as np

from core.backends.numba.library.windows import MAX, MIN, SUM
from core.backends.numba.registry import Kernel, register_lowering
from core.backends.numba.source import alloc, const, identity, reshape
from core.prims.windows import (
    reduce_window_max_p,
    reduce_window_min_p,
    reduce_window_sum_p,
    select_and_gather_add_p,
    select_and_scatter_add_p,
)

_KINDS = {"sum": SUM, "max": MAX, "min": MIN}


def _walk_params(x_shape, out_shape, p) -> list[int]:
    """The library's window-walk parameters: rank r >= 1 of the leading axes, the size of the
    merged trailing one-tap axes, then the per-axis vectors of the leading axes."""
    dims, strides, pads = p["window_dimensions"], p["window_strides"], p["padding"]
    bdil, wdil = p["base_dilation"], p["window_dilation"]
    r = len(x_shape)
    while r and (dims[r - 1], strides[r - 1], pads[r - 1], bdil[r - 1], wdil[r - 1]) == (
        1,
        1,
        (0, 0),
        1,
        1,
    ):
        r -= 1
    if not x_shape:  # a scalar: one axis of one element, one tap
        return [1, 1, 1, 1, 1, 1, 0, 1, 1]
    r = max(r, 1)  # the library walks rows of the last leading axis
    inner = math.prod(x_shape[r:])
    return [
        r,
        inner,
        *x_shape[:r],
        *out_shape[:r],
        *dims[:r],
        *strides[:r],
        *(lo for lo, _ in pads[:r]),
        *bdil[:r],
        *wdil[:r],
    ]


def _code(dtype) -> str:
    return np.dtype(dtype).str[1:]


def _params(values) -> str:
    """The parameter tuple as source text (sizes as their `Size` text)."""
    return f"({', '.join(map(str, values))},)"


def _result_lowering(ctx, out: str, shape) -> str:
    return f"rt.ld({out}, 0)" if shape == () else ctx.assign("o", reshape(out, shape))


def _reduce_window_lowering(kind: str):
    def rule(ctx, eqn):
        xa, oa = ctx.in_avals[0], ctx.out_avals[0]
        ident = identity(kind, xa.dtype)
        if not (xa.size and oa.size):
            return [ident if oa.shape == () else ctx.assign("o", alloc(oa.shape, oa.dtype, ident))]
        xs, osh = ctx.in_shape(0), ctx.out_shape(0)
        out = ctx.assign("o", alloc((math.prod(osh),), oa.dtype))
        params = _params((_KINDS[kind], *_walk_params(xs, osh, eqn.params)))
        x = ctx.array(0)
        ctx.line(f"lib.reduce_window__{_code(xa.dtype)}({x}, {out}, {params}, {ident})")
        return [_result_lowering(ctx, out, osh)]

    return rule


register_lowering(reduce_window_max_p, Kernel(_reduce_window_lowering("max")))
register_lowering(reduce_window_min_p, Kernel(_reduce_window_lowering("min")))
register_lowering(reduce_window_sum_p, Kernel(_reduce_window_lowering("sum")))


def _selection_lowering(scatter: bool):
    """select_and_scatter_add (`scatter`) or select_and_gather_add: find each window's first
    maximal/minimal tap of the operand `x` (input 1), then move the values of input 0."""

    def rule(ctx, eqn):
        va, xa = ctx.in_avals
        oa = ctx.out_avals[0]
        kind = eqn.params["select_prim"]
        if not (xa.size and va.size and oa.size):
            zero = const(0, oa.dtype)
            return [zero if oa.shape == () else ctx.assign("o", alloc(oa.shape, oa.dtype, zero))]
        params = {k: v for k, v in eqn.params.items() if k != "select_prim"}
        osh = ctx.out_shape(0)
        walk = _walk_params(ctx.in_shape(1), ctx.in_shape(0) if scatter else osh, params)
        out = ctx.assign("o", alloc((math.prod(osh),), oa.dtype))
        v, x = ctx.array(0), ctx.array(1)
        fn = f"select_window__{_code(va.dtype)}_{_code(xa.dtype)}"
        args = f"{v}, {x}, {out}, {_params((int(scatter), _KINDS[kind], *walk))}"
        ctx.line(f"lib.{fn}({args}, {identity(kind, xa.dtype)})")
        return [_result_lowering(ctx, out, osh)]

    return rule


register_lowering(select_and_gather_add_p, Kernel(_selection_lowering(scatter=False)))
register_lowering(select_and_scatter_add_p, Kernel(_selection_lowering(scatter=True)))
