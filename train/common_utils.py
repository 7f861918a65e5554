"""``flax.training.common_utils``: small helpers of Flax's data-parallel training loops.

`shard` splits a batch across the local devices, `shard_prng_key` gives each device a key,
`get_metrics` gathers per-step metrics from the first device and stacks them (`stack_forest`),
and `onehot` is Flax's one-hot encoding (always float32; ``core.nn.one_hot`` is the general
one).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

import core
import core.numpy as jnp
from core import lax, random, tree_util

from .errors import OnehotLabelsError

__all__ = ["get_metrics", "onehot", "shard", "shard_prng_key", "stack_forest"]


def shard(xs: Any) -> Any:
    """Splits the leading axis of every leaf into ``(local_device_count, -1)``.

    Args:
        xs: a pytree of arrays whose leading dimension is divisible by the device count.

    Returns:
        The tree with leaves of shape ``(local_device_count, n // local_device_count, ...)``.
    """
    count = core.local_device_count()
    return tree_util.tree_map(lambda x: x.reshape((count, -1, *x.shape[1:])), xs)


def shard_prng_key(prng_key: Any) -> Any:
    """One PRNG key per local device: ``random.split(prng_key, local_device_count)``.

    Args:
        prng_key: a PRNG key.

    Returns:
        Keys with a leading axis of the local device count.
    """
    return random.split(prng_key, num=core.local_device_count())


def stack_forest(forest: Sequence[Any]) -> Any:
    """Stacks the leaves of a sequence of pytrees with the same structure.

    Args:
        forest: pytrees whose leaves have matching shapes.

    Returns:
        One pytree whose leaves are ``jnp.stack`` of the corresponding leaves.
    """
    return tree_util.tree_map(lambda *leaves: jnp.stack(leaves), *forest)


def get_metrics(device_metrics: Sequence[Any]) -> Any:
    """Per-step metrics of a `core.pmap` loop, from the first device, stacked over the steps.

    Args:
        device_metrics: a sequence (one per step) of pytrees whose leaves have a leading
            device axis (the outputs of a pmapped step).

    Returns:
        One pytree whose leaves have a leading step axis: host (numpy) values stacked.
    """
    # the first device's shard without its unit device axis, as Flax takes it (a value on one
    # device is its own shard: its leading axis must have size 1)
    first = tree_util.tree_map(lambda x: x.addressable_shards[0].data.squeeze(0), device_metrics)
    return stack_forest(core.device_get(first))


def onehot(labels: Any, num_classes: int, on_value: float = 1.0, off_value: float = 0.0) -> Any:
    """A dense one-hot float32 encoding of integer labels.

    Args:
        labels: an integer array of any shape.
        num_classes: the length of the one-hot vectors.
        on_value: the value at the label's index.
        off_value: the value elsewhere.

    Returns:
        A float32 array of shape ``labels.shape + (num_classes,)``.
    """
    if isinstance(labels, (list, tuple)):  # Flax indexes `labels[..., None]` as given
        raise OnehotLabelsError(labels)
    labels = jnp.asarray(labels)
    hit = labels[..., None] == jnp.arange(num_classes).reshape((1,) * labels.ndim + (-1,))
    values = lax.select(hit, jnp.full(hit.shape, on_value), jnp.full(hit.shape, off_value))
    return values.astype(np.float32)
