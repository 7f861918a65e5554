"""Hypergeometric functions `hyp1f1` and `hyp2f1`, following JAX's methods (Pearson, Olver and
Porter 2014): Taylor series summed until a term is below eps of the sum (at most 250 terms), an
asymptotic series for 1F1 at |x| >= 100, and for 2F1 the terminating series and the digamma
transformation (AMS55 15.3.10-12) near x = 1. Each series runs for every element in one
`while_loop` that stops when no element still changes; the derivatives in the parameters are
series too.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import core.numpy as jnp
from core import dtypes, lax
from core.custom_derivatives import custom_jvp
from core.numpy._util import promote_args_inexact
from core.scipy.special._util import _dtype, _quiet
from core.scipy.special.gamma import gamma


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
