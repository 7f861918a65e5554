"""`core.scipy.stats.cauchy`: the Cauchy distribution."""

from __future__ import annotations

import math
from typing import Any

import core.numpy as jnp
from core.numpy._util import promote_args_inexact
from core.scipy.special._util import lax_const


def logpdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the Cauchy density.

    Args:
      x: points.
      loc: location (median).
      scale: half width at half maximum.

    Returns:
      `-log(pi scale) - log1p(z^2)` for `z = (x - loc) / scale`.
    """
    x, loc, scale = promote_args_inexact("cauchy.logpdf", x, loc, scale)
    z = (x - loc) / scale
    return -(jnp.log(lax_const(x, math.pi) * scale) + jnp.log1p(z * z))


def pdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The Cauchy density.

    Args:
      x: points.
      loc: location.
      scale: scale.

    Returns:
      `exp(logpdf(x, loc, scale))`.
    """
    return jnp.exp(logpdf(x, loc, scale))


def cdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The Cauchy CDF.

    Args:
      x: points.
      loc: location.
      scale: scale.

    Returns:
      `1/2 + arctan((x - loc) / scale) / pi`.
    """
    x, loc, scale = promote_args_inexact("cauchy.cdf", x, loc, scale)
    one_over_pi = lax_const(x, 1) / lax_const(x, math.pi)
    return lax_const(x, 0.5) + one_over_pi * jnp.arctan((x - loc) / scale)


def logcdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the Cauchy CDF.

    Args:
      x: points.
      loc: location.
      scale: scale.

    Returns:
      `log(cdf(x, loc, scale))`.
    """
    return jnp.log(cdf(x, loc, scale))


def sf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The Cauchy survival function.

    Args:
      x: points.
      loc: location.
      scale: scale.

    Returns:
      `cdf(-x, -loc, scale)`.
    """
    x, loc, scale = promote_args_inexact("cauchy.sf", x, loc, scale)
    return cdf(-x, -loc, scale)


def logsf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the Cauchy survival function.

    Args:
      x: points.
      loc: location.
      scale: scale.

    Returns:
      `logcdf(-x, -loc, scale)`.
    """
    x, loc, scale = promote_args_inexact("cauchy.logsf", x, loc, scale)
    return logcdf(-x, -loc, scale)


def ppf(q: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The Cauchy percent point function.

    Args:
      q: probabilities.
      loc: location.
      scale: scale.

    Returns:
      `tan(pi q - pi / 2) * scale + loc`.
    """
    q, loc, scale = promote_args_inexact("cauchy.ppf", q, loc, scale)
    return jnp.tan(lax_const(q, math.pi) * q - lax_const(q, math.pi / 2)) * scale + loc


def isf(q: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The Cauchy inverse survival function.

    Args:
      q: probabilities.
      loc: location.
      scale: scale.

    Returns:
      `tan(pi / 2 - pi q) * scale + loc`.
    """
    q, loc, scale = promote_args_inexact("cauchy.isf", q, loc, scale)
    return jnp.tan(lax_const(q, math.pi / 2) - lax_const(q, math.pi) * q) * scale + loc
