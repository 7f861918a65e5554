"""`core.scipy.stats.betabinom`: the beta-binomial distribution (a binomial whose success
probability is Beta(a, b))."""

from __future__ import annotations

from typing import Any

import numpy as np

import core.numpy as jnp
from core.numpy._util import promote_args_inexact
from core.scipy.special import betaln
from core.scipy.special._util import lax_const


def logpmf(k: Any, n: Any, a: Any, b: Any, loc: Any = 0) -> Any:
    """The log of the beta-binomial probability mass.

    Args:
      k: numbers of successes (floored).
      n: numbers of trials.
      a: first Beta shape parameter.
      b: second Beta shape parameter.
      loc: shift of the support.

    Returns:
      `-log(n + 1) - B(n - y + 1, y + 1) + B(y + a, n - y + b) - B(a, b)` in logs, `y = k - loc`;
      `-inf` outside the support, NaN for `n < 0`, `a <= 0` or `b <= 0`.
    """
    k, n, a, b, loc = promote_args_inexact("betabinom.logpmf", k, n, a, b, loc)
    y = jnp.floor(k) - loc
    one = lax_const(y, 1)
    comb = -(jnp.log1p(n) + betaln(n - y + one, y + one))
    log_probs = comb + betaln(y + a, n - y + b) - betaln(a, b)
    log_probs = jnp.where((y == 0) & (n == 0), 0.0, log_probs)
    outside = (y < -loc) | (y > n) | (y + a <= 0)
    log_probs = jnp.where(outside, -np.inf, log_probs)
    return jnp.where((n < 0) | (a <= 0) | (b <= 0), np.nan, log_probs)


def pmf(k: Any, n: Any, a: Any, b: Any, loc: Any = 0) -> Any:
    """The beta-binomial probability mass.

    Args:
      k: numbers of successes.
      n: numbers of trials.
      a: first Beta shape parameter.
      b: second Beta shape parameter.
      loc: shift of the support.

    Returns:
      `exp(logpmf(k, n, a, b, loc))`.
    """
    return jnp.exp(logpmf(k, n, a, b, loc))
