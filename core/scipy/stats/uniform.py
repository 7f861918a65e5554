"""`core.scipy.stats.uniform`: the uniform distribution on `[loc, loc + scale]`."""

from __future__ import annotations

from typing import Any

import numpy as np

import core.numpy as jnp
from core.numpy._util import promote_args_inexact


def logpdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the uniform density.

    Args:
      x: points.
      loc: lower bound.
      scale: width.

    Returns:
      `-log(scale)` inside the support, `-inf` outside.
    """
    x, loc, scale = promote_args_inexact("uniform.logpdf", x, loc, scale)
    outside = (x > loc + scale) | (x < loc)
    return jnp.where(outside, jnp.full_like(x, -np.inf), -jnp.log(scale))


def pdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The uniform density.

    Args:
      x: points.
      loc: lower bound.
      scale: width.

    Returns:
      `exp(logpdf(x, loc, scale))`.
    """
    return jnp.exp(logpdf(x, loc, scale))


def cdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The uniform CDF.

    Args:
      x: points.
      loc: lower bound.
      scale: width.

    Returns:
      0 below the support, 1 above, `(x - loc) / scale` inside (0 for NaN points, as JAX's).
    """
    x, loc, scale = promote_args_inexact("uniform.cdf", x, loc, scale)
    hi = loc + scale
    conds = [x < loc, x > hi, (x >= loc) & (x <= hi)]
    zero, one = jnp.array(0, x.dtype), jnp.array(1, x.dtype)  # strong, as JAX's
    # JAX's select with its default 0: a NaN point (no condition holds) gives 0
    return jnp.select(conds, [zero, one, (x - loc) / scale])


def ppf(q: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The uniform percent point function.

    Args:
      q: probabilities.
      loc: lower bound.
      scale: width.

    Returns:
      `loc + scale q`, NaN outside `[0, 1]`.
    """
    q, loc, scale = promote_args_inexact("uniform.ppf", q, loc, scale)
    bad = jnp.isnan(q) | (q < 0) | (q > 1)
    return jnp.where(bad, jnp.full_like(q, np.nan), loc + scale * q)
