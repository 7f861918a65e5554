"""The gamma family: `gammaln`, `loggamma` (complex: Lanczos, g=7, N=9, as JAX's), `gammasgn`,
`gamma`, `beta`, `betaln`, `betainc`, `gammainc`/`gammaincc`, `digamma`, `polygamma`, `zeta`,
`multigammaln`, `factorial`, `comb`, `poch`, and the Bernoulli numbers (`bernoulli`, JAX's
formula through the zeta function's series). Most are `core.lax`'s primitives with scipy's
argument handling.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

import core.numpy as jnp
from core import dtypes, lax
from core.api import jvp
from core.custom_derivatives import custom_jvp
from core.numpy._util import check_arraylike, promote_args_inexact
from core.scipy.special._util import _dtype, _real_only, _strong


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
    terms = (1,) * jnp.ndim(zz) + (8,)  # ranks equal: no rank promotion
    ks = jnp.arange(1, 9, dtype=dt).reshape(terms)
    ag = coeffs[0] + jnp.sum(coeffs[1:].reshape(terms) / (jnp.expand_dims(zz, -1) + ks), axis=-1)
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
    a, b = jnp.minimum(a, b), jnp.maximum(a, b)
    small_b = lax.lgamma(a) + (lax.lgamma(b) - lax.lgamma(a + b))
    return jnp.where(b < 8, small_b, lax.lgamma(a) + _log_gamma_ratio(a, b))


# the Stirling-series coefficients of cdflib's algdiv
_ALGDIV_C = (
    0.833333333333333e-01,
    -0.277777777760991e-02,
    0.793650666825390e-03,
    -0.595202931351870e-03,
    0.837308034031215e-03,
    -0.165322962780713e-02,
)


def _log_gamma_ratio(a: Any, b: Any) -> Any:
    """`log(Gamma(b) / Gamma(a + b))` for `a <= b`, `b >= 8`, as JAX's betaln computes it (scipy
    cdflib's algdiv): the difference of the two Stirling corrections by partial geometric sums
    s_k = (1 - x**k) / (1 - x) of x = a / (a + b), plus the leading terms, added smaller first."""
    h = a / b
    x = h / (1 + h)
    x2 = x * x
    sums = [jnp.ones_like(x)]
    for _ in range(5):  # s3, s5, ..., s11
        sums.append(1.0 + (x + x2 * sums[-1]))
    t = (1.0 / b) ** 2
    c = _ALGDIV_C
    w = c[5] * sums[5]
    for k in range(4, 0, -1):
        w = w * t + c[k] * sums[k]
    w = (w * t + c[0]) * (x / b)
    u = (b + (a - 0.5)) * lax.log1p(a / b)
    v = a * (lax.log(b) - 1.0)
    return jnp.where(u <= v, (w - v) - u, (w - u) - v)


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
    a, b, x = promote_args_inexact("betainc", a, b, x, lax_shapes=True)
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
    return lax.igamma(*promote_args_inexact("gammainc", a, x, lax_shapes=True))


def gammaincc(a: Any, x: Any) -> Any:
    """The regularized upper incomplete gamma function `Q(a, x) = 1 - P(a, x)`.

    Args:
      a: positive parameter.
      x: nonnegative point.

    Returns:
      `Q(a, x)`.
    """
    return lax.igammac(*promote_args_inexact("gammaincc", a, x, lax_shapes=True))


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

    Differentiable in both arguments, as JAX's: the derivative is that of the Euler-Maclaurin
    form `_zeta_series` (so under `jvp` or `value_and_grad` the value is the series' too).

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
    return _zeta(*promote_args_inexact("zeta", x, q, lax_shapes=True))


@custom_jvp
def _zeta(x: Any, q: Any) -> Any:
    return lax.zeta(x, q)


def _zeta_coefficients() -> np.ndarray:
    """`(2k)! / B_2k` for k = 1..16, the Bernoulli numbers `B_j` by their recurrence
    `sum_{i<=j} C(j+1, i) B_i = 0` in exact fractions."""
    b = [Fraction(1)]
    for j in range(1, 33):
        b.append(-sum(math.comb(j + 1, i) * b[i] for i in range(j)) / (j + 1))
    return np.array([float(math.factorial(2 * k) / b[2 * k]) for k in range(1, 17)])


_ZETA_COEFFICIENTS = _zeta_coefficients()


def _zeta_series(x: Any, q: Any) -> Any:
    """`zeta(s, a)` by Euler-Maclaurin summation with N terms and M corrections (8 in float32,
    16 otherwise, as JAX's): `sum_{k<N} (a+k)^-s + (a+N)^(1-s)/(s-1) + (a+N)^-s (1/2 +
    sum_{j<=M} (s)_{2j-1} / ((a+N)^(2j-1) (2j)!/B_2j))`, `(s)_n` the rising factorial."""
    s, a = promote_args_inexact("zeta", x, q)
    dt = _dtype(a)
    n = 8 if dt == np.float32 else 16
    one = np.ones((), dt)
    s1, a1 = jnp.expand_dims(s, -1), jnp.expand_dims(a, -1)
    head = jnp.sum((a1 + np.arange(n, dtype=dt)) ** -s1, -1)
    aN = a + n * one
    integral = lax.div(aN ** (one - s), s - one)
    ratios = (s1 + np.arange(2 * n, dtype=dt)) / jnp.expand_dims(aN, -1)
    rising = jnp.clip(jnp.cumprod(ratios, -1)[..., ::2], max=dtypes.finfo(dt).max)
    with np.errstate(over="ignore"):  # the largest overflow float16 to inf, as JAX's
        coefficients = _ZETA_COEFFICIENTS[:n].astype(dt)
    tail = aN**-s * (0.5 * one + jnp.sum(rising / coefficients, -1))
    return head + integral + tail


@_zeta.defjvp
def _zeta_jvp(primals: Any, tangents: Any) -> Any:
    return jvp(_zeta_series, primals, tangents)


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
    half_j = (jnp.arange(d, dtype=_dtype(a)) / 2).reshape((1,) * jnp.ndim(a) + (d,))
    terms = lax.lgamma(jnp.expand_dims(a, -1) - half_j)  # equal ranks: no rank promotion
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
    first_three = jnp.array([1, -1 / 2, 1 / 6])
    if n < 3:
        return first_three[: n + 1]
    numbers = jnp.zeros(n + 1).at[:3].set(first_three)
    # The even numbers from B_4 on, by B_2k = (-1)^(k+1) 2 (2k)! zeta(2k) / (2 pi)^(2k): the
    # factorial-over-power part as a running product (each order multiplies the previous one
    # by -(m - 1) m / (4 pi^2)) and zeta(m) as 1 plus its terms 2^-m ... 49^-m.
    orders = jnp.arange(4, n + 1, 2, dtype=numbers.dtype)
    growth = jnp.cumprod(-(orders - 1) * orders / 4 / np.pi**2)
    leading = 1.0 / np.pi**2 * growth
    bases = jnp.arange(2, 50, dtype=numbers.dtype)
    zeta_tail = jnp.sum(bases[:, None] ** (-orders[None, :]), axis=0)
    return numbers.at[4::2].set(leading * (1 + zeta_tail))
