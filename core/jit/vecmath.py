"""Vectorizable float32 transcendentals for generated numba loops.

PyPI's llvmlite has no SVML, so `np.exp` in an `njit` loop is a scalar libm call per element and
blocks SIMD (selu on 1e6 floats: 5.8 ms, against about 0.25 ms with the kernels below). Each
function here is branch-free float32 arithmetic: a range reduction, a polynomial, and a scale by
2**n built from exponent bits (`_bits`/`_float` are LLVM bitcasts), with selects for the edges, so
LLVM inlines it into the caller's loop and vectorizes the loop. Edge cases follow numpy (inf, nan,
overflow to inf, exact 0 and -inf where numpy has them); results that would be denormal are
flushed to zero, as XLA on the CPU does. Accuracy is within a few float32 ulps of numpy
(tests/core/jit/test_vecmath.py measures it).

`rsqrt_f32`/`rsqrt_f64` are XLA's rsqrt bit for bit: the x86 hardware estimate (whose table
is the CPU's) refined by XLA's Newton steps for this CPU (`RSQRT_STEPS`); the estimate is a
call the loop vectorizer widens through the vector-function ABI (`emit_rsqrt_estimate`).

The building blocks (`_poly`, `_reduce_ln2`, ...) are inlined into each function by numba
(`inline="always"`), so a cold process compiles `exp_f32` once instead of four functions.

Polynomial coefficients are near-minimax fits (Lawson-weighted least squares on Chebyshev nodes
in float64, against numpy/scipy references), rounded to float32. float64 code uses numpy's libm
functions instead. `radd`/`rmul` (reassociable add/multiply) let LLVM vectorize a reduction loop
without making the whole kernel `fastmath`; `maximum`/`minimum` are LLVM's NaN-propagating
float max/min, which vectorize too.
"""

from __future__ import annotations

import platform
from pathlib import Path

import numpy as np
from llvmlite import binding as llvm
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from core.jit.numba_cache import cached_njit

F = np.float32
I = np.int32
_OPTS = dict(error_model="numpy", fastmath={"contract"}, cache=True)
_INF = F(np.inf)
_NAN = F(np.nan)
_LOG2E = F(1.4426950408889634)
_LN2_HI = F(0.693359375)  # few mantissa bits: n * _LN2_HI is exact
_LN2_LO = F(-2.12194440e-4)
_ROUND = F(12582912.0)  # 1.5 * 2**23: adding it rounds a float32 to an integer

