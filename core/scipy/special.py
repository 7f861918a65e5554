"""`core.scipy.special`: special functions, like `jax.scipy.special`.

Every function promotes its arguments to a common inexact dtype and broadcasts them (integers
become the default float), then composes `core.numpy` / `core.lax` operations, so each one
differentiates, batches and jits like the operations it is made of. Custom derivatives are
attached where the composition would give NaN or poor gradients (`xlogy`/`xlog1py` at `x = 0`,
`log_ndtr` in its asymptotic tail), exactly where JAX attaches them.

Sources of the formulas: `ndtri` is Cephes' three-piece rational approximation; `log_ndtr` uses
`log(ndtr)` in the middle, `-ndtr(-x)` above 5 (float32) / 8 (float64) and the asymptotic
series `log(phi(x)/-x * sum_n (-1)^n (2n-1)!! / x^2n)` below -10 / -20, like JAX and TensorFlow.
`expi`, `expn`, `sici` and `fresnel` are power series and continued fractions (Numerical
Recipes' methods), `wofz` Weideman's rational approximation (coefficients computed here with
numpy's FFT), `owens_t` Gauss-Legendre quadrature, `bessel_jn` Miller's backward recurrence,
`hyp1f1`/`hyp2f1` JAX's series and case analysis, each series a `while_loop` over all elements;
they carry JAX's custom derivatives.
"""

from __future__ import annotations

import functools
import math
import operator
from typing import Any

import numpy as np

import core.numpy as jnp
from core import dtypes, lax
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
    "bessel_jn",
    "expi",
    "expn",
    "fresnel",
    "hyp1f1",
    "hyp2f1",
    "owens_t",
    "sici",
    "sph_harm_y",
    "wofz",
]


def _dtype(x: Any) -> np.dtype:
    return get_aval(x).dtype


def _real_float(name: str, x: Any) -> Any:
    """`x` as a strongly typed float32/float64 array (JAX's results are strong, its constants
    being so); other dtypes raise, integers too (JAX does not promote them here)."""
    check_arraylike(name, x)
    dt = dtypes.dtype_and_weak(x)[0]
    if dt not in (np.float32, np.float64):
        raise UnsupportedDTypeError(name, dt)
    return lax.convert_element_type(x, dt)


def _strong(x: Any) -> Any:
    """`x` strongly typed: where JAX's formula mixes in a numpy constant (`typ(np.nan)`,
    `_lax_const`), its result is strong even for Python-scalar inputs."""
    return lax.convert_element_type(x, _dtype(x))


def _real_only(name: str, x: Any) -> None:
    """JAX's ValueError for the functions defined on real inputs only (`x` promoted)."""
    if dtypes.kind(_dtype(x)) == "c":
        raise ValueError(f"{name} does not support complex-valued inputs.")


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


# Lanczos coefficients for g=7, N=9 (GSL's lanczos_7_c, as JAX's complex gamma uses them).
_LANCZOS_G = 7.0
_LANCZOS_COEFFS = np.array(
    [
        0.99999999999980993,
        676.5203681218851,
        -1259.1392167224028,
        771.32342877765313,
        -176.61502916214059,
        12.507343278686905,
        -0.13857109526572012,
        9.9843695780195716e-6,
        1.5056327351493116e-7,
    ]
)


def _complex_loggamma(z: Any) -> Any:
    """log Gamma(z) for complex `z` by the Lanczos approximation, with the reflection formula
    for Re(z) < 0.5 (JAX's `_complex_loggamma`)."""
    dt = _dtype(z)
    needs_reflection = jnp.real(z) < 0.5
    zz = jnp.where(needs_reflection, 1.0 - z, z) - 1.0
    coeffs = jnp.asarray(_LANCZOS_COEFFS, dtype=dt)
    ks = jnp.arange(1, 9, dtype=dt)
    ag = coeffs[0] + jnp.sum(coeffs[1:] / (jnp.expand_dims(zz, -1) + ks), axis=-1)
    t = zz + _LANCZOS_G + 0.5
    half_log2pi = jnp.asarray(0.5 * np.log(2.0 * np.pi), dtype=dt)
    lanczos = half_log2pi + (zz + 0.5) * jnp.log(t) - t + jnp.log(ag)
    # A safe value in the unselected lanes, so that no NaN reaches the gradients.
    z_safe = jnp.where(needs_reflection, z, jnp.full_like(z, 0.5))
    reflected = jnp.log(jnp.asarray(np.pi, dtype=dt)) - jnp.log(jnp.sin(np.pi * z_safe)) - lanczos
    return jnp.where(needs_reflection, reflected, lanczos)


def _complex_poles(z: Any) -> tuple[Any, Any]:
    """(where `z` is NaN or a pole 0, -1, -2, ..., `z` with those lanes set to 1)."""
    re = jnp.real(z)
    bad = ((jnp.imag(z) == 0) & (re == jnp.floor(re)) & (re <= 0)) | jnp.isnan(z)
    return bad, jnp.where(bad, jnp.ones_like(z), z)


def _complex_loggamma_scipy(z: Any) -> Any:
    """The principal branch of log Gamma(z) with scipy's single cut on the negative real axis:
    z is shifted right by n, `loggamma(z) = loggamma(z + n) - sum_{k<n} log(z + k)` (JAX's
    `_complex_loggamma_scipy`); NaN+NaNj at the poles and at NaN."""
    bad, z_safe = _complex_poles(z)
    # The shift is one loop step per unit: JAX's loop runs ~2**31 steps for Re z = -inf or
    # -1e30 (it hangs); numbax shifts at most 2**16 and leaves non-finite z to the Lanczos
    # formula (NaN or inf), where the reflection's branch cuts apply.
    re = jnp.real(z_safe)
    shift = jnp.minimum(jnp.ceil(0.5 - jnp.where(jnp.isfinite(re), re, 0.5)), 2.0**16)
    n = jnp.maximum(0, shift.astype(int))

    def body(state):
        k, sum_log = state
        mask = k < n
        zk = jnp.where(mask, z_safe + k, jnp.ones_like(z_safe))
        return k + 1, sum_log + jnp.where(mask, jnp.log(zk), jnp.zeros_like(sum_log))

    cond = lambda state: jnp.any(state[0] < n)  # noqa: E731
    _, sum_log = lax.while_loop(cond, body, (0, jnp.zeros_like(z_safe)))
    res = _complex_loggamma(z_safe + n) - sum_log
    return jnp.where(bad, jnp.array(complex(np.nan, np.nan), dtype=_dtype(z)), res)


