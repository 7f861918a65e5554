"""Numba lowering rules of `core.prims.narrow`, the compiler's bfloat16 primitives.

`round_bfloat16` rounds a float32 value to the nearest bfloat16 number (ties to even, a NaN
to the quiet NaN of its sign, as XLA's and ml_dtypes' conversions), with integer operations
on its bits: one expression, fused into the loop that computes the value. `rounded_sum` sums
the rows of a 2-D array in order, rounding after each addition.
"""

from __future__ import annotations

import math

import numpy as np

from core.backends.numba.registry import Kernel, Scalar, register_lowering
from core.backends.numba.source import alloc, const, reshape
from core.prims.narrow import round_bfloat16_p, rounded_sum_p

_U32, _F32 = np.dtype(np.uint32), np.dtype(np.float32)


def rounded(tmp, x: str) -> str:
    """The expression of float32 `x` rounded to bfloat16 (`tmp(expr)` names a temporary)."""
    u = tmp(f"rt.bitcast({x}, {const(0, _U32)})")
    c = lambda v: const(v, _U32)  # noqa: E731
    up = f"np.uint32(({u} + ({c(0x7FFF)} + (({u} >> {c(16)}) & {c(1)}))) & {c(0xFFFF0000)})"
    nan = f"np.uint32(({u} & {c(0x80000000)}) | {c(0x7FC00000)})"
    f = const(0, _F32)
    return f"rt.bitcast(rt.where({x} != {x}, {nan}, {up}), {f})"


def _round_lowering(ctx, x):
    return rounded(ctx.tmp, ctx.tmp(x))


register_lowering(round_bfloat16_p, Scalar(_round_lowering))


def _rounded_sum_lowering(ctx, eqn):
    n, *rest = ctx.in_shape(0)
    m = math.prod(rest)
    x = ctx.assign("x", reshape(ctx.array(0), (n, m)))
    o = ctx.assign("o", alloc((m,), _F32, const(0, _F32)))
    with ctx.block(f"for i in range({n}):"), ctx.block(f"for j in range({m}):"):
        s = ctx.assign("s", f"{o}[j] + {x}[i, j]")
        ctx.line(f"{o}[j] = {rounded(lambda e: ctx.assign('t', e), s)}")
    return [ctx.assign("o", reshape(o, ctx.out_shape(0)))]


register_lowering(rounded_sum_p, Kernel(_rounded_sum_lowering))
