"""Exponential, sine/cosine and Fresnel integrals (`exp1`, `expi`, `expn`, `sici`, `fresnel`)
and Spence's function (the dilogarithm, `spence`, Cephes' as JAX's).

Each integral is a power series near 0 and a continued fraction (Lentz's method, a fixed
number of steps in a `fori_loop`) or an asymptotic series away from it, as in Numerical
Recipes' `expint`, `ei`, `cisi` and `frenel`. The complex continued fractions of `sici` and
`fresnel` are carried as (real, imaginary) pairs of the input's real dtype; each carries
JAX's custom derivative.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

import core.numpy as jnp
from core import lax
from core.custom_derivatives import custom_jvp
from core.numpy._util import promote_args_inexact
from core.scipy.special._util import _dtype, _quiet, _real_only, _strong


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
    return jnp.where(x == 0, jnp.full_like(x, np.nan), out)  # JAX's nan (scipy's -inf)


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
    # JAX's E_n(0) is 1 / n (scipy's, the integral's, is 1 / (n - 1))
    at_zero = jnp.where(n > 1, 1.0 / jnp.where(n > 1, n, 1.0), jnp.full_like(x, np.inf))
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
