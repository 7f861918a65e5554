"""`core.scipy.integrate`: numerical integration, like `jax.scipy.integrate`."""

from __future__ import annotations

from typing import Any

import core.numpy as jnp

__all__ = ["trapezoid"]


def trapezoid(y: Any, x: Any = None, dx: Any = 1.0, axis: int = -1) -> Any:
    """Integrates `y` along `axis` with the composite trapezoidal rule.

    Args:
      y: sampled values.
      x: sample points (1-D, or shaped like `y`); None means spacing `dx`.
      dx: the spacing when `x` is None.
      axis: the axis to integrate along.

    Returns:
      The integral, with `axis` removed.
    """
    return jnp.trapezoid(y, x=x, dx=dx, axis=axis)
