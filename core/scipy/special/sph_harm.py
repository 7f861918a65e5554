"""Spherical harmonics `sph_harm_y` (scipy's and JAX's argument order and normalization) and
the associated Legendre functions `lpmn`/`lpmn_values` (JAX's square tables, m == n)."""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

import core.numpy as jnp
from core.numpy._util import promote_args_inexact
from core.scipy.special._util import _dtype


def sph_harm_y(
    n: Any, m: Any, theta: Any, phi: Any, diff_n: int | None = None, n_max: int | None = None
) -> Any:
    """The spherical harmonics `Y_n^m(theta, phi) = N_n^m P_n^m(cos theta) exp(i m phi)`, as
    `jax.scipy.special.sph_harm_y` (orthonormal, with the Condon-Shortley phase).

    The normalized associated Legendre functions come from the stable recurrences
    `P_m^m = -sqrt((2m + 1) / 2m) |sin(theta)| P_{m-1}^{m-1}`, `P_{m+1}^m = sqrt(2m + 3)
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
    x, y = jnp.cos(theta), jnp.abs(jnp.sin(theta))  # (1 - x^2)^(1/2), as scipy's and JAX's
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
    out = jnp.where(m < 0, sign * jnp.conj(harmonic), harmonic)
    return jnp.where(am > n, 0, out)  # no harmonic of order |m| > n (scipy's and JAX's 0)


def _check_lpmn(m: int, n: int, z: Any) -> Any:
    """`z` as an inexact 1-D array, after JAX's checks of `lpmn`'s arguments."""
    z = jnp.asarray(z)
    if z.ndim != 1:
        raise ValueError("z must be a 1D array.\nlpmn takes a vector of points z.")
    if m != n:
        raise NotImplementedError(
            "Computations for m!=n are not yet supported.\nPass m == n (the table is square; "
            "slice the orders and degrees you need)."
        )
    (z,) = promote_args_inexact("lpmn", z)
    return z


def _legendre_table(n: int, z: Any) -> list[list[Any]]:
    """`P_l^m(z)` for `0 <= m, l <= n` (zero for `l < m`), with the Condon-Shortley phase, by
    the recurrences in `l` from `P_m^m = (-1)^m (2m - 1)!! (1 - z^2)^(m/2)`."""
    zero = jnp.zeros_like(z)
    root = jnp.sqrt(1 - z * z)
    table, diag = [], jnp.ones_like(z)
    for m in range(n + 1):
        if m:
            diag = -(2 * m - 1) * root * diag
        col = [zero] * m + [diag]
        if m < n:
            col.append((2 * m + 1) * z * diag)
        for lev in range(m + 2, n + 1):
            col.append(((2 * lev - 1) * z * col[-1] - (lev + m - 1) * col[-2]) / (lev - m))
        table.append(col)
    return table


def _normalize(table: list[list[Any]]) -> list[list[Any]]:
    """Each `P_l^m` times `sqrt((2l + 1) / (4 pi) (l - m)! / (l + m)!)`."""
    return [
        [
            p * math.sqrt((2 * lev + 1) / (4 * math.pi) * math.factorial(lev - m)
                          / math.factorial(lev + m)) if lev >= m else p
            for lev, p in enumerate(col)
        ]
        for m, col in enumerate(table)
    ]  # fmt: skip


def lpmn(m: int, n: int, z: Any) -> tuple[Any, Any]:
    """The associated Legendre functions `P_l^m(z)` and their derivatives in `z`, for orders
    and degrees `0..n` (`jax.scipy.special.lpmn`: only `m == n`).

    Args:
        m: the largest order (must equal `n`).
        n: the largest degree.
        z: the points, a 1-D array (|z| < 1 for finite derivatives).

    Returns:
        `(values, derivatives)`, each `(m + 1, n + 1, len(z))` indexed `[order, degree]`, with
        the Condon-Shortley phase (scipy's convention).
    """
    z = _check_lpmn(m, n, z)
    table = _legendre_table(n, z)
    zero = jnp.zeros_like(z)
    derivs = [
        [
            zero if lev < order else
            (lev * z * col[lev] - (lev + order) * (col[lev - 1] if lev else zero)) / (z * z - 1)
            for lev in range(n + 1)
        ]
        for order, col in enumerate(table)
    ]  # fmt: skip
    return jnp.stack([jnp.stack(c) for c in table]), jnp.stack([jnp.stack(c) for c in derivs])


def lpmn_values(m: int, n: int, z: Any, is_normalized: bool) -> Any:
    """The associated Legendre functions `P_l^m(z)` for orders and degrees `0..n`
    (`jax.scipy.special.lpmn_values`: only `m == n`).

    Args:
        m: the largest order (must equal `n`).
        n: the largest degree.
        z: the points, a 1-D array.
        is_normalized: scale each by `sqrt((2l + 1) / (4 pi) (l - m)! / (l + m)!)`.

    Returns:
        The values, `(m + 1, n + 1, len(z))` indexed `[order, degree]`.
    """
    z = _check_lpmn(m, n, z)
    table = _legendre_table(n, z)
    if is_normalized:
        table = _normalize(table)
    return jnp.stack([jnp.stack(c) for c in table])
