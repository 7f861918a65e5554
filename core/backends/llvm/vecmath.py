"""LLVM IR for the scalar function calls of generated kernels, as numba compiles them.

The direct-LLVM back end translates the loop nests of generated kernels (`core/jit/codegen.py`)
into LLVM IR without numba. Every function call a loop body can contain (`vm.exp_f32(x)`,
`np.sqrt(x)`, `math.erf(x)`, `rt.idiv(a, b)`, casts such as `np.float32(x)`, ...) becomes IR
through `emit_call`; `supported` says which calls it knows, `result_dtype` what they return.

The IR is what numba emits for the same source, instruction for instruction, so results are
bit for bit numba's (tests/core/backends/llvm/test_vecmath.py compiles both and compares):

- `vm.*_f32` follow `core/jit/vecmath.py` line by line (same coefficients, same operation order,
  same constants). numba compiles those functions with `fastmath={"contract"}`, so FMA contraction
  may fuse a product into the following add; the IR here carries the same flags on the same
  instructions, so LLVM fuses the same pairs. `erf_inv_f32`, `sin_f32`, `cos_f32` and
  `tan_f32` are `inline="always"`: numba lowers them inside the caller, with the caller's
  flags (`flags` here), except the strict operations of tan (`vecmath.STRICT_FLAGS`).
- numpy ufuncs and `math` functions call what numba's lowering calls (numba/np/npyfuncs.py,
  numba/np/math/mathimpl.py, numba/cpython/mathimpl.py): LLVM intrinsics (`llvm.exp.f64`,
  `llvm.floor.f32`, ...) or the C library (`tanhf`, `erf`, `lgamma`, `atan2`, ... declared
  `readonly nounwind`), with the kernel's fast-math flags on every float instruction and float
  call, as numba's fast-math pass sets them.
- `rt.*` follow `core/jit/runtime.py` with numba's integer typing and the kernel's flags
  (runtime.py compiles them with `codegen.OPTIONS`' fast-math flags, whoever calls them).
  Small integers widen to 64 bits, so `rt.idiv` of two int32 returns an int64 (the generated
  code casts it back); the int64 minimum divided by -1 gives 0 as in numba, which guards that
  division.
- `vm.radd`/`vm.rmul` are `fadd`/`fmul` marked `reassoc` and `contract` only
  (`core.jit.vecmath.REDUCE_FLAGS`; numba's fast-math pass does not add flags to an
  instruction that has some), `vm.maximum`/`vm.minimum` LLVM's NaN-propagating
  `llvm.maximum`/`llvm.minimum` (numpy's maximum/minimum).

Conditional expressions and `if`s become `select`s (their sides are pure values), with two
exceptions: a division whose divisor the source tests for 0 divides by a safe divisor instead
(x86 traps), and `rt.digamma` keeps numba's branches and loop (its recurrence runs a
data-dependent number of times). `rt.polygamma` (numba lowers its `float ** int` as compiled
code with an exception path), complex numbers and float16 are not supported: such kernels stay
numba.

Values: floats are `float`/`double`, integers `iN` (signedness comes from the dtype), booleans
`i1` (numba's value representation; `i8` arguments are accepted and tested against 0).
`rt.threefry2x32` returns numba's tuple representation, an `[2 x i32]` array value.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np
from llvmlite import ir

from core.errors import NumbaxError
from core.jit.rsqrt_estimate import RSQRT64_STEPS, RSQRT_STEPS, emit_rsqrt_estimate
from core.jit.vecmath import (
    _ATAN2_FAR,
    _COSF_C,
    _ERF_ONE,
    _ERF_P,
    _ERF_Q,
    _ERFINV64_CENTRAL,
    _ERFINV64_MIDDLE,
    _ERFINV64_TAIL,
    _ERFINV_CENTRAL,
    _ERFINV_TAIL,
    _EXP,
    _EXP64_HI,
    _EXP64_LO,
    _EXP64_P,
    _EXP64_Q,
    _HPI,
    _HPI_INV,
    _LN2,
    _LN2_64,
    _LN2_HI,
    _LN2_HI64,
    _LN2_LO,
    _LN2_LO64,
    _LOG,
    _LOG1P64_P,
    _LOG1P64_Q,
    _LOG1P64_SMALL,
    _LOG1P_P,
    _LOG1P_Q,
    _LOG2E,
    _LOG2E64,
    _NEG_LN2_64,
    _ONE64_BITS,
    _PI63,
    _PIO4,
    _PIO4_LO,
    _SINF_S,
    _TANF_T,
    _TANH64_CLAMP,
    _TANH64_P,
    _TANH64_Q,
    _TANH_P,
    _TANH_Q,
    _TINY,
    _TINY64,
    FOUR_OVER_PI_WORDS,
    REDUCE_FLAGS,
    STRICT_FLAGS,
)

# The generated kernels' fast-math flags (core/jit/codegen.py OPTIONS; the test checks they agree)
KERNEL_FLAGS = ("contract", "arcp")
_VM_FLAGS = ("contract",)  # core/jit/vecmath.py's functions

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


class UnsupportedCallError(NumbaxError, NotImplementedError):
    """A scalar call the LLVM back end has no IR for.

    Failing code: ``emit_call(builder, "rt.polygamma", [m, x], [f8, f8])`` (polygamma is not
    written as IR). Fix: ask ``supported(name, dtypes)`` first and leave a loop nest that makes
    such a call to numba.
    """


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


# --- core/jit/vecmath.py, line by line -----------------------------------------------------------


def _fma(e: _Fp, a, b, c):
    return e.intrinsic("fma", a, b, c)


def _fma_horner(e: _Fp, x, c):
    p = _f(x.type, c[0])
    for k in range(1, len(c)):
        p = _fma(e, p, x, _f(x.type, c[k]))
    return p


def _bits(e: _Fp, x):
    return e.b.bitcast(x, _I32T)


def _float(e: _Fp, n):
    return e.b.bitcast(n, ir.FloatType())


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


def _exp_unflushed(e: _Fp, x):
    f = x.type
    x = _clamp(e, x, -87.8, 88.8)
    m = e.intrinsic("floor", _fma(e, x, _f(f, _LOG2E), _f(f, 0.5)))
    m = _clamp(e, m, -127, 127)
    r = _fma(e, e.neg(m), _f(f, _LN2_HI), x)
    r = _fma(e, e.neg(m), _f(f, _LN2_LO), r)
    p = _fma_horner(e, r, _EXP)
    y = e.add(_fma(e, p, e.mul(r, r), r), _f(f, 1))
    n = e.b.add(e.b.fptosi(m, _I32T), _i(_I32T, 127))
    return e.mul(y, _float(e, e.b.shl(n, _i(_I32T, 23))))


def _vm_exp(e: _Fp, x):
    y = _exp_unflushed(e, x)
    return _sel(e, e.cmp("<", y, _f(x.type, _TINY)), _f(x.type, 0), y)


def _vm_exp2(e: _Fp, x):
    return _vm_exp(e, e.mul(x, _f(x.type, _LN2)))


def _log_positive(e: _Fp, x):
    f, b = x.type, e.b
    x = _sel(e, e.cmp(">", x, _f(f, _TINY)), x, _f(f, _TINY))
    bits = _bits(e, x)
    ex = b.sitofp(b.sub(b.ashr(bits, _i(_I32T, 23)), _i(_I32T, 127)), f)
    ex = e.add(ex, _f(f, 1))
    m = _float(e, b.or_(b.and_(bits, _i(_I32T, -2139095041)), _i(_I32T, 0x3F000000)))
    low = e.cmp("<", m, _f(f, 0.70710677))
    ex = e.sub(ex, _sel(e, low, _f(f, 1), _f(f, 0)))
    fr = e.add(e.sub(m, _f(f, 1)), _sel(e, low, m, _f(f, 0)))
    f2 = e.mul(fr, fr)
    f3 = e.mul(f2, fr)
    y0, y1, y2 = (_fma_horner(e, fr, _LOG[k : k + 3]) for k in (0, 3, 6))
    y = _fma(e, _fma(e, y0, f3, y1), f3, y2)
    y = _fma(e, y, f3, e.mul(ex, _f(f, _LN2_LO)))
    return _fma(e, ex, _f(f, _LN2_HI), e.add(_fma(e, _f(f, -0.5), f2, fr), y))


def _log_specials(e: _Fp, x, y, zero):
    f = x.type
    y = _sel(e, e.cmp(">", x, _f(f, 0)), y, _f(f, np.nan))
    y = _sel(e, e.cmp("==", x, _f(f, np.inf)), _f(f, np.inf), y)
    return _sel(e, zero, _f(f, -np.inf), y)


def _vm_log(e: _Fp, x):
    return _log_specials(e, x, _log_positive(e, x), _tiny(e, x))


def _vm_log10(e: _Fp, x):
    return e.mul(_vm_log(e, x), _f(x.type, 0.434294492))


def _tanh_unclamped(e: _Fp, x):
    f = x.type
    a = e.intrinsic("fabs", x)
    xc = _clamp(e, x, -7.998811721801758, 7.998811721801758)
    x2 = e.mul(xc, xc)
    y = e.div(e.mul(xc, _fma_horner(e, x2, _TANH_P)), _fma_horner(e, x2, _TANH_Q))
    return _sel(e, e.cmp("<", a, _f(f, 0.0004)), x, y)


def _tanh_clamped(e: _Fp, x, y):
    big = e.cmp(">=", e.intrinsic("fabs", x), _f(x.type, 20))
    return _sel(e, big, e.intrinsic("copysign", _f(x.type, 1), x), y)


def _vm_tanh(e: _Fp, x):
    return _tanh_clamped(e, x, _tanh_unclamped(e, x))


def _vm_expm1(e: _Fp, x):
    f = x.type
    ex = _exp_unflushed(e, x)
    h = e.mul(x, _f(f, 0.5))
    t = _tanh_clamped(e, h, _tanh_unclamped(e, h))
    big = e.cmp(">", e.intrinsic("fabs", x), _f(f, 0.5))
    y = _sel(e, big, e.sub(ex, _f(f, 1)), e.mul(t, e.add(ex, _f(f, 1))))
    return _sel(e, _tiny(e, h), x, y)


def _log1p_parts(e: _Fp, x):
    f = x.type
    u = e.add(x, _f(f, 1))
    lu = _log_specials(e, u, _log_positive(e, u), e.cmp("==", u, _f(f, 0)))
    q = e.div(_fma_horner(e, x, _LOG1P_Q), _fma_horner(e, x, _LOG1P_P))
    return lu, q, e.mul(x, x)


def _log1p_small(e: _Fp, x):
    return e.cmp("<", e.intrinsic("fabs", x), _f(x.type, 0.41421357))


def _vm_log1p(e: _Fp, x):
    x = _flush(e, x)
    lu, q, x2 = _log1p_parts(e, x)
    s = e.add(x, _fma(e, _f(x.type, -0.5), x2, e.mul(e.mul(x, x2), q)))
    return _sel(e, _log1p_small(e, x), s, lu)


def _vm_logistic(e: _Fp, x):
    f = x.type
    ex = _vm_exp(e, e.neg(x))
    return _flush(e, e.div(_f(f, 1), e.add(ex, _f(f, 1))))


_NEG_LN2 = -0.693147182


def _vm_sinh(e: _Fp, x):
    f = x.type
    x = _flush(e, x)
    em = _vm_expm1(e, x)
    small = e.mul(e.add(em, e.div(em, e.add(em, _f(f, 1)))), _f(f, 0.5))
    big = e.sub(_vm_exp(e, e.add(x, _f(f, _NEG_LN2))), _vm_exp(e, e.sub(_f(f, _NEG_LN2), x)))
    return _sel(e, e.cmp("<", e.intrinsic("fabs", x), _f(f, 1)), small, big)


def _vm_cosh(e: _Fp, x):
    f = x.type
    return e.add(_vm_exp(e, e.add(x, _f(f, _NEG_LN2))), _vm_exp(e, e.sub(_f(f, _NEG_LN2), x)))


def _sqrt(e: _Fp, x):
    return e.libm(_c_name("sqrt", x.type), x)


class _Pieces(NamedTuple):
    """One precision's pieces of XLA's inverse hyperbolic compositions (the kernels' IR)."""

    flush: Callable
    log: Callable
    log1p: Callable
    log1p_parts: Callable
    log1p_small: Callable
    ln2: float
    asinh_big: float  # from here log(|x|) + ln2
    acosh_big: float


_PIECES32 = _Pieces(
    _flush, _vm_log, _vm_log1p, _log1p_parts, _log1p_small, -_NEG_LN2, 1.8446743e19, 1.70141173e38
)


def _vm_asinh(e: _Fp, x, p: _Pieces = _PIECES32):
    f = x.type
    x = p.flush(e, x)
    a = e.intrinsic("fabs", x)
    x2 = e.mul(x, x)
    root = e.add(_sqrt(e, e.add(x2, _f(f, 1))), _f(f, 1))
    small = p.log1p(e, e.add(a, e.div(x2, root)))
    big = e.add(p.log(e, a), _f(f, p.ln2))
    y = _sel(e, e.cmp(">=", a, _f(f, p.asinh_big)), big, small)
    s = _sel(e, e.cmp("<", x, _f(f, 0)), _f(f, -1), x)
    s = _sel(e, e.cmp(">", x, _f(f, 0)), _f(f, 1), s)
    return e.mul(s, y)


def _vm_acosh(e: _Fp, x, p: _Pieces = _PIECES32):
    f = x.type
    s = _sqrt(e, e.add(x, _f(f, -1)))
    small = p.log1p(e, e.mul(s, e.add(_sqrt(e, e.add(x, _f(f, 1))), s)))
    big = e.add(p.log(e, x), _f(f, p.ln2))
    return _sel(e, e.cmp(">=", x, _f(f, p.acosh_big)), big, small)


def _vm_atanh(e: _Fp, x, p: _Pieces = _PIECES32):
    f = x.type
    x = p.flush(e, x)
    lp, qp, x2 = p.log1p_parts(e, x)
    lm, qm, _ = p.log1p_parts(e, e.neg(x))
    h = e.mul(_f(f, -0.5), x2)
    small = p.log1p_small(e, x)
    lp = _sel(e, small, e.add(x, _fma(e, e.mul(x, x2), qp, h)), lp)
    lm = _sel(e, small, e.sub(_fma(e, e.neg(e.mul(x, x2)), qm, h), x), lm)
    y = e.mul(e.sub(lp, lm), _f(f, 0.5))
    return _sel(e, e.cmp(">", e.intrinsic("fabs", x), _f(f, 1)), _f(f, np.nan), y)


def _vm_atan2(e: _Fp, y, x):
    f = x.type
    r = _flush(e, e.libm("atan2f", _flush(e, y), x))
    half_pi = _sel(e, e.cmp(">", x, _f(f, 0)), _f(f, 1.5707964), _f(f, 1.5707963))
    edge = e.intrinsic("copysign", half_pi, y)
    y_den = e.b.and_(_tiny(e, y), e.cmp("!=", y, _f(f, 0)))
    edge = _sel(e, y_den, _f(f, np.nan), edge)
    return _sel(e, e.b.and_(_tiny(e, x), e.cmp("!=", x, _f(f, 0))), edge, r)


def _one_minus_square_root(e: _Fp, x):
    """sqrt((1 - x)(x + 1))."""
    f = x.type
    return _sqrt(e, e.mul(e.sub(_f(f, 1), x), e.add(x, _f(f, 1))))


def _vm_asin(e: _Fp, x, atan2=_vm_atan2):
    a = atan2(e, x, e.add(_one_minus_square_root(e, x), _f(x.type, 1)))
    return e.add(a, a)


def _vm_acos(e: _Fp, x, atan2=_vm_atan2):
    return atan2(e, _one_minus_square_root(e, x), x)


def _vm_rsqrt(e: _Fp, x):
    """`vm.rsqrt_f32`/`vm.rsqrt_f64`: the x86 estimate (`emit_rsqrt_estimate`) and XLA's Newton
    steps (`RSQRT_STEPS`, `RSQRT64_STEPS`), the estimate at the edges."""
    f = x.type
    single = isinstance(f, ir.FloatType)
    steps = RSQRT_STEPS if single else RSQRT64_STEPS
    x = x if single else _flush64(e, x)
    if steps == 0:
        return e.div(_f(f, 1), e.intrinsic("sqrt", x))
    guess = emit_rsqrt_estimate(e.b, x)
    y = guess
    for _ in range(steps):
        half = e.mul(y, _f(f, -0.5))
        h = e.sub(e.mul(e.mul(x, y), y), _f(f, 1))
        y = e.add(e.mul(half, h), y)
    tiny = np.finfo(np.float32 if single else np.float64).tiny
    edge = e.b.or_(e.cmp("<", x, _f(f, tiny)), e.cmp("==", x, _f(f, np.inf)))
    return _sel(e, edge, guess, y)


def _vm_erf(e: _Fp, x):
    f = x.type
    x = _flush(e, x)
    x2 = e.mul(x, x)
    y = e.div(e.mul(x, _fma_horner(e, x2, _ERF_P)), _fma_horner(e, x2, _ERF_Q))
    one = e.cmp(">=", e.intrinsic("fabs", x), _f(f, _ERF_ONE))
    return _sel(e, one, e.intrinsic("copysign", _f(f, 1), x), y)


def _vm_erf_inv(e: _Fp, x):
    f = x.type
    lw = _vm_log1p(e, e.mul(x, e.neg(x)))
    central = e.cmp(">", lw, _f(f, -5))
    t = _sel(e, central, e.sub(_f(f, -2.5), lw), e.add(_sqrt(e, e.neg(lw)), _f(f, -3)))
    coeffs = [_sel(e, central, _f(f, c), _f(f, d)) for c, d in zip(_ERFINV_CENTRAL, _ERFINV_TAIL)]
    p = coeffs[0]
    for c in coeffs[1:]:
        p = _fma(e, p, t, c)
    one = e.cmp("==", e.intrinsic("fabs", x), _f(f, 1))
    return _flush(e, e.mul(x, _sel(e, one, _f(f, np.inf), p)))


def _four_over_pi_field(b: ir.IRBuilder, o):
    """`vecmath._four_over_pi_field`: 32 bits of 4/pi from bit `o` (an i64)."""
    u = lambda v: _i(_I64T, v)  # noqa: E731
    w, s = b.lshr(o, u(6)), b.and_(o, u(63))
    m0 = b.sub(u(0), b.zext(b.icmp_unsigned("==", w, u(0)), _I64T))
    m1 = b.sub(u(0), b.zext(b.icmp_unsigned("==", w, u(1)), _I64T))
    m2 = b.xor(b.or_(m0, m1), u(-1))
    c = [u(v) for v in FOUR_OVER_PI_WORDS]
    pick = lambda k: b.or_(b.or_(b.and_(c[k], m0), b.and_(c[k + 1], m1)), b.and_(c[k + 2], m2))  # noqa: E731
    lo = b.lshr(b.lshr(pick(1), u(1)), b.sub(u(63), s))
    return b.lshr(b.or_(b.shl(pick(0), s), lo), u(32))


def _reduce_large(e: _Fp, bits):
    """`vecmath._reduce_large`: (r, n as i64) of the bits of a float32 |y| >= 120."""
    b = e.b
    i32 = lambda v: _i(_I32T, v)  # noqa: E731
    o = b.shl(b.zext(b.and_(b.ashr(bits, i32(26)), i32(15)), _I64T), _i(_I64T, 3))
    m = b.zext(b.or_(b.and_(bits, i32(0xFFFFFF)), i32(0x800000)), _I64T)
    m = b.shl(m, b.zext(b.and_(b.ashr(bits, i32(23)), i32(7)), _I64T))
    e0, e4, e8 = (_four_over_pi_field(b, b.add(o, _i(_I64T, k))) for k in (0, 32, 64))
    res = b.or_(b.lshr(b.mul(m, e8), _i(_I64T, 32)), b.shl(b.mul(m, e0), _i(_I64T, 32)))
    res = b.add(res, b.mul(m, e4))
    n = b.lshr(b.add(res, _i(_I64T, 1 << 61)), _i(_I64T, 62))
    res = b.sub(res, b.shl(n, _i(_I64T, 62)))
    return e.mul(b.sitofp(res, ir.DoubleType()), _f(ir.DoubleType(), _PI63)), n


def _fast_quadrant(e: _Fp, x):
    """`vecmath._fast_quadrant`: glibc's `reduce_fast` quadrant (an i64) of a float32."""
    b = e.b
    t = e.mul(b.fpext(x, ir.DoubleType()), _f(ir.DoubleType(), _HPI_INV))
    small = e.cmp("<", e.intrinsic("fabs", x), _f(x.type, 120))
    t = _sel(e, small, t, _f(ir.DoubleType(), 0.0))
    t = b.sext(b.fptosi(t, _I32T), _I64T)
    return b.ashr(b.add(t, _i(_I64T, 0x800000)), _i(_I64T, 24))


def _large(e: _Fp, x):
    return e.cmp(">=", e.intrinsic("fabs", x), _f(x.type, 120))


def _sincosf_parts(e: _Fp, x):
    """`vecmath._sincosf_parts`: (sin, cos, n as i64) of glibc's sinf/cosf polynomials."""
    b, d = e.b, ir.DoubleType()
    i64 = lambda v: _i(_I64T, v)  # noqa: E731
    nf = _fast_quadrant(e, x)
    rf = _fma(e, e.neg(b.sitofp(nf, d)), _f(d, _HPI), b.fpext(x, d))
    bits = _bits(e, x)
    rl, nl = _reduce_large(e, bits)
    large = _large(e, x)
    r, n = _sel(e, large, rl, rf), _sel(e, large, nl, nf)
    neg = b.zext(b.icmp_signed("<", bits, _i(_I32T, 0)), _I64T)
    k = _sel(e, large, b.add(nl, neg), nf)
    flip = b.icmp_signed("!=", b.and_(b.add(k, i64(1)), i64(2)), i64(0))
    xs = e.mul(r, _sel(e, flip, _f(d, -1.0), _f(d, 1.0)))
    x2 = e.mul(r, r)
    x3 = e.mul(xs, x2)
    sc, cc = _SINF_S, _COSF_C
    s1 = _fma(e, x2, _f(d, sc[2]), _f(d, sc[1]))
    s = _fma(e, s1, e.mul(x3, x2), _fma(e, x3, _f(d, sc[0]), xs))
    x4 = e.mul(x2, x2)
    c = _fma(e, x4, _f(d, cc[2]), _fma(e, x2, _f(d, cc[1]), _f(d, cc[0])))
    c = _fma(e, _fma(e, x2, _f(d, cc[4]), _f(d, cc[3])), e.mul(x2, x4), c)
    c = _sel(e, b.icmp_signed("!=", b.and_(k, i64(2)), i64(0)), e.neg(c), c)
    return s, c, n


def _nonfinite(e: _Fp, x, y):
    """y, or x - x (NaN) for an infinite or NaN x."""
    finite = e.cmp("<", e.intrinsic("fabs", x), _f(x.type, np.inf))
    return _sel(e, finite, y, e.sub(x, x))


def _odd(b: ir.IRBuilder, n):
    return b.icmp_signed("!=", b.and_(n, _i(_I64T, 1)), _i(_I64T, 0))


def _vm_sin(e: _Fp, x):
    s, c, n = _sincosf_parts(e, x)
    y = e.b.fptrunc(_sel(e, _odd(e.b, n), c, s), x.type)
    y = _sel(e, e.cmp("<", e.intrinsic("fabs", x), _f(x.type, 2.0**-12)), x, y)
    return _nonfinite(e, x, y)


def _vm_cos(e: _Fp, x):
    s, c, n = _sincosf_parts(e, x)
    y = e.b.fptrunc(_sel(e, _odd(e.b, n), s, c), x.type)
    y = _sel(e, e.cmp("<", e.intrinsic("fabs", x), _f(x.type, 2.0**-12)), _f(x.type, 1), y)
    return _nonfinite(e, x, y)


def _kernel_tanf(e: _Fp, x, y, odd):
    """`vecmath._kernel_tanf`: glibc's `__kernel_tanf`, strict operations (`STRICT_FLAGS`)."""
    f, b = x.type, e.b
    st = e.with_flags(STRICT_FLAGS)
    hx = _bits(e, x)
    ix = b.and_(hx, _i(_I32T, 0x7FFFFFFF))
    sgn = _sel(e, b.icmp_signed("<", hx, _i(_I32T, 0)), _f(f, -1), _f(f, 1))
    iy = _sel(e, odd, _f(f, -1), _f(f, 1))
    big = b.icmp_signed(">=", ix, _i(_I32T, 0x3F2CA140))
    xr = st.add(
        st.sub(_f(f, _PIO4), e.intrinsic("fabs", x)), st.sub(_f(f, _PIO4_LO), e.mul(y, sgn))
    )
    near = st.mul(e.mul(sgn, iy), st.sub(_f(f, 1), st.mul(e.add(iy, iy), xr)))
    x = _sel(e, big, xr, x)
    y = _sel(e, big, _f(f, 0), y)
    z = st.mul(x, x)
    w = st.mul(z, z)
    r, v = _f(f, _TANF_T[11]), _f(f, _TANF_T[12])
    for k in range(9, 0, -2):
        r = st.add(_f(f, _TANF_T[k]), st.mul(w, r))
        v = st.add(_f(f, _TANF_T[k + 1]), st.mul(w, v))
    v = st.mul(z, v)
    s = st.mul(z, x)
    r = st.add(y, st.mul(z, st.add(st.mul(s, st.add(r, v)), y)))
    r = st.add(r, st.mul(_f(f, _TANF_T[0]), s))
    w = st.add(x, r)
    q = st.sub(st.div(st.mul(w, w), st.add(w, iy)), r)
    reflected = st.mul(sgn, st.sub(iy, st.mul(_f(f, 2), st.sub(x, q))))
    zh = _float(e, b.and_(_bits(e, w), _i(_I32T, -4096)))
    v = st.sub(r, st.sub(zh, x))
    a = st.div(_f(f, -1), w)
    t = _float(e, b.and_(_bits(e, a), _i(_I32T, -4096)))
    inverse = st.add(t, st.mul(a, st.add(st.add(_f(f, 1), st.mul(t, zh)), st.mul(t, v))))
    result = _sel(e, big, reflected, _sel(e, odd, inverse, w))
    near_pio4 = b.and_(big, e.cmp("<", e.intrinsic("fabs", xr), _f(f, 2.0**-13)))
    return _sel(e, near_pio4, near, result)


def _vm_tan(e: _Fp, x):
    f, b, d = x.type, e.b, ir.DoubleType()
    st = e.with_flags(STRICT_FLAGS)
    xd = b.fpext(x, d)
    nf = _fast_quadrant(e, x)
    rf = st.sub(xd, st.mul(b.sitofp(nf, d), _f(d, _HPI)))
    rl, nl = _reduce_large(e, _bits(e, x))
    large = _large(e, x)
    rl = _sel(e, e.cmp("<", x, _f(f, 0)), e.neg(rl), rl)
    r = _sel(e, large, rl, rf)
    odd = _odd(b, _sel(e, large, nl, nf))
    hi = b.fptrunc(r, f)
    lo = b.fptrunc(st.sub(r, b.fpext(hi, d)), f)
    y = _kernel_tanf(e, hi, lo, odd)
    ahi = e.intrinsic("fabs", hi)
    tiny = _sel(e, e.cmp("==", hi, _f(f, 0)), st.div(_f(f, 1), ahi), st.div(_f(f, -1), hi))
    y = _sel(e, e.cmp("<", ahi, _f(f, 2.0**-13)), _sel(e, odd, tiny, hi), y)
    return _nonfinite(e, x, y)


# --- float64 (`vecmath`'s float64 section, compiled without fast-math flags) ---------------------


def _tiny64(e: _Fp, x):
    return e.cmp("<", e.intrinsic("fabs", x), _f(x.type, _TINY64))


def _flush64(e: _Fp, x):
    return _sel(e, _tiny64(e, x), e.mul(_f(x.type, 0), x), x)


def _exp64_parts(e: _Fp, x):
    d, b = x.type, e.b
    x = e.intrinsic("maximum", e.intrinsic("minimum", x, _f(d, _EXP64_HI)), _f(d, _EXP64_LO))
    n = e.intrinsic("floor", _fma(e, x, _f(d, _LOG2E64), _f(d, 0.5)))
    g = _fma(e, e.neg(n), _f(d, _LN2_HI64), x)
    g = _fma(e, e.neg(n), _f(d, _LN2_LO64), g)
    g2 = e.mul(g, g)
    p = e.mul(_fma_horner(e, g2, _EXP64_P), g)
    r = _fma(e, e.div(p, e.sub(_fma_horner(e, g2, _EXP64_Q), p)), _f(d, 2), _f(d, 1))
    m = b.fptosi(_sel(e, e.cmp("==", n, n), n, _f(d, 0)), _I64T)
    q = b.ashr(m, _i(_I64T, 2))

    def scale(k):
        return b.bitcast(b.add(b.shl(k, _i(_I64T, 52)), _i(_I64T, int(_ONE64_BITS))), d)

    s = scale(q)
    return e.mul(e.mul(e.mul(r, s), s), s), scale(b.sub(m, b.mul(_i(_I64T, 3), q)))


def _vm_exp64(e: _Fp, x):
    d = x.type
    t, s = _exp64_parts(e, x)
    y = e.mul(t, s)
    zero = e.b.or_(e.cmp("<", y, _f(d, _TINY64)), e.cmp("<", x, _f(d, _EXP64_LO)))
    y = _sel(e, zero, _f(d, 0), y)
    return _sel(e, e.cmp(">", x, _f(d, _EXP64_HI)), _f(d, np.inf), y)


def _vm_exp2_64(e: _Fp, x):
    return _vm_exp64(e, e.mul(x, _f(x.type, 0.6931471805599453)))


def _tanh64(e: _Fp, x):
    xc = _clamp(e, x, -_TANH64_CLAMP, _TANH64_CLAMP)
    x2 = e.mul(xc, xc)
    y = e.div(e.mul(xc, _fma_horner(e, x2, _TANH64_P)), _fma_horner(e, x2, _TANH64_Q))
    return _tanh_clamped(e, x, y)


def _vm_tanh64(e: _Fp, x):
    return _tanh64(e, _flush64(e, x))


def _vm_expm1_64(e: _Fp, x):
    d = x.type
    ex = _vm_exp64(e, x)
    h = e.mul(x, _f(d, 0.5))
    big = e.cmp(">", e.intrinsic("fabs", x), _f(d, 0.5))
    y = _sel(e, big, e.sub(ex, _f(d, 1)), e.mul(_tanh64(e, h), e.add(ex, _f(d, 1))))
    return _sel(e, _tiny64(e, h), x, y)


def _vm_logistic64(e: _Fp, x):
    d = x.type
    t, s = _exp64_parts(e, e.neg(x))
    y = e.div(_f(d, 1), _fma(e, t, s, _f(d, 1)))
    zero = e.b.or_(e.cmp("<", y, _f(d, _TINY64)), e.cmp("<", x, _f(d, -_EXP64_HI)))
    y = _sel(e, zero, _f(d, 0), y)
    return _sel(e, e.cmp(">", x, _f(d, -_EXP64_LO)), _f(d, 1), y)


def _vm_sinh64(e: _Fp, x):
    d = x.type
    x = _flush64(e, x)
    em = _vm_expm1_64(e, x)
    small = e.mul(e.add(em, e.div(em, e.add(em, _f(d, 1)))), _f(d, 0.5))
    big = e.sub(
        _vm_exp64(e, e.add(x, _f(d, _NEG_LN2_64))), _vm_exp64(e, e.sub(_f(d, _NEG_LN2_64), x))
    )
    return _sel(e, e.cmp("<", e.intrinsic("fabs", x), _f(d, 1)), small, big)


def _vm_cosh64(e: _Fp, x):
    d = x.type
    a = _vm_exp64(e, e.add(x, _f(d, _NEG_LN2_64)))
    return e.add(a, _vm_exp64(e, e.sub(_f(d, _NEG_LN2_64), x)))


def _vm_log64(e: _Fp, x):
    return e.intrinsic("log", _flush64(e, x))


def _log1p64_parts(e: _Fp, x):
    d = x.type
    q = e.div(_fma_horner(e, x, _LOG1P64_Q), _fma_horner(e, x, _LOG1P64_P))
    return e.intrinsic("log", e.add(x, _f(d, 1))), q, e.mul(x, x)


def _log1p64_small(e: _Fp, x):
    return e.cmp("<", e.intrinsic("fabs", x), _f(x.type, _LOG1P64_SMALL))


def _vm_log1p64(e: _Fp, x):
    x = _flush64(e, x)
    lu, q, x2 = _log1p64_parts(e, x)
    s = e.add(x, _fma(e, x2, _f(x.type, -0.5), e.mul(e.mul(x, x2), q)))
    return _sel(e, _log1p64_small(e, x), s, lu)


_PIECES64 = _Pieces(
    _flush64,
    _vm_log64,
    _vm_log1p64,
    _log1p64_parts,
    _log1p64_small,
    _LN2_64,
    1.3407807929942596e154,
    8.98846567431158e307,
)


def _vm_atan2_64(e: _Fp, y, x):
    d, b = x.type, e.b
    r = _flush64(e, e.libm("atan2", y, x))
    y_den = b.and_(_tiny64(e, y), e.cmp("!=", y, _f(d, 0)))
    x_den = b.and_(_tiny64(e, x), e.cmp("!=", x, _f(d, 0)))
    ax = e.intrinsic("fabs", x)
    edge = _sel(
        e,
        e.cmp(">=", ax, _f(d, _ATAN2_FAR)),
        _f(d, -np.pi),
        e.intrinsic("copysign", _f(d, np.pi), y),
    )
    edge = _sel(e, e.cmp(">", x, _f(d, 0)), e.intrinsic("copysign", _f(d, 0), y), edge)
    r = _sel(e, b.and_(y_den, e.cmp(">=", ax, _f(d, _TINY64))), edge, r)
    half_pi = e.intrinsic("copysign", _f(d, np.pi / 2), y)
    return _sel(e, b.and_(x_den, e.cmp(">", e.intrinsic("fabs", y), _f(d, 0))), half_pi, r)


def _vm_erf_inv64(e: _Fp, x):
    d = x.type
    w = e.neg(_vm_log1p64(e, e.mul(x, e.neg(x))))
    central = e.cmp("<", w, _f(d, 6.25))
    middle = e.cmp("<", w, _f(d, 16))
    s = _sqrt(e, w)
    t = _sel(e, central, e.sub(w, _f(d, 3.125)), e.sub(s, _sel(e, middle, _f(d, 3.25), _f(d, 5))))
    p = _sel(e, middle, _fma_horner(e, t, _ERFINV64_MIDDLE), _fma_horner(e, t, _ERFINV64_TAIL))
    p = _sel(e, central, _fma_horner(e, t, _ERFINV64_CENTRAL), p)
    y = _flush64(e, e.mul(p, x))
    one = e.cmp("==", e.intrinsic("fabs", x), _f(d, 1))
    return _sel(e, one, e.mul(x, _f(d, np.inf)), y)


def _vm_erf64(e: _Fp, x):
    return e.libm("erf", _flush64(e, x))


def _vm_cbrt64(e: _Fp, x):
    return e.libm("cbrt", _flush64(e, x))


# --- numpy ufuncs and math functions (numba/np/npyfuncs.py, numba/np/math/mathimpl.py) ------------


def _c_name(name: str, ty: ir.Type) -> str:
    """The C library's function `name` for values of `ty` (`tanhf` for float, `tanh`)."""
    return name + "f" if isinstance(ty, ir.FloatType) else name


def _libm(name: str):
    return lambda e, x: e.libm(_c_name(name, x.type), x)


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


# --- core/jit/runtime.py (the caller's fast-math flags; small integers widen to 64 bits) ---------


def _widen(b: ir.IRBuilder, x, dtype):
    if dtype.itemsize == 8:
        return x
    return (b.sext if dtype.kind == "i" else b.zext)(x, _I64T)


def _safe_divisor(b: ir.IRBuilder, x, y, signed: bool):
    """`y`, with 1 where numba's `//`/`%` would not divide (y == 0 is guarded by the caller,
    and numba gives 0 for MIN // -1, which traps on x86); and that second condition."""
    zero = b.icmp_signed("==", y, _i(y.type, 0))
    if not signed:
        return b.select(zero, _i(y.type, 1), y), None
    over = b.and_(
        b.icmp_signed("==", x, _i(x.type, -(1 << 63))), b.icmp_signed("==", y, _i(y.type, -1))
    )
    return b.select(b.or_(zero, over), _i(y.type, 1), y), over


def _floor_divmod(b: ir.IRBuilder, x, y):
    """numba's signed `x // y`, `x % y` (Python's floor semantics; 0, 0 for MIN // -1)."""
    ys, over = _safe_divisor(b, x, y, True)
    q, r = b.sdiv(x, ys), b.srem(x, ys)
    fix = b.and_(
        b.icmp_signed("!=", r, _i(r.type, 0)),
        b.icmp_signed("<", b.xor(ys, r), _i(r.type, 0)),
    )
    q = b.select(fix, b.sub(q, _i(q.type, 1)), q)
    r = b.select(fix, b.add(r, ys), r)
    zero = _i(q.type, 0)
    return b.select(over, zero, q), b.select(over, zero, r)


def _rt_idiv(e: _Fp, a, b_, dtypes):
    b = e.b
    x, y = _widen(b, a, dtypes[0]), _widen(b, b_, dtypes[1])
    q, _ = _floor_divmod(b, x, y)
    up = b.and_(b.icmp_signed("<", q, _i(_I64T, 0)), b.icmp_signed("!=", b.mul(q, y), x))
    q = b.select(up, b.add(q, _i(_I64T, 1)), q)
    return b.select(b.icmp_signed("==", y, _i(_I64T, 0)), _i(_I64T, -1), q)


def _rt_udiv(e: _Fp, a, b_, dtypes):
    b = e.b
    x, y = _widen(b, a, dtypes[0]), _widen(b, b_, dtypes[1])
    q = b.udiv(x, _safe_divisor(b, x, y, False)[0])
    return b.select(b.icmp_unsigned("!=", y, _i(_I64T, 0)), q, _i(_I64T, -1))


def _rt_irem(e: _Fp, a, b_, dtypes):
    b = e.b
    x, y = _widen(b, a, dtypes[0]), _widen(b, b_, dtypes[1])
    if dtypes[0].kind == "u":
        r = b.urem(x, _safe_divisor(b, x, y, False)[0])
    else:
        _, r = _floor_divmod(b, x, y)
        zero = _i(_I64T, 0)
        fix = b.and_(
            b.icmp_signed("!=", r, zero),
            b.xor(b.icmp_signed("<", r, zero), b.icmp_signed("<", x, zero)),
        )
        r = b.select(fix, b.sub(r, y), r)
    return b.select(b.icmp_signed("==", y, _i(_I64T, 0)), x, r)


def _rt_erf_inv_f64(e: _Fp, x):
    b, d = e.b, x.type
    y = b.fpext(_vm_erf_inv(e, b.fptrunc(x, ir.FloatType())), d)
    ok = b.and_(_np_isfinite(e, y, _F64), e.cmp("<", e.intrinsic("fabs", x), _f(d, 1)))
    refined = y
    for _ in range(2):
        step = e.div(
            e.sub(e.libm("erf", refined), x),
            e.mul(_f(d, 1.1283791670955126), e.intrinsic("exp", e.mul(e.neg(refined), refined))),
        )
        refined = e.sub(refined, step)
    return b.select(ok, refined, y)


def _rt_digamma(e: _Fp, x):
    """`runtime.digamma`, with its control flow (the builder ends in a new block). The pole
    test compares `floor(x)` with x in x's type, as numba's `np.floor` does. The checks before
    `x = 1.0 - x` are in `x`'s own type (numba types each version of a variable), the rest in
    float64."""
    b, d = e.b, ir.DoubleType()
    fn = b.block.function
    check, main, loop, tail, end = (
        fn.append_basic_block(f"digamma.{s}") for s in ("check", "main", "loop", "tail", "end")
    )
    xd = b.fpext(x, d) if isinstance(x.type, ir.FloatType) else x
    b.cbranch(e.cmp("<=", x, _f(x.type, 0)), check, main)
    b.position_at_end(check)
    b.cbranch(e.cmp("==", e.intrinsic("floor", x), x), end, main)
    b.position_at_end(main)
    small = e.cmp("<", x, _f(x.type, 0.5))
    reflected = e.div(e.neg(_f(d, np.pi)), e.libm("tan", e.mul(_f(d, np.pi), xd)))
    acc = b.select(small, reflected, _f(d, 0))
    x0 = b.select(small, e.sub(_f(d, 1), xd), xd)
    b.cbranch(e.cmp("<", x0, _f(d, 6)), loop, tail)
    b.position_at_end(loop)
    xl, al = b.phi(d), b.phi(d)
    a1, x1 = e.sub(al, e.div(_f(d, 1), xl)), e.add(xl, _f(d, 1))
    b.cbranch(e.cmp("<", x1, _f(d, 6)), loop, tail)
    b.position_at_end(tail)
    xf, af = b.phi(d), b.phi(d)
    for phis in ((xl, al), (xf, af)):
        for phi, start, step in zip(phis, (x0, acc), (x1, a1)):
            phi.add_incoming(start, main)
            phi.add_incoming(step, loop)
    z = e.div(_f(d, 1), e.mul(xf, xf))
    series = e.mul(z, _f(d, 1 / 132))
    for c in (1 / 240, 1 / 252, 1 / 120, 1 / 12):
        series = e.mul(z, e.sub(_f(d, c), series))
    y = e.sub(e.sub(e.add(af, e.intrinsic("log", xf)), e.div(_f(d, 0.5), xf)), series)
    b.branch(end)
    b.position_at_end(end)
    result = b.phi(d)
    result.add_incoming(_f(d, np.nan), check)
    result.add_incoming(y, tail)
    return result


_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))


