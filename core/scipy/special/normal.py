"""The normal distribution's functions: `ndtr`, its inverse `ndtri` (Cephes' three-piece rational
approximation), `log_ndtr` and Owen's T function `owens_t` (Gauss-Legendre quadrature).

`log_ndtr` uses `log(ndtr)` in the middle, `-ndtr(-x)` above 5 (float32) / 8 (float64) and the
asymptotic series `log(phi(x)/-x * sum_n (-1)^n (2n-1)!! / x^2n)` below -10 / -20, like JAX and
TensorFlow, with JAX's custom derivative in its asymptotic tail.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import core.numpy as jnp
from core import lax
from core.custom_derivatives import custom_jvp
from core.numpy._util import promote_args_inexact
from core.scipy.errors import SeriesOrderError
from core.scipy.special._util import _dtype, _horner, _real_float, _strong


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
    x = _strong(x)
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
    # lax ops on constants of x's dtype (JAX's `_lax_const`s): no promotion casts the tangent,
    # so a weak input's gradient comes out strong, as JAX's
    neg_half, log_norm = (np.asarray(c, _dtype(x)) for c in (-0.5, 0.5 * math.log(2.0 * math.pi)))
    log_pdf = lax.sub(lax.mul(neg_half, lax.mul(x, x)), log_norm)
    return out, lax.mul(t, lax.exp(lax.sub(log_pdf, out)))


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
    x = jnp.asarray(x)
    _real_float("log_ndtr", x)
    return _log_ndtr(x, series_order)


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
    if _dtype(h).itemsize < 4:  # JAX's result is float32 (its quadrature's constants are)
        h, a = h.astype(np.float32), a.astype(np.float32)
    return _owens_t(h, a)
