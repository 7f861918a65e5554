"""`core.scipy.stats.multivariate_normal`: the multivariate normal distribution.

A scalar `mean` is the 1-D normal; a scalar `cov` is isotropic; a matrix `cov` is factored with
the Cholesky decomposition and `x - mean` whitened by a triangular solve (batched over leading
axes), so the log-density is `-|L^-1 (x - mean)|^2 / 2 - n/2 log(2 pi) - sum(log diag L)`.
"""

from __future__ import annotations

import math
from typing import Any

import core.numpy as jnp
from core.numpy._util import promote_dtypes_inexact
from core.scipy.errors import ShapeMismatchError, UnsupportedOptionError
from core.scipy.linalg import solve_triangular


def logpdf(x: Any, mean: Any, cov: Any, allow_singular: None = None) -> Any:
    """The log of the multivariate normal density.

    Args:
      x: points, shape `(..., n)`.
      mean: mean, shape `(..., n)` (or a scalar for the 1-D case).
      cov: covariance `(..., n, n)`, or a scalar for `cov * I`.
      allow_singular: must be None (singular covariances are not supported, as in JAX).

    Returns:
      The log-density, shape `broadcast(x, mean)[:-1]`.
    """
    if allow_singular is not None:
        raise UnsupportedOptionError(  # JAX 0.10.2's first line, then the fix
            "allow_singular argument of multivariate_normal.logpdf\n"
            "Leave allow_singular at None: as in JAX, a singular cov is not supported."
        )
    x, mean, cov = promote_dtypes_inexact(x, mean, cov)
    log_2pi = math.log(2 * math.pi)
    if not mean.shape:
        return -0.5 * jnp.square(x - mean) / cov - 0.5 * (log_2pi + jnp.log(cov))
    n = mean.shape[-1]
    if not cov.shape:
        y = x - mean
        return -0.5 * jnp.sum(y * y, axis=-1) / cov - n / 2 * (log_2pi + jnp.log(cov))
    if cov.ndim < 2 or cov.shape[-2:] != (n, n):
        raise ShapeMismatchError(
            "multivariate_normal.logpdf got incompatible shapes\n"  # JAX 0.10.2's first line
            f"cov must have shape (..., {n}, {n}) to match mean.shape={mean.shape}, got "
            f"cov.shape={cov.shape}"
        )
    chol = jnp.linalg.cholesky(cov)
    diff = x - mean
    batch = jnp.broadcast_shapes(chol.shape[:-2], diff.shape[:-1])
    chol = jnp.broadcast_to(chol, batch + (n, n))
    diff = jnp.broadcast_to(diff, batch + (n,))
    y = solve_triangular(chol, diff[..., None], lower=True)[..., 0]
    log_diag = jnp.sum(jnp.log(jnp.diagonal(chol, axis1=-2, axis2=-1)), axis=-1)
    return -0.5 * jnp.sum(y * y, axis=-1) - n / 2 * log_2pi - log_diag


def pdf(x: Any, mean: Any, cov: Any) -> Any:
    """The multivariate normal density.

    Args:
      x: points, shape `(..., n)`.
      mean: mean.
      cov: covariance matrix or scalar.

    Returns:
      `exp(logpdf(x, mean, cov))`.
    """
    return jnp.exp(logpdf(x, mean, cov))
