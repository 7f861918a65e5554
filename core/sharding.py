"""``core.sharding``: where arrays are placed, with the names of JAX's sharding API.

Every numbax array lives in host memory; its sharding says which CPU device(s) it is placed
on (`core/devices.py`): a `SingleDeviceSharding` (`device_put(x, device)`, and everything
computed outside `pmap`, on the default device) or, for the outputs of `pmap`, a
`NamedSharding` over a one-axis mesh of the mapped devices named `_internal_pmap_axis_name`
(`pmap_sharding`), as JAX 0.10 reports them: slice `i` along the mapped axis belongs to device
`i`. ``PartitionSpec`` exists so that code
which annotates arrays with mesh axes (Flax's ``nn.with_partitioning``,
``nn.get_partition_spec``, logical axis rules) runs unchanged and returns the same specs as
JAX. Device meshes and the current mesh (`Mesh`, `AxisType`, `set_mesh`, `use_mesh`,
`get_mesh`, `make_mesh`: `core/mesh.py`) and `NamedSharding` with `reshard` /
`with_sharding_constraint` (`core/named_sharding.py`) are re-exported here: a `NamedSharding`
is checked against the arrays it places and recorded on them, but `jit` shards nothing.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from core.array import Array
from core.avals import interned

__all__ = [
    "AbstractMesh",
    "AxisType",
    "Mesh",
    "NamedSharding",
    "PartitionSpec",
    "Shard",
    "Sharding",
    "SingleDeviceSharding",
    "get_abstract_mesh",
    "pmap_sharding",
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
        return (
            f"Shard(device={self.device!r}, index={self.index}, replica_id={self.replica_id}, "
            f"data={self.data})"
        )


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
    def is_fully_addressable(self) -> bool:
        """Whether this process holds every device of the sharding."""
        return len(self.addressable_devices) == len(self.device_set)

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

    def shard_shape(self, global_shape: Sequence[int]) -> tuple[int, ...]:
        """The shape of the one shard: the whole array's."""
        return tuple(global_shape)

    def devices_indices_map(self, global_shape: Sequence[int]) -> dict:
        """The device holding the whole array -> its index (all `slice(None)`)."""
        return {self._device: (slice(None),) * len(global_shape)}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SingleDeviceSharding) and other._device is self._device

    def __hash__(self) -> int:
        return hash(("single", self._device))

    def __repr__(self) -> str:
        return f"SingleDeviceSharding(device={self._device!r}, memory_kind=device)"


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


def global_shards(arr: Array) -> list:
    """`arr.global_shards`: one `Shard` per device of its sharding, in the sharding's device
    order; the copies of one piece count up their `replica_id` (0, 1, ...) as in JAX, and the
    shards of other processes' devices have `data=None`."""
    sharding = arr.sharding
    if hasattr(sharding, "devices_indices_map"):  # NamedSharding, SingleDeviceSharding
        pieces = list(sharding.devices_indices_map(arr.shape).items())
    else:
        pieces = [(arr.device, tuple(slice(None) for _ in range(arr.ndim)))]
    local = sharding.addressable_devices
    copies: dict[str, int] = {}
    out = []
    for d, index in pieces:
        replica = copies[repr(index)] = copies.get(repr(index), -1) + 1
        data = None
        if d in local:
            value = arr._value[index]
            aval = interned(value.shape, value.dtype, arr.weak_type)
            data = Array._placed(value, aval, SingleDeviceSharding(d))
        out.append(Shard(d, index, data, replica))
    return out


def addressable_shards(arr: Array) -> list:
    """`arr.addressable_shards`: the `Shard`s of this process (see `core.array.Array`)."""
    return [s for s in global_shards(arr) if s.data is not None]


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

PMAP_AXIS = "_internal_pmap_axis_name"


@functools.lru_cache(maxsize=256)
def _pmap_sharding(devices: tuple, axis: int | None) -> NamedSharding:
    mesh = Mesh(np.array(devices, dtype=object), (PMAP_AXIS,))
    spec = PartitionSpec() if axis is None else PartitionSpec(*([None] * axis), PMAP_AXIS)
    return NamedSharding(mesh, spec)


def pmap_sharding(devices: Sequence[Any], axis: int | None = 0) -> NamedSharding:
    """How `pmap` places an output over `devices`: slice `i` along `axis` on `devices[i]`
    (`axis=None`: the whole array on every device), JAX 0.10's `NamedSharding` over the mesh
    `Mesh(devices, ("_internal_pmap_axis_name",))`."""
    return _pmap_sharding(tuple(devices), axis)
