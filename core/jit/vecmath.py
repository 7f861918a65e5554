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
exp(x * ln2), arcsin(x) = 2 atan2(x, 1 + sqrt((1 - x)(1 + x))), ...), atan2 calls the C library's
atan2f as XLA does. XLA's threads flush denormals (FTZ and DAZ): the kernels flush their inputs
and results where that changes a result, so jitted float32 results equal JAX's jitted ones in
every bit (tests/core/jit/test_vecmath.py checks recorded JAX results; accuracy against numpy is
XLA's: within 3e-7 relative, exp2 and sinh/cosh of large |x| within |x| * 2**-24).

sin, cos and tan are calls of the C library's sinf/cosf/tanf in XLA's code: here they are glibc
2.36's (the C library JAX runs on here), branch-free so that loops vectorize: its float64 range
reduction (a fused multiply-subtract below 120, Payne-Hanek by integers above) and polynomials,
with the FMAs of the variant glibc picks on FMA CPUs (sinf, cosf) and the strict float32
operations of its FMA-less tanf (`STRICT_FLAGS`). Another C library, or a CPU without FMA (glibc's
SSE2 sinf/cosf round the products), gives XLA other bits in about 1% of inputs. The three, and
erf_inv, are `inline="always"`: LLVM did not inline bodies this large, and a loop calling them
stayed scalar; numba inlines them with the caller's fast-math flags, which change none of their
operations (their products feed no plain add).

`rsqrt_f32`/`rsqrt_f64` are XLA's rsqrt bit for bit: the x86 hardware estimate (whose table
is the CPU's) refined by XLA's Newton steps for this CPU (`RSQRT_STEPS`); the estimate is a
call the loop vectorizer widens through the vector-function ABI (`emit_rsqrt_estimate`).

The `_f64` kernels are XLA's float64 ones bit for bit (JAX with `jax_enable_x64`): exp is XLA's
own (xla/codegen/intrinsic: Cephes' Pade form, 2**n applied as four factors), tanh its rational
function, expm1, exp2, logistic, sinh, cosh and the inverse hyperbolic functions its
compositions; log, atan2, erf and cbrt are the C library's, which XLA calls, with XLA's flushing
of denormals (log1p's rational part and the compositions around them are XLA's). They are
compiled without FMA contraction, with `fma` exactly where XLA's machine code fuses. sin, cos,
atan and pow XLA leaves to the C library too, as numba's `np.sin`, ... do (`tan_f64`,
`atan_f64` call them for the eager impls: numpy's own functions round otherwise).

The building blocks (`_fma_horner`, `_exp_unflushed`, ...) are inlined into each
function by numba (`inline="always"`), so a cold process compiles `exp_f32` once instead of four
functions. `radd`/`rmul` (reassociable add/multiply) let LLVM vectorize a reduction loop
without making the whole kernel `fastmath`; `maximum`/`minimum` are LLVM's NaN-propagating
float max/min, which vectorize too.
"""

from __future__ import annotations

import math

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from core.jit.numba_cache import cached_njit
from core.jit.rsqrt_estimate import RSQRT64_STEPS, RSQRT_STEPS, emit_rsqrt_estimate

F = np.float32
I = np.int32
_OPTS = dict(error_model="numpy", fastmath={"contract"}, cache=True)
_INF = F(np.inf)
_NAN = F(np.nan)
_TINY = F(1.1754944e-38)  # the smallest normal float32
_LOG2E64 = 1.4426950408889634
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


def _bitcast(src, dst):
    @intrinsic
    def cast(typingctx, x):
        def codegen(context, builder, signature, args):
            return builder.bitcast(args[0], context.get_value_type(dst))

        return dst(src), codegen

    return cast


_bits = _bitcast(types.float32, types.int32)
_float = _bitcast(types.int32, types.float32)
_bits64 = _bitcast(types.float64, types.int64)


def _flagged(op, flags):
    """The float instruction `op` (`fadd`, `fmul`, ...) of two operands with these fast-math
    flags (numba's fast-math pass leaves an instruction with flags as it is)."""

    @intrinsic
    def flagged_op(typingctx, a, b):
        def codegen(context, builder, signature, args):
            return getattr(builder, op)(args[0], args[1], flags=flags)

        return a(a, b), codegen

    return flagged_op


# `contract` too: a sum of products `radd(s, x * y)` is then one fused multiply-add per step
# (the kernels' products carry `contract`; with `reassoc` alone LLVM kept a multiply and an add).
REDUCE_FLAGS = ("reassoc", "contract")
radd = _flagged("fadd", REDUCE_FLAGS)
radd.__doc__ = "`a + b` marked reassociable, so a sum loop vectorizes (float operands only)."
rmul = _flagged("fmul", REDUCE_FLAGS)


def _nan_propagating(name):
    @intrinsic
    def extremum(typingctx, a, b):
        def codegen(context, builder, signature, args):
            ty = args[0].type
            fnty = ir.FunctionType(ty, [ty, ty])
            suffix = "f32" if ty == ir.FloatType() else "f64"
            fn = cgutils.get_or_insert_function(builder.module, fnty, f"llvm.{name}.{suffix}")
            return builder.call(fn, args)

        return a(a, b), codegen

    return extremum


# np.maximum/np.minimum semantics (NaN wins) as one instruction; vectorizes in loops and reductions
maximum = _nan_propagating("maximum")
minimum = _nan_propagating("minimum")


@intrinsic
def fma(typingctx, a, b, c):
    """`a * b + c` rounded once (LLVM's `llvm.fma`), as XLA's code fuses products into adds."""

    def codegen(context, builder, signature, args):
        ty = args[0].type
        suffix = "f32" if ty == ir.FloatType() else "f64"
        fnty = ir.FunctionType(ty, [ty, ty, ty])
        fn = cgutils.get_or_insert_function(builder.module, fnty, f"llvm.fma.{suffix}")
        return builder.call(fn, args)

    return a(a, b, c), codegen


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


_TINY64 = np.finfo(np.float64).tiny


@intrinsic
def _rsqrt_estimate(typingctx, x):
    """`emit_rsqrt_estimate` of a float32 or float64 (the second needs AVX-512)."""

    def codegen(context, builder, signature, args):
        return emit_rsqrt_estimate(builder, args[0])

    return x(x), codegen


@cached_njit(inline="always", **_OPTS)
def _newton_rsqrt(x, y, minus_half, one):
    """One Newton step for 1 / sqrt(x) from `y`, in XLA's order (FMA-contracted); the
    constants come in x's type."""
    half = y * minus_half
    h = (x * y) * y - one
    return half * h + y


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
    """The C library's `cbrt` of a float64, called as such (numba's `np.cbrt` is a `pow` that
    LLVM's O3 passes make a cbrt call, and the quick tier's code generator does not)."""

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.DoubleType(), [ir.DoubleType()])
        return builder.call(cgutils.insert_pure_function(builder.module, fnty, "cbrt"), args)

    return types.float64(types.float64), codegen


@cached_njit(**_OPTS64)
def cbrt_f64(x):
    """float64 cube root: the C library's cbrt, as XLA calls it (denormals give 0)."""
    return _c_cbrt(_flush64(x))


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


@cached_njit(**_OPTS)
def atan2_f32(y, x):
    """float32 arctan2: the C library's atan2f, as XLA calls it, with its results under XLA's
    flushing of denormals (y denormal: 0; x denormal: pi/2 rounded down for x < 0, NaN if y is
    a denormal too)."""
    r = _flush(np.arctan2(_flush(y), x))
    edge = np.copysign(F(1.5707964) if x > F(0) else F(1.5707963), y)
    edge = _NAN if (np.abs(y) < _TINY) & (y != F(0)) else edge
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


# glibc's tanf is compiled without FMA: each product is rounded before it is added. The kernels
# run inlined in loops compiled with `contract` (and `arcp`), which numba's fast-math pass adds to
# every float instruction without flags; `afn` (it licenses approximate *calls* only) gives these
# operations flags of their own, so they stay as written, unfused and exact (and vectorize).
STRICT_FLAGS = ("afn",)
_sadd, _ssub, _smul, _sdiv = (_flagged(op, STRICT_FLAGS) for op in ("fadd", "fsub", "fmul", "fdiv"))


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
    xr = _sadd(_ssub(F(_PIO4), np.abs(x)), _ssub(F(_PIO4_LO), y * sgn))
    near = _smul(sgn * iy, _ssub(F(1), _smul(iy + iy, xr)))  # |xr| < 2**-13
    x = xr if big else x
    y = F(0) if big else y
    z = _smul(x, x)
    w = _smul(z, z)
    r = F(_TANF_T[11])
    v = F(_TANF_T[12])
    for k in range(9, 0, -2):
        r = _sadd(F(_TANF_T[k]), _smul(w, r))
        v = _sadd(F(_TANF_T[k + 1]), _smul(w, v))
    v = _smul(z, v)
    s = _smul(z, x)
    r = _sadd(y, _smul(z, _sadd(_smul(s, _sadd(r, v)), y)))
    r = _sadd(r, _smul(F(_TANF_T[0]), s))
    w = _sadd(x, r)
    reflected = _smul(
        sgn, _ssub(iy, _smul(F(2), _ssub(x, _ssub(_sdiv(_smul(w, w), _sadd(w, iy)), r))))
    )
    # -1/(x + r) to float32 accuracy: w's and the quotient's high parts, a correction
    zh = _float(_bits(w) & I(-4096))
    v = _ssub(r, _ssub(zh, x))
    a = _sdiv(F(-1), w)
    t = _float(_bits(a) & I(-4096))
    inverse = _sadd(t, _smul(a, _sadd(_sadd(F(1), _smul(t, zh)), _smul(t, v))))
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