def loggamma(x: Any) -> Any:
    """The principal branch of `log(Gamma(x))`: for real `x`, `gammaln` for x > 0 and NaN for
    x <= 0 (where the real logarithm of Gamma is complex); for complex `x`, scipy's branch (one
    cut on the negative real axis), as JAX's.

    Args:
      x: real or complex input; integers are promoted to the default float.

    Returns:
      `log(Gamma(x))` elementwise, complex for complex `x`.
    """
    (x,) = promote_args_inexact("loggamma", x)
    if dtypes.kind(_dtype(x)) == "c":
        return _complex_loggamma_scipy(x)
    return jnp.where(x > 0, gammaln(x), np.nan)


def gammasgn(x: Any) -> Any:
    """The sign of the gamma function (NaN at the poles 0, -1, -2, ... and at NaN).

    Args:
      x: real input.

    Returns:
      `+1`, `-1` or NaN elementwise; `-0.0` gives `-1` like scipy.
    """
    (x,) = promote_args_inexact("gammasgn", x)
    _real_only("gammasgn", x)
    floor_x = jnp.floor(x)
    neg = x < 0
    nan = (neg & (x == floor_x)) | jnp.isnan(x)
    minus = (neg & (jnp.fmod(floor_x, 2) != 0)) | ((x == 0) & jnp.signbit(x))
    out = jnp.select([nan, minus], [jnp.full_like(x, np.nan), jnp.full_like(x, -1.0)], 1.0)
    return _strong(out)


def gamma(x: Any) -> Any:
    """The gamma function.

    Args:
      x: real or complex input.

    Returns:
      `Gamma(x) = gammasgn(x) * exp(gammaln(x))` for real `x`; for complex `x`
      `exp(log Gamma(x))` by the Lanczos approximation, NaN+NaNj at the poles 0, -1, ...
    """
    (x,) = promote_args_inexact("gamma", x)
    if dtypes.kind(_dtype(x)) == "c":
        bad, z_safe = _complex_poles(x)
        nan = jnp.array(complex(np.nan, np.nan), dtype=_dtype(x))
        return jnp.where(bad, nan, jnp.exp(_complex_loggamma(z_safe)))
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
    _real_only("beta", a)
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
    a, b, x = promote_args_inexact("betainc", a, b, x)
    _real_only("betainc", a)
    return lax.betainc(a, b, x)


def gammainc(a: Any, x: Any) -> Any:
    """The regularized lower incomplete gamma function `P(a, x)`.

    Args:
      a: positive parameter.
      x: nonnegative point.

    Returns:
      `P(a, x)`.
    """
    return lax.igamma(*promote_args_inexact("gammainc", a, x))


def gammaincc(a: Any, x: Any) -> Any:
    """The regularized upper incomplete gamma function `Q(a, x) = 1 - P(a, x)`.

    Args:
      a: positive parameter.
      x: nonnegative point.

    Returns:
      `Q(a, x)`.
    """
    return lax.igammac(*promote_args_inexact("gammaincc", a, x))


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
      n: nonnegative integer order, of an integer dtype (a float order raises ValueError,
        as in JAX).
      x: real input.

    Returns:
      `psi^(n)(x)`.
    """
    check_arraylike("polygamma", n, x)
    n_dtype = dtypes.dtype_and_weak(n)[0]
    if dtypes.kind(n_dtype) not in "iu":
        raise ValueError(f"Argument `n` to polygamma must be of integer type. Got dtype {n_dtype}.")
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
    return lax.zeta(*promote_args_inexact("zeta", x, q))


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
    _real_only("jnp.poch", z)
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
    return lax.erfc(*promote_args_inexact("erfc", x))


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
    _real_only("entr", x)
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
    _real_only("rel_entr", p)
    both = (p > 0) & (q > 0)
    safe_p = jnp.where(both, p, jnp.ones_like(p))
    safe_q = jnp.where(both, q, jnp.ones_like(q))
    val = _xlogx(safe_p) - _xlogy(safe_p, safe_q)
    edge = jnp.where((p == 0) & (q >= 0), jnp.zeros_like(p), jnp.full_like(p, np.inf))
    out = jnp.where(both, val, edge)
    # JAX's zero (`lax._const`) is a Python scalar beside a weak scalar, else a strong array
    return out if get_aval(out).ndim == 0 else _strong(out)


def kl_div(p: Any, q: Any) -> Any:
    """The elementwise Kullback-Leibler divergence `p log(p / q) - p + q`.

    Args:
      p: first distribution's values.
      q: second distribution's values.

    Returns:
      `rel_entr(p, q) - p + q`.
    """
    p, q = promote_args_inexact("kl_div", p, q)
    _real_only("kl_div", p)
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
    return lax.bessel_i0e(*promote_args_inexact("i0e", x))


def i1e(x: Any) -> Any:
    """The exponentially scaled modified Bessel function of order 1, `exp(-|x|) I1(x)`.

    Args:
      x: real input.

    Returns:
      `i1e(x)`.
    """
    return lax.bessel_i1e(*promote_args_inexact("i1e", x))


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
    _real_only("exp1", x)
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
    return _strong(jnp.where(x < 0, jnp.full_like(x, np.nan), out))


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


# ---------------------------------------------------------------------------------------------
# Exponential, sine/cosine and Fresnel integrals
#
# Each is a power series near 0 and a continued fraction (Lentz's method, a fixed number of
# steps in a `fori_loop`) or an asymptotic series away from it, as in Numerical Recipes'
# `expint`, `ei`, `cisi` and `frenel`. The complex continued fractions of `sici` and `fresnel`
# are carried as (real, imaginary) pairs of the input's real dtype.

_EULER = 0.5772156649015329


def _cdiv(ar: Any, ai: Any, br: Any, bi: Any) -> tuple[Any, Any]:
    """(ar + i ai) / (br + i bi) in real arithmetic."""
    den = br * br + bi * bi
    return (ar * br + ai * bi) / den, (ai * br - ar * bi) / den


def _cmul(ar: Any, ai: Any, br: Any, bi: Any) -> tuple[Any, Any]:
    return ar * br - ai * bi, ar * bi + ai * br


def _complex_lentz(b0r: Any, b0i: Any, a_of: Any, b_step: float, steps: int) -> tuple[Any, Any]:
    """The continued fraction `1 / (b0 + a_1 / (b0 + s + a_2 / (b0 + 2 s + ...)))` with real
    partial numerators `a_of(k)` (k = 1, 2, ...) and complex denominators stepping by the real
    `b_step`, by Lentz's method."""
    tiny = 1e30

    def body(k, carry):
        br, bi, cr, ci, dr, di, hr, hi = carry
        a = a_of(k.astype(br.dtype))
        br = br + b_step
        dr, di = _cdiv(jnp.ones_like(br), jnp.zeros_like(br), a * dr + br, a * di + bi)
        qr, qi = _cdiv(a, jnp.zeros_like(a), cr, ci)
        cr, ci = br + qr, bi + qi
        er, ei = _cmul(cr, ci, dr, di)
        hr, hi = _cmul(hr, hi, er, ei)
        return br, bi, cr, ci, dr, di, hr, hi

    dr, di = _cdiv(jnp.ones_like(b0r), jnp.zeros_like(b0r), b0r, b0i)
    init = (b0r, b0i, jnp.full_like(b0r, tiny), jnp.zeros_like(b0r), dr, di, dr, di)
    out = lax.fori_loop(1, steps, body, init)
    return out[6], out[7]