def _rt_threefry2x32(e: _Fp, k0, k1, x0, x1):
    """Threefry-2x32 on i32 values (`runtime.threefry2x32`): numba's uint arithmetic wraps
    modulo 2**32 after each `np.uint32`, so i32 arithmetic gives the same bits."""
    b = e.b
    ks = (k0, k1, b.xor(b.xor(k0, k1), _i(_I32T, 0x1BD11BDA)))
    x0, x1 = b.add(x0, ks[0]), b.add(x1, ks[1])
    for i in range(5):
        for r in _ROTATIONS[i % 2]:
            x0 = b.add(x0, x1)
            rot = b.or_(b.shl(x1, _i(_I32T, r)), b.lshr(x1, _i(_I32T, 32 - r)))
            x1 = b.xor(rot, x0)
        x0 = b.add(x0, ks[(i + 1) % 3])
        x1 = b.add(b.add(x1, ks[(i + 2) % 3]), _i(_I32T, i + 1))
    pair = ir.Constant(ir.ArrayType(_I32T, 2), ir.Undefined)
    return b.insert_value(b.insert_value(pair, x0, 0), x1, 1)


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


# --- the calls ----------------------------------------------------------------------------------


class _Call:
    """One callable of generated code: which argument dtypes it takes, its result dtype, its IR
    (`emit(fp, args, dtypes)`), and the fast-math flags numba compiles it with (None: the
    calling kernel's, for what numba lowers inline)."""

    def __init__(self, accepts, result, emit, flags=None):
        self.accepts = accepts
        self.result = result
        self.emit = emit
        self.flags = flags


