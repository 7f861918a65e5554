"""`core.scipy.special`: special functions, like `jax.scipy.special`.

Every function promotes its arguments to a common inexact dtype and broadcasts them (integers
become the default float), then composes `core.numpy` / `core.lax` operations, so each one
differentiates, batches and jits like the operations it is made of. Custom derivatives are
attached where the composition would give NaN or poor gradients (`xlogy`/`xlog1py` at `x = 0`,
`log_ndtr` in its asymptotic tail), exactly where JAX attaches them.

Sources of the formulas: `ndtri` is Cephes' three-piece rational approximation; `log_ndtr` uses
`log(ndtr)` in the middle, `-ndtr(-x)` above 5 (float32) / 8 (float64) and the asymptotic
series `log(phi(x)/-x * sum_n (-1)^n (2n-1)!! / x^2n)` below -10 / -20, like JAX and TensorFlow.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

import core.numpy as jnp
from core import lax
from core.custom_derivatives import custom_jvp
from core.nn.activations import log_softmax as _nn_log_softmax
from core.nn.activations import softmax as _nn_softmax
from core.numpy._util import check_arraylike, promote_args_inexact
from core.numpy.logsumexp import logsumexp
from core.scipy.errors import SeriesOrderError, UnsupportedDTypeError
from core.trace import get_aval

__all__ = [
    "spence",
    "erfcx",
    "dawsn",
    "bernoulli",
    "beta",
    "betainc",
    "betaln",
    "comb",
    "digamma",
    "entr",
    "erf",
    "erfc",
    "erfinv",
    "exp1",
    "expit",
    "factorial",
    "gamma",
    "gammainc",
    "gammaincc",
    "gammaln",
    "gammasgn",
    "i0",
    "i0e",
    "i1",
    "i1e",
    "kl_div",
    "log_ndtr",
    "log_softmax",
    "loggamma",
    "logit",
    "logsumexp",
    "multigammaln",
    "ndtr",
    "ndtri",
    "poch",
    "polygamma",
    "rel_entr",
    "softmax",
    "xlog1py",
    "xlogy",
    "zeta",
    "boxcox",
    "boxcox1p",
]


def _dtype(x: Any) -> np.dtype:
    return get_aval(x).dtype


def _real_float(name: str, x: Any) -> Any:
    (x,) = promote_args_inexact(name, x)
    if _dtype(x) not in (np.float32, np.float64):
        raise UnsupportedDTypeError(name, _dtype(x))
    return x


def _quiet(fn):
    """Eager numpy warns about masked-out lanes (`0 * log(0)`); their values are discarded."""

    @functools.wraps(fn)
    def wrapper(*args):
        with np.errstate(all="ignore"):
            return fn(*args)

    return wrapper


def _horner(coeffs: list[float], x: Any) -> Any:
    """`coeffs[0] x^(n-1) + ... + coeffs[-1]` (highest power first, like `polyval`)."""
    acc = jnp.full_like(x, coeffs[0])
    for c in coeffs[1:]:
        acc = acc * x + c
    return acc


# ---------------------------------------------------------------------------------------------
# Gamma family


def gammaln(x: Any) -> Any:
    """The log of the absolute value of the gamma function.

    Args:
      x: real input; integers are promoted to the default float.

    Returns:
      `log|Gamma(x)|` elementwise.
    """
    (x,) = promote_args_inexact("gammaln", x)
    return lax.lgamma(x)


def loggamma(x: Any) -> Any:
    """`gammaln` under scipy's other name (real inputs only).

    Args:
      x: real input; integers are promoted to the default float.

    Returns:
      `log|Gamma(x)|` elementwise.
    """
    check_arraylike("loggamma", x)
    return gammaln(x)


def gammasgn(x: Any) -> Any:
    """The sign of the gamma function (NaN at the poles 0, -1, -2, ... and at NaN).

    Args:
      x: real input.

    Returns:
      `+1`, `-1` or NaN elementwise; `-0.0` gives `-1` like scipy.
    """
    (x,) = promote_args_inexact("gammasgn", x)
    floor_x = jnp.floor(x)
    neg = x < 0
    nan = (neg & (x == floor_x)) | jnp.isnan(x)
    minus = (neg & (jnp.fmod(floor_x, 2) != 0)) | ((x == 0) & jnp.signbit(x))
    return jnp.select([nan, minus], [jnp.full_like(x, np.nan), jnp.full_like(x, -1.0)], 1.0)


def gamma(x: Any) -> Any:
    """The gamma function (real inputs).

    Args:
      x: real input.

    Returns:
      `Gamma(x) = gammasgn(x) * exp(gammaln(x))`.
    """
    (x,) = promote_args_inexact("gamma", x)
    return gammasgn(x) * jnp.exp(lax.lgamma(x))


def betaln(a: Any, b: Any) -> Any:
    """The log of the absolute value of the beta function.

    Args:
      a: first parameter.
      b: second parameter.

    Returns:
      `log|B(a, b)| = gammaln(a) + gammaln(b) - gammaln(a + b)`.
    """
    a, b = promote_args_inexact("betaln", a, b)
    return lax.lgamma(a) + lax.lgamma(b) - lax.lgamma(a + b)


def beta(a: Any, b: Any) -> Any:
    """The beta function `Gamma(a) Gamma(b) / Gamma(a + b)`.

    Args:
      a: first parameter.
      b: second parameter.

    Returns:
      `B(a, b)` with the sign of the gamma factors.
    """
    a, b = promote_args_inexact("beta", a, b)
    sign = gammasgn(a) * gammasgn(b) * gammasgn(a + b)
    return sign * jnp.exp(betaln(a, b))


def betainc(a: Any, b: Any, x: Any) -> Any:
    """The regularized incomplete beta function `I_x(a, b)`.

    Args:
      a: positive parameter.
      b: positive parameter.
      x: point in `[0, 1]`.

    Returns:
      `I_x(a, b)` (differentiable in `x` only, as in JAX).
    """
    return lax.betainc(a, b, x)


def gammainc(a: Any, x: Any) -> Any:
    """The regularized lower incomplete gamma function `P(a, x)`.

    Args:
      a: positive parameter.
      x: nonnegative point.

    Returns:
      `P(a, x)`.
    """
    check_arraylike("gammainc", a, x)
    return lax.igamma(a, x)


def gammaincc(a: Any, x: Any) -> Any:
    """The regularized upper incomplete gamma function `Q(a, x) = 1 - P(a, x)`.

    Args:
      a: positive parameter.
      x: nonnegative point.

    Returns:
      `Q(a, x)`.
    """
    check_arraylike("gammaincc", a, x)
    return lax.igammac(a, x)


def digamma(x: Any) -> Any:
    """The digamma function, the derivative of `gammaln`.

    Args:
      x: real input.

    Returns:
      `psi(x)`.
    """
    (x,) = promote_args_inexact("digamma", x)
    return lax.digamma(x)


def polygamma(n: Any, x: Any) -> Any:
    """The polygamma function `psi^(n)(x)`, the n-th derivative of `digamma`.

    Args:
      n: nonnegative integer order (as an int or float array).
      x: real input.

    Returns:
      `psi^(n)(x)`.
    """
    n, x = promote_args_inexact("polygamma", n, x)
    return lax.polygamma(n, x)


def zeta(x: Any, q: Any = None) -> Any:
    """The Hurwitz zeta function `sum_k (k + q)^-x`.

    Args:
      x: exponent, greater than 1.
      q: shift; required (like JAX, the Riemann zeta `q=None` is not implemented: pass 1).

    Returns:
      `zeta(x, q)`.
    """
    if q is None:
        raise NotImplementedError(
            "Riemann zeta function not implemented; pass q=1 for the Hurwitz zeta at q = 1"
        )
    return lax.zeta(x, q)


def multigammaln(a: Any, d: int) -> Any:
    """The log of the multivariate gamma function of dimension `d`.

    Args:
      a: real input, greater than `(d - 1) / 2`.
      d: the dimension, a Python int.

    Returns:
      `d (d - 1) / 4 log(pi) + sum_{j < d} gammaln(a - j / 2)`.
    """
    d = int(d)
    (a,) = promote_args_inexact("multigammaln", a)
    constant = 0.25 * d * (d - 1) * math.log(math.pi)
    half_j = jnp.arange(d, dtype=_dtype(a)) / 2
    terms = lax.lgamma(jnp.expand_dims(a, -1) - half_j)
    return jnp.sum(terms, axis=-1) + constant


def factorial(n: Any, exact: bool = False) -> Any:
    """The factorial `Gamma(n + 1)` (0 for negative `n`).

    Args:
      n: input values.
      exact: must be False (exact integer arithmetic is not supported, as in JAX).

    Returns:
      `n!` as floats.
    """
    if exact:
        raise NotImplementedError("factorial with exact=True is not supported; use exact=False")
    (n,) = promote_args_inexact("factorial", n)
    return jnp.where(n < 0, jnp.zeros_like(n), jnp.exp(lax.lgamma(n + 1)))


def comb(N: Any, k: Any, *, repetition: bool = False) -> Any:  # noqa: N803  (scipy's name)
    """The number of combinations of `N` things taken `k` at a time.

    Args:
      N: number of things.
      k: number of elements taken.
      repetition: count combinations with repetition.

    Returns:
      `N! / (k! (N - k)!)` as floats, 0 outside `0 <= k <= N`.
    """
    N, k = promote_args_inexact("comb", N, k)
    if repetition:
        return jnp.where((k == 0) & (N >= 0), jnp.ones_like(N), comb(N + k - 1, k))
    ok = (k <= N) & (N >= 0) & (k >= 0)
    safe_n = jnp.where(ok, N, jnp.zeros_like(N))
    safe_k = jnp.where(ok, k, jnp.zeros_like(k))
    out = jnp.exp(lax.lgamma(safe_n + 1) - lax.lgamma(safe_k + 1) - lax.lgamma(safe_n + 1 - safe_k))
    return jnp.where(ok, out, jnp.zeros_like(out))


def poch(z: Any, m: Any) -> Any:
    """The Pochhammer symbol (rising factorial) `Gamma(z + m) / Gamma(z)`.

    Args:
      z: base.
      m: number of factors.

    Returns:
      `(z)_m`, exactly 1 where `m == 0`.
    """
    z, m = promote_args_inexact("poch", z, m)
    return jnp.where(m == 0, jnp.ones_like(z), gamma(z + m) / gamma(z))


# ---------------------------------------------------------------------------------------------
# Error function and the normal distribution


def erf(x: Any) -> Any:
    """The error function.

    Args:
      x: real input.

    Returns:
      `erf(x)`.
    """
    (x,) = promote_args_inexact("erf", x)
    return lax.erf(x)


def erfc(x: Any) -> Any:
    """The complementary error function `1 - erf(x)`, accurate in the tails.

    Args:
      x: real input.

    Returns:
      `erfc(x)`.
    """
    return lax.erfc(x)


def erfinv(x: Any) -> Any:
    """The inverse error function on `(-1, 1)` (`+-inf` at `+-1`, NaN outside).

    Args:
      x: real input.

    Returns:
      `y` with `erf(y) = x`.
    """
    (x,) = promote_args_inexact("erfinv", x)
    return lax.erf_inv(x)


def ndtr(x: Any) -> Any:
    """The standard normal CDF `(1 + erf(x / sqrt 2)) / 2`, using `erfc` in the tails.

    Args:
      x: float32 or float64 input.

    Returns:
      `Phi(x)`.
    """
    x = _real_float("ndtr", jnp.asarray(x))  # sequences convert, as in JAX
    half_sqrt_2 = 0.5 * math.sqrt(2.0)
    w = x * half_sqrt_2
    z = jnp.abs(w)
    y = jnp.where(
        z < half_sqrt_2,
        1.0 + lax.erf(w),
        jnp.where(w > 0, 2.0 - lax.erfc(z), lax.erfc(z)),
    )
    return 0.5 * y


# Cephes ndtri: w + w^3 P0(w^2)/Q0(w^2) near 1/2, z - log(z)/z - P(1/z)/(z Q(1/z)) in the tails.
_NDTRI_P0 = [
    -5.99633501014107895267e1,
    9.80010754185999661536e1,
    -5.66762857469070293439e1,
    1.39312609387279679503e1,
    -1.23916583867381258016e0,
]
_NDTRI_Q0 = [
    1.0,
    1.95448858338141759834e0,
    4.67627912898881538453e0,
    8.63602421390890590575e1,
    -2.25462687854119370527e2,
    2.00260212380060660359e2,
    -8.20372256168333339912e1,
    1.59056225126211695515e1,
    -1.18331621121330003142e0,
]
_NDTRI_P1 = [
    4.05544892305962419923e0,
    3.15251094599893866154e1,
    5.71628192246421288162e1,
    4.40805073893200834700e1,
    1.46849561928858024014e1,
    2.18663306850790267539e0,
    -1.40256079171354495875e-1,
    -3.50424626827848203418e-2,
    -8.57456785154685413611e-4,
]
_NDTRI_Q1 = [
    1.0,
    1.57799883256466749731e1,
    4.53907635128879210584e1,
    4.13172038254672030440e1,
    1.50425385692907503408e1,
    2.50464946208309415979e0,
    -1.42182922854787788574e-1,
    -3.80806407691578277194e-2,
    -9.33259480895457427372e-4,
]
_NDTRI_P2 = [
    3.23774891776946035970e0,
    6.91522889068984211695e0,
    3.93881025292474443415e0,
    1.33303460815807542389e0,
    2.01485389549179081538e-1,
    1.23716634817820021358e-2,
    3.01581553508235416007e-4,
    2.65806974686737550832e-6,
    6.23974539184983293730e-9,
]
_NDTRI_Q2 = [
    1.0,
    6.02427039364742014255e0,
    3.67983563856160859403e0,
    1.37702099489081330271e0,
    2.16236993594496635890e-1,
    1.34204006088543189037e-2,
    3.28014464682127739104e-4,
    2.89247864745380683936e-6,
    6.79019408009981274425e-9,
]


def ndtri(p: Any) -> Any:
    """The inverse of the standard normal CDF.

    Args:
      p: probabilities (float32 or float64); 0 and 1 give `-inf` and `inf`, outside `[0, 1]` NaN.

    Returns:
      `x` with `ndtr(x) = p`.
    """
    p = _real_float("ndtri", p)
    big = -math.expm1(-2.0)  # 1 - exp(-2)
    mcp = jnp.where(p > big, 1.0 - p, p)
    mcp = jnp.where(mcp == 0, jnp.full_like(mcp, 0.5), mcp)
    w = mcp - 0.5
    ww = w * w
    x_mid = w + w * ww * (_horner(_NDTRI_P0, ww) / _horner(_NDTRI_Q0, ww))
    x_mid = x_mid * -math.sqrt(2.0 * math.pi)
    z = jnp.sqrt(-2.0 * jnp.log(mcp))
    first = z - jnp.log(z) / z
    inv_z = 1.0 / z
    x_far = first - _horner(_NDTRI_P2, inv_z) / _horner(_NDTRI_Q2, inv_z) / z
    x_near = first - _horner(_NDTRI_P1, inv_z) / _horner(_NDTRI_Q1, inv_z) / z
    x = jnp.where(mcp > math.exp(-2.0), x_mid, jnp.where(z >= 8.0, x_far, x_near))
    x = jnp.where(p > big, x, -x)
    x = jnp.where(p == 0, jnp.full_like(x, -np.inf), jnp.where(p == 1, jnp.full_like(x, np.inf), x))
    return jnp.where((p < 0) | (p > 1), jnp.full_like(x, np.nan), x)


_LOG_NDTR_SEGMENTS = {np.dtype(np.float32): (-10.0, 5.0), np.dtype(np.float64): (-20.0, 8.0)}


def _log_ndtr_lower(x: Any, series_order: int) -> Any:
    """The asymptotic expansion of `log(ndtr(x))` for very negative `x`."""
    x2 = x * x
    log_scale = -0.5 * x2 - jnp.log(-x) - 0.5 * math.log(2.0 * math.pi)
    series = jnp.ones_like(x)
    x2n = x2
    double_factorial = 1
    for n in range(1, series_order + 1):
        double_factorial *= 2 * n - 1
        term = float(double_factorial) / x2n
        series = series - term if n % 2 else series + term
        x2n = x2n * x2
    return log_scale + jnp.log(series)


def _log_ndtr_impl(x: Any, series_order: int) -> Any:
    lower, upper = _LOG_NDTR_SEGMENTS[_dtype(x)]
    above = x > upper
    ndtr_val = ndtr(jnp.where(above, -x, jnp.maximum(x, lower)))
    low = _log_ndtr_lower(jnp.minimum(x, lower), series_order)
    return jnp.where(above, -ndtr_val, jnp.where(x > lower, jnp.log(ndtr_val), low))


_log_ndtr = custom_jvp(_log_ndtr_impl, nondiff_argnums=(1,))


@_log_ndtr.defjvp
def _log_ndtr_jvp(series_order, primals, tangents):
    (x,), (t,) = primals, tangents
    out = _log_ndtr(x, series_order)
    log_pdf = -0.5 * x * x - 0.5 * math.log(2.0 * math.pi)
    return out, t * jnp.exp(log_pdf - out)


def log_ndtr(x: Any, series_order: int = 3) -> Any:
    """The log of the standard normal CDF, accurate far into both tails.

    Args:
      x: float32 or float64 input.
      series_order: terms of the asymptotic series used for very negative `x` (0 to 30).

    Returns:
      `log(Phi(x))`.
    """
    if not isinstance(series_order, int):
        raise SeriesOrderError(f"series_order must be a Python int, got {series_order!r}")
    if not 0 <= series_order <= 30:
        raise SeriesOrderError(f"series_order must be in [0, 30], got {series_order}")
    return _log_ndtr(_real_float("log_ndtr", jnp.asarray(x)), series_order)  # as `ndtr`


# ---------------------------------------------------------------------------------------------
# Logistic, log-sum-exp, softmax


def expit(x: Any) -> Any:
    """The logistic sigmoid `1 / (1 + exp(-x))`.

    Args:
      x: real input.

    Returns:
      `expit(x)`.
    """
    (x,) = promote_args_inexact("expit", x)
    return lax.logistic(x)


@custom_jvp
def _logit(x: Any) -> Any:
    return jnp.log(x / (1.0 - x))


@_logit.defjvp
def _logit_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return _logit(x), t / (x * (1.0 - x))


def logit(x: Any) -> Any:
    """The logit function `log(x / (1 - x))`, the inverse of `expit`.

    Args:
      x: probabilities.

    Returns:
      `logit(x)` (`-inf` at 0, `inf` at 1, NaN outside `[0, 1]`).
    """
    (x,) = promote_args_inexact("logit", x)
    return _logit(x)


def softmax(x: Any, /, *, axis: int | tuple[int, ...] | None = None) -> Any:
    """The softmax `exp(x) / sum(exp(x))` over `axis`.

    Args:
      x: input array.
      axis: axis or axes to normalize over (all when None, like scipy).

    Returns:
      An array shaped like `x` summing to 1 over `axis`.
    """
    return _nn_softmax(x, axis=axis)


def log_softmax(x: Any, /, *, axis: int | tuple[int, ...] | None = None) -> Any:
    """The log of the softmax over `axis`.

    Args:
      x: input array.
      axis: axis or axes to normalize over (all when None, like scipy).

    Returns:
      `x - logsumexp(x, axis, keepdims=True)`.
    """
    return _nn_log_softmax(x, axis=axis)


# ---------------------------------------------------------------------------------------------
# Entropy-style functions


@custom_jvp
@_quiet
def _xlogy(x: Any, y: Any) -> Any:
    zero = jnp.zeros_like(x)
    return jnp.where((x != 0) | jnp.isnan(y), x * jnp.log(y), zero)


@_xlogy.defjvp
@_quiet
def _xlogy_jvp(primals, tangents):
    (x, y), (tx, ty) = primals, tangents
    return _xlogy(x, y), tx * jnp.log(y) + ty * x / y


def xlogy(x: Any, y: Any) -> Any:
    """`x * log(y)`, defined as 0 where `x == 0` (unless `y` is NaN).

    Args:
      x: multiplier.
      y: argument of the log.

    Returns:
      `x log(y)`.
    """
    x, y = promote_args_inexact("xlogy", x, y)
    return _xlogy(x, y)


@custom_jvp
@_quiet
def _xlog1py(x: Any, y: Any) -> Any:
    zero = jnp.zeros_like(x)
    return jnp.where((x != 0) | jnp.isnan(y), x * jnp.log1p(y), zero)


@_xlog1py.defjvp
@_quiet
def _xlog1py_jvp(primals, tangents):
    (x, y), (tx, ty) = primals, tangents
    return _xlog1py(x, y), tx * jnp.log1p(y) + ty * x / (1.0 + y)


def xlog1py(x: Any, y: Any) -> Any:
    """`x * log1p(y)`, defined as 0 where `x == 0` (unless `y` is NaN).

    Args:
      x: multiplier.
      y: argument of `log1p`.

    Returns:
      `x log(1 + y)`.
    """
    x, y = promote_args_inexact("xlog1py", x, y)
    return _xlog1py(x, y)


@custom_jvp
@_quiet
def _xlogx(x: Any) -> Any:
    return jnp.where(x == 0, jnp.zeros_like(x), x * jnp.log(x))


@_xlogx.defjvp
@_quiet
def _xlogx_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return _xlogx(x), t * (jnp.log(x) + 1.0)


def entr(x: Any) -> Any:
    """The elementwise entropy `-x log(x)` (0 at 0, `-inf` for negative `x`).

    Args:
      x: real input.

    Returns:
      `entr(x)`.
    """
    (x,) = promote_args_inexact("entr", x)
    return jnp.where(x < 0, jnp.full_like(x, -np.inf), -_xlogx(x))


def rel_entr(p: Any, q: Any) -> Any:
    """The elementwise relative entropy `p log(p / q)`.

    Args:
      p: first distribution's values.
      q: second distribution's values.

    Returns:
      `p log(p / q)` where both are positive, 0 where `p == 0 <= q`, `inf` otherwise.
    """
    p, q = promote_args_inexact("rel_entr", p, q)
    both = (p > 0) & (q > 0)
    safe_p = jnp.where(both, p, jnp.ones_like(p))
    safe_q = jnp.where(both, q, jnp.ones_like(q))
    val = _xlogx(safe_p) - _xlogy(safe_p, safe_q)
    edge = jnp.where((p == 0) & (q >= 0), jnp.zeros_like(p), jnp.full_like(p, np.inf))
    return jnp.where(both, val, edge)


def kl_div(p: Any, q: Any) -> Any:
    """The elementwise Kullback-Leibler divergence `p log(p / q) - p + q`.

    Args:
      p: first distribution's values.
      q: second distribution's values.

    Returns:
      `rel_entr(p, q) - p + q`.
    """
    p, q = promote_args_inexact("kl_div", p, q)
    return rel_entr(p, q) - p + q


# ---------------------------------------------------------------------------------------------
# Bessel functions, exponential integral, Box-Cox


def i0e(x: Any) -> Any:
    """The exponentially scaled modified Bessel function of order 0, `exp(-|x|) I0(x)`.

    Args:
      x: real input.

    Returns:
      `i0e(x)`.
    """
    check_arraylike("i0e", x)
    return lax.bessel_i0e(x)


def i1e(x: Any) -> Any:
    """The exponentially scaled modified Bessel function of order 1, `exp(-|x|) I1(x)`.

    Args:
      x: real input.

    Returns:
      `i1e(x)`.
    """
    check_arraylike("i1e", x)
    return lax.bessel_i1e(x)


def i0(x: Any) -> Any:
    """The modified Bessel function of the first kind of order 0.

    Args:
      x: real input.

    Returns:
      `I0(x)`.
    """
    (x,) = promote_args_inexact("i0", x)
    return jnp.exp(jnp.abs(x)) * lax.bessel_i0e(x)


def i1(x: Any) -> Any:
    """The modified Bessel function of the first kind of order 1.

    Args:
      x: real input.

    Returns:
      `I1(x)`.
    """
    (x,) = promote_args_inexact("i1", x)
    return jnp.exp(jnp.abs(x)) * lax.bessel_i1e(x)


def exp1(x: Any) -> Any:
    """The exponential integral `E1(x) = int_x^inf exp(-t) / t dt` for `x > 0`.

    Computed as `Gamma(0, x)` through the continued fraction of `igammac`'s tail for `x >= 1`
    and the convergent series `-euler - log(x) - sum_k (-x)^k / (k k!)` below.

    Args:
      x: real input (`inf` at 0, NaN for negative `x`).

    Returns:
      `E1(x)`.
    """
    (x,) = promote_args_inexact("exp1", x)
    small = x < 1.0
    xs = jnp.where(small, x, jnp.zeros_like(x))
    series = jnp.zeros_like(x)
    term = jnp.ones_like(x)
    for k in range(1, 25):
        term = term * -xs / k
        series = series + term / k
    euler = 0.5772156649015329
    low = -euler - jnp.log(x) - series
    xl = jnp.where(small, jnp.ones_like(x), x)
    # Lentz continued fraction E1(x) = exp(-x) / (x + 1 / (1 + 1 / (x + 2 / (1 + 2 / (x + ...
    # written in the even form  exp(-x) / (x + 1 - 1^2/(x + 3 - 2^2/(x + 5 - ...))).
    frac = xl + (2 * 40 + 1)
    for k in range(40, 0, -1):
        frac = xl + (2 * k - 1) - (k * k) / frac
    high = jnp.exp(-xl) / frac
    out = jnp.where(small, low, high)
    return jnp.where(x < 0, jnp.full_like(x, np.nan), out)


def boxcox(x: Any, lmbda: Any) -> Any:
    """The Box-Cox transformation `(x^l - 1) / l` (`log(x)` at `l == 0`).

    Args:
      x: positive data.
      lmbda: the transformation parameter.

    Returns:
      The transformed data.
    """
    x, lmbda = promote_args_inexact("boxcox", x, lmbda)
    zero = lmbda == 0
    safe = jnp.where(zero, jnp.ones_like(lmbda), lmbda)
    log_x = jnp.log(x)
    return jnp.where(zero, log_x, jnp.expm1(safe * log_x) / safe)


def boxcox1p(x: Any, lmbda: Any) -> Any:
    """The Box-Cox transformation of `1 + x`.

    Args:
      x: data greater than -1.
      lmbda: the transformation parameter.

    Returns:
      `((1 + x)^l - 1) / l` (`log1p(x)` at `l == 0`).
    """
    x, lmbda = promote_args_inexact("boxcox1p", x, lmbda)
    zero = lmbda == 0
    safe = jnp.where(zero, jnp.ones_like(lmbda), lmbda)
    log1p_x = jnp.log1p(x)
    return jnp.where(zero, log1p_x, jnp.expm1(safe * log1p_x) / safe)


# ---------------------------------------------------------------------------------------------
# erfcx, dawsn, spence, bernoulli (JAX's implementations: Cephes / Cody's approximations)


@_quiet
def _erfcx_impl(x: Any, nterms: int) -> Any:
    # Above sqrt(log(max)) exp(x^2) overflows: the asymptotic series
    # erfcx(x) ~ P(1/x^2) / (sqrt(pi) x), P's coefficients (-1)^k (2k-1)!! / 2^k.
    coeffs = [7918.06640625, -1055.7421875, 162.421875, -29.53125, 6.5625, -1.875, 0.75, -0.5, 1.0]
    large = x > float(np.sqrt(np.log(jnp.finfo(x.dtype).max)))
    safe = jnp.where(large, jnp.ones_like(x), x)
    direct = jnp.exp(safe * safe) * lax.erfc(safe)
    t = 1.0 / (x * x)
    asymp = jnp.polyval(np.array(coeffs[-nterms:], dtype=x.dtype), t) / (x * math.sqrt(math.pi))
    return jnp.where(large, asymp, direct)


@custom_jvp
def _erfcx(x: Any) -> Any:
    if x.dtype == np.float64:
        return _erfcx_impl(x, 9)
    if x.dtype == np.float32:
        return _erfcx_impl(x, 5)
    return _erfcx_impl(x.astype(np.float32), 5).astype(x.dtype)


@_erfcx.defjvp
def _erfcx_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    ans = _erfcx(x)
    return ans, t * (2 * x * ans - 2.0 / math.sqrt(math.pi))


def erfcx(x: Any) -> Any:
    """The scaled complementary error function `exp(x^2) erfc(x)` (real arguments; JAX's
    complex ones go through `wofz`, which numbax does not have).

    Args:
      x: real values.

    Returns:
      `erfcx(x)`, finite for large `x` (an asymptotic series past `exp`'s overflow).
    """
    (x,) = promote_args_inexact("erfcx", x)
    if jnp.issubdtype(x.dtype, np.complexfloating):
        raise NotImplementedError("erfcx of complex values (JAX's wofz) is not implemented.")
    return _erfcx(x)


# Cody, Paciorek and Thacher (1970): rational approximations on |x| < 3.25, < 6.25 and beyond.
_DAWSN_AN = [1.1368149897175597e-11, 8.492622676674738e-10, 1.9443420417555306e-08,
             9.531517412544844e-07, 3.078283098749132e-06, 0.00035251336852028877,
             -0.0008501498467244109, 0.04226182230055466, -0.09174803717734524, 1.0]  # fmt: skip
_DAWSN_AD = [2.403720730667626e-11, 1.488646813684934e-09, 5.212652810105416e-08,
             1.2725847827318697e-06, 2.324902498207895e-05, 0.00032552474182605793,
             0.003488058146571626, 0.027944853119882897, 0.15887424196012057,
             0.5749186294893204, 1.0]  # fmt: skip
_DAWSN_BN = [0.5089551564179009, -0.24475441814269785, 0.09415123353035344,
             -0.021871125514203903, 0.003662076123295692, -0.0004232091144603888,
             3.5964130479389666e-05, -2.1464035171996896e-06, 9.100107800763914e-08,
             -2.4027452082825098e-09, 3.592333854409284e-11]  # fmt: skip
_DAWSN_BD = [1.0, -0.6318398698733682, 0.2367067882282487, -0.053180636700322324,
             0.008480417185862954, -0.0009479967684866654, 7.810255929445524e-05,
             -4.558751532524426e-06, 1.8910035811142186e-07, -4.913246913319206e-09,
             7.184664032357345e-11]  # fmt: skip
_DAWSN_CN = [-0.5905928605347732, 0.6292352427243688, -0.17285897538038814,
             0.016483704782518965, -0.0004868276130204627]  # fmt: skip
_DAWSN_CD = [1.0, -2.698200571975449, 1.7327079904594784, -0.3937085822819395,
             0.03442789240412334, -0.0009736552260409412]  # fmt: skip


@_quiet
def _dawsn_impl(x: Any) -> Any:
    ax = jnp.abs(x)
    one = jnp.ones_like(ax)
    dt = x.dtype

    def ratio(num: list, den: list, v: Any) -> Any:
        return jnp.polyval(np.array(num, dt), v) / jnp.polyval(np.array(den, dt), v)

    r1 = jnp.where(ax < 3.25, ax, one)
    val1 = r1 * ratio(_DAWSN_AN, _DAWSN_AD, r1 * r1)
    middle = (ax >= 3.25) & (ax < 6.25)
    t = 1.0 / (ax * ax)
    t2, a2 = jnp.where(middle, t, one), jnp.where(middle, ax, one)
    val2 = 0.5 / a2 * (1.0 + t2 * ratio(_DAWSN_BN, _DAWSN_BD, t2))
    far = ax >= 6.25
    t3, a3 = jnp.where(far, t, one), jnp.where(far, ax, one)
    val3 = 0.5 / a3 * (1.0 + t3 * ratio(_DAWSN_CN, _DAWSN_CD, t3))
    return jnp.sign(x) * jnp.where(ax < 3.25, val1, jnp.where(ax < 6.25, val2, val3))


@custom_jvp
def _dawsn(x: Any) -> Any:
    if x.dtype in (np.float32, np.float64):
        return _dawsn_impl(x)
    return _dawsn_impl(x.astype(np.float32)).astype(x.dtype)


@_dawsn.defjvp
def _dawsn_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    ans = _dawsn(x)
    return ans, t * (1.0 - 2.0 * x * ans)


def dawsn(x: Any) -> Any:
    """Dawson's integral `exp(-x^2) * integral_0^x exp(t^2) dt`.

    Args:
      x: real values.

    Returns:
      `dawsn(x)`.

    Raises:
      ValueError: complex `x` (as in JAX).
    """
    (x,) = promote_args_inexact("dawsn", x)
    if jnp.issubdtype(x.dtype, np.complexfloating):
        raise ValueError("dawsn does not support complex-valued inputs.")
    return _dawsn(x)


_SPENCE_A = [4.6512858607399003e-05, 0.007315890452380947, 0.13384763957830903,
             0.8796913117545303, 2.7114985119655346, 4.256971560081218, 3.297713409852251,
             1.0]  # fmt: skip
_SPENCE_B = [0.0006909904889125533, 0.02540437639325444, 0.2829748606025681,
             1.4117259775183106, 3.6380053334513707, 5.03278880143317, 3.547713409852251,
             1.0]  # fmt: skip


@_quiet
def _spence_calc(x: Any) -> Any:
    above2 = x > 2.0
    x = jnp.piecewise(x, [above2], [lambda v: 1.0 / v, lambda v: v])
    above15, below05 = x > 1.5, x < 0.5
    above2 = above2 | above15
    w = jnp.piecewise(
        x, [above15, below05], [lambda v: 1.0 / v - 1.0, lambda v: -v, lambda v: v - 1.0]
    )
    a, b = np.array(_SPENCE_A, w.dtype), np.array(_SPENCE_B, w.dtype)
    y = -w * jnp.polyval(a, w) / jnp.polyval(b, w)
    y = jnp.where(below05, np.pi**2 / 6.0 - jnp.log(x) * jnp.log(1.0 - x) - y, y)
    return jnp.where(above2, -0.5 * jnp.log(x) ** 2 - y, y)


def spence(x: Any) -> Any:
    """Spence's function (the dilogarithm) `integral_1^x log(t) / (1 - t) dt` for `x >= 0`.

    Args:
      x: float32 or float64 values.

    Returns:
      `spence(x)`; NaN for negative `x`.

    Raises:
      TypeError: another dtype (as in JAX).
    """
    x = jnp.asarray(x)
    if x.dtype not in (np.float32, np.float64):
        raise TypeError(f"x.dtype={x.dtype} is not supported, see docstring for supported types.")
    return jnp.piecewise(x, [x < 0.0, x == 1.0, x == 0.0], [np.nan, 0, np.pi**2 / 6, _spence_calc])


def bernoulli(n: int) -> Any:
    """The Bernoulli numbers `B_0 ... B_n` (`B_1 = -1/2`).

    Args:
      n: a concrete non-negative int.

    Returns:
      `(n + 1,)` floats in the default float dtype.
    """
    n = int(n)
    if n < 0:
        raise ValueError("n must be a non-negative integer.")
    b3 = jnp.array([1, -1 / 2, 1 / 6])
    if n < 3:
        return b3[: n + 1]
    bn = jnp.zeros(n + 1).at[:3].set(b3)
    m = jnp.arange(4, n + 1, 2, dtype=bn.dtype)
    q1 = 1.0 / np.pi**2 * jnp.cumprod(-(m - 1) * m / 4 / np.pi**2)
    k = jnp.arange(2, 50, dtype=bn.dtype)
    q2 = jnp.sum(k[:, None] ** (-m[None, :]), axis=0)
    return bn.at[4::2].set(q1 * (1 + q2))
