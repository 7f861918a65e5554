"""The IR of `core/jit/vecmath.py`'s `sin_f32`, `cos_f32` and `tan_f32` (and of `lgamma_f32` and
`digamma_f32`, XLA's expansions that call sinf and cosf): glibc 2.36's sinf, cosf and tanf,
branch-free (a float64 range reduction: a fused multiply-subtract below 120, Payne-Hanek
by integers above; the polynomials with glibc's FMAs for sinf/cosf and the strict float32
operations of its FMA-less tanf, `STRICT_FLAGS`). numba inlines these kernels, so they run
with the caller's flags except tan's strict operations.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir

from core.backends.llvm.float_ir import (
    _I32T,
    _I64T,
    _f,
    _flush,
    _fma,
    _Fp,
    _i,
    _sel,
)
from core.backends.llvm.vm_f32 import (
    _bits,
    _float,
    _vm_log,
    _vm_log1p,
)
from core.jit.vecmath import _LANCZOS
from core.jit.vecmath_trig import (
    _COSF_C,
    _HPI,
    _HPI_INV,
    _PI63,
    _PIO4,
    _PIO4_LO,
    _SINF_S,
    _TANF_T,
    FOUR_OVER_PI_WORDS,
    STRICT_FLAGS,
)


def _four_over_pi_field(b: ir.IRBuilder, o):
    """`vecmath_trig._four_over_pi_field`: 32 bits of 4/pi from bit `o` (an i64)."""
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
    """`vecmath_trig._reduce_large`: (r, n as i64) of the bits of a float32 |y| >= 120."""
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
    """`vecmath_trig._fast_quadrant`: glibc's `reduce_fast` quadrant (an i64) of a float32."""
    b = e.b
    t = e.mul(b.fpext(x, ir.DoubleType()), _f(ir.DoubleType(), _HPI_INV))
    small = e.cmp("<", e.intrinsic("fabs", x), _f(x.type, 120))
    t = _sel(e, small, t, _f(ir.DoubleType(), 0.0))
    t = b.sext(b.fptosi(t, _I32T), _I64T)
    return b.ashr(b.add(t, _i(_I64T, 0x800000)), _i(_I64T, 24))


def _large(e: _Fp, x):
    return e.cmp(">=", e.intrinsic("fabs", x), _f(x.type, 120))


def _sincosf_parts(e: _Fp, x):
    """`vecmath_trig._sincosf_parts`: (sin, cos, n as i64) of glibc's sinf/cosf polynomials."""
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
    """`vecmath_trig._kernel_tanf`: glibc's `__kernel_tanf`, strict operations (`STRICT_FLAGS`)."""
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


def _lanczos_log_t(e: _Fp, z):
    return e.add(_vm_log1p(e, e.mul(z, _f(z.type, 0.13333334))), _f(z.type, 2.01490307))


def _reflected_z(e: _Fp, x):
    """(x < 1/2, z): z = -x there, x - 1 elsewhere."""
    reflect = e.cmp("<", x, _f(x.type, 0.5))
    return reflect, _sel(e, reflect, e.neg(x), e.add(x, _f(x.type, -1)))


def _vm_lgamma(e: _Fp, x):
    f = x.type
    x = _flush(e, x)
    reflect, z = _reflected_z(e, x)
    s = e.add(e.div(_f(f, _LANCZOS[0]), e.add(z, _f(f, 1))), _f(f, 1))
    for k in range(1, len(_LANCZOS)):
        s = e.add(s, e.div(_f(f, _LANCZOS[k]), e.add(z, _f(f, k + 1))))
    lt = _lanczos_log_t(e, z)
    head = e.sub(e.add(z, _f(f, 0.5)), e.div(e.add(z, _f(f, 7.5)), lt))
    log_y = e.add(e.add(e.mul(head, lt), _f(f, 0.918938518)), _vm_log(e, s))
    a = e.intrinsic("fabs", x)
    frac = e.sub(a, e.intrinsic("floor", a))
    frac = _sel(e, e.cmp("<", _f(f, 0.5), frac), e.sub(_f(f, 1), frac), frac)
    log_sin = _vm_log(e, _vm_sin(e, e.mul(frac, _f(f, 3.14159274))))
    d = e.sub(log_sin, log_sin)
    finite = e.b.fcmp_ordered("ord", d, d, flags=e.flags)
    refl = _sel(e, finite, e.sub(e.sub(_f(f, 1.14472985), log_sin), log_y), e.neg(log_sin))
    y = _sel(e, reflect, refl, log_y)
    return _sel(e, e.cmp("==", a, _f(f, np.inf)), _f(f, np.inf), y)


def _vm_digamma(e: _Fp, x):
    f = x.type
    x = _flush(e, x)
    reflect, z = _reflected_z(e, x)
    num = _f(f, 0)
    for k, c in enumerate(_LANCZOS):
        zk = e.add(z, _f(f, k + 1))
        num = e.sub(num, e.div(_f(f, c), e.mul(zk, zk)))
    den = e.add(e.div(_f(f, _LANCZOS[0]), e.add(z, _f(f, 1))), _f(f, 1))
    for k in range(1, len(_LANCZOS)):
        den = e.add(den, e.div(_f(f, _LANCZOS[k]), e.add(z, _f(f, k + 1))))
    y = e.add(_lanczos_log_t(e, z), e.div(num, den))
    y = e.sub(y, e.div(_f(f, 7), e.add(z, _f(f, 7.5))))
    half_floor = e.intrinsic("floor", e.add(x, _f(f, 0.5)))
    pix = e.mul(e.add(x, e.intrinsic("fabs", half_floor)), _f(f, 3.14159274))
    cot = e.div(e.mul(_vm_cos(e, pix), _f(f, 3.14159274)), _vm_sin(e, pix))
    y = _sel(e, reflect, e.sub(y, cot), y)
    pole = e.b.and_(e.cmp("<=", x, _f(f, 0)), e.cmp("==", x, e.intrinsic("floor", x)))
    return _sel(e, pole, _f(f, np.nan), y)
