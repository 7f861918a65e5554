"""`core.scipy.stats.chi2`: the chi-squared distribution with `df` degrees of freedom."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import core.numpy as jnp
from core import lax
from core.numpy._util import promote_args_inexact
from core.scipy import special


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
    y = (x - loc) / scale
    half_df = df / 2.0
    kernel = (half_df - 1.0) * jnp.log(y) - y / 2.0
    norm = -(lax.lgamma(half_df) + math.log(2.0) * df / 2.0)
    out = norm - jnp.log(scale) + kernel
    return jnp.where(x < loc, jnp.full_like(out, -np.inf), out)


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
    return special.gammainc(df / 2.0, jnp.clip((x - loc) / (scale * 2.0), 0.0, np.inf))


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
    return special.gammaincc(df / 2.0, jnp.clip((x - loc) / (scale * 2.0), 0.0, np.inf))


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
