"""numpy's scalar functions and casts as numba lowers them (numba/np/npyfuncs.py,
numba/np/math/mathimpl.py): `np.cbrt` through a fast-math `pow`, `np.abs`, `np.isfinite`,
`np.isnan` (ordered/unordered compares), a scalar's truth value and the casts between dtypes
(`np.float32(x)`, ...), with the calling kernel's flags.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir

from core.backends.llvm.float_ir import (
    _BOOL,
    _BOOLT,
    _I32T,
    _f,
    _Fp,
    _i,
    _sel,
    llvm_type,
)


def _np_cbrt(e: _Fp, x):
    """numba's np.cbrt: `nan if isnan(x) else (-pow(-x, 1/3) if x < 0 else pow(x, 1/3))` in
    float64, the pow under full fast-math so that LLVM makes it a `cbrt` call."""
    d = ir.DoubleType()
    fast = _Fp(e.b, ("fast",))
    third = _f(d, 1.0 / 3.0)
    wide = (lambda v: e.b.fpext(v, d)) if isinstance(x.type, ir.FloatType) else (lambda v: v)
    neg = fast.neg(fast.intrinsic("pow", wide(fast.neg(x)), third))
    pos = fast.intrinsic("pow", wide(x), third)
    y = _sel(e, fast.cmp("<", wide(x), _f(d, 0)), neg, pos)
    y = _sel(e, e.b.fcmp_unordered("uno", x, x), _f(d, np.nan), y)
    return y if x.type == d else e.b.fptrunc(y, x.type)


def _np_abs(e: _Fp, x, dtype):
    if dtype.kind == "f":
        return e.intrinsic("fabs", x)
    if dtype.kind == "i":
        return e.b.select(e.b.icmp_signed("<", x, _i(x.type, 0)), e.b.neg(x), x)
    return x  # unsigned and bool


def _np_isfinite(e: _Fp, x, dtype):
    if dtype.kind != "f":
        return _i(_BOOLT, 1)
    d = e.sub(x, x)
    return e.b.fcmp_ordered("ord", d, d, flags=e.flags)


def _np_isnan(e: _Fp, x, dtype):
    if dtype.kind != "f":
        return _i(_BOOLT, 0)
    return e.b.fcmp_unordered("uno", x, x, flags=e.flags)


def _to_bool(e: _Fp, x, dtype):
    """numba's truth value of a scalar (`bool(x)`; NaN is true)."""
    if dtype == _BOOL:
        return x if x.type == _BOOLT else e.b.icmp_unsigned("!=", x, _i(x.type, 0))
    if dtype.kind == "f":
        return e.b.fcmp_unordered("!=", x, _f(x.type, 0), flags=e.flags)
    return e.b.icmp_unsigned("!=", x, _i(x.type, 0))


def _cast(e: _Fp, x, src: np.dtype, dst: np.dtype):
    """numba's `context.cast` between numeric scalars (`np.float32(x)`, `np.int64(x)`, ...)."""
    b, ty = e.b, llvm_type(dst)
    if dst == _BOOL:
        return _to_bool(e, x, src)
    if src == _BOOL:  # numba casts a bool to int32 first
        x, src = b.zext(_to_bool(e, x, src), _I32T), np.dtype(np.int32)
    if src == dst:
        return x
    if src.kind == "f" and dst.kind == "f":
        return (b.fpext if dst.itemsize > src.itemsize else b.fptrunc)(x, ty)
    if src.kind == "f":
        return (b.fptosi if dst.kind == "i" else b.fptoui)(x, ty)
    if dst.kind == "f":
        return (b.sitofp if src.kind == "i" else b.uitofp)(x, ty)
    if dst.itemsize == src.itemsize:
        return x
    if dst.itemsize < src.itemsize:
        return b.trunc(x, ty)
    return (b.sext if src.kind == "i" else b.zext)(x, ty)
