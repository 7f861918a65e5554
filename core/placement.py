"""Placing pytrees on devices: `device_put` (by device, `Sharding` or `PartitionSpec`),
`device_put_replicated`, `device_put_sharded` and `device_get`, as in JAX.

Arrays live in host memory, so placing one records its sharding (`core/sharding_base.py`)
without copying the buffer; a `NamedSharding` is first checked against the array
(`core/named_sharding.py`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core import tree_util
from core.devices import CpuDevice, DeviceError
from core.named_sharding import place
from core.parallel.dispatch import replicated
from core.sharding import pmap_sharding
from core.sharding_base import placed
from core.trace import as_value


def device_put(
    x: Any, device: Any = None, *, src: Any = None, donate: bool = False, may_alias: Any = None
) -> Any:
    """Places every leaf of `x` on `device` as an `Array` (`jax.device_put`).

    Args:
      x: a pytree of arrays or scalars.
      device: a local `CpuDevice`, a `Sharding` (e.g. `NamedSharding(mesh, spec)`, checked
        against the arrays as in JAX), a bare `PartitionSpec` (over the mesh set by
        `core.set_mesh`), a tree of those matching (a prefix of) `x`, or None (the default
        device, uncommitted).
      src, donate, may_alias: accepted for compatibility (an Array's buffer is never copied:
        arrays are immutable and every device shares the host memory; a numpy view that is
        not C-contiguous is copied once, as `Array` keeps C-contiguous buffers).

    Returns:
      The pytree of `Array`s.
    """
    if device is None:
        return tree_util.tree_map(as_value, x)
    return place(x, device, "device_put")


def device_put_replicated(x: Any, devices: list[CpuDevice]) -> Any:
    """Stacks `len(devices)` copies of every leaf of `x`, slice `i` on `devices[i]` (the
    input layout of `pmap` for replicated state; `jax.device_put_replicated`). The copies are
    one buffer until read (`core.parallel.dispatch.replicated`)."""

    return tree_util.tree_map(lambda leaf: replicated(as_value(leaf)._value, list(devices)), x)


def device_put_sharded(shards: list[Any], devices: list[CpuDevice]) -> Any:
    """Stacks the pytrees `shards` leaf by leaf, slice `i` on `devices[i]`
    (`jax.device_put_sharded`)."""
    if len(shards) != len(devices):
        raise DeviceError(
            f"device_put_sharded: {len(shards)} shards for {len(devices)} devices; give one "
            "shard per device."
        )
    sharding = pmap_sharding(devices)
    return tree_util.tree_map(
        lambda *leaves: placed(np.stack([np.asarray(v) for v in leaves]), sharding), *shards
    )


def device_get(x: Any) -> Any:
    """Turns every array leaf of `x` into a numpy array."""

    def get(leaf):
        return np.asarray(leaf) if hasattr(leaf, "aval") or isinstance(leaf, np.ndarray) else leaf

    return tree_util.tree_map(get, x)
