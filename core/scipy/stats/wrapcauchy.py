"""`core.scipy.stats.wrapcauchy`: the wrapped Cauchy distribution on `[0, 2 pi]`."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import core.numpy as jnp
from core.numpy._util import promote_args_inexact


def logpdf(x: Any, c: Any) -> Any:
    """The log of the wrapped Cauchy density.

    Args:
      x: angles in `[0, 2 pi]`.
      c: shape parameter in `(0, 1)`.

    Returns:
      `log(1 - c^2) - log(2 pi) - log(1 + c^2 - 2 c cos x)`; `-inf` outside `[0, 2 pi]`,
      NaN for `c` outside `(0, 1)`.
    """
    x, c = promote_args_inexact("wrapcauchy.logpdf", x, c)
    out = jnp.log(1.0 - c * c) - math.log(2 * math.pi) - jnp.log(1.0 + c * c - 2.0 * c * jnp.cos(x))
    out = jnp.where((x >= 0) & (x <= 2 * math.pi), out, jnp.full_like(out, -np.inf))
    return jnp.where((c > 0) & (c < 1), out, jnp.full_like(out, np.nan))


def pdf(x: Any, c: Any) -> Any:
    """The wrapped Cauchy density.

    Args:
      x: angles.
      c: shape parameter.

    Returns:
      `exp(logpdf(x, c))`.
    """
    return jnp.exp(logpdf(x, c))