def _same(kinds: str, arity: int, dtypes: Sequence[np.dtype] = _FLOATS + _INTS + (_BOOL,)):
    """Accepts `arity` arguments of one dtype of the given kinds."""

    def accepts(ds):
        return len(ds) == arity and ds[0] in dtypes and ds[0].kind in kinds and len(set(ds)) == 1

    return accepts


def _first(ds):
    return ds[0]


def _unary(fn: Callable) -> Callable:
    return lambda e, args, ds: fn(e, args[0])


def _vm(fn, flags=_VM_FLAGS, dtype=_F32) -> _Call:
    return _Call(lambda ds: tuple(ds) == (dtype,), _first, _unary(fn), flags)


def _reassoc(op: str) -> _Call:
    def emit(e, args, ds):
        return getattr(e.b, op)(args[0], args[1], flags=REDUCE_FLAGS)

    return _Call(_same("f", 2), _first, emit)


def _intrinsic(name: str, kinds="f", arity=1) -> _Call:
    return _Call(_same(kinds, arity), _first, lambda e, args, ds: e.intrinsic(name, *args))


def _float_unary(fn: Callable) -> _Call:
    return _Call(_same("f", 1), _first, _unary(fn))


def _bool_result(fn: Callable) -> _Call:
    return _Call(_same("fiub", 1), lambda ds: _BOOL, lambda e, args, ds: fn(e, args[0], ds[0]))


