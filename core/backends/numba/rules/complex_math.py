"""Complex transcendentals as XLA's CPU back end computes them: each expanded into operations on
the real and imaginary parts (the same float kernels, `vm.*`, as the real primitives), in the
order XLA's expansion applies them, so that a lean loop nest rounds as XLA's fused loop does
(products feeding one sum become fused multiply-adds in both: `core/backends/llvm/settle.py`).

`RULES` maps a primitive to its expansion, `rule(ctx, *operands) -> expression`, written with
`_Parts` (one temporary per operation). The lowering rules (`elementwise.py`) call it for
complex operands, and the eager impls run the same expansion as a compiled loop
(`eager_loops.compute_complex`), so eager and jitted results are the same bits.

The expansions were found by matching JAX 0.10.2's results bit for bit (and reading the
operations of its optimized HLO): `log` and `log1p` compute `|z|**2 - 1` (`|1 + z|**2 - 1`)
with Dekker's exact squares and a compensated sum where it is small, `sqrt` is a scaled
hypot-based formula with the branch cut's signs taken from the operand, `sin`/`cos` are JAX's
`expm1` compositions, `sinh`/`cosh` differences and sums of `exp(+-z - log 2)`; `asin`,
`acos`, `asinh` and `acosh` are one expansion (Hull et al.'s algorithm, as StableHLO's chlo
decomposition writes it) of the operand's or `i` times its parts' magnitudes.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from core.backends.numba.context import ScalarCtx
from core.backends.numba.transcendentals import vm_kernel
from core.prims import elementwise as ew

# numpy's name of a real function, where `vm_kernel` has no kernel for the part dtype
_NP_NAMES = {"atan2": "arctan2"}


class _Parts:
    """Expressions on the parts of a complex rule's operands: every method returns the name of
    a temporary holding its result (in the part dtype)."""

    def __init__(self, ctx: ScalarCtx):
        self.ctx = ctx
        self.dtype = np.finfo(ctx.dtype).dtype
        self.part = ScalarCtx([self.dtype], self.dtype, ctx.tmp)
        self.f64 = self.dtype == np.float64

    def c(self, value: float) -> str:
        return self.part.const(value)

    def t(self, expr: str) -> str:
        return self.ctx.tmp(expr)

    def split(self, z: str) -> tuple[str, str]:
        return self.t(f"{z}.real"), self.t(f"{z}.imag")

    def add(self, a: str, b: str) -> str:
        return self.t(f"({a} + {b})")

    def sub(self, a: str, b: str) -> str:
        return self.t(f"({a} - {b})")

    def mul(self, a: str, b: str) -> str:
        return self.t(f"({a} * {b})")

    def div(self, a: str, b: str) -> str:
        return self.t(f"({a} / {b})")

    def neg(self, a: str) -> str:
        return self.t(f"(-{a})")

    def abs(self, a: str) -> str:
        return self.t(f"np.abs({a})")

    def max(self, a: str, b: str) -> str:
        return self.t(f"vm.maximum({a}, {b})")

    def min(self, a: str, b: str) -> str:
        return self.t(f"vm.minimum({a}, {b})")

    def cmp(self, a: str, op: str, b: str) -> str:
        return self.t(f"({a} {op} {b})")

    def where(self, cond: str, a: str, b: str) -> str:
        return self.t(f"rt.where({cond}, {a}, {b})")

    def call(self, name: str, *xs: str) -> str:
        """The real function `name` (a primitive's name) as the real primitive computes it."""
        if name == "pow" and not self.f64:  # float32 pow in double precision, as XLA's
            a, b = xs
            return self.t(f"np.float32(np.float64({a}) ** np.float64({b}))")
        kernel = vm_kernel(getattr(ew, f"{name}_p"), self.dtype)
        fn = f"vm.{kernel}" if kernel is not None else f"np.{_NP_NAMES.get(name, name)}"
        return self.t(f"{fn}({', '.join(xs)})")

    def pack(self, real: str, imag: str) -> str:
        return self.wrap(f"complex({real}, {imag})")

    def wrap(self, expr: str) -> str:
        """Complex `expr` (numba's `complex` is complex128) in the rule's dtype."""
        return f"np.complex64({expr})" if self.ctx.dtype == np.complex64 else expr


def _square_low(p: _Parts, x: str, xx: str) -> str:
    """The rounding error of `xx = x * x` (Dekker's product: `x` split by Veltkamp's constant)."""
    xc = p.mul(x, p.c(134217729.0 if p.f64 else 4097.0))
    high = p.add(xc, p.sub(x, xc))
    low = p.sub(x, high)
    cross = p.mul(high, low)
    out = p.add(p.neg(xx), p.mul(high, high))
    out = p.add(p.add(out, cross), cross)
    return p.add(out, p.mul(low, low))


def _two_sum_low(p: _Parts, s: str, a: str, b: str) -> str:
    """The rounding error of `s = a + b` (Knuth's two-sum)."""
    bb = p.sub(s, a)
    return p.add(p.sub(a, p.sub(s, bb)), p.sub(b, bb))


def _log_ratio(p: _Parts, ax: str, ay: str, squared_first: bool) -> tuple[str, str]:
    """`log(max)` and `log1p(r**2) / 2`, `r = min / max` of magnitudes `ax`, `ay` (r**2 is 1
    where they are equal: `log`'s squares `r`, `log1p`'s selects the square)."""
    mx, mn = p.max(ax, ay), p.min(ax, ay)
    same, one = p.cmp(mn, "==", mx), p.c(1.0)
    if squared_first:
        r = p.div(mn, mx)
        r2 = p.where(same, one, p.mul(r, r))
    else:
        r = p.where(same, one, p.div(mn, mx))
        r2 = p.mul(r, r)
    return mx, p.mul(p.call("log1p", r2), p.c(0.5))


def _log(ctx, z):
    """log z: `log1p(|z|**2 - 1) / 2` where `|z|**2 - 1` (exact squares, compensated sum) is
    under 1/2 in magnitude, else `log(max) + log1p((min/max)**2) / 2`; `atan2(y, x)`."""
    p = _Parts(ctx)
    x, y = p.split(z)
    yy, xx = p.mul(y, y), p.mul(x, x)
    gt = p.cmp(yy, ">", xx)
    big, small = p.where(gt, yy, xx), p.where(gt, xx, yy)
    minus_one = p.c(-1.0)
    s2 = p.add(big, minus_one)
    s1 = p.add(s2, small)
    ylow = _square_low(p, y, yy)
    s0 = p.add(s1, ylow)
    xlow = _square_low(p, x, xx)
    s = p.add(s0, xlow)
    # the sums' errors (XLA simplified the first, `big - ((big - 1) + 1)`, to `big - big`)
    err = p.add(p.sub(big, big), p.sub(small, p.sub(s1, s2)))
    err = p.add(err, p.sub(ylow, p.sub(s0, s1)))
    err = p.add(err, p.sub(xlow, p.sub(s, s0)))
    total = p.add(s, err)
    half = p.c(0.5)
    near = p.cmp(p.abs(total), "<", half)
    near_one = p.mul(p.call("log1p", total), half)
    mx, log1p_r2 = _log_ratio(p, p.abs(x), p.abs(y), squared_first=False)
    far = p.add(p.call("log", mx), log1p_r2)
    return p.pack(p.where(near, near_one, far), p.call("atan2", y, x))


def _log1p(ctx, z):
    """log(1 + z): `log(max) + log1p((min/max)**2) / 2` of |1 + z|'s parts beyond sqrt(max)/100,
    `log(|1 + z|**2) / 2` where |x + 1| + |y| < 0.2, else `log1p(2x + x**2 + y**2) / 2` (exact
    squares, compensated sums); `atan2(y, x + 1)`."""
    p = _Parts(ctx)
    x, y = p.split(z)
    ax, ay = p.abs(x), p.abs(y)
    mx, log1p_r2 = _log_ratio(p, ax, ay, squared_first=True)
    huge = p.cmp(mx, ">", p.c(1.3407807929942595e152 if p.f64 else 1.84467419e17))
    far = p.add(p.call("log", mx), log1p_r2)
    half = p.c(0.5)
    xp1 = p.add(x, p.c(1.0))
    near = p.cmp(p.add(p.abs(xp1), ay), "<", p.c(0.2))
    yy = p.mul(y, y)
    near_zero = p.mul(p.call("log", p.add(p.mul(xp1, xp1), yy)), half)
    twox = p.add(x, x)
    s2 = p.add(twox, yy)
    xx = p.mul(x, x)
    s1 = p.add(s2, xx)
    ylow = _square_low(p, y, yy)
    s0 = p.add(s1, ylow)
    xlow = _square_low(p, x, xx)
    s = p.add(s0, xlow)
    err = p.add(_two_sum_low(p, s2, twox, yy), _two_sum_low(p, s1, s2, xx))
    err = p.add(err, _two_sum_low(p, s0, s1, ylow))
    err = p.add(err, _two_sum_low(p, s, s0, xlow))
    rest = p.mul(p.call("log1p", p.add(s, err)), half)
    real = p.where(huge, far, p.where(near, near_zero, rest))
    return p.pack(real, p.call("atan2", y, xp1))


def _hypot(p: _Parts, mx: str, mn: str, fused: bool = False) -> str:
    """hypot of magnitudes `mx` >= `mn` as XLA computes it: `mx sqrt(1 + r**2)`, `r = mn / mx`,
    `mx (1 + r**2 / 2)` where the square root rounds to 1, `mx sqrt 2` where they are equal
    (`fused`: `1 + r**2` is one FMA, as where XLA's loop computing it squares `r` again)."""
    r = p.div(mn, mx)
    r2 = p.mul(r, r)
    one = p.c(1.0)
    # a product's only user, a sum, fuses with it (`core/backends/llvm/settle.py`)
    root = p.call("sqrt", p.add(p.mul(r, r) if fused else r2, one))
    tiny = p.t(f"({p.cmp(root, '==', one)} & {p.cmp(r2, '>', p.c(0.0))})")
    series = p.add(mx, p.mul(p.mul(mx, r2), p.c(0.5)))
    out = p.where(tiny, series, p.mul(mx, root))
    return p.where(p.cmp(mx, "==", mn), p.mul(mx, p.c(1.4142135623730951)), out)


def _sqrt(ctx, z):
    """sqrt z: `sqrt((|z| + |x|) / 2)` and `|y| / (2 that)`, rescaled by the smaller part's
    square root where that underflows or overflows, the parts' signs from x and y."""
    p = _Parts(ctx)
    x, y = p.split(z)
    ax, ay = p.abs(x), p.abs(y)
    same = p.cmp(ax, "==", ay)
    mx, mn = p.max(ax, ay), p.min(ax, ay)
    less = p.cmp(ax, "<", ay)
    ratio = p.where(same, p.c(1.0), p.where(less, p.div(ax, ay), p.div(ay, ax)))
    half, sqrt2, inv_sqrt2 = p.c(0.5), p.c(1.4142135623730951), p.c(0.70710678118654746)
    sx = p.call("sqrt", ax)
    hyp = _hypot(p, mx, mn)
    u = p.call("sqrt", p.add(p.mul(hyp, half), p.mul(ax, half)))
    zero, inf = p.c(0.0), p.c(np.inf)
    edge = p.t(f"({p.cmp(u, '==', zero)} | {p.cmp(u, '==', inf)})")
    wider = p.cmp(ax, ">", ay)
    rb = p.abs(ratio)
    one = p.c(1.0)
    h1 = _hypot(p, p.max(rb, one), p.min(rb, one))
    w1 = p.call("sqrt", p.add(h1, one))
    scaled_x = p.mul(sx, p.mul(w1, inv_sqrt2))
    sy = p.call("sqrt", ay)
    w2 = p.call("sqrt", p.add(ratio, h1))
    scaled_y = p.mul(sy, p.mul(w2, inv_sqrt2))
    big = p.where(same, p.mul(sx, p.c(1.0986841134678098)),
                  p.where(edge, p.where(wider, scaled_x, scaled_y), u))  # fmt: skip
    ratio_s = p.where(same, one, p.where(less, p.div(sx, sy), p.div(sy, sx)))
    small_x = p.div(p.mul(sy, ratio_s), p.mul(w1, sqrt2))
    small_y = p.div(sy, p.mul(w2, sqrt2))
    small = p.where(edge, p.where(wider, small_x, small_y), p.div(ay, p.mul(u, p.c(2.0))))
    small = p.where(same, p.mul(sy, p.c(0.45508986056222733)), small)
    real = p.where(p.cmp(x, ">=", zero), big, small)
    y_neg = p.cmp(y, "<", zero)
    imag = p.where(p.cmp(x, "<", zero), p.where(y_neg, p.neg(big), big),
                   p.where(y_neg, p.neg(small), small))  # fmt: skip
    return p.pack(real, imag)


def _sinh_cosh_parts(p: _Parts, b: str) -> tuple[str, str]:
    """sinh b and cosh b from `expm1(b)` and `expm1(-b)` (JAX's complex sin and cos)."""
    e1, e2 = p.call("expm1", b), p.call("expm1", p.neg(b))
    half = p.c(0.5)
    return p.mul(p.sub(e1, e2), half), p.mul(p.add(p.add(e1, e2), p.c(2.0)), half)


def _sin(ctx, z):
    """sin z: `sin(a) cosh(b) + cos(a) sinh(b) i`, a zero real part where `a` is zero."""
    p = _Parts(ctx)
    a, b = p.split(z)
    sh, ch = _sinh_cosh_parts(p, b)
    imag = p.mul(p.call("cos", a), sh)
    real = p.mul(p.call("sin", a), ch)
    return p.pack(p.where(p.cmp(a, "==", p.c(0.0)), p.c(0.0), real), imag)


def _cos(ctx, z):
    """cos z: `cos(a) cosh(b) - sin(a) sinh(b) i`, a zero imaginary part where `a` is zero."""
    p = _Parts(ctx)
    a, b = p.split(z)
    sh, ch = _sinh_cosh_parts(p, b)
    real = p.mul(p.call("cos", a), ch)
    imag = p.mul(p.neg(p.call("sin", a)), sh)
    return p.pack(real, p.where(p.cmp(a, "==", p.c(0.0)), p.c(0.0), imag))


def _exp_parts(p: _Parts, a: str, b: str) -> tuple[str, str]:
    """exp(a + bi) as XLA expands it: `exp(a) cos(b) + exp(a) sin(b) i`, where exp(a)
    overflows `(exp(a/2) cos(b)) exp(a/2)` (finite where the product is), a zero imaginary part
    where `b` is zero (exp(inf + 0i) is inf + 0i)."""
    e, h = p.call("exp", a), p.call("exp", p.mul(a, p.c(0.5)))
    big = p.cmp(e, "==", p.c(np.inf))
    c, s = p.call("cos", b), p.call("sin", b)
    real = p.where(big, p.mul(p.mul(h, c), h), p.mul(e, c))
    imag = p.where(big, p.mul(p.mul(h, s), h), p.mul(e, s))
    zero = p.c(0.0)
    return real, p.where(p.cmp(b, "==", zero), zero, imag)


def _sinh_cosh(sign: str) -> Callable:
    def rule(ctx, z):
        p = _Parts(ctx)
        a, b = p.split(z)
        minus_ln2, zero = p.c(-0.69314718055994529), p.c(0.0)
        r1, i1 = _exp_parts(p, p.add(a, minus_ln2), p.add(b, zero))
        r2, i2 = _exp_parts(p, p.sub(minus_ln2, a), p.sub(zero, b))
        op = p.sub if sign == "-" else p.add
        return p.pack(op(r1, r2), op(i1, i2))

    rule.__doc__ = f"(exp(z - log 2) {sign} exp(-z - log 2)), parts by parts."
    return rule


# cephes' cosm1 polynomial in x**2 (XLA's `EmitCosm1`), highest degree first
_COSM1 = (
    4.7377507964246204691685e-14,
    -1.1470284843425359765671e-11,
    2.0876754287081521758361e-9,
    -2.7557319214999787979814e-7,
    2.4801587301570552304991e-5,
    -1.3888888888888872993737e-3,
    4.1666666666666666609054e-2,
)


def _cosm1(p: _Parts, x: str) -> str:
    """cos(x) - 1: `-x**2/2 + x**4 P(x**2)` where x**2 <= 0.61685 ((pi/4)**2), else
    `cos(x) - 1`."""
    large = p.add(p.call("cos", x), p.c(-1.0))
    xx = p.mul(x, x)
    poly = p.c(0.0)
    for coefficient in _COSM1:  # Horner's steps from zero, as XLA evaluates polynomials
        poly = p.add(p.mul(poly, xx), p.c(coefficient))
    small = p.add(p.mul(p.mul(xx, xx), poly), p.mul(p.c(-0.5), xx))
    return p.where(p.cmp(xx, ">", p.c(0.61685)), large, small)


def _expm1(ctx, z):
    """exp(z) - 1: `expm1(a) cos(b) + cosm1(b)` + `exp(a) sin(b)` i (0 where b is zero)."""
    p = _Parts(ctx)
    a, b = p.split(z)
    one, zero = p.c(1.0), p.c(0.0)
    em1 = p.call("expm1", a)
    e = p.add(em1, one)
    sin_b = p.call("sin", b)
    cm1 = _cosm1(p, b)
    real = p.add(p.mul(em1, p.add(cm1, one)), cm1)
    return p.pack(real, p.where(p.cmp(b, "==", zero), zero, p.mul(e, sin_b)))


def _tanh_parts(p: _Parts, a: str, b: str) -> tuple[str, str]:
    """tanh(a + bi) as XLA's elemental expansion computes it: `(expm1(2a) - expm1(-2a) +
    4 cos(b) sin(b) i) / (expm1(2a) + expm1(-2a) + 4 cos(b)**2)`, +-1 where the denominator's
    first terms overflow, and its special cases (NaN where sin 2b is NaN but `a` is finite, a
    zero imaginary part where `b` is zero or `a` infinite and sin 2b NaN)."""
    two_a = p.add(a, a)
    minus_one = p.c(-1.0)
    e1, e2 = p.call("expm1", two_a), p.call("expm1", p.mul(minus_one, two_a))
    numerator = p.sub(e1, e2)
    cb, sb = p.call("cos", b), p.call("sin", b)
    four = p.c(4.0)
    cos_term = p.mul(p.mul(cb, cb), four)
    imag_numerator = p.mul(four, p.mul(cb, sb))
    sum_m2 = p.add(e1, e2)
    denom = p.add(sum_m2, cos_term)
    limit = p.t(f"np.copysign({minus_one}, {a})")
    real = p.where(p.cmp(sum_m2, "==", p.c(np.inf)), limit, p.div(numerator, denom))
    imag = p.div(imag_numerator, denom)
    a_inf = p.cmp(p.abs(a), "==", p.c(np.inf))
    sin_nan = p.cmp(imag_numerator, "!=", imag_numerator)
    real = p.where(p.t(f"({sin_nan} & (not {a_inf}))"), p.c(np.nan), real)
    zero = p.c(0.0)
    imag = p.where(p.t(f"({p.cmp(b, '==', zero)} | ({a_inf} & {sin_nan}))"), zero, imag)
    return real, imag


def _tanh(ctx, z):
    p = _Parts(ctx)
    return p.pack(*_tanh_parts(p, *p.split(z)))


_tanh.__doc__ = _tanh_parts.__doc__


def _tan(ctx, z):
    """tan(a + bi) = -i tanh(-b + ai): XLA's tanh expansion of (-b, a), parts swapped back."""
    p = _Parts(ctx)
    a, b = p.split(z)
    minus_one = p.c(-1.0)
    real, imag = _tanh_parts(p, p.mul(minus_one, b), a)
    return p.pack(imag, p.mul(minus_one, real))


def _modulus(p: _Parts, a: str, b: str) -> str:
    """|a + bi| as XLA's `pow` computes it: `max sqrt(1 + (min/max)**2)` of |a| and |b|, `max`
    where that is NaN but `max` is not, else `min`."""
    ax, ay = p.abs(a), p.abs(b)
    mx, mn = p.max(ax, ay), p.min(ax, ay)
    r = p.div(mn, mx)
    out = p.mul(mx, p.call("sqrt", p.add(p.c(1.0), p.mul(r, r))))
    fallback = p.where(p.cmp(mx, "==", mx), mx, mn)
    return p.where(p.cmp(out, "!=", out), fallback, out)


def _rsqrt(ctx, z):
    """1/sqrt(z): `rsqrt(|z|) (cos(-t/2) + sin(-t/2) i)`, `t = atan2(b, a)`, |z|'s reciprocal
    square root `rsqrt(max) sqrt(rsqrt(1 + (min/max)**2))` (XLA's real rsqrt kernel, the sum
    one FMA); `rsqrt(min)` where that is NaN; inf + NaN i at 0, signed zeros where a part is
    infinite."""
    p = _Parts(ctx)
    a, b = p.split(z)
    ax, ay = p.abs(a), p.abs(b)
    mx, mn = p.max(ax, ay), p.min(ax, ay)
    r = p.div(mn, mx)
    inner = p.call("rsqrt", p.add(p.mul(r, r), p.c(1.0)))
    modulus = p.mul(p.call("rsqrt", mx), p.call("sqrt", inner))
    modulus = p.where(p.cmp(modulus, "!=", modulus), p.call("rsqrt", mn), modulus)
    angle = p.mul(p.call("atan2", b, a), p.c(-0.5))
    real = p.mul(modulus, p.call("cos", angle))
    imag = p.mul(modulus, p.call("sin", angle))
    zero, inf = p.c(0.0), p.c(np.inf)
    at_zero = p.t(f"({p.cmp(b, '==', zero)} & {p.cmp(a, '==', zero)})")
    a_nan = p.cmp(a, "!=", a)
    edge = p.t(f"(({p.cmp(p.abs(b), '==', inf)} & {a_nan}) | {p.cmp(p.abs(a), '==', inf)})")
    signed_a = p.t(f"np.copysign({zero}, {a})")
    minus_signed_b = p.mul(p.t(f"np.copysign({zero}, {b})"), p.c(-1.0))
    real = p.where(at_zero, inf, p.where(edge, signed_a, real))
    imag = p.where(at_zero, p.c(np.nan), p.where(edge, minus_signed_b, imag))
    return p.pack(real, imag)


def _pow(ctx, x, y):
    """x**y for complex y = c + di: `|x|**c exp(-d t) (cos q + sin q i)`, `t = atan2(b, a)`,
    `q = c t + d log|x|`, with Kahan's special cases: 0**y is 0 for real y > 0, x**0 and 1**y
    are 1, inf**c is inf for real c > 0 and 0 for c < 0."""
    p = _Parts(ctx)
    a, b = p.split(x)
    c, d = p.split(y) if ctx.in_dtypes[1].kind == "c" else (y, p.c(0.0))
    modulus = _modulus(p, a, b)
    zero, one, inf = p.c(0.0), p.c(1.0), p.c(np.inf)
    t = p.call("atan2", b, a)
    coeff = p.mul(p.call("pow", modulus, c), p.call("exp", p.mul(p.neg(d), t)))
    q = p.add(p.mul(c, t), p.mul(d, p.call("log", modulus)))
    real, imag = p.mul(coeff, p.call("cos", q)), p.mul(coeff, p.call("sin", q))
    d_zero, b_zero = p.cmp(d, "==", zero), p.cmp(b, "==", zero)
    zero_base = p.t(f"({p.cmp(modulus, '==', zero)} & {d_zero} & {p.cmp(zero, '<=', c)})")
    real = p.where(zero_base, p.where(p.cmp(zero, "==", c), one, zero), real)
    imag = p.where(zero_base, zero, imag)
    unit = p.t(f"(({p.cmp(zero, '==', c)} & {d_zero}) | ({p.cmp(a, '==', one)} & {b_zero}))")
    real, imag = p.where(unit, one, real), p.where(unit, zero, imag)
    inf_base = p.t(f"({p.cmp(a, '==', inf)} & {b_zero} & {d_zero})")
    real = p.where(p.t(f"({inf_base} & {p.cmp(c, '>', zero)})"), inf, real)
    inf_neg = p.t(f"({inf_base} & {p.cmp(c, '<', zero)})")
    real = p.where(inf_neg, zero, real)
    imag = p.where(p.t(f"({inf_base} & {p.cmp(c, '!=', zero)})"), zero, imag)
    return p.pack(real, imag)


def _exp2(ctx, z):
    """2**z: exp of the complex product `z (log 2 + 0i)`."""
    p = _Parts(ctx)
    w = p.t(f"rt.cmul({z}, {ctx.const(complex(np.log(2.0), 0.0), ctx.dtype)})")
    return p.pack(*_exp_parts(p, *p.split(w)))


def _logistic(ctx, z):
    """1 / (1 + exp(-z)), a complex quotient (`rt.cdiv`)."""
    p = _Parts(ctx)
    a, b = p.split(z)
    real, imag = _exp_parts(p, p.neg(a), p.neg(b))
    one, zero = p.c(1.0), p.c(0.0)
    denominator = p.t(p.pack(p.add(real, one), p.add(imag, zero)))
    return p.wrap(f"rt.cdiv({ctx.const(complex(1.0, 0.0), ctx.dtype)}, {denominator})")


def _atanh_parts(p: _Parts, x: str, y: str) -> tuple[str, str]:
    """atanh(x + yi) as XLA computes it (StableHLO's expansion): real part
    `sign(x) log1p(4 |x| / ((1 - |x|)**2 + y**2)) / 4` (that ratio's limits `1/|x|` where |y| is
    negligible and `1 / ((|x|/y + y/|x|) y)`, 0 for infinite parts, beyond sqrt(max)/8),
    imaginary part `atan2(2y, (1 - |x|)(1 + |x|) - y**2) / 2` (+-pi/2 beyond)."""
    one, minus_one, zero, inf = p.c(1.0), p.c(-1.0), p.c(0.0), p.c(np.inf)
    big = p.c(8.1129638414606718e31 if p.f64 else 2.81475044e14)
    sx = p.where(p.cmp(x, ">=", zero), one, minus_one)
    ax, ay = p.abs(x), p.abs(y)
    safe = p.t(f"({p.cmp(ax, '<', big)} & {p.cmp(ay, '<', big)})")
    one_m = p.sub(one, ax)
    yy = p.mul(y, y)
    ratio = p.div(ax, p.add(p.mul(one_m, one_m), yy))
    y_negligible = p.cmp(p.mul(ay, p.c(9007199254740994.0 if p.f64 else 16777218.0)), "<", ax)
    infinite = p.t(
        f"({p.cmp(x, '==', inf)} | {p.cmp(x, '==', p.c(-np.inf))} | "
        f"{p.cmp(y, '==', inf)} | {p.cmp(y, '==', p.c(-np.inf))})"
    )
    far = p.div(one, p.mul(p.add(p.div(ax, y), p.div(y, ax)), y))
    far = p.where(infinite, zero, far)
    far = p.where(y_negligible, p.div(one, ax), far)
    ratio = p.where(safe, ratio, far)
    real = p.mul(p.mul(sx, p.call("log1p", p.mul(ratio, p.c(4.0)))), p.c(0.25))
    angle = p.call("atan2", p.add(y, y), p.sub(p.mul(one_m, p.add(ax, one)), yy))
    sy = p.where(p.cmp(y, ">=", zero), one, minus_one)
    angle = p.where(safe, angle, p.mul(sy, p.c(3.1415926535897931)))
    return real, p.mul(angle, p.c(0.5))


def _atanh(ctx, z):
    p = _Parts(ctx)
    return p.pack(*_atanh_parts(p, *p.split(z)))


_atanh.__doc__ = _atanh_parts.__doc__


def _atan(ctx, z):
    """atan(a + bi) = -i atanh(-b + ai)."""
    p = _Parts(ctx)
    a, b = p.split(z)
    real, imag = _atanh_parts(p, p.neg(b), a)
    return p.pack(imag, p.neg(real))


def _asin_parts(p: _Parts, ax: str, ay: str) -> tuple[str, str]:
    """The two real functions of |x| = `ax`, |y| = `ay` that XLA's expansion of complex asin
    (Hull et al.'s algorithm) builds asin, acos, asinh and acosh from: `d`, with
    `asin(x + yi) = atan2(x, d) +- im i`, and `im` (the imaginary part's magnitude).

    With `r = |z + 1|`, `s = |z - 1|` (`_hypot`) and `a = (r + s) / 2`: `d` is
    `sqrt((a + |x|)/2 (y**2/(r + |x| + 1) + s - (|x| - 1)))` for |x| <= 1, else
    `|y| sqrt((a + |x|)/2 (1/(r + |x| + 1) + 1/(s + |x| - 1)))`, and |y| beyond sqrt(max)/8;
    `im` is `log1p(am1 + sqrt(am1 (a + 1)))` with `am1 = a - 1` computed without cancellation,
    `|y| / sqrt(am1 (a + 1))` for tiny |y| and |x| < 1, `log(m) + log 2 + log1p((|x|/|y|)**2)/2`
    for a large part `m` (the thresholds scaled from sqrt(max)/8)."""
    one, half, zero = p.c(1.0), p.c(0.5), p.c(0.0)
    safe_max = p.c(1.6759759912428245e153 if p.f64 else 2.30584287e18)
    xp1, xm1 = p.add(ax, one), p.sub(ax, one)
    r = _hypot(p, *_max_min(p, p.abs(xp1), ay), fused=True)
    s = _hypot(p, *_max_min(p, p.abs(xm1), ay), fused=True)
    a = p.mul(p.add(r, s), half)
    half_apx = p.mul(p.add(a, ax), half)
    yy = p.mul(ay, ay)
    rpx, smx, spx = p.add(r, xp1), p.sub(s, xm1), p.add(s, xm1)
    d_small = p.call("sqrt", p.mul(half_apx, p.add(p.div(yy, rpx), smx)))
    d_large = p.mul(ay, p.call("sqrt", p.add(p.div(half_apx, rpx), p.div(half_apx, spx))))
    d = p.where(p.cmp(ax, "<=", one), d_small, d_large)
    d = p.where(p.cmp(p.max(ax, ay), ">=", safe_max), ay, d)

    x_moderate = p.cmp(ax, "<", p.c(1.6759759912428244e165 if p.f64 else 2.30584285e30))
    low, high = (
        (1.6759759912428242e147, 1.6759759912428244e155)
        if p.f64
        else (2.30584274e12, 2.30584283e20)
    )
    threshold = p.where(x_moderate, p.c(low), p.c(high))
    y_big = p.cmp(ay, ">=", threshold)
    m = p.where(y_big, ay, ax)
    use_log = p.cmp(m, ">=", p.where(y_big, threshold, safe_max))
    y_finite_big = p.t(f"({y_big} & (not {p.cmp(ay, '==', p.c(np.inf))}))")
    ratio = p.where(y_finite_big, p.div(ax, ay), zero)
    log_m = p.add(p.call("log", m), p.c(0.69314718055994529))
    im_log = p.add(log_m, p.mul(p.call("log1p", p.mul(ratio, ratio)), half))
    tiny_y = p.cmp(ay, "<", p.c(5.9666725849601654e-154 if p.f64 else 4.33680869e-19))
    tiny = p.t(f"({tiny_y} & {p.cmp(ax, '<', one)})")
    ap1 = p.add(a, one)
    am1_tiny = p.neg(p.div(p.mul(xp1, xm1), ap1))
    half_yy = p.mul(yy, half)
    t1 = p.div(half_yy, rpx)
    am1_x_ge1 = p.add(t1, p.mul(spx, half))
    am1_x_lt1 = p.where(p.cmp(a, "<=", p.c(1.5)), p.add(t1, p.div(half_yy, smx)), p.sub(a, one))
    am1 = p.where(p.cmp(ax, ">=", one), am1_x_ge1, am1_x_lt1)
    am1 = p.where(tiny, am1_tiny, am1)
    root = p.call("sqrt", p.mul(am1, ap1))
    im = p.where(tiny, p.div(ay, root), p.call("log1p", p.add(am1, root)))
    return d, p.where(use_log, im_log, im)


def _max_min(p: _Parts, a: str, b: str) -> tuple[str, str]:
    return p.max(a, b), p.min(a, b)


def _signed(p: _Parts, negative: str, value: str) -> str:
    """`value`, negated where `negative` holds."""
    return p.where(negative, p.neg(value), value)


def _asin(ctx, z):
    """asin(x + yi) = atan2(x, d) + im i (`_asin_parts`), im's sign y's."""
    p = _Parts(ctx)
    x, y = p.split(z)
    d, im = _asin_parts(p, p.abs(x), p.abs(y))
    return p.pack(p.call("atan2", x, d), _signed(p, p.cmp(y, "<", p.c(0.0)), im))


def _acos(ctx, z):
    """acos(x + yi) = atan2(d, x) - im i (`_asin_parts`), im's sign -y's (negative for NaN y)."""
    p = _Parts(ctx)
    x, y = p.split(z)
    d, im = _asin_parts(p, p.abs(x), p.abs(y))
    return p.pack(p.call("atan2", d, x), _signed(p, p.t(f"(not {p.cmp(y, '<', p.c(0.0))})"), im))


def _asinh(ctx, z):
    """asinh(x + yi) = -i asin(-y + xi): im (`_asin_parts` of |y|, |x|) with x's sign +
    atan2(y, d) i."""
    p = _Parts(ctx)
    x, y = p.split(z)
    d, im = _asin_parts(p, p.abs(y), p.abs(x))
    return p.pack(_signed(p, p.cmp(x, "<", p.c(0.0)), im), p.call("atan2", y, d))


def _acosh(ctx, z):
    """acosh(x + yi) = im + atan2(d, x) i (`_asin_parts`), the angle's sign y's."""
    p = _Parts(ctx)
    x, y = p.split(z)
    d, im = _asin_parts(p, p.abs(x), p.abs(y))
    return p.pack(im, _signed(p, p.cmp(y, "<", p.c(0.0)), p.call("atan2", d, x)))


def _exp(ctx, z):
    p = _Parts(ctx)
    return p.pack(*_exp_parts(p, *p.split(z)))


_exp.__doc__ = _exp_parts.__doc__

RULES: dict = {
    ew.asin_p: _asin,
    ew.acos_p: _acos,
    ew.asinh_p: _asinh,
    ew.acosh_p: _acosh,
    ew.atanh_p: _atanh,
    ew.atan_p: _atan,
    ew.exp_p: _exp,
    ew.expm1_p: _expm1,
    ew.tanh_p: _tanh,
    ew.tan_p: _tan,
    ew.rsqrt_p: _rsqrt,
    ew.pow_p: _pow,
    ew.exp2_p: _exp2,
    ew.logistic_p: _logistic,
    ew.log_p: _log,
    ew.log1p_p: _log1p,
    ew.sqrt_p: _sqrt,
    ew.sin_p: _sin,
    ew.cos_p: _cos,
    ew.sinh_p: _sinh_cosh("-"),
    ew.cosh_p: _sinh_cosh("+"),
}
