"""`core.scipy.stats.beta`: the beta distribution on `[loc, loc + scale]`."""

from __future__ import annotations

from typing import Any

import numpy as np

import core.numpy as jnp
from core.numpy._util import promote_args_inexact
from core.scipy import special
from core.scipy.special._util import lax_const


def logpdf(x: Any, a: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the beta density.

    Args:
      x: points.
      a: first shape parameter (positive).
      b: second shape parameter (positive).
      loc: start of the support.
      scale: width of the support.

    Returns:
      `(a - 1) log y + (b - 1) log(1 - y) - betaln(a, b) - log(scale)` for
      `y = (x - loc) / scale`; `-inf` outside the support, NaN for nonpositive `a`, `b`, `scale`.
    """
    x, a, b, loc, scale = promote_args_inexact("beta.logpdf", x, a, b, loc, scale)
    one = lax_const(x, 1)
    y = (x - loc) / scale
    linear = special.xlogy(a - one, y) + special.xlog1py(b - one, -y)
    out = linear - special.betaln(a, b) - jnp.log(scale)
    out = jnp.where((x > loc + scale) | (x < loc), -np.inf, out)
    bad = (a <= 0) | (b <= 0) | (scale <= 0)
    return jnp.where(bad, np.nan, out)


def pdf(x: Any, a: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The beta density.

    Args:
      x: points.
      a: first shape parameter.
      b: second shape parameter.
      loc: start of the support.
      scale: width of the support.

    Returns:
      `exp(logpdf(x, a, b, loc, scale))`.
    """
    return jnp.exp(logpdf(x, a, b, loc, scale))


def cdf(x: Any, a: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The beta CDF.

    Args:
      x: points.
      a: first shape parameter.
      b: second shape parameter.
      loc: start of the support.
      scale: width of the support.

    Returns:
      `betainc(a, b, clip((x - loc) / scale, 0, 1))`.
    """
    x, a, b, loc, scale = promote_args_inexact("beta.cdf", x, a, b, loc, scale)
    return special.betainc(a, b, _unit_interval(x, loc, scale))


def logcdf(x: Any, a: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the beta CDF.

    Args:
      x: points.
      a: first shape parameter.
      b: second shape parameter.
      loc: start of the support.
      scale: width of the support.

    Returns:
      `log(cdf(...))`.
    """
    return jnp.log(cdf(x, a, b, loc, scale))


def sf(x: Any, a: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The beta survival function.

    Args:
      x: points.
      a: first shape parameter.
      b: second shape parameter.
      loc: start of the support.
      scale: width of the support.

    Returns:
      `betainc(b, a, 1 - clip((x - loc) / scale, 0, 1))`.
    """
    x, a, b, loc, scale = promote_args_inexact("beta.sf", x, a, b, loc, scale)
    return special.betainc(b, a, 1 - _unit_interval(x, loc, scale))


def logsf(x: Any, a: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the beta survival function.

    Args:
      x: points.
      a: first shape parameter.
      b: second shape parameter.
      loc: start of the support.
      scale: width of the support.

    Returns:
      `log(sf(...))`.
    """
    return jnp.log(sf(x, a, b, loc, scale))


def _unit_interval(x: Any, loc: Any, scale: Any) -> Any:
    """`(x - loc) / scale` clamped to [0, 1] by constants typed as JAX's (strong unless `x` is
    a weakly typed scalar)."""
    return jnp.clip((x - loc) / scale, lax_const(x, 0), lax_const(x, 1))
