"""`core.scipy.stats.poisson`: the Poisson distribution with rate `mu`."""

from __future__ import annotations

from typing import Any

import numpy as np

import core.numpy as jnp
from core.numpy._util import promote_args_inexact
from core.scipy import special
from core.scipy.special._util import lax_const


def logpmf(k: Any, mu: Any, loc: Any = 0) -> Any:
    """The log of the Poisson probability mass.

    Args:
      k: counts.
      mu: rate.
      loc: shift of the support.

    Returns:
      `k log(mu) - gammaln(k + 1) - mu` (with `k` shifted by `loc`); `-inf` for negative or
      non-integer `k`.
    """
    k, mu, loc = promote_args_inexact("poisson.logpmf", k, mu, loc)
    x = k - loc
    out = special.xlogy(x, mu) - special.gammaln(x + 1.0) - mu
    bad = (x < 0) | (jnp.round(k) != k)
    return jnp.where(bad, jnp.full_like(out, -np.inf), out)


def pmf(k: Any, mu: Any, loc: Any = 0) -> Any:
    """The Poisson probability mass.

    Args:
      k: counts.
      mu: rate.
      loc: shift of the support.

    Returns:
      `exp(logpmf(k, mu, loc))`.
    """
    return jnp.exp(logpmf(k, mu, loc))


def cdf(k: Any, mu: Any, loc: Any = 0) -> Any:
    """The Poisson CDF.

    Args:
      k: counts.
      mu: rate.
      loc: shift of the support.

    Returns:
      `gammaincc(floor(k - loc) + 1, mu)`, 0 below the support.
    """
    k, mu, loc = promote_args_inexact("poisson.cdf", k, mu, loc)
    x = k - loc
    p = special.gammaincc(jnp.floor(1 + x), mu)
    return jnp.where(x < 0, lax_const(k, 0), p)


def entropy(mu: Any, loc: Any = 0) -> Any:
    """The entropy of the Poisson distribution.

    Sums `-p log p` over the first 35 (`mu < 10`) or 250 (`mu < 100`) counts, and uses the
    asymptotic `log(2 pi e mu) / 2 - 1 / (12 mu)` above, like JAX.

    Args:
      mu: rate.
      loc: shift (does not change the entropy; only broadcast against).

    Returns:
      The entropy in nats, shaped like `broadcast(mu, loc)`.
    """
    mu, loc = promote_args_inexact("poisson.entropy", mu, loc)

    def summed(max_k: int, upper: Any) -> Any:
        ks = jnp.arange(max_k, dtype=mu.dtype).reshape((max_k,) + (1,) * mu.ndim)
        probs = pmf(ks, mu)
        probs = jnp.where(ks < jnp.ceil(upper), probs, jnp.zeros_like(probs))
        return jnp.sum(special.entr(probs), axis=0)

    small = summed(35, mu + 20.0)
    medium = summed(250, mu + 10.0 * jnp.sqrt(mu) + 20.0)
    safe = jnp.where(mu > 0, mu, jnp.ones_like(mu))
    large = 0.5 * jnp.log(2 * np.pi * np.e * safe) - 1.0 / (12.0 * safe)
    out = jnp.where(mu < 10, small, jnp.where(mu < 100, medium, large))
    return jnp.where(mu == 0, jnp.zeros_like(out), out)
