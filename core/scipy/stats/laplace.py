"""`core.scipy.stats.laplace`: the Laplace (double exponential) distribution."""

from __future__ import annotations

from typing import Any

import core.numpy as jnp
from core.numpy._util import promote_args_inexact


def logpdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the Laplace density.

    Args:
      x: points.
      loc: location.
      scale: scale.

    Returns:
      `-|x - loc| / scale - log(2 scale)`.
    """
    x, loc, scale = promote_args_inexact("laplace.logpdf", x, loc, scale)
    return -(jnp.abs(x - loc) / scale + jnp.log(2.0 * scale))


def pdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The Laplace density.

    Args:
      x: points.
      loc: location.
      scale: scale.

    Returns:
      `exp(logpdf(x, loc, scale))`.
    """
    return jnp.exp(logpdf(x, loc, scale))


def cdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The Laplace CDF.

    Args:
      x: points.
      loc: location.
      scale: scale.

    Returns:
      `exp(z) / 2` for `z = (x - loc) / scale <= 0`, `1 - exp(-z) / 2` above.
    """
    x, loc, scale = promote_args_inexact("laplace.cdf", x, loc, scale)
    z = (x - loc) / scale
    return jnp.where(z <= 0, 0.5 * jnp.exp(z), 1.0 - 0.5 * jnp.exp(-z))
