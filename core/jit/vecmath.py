"""Vectorizable float32 transcendentals for generated numba loops, XLA's CPU kernels bit for bit.

PyPI's llvmlite has no SVML, so `np.exp` in an `njit` loop is a scalar libm call per element and
blocks SIMD (selu on 1e6 floats: 5.8 ms, against about 0.25 ms with the kernels below). Each
function here is branch-free float32 arithmetic: a range reduction, a polynomial, and a scale by
2**n built from exponent bits (`_bits`/`_float` are LLVM bitcasts), with selects for the edges, so
LLVM inlines it into the caller's loop and vectorizes the loop.

exp, log, tanh, expm1, log1p, logistic and erf are the kernels XLA's CPU back end emits (Eigen's
pexp/plog, XLA's rational tanh, log1p and erf, expm1 from tanh(x/2)), operation for operation, with
`fma` wherever XLA's machine code fuses a product into an add (XLA compiles with FMA contraction
on; LLVM's choice of pairs is read off JAX's dumped object code, `XLA_FLAGS=--xla_dump_to`).
exp2, log10, sinh, cosh, erf_inv and the inverse trigonometric and hyperbolic functions are
composed as XLA's HLO composes them (JAX's decompositions after XLA's simplifier: exp2(x) =
exp(x * ln2), arcsin(x) = 2 atan2(x, 1 + sqrt((1 - x)(1 + x))), ...); atan2, arctan and
cbrt call the C library's atan2f, atanf and cbrtf as XLA does. XLA's threads flush denormals
(FTZ and DAZ): the kernels flush their inputs and results where that changes a result, so
jitted float32 results equal JAX's jitted ones in every bit (tests/core/jit/test_vecmath.py
checks recorded JAX results; accuracy against numpy is XLA's: within 3e-7 relative, exp2 and
sinh/cosh of large |x| within |x| * 2**-24).

`rsqrt_f32`/`rsqrt_f64` are XLA's rsqrt bit for bit: the x86 hardware estimate (whose table
is the CPU's) refined by XLA's Newton steps for this CPU (`RSQRT_STEPS`); the estimate is a
call the loop vectorizer widens through the vector-function ABI (`emit_rsqrt_estimate`).

The kernels are the `vm` namespace of generated code (`from core.jit import vecmath as vm`):
this module holds the float32 kernels above and the rsqrt kernels, and re-exports the others,
which live beside it so that the compiler's fingerprint (`core.jit.disk_cache`) and numba's
cache stamps (`core.jit.numba_cache`) still cover them: `vecmath_ops` (the LLVM operations as
numba intrinsics: bitcasts, `fma`, flagged and reassociable adds, `maximum`/`minimum`),
`vecmath_f64` (the float64 kernels) and `vecmath_trig` (glibc's sinf/cosf/tanf).

The building blocks (`_fma_horner`, `_exp_unflushed`, ...) are inlined into each function by
numba (`inline="always"`), so a cold process compiles `exp_f32` once instead of four
functions.
"""

from __future__ import annotations

import numpy as np

from core.jit.numba_cache import cached_njit
from core.jit.rsqrt_estimate import RSQRT64_STEPS, RSQRT_STEPS
from core.jit.vecmath_f64 import (  # noqa: F401  (the `vm` namespace of generated code)
    _LANCZOS,
    _LOG2E64,
    _TINY64,
    _c_cbrt,
    _flush64,
    acos_f64,
    acosh_f64,
    asin_f64,
    asinh_f64,
    atan2_f64,
    atan_f64,
    atanh_f64,
    cbrt_f64,
    cosh_f64,
    digamma_f64,
    erf_f64,
    erf_inv_f64,
    exp2_f64,
    exp_f64,
    expm1_f64,
    lgamma_f64,
    log1p_f64,
    log_f64,
    logistic_f64,
    pow_f64,
    sinh_f64,
    sqrt_f64,
    tan_f64,
    tanh_f64,
)
from core.jit.vecmath_ops import (  # noqa: F401  (the `vm` namespace of generated code)
    _INF,
    _OPTS,
    REDUCE_FLAGS,
    F,
    I,
    _bits,
    _float,
    _newton_rsqrt,
    _rsqrt_estimate,
    fma,
    maximum,
    minimum,
    radd,
    rmul,
)
from core.jit.vecmath_trig import (  # noqa: F401  (the `vm` namespace of generated code)
    STRICT_FLAGS,
    cos_f32,
    sadd,
    sin_f32,
    tan_f32,
)