def _expi_impl(x: Any) -> Any:
    pos = jnp.where(x > 0, x, jnp.ones_like(x))
    small = jnp.minimum(pos, 40.0)

    def series(k, carry):
        term, total = carry
        term = term * small / k.astype(x.dtype)
        return term, total + term / k.astype(x.dtype)

    _, total = lax.fori_loop(1, 130, series, (jnp.ones_like(x), jnp.zeros_like(x)))
    low = _EULER + jnp.log(small) + total
    big = jnp.maximum(pos, 40.0)
    asym = jnp.ones_like(x)
    term = jnp.ones_like(x)
    for k in range(1, 31):
        term = term * k / big
        asym = asym + term
    high = jnp.exp(big - jnp.log(big)) * asym
    positive = jnp.where(pos <= 40.0, low, high)
    negative = -exp1(jnp.where(x < 0, -x, jnp.ones_like(x)))
    out = jnp.where(x > 0, positive, negative)
    return jnp.where(x == 0, jnp.full_like(x, -np.inf), out)


@custom_jvp
def _expi(x: Any) -> Any:
    return _expi_impl(x)


@_expi.defjvp
def _expi_jvp(primals, tangents):
    (x,), (dx,) = primals, tangents
    return _expi(x), jnp.exp(x) / x * dx


def expi(x: Any) -> Any:
    """The exponential integral `Ei(x) = int_-inf^x exp(t) / t dt`, as `jax.scipy.special.expi`.

    The series `euler + log x + sum x^k / (k k!)` up to 40, its asymptotic expansion beyond,
    and `-E1(-x)` for negative `x`; the derivative is `exp(x) / x`.

    Args:
      x: real input.

    Returns:
      `Ei(x)` (`-inf` at 0).
    """
    (x,) = promote_args_inexact("expi", x)
    if _dtype(x).kind == "c":
        raise ValueError("expi does not support complex-valued inputs.")
    return _quiet(_expi)(x)


def _expn_impl(n: Any, x: Any) -> Any:
    nm1 = n - 1.0
    xs = jnp.where((x > 0) & (x <= 1.0), x, jnp.ones_like(x))
    psi = lax.digamma(jnp.maximum(n, 1.0))
    start = jnp.where(nm1 != 0, 1.0 / jnp.where(nm1 != 0, nm1, 1.0), -jnp.log(xs) - _EULER)

    def series(i, carry):
        fact, total = carry
        fi = i.astype(x.dtype)
        fact = fact * -xs / fi
        at_pole = fi == nm1
        term = jnp.where(
            at_pole, fact * (-jnp.log(xs) + psi), -fact / jnp.where(at_pole, 1.0, fi - nm1)
        )
        return fact, total + term

    _, low = lax.fori_loop(1, 60, series, (jnp.ones_like(x), start))
    xl = jnp.where(x > 1.0, x, jnp.full_like(x, 2.0))

    def fraction(i, carry):
        b, c, d, h = carry
        an = -i.astype(x.dtype) * (nm1 + i.astype(x.dtype))
        b = b + 2.0
        d = 1.0 / (an * d + b)
        c = b + an / c
        return b, c, d, h * c * d

    b0 = xl + n
    _, _, _, h = lax.fori_loop(1, 100, fraction, (b0, jnp.full_like(x, 1e30), 1.0 / b0, 1.0 / b0))
    high = h * jnp.exp(-xl)
    out = jnp.where(x > 1.0, high, low)
    out = jnp.where(n == 0, jnp.exp(-x) / x, out)
    at_zero = jnp.where(n > 1, 1.0 / jnp.where(n > 1, nm1, 1.0), jnp.full_like(x, np.inf))
    out = jnp.where(x == 0, at_zero, out)
    return jnp.where((n < 0) | (x < 0) | jnp.isnan(x), jnp.full_like(x, np.nan), out)


@functools.partial(custom_jvp, nondiff_argnums=(0,))
def _expn(n: Any, x: Any) -> Any:
    return _expn_impl(n, x)


@_expn.defjvp
def _expn_jvp(n, primals, tangents):
    (x,), (dx,) = primals, tangents
    return _expn(n, x), -dx * _expn(n - 1.0, x)


