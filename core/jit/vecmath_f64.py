"""XLA's float64 kernels for generated numba loops, bit for bit (JAX with `jax_enable_x64`).

The `_f64` kernels are XLA's float64 ones bit for bit (JAX with `jax_enable_x64`): exp is XLA's
own (xla/codegen/intrinsic: Cephes' Pade form, 2**n applied as four factors), tanh its rational
function, expm1, exp2, logistic, sinh, cosh and the inverse hyperbolic functions its
compositions; log, atan2, erf and cbrt are the C library's, which XLA calls, with XLA's flushing
of denormals (log1p's rational part and the compositions around them are XLA's). They are
compiled without FMA contraction, with `fma` exactly where XLA's machine code fuses. sin, cos,
atan and pow XLA leaves to the C library too, as numba's `np.sin`, ... do (`tan_f64`,
`atan_f64` call them for the eager impls: numpy's own functions round otherwise).

`_flush64` is XLA's flushing of float64 denormals (its CPU threads run with FTZ and DAZ).
"""

from __future__ import annotations

import math

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from core.jit.numba_cache import cached_njit
from core.jit.vecmath_ops import (
    _bitcast,
    fma,
    maximum,
    minimum,
)

# --- float64: XLA's own exp and tanh (xla/codegen/intrinsic), and HLO compositions of them ------
# Compiled without contraction: every product XLA's machine code fuses into an add is an `fma`
# here, and no other (LLVM fusing on its own would pick pairs XLA does not). `forceinline`: LLVM
# inlines them into the caller's loop whatever their size (keeping their own flags, unlike
# numba's `inline="always"`), so the loop vectorizes (expm1, sinh, ... exceed its threshold).
_OPTS64 = dict(error_model="numpy", forceinline=True, cache=True)
_float64 = _bitcast(types.int64, types.float64)
_ONE64_BITS = np.int64(0x3FF0000000000000)
_EXP64_LO = -708.3964185322641  # below: 0
_EXP64_HI = 709.782712893384  # above: inf
_LN2_HI64 = 0.693145751953125
_LN2_LO64 = 1.4286068203094173e-06
_LOG2E64 = 1.4426950408889634
_TINY64 = np.finfo(np.float64).tiny
_NEG_LN2_64 = -0.6931471805599453
# exp(g) = 1 + 2 g P(g**2) / (Q(g**2) - g P(g**2)) (Cephes' Pade form), highest degree first
_EXP64_P = (0.00012617719307481058, 0.030299440770744195, 1.0)
_EXP64_Q = (3.0019850513866446e-06, 0.002524483403496841, 0.22726554820815503, 2.0)
# tanh(x) = x P(x**2) / Q(x**2) for |x| <= 17.714196154005176
_TANH64_CLAMP = 17.714196154005176
_TANH64_P = (
    2.615800786048223e-23,
    7.653486226874932e-19,
    3.130948823138668e-15,
    4.230391814820918e-12,
    2.4618379131293676e-09,
    6.864436768249707e-07,
    9.383908767426888e-05,
    0.005980971172444116,
    0.15184719640284322,
    1.0,
)
_TANH64_Q = (
    6.463747022670968e-21,
    5.782506856739004e-17,
    1.293019623712688e-13,
    1.123643448069622e-10,
    4.492975677839634e-08,
    8.785185266237659e-06,
    0.0008295161192716232,
    0.03437448108450403,
    0.48518052973617604,
    1.0,
)


@cached_njit(inline="always", **_OPTS64)
def _fma_horner64(x, c):
    """`_fma_horner` in float64."""
    p = c[0]
    for k in range(1, len(c)):
        p = fma(p, x, c[k])
    return p


@cached_njit(inline="always", **_OPTS64)
def _flush64(x):
    """`_flush` of a float64."""
    return 0.0 * x if np.abs(x) < _TINY64 else x


@cached_njit(inline="always", **_OPTS64)
def _exp64_parts(x):
    """XLA's float64 exp of x clamped to [_EXP64_LO, _EXP64_HI] as (t, s): exp is t * s
    (XLA scales by 2**n as three factors 2**(n >> 2) in t, the rest in s; NaN gives NaN)."""
    x = maximum(minimum(x, _EXP64_HI), _EXP64_LO)
    n = np.floor(fma(x, _LOG2E64, 0.5))
    g = fma(-n, _LN2_HI64, x)
    g = fma(-n, _LN2_LO64, g)
    g2 = g * g
    p = _fma_horner64(g2, _EXP64_P) * g
    r = fma(p / (_fma_horner64(g2, _EXP64_Q) - p), 2.0, 1.0)
    m = np.int64(n if n == n else 0.0)
    b = m >> 2
    s = _float64((b << 52) + _ONE64_BITS)
    return r * s * s * s, _float64(((m - 3 * b) << 52) + _ONE64_BITS)


