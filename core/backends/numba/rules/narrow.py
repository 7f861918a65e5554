"""Numba lowering rules of `core.prims.narrow`, the compiler's bfloat16 and float16 primitives.

`round_bfloat16` rounds a float32 value to the nearest bfloat16 number (ties to even, a NaN
to the quiet NaN of its sign, as XLA's and ml_dtypes' conversions), with integer operations
on its bits: one expression, fused into the loop that computes the value. `round_float16` does
the same for float16: normal numbers drop 13 mantissa bits the same way (past 65504 they become
infinity), numbers below float16's smallest normal one round to a multiple of 2**-24 by one
float32 addition (`(|x| + 0.5) - 0.5`, exact but for that rounding). `rounded_reduce` adds or
multiplies the rows of a 2-D array in order, rounding after each step.
"""

from __future__ import annotations

import math

import numpy as np

from core import dtypes
from core.backends.numba.registry import Kernel, Scalar, register_lowering
from core.backends.numba.source import alloc, const, reshape
from core.prims.narrow import IDENTITY, round_bfloat16_p, round_float16_p, rounded_reduce_p

_U32, _F32 = np.dtype(np.uint32), np.dtype(np.float32)


def _c(v: int) -> str:
    return const(v, _U32)


def _nearest(u: str, bits: int) -> str:
    """The bits `u` with their low `bits` bits rounded off to nearest, ties to even."""
    keep = (0xFFFFFFFF << bits) & 0xFFFFFFFF
    half, lsb = _c((1 << (bits - 1)) - 1), _c(1)
    return f"np.uint32(({u} + ({half} + (({u} >> {_c(bits)}) & {lsb}))) & {_c(keep)})"


def rounded(tmp, x: str, dtype: np.dtype = dtypes.bfloat16) -> str:
    """The expression of float32 `x` rounded to `dtype`, bfloat16 or float16 (`tmp(expr)`
    names a temporary)."""
    f = const(0, _F32)
    u = tmp(f"rt.bitcast({x}, {const(0, _U32)})")
    sign = f"({u} & {_c(0x80000000)})"
    nan = f"np.uint32({sign} | {_c(0x7FC00000)})"
    if dtype == dtypes.bfloat16:
        return f"rt.bitcast(rt.where({x} != {x}, {nan}, {_nearest(u, 16)}), {f})"
    a = tmp(f"np.uint32({u} & {_c(0x7FFFFFFF)})")
    normal = tmp(_nearest(a, 13))
    normal = f"rt.where({normal} > {_c(0x477FE000)}, {_c(0x7F800000)}, {normal})"
    half = const(0.5, _F32)
    small = f"rt.bitcast((rt.bitcast({a}, {f}) + {half}) - {half}, {const(0, _U32)})"
    mag = f"rt.where({a} < {_c(0x38800000)}, {small}, {normal})"
    return f"rt.bitcast(rt.where({x} != {x}, {nan}, np.uint32({sign} | {mag})), {f})"


def _lowering(dtype: np.dtype):
    return lambda ctx, x: rounded(ctx.tmp, ctx.tmp(x), dtype)


register_lowering(round_bfloat16_p, Scalar(_lowering(dtypes.bfloat16)))
register_lowering(round_float16_p, Scalar(_lowering(dtypes.float16)))


def _rounded_reduce_lowering(ctx, eqn):
    n, *rest = ctx.in_shape(0)
    m = math.prod(rest)
    x = ctx.assign("x", reshape(ctx.array(0), (n, m)))
    op = eqn.params["op"]
    o = ctx.assign("o", alloc((m,), _F32, const(IDENTITY[op], _F32)))
    dtype = np.dtype(eqn.params["dtype"])
    with ctx.block(f"for i in range({n}):"), ctx.block(f"for j in range({m}):"):
        s = ctx.assign("s", f"{o}[j] {'+' if op == 'add' else '*'} {x}[i, j]")
        ctx.line(f"{o}[j] = {rounded(lambda e: ctx.assign('t', e), s, dtype)}")
    return [ctx.assign("o", reshape(o, ctx.out_shape(0)))]


register_lowering(rounded_reduce_p, Kernel(_rounded_reduce_lowering))