def expn(n: Any, x: Any) -> Any:
    """The generalized exponential integral `E_n(x) = int_1^inf exp(-x t) / t^n dt`, as
    `jax.scipy.special.expn` (differentiable in `x`).

    A power series for `x <= 1`, a continued fraction beyond (Numerical Recipes' `expint`).

    Args:
      n: integer order (NaN for `n < 0`).
      x: real input (NaN for `x < 0`).

    Returns:
      `E_n(x)`, in the promoted dtype of `n` and `x`.
    """
    n, x = promote_args_inexact("expn", n, x)
    n, x = jnp.broadcast_arrays(n, x)
    return _quiet(_expn)(n, x)


def _sici_impl(x: Any) -> tuple[Any, Any]:
    ax = jnp.abs(x)
    small = jnp.where(ax <= 4.0, ax, jnp.ones_like(ax))
    si_s, ci_s = jnp.zeros_like(ax), jnp.zeros_like(ax)
    term = jnp.ones_like(ax)  # x^j / j!
    for j in range(1, 40):
        term = term * small / j
        if j % 2:
            si_s = si_s + (-1) ** (j // 2) * term / j
        else:
            ci_s = ci_s + (-1) ** (j // 2) * term / j
    ci_s = ci_s + _EULER + jnp.log(small)
    t = jnp.where(ax > 4.0, ax, jnp.full_like(ax, 5.0))
    hr, hi = _complex_lentz(jnp.ones_like(t), t, lambda k: -(k * k), 2.0, 100)  # E1(i t) exp(i t)
    hr, hi = _cmul(jnp.cos(t), -jnp.sin(t), hr, hi)
    si_l, ci_l = np.pi / 2 + hi, -hr
    si = jnp.where(ax <= 4.0, si_s, si_l)
    ci = jnp.where(ax <= 4.0, ci_s, ci_l)
    si = jnp.where(jnp.isinf(ax), jnp.full_like(ax, np.pi / 2), si)
    ci = jnp.where(jnp.isinf(ax), jnp.zeros_like(ax), ci)
    ci = jnp.where(ax == 0, jnp.full_like(ax, -np.inf), ci)
    return jnp.sign(x) * si, jnp.where(x == -np.inf, jnp.full_like(ax, np.nan), ci)


@custom_jvp
def _sici(x: Any) -> tuple[Any, Any]:
    return _sici_impl(x)


@_sici.defjvp
def _sici_jvp(primals, tangents):
    (x,), (dx,) = primals, tangents
    si, ci = _sici(x)
    return (si, ci), (jnp.sinc(x / np.pi) * dx, jnp.cos(x) / x * dx)


def sici(x: Any) -> tuple[Any, Any]:
    """The sine and cosine integrals `Si(x) = int_0^x sin t / t dt` and
    `Ci(x) = euler + log|x| + int_0^|x| (cos t - 1) / t dt`, as `jax.scipy.special.sici`.

    Power series for `|x| <= 4`, the continued fraction of `E1(i x)` beyond.

    Args:
      x: real input.

    Returns:
      `(Si(x), Ci(x))` (`Ci` of `|x|` for negative `x`, as JAX).
    """
    (x,) = promote_args_inexact("sici", x)
    if _dtype(x).kind == "c":
        raise ValueError(f"Argument `x` to sici must be real-valued. Got dtype {_dtype(x)}.")
    return _quiet(_sici)(x)


def _fresnel_impl(x: Any) -> tuple[Any, Any]:
    ax = jnp.abs(x)
    small = jnp.where(ax < 1.5, ax, jnp.ones_like(ax))
    s_s, c_s = jnp.zeros_like(ax), jnp.zeros_like(ax)
    u = np.pi / 2 * small * small
    term = small  # x (pi x^2 / 2)^k / k!
    for k in range(30):
        if k:
            term = term * u / k
        if k % 2:
            s_s = s_s + (-1) ** (k // 2) * term / (2 * k + 1)
        else:
            c_s = c_s + (-1) ** (k // 2) * term / (2 * k + 1)
    t = jnp.where(ax >= 1.5, ax, jnp.full_like(ax, 2.0))
    pix2 = np.pi * t * t
    hr, hi = _complex_lentz(jnp.ones_like(t), -pix2, lambda k: -(2 * k - 1) * (2 * k), 4.0, 60)
    hr, hi = _cmul(t, -t, hr, hi)
    er, ei = _cmul(jnp.cos(0.5 * pix2), jnp.sin(0.5 * pix2), hr, hi)
    c_l, s_l = _cmul(0.5 * jnp.ones_like(t), 0.5 * jnp.ones_like(t), 1.0 - er, -ei)
    s = jnp.where(ax < 1.5, s_s, s_l)
    c = jnp.where(ax < 1.5, c_s, c_l)
    s = jnp.where(jnp.isinf(ax), jnp.full_like(ax, 0.5), s)
    c = jnp.where(jnp.isinf(ax), jnp.full_like(ax, 0.5), c)
    return jnp.sign(x) * s, jnp.sign(x) * c


@custom_jvp
def _fresnel(x: Any) -> tuple[Any, Any]:
    return _fresnel_impl(x)


@_fresnel.defjvp
def _fresnel_jvp(primals, tangents):
    (x,), (dx,) = primals, tangents
    s, c = _fresnel(x)
    arg = np.pi / 2 * x * x
    return (s, c), (jnp.sin(arg) * dx, jnp.cos(arg) * dx)


def fresnel(x: Any) -> tuple[Any, Any]:
    """The Fresnel integrals `S(x) = int_0^x sin(pi t^2 / 2) dt` and
    `C(x) = int_0^x cos(pi t^2 / 2) dt`, as `jax.scipy.special.fresnel`.

    Power series for `|x| < 1.5`, a complex continued fraction beyond (Numerical Recipes'
    `frenel`).

    Args:
      x: real input.

    Returns:
      `(S(x), C(x))`.
    """
    (x,) = promote_args_inexact("fresnel", x)
    if _dtype(x).kind == "c":
        raise NotImplementedError("Support for complex-valued inputs is not implemented yet.")
    return _quiet(_fresnel)(x)


# ---------------------------------------------------------------------------------------------
# Faddeeva function


def _weideman_coefficients(n: int) -> tuple[float, np.ndarray]:
    """Weideman's (1994) rational approximation of the Faddeeva function with `n` terms:
    `w(z) = 2 p(Z) / (L - i z)^2 + 1 / (sqrt(pi) (L - i z))`, `Z = (L + i z) / (L - i z)`, with
    `p` the polynomial of the returned coefficients (highest power first) and `L` the returned
    scale. The coefficients are the FFT of `exp(-t^2) (L^2 + t^2)` on the mapped grid."""
    m = 2 * n
    scale = np.sqrt(n / np.sqrt(2))
    k = np.arange(-m + 1, m)
    t = scale * np.tan(k * np.pi / (2 * m))
    f = np.concatenate([[0.0], np.exp(-t * t) * (scale * scale + t * t)])
    a = np.real(np.fft.fft(np.fft.fftshift(f))) / (2 * m)
    return float(scale), a[1 : n + 1][::-1].copy()


_WOFZ_L, _WOFZ_C = _weideman_coefficients(32)


def _wofz_upper(z: Any) -> Any:
    iz = 1j * z
    denom = _WOFZ_L - iz
    big_z = (_WOFZ_L + iz) / denom
    p = jnp.zeros_like(big_z)
    for c in _WOFZ_C:
        p = p * big_z + c
    return 2 * p / (denom * denom) + (1 / np.sqrt(np.pi)) / denom


@custom_jvp
def _wofz(z: Any) -> Any:
    upper = jnp.imag(z) >= 0
    zu = jnp.where(upper, z, -z)
    w = _wofz_upper(zu)
    return jnp.where(upper, w, 2 * jnp.exp(-(z * z)) - w)


@_wofz.defjvp
def _wofz_jvp(primals, tangents):
    (z,), (dz,) = primals, tangents
    w = _wofz(z)
    return w, (-2 * z * w + 2j / np.sqrt(np.pi)) * dz


def wofz(z: Any) -> Any:
    """The Faddeeva function `w(z) = exp(-z^2) erfc(-i z)`, as `jax.scipy.special.wofz`.

    Weideman's rational approximation with 32 terms in the upper half plane and
    `w(z) = 2 exp(-z^2) - w(-z)` in the lower one; the derivative is `-2 z w + 2i / sqrt(pi)`.

    Args:
      z: real or complex input.

    Returns:
      complex `w(z)` (complex64, or complex128 with x64).
    """
    check_arraylike("wofz", z)
    (z,) = promote_args_inexact("wofz", z)
    dt = _dtype(z)
    if dt.kind != "c":
        z = z.astype(np.complex128 if dt == np.float64 else np.complex64)
    return _wofz(z)


# ---------------------------------------------------------------------------------------------
# Owen's T function

# Gauss-Legendre nodes and weights on [0, 1] for the integral over the mapped variable.
_OWENS_NODES, _OWENS_WEIGHTS = np.polynomial.legendre.leggauss(24)
_OWENS_NODES = (_OWENS_NODES + 1) / 2
_OWENS_WEIGHTS = _OWENS_WEIGHTS / 2


def _owens_t_quadrature(h: Any, a: Any) -> Any:
    """`T(h, a)` for `0 <= a <= 1`: the integral `a / (2 pi) int_0^1 exp(-h^2 (1 + a^2 t^2) / 2)
    / (1 + a^2 t^2) dt` by Gauss-Legendre quadrature."""
    r = (a * a)[..., None] * (_OWENS_NODES * _OWENS_NODES).astype(_dtype(a))
    f = jnp.exp(-0.5 * (h * h)[..., None] * (1.0 + r)) / (1.0 + r)
    return a * (f @ _OWENS_WEIGHTS.astype(_dtype(a))) / (2 * np.pi)


@custom_jvp
def _owens_t(h: Any, a: Any) -> Any:
    h = jnp.abs(h)
    abs_a = jnp.abs(a)
    inside = abs_a <= 1.0
    a_in = jnp.where(inside, abs_a, 1.0 / jnp.where(abs_a == 0, 1.0, abs_a))
    h_in = jnp.where(inside, h, abs_a * h)
    t = _owens_t_quadrature(h_in, a_in)
    root2 = np.sqrt(2.0)
    # T(h, a) = (Phi(h) + Phi(ah)) / 2 - Phi(h) Phi(ah) - T(ah, 1/a) - [h < 0] / 2 for a > 1,
    # written with erfc for h >= 0: Phi(-h) = erfc(h / sqrt 2) / 2.
    qh = lax.erfc(h / root2) / 2
    qah = lax.erfc(abs_a * h / root2) / 2
    outside = (qh + qah) / 2 - qh * qah - t
    out = jnp.where(inside, t, outside)
    out = jnp.sign(a) * out
    return jnp.where(jnp.isnan(a) | jnp.isnan(h), jnp.full_like(out, np.nan), out)


@_owens_t.defjvp
def _owens_t_jvp(primals, tangents):
    (h, a), (dh, da) = primals, tangents
    out = _owens_t(h, a)
    d_h = -jnp.exp(-0.5 * h * h) * lax.erf(a * h / np.sqrt(2.0)) / (2 * np.sqrt(2 * np.pi))
    d_a = jnp.exp(-0.5 * (a * a + 1.0) * h * h) / (2 * np.pi * (a * a + 1.0))
    return out, d_h * dh + d_a * da


def owens_t(h: Any, a: Any) -> Any:
    """Owen's T function `T(h, a) = 1 / (2 pi) int_0^a exp(-h^2 (1 + x^2) / 2) / (1 + x^2) dx`,
    as `jax.scipy.special.owens_t`.

    Gauss-Legendre quadrature (24 points) for `|a| <= 1`; for `|a| > 1` the reflection
    `T(h, a) = (Phi(h) + Phi(ah)) / 2 - Phi(h) Phi(ah) - T(ah, 1/a)`.

    Args:
      h: real input.
      a: real input.

    Returns:
      `T(h, a)` in the promoted dtype.
    """
    h, a = promote_args_inexact("owens_t", h, a)
    h, a = jnp.broadcast_arrays(h, a)
    return _owens_t(h, a)


# ---------------------------------------------------------------------------------------------
# Bessel functions of the first kind of integer order


def bessel_jn(z: Any, *, v: int, n_iter: int = 50) -> Any:
    """Bessel functions of the first kind `J_0(z) ... J_v(z)`, as
    `jax.scipy.special.bessel_jn`.

    Miller's backward recurrence `J_{k-1} = 2k J_k / z - J_{k+1}` from order `n_iter`,
    normalized by `J_0 + 2 J_2 + 2 J_4 + ... = 1` (Zhang and Jin's `BJNDD`).

    Args:
      z: real input.
      v: the highest order (a static int).
      n_iter: the order the recurrence starts from (static); it must exceed `v` and grow
        with `|z|` (JAX's rule of thumb is in its docstring).

    Returns:
      `(v + 1, *z.shape)`: the orders 0 to `v`, in `z`'s (inexact) dtype.

    Raises:
      ValueError: complex `z`.
    """
    (z,) = promote_args_inexact("bessel_jn", z)
    if _dtype(z).kind == "c":
        raise ValueError("complex input not supported.")
    v = operator.index(v)
    n_iter = int(n_iter)

    def step(carry, k):
        f0, f1, bs = carry
        f = 2.0 * (k + 1.0) * f1 / z - f0
        bs = jnp.where(jnp.mod(k, 2) == 0, bs + 2.0 * f, bs)
        return (f1, f, bs), f

    zero = jnp.zeros_like(z)
    init = (zero, jnp.full_like(z, 1e-16), zero)
    ks = jnp.arange(n_iter + 1, dtype=_dtype(z))
    (_, _, bs), vals = lax.scan(step, init, ks, reverse=True)
    return vals[: v + 1] / (bs - vals[0])


# ---------------------------------------------------------------------------------------------
# Hypergeometric functions, following JAX's methods (Pearson, Olver and Porter 2014): Taylor
# series summed until a term is below eps of the sum (at most 250 terms), an asymptotic series
# for 1F1 at |x| >= 100, and for 2F1 the terminating series and the digamma transformation
# (AMS55 15.3.10-12) near x = 1. Each series runs for every element in one `while_loop` that
# stops when no element still changes; the derivatives in the parameters are series too.


def _vseries(total: Any, term: Any, ratio: Any, weight: Any = None, k0: int = 1) -> Any:
    """`total + sum_k weight(k) term_k`, `term_{k+1} = term_k ratio(k)`, from `k = k0`, per
    element until `|term_k| <= eps |total|` (at most 250 terms), like JAX's `while_loop`s."""
    eps = float(dtypes.finfo(_dtype(total)).eps)

    def active(total, term):
        return jnp.abs(term) > eps * jnp.abs(total)

    def cond(state):
        k, total, term, live = state
        return (k < 250) & jnp.any(live)

    def body(state):
        k, total, term, live = state
        kf = k.astype(_dtype(total))
        add = term if weight is None else term * weight(kf)
        total = jnp.where(live, total + add, total)
        term = jnp.where(live, term * ratio(kf), term)
        return k + 1, total, term, live & active(total, term)

    init = (jnp.asarray(k0, np.int32), total, term, active(total, term))
    return lax.while_loop(cond, body, init)[1]


def _hyp1f1_series(a: Any, b: Any, x: Any) -> Any:
    return _vseries(jnp.ones_like(x), a / b * x, lambda k: (a + k) / (b + k) * x / (k + 1))


def _hyp1f1_asymptotic(a: Any, b: Any, x: Any) -> Any:
    s = _vseries(
        jnp.ones_like(x), (b - a) * (1 - a) / x, lambda k: (b - a + k) * (1 - a + k) / (k + 1) / x
    )
    return gamma(b) / gamma(a) * jnp.exp(x) * x ** (a - b) * s


@custom_jvp
def _hyp1f1(a: Any, b: Any, x: Any) -> Any:
    small = jnp.abs(x) < 100
    result = jnp.where(
        small,
        _hyp1f1_series(a, b, jnp.where(small, x, 0.0)),
        _hyp1f1_asymptotic(a, b, jnp.where(small, 100.0, x)),
    )
    result = jnp.where((b == 0) & (a != 0), jnp.full_like(x, np.inf), result)
    result = jnp.where((a == b) & (a != 0), jnp.exp(x), result)
    return jnp.where(a == 0, jnp.ones_like(x), result)


@_hyp1f1.defjvp
def _hyp1f1_jvp(primals, tangents):
    (a, b, x), (da, db, dx) = primals, tangents
    out = _hyp1f1(a, b, x)
    ratio = lambda k: (a + k) / (b + k) * x / (k + 1)  # noqa: E731
    d_a = _vseries(
        jnp.zeros_like(x), a / b * x, ratio, lambda k: lax.digamma(a + k) - lax.digamma(a)
    )
    d_b = _vseries(
        jnp.zeros_like(x), a / b * x, ratio, lambda k: lax.digamma(b) - lax.digamma(b + k)
    )
    d_x = a / b * _hyp1f1(a + 1, b + 1, x)
    return out, d_a * da + d_b * db + d_x * dx


def hyp1f1(a: Any, b: Any, x: Any) -> Any:
    """Kummer's confluent hypergeometric function `1F1(a; b; x) = sum (a)_k / (b)_k x^k / k!`,
    as `jax.scipy.special.hyp1f1` (differentiable in `a`, `b` and `x`).

    The Taylor series for `|x| < 100`, the asymptotic series beyond; as in JAX, meant for
    positive real inputs, and `hyp1f1(0, 0, x)` is 1 (scipy differs).

    Args:
      a, b, x: real inputs.

    Returns:
      `1F1(a; b; x)` in the promoted dtype.
    """
    a, b, x = promote_args_inexact("hyp1f1", a, b, x)
    if _dtype(x).kind == "c":
        raise ValueError("hyp1f1 does not support complex-valued inputs.")
    a, b, x = jnp.broadcast_arrays(a, b, x)
    return _quiet(_hyp1f1)(a, b, x)


def _hyp2f1_terminal(a: Any, b: Any, c: Any, x: Any) -> Any:
    """The terminating series when `a` (after a swap, `b`) is a non-positive integer."""
    eps = float(dtypes.finfo(_dtype(x)).eps) * 50
    ib = jnp.round(b)
    swap = (b < a) & (jnp.abs(b - ib) < eps) & ~((c % 1 == 0) & (c <= 0) & (c > b))
    a, b = jnp.where(swap, b, a), jnp.where(swap, a, b)
    a = jnp.abs(a)
    top = jnp.max(jnp.where(jnp.isfinite(a), a, 0.0)) if a.size else jnp.zeros((), _dtype(x))

    def cond(state):
        i, serie, term = state
        return i <= top

    def body(state):
        i, serie, term = state
        live = i <= a
        new = term * (-(a - i + 1) / (c + i - 1) * (b + i - 1) / i * x)
        return i + 1, jnp.where(live, serie + new, serie), jnp.where(live, new, term)

    one = jnp.ones_like(x)
    return lax.while_loop(cond, body, (jnp.ones((), _dtype(x)), one, one))[1]


def _hyp2f1_series(a: Any, b: Any, c: Any, x: Any) -> Any:
    return _vseries(
        jnp.zeros_like(x),
        jnp.ones_like(x),
        lambda k: (a + k - 1) * (b + k - 1) / (c + k - 1) / k * x,
    )


def _hyp2f1_digamma_transform(a: Any, b: Any, c: Any, x: Any) -> Any:
    """2F1 near `x = 1` when `c - a - b` is an integer (AMS55 15.3.10-12, as JAX's)."""
    rtol = float(dtypes.finfo(_dtype(x)).eps)
    d = c - a - b
    s = 1 - x
    rd = jnp.round(d)
    e = jnp.where(rd >= 0, d, -d)
    d1 = jnp.where(rd >= 0, d, 0.0)
    d2 = jnp.where(rd >= 0, 0.0, d)
    ard = jnp.where(rd >= 0, rd, -rd)
    ax = jnp.log(s)
    psi = lax.digamma
    y = (psi(jnp.ones_like(x)) + psi(1.0 + e) - psi(a + d1) - psi(b + d1) - ax) / gamma(e + 1.0)
    p = (a + d1) * (b + d1) * s / gamma(e + 2.0)

    def cond(state):
        t, p, q, y, live = state
        return (t < 250) & jnp.any(live)

    def body(state):
        t, p, q, y, live = state
        r = psi(1.0 + t) + psi(1.0 + t + e) - psi(a + t + d1) - psi(b + t + d1) - ax
        q_new = p * r
        y = jnp.where(live, y + q_new, y)
        p_new = p * s * (a + t + d1) / (t + 1.0) * (b + t + d1) / (t + 1.0 + e)
        p = jnp.where(live, p_new, p)
        q = jnp.where(live, q_new, q)
        return t + 1.0, p, q, y, live & (jnp.abs(q) >= rtol * jnp.abs(y))

    one = jnp.ones((), _dtype(x))
    live0 = jnp.abs(y) >= rtol * jnp.abs(y)
    _, _, _, y, _ = lax.while_loop(cond, body, (one, p, y, y, live0))
    top = jnp.max(ard) if ard.size else jnp.zeros((), _dtype(x))

    def sum_cond(state):
        i, t, p, y1 = state
        return i < top

    def sum_body(state):
        i, t, p, y1 = state
        live = i < ard
        p_new = p * s * (a + t + d2) * (b + t + d2) / (1.0 - e + t) / (t + 1.0)
        return (
            i + 1.0,
            jnp.where(live, t + 1.0, t),
            jnp.where(live, p_new, p),
            jnp.where(live, y1 + p_new, y1),
        )

    init = (one, jnp.zeros_like(x), jnp.ones_like(x), jnp.ones_like(x))
    y1 = lax.while_loop(sum_cond, sum_body, init)[3]
    gc = gamma(c)
    y1 = y1 * gamma(e) * gc / (gamma(a + d1) * gamma(b + d1))
    yy = y * gc / (gamma(a + d2) * gamma(b + d2))
    yy = jnp.where(jnp.mod(ard, 2) != 0, -yy, yy)
    q = s**rd
    summed = jnp.where(rd > 0, yy * q + y1, yy + y1 * q)
    return jnp.where(rd == 0, y * gc / (gamma(a) * gamma(b)), summed)


def _hyp2f1_terminal_or_series(a: Any, b: Any, c: Any, x: Any) -> Any:
    eps = float(dtypes.finfo(_dtype(x)).eps) * 50
    d = c - a - b
    neg_int = ((a <= 0) & (jnp.abs(a - jnp.round(a)) < eps)) | (
        (b <= 0) & (jnp.abs(b - jnp.round(b)) < eps)
    )
    near_one = (x > 0.9) & ~neg_int
    digamma_case = near_one & (jnp.abs(d - jnp.round(d)) < eps)
    series = _hyp2f1_series(a, b, c, x)
    out = jnp.where(digamma_case, _hyp2f1_digamma_transform(a, b, c, x), series)
    return jnp.where(~near_one & neg_int, _hyp2f1_terminal(a, b, c, x), out)


@custom_jvp
def _hyp2f1(a: Any, b: Any, c: Any, x: Any) -> Any:
    eps = float(dtypes.finfo(_dtype(x)).eps) * 50
    d = c - a - b
    s = 1 - x
    ca, cb = c - a, c - b
    xs = jnp.where(x < 1, x, 0.0)  # the series branches see only x < 1
    general = _hyp2f1_terminal_or_series(a, b, c, xs)
    euler = s**d * _hyp2f1_terminal_or_series(ca, cb, c, xs)
    gauss = gamma(c) * gamma(d) / (gamma(ca) * gamma(cb))
    inf = jnp.full_like(x, np.inf)
    out = general
    out = jnp.where(x == 1, gauss, out)
    out = jnp.where(x > 1, inf, out)
    out = jnp.where((x < 1) & (a == c), s ** (-b), out)
    out = jnp.where((x < 1) & (b == c), s ** (-a), out)
    out = jnp.where((d <= 0) & (x == 1), inf, out)
    out = jnp.where((d <= -1) & ~((jnp.abs(d - jnp.round(d)) >= eps) & (s < 0)), euler, out)
    out = jnp.where((c == 0) | ((c < 0) & (c % 1 == 0)), inf, out)
    return jnp.where((x == 0) | (((a == 0) | (b == 0)) & (c != 0)), jnp.ones_like(x), out)


@_hyp2f1.defjvp
def _hyp2f1_jvp(primals, tangents):
    (a, b, c, x), (da, db, dc, dx) = primals, tangents
    out = _hyp2f1(a, b, c, x)
    psi = lax.digamma
    ratio = lambda k: (a + k) * (b + k) / (c + k) / (k + 1) * x  # noqa: E731
    first = a * b / c * x
    zero = jnp.zeros_like(x)
    d_a = _vseries(zero, first, ratio, lambda k: psi(a + k) - psi(a))
    d_b = _vseries(zero, first, ratio, lambda k: psi(b + k) - psi(b))
    d_c = _vseries(zero, first, ratio, lambda k: psi(c) - psi(c + k))
    d_x = a * b / c * _hyp2f1(a + 1, b + 1, c + 1, x)
    return out, d_a * da + d_b * db + d_c * dc + d_x * dx


def hyp2f1(a: Any, b: Any, c: Any, x: Any) -> Any:
    """The Gauss hypergeometric function `2F1(a, b; c; x) = sum (a)_k (b)_k / (c)_k x^k / k!`,
    as `jax.scipy.special.hyp2f1` (differentiable in every argument).

    JAX's case analysis: 1 at `x = 0` or `a b = 0`; `inf` for a non-positive integer `c`,
    `x > 1`, or `c - a - b <= 0` at `x = 1`; Gauss's sum at `x = 1`; `(1 - x)^(-b)` when
    `a = c` (and symmetrically); Euler's transformation when `c - a - b <= -1`; otherwise the
    series, terminating when `a` or `b` is a non-positive integer, and the digamma
    transformation near `x = 1` when `c - a - b` is an integer. As in JAX, meant for real
    inputs with `x < 1`; large values lose precision (enable x64).

    Args:
      a, b, c, x: real inputs.

    Returns:
      `2F1(a, b; c; x)` in the promoted dtype.
    """
    a, b, c, x = promote_args_inexact("hyp2f1", a, b, c, x)
    a, b, c, x = jnp.broadcast_arrays(a, b, c, x)
    return _quiet(_hyp2f1)(a, b, c, x)


# ---------------------------------------------------------------------------------------------
# Spherical harmonics


def sph_harm_y(
    n: Any, m: Any, theta: Any, phi: Any, diff_n: int | None = None, n_max: int | None = None
) -> Any:
    """The spherical harmonics `Y_n^m(theta, phi) = N_n^m P_n^m(cos theta) exp(i m phi)`, as
    `jax.scipy.special.sph_harm_y` (orthonormal, with the Condon-Shortley phase).

    The normalized associated Legendre functions come from the stable recurrences
    `P_m^m = -sqrt((2m + 1) / 2m) sin(theta) P_{m-1}^{m-1}`, `P_{m+1}^m = sqrt(2m + 3)
    cos(theta) P_m^m` and the three-term one in the degree, run to `n_max` for every element
    (masked beyond its own `n` and `|m|`); negative orders use `Y_n^-m = (-1)^m conj(Y_n^m)`.

    Args:
      n: degrees (`n >= 0`).
      m: orders (`|m| <= n`).
      theta: polar angles (colatitudes) in `[0, pi]`.
      phi: azimuths in `[0, 2 pi]`.
      diff_n: not supported (as in JAX).
      n_max: the largest degree, static (default: `max(n)`, which needs a concrete `n`);
        degrees beyond it are clipped to it, as in JAX.

    Returns:
      complex harmonics, the broadcast shape of the arguments (1-D at least).
    """
    if diff_n is not None:
        raise NotImplementedError(
            "The 'diff_n' argument to jax.scipy.special.sph_harm_y is not supported."
        )
    if np.isscalar(theta):
        theta = jnp.array([theta])
    if n_max is None:
        n_max = int(np.max(np.asarray(n)))
    n_max = operator.index(n_max)
    theta, phi = promote_args_inexact("sph_harm_y", theta, phi)
    n, m, theta, phi = jnp.broadcast_arrays(jnp.asarray(n), jnp.asarray(m), theta, phi)
    dt = _dtype(theta)
    n = jnp.minimum(n, n_max).astype(dt)
    am = jnp.abs(m).astype(dt)
    x, y = jnp.cos(theta), jnp.sin(theta)
    p = jnp.full_like(x, 1 / np.sqrt(4 * np.pi))  # P_k^k for k up to |m|
    for k in range(1, n_max + 1):
        p = jnp.where(k <= am, -np.sqrt((2 * k + 1) / (2 * k)) * y * p, p)
    prev, cur = jnp.zeros_like(x), p  # P_{l-1}^m, P_l^m from l = |m|
    for l in range(1, n_max + 1):  # noqa: E741  (the degree, as in the formulas)
        live = (am < l) & (l <= n)
        a_l = jnp.sqrt((4.0 * l * l - 1) / jnp.where(live, l * l - am * am, 1.0))
        a_prev = jnp.sqrt(
            (4.0 * (l - 1) ** 2 - 1) / jnp.where(live & (am < l - 1), (l - 1) ** 2 - am * am, 1.0)
        )
        nxt = a_l * (x * cur - jnp.where(am < l - 1, prev / a_prev, 0.0))
        prev, cur = jnp.where(live, cur, prev), jnp.where(live, nxt, cur)
    angle = am * phi
    harmonic = cur * jnp.cos(angle) + 1j * (cur * jnp.sin(angle))
    sign = jnp.where(jnp.mod(am, 2) == 1, -1.0, 1.0).astype(dt)
    return jnp.where(m < 0, sign * jnp.conj(harmonic), harmonic)