def _int_pair(kind: str, fn: Callable, result: np.dtype) -> _Call:
    return _Call(_same(kind, 2, _INTS), lambda ds: result, lambda e, args, ds: fn(e, *args, ds))


def _minmax(op: str) -> _Call:
    """Python's builtin min/max of two integers: `b if b <op> a else a` (numba's do_minmax)."""

    def emit(e, args, ds):
        a, b = args
        cmp = e.b.icmp_signed if ds[0].kind == "i" else e.b.icmp_unsigned
        return e.b.select(cmp(op, b, a), b, a)

    return _Call(_same("iu", 2, _INTS), _first, emit)


def _where_accepts(ds):
    return len(ds) == 3 and all(d in _FLOATS + _INTS + (_BOOL,) for d in ds) and ds[1] == ds[2]


def _where(e, args, ds):
    c, a, b = args
    return e.b.select(_to_bool(e, c, ds[0]), _as_value(e, a, ds[1]), _as_value(e, b, ds[2]))


def _as_value(e, x, dtype):
    return _to_bool(e, x, dtype) if dtype == _BOOL else x


def _bitcast_accepts(ds):
    return (
        len(ds) == 2 and all(d in _FLOATS + _INTS for d in ds) and ds[0].itemsize == ds[1].itemsize
    )


