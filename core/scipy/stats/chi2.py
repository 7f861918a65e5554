"""`core.scipy.stats.chi2`: the chi-squared distribution with `df` degrees of freedom."""

from __future__ import annotations

from typing import Any

import numpy as np

import core.numpy as jnp
from core import lax
from core.numpy._util import promote_args_inexact
from core.scipy import special
from core.scipy.special._util import lax_const


def logpdf(x: Any, df: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the chi-squared density.

    Args:
      x: points.
      df: degrees of freedom.
      loc: start of the support.
      scale: scale.

    Returns:
      `(df/2 - 1) log y - y/2 - gammaln(df/2) - df/2 log 2 - log(scale)`, `-inf` below loc.
    """
    x, df, loc, scale = promote_args_inexact("chi2.logpdf", x, df, loc, scale)
    one, two = lax_const(x, 1), lax_const(x, 2)
    y = (x - loc) / scale
    half_df = df / two
    kernel = (half_df - one) * jnp.log(y) - y / two
    norm = -(lax.lgamma(half_df) + jnp.log(two) * df / two)
    out = norm - jnp.log(scale) + kernel
    return jnp.where(x < loc, -np.inf, out)


def pdf(x: Any, df: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The chi-squared density.

    Args:
      x: points.
      df: degrees of freedom.
      loc: start of the support.
      scale: scale.

    Returns:
      `exp(logpdf(x, df, loc, scale))`.
    """
    return jnp.exp(logpdf(x, df, loc, scale))


def cdf(x: Any, df: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The chi-squared CDF.

    Args:
      x: points.
      df: degrees of freedom.
      loc: start of the support.
      scale: scale.

    Returns:
      `gammainc(df / 2, max((x - loc) / (2 scale), 0))`.
    """
    x, df, loc, scale = promote_args_inexact("chi2.cdf", x, df, loc, scale)
    return special.gammainc(*_halves(x, df, loc, scale))


def logcdf(x: Any, df: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the chi-squared CDF.

    Args:
      x: points.
      df: degrees of freedom.
      loc: start of the support.
      scale: scale.

    Returns:
      `log(cdf(...))`.
    """
    return jnp.log(cdf(x, df, loc, scale))


def sf(x: Any, df: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The chi-squared survival function.

    Args:
      x: points.
      df: degrees of freedom.
      loc: start of the support.
      scale: scale.

    Returns:
      `gammaincc(df / 2, max((x - loc) / (2 scale), 0))`.
    """
    x, df, loc, scale = promote_args_inexact("chi2.sf", x, df, loc, scale)
    return special.gammaincc(*_halves(x, df, loc, scale))


def logsf(x: Any, df: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the chi-squared survival function.

    Args:
      x: points.
      df: degrees of freedom.
      loc: start of the support.
      scale: scale.

    Returns:
      `log(sf(...))`.
    """
    return jnp.log(sf(x, df, loc, scale))


def _halves(x: Any, df: Any, loc: Any, scale: Any) -> tuple[Any, Any]:
    """`df / 2` and `(x - loc) / (2 scale)` clamped to [0, inf], the incomplete gamma's
    arguments, with JAX's typed constants (strong unless `x` is a weakly typed scalar)."""
    two = lax_const(scale, 2)
    y = jnp.clip((x - loc) / (scale * two), lax_const(x, 0), lax_const(x, np.inf))
    return df / two, y