@cached_njit(**_OPTS64)
def exp_f64(x):
    """Vectorizable float64 exp, XLA's CPU kernel bit for bit (results below 2**-1022: 0)."""
    t, s = _exp64_parts(x)
    y = t * s
    y = 0.0 if (y < _TINY64) | (x < _EXP64_LO) else y
    return np.inf if x > _EXP64_HI else y


@cached_njit(**_OPTS64)
def exp2_f64(x):
    """Vectorizable float64 2**x: exp(x * ln2), as XLA rewrites it."""
    return exp_f64(x * 0.6931471805599453)


@cached_njit(inline="always", **_OPTS64)
def _tanh64(x):
    """XLA's float64 tanh of a flushed x: a rational function of x clamped to +-17.7, +-1
    from |x| >= 20."""
    xc = -_TANH64_CLAMP if x < -_TANH64_CLAMP else x
    xc = _TANH64_CLAMP if xc > _TANH64_CLAMP else xc
    x2 = xc * xc
    y = xc * _fma_horner64(x2, _TANH64_P) / _fma_horner64(x2, _TANH64_Q)
    return np.copysign(1.0, x) if np.abs(x) >= 20.0 else y


@cached_njit(**_OPTS64)
def tanh_f64(x):
    """Vectorizable float64 tanh, XLA's CPU kernel bit for bit (denormals count as 0)."""
    return _tanh64(_flush64(x))


@cached_njit(**_OPTS64)
def expm1_f64(x):
    """Vectorizable float64 exp(x) - 1 as XLA's: tanh(x/2) (exp(x) + 1) for |x| <= 0.5, x where
    x/2 flushes to 0."""
    e = exp_f64(x)
    h = x * 0.5
    y = e - 1.0 if np.abs(x) > 0.5 else _tanh64(h) * (e + 1.0)
    return x if np.abs(h) < _TINY64 else y


@cached_njit(**_OPTS64)
def logistic_f64(x):
    """Vectorizable float64 logistic 1 / (1 + exp(-x)), XLA's: the last product of exp fused
    into the addition of 1."""
    t, s = _exp64_parts(-x)
    y = 1.0 / fma(t, s, 1.0)
    y = 0.0 if (y < _TINY64) | (x < -_EXP64_HI) else y
    return 1.0 if x > -_EXP64_LO else y


@cached_njit(**_OPTS64)
def sinh_f64(x):
    """float64 sinh as XLA expands it: from expm1 for |x| < 1, else exp(x - ln2) - exp(-ln2 - x)."""
    x = _flush64(x)
    e = expm1_f64(x)
    small = (e + e / (e + 1.0)) * 0.5
    big = exp_f64(x + _NEG_LN2_64) - exp_f64(_NEG_LN2_64 - x)
    return small if np.abs(x) < 1.0 else big


@cached_njit(**_OPTS64)
def cosh_f64(x):
    """float64 cosh as XLA expands it: exp(x - ln2) + exp(-ln2 - x)."""
    return exp_f64(x + _NEG_LN2_64) + exp_f64(_NEG_LN2_64 - x)


# log1p(x) = x - x**2 / 2 + x**3 Q(x) / P(x) for |x| < sqrt(2) - 1, highest degree first
_LOG1P64_SMALL = 0.41421356237309503
_LOG1P64_P = (
    1.0,
    15.062909083469192,
    83.04756596796722,
    221.76239823732857,
    309.09872225312057,
    216.42788614495947,
    60.11866049760384,
)
_LOG1P64_Q = (
    4.52700008624452e-05,
    0.49854102823193375,
    6.578732594206104,
    29.911919328553072,
    60.94966798098779,
    57.11296359058554,
    20.039553499201283,
)
_LN2_64 = 0.6931471805599453
_ATAN2_FAR = 2.0**-966  # glibc's atan2 takes y as negligible against an x this large


@cached_njit(**_OPTS64)
def log_f64(x):
    """float64 natural log: the C library's log, as XLA calls it, of x with denormals as 0."""
    return np.log(_flush64(x))