_CALLS: dict[str, _Call] = {
    "vm.exp_f32": _vm(_vm_exp),
    "vm.exp2_f32": _vm(_vm_exp2),
    "vm.expm1_f32": _vm(_vm_expm1),
    "vm.log_f32": _vm(_vm_log),
    "vm.log1p_f32": _vm(_vm_log1p),
    "vm.tanh_f32": _vm(_vm_tanh),
    "vm.logistic_f32": _vm(_vm_logistic),
    "vm.rsqrt_f32": _vm(_vm_rsqrt),
    "vm.rsqrt_f64": _vm(_vm_rsqrt, dtype=_F64),
    "vm.exp_f64": _vm(_vm_exp64, (), _F64),
    "vm.exp2_f64": _vm(_vm_exp2_64, (), _F64),
    "vm.expm1_f64": _vm(_vm_expm1_64, (), _F64),
    "vm.tanh_f64": _vm(_vm_tanh64, (), _F64),
    "vm.logistic_f64": _vm(_vm_logistic64, (), _F64),
    "vm.sinh_f64": _vm(_vm_sinh64, (), _F64),
    "vm.cosh_f64": _vm(_vm_cosh64, (), _F64),
    "vm.log_f64": _vm(_vm_log64, (), _F64),
    "vm.log1p_f64": _vm(_vm_log1p64, (), _F64),
    "vm.asinh_f64": _vm(lambda e, x: _vm_asinh(e, x, _PIECES64), (), _F64),
    "vm.acosh_f64": _vm(lambda e, x: _vm_acosh(e, x, _PIECES64), (), _F64),
    "vm.atanh_f64": _vm(lambda e, x: _vm_atanh(e, x, _PIECES64), (), _F64),
    "vm.asin_f64": _vm(lambda e, x: _vm_asin(e, x, _vm_atan2_64), (), _F64),
    "vm.acos_f64": _vm(lambda e, x: _vm_acos(e, x, _vm_atan2_64), (), _F64),
    "vm.erf_f64": _vm(_vm_erf64, (), _F64),
    "vm.erf_inv_f64": _vm(_vm_erf_inv64, (), _F64),
    "vm.cbrt_f64": _vm(_vm_cbrt64, (), _F64),
    "vm.sqrt_f64": _vm(lambda e, x: _sqrt(e, _flush64(e, x)), (), _F64),
    "vm.tan_f64": _vm(lambda e, x: e.libm("tan", x), (), _F64),
    "vm.atan_f64": _vm(lambda e, x: e.libm("atan", x), (), _F64),
    "vm.log10_f32": _vm(_vm_log10),
    "vm.sinh_f32": _vm(_vm_sinh),
    "vm.cosh_f32": _vm(_vm_cosh),
    "vm.asinh_f32": _vm(_vm_asinh),
    "vm.acosh_f32": _vm(_vm_acosh),
    "vm.atanh_f32": _vm(_vm_atanh),
    "vm.asin_f32": _vm(_vm_asin),
    "vm.acos_f32": _vm(_vm_acos),
    "vm.atan2_f32": _Call(
        lambda ds: tuple(ds) == (_F32, _F32),
        _first,
        lambda e, args, ds: _vm_atan2(e, *args),
        _VM_FLAGS,
    ),
    "vm.pow_f64": _Call(
        lambda ds: tuple(ds) == (_F64, _F64),
        _first,
        lambda e, args, ds: _flush64(e, e.intrinsic("pow", *args)),
        (),
    ),
    "vm.atan2_f64": _Call(
        lambda ds: tuple(ds) == (_F64, _F64),
        _first,
        lambda e, args, ds: _vm_atan2_64(e, *args),
        (),
    ),
    "vm.erf_f32": _vm(_vm_erf),
    "vm.erf_inv_f32": _vm(_vm_erf_inv, flags=None),
    "vm.sin_f32": _vm(_vm_sin, flags=None),
    "vm.cos_f32": _vm(_vm_cos, flags=None),
    "vm.tan_f32": _vm(_vm_tan, flags=None),
    "vm.radd": _reassoc("fadd"),
    "vm.rmul": _reassoc("fmul"),
    "vm.maximum": _intrinsic("maximum", arity=2),
    "vm.minimum": _intrinsic("minimum", arity=2),
    "np.abs": _Call(_same("fiub", 1), _first, lambda e, args, ds: _np_abs(e, args[0], ds[0])),
    "np.sqrt": _float_unary(_libm("sqrt")),
    "np.floor": _intrinsic("floor"),
    "np.ceil": _intrinsic("ceil"),
    "np.trunc": _intrinsic("trunc"),
    "np.rint": _intrinsic("rint"),
    "np.exp": _intrinsic("exp"),
    "np.exp2": _intrinsic("exp2"),
    "np.log": _intrinsic("log"),
    "np.sin": _intrinsic("sin"),
    "np.cos": _intrinsic("cos"),
    "np.copysign": _intrinsic("copysign", arity=2),
    "np.fmod": _Call(_same("f", 2), _first, lambda e, args, ds: e.b.frem(*args, flags=e.flags)),
    "np.arctan2": _Call(
        _same("f", 2),
        _first,
        lambda e, args, ds: e.libm(_c_name("atan2", args[0].type), *args),
    ),
    "np.cbrt": _float_unary(_np_cbrt),
    "np.isfinite": _bool_result(_np_isfinite),
    "np.isnan": _bool_result(_np_isnan),
    "**": _intrinsic("pow", arity=2),
    "min": _minmax("<"),
    "max": _minmax(">"),
    "rt.where": _Call(_where_accepts, lambda ds: ds[1], _where),
    "rt.idiv": _int_pair("i", _rt_idiv, _I64),
    "rt.udiv": _int_pair("u", _rt_udiv, _U64),
    "rt.irem": _Call(
        _same("iu", 2, _INTS),
        lambda ds: _I64 if ds[0].kind == "i" else _U64,
        lambda e, args, ds: _rt_irem(e, *args, ds),
    ),
    "rt.popcount": _Call(
        lambda ds: tuple(ds) == (_U64,),
        lambda ds: _I64,
        lambda e, args, ds: e.b.ctpop(args[0]),
    ),
    "rt.bitcast": _Call(
        _bitcast_accepts, lambda ds: ds[1], lambda e, args, ds: e.b.bitcast(args[0], args[1].type)
    ),
    "rt.digamma": _Call(_same("f", 1), lambda ds: _F64, _unary(_rt_digamma)),
    "rt.erf_inv_f64": _Call(lambda ds: tuple(ds) == (_F64,), _first, _unary(_rt_erf_inv_f64)),
    "rt.threefry2x32": _Call(
        lambda ds: tuple(ds) == (np.dtype(np.uint32),) * 4,
        lambda ds: (ds[0], ds[0]),
        lambda e, args, ds: _rt_threefry2x32(e, *args),
    ),
}
# numpy's name -> the C function (with an "f" for float32) numba's lowering calls
_LIBM = dict(tanh="tanh", tan="tan", sinh="sinh", cosh="cosh", log1p="log1p", expm1="expm1")
_LIBM.update(arcsin="asin", arccos="acos", arctan="atan")
_LIBM.update(arcsinh="asinh", arccosh="acosh", arctanh="atanh")
for _np_name, _c in _LIBM.items():
    _CALLS[f"np.{_np_name}"] = _float_unary(_libm(_c))
