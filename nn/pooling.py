"""Pooling over the spatial axes of channels-last inputs, one ``lax.reduce_window`` each."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import core.numpy as jnp
from core import lax
from nn.errors import PoolArgumentError

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
        raise PoolArgumentError(f"len({window_shape}) must equal len({strides})")
    single = inputs.ndim == len(window_shape) + 1
    if single:
        inputs = inputs[None]
    n_batch = inputs.ndim - len(window_shape) - 1
    dims = (1,) * n_batch + window_shape + (1,)
    strides = (1,) * n_batch + strides + (1,)
    if not isinstance(padding, str):
        padding = tuple(map(tuple, padding))
        if len(padding) != len(window_shape):
            raise PoolArgumentError(
                f"padding {padding} must specify pads for same number of dims as "
                f"window_shape {window_shape}"
            )
        if any(len(p) != 2 for p in padding):
            raise PoolArgumentError(f"each entry in padding {padding} must be length 2")
        padding = ((0, 0),) * n_batch + padding + ((0, 0),)
    y = lax.reduce_window(inputs, init, reduce_fn, dims, strides, padding)
    return y[0] if single else y


def avg_pool(
    inputs: Array,
    window_shape: Sequence[int],
    strides: Sequence[int] | None = None,
    padding: Any = "VALID",
    count_include_pad: bool = True,
) -> Array:
    """Mean over windows (``count_include_pad=False`` divides by the unpadded count: windowed
    sums of default-dtype ones, as Flax, so 16-bit inputs give float32 averages)."""

    def window_sums(x: Array) -> Array:
        return pool(x, 0.0, lax.add, window_shape, strides, padding)

    sums = window_sums(inputs)
    if count_include_pad:
        return sums / np.prod(window_shape)
    # How many real (unpadded) positions each window covers: the window sums of ones, one
    # channel wide, and one batch entry wide when the input has a batch axis.
    ones_shape = list(inputs.shape)
    ones_shape[-1] = 1
    if len(ones_shape) == len(window_shape) + 2:
        ones_shape[0] = 1
    return sums / window_sums(jnp.ones(tuple(ones_shape)))


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
