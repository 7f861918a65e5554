"""`core.scipy.stats.expon`: the exponential distribution starting at `loc`."""

from __future__ import annotations

from typing import Any

import numpy as np

import core.numpy as jnp
from core.numpy._util import promote_args_inexact


def logpdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the exponential density.

    Args:
      x: points.
      loc: start of the support.
      scale: mean above `loc`.

    Returns:
      `-(x - loc) / scale - log(scale)`, `-inf` below `loc`.
    """
    x, loc, scale = promote_args_inexact("expon.logpdf", x, loc, scale)
    out = -((x - loc) / scale + jnp.log(scale))
    return jnp.where(x < loc, jnp.full_like(out, -np.inf), out)


def pdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The exponential density.

    Args:
      x: points.
      loc: start of the support.
      scale: mean above `loc`.

    Returns:
      `exp(logpdf(x, loc, scale))`.
    """
    return jnp.exp(logpdf(x, loc, scale))


def cdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The exponential CDF.

    Args:
      x: points.
      loc: start of the support.
      scale: mean above `loc`.

    Returns:
      `-expm1(-(x - loc) / scale)`, 0 below `loc`.
    """
    x, loc, scale = promote_args_inexact("expon.cdf", x, loc, scale)
    neg = (loc - x) / scale
    return jnp.where(x < loc, jnp.zeros_like(neg), -jnp.expm1(neg))


def logsf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the exponential survival function.

    Args:
      x: points.
      loc: start of the support.
      scale: mean above `loc`.

    Returns:
      `-(x - loc) / scale`, 0 below `loc`.
    """
    x, loc, scale = promote_args_inexact("expon.logsf", x, loc, scale)
    neg = (loc - x) / scale
    return jnp.where(x < loc, jnp.zeros_like(neg), neg)


def sf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The exponential survival function.

    Args:
      x: points.
      loc: start of the support.
      scale: mean above `loc`.

    Returns:
      `exp(logsf(x, loc, scale))`.
    """
    return jnp.exp(logsf(x, loc, scale))


def logcdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the exponential CDF.

    Args:
      x: points.
      loc: start of the support.
      scale: mean above `loc`.

    Returns:
      `log1p(-sf(x, loc, scale))`.
    """
    return jnp.log1p(-sf(x, loc, scale))


def ppf(q: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The exponential percent point function.

    Args:
      q: probabilities.
      loc: start of the support.
      scale: mean above `loc`.

    Returns:
      `loc - scale log1p(-q)`, NaN outside `[0, 1]`.
    """
    q, loc, scale = promote_args_inexact("expon.ppf", q, loc, scale)
    bad = jnp.isnan(q) | (q < 0) | (q > 1)
    return jnp.where(bad, jnp.full_like(q, np.nan), loc - scale * jnp.log1p(-q))