@cached_njit(inline="always", **_OPTS64)
def _log1p64_parts(x):
    """XLA's float64 log1p pieces of a flushed x: (log(1 + x), the rational factor q, x * x);
    log1p(x) is x - x**2 / 2 + x**3 q for |x| < _LOG1P64_SMALL."""
    q = _fma_horner64(x, _LOG1P64_Q) / _fma_horner64(x, _LOG1P64_P)
    return np.log(x + 1.0), q, x * x


@cached_njit(**_OPTS64)
def log1p_f64(x):
    """float64 log(1 + x) as XLA's: a rational function for |x| < sqrt(2) - 1, else the C
    library's log(1 + x)."""
    x = _flush64(x)
    lu, q, x2 = _log1p64_parts(x)
    s = x + fma(x2, -0.5, (x * x2) * q)
    return s if np.abs(x) < _LOG1P64_SMALL else lu


@cached_njit(**_OPTS64)
def asinh_f64(x):
    """float64 arcsinh as XLA expands it: sign(x) log1p(|x| + x**2 / (sqrt(x**2 + 1) + 1)), and
    log(|x|) + ln2 from |x| >= 2**512."""
    x = _flush64(x)
    a = np.abs(x)
    x2 = x * x
    small = log1p_f64(a + x2 / (np.sqrt(x2 + 1.0) + 1.0))
    y = log_f64(a) + _LN2_64 if a >= 1.3407807929942596e154 else small
    s = 1.0 if x > 0.0 else (-1.0 if x < 0.0 else x)
    return s * y


@cached_njit(**_OPTS64)
def acosh_f64(x):
    """float64 arccosh as XLA expands it: log1p(sqrt(x - 1) (sqrt(x + 1) + sqrt(x - 1))), and
    log(x) + ln2 from x >= 2**1023."""
    s = np.sqrt(x - 1.0)
    small = log1p_f64(s * (np.sqrt(x + 1.0) + s))
    return log_f64(x) + _LN2_64 if x >= 8.98846567431158e307 else small


@cached_njit(**_OPTS64)
def atanh_f64(x):
    """float64 arctanh as XLA expands it: (log1p(x) - log1p(-x)) / 2, NaN for |x| > 1 (the two
    log1p share -x**2 / 2, and XLA fuses the other product, as in `atanh_f32`)."""
    x = _flush64(x)
    lp, qp, x2 = _log1p64_parts(x)
    lm, qm, _ = _log1p64_parts(-x)
    h = -0.5 * x2
    small = np.abs(x) < _LOG1P64_SMALL
    lp = x + fma(x * x2, qp, h) if small else lp
    lm = fma(-(x * x2), qm, h) - x if small else lm
    y = (lp - lm) * 0.5
    return np.nan if np.abs(x) > 1.0 else y


@cached_njit(**_OPTS64)
def atan2_f64(y, x):
    """float64 arctan2: the C library's atan2, as XLA calls it, under XLA's flushing of
    denormals: a denormal result is 0; a denormal y against a normal or infinite x is a zero of
    y's sign for x > 0, and for x < 0 -pi (glibc's branch for y <= 0, taken from |x| >= 2**-966)
    or +-pi by y's sign; a denormal x gives +-pi/2 by y's sign (y nonzero)."""
    r = _flush64(np.arctan2(y, x))
    y_den = (np.abs(y) < _TINY64) & (y != 0.0)
    x_den = (np.abs(x) < _TINY64) & (x != 0.0)
    edge = -np.pi if np.abs(x) >= _ATAN2_FAR else np.copysign(np.pi, y)
    edge = np.copysign(0.0, y) if x > 0.0 else edge
    r = edge if y_den & (np.abs(x) >= _TINY64) else r
    return np.copysign(np.pi / 2, y) if x_den & (np.abs(y) > 0.0) else r


@cached_njit(**_OPTS64)
def asin_f64(x):
    """float64 arcsin as XLA expands it: 2 atan2(x, 1 + sqrt((1 - x)(1 + x)))."""
    a = atan2_f64(x, np.sqrt((1.0 - x) * (x + 1.0)) + 1.0)
    return a + a


@cached_njit(**_OPTS64)
def acos_f64(x):
    """float64 arccos as XLA expands it: atan2(sqrt((1 - x)(1 + x)), x)."""
    return atan2_f64(np.sqrt((1.0 - x) * (x + 1.0)), x)


