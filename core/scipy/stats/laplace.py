"""`core.scipy.stats.laplace`: the Laplace (double exponential) distribution."""

from __future__ import annotations

from typing import Any

import core.numpy as jnp
from core.numpy._util import promote_args_inexact
from core.scipy.special._util import lax_const


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
    return -(jnp.abs(x - loc) / scale + jnp.log(lax_const(x, 2) * scale))


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
    half, one = lax_const(x, 0.5), lax_const(x, 1)
    return jnp.where(z <= lax_const(x, 0), half * jnp.exp(z), one - half * jnp.exp(-z))
