"""`core.scipy.stats.nbinom`: the negative binomial distribution (failures before `n` successes)."""

from __future__ import annotations

from typing import Any

import numpy as np

import core.numpy as jnp
from core.numpy._util import promote_args_inexact
from core.scipy import special
from core.scipy.special._util import lax_const


def logpmf(k: Any, n: Any, p: Any, loc: Any = 0) -> Any:
    """The log of the negative binomial probability mass.

    Args:
      k: number of failures.
      n: number of successes.
      p: success probability.
      loc: shift of the support.

    Returns:
      `gammaln(k + n) - gammaln(n) - gammaln(k + 1) + n log p + k log(1 - p)`, `-inf` below loc.
    """
    k, n, p, loc = promote_args_inexact("nbinom.logpmf", k, n, p, loc)
    one = lax_const(k, 1)
    y = k - loc
    comb = special.gammaln(y + n) - special.gammaln(n) - special.gammaln(y + one)
    out = comb + special.xlogy(n, p) + special.xlogy(y, one - p)
    return jnp.where(k < loc, -np.inf, out)


def pmf(k: Any, n: Any, p: Any, loc: Any = 0) -> Any:
    """The negative binomial probability mass.

    Args:
      k: number of failures.
      n: number of successes.
      p: success probability.
      loc: shift of the support.

    Returns:
      `exp(logpmf(k, n, p, loc))`.
    """
    return jnp.exp(logpmf(k, n, p, loc))
