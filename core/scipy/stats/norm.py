"""`core.scipy.stats.norm`: the normal distribution with mean `loc` and std `scale`."""

from __future__ import annotations

import math
from typing import Any

import core.numpy as jnp
from core import lax
from core.numpy._util import promote_args_inexact
from core.scipy import special
from core.scipy.special._util import lax_const


def logpdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the normal probability density.

    Args:
      x: points.
      loc: mean.
      scale: standard deviation.

    Returns:
      `-((x - loc) / scale)^2 / 2 - log(sqrt(2 pi) scale)`.
    """
    x, loc, scale = promote_args_inexact("norm.logpdf", x, loc, scale)
    var = scale * scale
    log_normalizer = jnp.log(lax_const(x, 2 * math.pi) * var)
    return (log_normalizer + (x - loc) * (x - loc) / var) / lax_const(x, -2)


def pdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The normal probability density (see `logpdf`).

    Args:
      x: points.
      loc: mean.
      scale: standard deviation.

    Returns:
      `exp(logpdf(x, loc, scale))`.
    """
    return jnp.exp(logpdf(x, loc, scale))


def cdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The normal cumulative distribution function.

    Args:
      x: points.
      loc: mean.
      scale: standard deviation.

    Returns:
      `ndtr((x - loc) / scale)`.
    """
    x, loc, scale = promote_args_inexact("norm.cdf", x, loc, scale)
    return special.ndtr((x - loc) / scale)


def logcdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the normal CDF, accurate in the lower tail.

    Args:
      x: points.
      loc: mean.
      scale: standard deviation.

    Returns:
      `log_ndtr((x - loc) / scale)`.
    """
    x, loc, scale = promote_args_inexact("norm.logcdf", x, loc, scale)
    return special.log_ndtr((x - loc) / scale)


def sf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The normal survival function `1 - cdf`.

    Args:
      x: points.
      loc: mean.
      scale: standard deviation.

    Returns:
      `cdf(-x, -loc, scale)`.
    """
    x, loc, scale = promote_args_inexact("norm.sf", x, loc, scale)
    return cdf(-x, -loc, scale)


def logsf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the normal survival function.

    Args:
      x: points.
      loc: mean.
      scale: standard deviation.

    Returns:
      `logcdf(-x, -loc, scale)`.
    """
    x, loc, scale = promote_args_inexact("norm.logsf", x, loc, scale)
    return logcdf(-x, -loc, scale)


def ppf(q: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The normal percent point function (inverse CDF).

    Args:
      q: probabilities.
      loc: mean.
      scale: standard deviation.

    Returns:
      `ndtri(q) * scale + loc`.
    """
    # JAX's: no promotion (`ndtri` takes float32/float64 only), the result as the default float
    return jnp.asarray(special.ndtri(q) * scale + loc, float)


def isf(q: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The normal inverse survival function.

    Args:
      q: probabilities.
      loc: mean.
      scale: standard deviation.

    Returns:
      `ppf(1 - q, loc, scale)`.
    """
    return ppf(lax.sub(lax_const(q, 1), q), loc, scale)
