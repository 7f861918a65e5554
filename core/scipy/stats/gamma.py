"""`core.scipy.stats.gamma`: the gamma distribution with shape `a`."""

from __future__ import annotations

from typing import Any

import numpy as np

import core.numpy as jnp
from core.numpy._util import promote_args_inexact
from core.scipy import special
from core.scipy.special._util import lax_const


def logpdf(x: Any, a: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the gamma density.

    Args:
      x: points.
      a: shape (positive).
      loc: start of the support.
      scale: scale.

    Returns:
      `(a - 1) log y - y - gammaln(a) - log(scale)` for `y = (x - loc) / scale`, `-inf` below loc.
    """
    x, a, loc, scale = promote_args_inexact("gamma.logpdf", x, a, loc, scale)
    ok = x >= loc
    one = lax_const(x, 1)
    y = jnp.where(ok, (x - loc) / scale, one)
    out = special.xlogy(a - one, y) - y - (special.gammaln(a) + jnp.log(scale))
    return jnp.where(ok, out, -np.inf)


def pdf(x: Any, a: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The gamma density.

    Args:
      x: points.
      a: shape.
      loc: start of the support.
      scale: scale.

    Returns:
      `exp(logpdf(x, a, loc, scale))`.
    """
    return jnp.exp(logpdf(x, a, loc, scale))


def cdf(x: Any, a: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The gamma CDF.

    Args:
      x: points.
      a: shape.
      loc: start of the support.
      scale: scale.

    Returns:
      `gammainc(a, max((x - loc) / scale, 0))`.
    """
    x, a, loc, scale = promote_args_inexact("gamma.cdf", x, a, loc, scale)
    return special.gammainc(a, jnp.clip((x - loc) / scale, lax_const(x, 0), lax_const(x, np.inf)))


def logcdf(x: Any, a: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the gamma CDF.

    Args:
      x: points.
      a: shape.
      loc: start of the support.
      scale: scale.

    Returns:
      `log(cdf(...))`.
    """
    return jnp.log(cdf(x, a, loc, scale))


def sf(x: Any, a: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The gamma survival function.

    Args:
      x: points.
      a: shape.
      loc: start of the support.
      scale: scale.

    Returns:
      `gammaincc(a, (x - loc) / scale)`, 1 below the support.
    """
    x, a, loc, scale = promote_args_inexact("gamma.sf", x, a, loc, scale)
    y = (x - loc) / scale
    return jnp.where(y < 0, jnp.ones_like(y), special.gammaincc(a, y))


def logsf(x: Any, a: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the gamma survival function.

    Args:
      x: points.
      a: shape.
      loc: start of the support.
      scale: scale.

    Returns:
      `log(sf(...))`.
    """
    return jnp.log(sf(x, a, loc, scale))
