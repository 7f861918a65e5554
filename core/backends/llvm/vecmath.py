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
  instructions, so LLVM fuses the same pairs. `erf_f32`/`erf_inv_f32` are `inline="always"`:
  numba lowers them inside the caller, with the caller's flags (`flags` here).
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

import numpy as np
from llvmlite import ir

from core.errors import NumbaxError
from core.jit.vecmath import (
    _ERF,
    _ERFCX,
    _ERFINV_CENTRAL,
    _ERFINV_TAIL,
    _EXP,
    _EXPM1,
    _LN2_HI,
    _LN2_LO,
    _LOG2E,
    _ROUND,
    _TANH,
    HUGE_EXPONENT,
    HUGE_R_SCALE,
    REDUCE_FLAGS,
    RSQRT64_STEPS,
    RSQRT_STEPS,
    TWO_OVER_PI_WORDS,
    emit_rsqrt_estimate,
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


def _poly(e: _Fp, x, c):
    p = _f(x.type, c[-1])
    for k in range(len(c) - 2, -1, -1):
        p = e.add(e.mul(p, x), _f(x.type, c[k]))
    return p


def _bits(e: _Fp, x):
    return e.b.bitcast(x, _I32T)


def _float(e: _Fp, n):
    return e.b.bitcast(n, ir.FloatType())


def _reduce_ln2(e: _Fp, x):
    """(n as float32, n as int32, r) with x = n*ln2 + r."""
    rnd = _f(x.type, _ROUND)
    t = e.add(e.mul(x, _f(x.type, _LOG2E)), rnd)
    n = e.b.sub(_bits(e, t), _bits(e, rnd))
    t = e.sub(t, rnd)
    r = e.sub(e.sub(x, e.mul(t, _f(x.type, _LN2_HI))), e.mul(t, _f(x.type, _LN2_LO)))
    return t, n, r


def _exp_reduced(e: _Fp, r, n):
    p = e.add(e.add(e.mul(e.mul(r, r), _poly(e, r, _EXP)), r), _f(r.type, 1))
    return _float(e, e.b.add(_bits(e, p), e.b.shl(n, _i(_I32T, 23))))


def _pow2(e: _Fp, n):
    return _float(e, e.b.shl(e.b.add(n, _i(_I32T, 127)), _i(_I32T, 23)))


def _sel(e: _Fp, cond, a, b):
    return e.b.select(cond, a, b)


def _vm_exp(e: _Fp, x):
    f = x.type
    _, n, r = _reduce_ln2(e, x)
    y = _exp_reduced(e, r, n)
    y = _sel(e, e.cmp("<", x, _f(f, -87.33654)), _f(f, 0), y)
    return _sel(e, e.cmp("<=", x, _f(f, 88.72283)), y, e.add(x, _f(f, np.inf)))


def _vm_exp2(e: _Fp, x):
    f = x.type
    rnd = _f(f, _ROUND)
    t = e.add(x, rnd)
    n = e.b.sub(_bits(e, t), _bits(e, rnd))
    r = e.mul(e.sub(x, e.sub(t, rnd)), _f(f, 0.6931471805599453))
    y = _exp_reduced(e, r, n)
    y = _sel(e, e.cmp("<", x, _f(f, -126)), _f(f, 0), y)
    return _sel(e, e.cmp("<", x, _f(f, 128)), y, e.add(x, _f(f, np.inf)))


def _vm_expm1(e: _Fp, x):
    f = x.type
    xc = _sel(e, e.cmp("<", x, _f(f, -30)), _f(f, -30), x)
    _, n, r = _reduce_ln2(e, xc)
    p = e.add(e.mul(e.mul(r, r), _poly(e, r, _EXPM1)), r)
    t = _pow2(e, e.b.sub(n, _i(_I32T, 1)))
    y = e.mul(_f(f, 2), e.add(e.mul(t, p), e.sub(t, _f(f, 0.5))))
    y = _sel(e, e.cmp("<=", x, _f(f, 88.72283)), y, e.add(x, _f(f, np.inf)))
    return _sel(e, e.cmp("!=", x, _f(f, 0)), y, x)


def _vm_log(e: _Fp, x):
    f, b_ = x.type, e.b
    tiny = e.cmp("<", x, _f(f, 1.1754944e-38))
    xs = _sel(e, tiny, e.mul(x, _f(f, 8388608.0)), x)
    b = _bits(e, xs)
    ex = b_.sub(b_.and_(b_.ashr(b, _i(_I32T, 23)), _i(_I32T, 255)), _i(_I32T, 127))
    ex = b_.sub(ex, _sel(e, tiny, _i(_I32T, 23), _i(_I32T, 0)))
    m = _float(e, b_.or_(b_.and_(b, _i(_I32T, 0x7FFFFF)), _i(_I32T, 0x3F800000)))
    big = e.cmp(">", m, _f(f, 1.4142135))
    m = _sel(e, big, e.mul(m, _f(f, 0.5)), m)
    ex = _sel(e, big, b_.add(ex, _i(_I32T, 1)), ex)
    fr = e.sub(m, _f(f, 1))
    s = e.div(fr, e.add(_f(f, 2), fr))
    z = e.mul(s, s)
    r = e.mul(z, _f(f, 2 / 9))
    for c in (2 / 7, 2 / 5, 2 / 3):
        r = e.mul(z, e.add(_f(f, c), r))
    ef = b_.sitofp(ex, f)
    y = e.add(
        e.mul(ef, _f(f, _LN2_HI)),
        e.add(e.sub(fr, e.mul(s, e.sub(fr, r))), e.mul(ef, _f(f, _LN2_LO))),
    )
    y = _sel(e, e.cmp("<", x, _f(f, np.inf)), y, x)
    y = _sel(e, e.cmp("==", x, _f(f, 0)), _f(f, -np.inf), y)
    return _sel(e, e.cmp("<", x, _f(f, 0)), _f(f, np.nan), y)


def _vm_log1p(e: _Fp, x):
    f = x.type
    u = e.add(_f(f, 1), x)
    lu = _vm_log(e.with_flags(_VM_FLAGS), u)
    ok = e.b.and_(e.cmp("<", u, _f(f, np.inf)), e.cmp("!=", u, _f(f, 0)))
    y = _sel(e, ok, e.sub(lu, e.div(e.sub(e.sub(u, _f(f, 1)), x), u)), lu)
    return _sel(e, e.cmp("!=", x, _f(f, 0)), y, x)


def _vm_tanh(e: _Fp, x):
    f = x.type
    a = e.intrinsic("fabs", x)
    z = e.mul(x, x)
    small = e.add(x, e.mul(e.mul(x, z), _poly(e, z, _TANH)))
    _, n, r = _reduce_ln2(e, e.mul(_f(f, 2), _sel(e, e.cmp(">", a, _f(f, 20)), _f(f, 20), a)))
    big = e.sub(_f(f, 1), e.div(_f(f, 2), e.add(_exp_reduced(e, r, n), _f(f, 1))))
    big = _sel(e, e.cmp("<", x, _f(f, 0)), e.neg(big), big)
    y = _sel(e, e.cmp("<", a, _f(f, 0.55)), small, big)
    return _sel(e, e.b.and_(e.cmp("==", a, a), e.cmp("!=", x, _f(f, 0))), y, x)


def _vm_logistic(e: _Fp, x):
    f = x.type
    ex = _vm_exp(e.with_flags(_VM_FLAGS), e.neg(x))
    return e.div(_f(f, 1), e.add(_f(f, 1), ex))


def _vm_rsqrt(e: _Fp, x):
    """`vm.rsqrt_f32`/`vm.rsqrt_f64`: the x86 estimate (`emit_rsqrt_estimate`) and XLA's Newton
    steps (`RSQRT_STEPS`, `RSQRT64_STEPS`), the estimate at the edges."""
    f = x.type
    single = isinstance(f, ir.FloatType)
    steps = RSQRT_STEPS if single else RSQRT64_STEPS
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
    """Inlined into the caller by numba (`inline="always"`): the caller's flags."""
    f = x.type
    a = e.intrinsic("fabs", x)
    small = e.mul(x, _poly(e, e.mul(x, x), _ERF))
    ac = _sel(e, e.cmp(">", a, _f(f, 4)), _f(f, 4), a)
    ac = _sel(e, e.cmp("<", a, _f(f, 1)), _f(f, 1), ac)
    ex = _vm_exp(e.with_flags(_VM_FLAGS), e.mul(e.neg(ac), ac))
    big = e.sub(_f(f, 1), e.mul(ex, _poly(e, e.div(_f(f, 1), ac), _ERFCX)))
    big = _sel(e, e.cmp("<", x, _f(f, 0)), e.neg(big), big)
    y = _sel(e, e.cmp("<", a, _f(f, 1)), small, big)
    return _sel(e, e.cmp("==", a, a), y, x)


def _vm_erf_inv(e: _Fp, x):
    """Inlined into the caller by numba (`inline="always"`): the caller's flags."""
    f = x.type
    a = e.intrinsic("fabs", x)
    w = e.neg(_vm_log(e.with_flags(_VM_FLAGS), e.mul(e.sub(_f(f, 1), a), e.add(_f(f, 1), a))))
    central = _poly(e, e.sub(w, _f(f, 2.5)), _ERFINV_CENTRAL)
    five = e.cmp("<", w, _f(f, 5))
    tail = _poly(e, e.sub(e.libm("sqrtf", _sel(e, five, _f(f, 5), w)), _f(f, 3)), _ERFINV_TAIL)
    y = e.mul(x, _sel(e, e.cmp("<", w, _f(f, 5)), central, tail))
    y = _sel(e, e.cmp("==", a, _f(f, 1)), e.mul(x, _f(f, np.inf)), y)
    return _sel(e, e.cmp(">", a, _f(f, 1)), _f(f, np.nan), y)


def _nested(e: _Fp, z, coeffs, inner):
    """c[0] + z * (c[1] + z * (... + z * inner)), as the source nests it."""
    for c in reversed(coeffs):
        inner = e.add(_f(z.type, c), e.mul(z, inner))
    return inner


def _two_over_pi_field(b: ir.IRBuilder, o):
    """`vecmath._two_over_pi_field`: 32 bits of the padded 2/pi from bit `o` (an i64)."""
    u = lambda v: _i(_I64T, v)  # noqa: E731
    w, s = b.lshr(o, u(6)), b.and_(o, u(63))
    m0 = b.sub(u(0), b.zext(b.icmp_unsigned("==", w, u(0)), _I64T))
    m1 = b.sub(u(0), b.zext(b.icmp_unsigned("==", w, u(1)), _I64T))
    m2 = b.xor(b.or_(m0, m1), u(-1))
    c = [u(v) for v in TWO_OVER_PI_WORDS]
    pick = lambda k: b.or_(b.or_(b.and_(c[k], m0), b.and_(c[k + 1], m1)), b.and_(c[k + 2], m2))  # noqa: E731
    lo = b.lshr(b.lshr(pick(1), u(1)), b.sub(u(63), s))
    return b.lshr(b.or_(b.shl(pick(0), s), lo), u(32))


def _reduce_huge(e: _Fp, x):
    """`vecmath._reduce_huge`: (r, q as i64) by Payne-Hanek for a finite |x| >= 2**19."""
    b = e.b
    bits = b.bitcast(x, _I32T)
    j = b.sub(b.and_(b.ashr(bits, _i(_I32T, 23)), _i(_I32T, 255)), _i(_I32T, HUGE_EXPONENT))
    o = b.sext(b.select(b.icmp_signed("<", j, _i(_I32T, 0)), _i(_I32T, 0), j), _I64T)
    m = b.sext(b.or_(b.and_(bits, _i(_I32T, 0x7FFFFF)), _i(_I32T, 0x800000)), _I64T)
    w0, w1, w2 = (_two_over_pi_field(b, b.add(o, _i(_I64T, k))) for k in (0, 32, 64))
    y = b.add(b.shl(b.mul(m, w0), _i(_I64T, 32)), b.mul(m, w1))
    y = b.add(y, b.lshr(b.mul(m, w2), _i(_I64T, 32)))
    q = b.lshr(b.add(y, _i(_I64T, 1 << 61)), _i(_I64T, 62))
    f = b.sub(y, b.shl(q, _i(_I64T, 62)))
    r = e.mul(b.sitofp(f, ir.DoubleType()), _f(ir.DoubleType(), HUGE_R_SCALE))
    neg = e.cmp("<", x, _f(x.type, 0))
    return _sel(e, neg, e.neg(r), r), _sel(e, neg, b.sub(_i(_I64T, 0), q), q)


def _sincos_reduced(e: _Fp, x):
    """(sin r, cos r, quadrant as i64) in float64 for x = q*pi/2 + r (`vecmath._sincos_reduced`)."""
    d = ir.DoubleType()
    big = _f(d, 6755399441055744.0)
    xd = e.b.fpext(x, d)
    t = e.add(e.mul(xd, _f(d, 0.6366197723675814)), big)
    q = e.b.sub(e.b.bitcast(t, _I64T), e.b.bitcast(big, _I64T))
    t = e.sub(t, big)
    r = xd
    for c in (1.5707963267341256, 6.077100506506192e-11, 2.0222662487959506e-21):
        r = e.sub(r, e.mul(t, _f(d, c)))
    rh, qh = _reduce_huge(e, x)
    a = e.intrinsic("fabs", x)
    huge = e.b.and_(e.cmp(">=", a, _f(x.type, 524288.0)), e.cmp("<", a, _f(x.type, np.inf)))
    r, q = _sel(e, huge, rh, r), _sel(e, huge, qh, q)
    z = e.mul(r, r)
    s = e.add(_f(d, 1 / 362880), e.div(z, _f(d, -39916800.0)))
    s = e.add(r, e.mul(e.mul(r, z), _nested(e, z, (-1 / 6, 1 / 120, -1 / 5040), s)))
    c = e.add(_f(d, 1 / 40320), e.mul(z, _f(d, -1 / 3628800)))
    c = _nested(e, z, (1 / 24, -1 / 720), c)
    c = e.add(e.sub(_f(d, 1), e.mul(_f(d, 0.5), z)), e.mul(e.mul(z, z), c))
    return s, c, e.b.and_(q, _i(_I64T, 3))


def _vm_sin(e: _Fp, x):
    s, c, q = _sincos_reduced(e, x)
    b = e.b
    y = _sel(e, b.icmp_signed("==", b.and_(q, _i(_I64T, 1)), _i(_I64T, 0)), s, c)
    y = _sel(e, b.icmp_signed(">=", q, _i(_I64T, 2)), e.neg(y), y)
    return _sel(e, e.cmp("!=", x, _f(x.type, 0)), b.fptrunc(y, x.type), x)


def _vm_cos(e: _Fp, x):
    s, c, q = _sincos_reduced(e, x)
    b = e.b
    y = _sel(e, b.icmp_signed("==", b.and_(q, _i(_I64T, 1)), _i(_I64T, 0)), c, s)
    flip = b.or_(b.icmp_signed("==", q, _i(_I64T, 1)), b.icmp_signed("==", q, _i(_I64T, 2)))
    return b.fptrunc(_sel(e, flip, e.neg(y), y), x.type)


def _vm_tan(e: _Fp, x):
    s, c, q = _sincos_reduced(e, x)
    b = e.b
    even = b.icmp_signed("==", b.and_(q, _i(_I64T, 1)), _i(_I64T, 0))
    y = b.fptrunc(_sel(e, even, e.div(s, c), e.div(e.neg(c), s)), x.type)
    return _sel(e, e.cmp("!=", x, _f(x.type, 0)), y, x)


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
    "vm.erf_f32": _vm(_vm_erf, flags=None),
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
