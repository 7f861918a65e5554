"""`core.scipy.stats.multinomial`: the multinomial distribution (counts of `n` draws over the
categories of `p`)."""

from __future__ import annotations

from typing import Any

import numpy as np

import core.numpy as jnp
from core import dtypes
from core.numpy._util import check_arraylike, promote_args_inexact
from core.scipy.special import gammaln, xlogy


def logpmf(x: Any, n: Any, p: Any) -> Any:
    """The log of the multinomial probability mass.

    Args:
      x: integer counts per category (last axis).
      n: the integer number of draws.
      p: category probabilities (last axis).

    Returns:
      `log n! + sum(x log p - log x!)`, `-inf` where the counts do not sum to `n`.

    Raises:
      ValueError: `x` and `n` are not integers.
    """
    (p,) = promote_args_inexact("multinomial.logpmf", p)
    check_arraylike("multinomial.logpmf", x, n)
    dt = dtypes.result_type(x, n)  # promoted as JAX does, but not broadcast
    x, n = jnp.asarray(x, dt), jnp.asarray(n, dt)
    if not dtypes.issubdtype(dt, np.integer):
        raise ValueError(
            f"x and n must be of integer type; got x.dtype={x.dtype}, n.dtype={n.dtype}"
        )
    x, n = x.astype(p.dtype), n.astype(p.dtype)
    logprobs = gammaln(n + 1) + jnp.sum(xlogy(x, p) - gammaln(x + 1), axis=-1)
    return jnp.where(jnp.equal(jnp.sum(x), n), logprobs, -np.inf)


def pmf(x: Any, n: Any, p: Any) -> Any:
    """The multinomial probability mass.

    Args:
      x: integer counts per category.
      n: the integer number of draws.
      p: category probabilities.

    Returns:
      `exp(logpmf(x, n, p))`.
    """
    return jnp.exp(logpmf(x, n, p))
