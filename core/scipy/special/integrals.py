"""Exponential, sine/cosine and Fresnel integrals (`exp1`, `expi`, `expn`, `sici`, `fresnel`)
and Spence's function (the dilogarithm, `spence`, Cephes' as JAX's).

`expi`, `expn` and `exp1` (`expn(1, x)`) are Cephes' `ei.c` and `expn.c` as JAX computes
them: rational approximations on fixed intervals, and a power series or a continued fraction
summed until the dtype's epsilon, each element's loop stopping on its own (JAX vectorizes
them); a constant scalar order's Gamma(n) is folded as XLA folds it. The others are a power
series near 0 and a continued fraction (Lentz's method, a fixed number of steps in a
`fori_loop`) or an asymptotic series away from it, as in Numerical Recipes' `cisi` and
`frenel`. The complex continued fractions of `sici` and
`fresnel` are carried as (real, imaginary) pairs of the input's real dtype; each carries
JAX's custom derivative.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import core.numpy as jnp
from core import lax
from core.custom_derivatives import custom_jvp
from core.numpy._util import promote_args_inexact
from core.scipy.special._util import _dtype, _quiet, _real_only, lax_const

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


# Cephes' ei.c: Ei(x) = euler + log x + x A(x) / B(x) for 0 < x <= 2, and beyond
# x exp(-x) Ei(x) - 1 = w A(w) / B(w), w = 1 / x, on (2, 4], (4, 8], (8, 16], (16, 32],
# (32, 64] and above (JAX's expi takes the same rational functions); highest power first, each
# B with its leading 1
_EI_SMALL = (
    [-5.350447357812542947283e0, 2.185049168816613393830e2, -4.176572384826693777058e3,
     5.541176756393557601232e4, -3.313381331178144034309e5, 1.592627163384945414220e6],
    [1.0, -5.250547959112862969197e1, 1.259616186786790571525e3, -1.756549581973534652631e4,
     1.493062117002725991967e5, -7.294949239640527645655e5, 1.592627163384945429726e6],
)  # fmt: skip
_EI_TAILS = (
    ([1.981808503259689673238e-2, -1.271645625984917501326e0, -2.088160335681228318920e0,
      2.755544509187936721172e0, -4.409507048701600257171e-1, 4.665623805935891391017e-2,
      -1.545042679673485262580e-3, 7.059980605299617478514e-5],
     [1.0, 1.476498670914921440652e0, 5.629177174822436244827e-1, 1.699017897879307263248e-1,
      2.291647179034212017463e-2, 4.450150439728752875043e-3, 1.727439612206521482874e-4,
      3.953167195549672482304e-5]),
    ([-1.373215375871208729803e0, -7.084559133740838761406e-1, 1.580806855547941010501e0,
      -2.601500427425622944234e-1, 2.994674694113713763365e-2, -1.038086040188744005513e-3,
      4.371064420753005429514e-5, 2.141783679522602903795e-6],
     [1.0, 8.585231423622028380768e-1, 4.483285822873995129957e-1, 7.687932158124475434091e-2,
      2.449868241021887685904e-2, 8.832165941927796567926e-4, 4.590952299511353531215e-4,
      -4.729848351866523044863e-6, 2.665195537390710170105e-6]),
    ([-2.106934601691916512584e0, 1.732733869664688041885e0, -2.423619178935841904839e-1,
      2.322724180937565842585e-2, 2.372880440493179832059e-4, -8.343219561192552752335e-5,
      1.363408795605250394881e-5, -3.655412321999253963714e-7, 1.464941733975961318456e-8,
      6.176407863710360207074e-10],
     [1.0, -2.298062239901678075778e-1, 1.105077041474037862347e-1, -1.566542966630792353556e-2,
      2.761106850817352773874e-3, -2.089148012284048449115e-4, 1.708528938807675304186e-5,
      -4.459311796356686423199e-7, 1.394634930353847498145e-8, 6.150865933977338354138e-10]),
    ([-2.458119367674020323359e-1, -1.483382253322077687183e-1, 7.248291795735551591813e-2,
      -1.348315687380940523823e-2, 1.342775069788636972294e-3, -7.942465637159712264564e-5,
      2.644179518984235952241e-6, -4.239473659313765177195e-8],
     [1.0, -1.044225908443871106315e-1, -2.676453128101402655055e-1, 9.695000254621984627876e-2,
      -1.601745692712991078208e-2, 1.496414899205908021882e-3, -8.462452563778485013756e-5,
      2.728938403476726394024e-6, -4.239462431819542051337e-8]),
    ([1.212561118105456670844e-1, -5.823133179043894485122e-1, 2.348887314557016779211e-1,
      -3.040034318113248237280e-2, 1.510082146865190661777e-3, -2.523137095499571377122e-5],
     [1.0, -1.002252150365854016662e0, 2.928709694872224144953e-1, -3.337004338674007801307e-2,
      1.560544881127388842819e-3, -2.523137093603234562648e-5]),
    ([-7.657847078286127362028e-1, 6.886192415566705051750e-1, -2.132598113545206124553e-1,
      3.346107552384193813594e-2, -3.076541477344756050249e-3, 1.747119316454907477380e-4,
      -6.103711682274170530369e-6, 1.218032765428652199087e-7, -1.086076102793290233007e-9],
     [1.0, -1.888802868662308731041e0, 1.066691687211408896850e0, -2.751915982306380647738e-1,
      3.930852688233823569726e-2, -3.414684558602365085394e-3, 1.866844370703555398195e-4,
      -6.345146083130515357861e-6, 1.239754287483206878024e-7, -1.086076102793126632978e-9]),
)  # fmt: skip


def _ratio(coeffs: tuple[list[float], list[float]], x: Any) -> Any:
    a, b = (np.array(c, _dtype(x)) for c in coeffs)
    return jnp.polyval(a, x) / jnp.polyval(b, x)


def _ei_tail(coeffs: tuple[list[float], list[float]], x: Any) -> Any:
    w = lax_const(x, 1.0) / x
    return jnp.exp(x) * w * (w * _ratio(coeffs, w) + lax_const(x, 1.0))


def _expi_positive(x: Any) -> Any:
    """Ei(x) for x >= 0 (and NaN): the interval's rational function; above 64 (and at 0 or
    NaN, as in JAX) the last."""
    out = _ei_tail(_EI_TAILS[-1], x)
    for i in range(5, 0, -1):  # (2^i, 2^(i+1)]
        lo, hi = lax_const(x, 2.0**i), lax_const(x, 2.0 ** (i + 1))
        out = jnp.where((lo < x) & (x <= hi), _ei_tail(_EI_TAILS[i - 1], x), out)
    small = x * _ratio(_EI_SMALL, x) + np.euler_gamma + jnp.log(x)
    return jnp.where((lax_const(x, 0.0) < x) & (x <= lax_const(x, 2.0)), small, out)


@custom_jvp
def _expi(x: Any) -> Any:
    return jnp.where(x < 0, -exp1(jnp.where(x < 0, -x, lax_const(x, 1.0))), _expi_positive(x))


@_expi.defjvp
def _expi_jvp(primals, tangents):
    (x,), (dx,) = primals, tangents
    return _expi(x), jnp.exp(x) / x * dx


def expi(x: Any) -> Any:
    """The exponential integral `Ei(x) = int_-inf^x exp(t) / t dt`, as `jax.scipy.special.expi`.

    Cephes' rational approximations on (0, 2], (2, 4], ..., (32, 64] and above (JAX's), and
    `-E1(-x)` for negative `x`; the derivative is `exp(x) / x`.

    Args:
      x: real input.

    Returns:
      `Ei(x)` (NaN at 0, as JAX's).
    """
    (x,) = promote_args_inexact("expi", x)
    _real_only("expi", x)
    return _quiet(_expi)(x)


def exp1(x: Any) -> Any:
    """The exponential integral `E1(x) = int_x^inf exp(-t) / t dt`, as `jax.scipy.special.exp1`:
    `expn(1, x)`.

    Args:
      x: real input (`inf` at 0, NaN for negative `x`).

    Returns:
      `E1(x)`.
    """
    (x,) = promote_args_inexact("exp1", x)
    _real_only("exp1", x)
    return expn(1, x)


def _until(active: Any, body: Any, carry: tuple, like: Any) -> tuple:
    """`carry` (each part broadcast to `like`'s shape) after `body` ran on each element while
    `active(carry)` holds for it (an element's loop of its own, as `jnp.vectorize`d loops run):
    finished elements keep theirs."""
    carry = tuple(jnp.broadcast_to(c, jnp.shape(like)) for c in carry)

    def step(c):
        on = active(c)
        return tuple(jnp.where(on, new, old) for new, old in zip(body(c), c, strict=True))

    return lax.while_loop(lambda c: jnp.any(active(c)), step, carry)


def _expn_series(n: Any, x: Any, inverse_gamma: Any) -> Any:
    """Cephes' expn for x <= 1: `(-x)^(n-1) psi(n) / Gamma(n) - sum` (`inverse_gamma` is
    1 / Gamma(n)), the power series summed until its terms fall under the dtype's epsilon."""
    one, zero = lax_const(x, 1.0), lax_const(x, 0.0)
    eps = lax_const(x, float(np.finfo(_dtype(x)).eps))
    psi = -np.euler_gamma - jnp.log(x)
    psi, _ = _until(lambda c: c[1] < n, lambda c: (c[0] + one / c[1], c[1] + one), (psi, one), x)
    n1 = jnp.where(n == 1, one + one, n)
    z = -x
    ans = jnp.where(n == 1, zero, one / (one - n1))
    init = (zero, one, one - n, ans, jnp.full_like(x, np.inf))

    def body(c):
        xk, yk, pk, ans, _ = c
        xk, pk = xk + one, pk + one
        yk = yk * (z / xk)
        ans = ans + jnp.where(pk != zero, yk / pk, zero)
        return xk, yk, pk, ans, jnp.where(ans != zero, jnp.abs(yk / ans), one)

    *_, ans, _ = _until(lambda c: (x > zero) & (c[4] > eps), body, init, x)
    return z ** (n - one) * psi * inverse_gamma - ans


def _expn_fraction(n: Any, x: Any) -> Any:
    """Cephes' expn for x > 1: its continued fraction (convergents rescaled past 2**57) times
    `exp(-x)`."""
    one, zero, two = lax_const(x, 1.0), lax_const(x, 0.0), lax_const(x, 2.0)
    big = lax_const(x, 1.44115188075855872e17)
    eps = lax_const(x, float(np.finfo(_dtype(x)).eps))
    init = (one, one, x, one, x + n, one / (x + n), jnp.full_like(x, np.inf), zero)

    def body(c):
        k, pkm2, qkm2, pkm1, qkm1, ans, _, r = c
        k = k + one
        odd = k % two == one
        yk = jnp.where(odd, one, x)
        xk = jnp.where(odd, n + (k - one) / two, k / two)
        # in this order the fused multiply-adds round as XLA's most often (not always: 5-12
        # of 112 orders and arguments differ in the last bits)
        pk = pkm2 * xk + pkm1 * yk
        qk = qkm2 * xk + qkm1 * yk
        nz = qk != zero
        r = jnp.where(nz, pk / qk, r)
        t = jnp.where(nz, jnp.abs((ans - r) / r), one)
        ans = jnp.where(nz, r, ans)
        scaled = jnp.abs(pk) > big
        pkm2, pkm1, qkm2, qkm1 = (jnp.where(scaled, v / big, v) for v in (pkm1, pk, qkm1, qk))
        return k, pkm2, qkm2, pkm1, qkm1, ans, t, r

    out = _until(lambda c: (x > zero) & (c[6] > eps), body, init, x)
    return out[5] * jnp.exp(-x)


def _expn_large(n: Any, x: Any) -> Any:
    """Cephes' expn for n >= 5000: its asymptotic series in `1 / (x + n)**2`."""
    one = lax_const(x, 1.0)
    xk = x + n
    yk = one / (xk * xk)
    ans = yk * n * (lax_const(x, 6.0) * x * x - lax_const(x, 8.0) * n * x + n * n)
    ans = yk * (ans + n * (n - lax_const(x, 2.0) * x))
    ans = yk * (ans + n)
    return (ans + one) * jnp.exp(-x) / xk


def _expn_impl(n: Any, x: Any, inverse_gamma: Any) -> Any:
    """JAX's expn (Cephes' expn.c): its cases in its order, a later true one winning
    (`inverse_gamma` is 1 / Gamma(n))."""
    zero, one = lax_const(x, 0.0), lax_const(x, 1.0)
    huge = n >= 5000
    # the series' loops run long where another case wins: there on 1/2 and n = 1
    other = (x > one) | huge
    series = _expn_series(
        jnp.where(huge, one, n),
        jnp.where(other, lax_const(x, 0.5), x),
        jnp.where(huge, one, inverse_gamma),
    )
    fraction = _expn_fraction(n, jnp.where(x > one, x, lax_const(x, 2.0)))
    large = _expn_large(jnp.where(huge, n, lax_const(n, 5000.0)), x)
    n1 = jnp.where(n == 1, n + n, n)
    cases = [
        ((n < 0) | (x < zero), jnp.full_like(x, np.nan)),
        ((x == zero) & (n < 2), jnp.full_like(x, np.inf)),
        ((x == zero) & (n >= 2), one / n1),
        ((n == 0) & (x >= zero), jnp.exp(-x) / x),
        (huge, large),
        (x > one, fraction),
    ]
    out = series
    done = jnp.zeros(jnp.shape(x), bool)
    for cond, value in reversed(cases):
        out = jnp.where(cond & ~done, value, out)
        done = done | cond
    return out


def _c_lgamma(v: float) -> float:
    """The C library's lgamma: inf at the poles (and NaN for NaN), where `math.lgamma` raises."""
    try:
        return math.lgamma(v)
    except ValueError:
        return math.inf


@custom_jvp
def _expn(n: Any, x: Any, inverse_gamma: Any) -> Any:
    return _expn_impl(n, x, inverse_gamma)


@_expn.defjvp
def _expn_jvp(primals, tangents):
    # differentiable in x only (JAX's n is a nondifferentiable argument, traced or not)
    (n, x, inverse_gamma), (_, dx, _) = primals, tangents
    n1 = n - 1.0
    return _expn(n, x, inverse_gamma), -dx * _expn(n1, x, jnp.exp(-lax.lgamma(n1)))


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
    # a concrete scalar order is a constant of JAX's compiled loops (an array's is mapped)
    scalar = isinstance(n, (int, float, np.ndarray, np.generic)) and np.ndim(n) == 0
    known = np.asarray(n) if scalar else None
    n, x = promote_args_inexact("expn", n, x)
    n, x = jnp.broadcast_arrays(n, x)
    if known is not None:  # XLA folds Gamma(n) of a constant n (the C library's lgamma, exp)
        dt = _dtype(x)
        log_gamma = np.vectorize(lambda v: dt.type(_c_lgamma(v)))(known.astype(dt))
        inverse = (1.0 / np.exp(log_gamma)).astype(dt)
        inverse_gamma = jnp.broadcast_to(jnp.asarray(inverse), jnp.shape(x))
    else:  # XLA rewrites the series' `/ exp(lgamma(n))` into `* exp(-lgamma(n))`
        inverse_gamma = jnp.exp(-lax.lgamma(n))
    return _quiet(_expn)(n, x, inverse_gamma)


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
    # NaN (which no branch takes) and -inf give NaN, as JAX's
    return jnp.sign(x) * si, jnp.where((x == -np.inf) | (ax != ax), jnp.full_like(ax, np.nan), ci)


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
    return _in_float32(_quiet(_sici), x)


def _in_float32(fn: Any, x: Any) -> tuple[Any, Any]:
    """`fn(x)`, computed in float32 for 16-bit `x` (whose continued fractions' tiny constants
    underflow to zero: NaN results) and rounded back to its dtype."""
    dt = _dtype(x)
    if dt.itemsize >= 4:
        return fn(x)
    return tuple(out.astype(dt) for out in fn(x.astype(np.float32)))


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
    return _in_float32(_quiet(_fresnel), x)
