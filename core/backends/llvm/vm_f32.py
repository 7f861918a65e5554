"""The IR of `core/jit/vecmath.py`'s float32 kernels (`vm.exp_f32`, `vm.log_f32`, `vm.tanh_f32`,
... `vm.erf_inv_f32`) and of `vm.rsqrt_f32`/`vm.rsqrt_f64`, line by line: the same
coefficients (imported from it), the same operation order and the same fast-math flags on
the same instructions, so LLVM fuses the same pairs into FMAs and the results are numba's
bit for bit. The inverse hyperbolic compositions take their precision's pieces (`_Pieces`),
which the float64 ones (`vm_f64`) reuse.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from llvmlite import ir

from core.backends.llvm.float_ir import (
    _I32T,
    _clamp,
    _f,
    _flush,
    _flush64,
    _fma,
    _fma_horner,
    _Fp,
    _i,
    _sel,
    _sqrt,
    _tiny,
)
from core.jit.rsqrt_estimate import RSQRT64_STEPS, RSQRT_STEPS, emit_rsqrt_estimate
from core.jit.vecmath import (
    _ERF_ONE,
    _ERF_P,
    _ERF_Q,
    _ERFINV_CENTRAL,
    _ERFINV_TAIL,
    _EXP,
    _LN2,
    _LN2_HI,
    _LN2_LO,
    _LOG,
    _LOG1P_P,
    _LOG1P_Q,
    _LOG2E,
    _TANH_P,
    _TANH_Q,
    _TINY,
)


def _bits(e: _Fp, x):
    return e.b.bitcast(x, _I32T)


def _float(e: _Fp, n):
    return e.b.bitcast(n, ir.FloatType())


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


def _vm_cbrt(e: _Fp, x):
    f = x.type
    denormal = e.b.and_(_tiny(e, x), e.cmp("!=", x, _f(f, 0)))
    return _sel(e, denormal, _f(f, -5.5951735e-16), e.libm("cbrtf", x))


def _vm_atan2(e: _Fp, y, x):
    f = x.type
    r = _flush(e, e.libm("atan2f", _flush(e, y), x))
    half_pi = _sel(e, e.cmp(">", x, _f(f, 0)), _f(f, 1.5707964), _f(f, 1.5707963))
    edge = e.intrinsic("copysign", half_pi, y)
    y_den = e.b.or_(e.b.and_(_tiny(e, y), e.cmp("!=", y, _f(f, 0))), e.cmp("!=", y, y))
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
