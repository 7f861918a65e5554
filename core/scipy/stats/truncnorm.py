"""`core.scipy.stats.truncnorm`: the normal distribution truncated to `[a, b]` (standardized).

Probability masses are computed in log space: `log(Phi(b) - Phi(a))` from `log_ndtr` of the
tail nearest to the interval (`-b, -a` when the interval is right of 0), and
`log1p(-Phi(a) - Phi(-b))` when it straddles 0, as in JAX and scipy.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import core.numpy as jnp
from core import lax
from core.numpy._util import promote_args_inexact
from core.scipy import special
from core.scipy.stats import norm


def _log_diff(x: Any, y: Any) -> Any:
    """`log(exp(x) - exp(y))` for `x >= y`, by a signed `logsumexp` as JAX computes it (its
    last bits: `log(|exp(x - m) - exp(y - m)|) + m`, not a `log1p`)."""
    signs = jnp.stack([jnp.ones_like(x), -jnp.ones_like(y)])
    return special.logsumexp(jnp.stack([x, y]), axis=0, b=signs)


def _log_gauss_mass(a: Any, b: Any) -> Any:
    a, b = jnp.broadcast_arrays(a, b)
    left = b <= 0
    right = a > 0
    central = ~(left | right)
    a_tail = jnp.where(right, -b, a)
    b_tail = jnp.where(right, -a, b)
    tail = _log_diff(special.log_ndtr(b_tail), special.log_ndtr(a_tail))
    mid = jnp.log1p(-special.ndtr(a) - special.ndtr(-b))
    return jnp.where(central, mid, tail)


def logpdf(x: Any, a: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the truncated normal density.

    Args:
      x: points.
      a: lower bound in standard units (`(lower - loc) / scale`).
      b: upper bound in standard units.
      loc: mean of the untruncated normal.
      scale: standard deviation of the untruncated normal.

    Returns:
      `norm.logpdf(x, loc, scale) - log(Phi(b) - Phi(a))`; `-inf` outside, NaN if `a >= b`.
    """
    x, a, b, loc, scale = promote_args_inexact("truncnorm.logpdf", x, a, b, loc, scale)
    # lax.sub, as JAX's: the strong mass does not cast a weak x (whose gradient stays strong)
    out = lax.sub(norm.logpdf(x, loc, scale), _log_gauss_mass(a, b))
    z = (x - loc) / scale
    out = jnp.where((z < a) | (z > b), jnp.full_like(out, -np.inf), out)
    return jnp.where(a >= b, jnp.full_like(out, np.nan), out)


def pdf(x: Any, a: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The truncated normal density.

    Args:
      x: points.
      a: lower bound in standard units.
      b: upper bound in standard units.
      loc: mean of the untruncated normal.
      scale: standard deviation of the untruncated normal.

    Returns:
      `exp(logpdf(...))`.
    """
    return jnp.exp(logpdf(x, a, b, loc, scale))


def logcdf(x: Any, a: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the truncated normal CDF.

    Args:
      x: points.
      a: lower bound in standard units.
      b: upper bound in standard units.
      loc: mean of the untruncated normal.
      scale: standard deviation of the untruncated normal.

    Returns:
      `log((Phi(z) - Phi(a)) / (Phi(b) - Phi(a)))`, via the survival side near 1.
    """
    x, a, b, loc, scale = promote_args_inexact("truncnorm.logcdf", x, a, b, loc, scale)
    z = (x - loc) / scale
    mass = _log_gauss_mass(a, b)
    lcdf = _log_gauss_mass(a, z) - mass
    lsf = _log_gauss_mass(z, b) - mass
    out = jnp.select(
        [z >= b, z <= a, lcdf > -0.1, z > a],
        [0, -np.inf, jnp.log1p(-jnp.exp(lsf)), lcdf],
    )  # JAX's default 0: a NaN point gives a CDF of 1
    return jnp.where(a >= b, jnp.full_like(out, np.nan), out)


def cdf(x: Any, a: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The truncated normal CDF.

    Args:
      x: points.
      a: lower bound in standard units.
      b: upper bound in standard units.
      loc: mean of the untruncated normal.
      scale: standard deviation of the untruncated normal.

    Returns:
      `exp(logcdf(...))`.
    """
    return jnp.exp(logcdf(x, a, b, loc, scale))


def logsf(x: Any, a: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the truncated normal survival function.

    Args:
      x: points.
      a: lower bound in standard units.
      b: upper bound in standard units.
      loc: mean of the untruncated normal.
      scale: standard deviation of the untruncated normal.

    Returns:
      `logcdf(-x, -b, -a, -loc, scale)`.
    """
    x, a, b, loc, scale = promote_args_inexact("truncnorm.logsf", x, a, b, loc, scale)
    return logcdf(-x, -b, -a, -loc, scale)


def sf(x: Any, a: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The truncated normal survival function.

    Args:
      x: points.
      a: lower bound in standard units.
      b: upper bound in standard units.
      loc: mean of the untruncated normal.
      scale: standard deviation of the untruncated normal.

    Returns:
      `exp(logsf(...))`.
    """
    return jnp.exp(logsf(x, a, b, loc, scale))