_CALLS["math.erf"] = _float_unary(_libm("erf"))
_CALLS["math.lgamma"] = _float_unary(_libm("lgamma"))
for _dtype in _FLOATS + _INTS + (_BOOL,):
    _CALLS["np.bool_" if _dtype == _BOOL else f"np.{_dtype.name}"] = _Call(
        lambda ds: len(ds) == 1 and ds[0] in _FLOATS + _INTS + (_BOOL,),
        lambda ds, _dtype=_dtype: _dtype,
        lambda e, args, ds, _dtype=_dtype: _cast(e, args[0], ds[0], _dtype),
    )


def _lookup(name: str, dtypes: Sequence[np.dtype]) -> _Call | None:
    call = _CALLS.get(name)
    if call is None or not call.accepts(tuple(np.dtype(d) for d in dtypes)):
        return None
    return call


def supported(name: str, dtypes: Sequence[np.dtype]) -> bool:
    """Whether `emit_call` has IR for calling `name` on arguments of `dtypes`.

    Args:
      name: the callee as generated source spells it: `vm.exp_f32`, `np.sqrt`, `math.erf`,
        `rt.idiv`, a cast such as `np.float32`, `min`/`max`, or `**` (float power).
      dtypes: the numpy dtypes of the arguments.

    Returns:
      True if `emit_call` accepts the call.
    """
    return _lookup(name, dtypes) is not None


