"""`core.scipy.stats.binom`: the binomial distribution (successes in `n` trials)."""

from __future__ import annotations

from typing import Any

import numpy as np

import core.numpy as jnp
from core.numpy._util import promote_args_inexact
from core.scipy.special import gammaln, xlog1py, xlogy


def logpmf(k: Any, n: Any, p: Any, loc: Any = 0) -> Any:
    """The log of the binomial probability mass.

    Args:
      k: numbers of successes.
      n: numbers of trials.
      p: success probability.
      loc: shift of the support.

    Returns:
      `log C(n, y) + y log p + (n - y) log(1 - p)` with `y = k - loc`; `-inf` outside
      `0 <= y <= n`, and 0 where the log-linear term is 0 (`p` 0 or 1 at the matching end).
    """
    k, n, p, loc = promote_args_inexact("binom.logpmf", k, n, p, loc)
    y = k - loc
    comb = gammaln(n + 1) - (gammaln(y + 1) + gammaln(n - y + 1))
    linear = xlogy(y, p) + xlog1py(n - y, -p)
    log_probs = comb + linear
    degenerate = ((y == 0) & (n == 0)) | (linear == 0)
    log_probs = jnp.where(degenerate, 0.0, log_probs)
    return jnp.where((k >= loc) & (k < loc + n + 1), log_probs, -np.inf)


def pmf(k: Any, n: Any, p: Any, loc: Any = 0) -> Any:
    """The binomial probability mass.

    Args:
      k: numbers of successes.
      n: numbers of trials.
      p: success probability.
      loc: shift of the support.

    Returns:
      `exp(logpmf(k, n, p, loc))`.
    """
    return jnp.exp(logpmf(k, n, p, loc))
