"""Numerically safe helpers shared by the transformations (Optax's `numerics`).

`safe_increment` saturates a step counter instead of wrapping around, so a long run never sees a
negative `count` in a bias correction. `safe_norm`/`safe_root_mean_squares` clamp from below
*before* taking the square root, so their gradients stay finite at zero.
"""

from __future__ import annotations

from typing import Any

import core.numpy as jnp
from optim.errors import CountDtypeError


def is_complex(x: Any) -> bool:
    """Returns whether `x` (an array or scalar) has a complex dtype."""
    return jnp.issubdtype(jnp.result_type(x), jnp.complexfloating)


def abs_sq(x: Any) -> Any:
    """Returns `|x|**2` elementwise, real-valued also for complex `x`."""
    if is_complex(x):
        return (x.conj() * x).real
    return x * x


def safe_increment(count: Any) -> Any:
    """Returns `count + 1`, saturating at the largest value of `count`'s dtype.

    Args:
      count: an integer or floating scalar array (step counters are int32).

    Returns:
      An array of the same dtype.
    """
    count = jnp.asarray(count)
    if jnp.issubdtype(count.dtype, jnp.integer):
        max_value = jnp.iinfo(count.dtype).max
    elif jnp.issubdtype(count.dtype, jnp.floating):
        max_value = jnp.finfo(count.dtype).max
    else:
        raise CountDtypeError(
            f"Cannot safely increment count with dtype {count.dtype}, valid dtypes are "
            'subdtypes of "jnp.integer" or "jnp.floating".'
        )
    max_value = jnp.asarray(max_value, count.dtype)
    return jnp.where(count < max_value, count + jnp.asarray(1, count.dtype), max_value)


safe_int32_increment = safe_increment


def safe_norm(x: Any, min_norm: Any, ord: Any = None, axis: Any = None, keepdims: bool = False):
    """Returns `max(||x||, min_norm)` with a gradient that is finite where `||x|| <= min_norm`.

    Args:
      x: the array.
      min_norm: lower bound of the result.
      ord: the norm order, as in `jnp.linalg.norm`.
      axis: the axes to reduce over (all by default).
      keepdims: keep the reduced axes with size one.

    Returns:
      The clamped norm.
    """

    def norm_fn(v, keep):
        if ord is None:  # the Euclidean/Frobenius norm over `axis`
            return jnp.sqrt(jnp.sum(abs_sq(v), axis=axis, keepdims=keep))
        return jnp.linalg.norm(v, ord=ord, axis=axis, keepdims=keep)

    norm = norm_fn(x, True)
    x = jnp.where(norm <= min_norm, jnp.ones_like(x), x)
    norm = norm if keepdims else jnp.squeeze(norm, axis=axis)
    return jnp.where(norm <= min_norm, min_norm, norm_fn(x, keepdims))


def safe_root_mean_squares(x: Any, min_rms: Any) -> Any:
    """Returns `max(sqrt(mean(|x|**2)), min_rms)` with finite gradients at small `x`.

    Args:
      x: an array.
      min_rms: the lower bound.

    Returns:
      ``max(sqrt(mean(|x|**2)), min_rms)``.
    """
    rms = jnp.sqrt(jnp.mean(abs_sq(x)))
    x = jnp.where(rms <= min_rms, jnp.ones_like(x), x)
    return jnp.where(rms <= min_rms, min_rms, jnp.sqrt(jnp.mean(abs_sq(x))))
