"""``core.sharding``: where arrays are placed, with the names of JAX's sharding API.

Every numbax array lives in host memory; its sharding says which CPU device(s) it is placed
on (`core/devices.py`): a `SingleDeviceSharding` (`device_put(x, device)`, and everything
computed outside `pmap`, on the default device) or a `PmapSharding` (the outputs of `pmap`:
slice `i` along the sharded axis belongs to device `i`). ``PartitionSpec`` exists so that code
which annotates arrays with mesh axes (Flax's ``nn.with_partitioning``,
``nn.get_partition_spec``, logical axis rules) runs unchanged and returns the same specs as
JAX. Device meshes and the current mesh (`Mesh`, `AxisType`, `set_mesh`, `use_mesh`,
`get_mesh`, `make_mesh`: `core/mesh.py`) and `NamedSharding` with `reshard` /
`with_sharding_constraint` (`core/named_sharding.py`) are re-exported here: a `NamedSharding`
is checked against the arrays it places and recorded on them, but `jit` shards nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = [
    "AbstractMesh",
    "AxisType",
    "Mesh",
    "NamedSharding",
    "PartitionSpec",
    "PmapSharding",
    "Shard",
    "Sharding",
    "SingleDeviceSharding",
    "get_abstract_mesh",
    "get_mesh",
    "make_mesh",
    "reshard",
    "set_mesh",
    "use_mesh",
    "with_sharding_constraint",
]


class Shard:
    """The part of an array held by one device (`jax.Shard`): `data[...] == array[index]`."""

    def __init__(self, device: Any, index: tuple, data: Any, replica_id: int = 0):
        self.device, self.index, self.data, self.replica_id = device, index, data, replica_id

    def __repr__(self) -> str:
        return f"Shard(device={self.device!r}, index={self.index}, replica_id={self.replica_id})"


class Sharding:
    """Where an array's data is placed (base of the sharding classes, like JAX's)."""

    _devices: tuple

    @property
    def device_set(self) -> set:
        """The devices holding some of the array."""
        return set(self._devices)

    @property
    def addressable_devices(self) -> set:
        """The devices of this process holding some of the array."""
        from core.devices import process_index

        return {d for d in self._devices if d.process_index == process_index()}

    @property
    def num_devices(self) -> int:
        return len(self._devices)

    @property
    def memory_kind(self) -> str:
        return "device"


class SingleDeviceSharding(Sharding):
    """The whole array on one device (``jax.sharding.SingleDeviceSharding``)."""

    def __init__(self, device: Any, *, memory_kind: str | None = None):
        self._device = device
        self._devices = (device,)

    @property
    def is_fully_replicated(self) -> bool:
        return True

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SingleDeviceSharding) and other._device is self._device

    def __hash__(self) -> int:
        return hash(("single", self._device))

    def __repr__(self) -> str:
        return f"SingleDeviceSharding(device={self._device!r}, memory_kind=device)"


class PmapSharding(Sharding):
    """One slice per device along `sharded_axis`: what `pmap` returns (the sharding of
    JAX's classic pmap; JAX 0.10 reports the same layout as a `NamedSharding` over an internal
    one-axis mesh). `sharded_axis=None` means replicated on every device (`out_axes=None`)."""

    def __init__(self, devices: Sequence[Any], sharded_axis: int | None = 0):
        self._devices = tuple(devices)
        self.sharded_axis = sharded_axis

    @property
    def devices(self) -> tuple:
        """The devices, in the order of the slices."""
        return self._devices

    @property
    def is_fully_replicated(self) -> bool:
        return self.sharded_axis is None or len(self._devices) == 1

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, PmapSharding)
            and other._devices == self._devices
            and other.sharded_axis == self.sharded_axis
        )

    def __hash__(self) -> int:
        return hash(("pmap", self._devices, self.sharded_axis))

    def __repr__(self) -> str:
        return f"PmapSharding(devices={list(self._devices)}, sharded_axis={self.sharded_axis})"


class _Unconstrained:
    def __repr__(self) -> str:
        return "UNCONSTRAINED"


class PartitionSpec(tuple):
    """How each axis of an array maps to mesh axes (``jax.sharding.PartitionSpec``).

    One entry per array axis: ``None`` (replicated), a mesh axis name, or a tuple of names.
    A tuple subclass that pytree utilities treat as a leaf, as in JAX.

    Example::

        >>> PartitionSpec("data", None)
        PartitionSpec('data', None)
    """

    UNCONSTRAINED = _Unconstrained()

    def __new__(cls, *partitions: Any) -> PartitionSpec:
        return super().__new__(cls, partitions)

    def __repr__(self) -> str:
        return f"PartitionSpec({', '.join(map(repr, self))})"

    def __reduce__(self) -> tuple:
        return (PartitionSpec, tuple(self))


# The mesh and named-sharding API lives in its own modules (which import the classes above).
from core.mesh import (  # noqa: E402
    AbstractMesh,
    AxisType,
    Mesh,
    get_abstract_mesh,
    get_mesh,
    make_mesh,
    set_mesh,
    use_mesh,
)
from core.named_sharding import NamedSharding, reshard, with_sharding_constraint  # noqa: E402
