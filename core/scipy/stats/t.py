"""`core.scipy.stats.t`: Student's t distribution with `df` degrees of freedom."""

from __future__ import annotations

import math
from typing import Any

import core.numpy as jnp
from core import lax
from core.numpy._util import promote_args_inexact
from core.scipy.special._util import lax_const


def logpdf(x: Any, df: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of Student's t density.

    Args:
      x: points.
      df: degrees of freedom.
      loc: location.
      scale: scale.

    Returns:
      `gammaln((df+1)/2) - gammaln(df/2) - log(pi df scale^2)/2 - (df+1)/2 log1p(z^2/df)`.
    """
    x, df, loc, scale = promote_args_inexact("t.logpdf", x, df, loc, scale)
    z = (x - loc) / scale
    two = lax_const(x, 2)
    half_df = df / two
    half_df_p1 = half_df + lax_const(x, 0.5)
    norm = lax.lgamma(half_df) + jnp.log(scale * scale * lax_const(x, math.pi) * df) / two
    norm = norm - lax.lgamma(half_df_p1)
    return -(norm + half_df_p1 * jnp.log1p(z * z / df))


def pdf(x: Any, df: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """Student's t density.

    Args:
      x: points.
      df: degrees of freedom.
      loc: location.
      scale: scale.

    Returns:
      `exp(logpdf(x, df, loc, scale))`.
    """
    return jnp.exp(logpdf(x, df, loc, scale))