_EXP = (0.5, 0.1666651964187622, 0.04166620597243309, 0.008368882350623608, 0.0013950478751212358)
_EXPM1 = (0.5, 0.16666577756404877, 0.04166685417294502, 0.008363140746951103, 0.001390128512866795)
_TANH = (
    -0.3333333134651184,
    0.13333141803741455,
    -0.053912751376628876,
    0.02132408320903778,
    -0.006631854921579361,
)
_ERF = (
    1.1283791065216064,
    -0.37612324953079224,
    0.11280180513858795,
    -0.026711322367191315,
    0.004917562939226627,
    -0.0005631462554447353,
)
# erfc(x) * exp(x*x) as a polynomial in 1/x on [1, 4]
_ERFCX = (
    0.0002530976489651948,
    0.5593157410621643,
    0.04016007483005524,
    -0.4646685719490051,
    0.48094281554222107,
    -0.219074085354805,
    0.004030965734273195,
    0.03799791261553764,
    -0.011374402791261673,
)
# erfinv(x) / x as polynomials in w - 2.5 (w < 5) and sqrt(w) - 3 (w >= 5), w = -log(1 - x*x)
_ERFINV_CENTRAL = (
    1.5014094114303589,
    0.24664027988910675,
    -0.004177386872470379,
    -0.0012527419021353126,
    0.00021834444487467408,
    -4.963345418218523e-06,
    -3.4627046261448413e-06,
    4.661700643282529e-07,
    2.323263714743007e-08,
    -8.79101325068632e-09,
)
_ERFINV_TAIL = (
    2.832976818084717,
    1.0016751289367676,
    0.009445684030652046,
    -0.00763940904289484,
    0.0056831734254956245,
    -0.0035869914572685957,
    0.0014958538813516498,
    -7.661205745534971e-05,
    -0.00031872070394456387,
    0.0001289593637920916,
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


def _reassoc(op):
    @intrinsic
    def reduce_op(typingctx, a, b):
        def codegen(context, builder, signature, args):
            return getattr(builder, op)(args[0], args[1], flags=REDUCE_FLAGS)

        return a(a, b), codegen

    return reduce_op


# `contract` too: a sum of products `radd(s, x * y)` is then one fused multiply-add per step
# (the kernels' products carry `contract`; with `reassoc` alone LLVM kept a multiply and an add).
REDUCE_FLAGS = ("reassoc", "contract")
radd = _reassoc("fadd")
radd.__doc__ = "`a + b` marked reassociable, so a sum loop vectorizes (float operands only)."
rmul = _reassoc("fmul")


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


@cached_njit(inline="always", **_OPTS)
def _poly(x, c):
    """Horner evaluation of c[0] + c[1] x + ... (c is a tuple, unrolled by numba)."""
    p = F(c[-1])
    for k in range(len(c) - 2, -1, -1):
        p = p * x + F(c[k])
    return p


@cached_njit(inline="always", **_OPTS)
def _pow2(n):
    """2.0**n as float32 for -126 <= n <= 127."""
    return _float((n + I(127)) << I(23))


@cached_njit(inline="always", **_OPTS)
def _reduce_ln2(x):
    """x = n*ln2 + r with |r| <= ln2/2; returns (n as float32, n as int32, r)."""
    t = x * _LOG2E + _ROUND
    n = _bits(t) - _bits(_ROUND)
    t = t - _ROUND
    return t, n, x - t * _LN2_HI - t * _LN2_LO


@cached_njit(inline="always", **_OPTS)
def _exp_reduced(r, n):
    """exp(r) * 2**n for |r| <= ln2/2, by adding n to the exponent bits (no range checks)."""
    p = r * r * _poly(r, _EXP) + r + F(1)
    return _float(_bits(p) + (n << I(23)))


def _rsqrt_steps() -> tuple[int, int]:
    """Newton steps after the hardware estimate in XLA's rsqrt on this CPU, (float32, float64)
    (xla/codegen/intrinsic/rsqrt.cc; its float32 loops are at most 8 wide): float32 refines
    `rsqrtss`, once on AMD (whose estimate is more accurate), twice on other x86 CPUs with AVX;
    float64 refines AVX-512's `rsqrt14pd` twice. 0: no estimate, 1 / sqrt(x) (XLA elsewhere)."""
    features = llvm.get_host_cpu_features()
    if platform.machine().lower() not in ("x86_64", "amd64") or not features.get("avx"):
        return 0, 0
    try:
        cpuinfo = Path("/proc/cpuinfo").read_text()
    except OSError:
        cpuinfo = ""
    amd = "AuthenticAMD" in cpuinfo or llvm.get_host_cpu_name().startswith(_AMD_CPU_NAMES)
    return (1 if amd else 2), (2 if features.get("avx512f") else 0)


_AMD_CPU_NAMES = ("znver", "bdver", "btver", "amdfam", "barcelona", "opteron", "athlon", "k8")
RSQRT_STEPS, RSQRT64_STEPS = _rsqrt_steps()
_TINY = F(np.finfo(np.float32).tiny)
_TINY64 = np.finfo(np.float64).tiny


# x86 reciprocal-square-root estimates as functions of one float (`llvm.x86.<name>` on a vector
# of `lanes`, `masked` for AVX-512's forms), each with its vector forms for the loop vectorizer:
# (vector-function ABI ISA letter, lanes, intrinsic). float32 has no 16-lane form: AVX-512's
# `rsqrt14ps` is another estimate, and XLA's float32 loops are at most 8 wide.
_ESTIMATES = {
    "f32": ("sse.rsqrt.ss", 4, False, [("b", 4, "sse.rsqrt.ps"), ("d", 8, "avx.rsqrt.ps.256")]),
    "f64": (
        "avx512.rsqrt14.pd.128",
        2,
        True,
        [("b", 2, "avx512.rsqrt14.pd.128"), ("d", 4, "avx512.rsqrt14.pd.256"),
         ("e", 8, "avx512.rsqrt14.pd.512")],
    ),
}  # fmt: skip


def _estimate_function(module: ir.Module, float_t: ir.Type, lanes: int, name: str, masked: bool):
    """`numbax_rsqrt_estimate_*` of `lanes` floats (1: a scalar, through lane 0 of the
    intrinsic's vector), defined once per module (linkonce_odr: modules that each define it
    link)."""
    kind = "f32" if isinstance(float_t, ir.FloatType) else "f64"
    fn_name = f"numbax_rsqrt_estimate_{kind}" + (f"_x{lanes}" if lanes > 1 else "")
    if fn_name in module.globals:
        return module.globals[fn_name]
    arg_t = float_t if lanes == 1 else ir.VectorType(float_t, lanes)
    fn = ir.Function(module, ir.FunctionType(arg_t, [arg_t]), name=fn_name)
    fn.linkage = "linkonce_odr"
    for attribute in ("nounwind", "readnone") + (("noinline",) if lanes == 1 else ()):
        fn.attributes.add(attribute)
    b = ir.IRBuilder(fn.append_basic_block())
    width = _ESTIMATES[kind][1] if lanes == 1 else lanes
    vec_t = ir.VectorType(float_t, width)
    extra_t = [vec_t, ir.IntType(8 if kind == "f64" else 16)] if masked else []
    intr = b.module.declare_intrinsic(
        f"llvm.x86.{name}", fnty=ir.FunctionType(vec_t, [vec_t, *extra_t])
    )
    extra = [ir.Constant(vec_t, None), ir.Constant(extra_t[1], -1)] if masked else []
    lane = ir.Constant(ir.IntType(32), 0)
    x = b.insert_element(ir.Constant(vec_t, None), fn.args[0], lane) if lanes == 1 else fn.args[0]
    y = b.call(intr, [x, *extra])
    b.ret(b.extract_element(y, lane) if lanes == 1 else y)
    return fn


def emit_rsqrt_estimate(builder: ir.IRBuilder, x: ir.Value) -> ir.Value:
    """IR for the x86 estimate of 1 / sqrt(x) of a float (`rsqrtss`) or double (AVX-512's
    `rsqrt14pd`), XLA's starting point: a call of a scalar function that names its vector forms
    (the `vector-function-abi-variant` attribute), so LLVM's loop vectorizer widens the loop to
    `rsqrtps` (their values are `rsqrtss`'s, lane by lane) instead of leaving it scalar (rsqrt
    of 1e6 floats: 0.37 ms, against 3.4 ms). The vector forms are kept alive for the vectorizer
    in `llvm.compiler.used`. Used by numba (`_rsqrt_estimate`) and the direct-LLVM back end."""
    module = builder.module
    kind = "f32" if isinstance(x.type, ir.FloatType) else "f64"
    name, _, masked, forms = _ESTIMATES[kind]
    scalar = _estimate_function(module, x.type, 1, name, masked)
    variants = []
    for isa, lanes, vector_name in forms:
        vector = _estimate_function(module, x.type, lanes, vector_name, masked)
        variants.append(f"_ZGV{isa}N{lanes}v_{scalar.name}({vector.name})")
        _keep(module, vector)
    call = builder.call(scalar, [x])
    # llvmlite knows no string attributes: added to the set unchecked, printed as written
    set.add(call.attributes, f'"vector-function-abi-variant"="{",".join(variants)}"')
    return call


def _keep(module: ir.Module, fn: ir.Function) -> None:
    """Adds `fn` to the module's `llvm.compiler.used` (appending: linked modules merge theirs)."""
    used = module.globals.get("llvm.compiler.used")
    members = list(used.initializer.constant) if used is not None else []
    if fn in members:
        return
    if used is not None:
        del module.globals["llvm.compiler.used"]
        module.scope._useset.discard("llvm.compiler.used")
    members.append(fn)
    array_t = ir.ArrayType(ir.PointerType(), len(members))
    used = ir.GlobalVariable(module, array_t, "llvm.compiler.used")
    used.linkage = "appending"
    used.section = "llvm.metadata"
    used.initializer = ir.Constant(array_t, members)


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
    twice (this function's division has no `arcp`: LLVM does not estimate it either)."""
    if RSQRT64_STEPS == 0:
        return 1.0 / np.sqrt(x)
    guess = _rsqrt_estimate(x)
    y = _newton_rsqrt(x, _newton_rsqrt(x, guess, -0.5, 1.0), -0.5, 1.0)
    return guess if (x < _TINY64) | (x == np.inf) else y


@cached_njit(**_OPTS)
def exp_f32(x):
    """Vectorizable float32 exp."""
    _, n, r = _reduce_ln2(x)
    y = _exp_reduced(r, n)
    y = F(0) if x < F(-87.33654) else y
    return y if x <= F(88.72283) else x + _INF


@cached_njit(**_OPTS)
def exp2_f32(x):
    """Vectorizable float32 2**x."""
    t = x + _ROUND
    n = _bits(t) - _bits(_ROUND)
    r = (x - (t - _ROUND)) * F(0.6931471805599453)
    y = _exp_reduced(r, n)
    y = F(0) if x < F(-126) else y
    return y if x < F(128) else x + _INF


@cached_njit(**_OPTS)
def expm1_f32(x):
    """Vectorizable float32 exp(x) - 1, accurate near 0."""
    xc = F(-30) if x < F(-30) else x
    _, n, r = _reduce_ln2(xc)
    p = r * r * _poly(r, _EXPM1) + r
    t = _pow2(n - I(1))
    y = F(2) * (t * p + (t - F(0.5)))
    y = y if x <= F(88.72283) else x + _INF
    return y if x != F(0) else x  # -0.0 keeps its sign, as in XLA


@cached_njit(**_OPTS)
def log_f32(x):
    """Vectorizable float32 natural log."""
    tiny = x < F(1.1754944e-38)
    xs = x * F(8388608.0) if tiny else x  # scale denormals by 2**23
    b = _bits(xs)
    e = ((b >> I(23)) & I(255)) - I(127) - (I(23) if tiny else I(0))
    m = _float((b & I(0x7FFFFF)) | I(0x3F800000))  # mantissa in [1, 2)
    big = m > F(1.4142135)
    m = m * F(0.5) if big else m
    e = e + I(1) if big else e
    f = m - F(1)
    s = f / (F(2) + f)
    z = s * s
    r = z * (F(2 / 3) + z * (F(2 / 5) + z * (F(2 / 7) + z * F(2 / 9))))
    ef = F(e)
    y = ef * _LN2_HI + ((f - s * (f - r)) + ef * _LN2_LO)
    y = y if x < _INF else x
    y = -_INF if x == F(0) else y
    return _NAN if x < F(0) else y


@cached_njit(**_OPTS)
def log1p_f32(x):
    """Vectorizable float32 log(1 + x), accurate near 0."""
    u = F(1) + x
    lu = log_f32(u)
    # u rounds 1 + x; the second term corrects log(u) for that rounding error.
    ok = (u < _INF) & (u != F(0))
    y = lu - ((u - F(1)) - x) / u if ok else lu
    return y if x != F(0) else x  # -0.0 keeps its sign, as in XLA


@cached_njit(**_OPTS)
def tanh_f32(x):
    """Vectorizable float32 tanh."""
    a = np.abs(x)
    z = x * x
    small = x + x * z * _poly(z, _TANH)
    _, n, r = _reduce_ln2(F(2) * (F(20) if a > F(20) else a))
    big = F(1) - F(2) / (_exp_reduced(r, n) + F(1))
    big = -big if x < F(0) else big
    y = small if a < F(0.55) else big
    return y if (a == a) & (x != F(0)) else x  # nan, and -0.0 keeps its sign, as in XLA


@cached_njit(**_OPTS)
def logistic_f32(x):
    """Vectorizable float32 logistic sigmoid 1 / (1 + exp(-x))."""
    return F(1) / (F(1) + exp_f32(-x))


@cached_njit(inline="always", **_OPTS)
def erf_f32(x):
    """Vectorizable float32 error function."""
    a = np.abs(x)
    small = x * _poly(x * x, _ERF)
    ac = F(1) if a < F(1) else (F(4) if a > F(4) else a)
    big = F(1) - exp_f32(-ac * ac) * _poly(F(1) / ac, _ERFCX)
    big = -big if x < F(0) else big
    y = small if a < F(1) else big
    return y if a == a else x


@cached_njit(inline="always", **_OPTS)
def erf_inv_f32(x):
    """Vectorizable float32 inverse error function."""
    a = np.abs(x)
    w = -log_f32((F(1) - a) * (F(1) + a))
    central = _poly(w - F(2.5), _ERFINV_CENTRAL)
    tail = _poly(np.sqrt(F(5) if w < F(5) else w) - F(3), _ERFINV_TAIL)
    y = x * (central if w < F(5) else tail)
    y = x * _INF if a == F(1) else y
    return _NAN if a > F(1) else y


def _two_over_pi_words() -> tuple[int, ...]:
    """The first 250 bits of 2/pi after the point, behind 6 zero bits, as four 64-bit words
    (most significant first), computed with integers (Machin's formula for pi)."""
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
    padded = ((2 * one << bits) // pi) >> (bits - 250)  # floor(2/pi * 2**250)
    return tuple((padded >> (192 - 64 * i)) & (2**64 - 1) for i in range(4))


HUGE_EXPONENT = 146  # |x| >= 2**19: the three-part pi/2 of `_sincos_reduced` loses bits
_U = np.uint64
TWO_OVER_PI_WORDS = _two_over_pi_words()
_C0, _C1, _C2, _C3 = (_U(w) for w in TWO_OVER_PI_WORDS)
HUGE_R_SCALE = 3.4061215800865545e-19  # pi/2 * 2**-62


@cached_njit(inline="always", **_OPTS)
def _two_over_pi_field(o):
    """32 bits of the padded 2/pi of `_two_over_pi_words` from bit `o` on (a uint64 <= 172),
    by shifts and masks (no table: gathers are slow, and LLVM made selects of constants one)."""
    w = o >> _U(6)
    s = o & _U(63)
    m0, m1 = _U(0) - _U(w == _U(0)), _U(0) - _U(w == _U(1))  # all ones where selected
    m2 = ~(m0 | m1)
    a = (_C0 & m0) | (_C1 & m1) | (_C2 & m2)
    b = (_C1 & m0) | (_C2 & m1) | (_C3 & m2)
    return ((a << s) | ((b >> _U(1)) >> (_U(63) - s))) >> _U(32)


@cached_njit(inline="always", **_OPTS)
def _reduce_huge(x):
    """(r, q) with x = q*pi/2 + r, |r| <= pi/4, in float64 for a finite |x| >= 2**19.

    Payne and Hanek's reduction: x = m * 2**(e - 150) with an integer m < 2**24 (e the
    exponent field), so the bits of 2/pi before bit e - 151 (bit 1 the first after the point)
    add whole turns to x * 2/pi and those after bit e - 56 less than 2**-70; the 96 bits
    between give x * 2/pi mod 4 to 62 bits after the point."""
    b = _bits(x)
    j = ((b >> I(23)) & I(255)) - I(HUGE_EXPONENT)
    o = _U(I(0) if j < I(0) else j)  # bit e - 151 of 2/pi is bit j of the padded words
    m = _U((b & I(0x7FFFFF)) | I(0x800000))
    w0, w1, w2 = (
        _two_over_pi_field(o),
        _two_over_pi_field(o + _U(32)),
        _two_over_pi_field(o + _U(64)),
    )
    y = ((m * w0) << _U(32)) + m * w1 + ((m * w2) >> _U(32))  # x*2/pi mod 4, times 2**62
    q = (y + _U(1 << 61)) >> _U(62)
    r = np.float64(np.int64(y - (q << _U(62)))) * HUGE_R_SCALE
    q = np.int64(q)
    return (-r, -q) if x < F(0) else (r, q)


@cached_njit(inline="always", **_OPTS)
def _sincos_reduced(x):
    """(sin r, cos r, quadrant) in float64 for x = q*pi/2 + r, |r| <= pi/4."""
    xd = np.float64(x)
    t = xd * 0.6366197723675814 + 6755399441055744.0  # 1.5 * 2**52
    q = _bits64(t) - _bits64(6755399441055744.0)
    t = t - 6755399441055744.0
    r = xd - t * 1.5707963267341256 - t * 6.077100506506192e-11 - t * 2.0222662487959506e-21
    rh, qh = _reduce_huge(x)
    huge = (np.abs(x) >= F(524288.0)) & (np.abs(x) < _INF)
    r = rh if huge else r
    q = qh if huge else q
    z = r * r
    s = r + r * z * (-1 / 6 + z * (1 / 120 + z * (-1 / 5040 + z * (1 / 362880 + z / -39916800))))
    c = 1 - 0.5 * z + z * z * (1 / 24 + z * (-1 / 720 + z * (1 / 40320 + z * (-1 / 3628800))))
    return s, c, q & 3


@cached_njit(inline="always", **_OPTS)
def sin_f32(x):
    """Vectorizable float32 sine (reduced in float64, by Payne-Hanek for |x| >= 2**19)."""
    s, c, q = _sincos_reduced(x)
    y = s if (q & 1) == 0 else c
    return F(-y if q >= 2 else y) if x != F(0) else x  # -0.0 keeps its sign, as in XLA


@cached_njit(inline="always", **_OPTS)
def cos_f32(x):
    """Vectorizable float32 cosine (reduced in float64, by Payne-Hanek for |x| >= 2**19)."""
    s, c, q = _sincos_reduced(x)
    y = c if (q & 1) == 0 else s
    return F(-y if (q == 1) | (q == 2) else y)


@cached_njit(inline="always", **_OPTS)
def tan_f32(x):
    """Vectorizable float32 tangent (reduced in float64)."""
    s, c, q = _sincos_reduced(x)
    return F(s / c if (q & 1) == 0 else -c / s) if x != F(0) else x  # -0.0 keeps its sign
