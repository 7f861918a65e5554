"""glibc's float32 sinf, cosf and tanf for generated numba loops, branch-free.

sin, cos and tan are calls of the C library's sinf/cosf/tanf in XLA's code: here they are glibc
2.36's (the C library JAX runs on here), branch-free so that loops vectorize: its float64 range
reduction (a fused multiply-subtract below 120, Payne-Hanek by integers above) and polynomials,
with the FMAs of the variant glibc picks on FMA CPUs (sinf, cosf) and the strict float32
operations of its FMA-less tanf (`STRICT_FLAGS`). Another C library, or a CPU without FMA (glibc's
SSE2 sinf/cosf round the products), gives XLA other bits in about 1% of inputs. The three, and
erf_inv, are `inline="always"`: LLVM did not inline bodies this large, and a loop calling them
stayed scalar; numba inlines them with the caller's fast-math flags, which change none of their
operations (their products feed no plain add).
"""

from __future__ import annotations

import numpy as np

from core.jit.numba_cache import cached_njit
from core.jit.vecmath_ops import (
    _INF,
    _OPTS,
    F,
    I,
    _bits,
    _flagged,
    _float,
    fma,
)

# glibc's tanf is compiled without FMA: each product is rounded before it is added. The kernels
# run inlined in loops compiled with `contract` (and `arcp`), which numba's fast-math pass adds to
# every float instruction without flags; `afn` (it licenses approximate *calls* only) gives these
# operations flags of their own, so they stay as written, unfused and exact (and vectorize).
STRICT_FLAGS = ("afn",)
sadd, _ssub, _smul, _sdiv = (_flagged(op, STRICT_FLAGS) for op in ("fadd", "fsub", "fmul", "fdiv"))
sadd.__doc__ = "`a + b` never fused with a product (an FMA) nor reassociated."


