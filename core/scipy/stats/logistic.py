"""`core.scipy.stats.logistic`: the logistic distribution."""

from __future__ import annotations

from typing import Any

import core.numpy as jnp
from core.numpy._util import promote_args_inexact
from core.scipy import special
from core.scipy.special._util import lax_const


def logpdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the logistic density, stable for large `|x|`.

    Args:
      x: points.
      loc: location.
      scale: scale.

    Returns:
      `-2 logaddexp(z / 2, -z / 2) - log(scale)` for `z = (x - loc) / scale`.
    """
    x, loc, scale = promote_args_inexact("logistic.logpdf", x, loc, scale)
    two = lax_const(x, 2)
    half = (x - loc) / scale / two
    return -two * jnp.logaddexp(half, -half) - jnp.log(scale)


def pdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The logistic density.

    Args:
      x: points.
      loc: location.
      scale: scale.

    Returns:
      `exp(logpdf(x, loc, scale))`.
    """
    return jnp.exp(logpdf(x, loc, scale))


def cdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The logistic CDF.

    Args:
      x: points.
      loc: location.
      scale: scale.

    Returns:
      `expit((x - loc) / scale)`.
    """
    x, loc, scale = promote_args_inexact("logistic.cdf", x, loc, scale)
    return special.expit((x - loc) / scale)


def sf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The logistic survival function.

    Args:
      x: points.
      loc: location.
      scale: scale.

    Returns:
      `expit(-(x - loc) / scale)`.
    """
    x, loc, scale = promote_args_inexact("logistic.sf", x, loc, scale)
    return special.expit(-(x - loc) / scale)


def ppf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The logistic percent point function (JAX names the probability argument `x`).

    Args:
      x: probabilities.
      loc: location.
      scale: scale.

    Returns:
      `logit(x) * scale + loc`.
    """
    x, loc, scale = promote_args_inexact("logistic.ppf", x, loc, scale)
    return special.logit(x) * scale + loc


def isf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The logistic inverse survival function.

    Args:
      x: probabilities.
      loc: location.
      scale: scale.

    Returns:
      `-logit(x) * scale + loc`.
    """
    x, loc, scale = promote_args_inexact("logistic.isf", x, loc, scale)
    return -special.logit(x) * scale + loc