_NAN = F(np.nan)
_TINY = F(1.1754944e-38)  # the smallest normal float32
_LOG2E = F(_LOG2E64)
_LN2 = F(0.6931471805599453)
_LN2_HI = F(0.693359375)  # few mantissa bits: n * _LN2_HI is exact
_LN2_LO = F(-2.12194440e-4)

# XLA's CPU kernels' coefficients (Eigen's pexp/plog, XLA's tanh and log1p), highest degree first
_EXP = (
    0.00019875691214110702,
    0.001398199936375022,
    0.008333452045917511,
    0.04166579619050026,
    0.1666666567325592,
    0.5,
)
_LOG = (
    0.07037683576345444,
    -0.11514610052108765,
    0.11676998436450958,
    -0.12420140951871872,
    0.14249323308467865,
    -0.16668057441711426,
    0.2000071406364441,
    -0.24999994039535522,
    0.3333333134651184,
)
_TANH_P = (
    -2.7607683663038313e-16,
    2.0001879384549948e-13,
    -8.604671836165423e-11,
    5.122297253024044e-08,
    1.4857223504805006e-05,
    0.0006372619536705315,
    0.004893524572253227,
)
_TANH_Q = (
    1.1982583600911312e-06,
    0.00011853470641653985,
    0.0022684347350150347,
    0.0048935250379145145,
)
_LOG1P_P = (
    1.0,
    15.062909126281738,
    83.04756927490234,
    221.7624053955078,
    309.0987243652344,
    216.42788696289062,
    60.11865997314453,
)
_LOG1P_Q = (
    4.527e-05,
    0.4985410273075104,
    6.578732490539551,
    29.91191864013672,
    60.949668884277344,
    57.11296463012695,
    20.039552688598633,
)
# XLA's erf (xla/codegen/intrinsic/erf.cc): x P(x**2) / Q(x**2), +-1 from |x| >= _ERF_ONE
_ERF_P = (
    0.00022905065270606428,
    0.0034082909114658833,
    0.050955694168806076,
    0.18520832061767578,
    1.1283791065216064,
)
_ERF_Q = (
    -1.1791603071742429e-07,
    2.354796561121475e-05,
    0.0010179625824093819,
    0.01407046988606453,
    0.11098504811525345,
    0.4974692463874817,
    1.0,
)
_ERF_ONE = 3.8325068950653076
# XLA's erf_inv (its HLO expansion, Giles' single-precision polynomials): erfinv(x) / x in
# t = w - 2.5 (w < 5) and sqrt(w) - 3, w = -log1p(-x**2); highest degree first
_ERFINV_CENTRAL = (
    2.810226362726098e-08,
    3.432739390518691e-07,
    -3.523387704262859e-06,
    -4.391506536194356e-06,
    0.00021858086984138936,
    -0.001253725029528141,
    -0.004177681636065245,
    0.24664072692394257,
    1.5014094114303589,
)
_ERFINV_TAIL = (
    -0.0002002142573473975,
    0.0001009505576803349,
    0.0013493432197719812,
    -0.003673428436741233,
    0.005739507731050253,
    -0.007622461300343275,
    0.00943887047469616,
    1.0016740560531616,
    2.832976818084717,
)


@cached_njit(inline="always", **_OPTS)
def _fma_horner(x, c):
    """c[0] x**n + ... + c[n] by fused multiply-adds from the highest coefficient (XLA's order)."""
    p = F(c[0])
    for k in range(1, len(c)):
        p = fma(p, x, F(c[k]))
    return p


