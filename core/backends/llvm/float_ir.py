"""Float IR as numba emits it: the LLVM type of a dtype, `_Fp` (float arithmetic, intrinsics
and C library calls on a builder with one set of fast-math flags, those numba would set),
constants rounded as numpy rounds them, and the building blocks every kernel's IR uses:
`_fma`, Horner's rule with FMAs, selects, clamps, the C library's name for a float type, and
the flushing of denormals of XLA's threads (`_flush`, `_flush64`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from llvmlite import ir

from core.jit.vecmath import (
    _TINY,
)
from core.jit.vecmath_f64 import (
    _TINY64,
)

_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)
_I64 = np.dtype(np.int64)
_U64 = np.dtype(np.uint64)
_BOOL = np.dtype(np.bool_)
_FLOATS = (_F32, _F64)
_INTS = tuple(np.dtype(f"{k}{n}") for k in "iu" for n in (1, 2, 4, 8))
_I32T = ir.IntType(32)
_I64T = ir.IntType(64)
_BOOLT = ir.IntType(1)


def llvm_type(dtype: np.dtype) -> ir.Type:
    """The LLVM value type of a numpy scalar dtype (bool: i1)."""
    dtype = np.dtype(dtype)
    if dtype == _F32:
        return ir.FloatType()
    if dtype == _F64:
        return ir.DoubleType()
    if dtype == _BOOL:
        return _BOOLT
    return ir.IntType(dtype.itemsize * 8)


class _Fp:
    """Float arithmetic on a builder with one set of fast-math flags (those numba would set)."""

    def __init__(self, builder: ir.IRBuilder, flags: Sequence[str]):
        self.b = builder
        self.flags = tuple(flags)

    def with_flags(self, flags: Sequence[str]) -> _Fp:
        return _Fp(self.b, flags)

    def add(self, a, b):
        return self.b.fadd(a, b, flags=self.flags)

    def sub(self, a, b):
        return self.b.fsub(a, b, flags=self.flags)

    def mul(self, a, b):
        return self.b.fmul(a, b, flags=self.flags)

    def div(self, a, b):
        return self.b.fdiv(a, b, flags=self.flags)

    def neg(self, x):
        """numba's float negation: -0.0 - x."""
        return self.sub(ir.Constant(x.type, -0.0), x)

    def cmp(self, op: str, a, b):
        """A Python comparison of floats (`!=` is unordered: true for NaN)."""
        if op == "!=":
            return self.b.fcmp_unordered(op, a, b, flags=self.flags)
        return self.b.fcmp_ordered(op, a, b, flags=self.flags)

    def intrinsic(self, name: str, *args):
        """`llvm.<name>` on the args' float type, with the flags on the call."""
        ty = args[0].type
        fnty = ir.FunctionType(ty, [ty] * len(args))
        fn = self.b.module.declare_intrinsic(f"llvm.{name}", [ty], fnty)
        return self.b.call(fn, args, fastmath=self.flags)

    def libm(self, name: str, *args):
        """A C library function of floats, declared as numba declares it (readonly nounwind:
        `cgutils.insert_pure_function`)."""
        ty = args[0].type
        fn = _pure_function(self.b.module, ir.FunctionType(ty, [a.type for a in args]), name)
        return self.b.call(fn, args, fastmath=self.flags)


def _pure_function(module: ir.Module, fnty: ir.FunctionType, name: str) -> ir.Function:
    fn = module.globals.get(name)
    if fn is None:
        fn = ir.Function(module, fnty, name=name)
        fn.attributes.add("readonly")
        fn.attributes.add("nounwind")
    return fn


def _f(ty: ir.Type, value: float) -> ir.Constant:
    """A float constant of `ty`, rounded as numpy rounds it (`np.float32(value)`)."""
    return ir.Constant(ty, float(np.float32(value)) if isinstance(ty, ir.FloatType) else value)


def _i(ty: ir.Type, value: int) -> ir.Constant:
    return ir.Constant(ty, value)


def _fma(e: _Fp, a, b, c):
    return e.intrinsic("fma", a, b, c)


def _fma_horner(e: _Fp, x, c):
    p = _f(x.type, c[0])
    for k in range(1, len(c)):
        p = _fma(e, p, x, _f(x.type, c[k]))
    return p


def _sel(e: _Fp, cond, a, b):
    return e.b.select(cond, a, b)


def _clamp(e: _Fp, x, lo, hi):
    """`lo if x < lo else x`, then `hi if x > hi else x` (NaN passes)."""
    x = _sel(e, e.cmp("<", x, _f(x.type, lo)), _f(x.type, lo), x)
    return _sel(e, e.cmp(">", x, _f(x.type, hi)), _f(x.type, hi), x)


def _tiny(e: _Fp, x):
    return e.cmp("<", e.intrinsic("fabs", x), _f(x.type, _TINY))


def _flush(e: _Fp, x):
    return _sel(e, _tiny(e, x), e.mul(_f(x.type, 0), x), x)


def _tiny64(e: _Fp, x):
    return e.cmp("<", e.intrinsic("fabs", x), _f(x.type, _TINY64))


def _flush64(e: _Fp, x):
    return _sel(e, _tiny64(e, x), e.mul(_f(x.type, 0), x), x)


def _c_name(name: str, ty: ir.Type) -> str:
    """The C library's function `name` for values of `ty` (`tanhf` for float, `tanh`)."""
    return name + "f" if isinstance(ty, ir.FloatType) else name


def _libm(name: str):
    return lambda e, x: e.libm(_c_name(name, x.type), x)


def _sqrt(e: _Fp, x):
    return e.libm(_c_name("sqrt", x.type), x)
