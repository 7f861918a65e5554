"""`core.scipy.stats.bernoulli`: the Bernoulli distribution with success probability `p`."""

from __future__ import annotations

from typing import Any

import numpy as np

import core.numpy as jnp
from core.numpy._util import promote_args_inexact
from core.scipy import special
from core.scipy.special._util import lax_const


def logpmf(k: Any, p: Any, loc: Any = 0) -> Any:
    """The log of the Bernoulli probability mass.

    Args:
      k: outcomes (0 or 1 after shifting by `loc`).
      p: success probability.
      loc: shift of the support.

    Returns:
      `k log p + (1 - k) log(1 - p)`, `-inf` outside `[0, 1]`.
    """
    k, p, loc = promote_args_inexact("bernoulli.logpmf", k, p, loc)
    x = k - loc
    out = special.xlogy(x, p) + special.xlog1py(lax_const(k, 1) - x, -p)
    return jnp.where((x < 0) | (x > 1), -np.inf, out)


def pmf(k: Any, p: Any, loc: Any = 0) -> Any:
    """The Bernoulli probability mass.

    Args:
      k: outcomes.
      p: success probability.
      loc: shift of the support.

    Returns:
      `exp(logpmf(k, p, loc))`.
    """
    return jnp.exp(logpmf(k, p, loc))


def cdf(k: Any, p: Any) -> Any:
    """The Bernoulli CDF.

    Args:
      k: outcomes.
      p: success probability.

    Returns:
      0 below 0, `1 - p` on `[0, 1)`, 1 from 1 on; NaN for NaN inputs or `p` outside `[0, 1]`.
    """
    k, p = promote_args_inexact("bernoulli.cdf", k, p)
    bad = jnp.isnan(k) | jnp.isnan(p) | (p < 0) | (p > 1)
    zero, one = lax_const(k, 0), lax_const(k, 1)
    conds = [bad, k < 0, (k >= 0) & (k < 1), k >= 1]
    return jnp.select(conds, [np.nan, zero, one - p, one])


def ppf(q: Any, p: Any) -> Any:
    """The Bernoulli percent point function.

    Args:
      q: probabilities.
      p: success probability.

    Returns:
      0 where `q <= 1 - p`, else 1; NaN for invalid `q` or `p`.
    """
    q, p = promote_args_inexact("bernoulli.ppf", q, p)
    bad = jnp.isnan(q) | jnp.isnan(p) | (p < 0) | (p > 1) | (q < 0) | (q > 1)
    zero, one = lax_const(q, 0), lax_const(q, 1)
    return jnp.where(bad, np.nan, jnp.where(q <= one - p, zero, one))
