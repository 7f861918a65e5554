"""`core.scipy.stats.pareto`: the Pareto distribution with shape `b` (density
`b / x^(b + 1)` for `x >= 1`, shifted by `loc` and stretched by `scale`)."""

from __future__ import annotations

from typing import Any

import numpy as np

import core.numpy as jnp
from core.numpy._util import promote_args_inexact
from core.scipy.special._util import lax_const


def logpdf(x: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the Pareto density.

    Args:
      x: points.
      b: shape parameter.
      loc: location.
      scale: scale.

    Returns:
      `-(log(scale / b) + (b + 1) log((x - loc) / scale))`, `-inf` below `loc + scale`.
    """
    x, b, loc, scale = promote_args_inexact("pareto.logpdf", x, b, loc, scale)
    scaled = (x - loc) / scale
    log_probs = -(jnp.log(scale / b) + (b + lax_const(x, 1)) * jnp.log(scaled))
    return jnp.where(x < loc + scale, -np.inf, log_probs)


def pdf(x: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The Pareto density: `exp(logpdf(x, b, loc, scale))`.

    Args:
      x: points.
      b: shape parameter.
      loc: location.
      scale: scale.

    Returns:
      The density.
    """
    return jnp.exp(logpdf(x, b, loc, scale))


def cdf(x: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The Pareto distribution function.

    Args:
      x: points.
      b: shape parameter.
      loc: location.
      scale: scale.

    Returns:
      `1 - ((x - loc) / scale)^-b`, 0 below `loc + scale`.
    """
    x, b, loc, scale = promote_args_inexact("pareto.cdf", x, b, loc, scale)
    out = lax_const(x, 1) - ((x - loc) / scale) ** -b
    return jnp.where(x < loc + scale, lax_const(x, 0), out)


def logcdf(x: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the Pareto distribution function.

    Args:
      x: points.
      b: shape parameter.
      loc: location.
      scale: scale.

    Returns:
      `log1p(-((x - loc) / scale)^-b)`, `-inf` below `loc + scale`.
    """
    x, b, loc, scale = promote_args_inexact("pareto.logcdf", x, b, loc, scale)
    out = jnp.log1p(-(((x - loc) / scale) ** -b))
    return jnp.where(x < loc + scale, -np.inf, out)


def logsf(x: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the Pareto survival function.

    Args:
      x: points.
      b: shape parameter.
      loc: location.
      scale: scale.

    Returns:
      `-b log((x - loc) / scale)`, 0 below `loc + scale`.
    """
    x, b, loc, scale = promote_args_inexact("pareto.logsf", x, b, loc, scale)
    out = -(b * jnp.log((x - loc) / scale))
    return jnp.where(x < loc + scale, lax_const(x, 0), out)


def sf(x: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The Pareto survival function: `exp(logsf(x, b, loc, scale))`.

    Args:
      x: points.
      b: shape parameter.
      loc: location.
      scale: scale.

    Returns:
      The survival probability.
    """
    return jnp.exp(logsf(x, b, loc, scale))


def ppf(q: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The Pareto quantile function.

    Args:
      q: probabilities.
      b: shape parameter.
      loc: location.
      scale: scale.

    Returns:
      `loc + scale (1 - q)^(-1 / b)`, NaN for `q` outside [0, 1] or NaN.
    """
    q, b, loc, scale = promote_args_inexact("pareto.ppf", q, b, loc, scale)
    one = lax_const(q, 1)
    out = loc + scale * (one - q) ** -(one / b)
    return jnp.where(jnp.isnan(q) | (q < 0) | (q > 1), np.nan, out)