# XLA's float64 erf_inv (Giles' polynomials in t), by w = -log1p(-x**2): w < 6.25, t = w - 3.125;
# w < 16, t = sqrt(w) - 3.25; else t = sqrt(w) - 5 (highest degree first)
_ERFINV64_CENTRAL = (
    -3.64441206401782e-21,
    -1.6850591381820166e-19,
    1.28584807152564e-18,
    1.1157877678025181e-17,
    -1.333171662854621e-16,
    2.0972767875968562e-17,
    6.637638134358324e-15,
    -4.054566272975207e-14,
    -8.151934197605472e-14,
    2.6335093153082323e-12,
    -1.2975133253453532e-11,
    -5.415412054294628e-11,
    1.0512122733215323e-09,
    -4.112633980346984e-09,
    -2.9070369957882005e-08,
    4.2347877827932404e-07,
    -1.3654692000834679e-06,
    -1.3882523362786469e-05,
    0.00018673420803405714,
    -0.000740702534166267,
    -0.006033670871430149,
    0.24015818242558962,
    1.6536545626831027,
)
_ERFINV64_MIDDLE = (
    2.2137376921775787e-09,
    9.075656193888539e-08,
    -2.7517406297064545e-07,
    1.8239629214389228e-08,
    1.5027403968909828e-06,
    -4.013867526981546e-06,
    2.9234449089955446e-06,
    1.2475304481671779e-05,
    -4.7318229009055734e-05,
    6.828485145957318e-05,
    2.4031110387097894e-05,
    -0.0003550375203628475,
    0.0009532893797373805,
    -0.0016882755560235047,
    0.002491442096107851,
    -0.003751208507569241,
    0.005370914553590064,
    1.0052589676941592,
    3.0838856104922208,
)
_ERFINV64_TAIL = (
    -2.7109920616438573e-11,
    -2.555641816996525e-10,
    1.5076572693500548e-09,
    -3.789465440126737e-09,
    7.61570120807834e-09,
    -1.496002662714924e-08,
    2.914795345090108e-08,
    -6.771199775845234e-08,
    2.2900482228026655e-07,
    -9.9298272942317e-07,
    4.526062597223154e-06,
    -1.968177810553167e-05,
    7.599527703001776e-05,
    -0.00021503011930044477,
    -0.00013871931833623122,
    1.0103004648645344,
    4.849906401408584,
)


@cached_njit(**_OPTS64)
def erf_inv_f64(x):
    """float64 inverse error function as XLA expands it: x P(t) with Giles' polynomials (every
    Horner step fused), x * inf at +-1, a denormal result flushed."""
    w = -log1p_f64(x * -x)
    central = w < 6.25
    middle = w < 16.0
    s = np.sqrt(w)
    t = w - 3.125 if central else s - (3.25 if middle else 5.0)
    p = _fma_horner64(t, _ERFINV64_MIDDLE) if middle else _fma_horner64(t, _ERFINV64_TAIL)
    p = _fma_horner64(t, _ERFINV64_CENTRAL) if central else p
    y = _flush64(p * x)
    return x * np.inf if np.abs(x) == 1.0 else y


@cached_njit(**_OPTS64)
def erf_f64(x):
    """float64 error function: the C library's erf, as XLA calls it (denormals give 0)."""
    return math.erf(_flush64(x))


@cached_njit(**_OPTS64)
def pow_f64(x, y):
    """float64 x**y: the C library's pow, as XLA calls it, with a denormal result flushed to 0.
    Partial: glibc's pow under XLA's flushing takes a denormal x as 2**-1075 (XLA's
    1e-310 ** -0.845 is 3.58e273), here pow(x, y) of the denormal x itself."""
    return _flush64(x**y)


@cached_njit(**_OPTS64)
def tan_f64(x):
    """float64 tangent: the C library's tan, as XLA calls it (for the eager impl: numpy's own
    tan rounds otherwise)."""
    return np.tan(x)


@cached_njit(**_OPTS64)
def atan_f64(x):
    """float64 arctangent: the C library's atan, as XLA calls it for arrays of 64 elements and
    more (for the eager impl: numpy's own arctan rounds otherwise)."""
    return np.arctan(x)


@cached_njit(**_OPTS64)
def sqrt_f64(x):
    """float64 square root with denormals as zeros, as XLA's threads compute it."""
    return np.sqrt(_flush64(x))


