"""`core.scipy.stats.gumbel_l`: the left-skewed Gumbel distribution (of minima), with
`z = (x - loc) / scale`: density `exp(z - e^z) / scale`."""

from __future__ import annotations

from typing import Any

import numpy as np

import core.numpy as jnp
from core.numpy._util import promote_args_inexact
from core.scipy.special import xlog1py, xlogy


def logpdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log density: `z - e^z - log(scale)`; NaN for `scale <= 0`.

    Args:
      x: points.
      loc: location.
      scale: scale.

    Returns:
      The log density.
    """
    x, loc, scale = promote_args_inexact("gumbel_l.logpdf", x, loc, scale)
    z = (x - loc) / scale
    return jnp.where(scale > 0, xlogy(-1, scale) + (z - jnp.exp(z)), np.nan)


def pdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The density, `exp(logpdf(x, loc, scale))`.

    Args:
      x: points.
      loc: location.
      scale: scale.

    Returns:
      The density.
    """
    return jnp.exp(logpdf(x, loc, scale))


def logcdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log distribution function: `log(1 - exp(-e^z))`; NaN for `scale <= 0`.

    Args:
      x: points.
      loc: location.
      scale: scale.

    Returns:
      The log probability of a value at most `x`.
    """
    x, loc, scale = promote_args_inexact("gumbel_l.logcdf", x, loc, scale)
    z = (x - loc) / scale
    return jnp.where(scale > 0, jnp.log(-jnp.expm1(-jnp.exp(z))), np.nan)


def cdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The distribution function, `exp(logcdf(x, loc, scale))`.

    Args:
      x: points.
      loc: location.
      scale: scale.

    Returns:
      The probability of a value at most `x`.
    """
    return jnp.exp(logcdf(x, loc, scale))


def ppf(p: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The quantile function: `loc + scale log(-log1p(-p))`; NaN outside `0 < p < 1`.

    Args:
      p: probabilities.
      loc: location.
      scale: scale.

    Returns:
      The quantiles.
    """
    p, loc, scale = promote_args_inexact("gumbel_l.ppf", p, loc, scale)
    quantile = loc + scale * jnp.log(xlog1py(-1, -p))
    return jnp.where((p > 0) & (p < 1), quantile, np.nan)


def logsf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log survival function: `-e^z`; NaN for `scale <= 0`.

    Args:
      x: points.
      loc: location.
      scale: scale.

    Returns:
      The log probability of a value above `x`.
    """
    x, loc, scale = promote_args_inexact("gumbel_l.logsf", x, loc, scale)
    z = (x - loc) / scale
    return jnp.where(scale > 0, -jnp.exp(z), np.nan)


def sf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The survival function, `exp(logsf(x, loc, scale))`.

    Args:
      x: points.
      loc: location.
      scale: scale.

    Returns:
      The probability of a value above `x`.
    """
    return jnp.exp(logsf(x, loc, scale))
