"""`core.scipy.stats.gumbel_r`: the right-skewed Gumbel distribution (of maxima), with
`z = (x - loc) / scale`: density `exp(-(z + e^-z)) / scale`."""

from __future__ import annotations

from typing import Any

import numpy as np

import core.numpy as jnp
from core.nn.activations import log1mexp
from core.numpy._util import promote_args_inexact
from core.scipy.special import xlogy
from core.scipy.special._util import lax_const


def logpdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log density: `-(z + e^-z) - log(scale)`; NaN for `scale <= 0`.

    Args:
      x: points.
      loc: location.
      scale: scale.

    Returns:
      The log density.
    """
    x, loc, scale = promote_args_inexact("gumbel_r.logpdf", x, loc, scale)
    z = (x - loc) / scale
    return jnp.where(scale > 0, xlogy(-1, scale) + -(z + jnp.exp(-z)), np.nan)


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
    """The log distribution function: `-e^-z`; NaN for `scale <= 0`.

    Args:
      x: points.
      loc: location.
      scale: scale.

    Returns:
      The log probability of a value at most `x`.
    """
    x, loc, scale = promote_args_inexact("gumbel_r.logcdf", x, loc, scale)
    z = (x - loc) / scale
    return jnp.where(scale > 0, -jnp.exp(-z), np.nan)


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
    """The quantile function: `loc - scale log(-log p)`; NaN outside `0 < p < 1`.

    Args:
      p: probabilities.
      loc: location.
      scale: scale.

    Returns:
      The quantiles.
    """
    p, loc, scale = promote_args_inexact("gumbel_r.ppf", p, loc, scale)
    quantile = loc - scale * jnp.log(xlogy(-1, p))
    return jnp.where((p > 0) & (p < 1), quantile, np.nan)


def sf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The survival function: `1 - exp(-e^-z)`; NaN for `scale <= 0`.

    Args:
      x: points.
      loc: location.
      scale: scale.

    Returns:
      The probability of a value above `x`.
    """
    x, loc, scale = promote_args_inexact("gumbel_r.sf", x, loc, scale)
    neg_z = (loc - x) / scale
    return jnp.where(scale > 0, lax_const(x, 1) - jnp.exp(-jnp.exp(neg_z)), np.nan)


def logsf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log survival function: `log(1 - exp(-e^-z))`; NaN for `scale <= 0`.

    Args:
      x: points.
      loc: location.
      scale: scale.

    Returns:
      The log probability of a value above `x`.
    """
    x, loc, scale = promote_args_inexact("gumbel_r.logsf", x, loc, scale)
    neg_z = (loc - x) / scale
    return jnp.where(scale > 0, log1mexp(jnp.exp(neg_z)), np.nan)
