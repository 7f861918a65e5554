"""`core.scipy.stats.vonmises`: the von Mises distribution on the circle."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import core.numpy as jnp
from core import lax
from core.numpy._util import promote_args_inexact


def logpdf(x: Any, kappa: Any) -> Any:
    """The log of the von Mises density (centred at 0).

    Args:
      x: angles.
      kappa: concentration (positive).

    Returns:
      `kappa (cos x - 1) - log(2 pi i0e(kappa))`, NaN for `kappa <= 0`.
    """
    x, kappa = promote_args_inexact("vonmises.logpdf", x, kappa)
    out = kappa * (jnp.cos(x) - 1.0) - jnp.log(2 * math.pi * lax.bessel_i0e(kappa))
    return jnp.where(kappa > 0, out, jnp.full_like(out, np.nan))


def pdf(x: Any, kappa: Any) -> Any:
    """The von Mises density.

    Args:
      x: angles.
      kappa: concentration.

    Returns:
      `exp(logpdf(x, kappa))`.
    """
    return jnp.exp(logpdf(x, kappa))