@cached_njit(inline="always", **_OPTS)
def _flush(x):
    """x, or a zero of its sign if it is a denormal (XLA's CPU threads flush denormals)."""
    return F(0) * x if np.abs(x) < _TINY else x


@cached_njit(inline="always", **_OPTS)
def _exp_unflushed(x):
    """XLA's float32 exp (Eigen's pexp): a result below 2**-126 stays denormal."""
    x = F(-87.8) if x < F(-87.8) else x
    x = F(88.8) if x > F(88.8) else x
    m = np.floor(fma(x, _LOG2E, F(0.5)))
    m = F(-127) if m < F(-127) else m
    m = F(127) if m > F(127) else m
    r = fma(-m, _LN2_HI, x)
    r = fma(-m, _LN2_LO, r)
    p = _fma_horner(r, _EXP)
    y = fma(p, r * r, r) + F(1)
    return y * _float((I(m) + I(127)) << I(23))


@cached_njit(**_OPTS)
def rsqrt_f32(x):
    """float32 1 / sqrt(x) as XLA computes it on the CPU: the hardware estimate refined by
    `RSQRT_STEPS` Newton steps, the raw estimate below the smallest normal float and at inf
    (0, -0 and denormals give +-inf, negatives nan, inf 0)."""
    if RSQRT_STEPS == 0:
        return F(1) / np.sqrt(x)
    guess = _rsqrt_estimate(x)
    y = _newton_rsqrt(x, guess, F(-0.5), F(1))
    if RSQRT_STEPS == 2:
        y = _newton_rsqrt(x, y, F(-0.5), F(1))
    return guess if (x < _TINY) | (x == _INF) else y


@cached_njit(**_OPTS)
def rsqrt_f64(x):
    """float64 1 / sqrt(x) as XLA computes it on the CPU: AVX-512's estimate refined by
    `RSQRT64_STEPS` Newton steps, edges as `rsqrt_f32`; without AVX-512 1 / sqrt(x) rounded
    twice (this function's division has no `arcp`: LLVM does not estimate it either).
    Denormals count as zeros (XLA's threads flush them)."""
    x = _flush64(x)
    if RSQRT64_STEPS == 0:
        return 1.0 / np.sqrt(x)
    guess = _rsqrt_estimate(x)
    y = _newton_rsqrt(x, _newton_rsqrt(x, guess, -0.5, 1.0), -0.5, 1.0)
    return guess if (x < _TINY64) | (x == np.inf) else y


@cached_njit(**_OPTS)
def exp_f32(x):
    """Vectorizable float32 exp, XLA's CPU kernel bit for bit."""
    y = _exp_unflushed(x)
    return F(0) if y < _TINY else y


@cached_njit(**_OPTS)
def exp2_f32(x):
    """Vectorizable float32 2**x: exp(x * ln2), as XLA rewrites it."""
    return exp_f32(x * _LN2)


@cached_njit(inline="always", **_OPTS)
def _log_positive(x):
    """XLA's float32 log (Eigen's plog) of x > 0 (other values: nonsense)."""
    x = x if x > _TINY else _TINY
    b = _bits(x)
    e = F((b >> I(23)) - I(127)) + F(1)
    m = _float((b & I(-2139095041)) | I(0x3F000000))  # mantissa in [0.5, 1)
    low = m < F(0.70710677)
    e = e - (F(1) if low else F(0))
    f = (m - F(1)) + (m if low else F(0))
    f2 = f * f
    f3 = f2 * f
    y0 = _fma_horner(f, _LOG[0:3])
    y1 = _fma_horner(f, _LOG[3:6])
    y2 = _fma_horner(f, _LOG[6:9])
    y = fma(fma(y0, f3, y1), f3, y2)
    y = fma(y, f3, e * _LN2_LO)
    return fma(e, _LN2_HI, fma(F(-0.5), f2, f) + y)


