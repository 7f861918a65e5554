"""``flax.jax_utils``: copies of a tree per device for `core.pmap`, and device prefetching.

`replicate` stacks one copy of every leaf per local device (slice ``i`` placed on device
``i``), the layout `core.pmap` expects for replicated state such as a `TrainState`;
`unreplicate` takes the first copy back. `prefetch_to_device` keeps ``size`` batches placed on
the devices ahead of the training loop. numbax's devices are CPU worker threads
(`core.devices`), so placing is cheap and prefetching mostly keeps Flax programs unchanged.
"""

from __future__ import annotations

import collections
import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import core
from core import tree_util

__all__ = ["prefetch_to_device", "replicate", "unreplicate"]


def replicate(tree: Any, devices: Sequence[Any] | None = None) -> Any:
    """Replicates every leaf of ``tree`` on each device (a new leading axis).

    Args:
        tree: a pytree of arrays and Python numbers.
        devices: the devices; default ``core.local_devices()`` (the order `core.pmap` uses).

    Returns:
        The tree with leaves of shape ``(len(devices), *leaf.shape)``; Python numbers become
        arrays of their default dtype (int32, float32, bool), as in Flax.
    """
    return core.device_put_replicated(tree, list(devices or core.local_devices()))


def unreplicate(tree: Any) -> Any:
    """The first device's copy of every leaf of a replicated tree.

    Args:
        tree: a tree made by `replicate` or returned by `core.pmap`.

    Returns:
        The tree with the leading device axis removed (0-d leaves are kept as they are).
    """

    def first(x: Any) -> Any:
        return x if getattr(x, "ndim", None) == 0 else x[0]

    return tree_util.tree_map(first, tree)


def prefetch_to_device(
    iterator: Iterable[Any], size: int, devices: Sequence[Any] | None = None
) -> Iterator[Any]:
    """Places the items of ``iterator`` on the devices, ``size`` items ahead.

    Args:
        iterator: yields pytrees of arrays whose leading dimension is the number of devices
            (``common_utils.shard`` makes them).
        size: how many items to keep placed ahead (2 overlaps one step with the next load).
        devices: the devices; default ``core.local_devices()``.

    Yields:
        The items, each leaf's slice ``i`` placed on device ``i``.

    Raises:
        DeviceError: a leaf's leading dimension is not the number of devices.
    """
    devices = list(devices or core.local_devices())
    iterator = iter(iterator)
    queue: collections.deque = collections.deque()

    def enqueue(n: int) -> None:
        for item in itertools.islice(iterator, n):
            queue.append(
                tree_util.tree_map(lambda x: core.device_put_sharded(list(x), devices), item)
            )

    enqueue(size)
    while queue:
        yield queue.popleft()
        enqueue(1)
