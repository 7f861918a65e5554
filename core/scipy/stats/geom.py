"""`core.scipy.stats.geom`: the geometric distribution (trials until the first success)."""

from __future__ import annotations

from typing import Any

import numpy as np

import core.numpy as jnp
from core.numpy._util import promote_args_inexact
from core.scipy import special
from core.scipy.special._util import lax_const


def logpmf(k: Any, p: Any, loc: Any = 0) -> Any:
    """The log of the geometric probability mass.

    Args:
      k: number of trials (1, 2, ... after shifting by `loc`).
      p: success probability.
      loc: shift of the support.

    Returns:
      `(k - 1) log(1 - p) + log p`, `-inf` for `k - loc <= 0`.
    """
    k, p, loc = promote_args_inexact("geom.logpmf", k, p, loc)
    x = k - loc
    out = special.xlog1py(x - lax_const(k, 1), -p) + jnp.log(p)
    return jnp.where(x <= 0, -np.inf, out)


def pmf(k: Any, p: Any, loc: Any = 0) -> Any:
    """The geometric probability mass.

    Args:
      k: number of trials.
      p: success probability.
      loc: shift of the support.

    Returns:
      `exp(logpmf(k, p, loc))`.
    """
    return jnp.exp(logpmf(k, p, loc))
