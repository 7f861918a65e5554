"""The IR of `core/jit/vecmath.py`'s float64 kernels (XLA's own exp and tanh, its compositions,
the C library's log, atan2, erf and cbrt with XLA's flushing of denormals): numba compiles them
without fast-math flags, so only the `fma` calls fuse, here as there.
"""

from __future__ import annotations

import numpy as np

from core.backends.llvm.float_ir import (
    _I64T,
    _clamp,
    _f,
    _flush64,
    _fma,
    _fma_horner,
    _Fp,
    _i,
    _sel,
    _sqrt,
    _tiny64,
)
from core.backends.llvm.vm_f32 import (
    _Pieces,
    _tanh_clamped,
)
from core.jit.vecmath_f64 import (
    _ATAN2_FAR,
    _ERFINV64_CENTRAL,
    _ERFINV64_MIDDLE,
    _ERFINV64_TAIL,
    _EXP64_HI,
    _EXP64_LO,
    _EXP64_P,
    _EXP64_Q,
    _HALF_LOG_2PI,
    _LANCZOS,
    _LANCZOS0,
    _LN2_64,
    _LN2_HI64,
    _LN2_LO64,
    _LOG1P64_P,
    _LOG1P64_Q,
    _LOG1P64_SMALL,
    _LOG2E64,
    _LOG_LANCZOS_T,
    _LOG_PI,
    _NEG_LN2_64,
    _ONE64_BITS,
    _TANH64_CLAMP,
    _TANH64_P,
    _TANH64_Q,
    _TINY64,
)


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


def _lanczos64(e: _Fp, x):
    """(x < 1/2, z, log(z + 7.5)) of `vecmath_f64`'s lgamma and digamma: z = -x below 1/2,
    x - 1 elsewhere."""
    d = x.type
    reflect = e.cmp("<", x, _f(d, 0.5))
    z = _sel(e, reflect, e.neg(x), e.add(x, _f(d, -1)))
    lt = e.add(_vm_log1p64(e, e.mul(z, _f(d, 0.13333333333333333))), _f(d, _LOG_LANCZOS_T))
    return reflect, z, lt


def _lanczos64_sum(e: _Fp, z):
    d = z.type
    s = e.add(e.div(_f(d, _LANCZOS[0]), e.add(z, _f(d, 1))), _f(d, _LANCZOS0))
    for k in range(1, len(_LANCZOS)):
        s = e.add(s, e.div(_f(d, _LANCZOS[k]), e.add(z, _f(d, k + 1))))
    return s


def _vm_lgamma64(e: _Fp, x):
    d = x.type
    x = _flush64(e, x)
    reflect, z, lt = _lanczos64(e, x)
    head = e.sub(e.add(z, _f(d, 0.5)), e.div(e.add(z, _f(d, 7.5)), lt))
    log_y = e.add(_fma(e, head, lt, _f(d, _HALF_LOG_2PI)), _vm_log64(e, _lanczos64_sum(e, z)))
    a = e.intrinsic("fabs", x)
    frac = e.sub(a, e.intrinsic("floor", a))
    frac = _sel(e, e.cmp("<", _f(d, 0.5), frac), e.sub(_f(d, 1), frac), frac)
    log_sin = _vm_log64(e, e.intrinsic("sin", e.mul(frac, _f(d, np.pi))))
    finite = e.cmp("<", e.intrinsic("fabs", log_sin), _f(d, np.inf))
    refl = _sel(e, finite, e.sub(e.sub(_f(d, _LOG_PI), log_sin), log_y), e.neg(log_sin))
    y = _sel(e, reflect, refl, log_y)
    return _sel(e, e.cmp("==", a, _f(d, np.inf)), _f(d, np.inf), y)


def _vm_digamma64(e: _Fp, x):
    d = x.type
    x = _flush64(e, x)
    reflect, z, lt = _lanczos64(e, x)
    num = _f(d, 0)
    for k, c in enumerate(_LANCZOS):
        zk = e.add(z, _f(d, k + 1))
        num = e.sub(num, e.div(_f(d, c), e.mul(zk, zk)))
    y = e.add(lt, e.div(num, _lanczos64_sum(e, z)))
    y = e.sub(y, e.div(_f(d, 7), e.add(z, _f(d, 7.5))))
    half_floor = e.intrinsic("floor", e.add(x, _f(d, 0.5)))
    pix = e.mul(e.add(x, e.intrinsic("fabs", half_floor)), _f(d, np.pi))
    cot = e.div(e.mul(e.intrinsic("cos", pix), _f(d, np.pi)), e.intrinsic("sin", pix))
    y = _sel(e, reflect, e.sub(y, cot), y)
    pole = e.b.and_(e.cmp("<=", x, _f(d, 0)), e.cmp("==", x, e.intrinsic("floor", x)))
    return _sel(e, pole, _f(d, np.nan), y)