def _four_over_pi_words() -> tuple[int, ...]:
    """floor(4/pi * 2**231) as four 64-bit words, most significant first: 24 zero bits, then
    the bits of 4/pi (glibc's `__inv_pio4[i]` is the 32 bits from bit 8i), computed with
    integers (Machin's formula for pi)."""
    bits = 300
    one = 1 << (bits + 20)

    def atan_inv(n):  # atan(1/n) * one, by its series
        total = term = one // n
        k, sign = 1, -1
        while term:
            term //= n * n
            k += 2
            total += sign * (term // k)
            sign = -sign
        return total

    pi = 16 * atan_inv(5) - 4 * atan_inv(239)  # pi * one
    padded = ((4 * one << bits) // pi) >> (bits - 231)
    return tuple((padded >> (192 - 64 * i)) & (2**64 - 1) for i in range(4))


# glibc 2.36's sinf, cosf and tanf (sysdeps/ieee754/flt-32/s_sinf.c, s_cosf.c, s_tanf.c,
# k_tanf.c, s_sincosf.h; x86's sincosf_poly.h and s_sincosf_data.c), which XLA calls
_U = np.uint64
FOUR_OVER_PI_WORDS = _four_over_pi_words()
_C0, _C1, _C2, _C3 = (_U(w) for w in FOUR_OVER_PI_WORDS)
_HPI_INV = float.fromhex("0x1.45F306DC9C883p+23")  # 2/pi * 2**24
_HPI = float.fromhex("0x1.921FB54442D18p0")  # pi/2
_PI63 = float.fromhex("0x1.921FB54442D18p-62")  # pi/2 * 2**-62
# sin(r) = r + r**3 (S1 + r**2 S2 + r**4 S3); cos(r) = C0 + r**2 C1 + ... + r**8 C4
_SINF_S = tuple(float.fromhex(h) for h in ("-0x1.555545995a603p-3", "0x1.1107605230bc4p-7"))
_SINF_S += (float.fromhex("-0x1.994eb3774cf24p-13"),)
_COSF_C = (1.0, float.fromhex("-0x1.ffffffd0c621cp-2"), float.fromhex("0x1.55553e1068f19p-5"))
_COSF_C += (float.fromhex("-0x1.6c087e89a359dp-10"), float.fromhex("0x1.99343027bf8c3p-16"))
# __kernel_tanf's tan(x) = x + x**3 (T0 + x**2 T1 + ...), and pi/4 in two parts
_TANF_T = (
    0.3333333432674408,
    0.13333334028720856,
    0.05396825447678566,
    0.021869488060474396,
    0.008863239549100399,
    0.0035920790396630764,
    0.0014562094584107399,
    0.0005880412645637989,
    0.00024646313977427781,
    7.817944424459711e-05,
    7.140725210774690e-05,
    -1.8558637748355977e-05,
    2.5907305826642550e-05,
)
_PIO4 = 0.7853981256484985  # 0x3f490fda
_PIO4_LO = 3.774894707930798e-08  # 0x33222168


@cached_njit(inline="always", **_OPTS)
def _four_over_pi_field(o):
    """glibc's `__inv_pio4[o / 8]`: 32 bits of 4/pi from bit `o` of `FOUR_OVER_PI_WORDS` (a
    uint64 <= 184), by shifts and masks (no table: gathers are slow, and LLVM made selects of
    constants one)."""
    w = o >> _U(6)
    s = o & _U(63)
    m0, m1 = _U(0) - _U(w == _U(0)), _U(0) - _U(w == _U(1))  # all ones where selected
    m2 = ~(m0 | m1)
    a = (_C0 & m0) | (_C1 & m1) | (_C2 & m2)
    b = (_C1 & m0) | (_C2 & m1) | (_C3 & m2)
    return ((a << s) | ((b >> _U(1)) >> (_U(63) - s))) >> _U(32)


@cached_njit(inline="always", **_OPTS)
def _reduce_large(b):
    """glibc's `reduce_large` of the bits `b` of a float32 |y| >= 120: (r, n) in float64 and int64
    with |y| = n pi/2 + r, |r| <= pi/4 (Payne and Hanek's: the mantissa, shifted by the exponent's
    low 3 bits, times 96 bits of 4/pi from a byte picked by its high bits, mod 4 to 62 bits);
    garbage, but no undefined behaviour, for other bits."""
    o = _U((b >> I(26)) & I(15)) << _U(3)
    m = _U((b & I(0xFFFFFF)) | I(0x800000)) << _U((b >> I(23)) & I(7))
    e0 = _four_over_pi_field(o)
    e4 = _four_over_pi_field(o + _U(32))
    e8 = _four_over_pi_field(o + _U(64))
    res = (((m * e8) >> _U(32)) | ((m * e0) << _U(32))) + m * e4
    n = (res + _U(1 << 61)) >> _U(62)
    res = res - (n << _U(62))
    return np.float64(np.int64(res)) * _PI63, np.int64(n)


@cached_njit(inline="always", **_OPTS)
def _fast_quadrant(y):
    """glibc's `reduce_fast` quadrant of a float32 |y| < 120: the truncated y 2/pi 2**24, rounded
    to an integer by its high bits (0 for other y, whose results are not used)."""
    t = np.float64(y) * _HPI_INV
    t = t if np.abs(y) < F(120) else 0.0
    return (np.int64(np.int32(t)) + 0x800000) >> 24


@cached_njit(inline="always", **_OPTS)
def _sincosf_parts(y):
    """(sin, cos, n): glibc's sine and cosine polynomials, in float64, of y = n pi/2 + r (as its
    FMA build computes them: every product added is fused); sinf(y) is the first for even n,
    cosf(y) the second. Their signs follow the quadrant: both are sin(y) and cos(y) as the
    parity of n picks them."""
    nf = _fast_quadrant(y)
    rf = fma(-np.float64(nf), _HPI, np.float64(y))
    b = _bits(y)
    rl, nl = _reduce_large(b)
    large = np.abs(y) >= F(120)
    r = rl if large else rf
    n = nl if large else nf
    k = nl + np.int64(b < I(0)) if large else nf  # the quadrant with y's sign (sign table, poly)
    xs = r * (-1.0 if ((k + 1) & 2) != 0 else 1.0)
    x2 = r * r
    x3 = xs * x2
    s = fma(fma(x2, _SINF_S[2], _SINF_S[1]), x3 * x2, fma(x3, _SINF_S[0], xs))
    x4 = x2 * x2
    c = fma(x4, _COSF_C[2], fma(x2, _COSF_C[1], _COSF_C[0]))
    c = fma(fma(x2, _COSF_C[4], _COSF_C[3]), x2 * x4, c)
    c = -c if (k & 2) != 0 else c
    return s, c, n


@cached_njit(inline="always", **_OPTS)
def sin_f32(x):
    """Vectorizable float32 sine, glibc's sinf (which XLA calls) bit for bit on FMA CPUs."""
    s, c, n = _sincosf_parts(x)
    y = F(c if (n & 1) != 0 else s)
    y = x if np.abs(x) < F(2.0**-12) else y
    return y if np.abs(x) < _INF else x - x


@cached_njit(inline="always", **_OPTS)
def cos_f32(x):
    """Vectorizable float32 cosine, glibc's cosf (which XLA calls) bit for bit on FMA CPUs."""
    s, c, n = _sincosf_parts(x)
    y = F(s if (n & 1) != 0 else c)
    y = F(1) if np.abs(x) < F(2.0**-12) else y
    return y if np.abs(x) < _INF else x - x


@cached_njit(inline="always", **_OPTS)
def _kernel_tanf(x, y, odd):
    """glibc's `__kernel_tanf(x, y, iy)`, iy = -1 if `odd` else 1: tan(x + y) or -1/tan(x + y)
    for |x + y| <= pi/4 about, branch-free, every float operation strict (no FMA)."""
    hx = _bits(x)
    ix = hx & I(0x7FFFFFFF)
    sgn = F(-1) if hx < I(0) else F(1)
    iy = F(-1) if odd else F(1)
    big = ix >= I(0x3F2CA140)  # |x| >= 0.6744: tan(pi/4 - |x|) converges faster
    xr = sadd(_ssub(F(_PIO4), np.abs(x)), _ssub(F(_PIO4_LO), y * sgn))
    near = _smul(sgn * iy, _ssub(F(1), _smul(iy + iy, xr)))  # |xr| < 2**-13
    x = xr if big else x
    y = F(0) if big else y
    z = _smul(x, x)
    w = _smul(z, z)
    r = F(_TANF_T[11])
    v = F(_TANF_T[12])
    for k in range(9, 0, -2):
        r = sadd(F(_TANF_T[k]), _smul(w, r))
        v = sadd(F(_TANF_T[k + 1]), _smul(w, v))
    v = _smul(z, v)
    s = _smul(z, x)
    r = sadd(y, _smul(z, sadd(_smul(s, sadd(r, v)), y)))
    r = sadd(r, _smul(F(_TANF_T[0]), s))
    w = sadd(x, r)
    reflected = _smul(
        sgn, _ssub(iy, _smul(F(2), _ssub(x, _ssub(_sdiv(_smul(w, w), sadd(w, iy)), r))))
    )
    # -1/(x + r) to float32 accuracy: w's and the quotient's high parts, a correction
    zh = _float(_bits(w) & I(-4096))
    v = _ssub(r, _ssub(zh, x))
    a = _sdiv(F(-1), w)
    t = _float(_bits(a) & I(-4096))
    inverse = sadd(t, _smul(a, sadd(sadd(F(1), _smul(t, zh)), _smul(t, v))))
    result = reflected if big else (inverse if odd else w)
    result = near if big & (np.abs(xr) < F(2.0**-13)) else result
    return result


@cached_njit(inline="always", **_OPTS)
def tan_f32(x):
    """Vectorizable float32 tangent, glibc's tanf (which XLA calls) bit for bit: reduced in
    float64 without FMA, split into float32 high and low parts for `_kernel_tanf`."""
    xd = np.float64(x)
    nf = _fast_quadrant(x)
    rf = _ssub(xd, _smul(np.float64(nf), _HPI))
    rl, nl = _reduce_large(_bits(x))
    large = np.abs(x) >= F(120)
    r = (-rl if x < F(0) else rl) if large else rf
    odd = ((nl if large else nf) & 1) != 0
    hi = F(r)
    lo = F(_ssub(r, np.float64(hi)))
    y = _kernel_tanf(hi, lo, odd)
    # |hi| < 2**-13: hi itself, or -1/hi (1/|hi| at 0)
    tiny = _sdiv(F(1), np.abs(hi)) if hi == F(0) else _sdiv(F(-1), hi)
    y = (tiny if odd else hi) if np.abs(hi) < F(2.0**-13) else y
    return y if np.abs(x) < _INF else x - x