def result_dtype(name: str, dtypes: Sequence[np.dtype]) -> np.dtype | tuple[np.dtype, ...]:
    """The dtype numba gives the call's result (a tuple of dtypes for `rt.threefry2x32`).

    Args:
      name: the callee (see `supported`).
      dtypes: the numpy dtypes of the arguments.

    Returns:
      The result's numpy dtype, e.g. int64 for `rt.idiv` of two int32 (numba widens).
    """
    call = _lookup(name, dtypes)
    if call is None:
        raise UnsupportedCallError(_unsupported(name, dtypes))
    return call.result(tuple(np.dtype(d) for d in dtypes))


def emit_call(
    builder: ir.IRBuilder,
    name: str,
    args: Sequence[ir.Value],
    dtypes: Sequence[np.dtype],
    flags: Sequence[str] = KERNEL_FLAGS,
) -> ir.Value:
    """Emit the IR of the call `name(*args)` at the builder's position.

    Args:
      builder: positioned where the call goes (inside a loop body, typically).
      name: the callee (see `supported`).
      args: the argument values, of `llvm_type(dtype)` for their `dtypes` (bool as i1 or i8).
      dtypes: the numpy dtypes of the arguments.
      flags: the calling kernel's fast-math flags (those of numba's kernel by default), for what
        numba lowers inline in the kernel.

    Returns:
      The result, of `llvm_type(result_dtype(name, dtypes))` (`[2 x i32]` for a threefry pair).

    Raises:
      UnsupportedCallError: if `supported(name, dtypes)` is false.
    """
    call = _lookup(name, dtypes)
    if call is None:
        raise UnsupportedCallError(_unsupported(name, dtypes))
    ds = tuple(np.dtype(d) for d in dtypes)
    fp = _Fp(builder, flags if call.flags is None else call.flags)
    return call.emit(fp, list(args), ds)


def _unsupported(name: str, dtypes: Sequence[np.dtype]) -> str:
    types = ", ".join(np.dtype(d).name for d in dtypes)
    return (
        f"no LLVM IR for {name}({types}) in core/backends/llvm/vecmath.py; "
        "check `supported` first and compile the kernel with numba"
    )
