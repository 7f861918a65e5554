"""`core.scipy.stats.gennorm`: the generalized normal distribution with shape `beta`."""

from __future__ import annotations

from typing import Any

import core.numpy as jnp
from core import lax
from core.numpy._util import promote_args_inexact


def logpdf(x: Any, beta: Any) -> Any:
    """The log of the generalized normal density.

    Args:
      x: points.
      beta: shape parameter (2 is the normal with variance 1/2, 1 the Laplace).

    Returns:
      `log(beta / 2) - gammaln(1 / beta) - |x|^beta`.
    """
    x, beta = promote_args_inexact("gennorm.logpdf", x, beta)
    return jnp.log(0.5 * beta) - lax.lgamma(1.0 / beta) - jnp.abs(x) ** beta


def pdf(x: Any, beta: Any) -> Any:
    """The generalized normal density.

    Args:
      x: points.
      beta: shape parameter.

    Returns:
      `exp(logpdf(x, beta))`.
    """
    return jnp.exp(logpdf(x, beta))


def cdf(x: Any, beta: Any) -> Any:
    """The generalized normal CDF.

    Args:
      x: points.
      beta: shape parameter.

    Returns:
      `(1 + sign(x) gammainc(1 / beta, |x|^beta)) / 2`.
    """
    x, beta = promote_args_inexact("gennorm.cdf", x, beta)
    return 0.5 * (1.0 + jnp.sign(x) * lax.igamma(1.0 / beta, jnp.abs(x) ** beta))