@cached_njit(**_OPTS)
def log_f32(x):
    """Vectorizable float32 natural log, XLA's CPU kernel bit for bit (denormals count as 0)."""
    y = _log_positive(x)
    y = y if x > F(0) else _NAN
    y = _INF if x == _INF else y
    return -_INF if np.abs(x) < _TINY else y


@cached_njit(**_OPTS)
def log10_f32(x):
    """Vectorizable float32 log10: log(x) * (1/ln 10), as XLA rewrites it."""
    return log_f32(x) * F(0.434294492)


@cached_njit(inline="always", **_OPTS)
def _tanh_unclamped(x):
    """XLA's float32 tanh rational approximation of |x| < 20 (clamped to +-7.9988)."""
    a = np.abs(x)
    xc = F(-7.998811721801758) if x < F(-7.998811721801758) else x
    xc = F(7.998811721801758) if xc > F(7.998811721801758) else xc
    x2 = xc * xc
    y = xc * _fma_horner(x2, _TANH_P) / _fma_horner(x2, _TANH_Q)
    return x if a < F(0.0004) else y


@cached_njit(**_OPTS)
def tanh_f32(x):
    """Vectorizable float32 tanh, XLA's CPU kernel bit for bit."""
    y = _tanh_unclamped(x)
    return np.copysign(F(1), x) if np.abs(x) >= F(20) else y


@cached_njit(**_OPTS)
def expm1_f32(x):
    """Vectorizable float32 exp(x) - 1 as XLA's: tanh(x/2) * (exp(x) + 1) for |x| <= 0.5."""
    e = _exp_unflushed(x)
    h = x * F(0.5)
    t = _tanh_unclamped(h)
    t = np.copysign(F(1), h) if np.abs(h) >= F(20) else t
    y = e - F(1) if np.abs(x) > F(0.5) else t * (e + F(1))
    return x if np.abs(h) < _TINY else y


@cached_njit(inline="always", **_OPTS)
def _log1p_parts(x):
    """XLA's log1p pieces: (log(1 + x) by log, the rational factor q, x * x); log1p(x) is
    x - x**2 / 2 + x**3 q for |x| < 0.41421357."""
    u = x + F(1)
    lu = _log_positive(u)
    lu = lu if u > F(0) else _NAN
    lu = _INF if u == _INF else lu
    lu = -_INF if u == F(0) else lu
    q = _fma_horner(x, _LOG1P_Q) / _fma_horner(x, _LOG1P_P)
    return lu, q, x * x


@cached_njit(**_OPTS)
def log1p_f32(x):
    """Vectorizable float32 log(1 + x) as XLA's: a rational function for |x| < 0.41421357."""
    x = _flush(x)
    lu, q, x2 = _log1p_parts(x)
    s = x + fma(F(-0.5), x2, (x * x2) * q)
    return s if np.abs(x) < F(0.41421357) else lu


@cached_njit(**_OPTS)
def logistic_f32(x):
    """Vectorizable float32 logistic sigmoid 1 / (1 + exp(-x))."""
    return _flush(F(1) / (exp_f32(-x) + F(1)))


@cached_njit(**_OPTS)
def sinh_f32(x):
    """float32 sinh as XLA expands it: from expm1 for |x| < 1, else exp(x - ln2) - exp(-ln2 - x)."""
    x = _flush(x)
    e = expm1_f32(x)
    small = (e + e / (e + F(1))) * F(0.5)
    big = exp_f32(x + F(-0.693147182)) - exp_f32(F(-0.693147182) - x)
    return small if np.abs(x) < F(1) else big


@cached_njit(**_OPTS)
def cosh_f32(x):
    """float32 cosh as XLA expands it: exp(x - ln2) + exp(-ln2 - x)."""
    return exp_f32(x + F(-0.693147182)) + exp_f32(F(-0.693147182) - x)


