"""Pooling over the spatial axes of channels-last inputs, one ``lax.reduce_window`` each."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import core.numpy as jnp
from core import lax

Array = Any


def pool(
    inputs: Array,
    init: Any,
    reduce_fn: Callable,
    window_shape: Sequence[int],
    strides: Sequence[int] | None,
    padding: str | Sequence[tuple[int, int]],
) -> Array:
    """Reduces windows of ``(*batch, *spatial, C)`` inputs (a missing batch axis is allowed).

    Args:
      inputs: the array.
      init: the reduction's identity (``0.`` for sums, ``-inf`` for max).
      reduce_fn: the binary reduction (``lax.add``, ``lax.max``...).
      window_shape: the window size per spatial axis.
      strides: the stride per spatial axis (default 1).
      padding: ``'SAME'``, ``'VALID'`` or ``(low, high)`` pairs per spatial axis.

    Returns:
      The pooled array.
    """
    window_shape = tuple(window_shape)
    strides = tuple(strides) if strides else (1,) * len(window_shape)
    if len(strides) != len(window_shape):
        raise ValueError(f"strides {strides} and window_shape {window_shape} differ in length.")
    single = inputs.ndim == len(window_shape) + 1
    if single:
        inputs = inputs[None]
    n_batch = inputs.ndim - len(window_shape) - 1
    dims = (1,) * n_batch + window_shape + (1,)
    strides = (1,) * n_batch + strides + (1,)
    if not isinstance(padding, str):
        padding = ((0, 0),) * n_batch + tuple(map(tuple, padding)) + ((0, 0),)
    y = lax.reduce_window(inputs, init, reduce_fn, dims, strides, padding)
    return y[0] if single else y


def avg_pool(
    inputs: Array,
    window_shape: Sequence[int],
    strides: Sequence[int] | None = None,
    padding: Any = "VALID",
    count_include_pad: bool = True,
) -> Array:
    """Mean over windows (``count_include_pad=False`` divides by the unpadded count)."""
    y = pool(inputs, 0.0, lax.add, window_shape, strides, padding)
    if count_include_pad:
        return y / np.prod(window_shape)
    ones = jnp.ones(inputs.shape[:-1] + (1,), inputs.dtype)
    return y / pool(ones, 0.0, lax.add, window_shape, strides, padding)


def max_pool(
    inputs: Array,
    window_shape: Sequence[int],
    strides: Sequence[int] | None = None,
    padding: Any = "VALID",
) -> Array:
    """Maximum over windows."""
    return pool(inputs, -jnp.inf, lax.max, window_shape, strides, padding)


def min_pool(
    inputs: Array,
    window_shape: Sequence[int],
    strides: Sequence[int] | None = None,
    padding: Any = "VALID",
) -> Array:
    """Minimum over windows."""
    return pool(inputs, jnp.inf, lax.min, window_shape, strides, padding)