@intrinsic
def _c_cbrt(typingctx, x):
    """The C library's `cbrt` of a float64 (`cbrtf` of a float32), called as such (numba's
    `np.cbrt` is a `pow` that LLVM's O3 passes make a cbrt call, and the quick tier's code
    generator does not)."""
    single = x == types.float32
    ty, name = (ir.FloatType(), "cbrtf") if single else (ir.DoubleType(), "cbrt")

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ty, [ty])
        return builder.call(cgutils.insert_pure_function(builder.module, fnty, name), args)

    nbty = types.float32 if single else types.float64
    return nbty(nbty), codegen


@cached_njit(**_OPTS64)
def cbrt_f64(x):
    """float64 cube root: the C library's cbrt, as XLA calls it (denormals give 0)."""
    return _c_cbrt(_flush64(x))


# XLA's lgamma and digamma (StableHLO's CHLO expansions): Lanczos' approximation with g = 7,
# the leading coefficient first, reflected below 1/2; the float32 kernels round these constants
_LANCZOS0 = 0.99999999999980993
_LANCZOS = (
    676.520368121885098567009190444019,
    -1259.13921672240287047156078755283,
    771.3234287776530788486528258894,
    -176.61502916214059906584551354,
    12.507343278686904814458936853,
    -0.13857109526572011689554707,
    9.984369578019570859563e-6,
    1.50563273514931155834e-7,
)
_LOG_PI = 1.1447298858494002
_HALF_LOG_2PI = 0.91893853320467267
_LOG_LANCZOS_T = 2.0149030205422647  # log(7.5)


@cached_njit(inline="always", **_OPTS64)
def _lanczos_log_t64(z):
    """log(z + 7.5) as the expansions compute it: log1p(z / 7.5) + log(7.5), the division a
    product with 1/7.5 after XLA's simplifier."""
    return log1p_f64(z * 0.13333333333333333) + _LOG_LANCZOS_T


@cached_njit(**_OPTS64)
def lgamma_f64(x):
    """float64 log|Gamma(x)| as XLA expands it: Lanczos' sum of z = x - 1 (z = -x below 1/2,
    then reflected by log(pi) - log|sin(pi frac)|), XLA's log and log1p, the C library's sin;
    +inf at the poles and at +-inf (a denormal x counts as 0)."""
    x = _flush64(x)
    reflect = x < 0.5
    z = -x if reflect else x + -1.0
    s = _LANCZOS[0] / (z + 1.0) + _LANCZOS0
    for k in range(1, len(_LANCZOS)):
        s = s + _LANCZOS[k] / (z + float(k + 1))
    lt = _lanczos_log_t64(z)
    log_y = fma((z + 0.5) - (z + 7.5) / lt, lt, _HALF_LOG_2PI) + log_f64(s)
    a = np.abs(x)
    frac = a - np.floor(a)
    frac = 1.0 - frac if frac > 0.5 else frac
    log_sin = log_f64(np.sin(frac * np.pi))
    refl = (_LOG_PI - log_sin) - log_y if np.isfinite(log_sin) else -log_sin
    y = refl if reflect else log_y
    return np.inf if a == np.inf else y


@cached_njit(**_OPTS64)
def digamma_f64(x):
    """float64 digamma as XLA expands it: the derivative of Lanczos' log-sum, log(z + 7.5)
    + n/d - 7/(z + 7.5), reflected below 1/2 by pi cos(pi x)/sin(pi x) (the C library's sin
    and cos); NaN at 0 and the negative integers (a denormal x counts as 0)."""
    x = _flush64(x)
    reflect = x < 0.5
    z = -x if reflect else x + -1.0
    num = 0.0
    for k in range(len(_LANCZOS)):
        zk = z + float(k + 1)
        num = num - _LANCZOS[k] / (zk * zk)
    den = _LANCZOS[0] / (z + 1.0) + _LANCZOS0
    for k in range(1, len(_LANCZOS)):
        den = den + _LANCZOS[k] / (z + float(k + 1))
    y = (_lanczos_log_t64(z) + num / den) - 7.0 / (z + 7.5)
    pix = (x + np.abs(np.floor(x + 0.5))) * np.pi
    y = y - np.cos(pix) * np.pi / np.sin(pix) if reflect else y
    return np.nan if (x <= 0.0) & (x == np.floor(x)) else y