@cached_njit(**_OPTS)
def asinh_f32(x):
    """float32 arcsinh as XLA expands it: sign(x) log1p(|x| + x**2 / (sqrt(x**2 + 1) + 1)), and
    log(|x|) + ln2 from |x| >= 2**64."""
    x = _flush(x)
    a = np.abs(x)
    x2 = x * x
    small = log1p_f32(a + x2 / (np.sqrt(x2 + F(1)) + F(1)))
    y = log_f32(a) + F(0.693147182) if a >= F(1.8446743e19) else small
    s = F(1) if x > F(0) else (F(-1) if x < F(0) else x)
    return s * y


@cached_njit(**_OPTS)
def acosh_f32(x):
    """float32 arccosh as XLA expands it: log1p(sqrt(x - 1) (sqrt(x + 1) + sqrt(x - 1))), and
    log(x) + ln2 from x >= 2**127."""
    s = np.sqrt(x + F(-1))
    small = log1p_f32(s * (np.sqrt(x + F(1)) + s))
    return log_f32(x) + F(0.693147182) if x >= F(1.70141173e38) else small


@cached_njit(**_OPTS)
def atanh_f32(x):
    """float32 arctanh as XLA expands it: (log1p(x) - log1p(-x)) / 2, NaN for |x| > 1 (the two
    log1p share -x**2 / 2, so XLA fuses the other product)."""
    x = _flush(x)
    lp, qp, x2 = _log1p_parts(x)
    lm, qm, _ = _log1p_parts(-x)
    h = F(-0.5) * x2
    small = np.abs(x) < F(0.41421357)
    lp = x + fma(x * x2, qp, h) if small else lp
    lm = fma(-(x * x2), qm, h) - x if small else lm
    y = (lp - lm) * F(0.5)
    return _NAN if np.abs(x) > F(1) else y


_CBRT_DENORMAL = F(-5.5951735e-16)


@cached_njit(**_OPTS)
def cbrt_f32(x):
    """float32 cube root: the C library's cbrtf, as XLA calls it. XLA's threads treat denormal
    operands as zeros, which glibc's cbrtf (it scales a denormal up by integer arithmetic on its
    bits) turns into -5.5951735e-16 for every nonzero denormal x: so does this."""
    denormal = (np.abs(x) < _TINY) & (x != F(0))
    return _CBRT_DENORMAL if denormal else _c_cbrt(x)


@cached_njit(**_OPTS)
def atan_f32(x):
    """float32 arctangent: the C library's atanf, as XLA calls it for arrays of 64 elements and
    more (for the eager impl: numpy's own arctan rounds otherwise)."""
    return np.arctan(x)


@cached_njit(**_OPTS)
def atan2_f32(y, x):
    """float32 arctan2: the C library's atan2f, as XLA calls it, with its results under XLA's
    flushing of denormals (y denormal: 0; x denormal: pi/2 rounded down for x < 0, NaN if y is
    a denormal too or NaN)."""
    r = _flush(np.arctan2(_flush(y), x))
    edge = np.copysign(F(1.5707964) if x > F(0) else F(1.5707963), y)
    edge = _NAN if ((np.abs(y) < _TINY) & (y != F(0))) | np.isnan(y) else edge
    return edge if (np.abs(x) < _TINY) & (x != F(0)) else r


@cached_njit(**_OPTS)
def asin_f32(x):
    """float32 arcsin as XLA expands it: 2 atan2(x, 1 + sqrt((1 - x)(1 + x)))."""
    a = atan2_f32(x, np.sqrt((F(1) - x) * (x + F(1))) + F(1))
    return a + a


@cached_njit(**_OPTS)
def acos_f32(x):
    """float32 arccos as XLA expands it: atan2(sqrt((1 - x)(1 + x)), x)."""
    return atan2_f32(np.sqrt((F(1) - x) * (x + F(1))), x)


@cached_njit(**_OPTS)
def erf_f32(x):
    """Vectorizable float32 error function, XLA's CPU kernel bit for bit: x P(x**2) / Q(x**2) by
    fused multiply-adds, +-1 from |x| >= 3.8325 (a denormal x counts as 0)."""
    x = _flush(x)
    x2 = x * x
    y = x * _fma_horner(x2, _ERF_P) / _fma_horner(x2, _ERF_Q)
    return np.copysign(F(1), x) if np.abs(x) >= F(_ERF_ONE) else y


