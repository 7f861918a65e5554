"""`core.scipy.stats.dirichlet`: the Dirichlet distribution over the simplex.

The simplex axis is the FIRST axis of `x` (scipy's convention); `x` may omit the last
coordinate, which is then `1 - sum(x)`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import core.numpy as jnp
from core.numpy._util import promote_dtypes_inexact
from core.scipy import special
from core.scipy.errors import ShapeMismatchError


def logpdf(x: Any, alpha: Any) -> Any:
    """The log of the Dirichlet density.

    Args:
      x: points of shape `(K, ...)` or `(K - 1, ...)` on the simplex (first axis).
      alpha: concentration parameters, shape `(K,)`.

    Returns:
      `sum((alpha - 1) log x) - (sum(gammaln(alpha)) - gammaln(sum(alpha)))` over the first
      axis; `-inf` off the simplex (a tolerance of 1e-6 on the sum).
    """
    x, alpha = promote_dtypes_inexact(x, alpha)
    if alpha.ndim != 1:
        raise ShapeMismatchError(f"`alpha` must be one-dimensional; got alpha.shape={alpha.shape}")
    if x.shape[0] not in (alpha.shape[0], alpha.shape[0] - 1):
        raise ShapeMismatchError(
            "`x` must have either the same number of entries as `alpha` or one entry fewer; "
            f"got x.shape={x.shape}, alpha.shape={alpha.shape}"
        )
    if x.shape[0] != alpha.shape[0]:
        x = jnp.concatenate([x, 1.0 - jnp.sum(x, axis=0, keepdims=True)], axis=0)
    norm = jnp.sum(special.gammaln(alpha)) - special.gammaln(jnp.sum(alpha))
    alpha = jnp.reshape(alpha, alpha.shape + (1,) * (x.ndim - 1))
    out = jnp.sum(special.xlogy(alpha - 1.0, x), axis=0) - norm
    simplex = jnp.all(x > 0, axis=0) & (jnp.abs(jnp.sum(x, axis=0) - 1.0) < 1e-6)
    return jnp.where(simplex, out, jnp.full_like(out, -np.inf))


def pdf(x: Any, alpha: Any) -> Any:
    """The Dirichlet density.

    Args:
      x: points on the simplex (first axis).
      alpha: concentration parameters, shape `(K,)`.

    Returns:
      `exp(logpdf(x, alpha))`.
    """
    return jnp.exp(logpdf(x, alpha))