@cached_njit(inline="always", **_OPTS)
def erf_inv_f32(x):
    """Vectorizable float32 inverse error function as XLA expands it: x P(t), t from
    w = -log1p(-x**2) (XLA's log1p kernel), the polynomial by fused multiply-adds; x * inf at +-1,
    NaN beyond, denormal results flushed."""
    lw = log1p_f32(x * -x)
    central = lw > F(-5)
    t = F(-2.5) - lw if central else np.sqrt(-lw) + F(-3)
    p = F(_ERFINV_CENTRAL[0]) if central else F(_ERFINV_TAIL[0])
    for k in range(1, len(_ERFINV_CENTRAL)):
        p = fma(p, t, F(_ERFINV_CENTRAL[k]) if central else F(_ERFINV_TAIL[k]))
    return _flush(x * (_INF if np.abs(x) == F(1) else p))


# XLA's lgamma and digamma: `vecmath_f64._LANCZOS`'s coefficients rounded to float32 (as in
# the HLO), reflected below 1/2


@cached_njit(inline="always", **_OPTS)
def _lanczos_log_t(z):
    """log(z + 7.5) as the expansions compute it: log1p(z / 7.5) + log(7.5), the division a
    product with 1/7.5 after XLA's simplifier."""
    return log1p_f32(z * F(0.13333334)) + F(2.01490307)


@cached_njit(**_OPTS)
def lgamma_f32(x):
    """float32 log|Gamma(x)| as XLA expands it: Lanczos' sum of z = x - 1 (z = -x below 1/2,
    then reflected by log(pi) - log|sin(pi frac)|), XLA's log, log1p and sin kernels; +inf at
    the poles and at +-inf (a denormal x counts as 0)."""
    x = _flush(x)
    reflect = x < F(0.5)
    z = -x if reflect else x + F(-1)
    s = F(_LANCZOS[0]) / (z + F(1)) + F(1)
    for k in range(1, len(_LANCZOS)):
        s = s + F(_LANCZOS[k]) / (z + F(k + 1))
    lt = _lanczos_log_t(z)
    log_y = ((z + F(0.5)) - (z + F(7.5)) / lt) * lt + F(0.918938518) + log_f32(s)
    a = np.abs(x)
    frac = a - np.floor(a)
    frac = F(1) - frac if F(0.5) < frac else frac
    log_sin = log_f32(sin_f32(frac * F(3.14159274)))
    refl = (F(1.14472985) - log_sin) - log_y if np.isfinite(log_sin) else -log_sin
    y = refl if reflect else log_y
    return _INF if a == _INF else y


@cached_njit(**_OPTS)
def digamma_f32(x):
    """float32 digamma as XLA expands it: the derivative of Lanczos' log-sum, log(z + 7.5)
    + n/d - 7/(z + 7.5), reflected below 1/2 by pi cos(pi x)/sin(pi x); NaN at 0 and the
    negative integers (a denormal x counts as 0)."""
    x = _flush(x)
    reflect = x < F(0.5)
    z = -x if reflect else x + F(-1)
    num = F(0)
    for k in range(len(_LANCZOS)):
        zk = z + F(k + 1)
        num = num - F(_LANCZOS[k]) / (zk * zk)
    den = F(_LANCZOS[0]) / (z + F(1)) + F(1)
    for k in range(1, len(_LANCZOS)):
        den = den + F(_LANCZOS[k]) / (z + F(k + 1))
    y = (_lanczos_log_t(z) + num / den) - F(7) / (z + F(7.5))
    pix = (x + np.abs(np.floor(x + F(0.5)))) * F(3.14159274)
    y = y - cos_f32(pix) * F(3.14159274) / sin_f32(pix) if reflect else y
    return _NAN if (x <= F(0)) & (x == np.floor(x)) else y
