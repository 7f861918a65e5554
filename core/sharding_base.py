"""The sharding classes without meshes: `Sharding`, `SingleDeviceSharding`, `PartitionSpec`,
`Shard`, and placing an array by a sharding.

An array's sharding says which CPU device(s) (`core/devices.py`) it is placed on; every array
lives in host memory. This module sits below the meshes (`core/mesh.py`) and `NamedSharding`
(`core/named_sharding.py`), which build on these classes, and the public `core.sharding`
re-exports all of them. Importing it tells `core.array` where arrays live
(`core.array.register_placement`): on the default device, split into `Shard`s by their sharding.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator, Sequence
from typing import Any

from core.array import Array, register_placement
from core.avals import interned
from core.devices import Device, DeviceError, check_local, default_device, process_index
from core.trace import as_value


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
        return {d for d in self._devices if d.process_index == process_index()}

    def addressable_devices_indices_map(self, global_shape: Sequence[int]) -> dict:
        """`devices_indices_map` restricted to this process's devices."""
        indices = self.devices_indices_map(global_shape)  # type: ignore[attr-defined]
        return {d: i for d, i in indices.items() if d.process_index == process_index()}

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

    def is_equivalent_to(self, other: Sharding, ndim: int) -> bool:
        """Whether `other` places every array of rank `ndim` as this sharding does
        (`jax.sharding.Sharding.is_equivalent_to`): the same piece on every device.

        Args:
          other: the other sharding.
          ndim: the rank of the arrays.

        Returns:
          Whether both give each device the same index of such an array (compared on a
          shape every mesh axis divides) and have one memory kind.
        """
        if self == other:  # equal shardings (over an abstract mesh too, which has no devices)
            return True
        if self.memory_kind != other.memory_kind or self.device_set != other.device_set:
            return False
        size = math.lcm(self.num_devices, other.num_devices)
        shape = (size,) * ndim

        def pieces(sharding: Sharding) -> dict:
            indices = sharding.devices_indices_map(shape)  # type: ignore[attr-defined]
            return {d: tuple(s.indices(size) for s in index) for d, index in indices.items()}

        return pieces(self) == pieces(other)


class SingleDeviceSharding(Sharding):
    """The whole array on one device (``jax.sharding.SingleDeviceSharding``)."""

    uncommitted = False  # (`UncommittedSharding`: placed by a `default_device` block)

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


class UncommittedSharding(SingleDeviceSharding):
    """Where an array computed in a `default_device(device)` block lives: on that device, but
    uncommitted (it moves to any device it is used with, as in JAX); equal to that device's
    `SingleDeviceSharding`."""

    uncommitted = True


class _Unconstrained:
    def __repr__(self) -> str:
        return "UNCONSTRAINED"


def _canonical_entry(entry: Any) -> Any:
    """A `PartitionSpec` entry as JAX stores it: a tuple or list of mesh axis names as a tuple,
    one name alone (``('x',)`` is ``'x'``), none (or any other false value: ``0``, ``''``) as
    None."""
    if not isinstance(entry, (tuple, list)):
        return entry if entry else None
    nested = next((e for e in entry if isinstance(e, (tuple, list))), None)
    if nested is not None:
        raise ValueError(  # JAX's words, then the fix
            "A tuple inside PartitionSpec cannot contain a nested tuple. Got partition: "
            f"{entry} and the nested tuple: {nested}\nFlatten it: one tuple of mesh axis names "
            "per array axis."
        )
    return None if not entry else entry[0] if len(entry) == 1 else tuple(entry)


class PartitionSpec:
    """How each axis of an array maps to mesh axes (``jax.sharding.PartitionSpec``).

    One entry per array axis: ``None`` (replicated), a mesh axis name, or a tuple of names
    (a tuple of one name is stored as the name, as JAX does). As JAX 0.10's ``P`` it is no
    tuple (pytree utilities treat it as a leaf, it equals only another `PartitionSpec`) but
    reads like one: indexing, iteration, ``len``, ``in``, ``count``, ``index``, and ``+`` with
    a `PartitionSpec` or a tuple gives a `PartitionSpec`.

    Example::

        >>> PartitionSpec("data", None)
        P('data', None)
        >>> PartitionSpec("data") + (None,)
        P('data', None)
    """

    UNCONSTRAINED = _Unconstrained()

    __slots__ = ("_partitions", "unreduced", "reduced")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        raise TypeError("Subclassing `jax.P` is prohibited.")

    def __init__(
        self, *partitions: Any, unreduced: Any = frozenset(), reduced: Any = frozenset()
    ) -> None:
        self._partitions = tuple(map(_canonical_entry, partitions))
        self.unreduced = _axis_set("unreduced", unreduced)
        self.reduced = _axis_set("reduced", reduced)
        _check_unreduced(self._partitions, self.unreduced, self.reduced)

    @property
    def partitions(self) -> tuple:
        """The entries, one per leading array axis (``spec.partitions``)."""
        return self._partitions

    def __getitem__(self, index: Any) -> Any:
        return self._partitions[index]

    def __iter__(self) -> Iterator:
        return iter(self._partitions)

    def __len__(self) -> int:
        return len(self._partitions)

    def count(self, value: Any) -> int:
        """How many entries equal ``value``."""
        return self._partitions.count(value)

    def index(self, value: Any) -> int:
        """The position of the first entry equal to ``value`` (ValueError when none is)."""
        return self._partitions.index(value)

    def update(
        self, partitions: Any = None, unreduced: Any = None, reduced: Any = None
    ) -> PartitionSpec:
        """A copy with the given parts replaced (``P('a').update(partitions=('b',))``)."""
        return PartitionSpec(
            *(self._partitions if partitions is None else partitions),
            unreduced=self.unreduced if unreduced is None else unreduced,
            reduced=self.reduced if reduced is None else reduced,
        )

    def __add__(self, other: Any) -> PartitionSpec:
        if isinstance(other, PartitionSpec):
            return PartitionSpec(
                *self._partitions,
                *other._partitions,
                unreduced=self.unreduced | other.unreduced,
                reduced=self.reduced | other.reduced,
            )
        if isinstance(other, tuple):
            self._check_tuple_operand(other, "__add__")
            return PartitionSpec(*self._partitions, *other)
        raise NotImplementedError  # JAX's `P` raises this for other operands

    def __radd__(self, other: Any) -> PartitionSpec:
        if not isinstance(other, tuple):
            raise NotImplementedError
        self._check_tuple_operand(other, "__radd__")
        return PartitionSpec(*other, *self._partitions)

    def _check_tuple_operand(self, other: tuple, where: str) -> None:
        """JAX's TypeError for ``spec + tuple`` when the spec has unreduced or reduced axes."""
        for name in ("unreduced", "reduced"):
            if getattr(self, name):
                raise TypeError(
                    f"other {other} cannot be of instance `tuple` when self {self} has {name} "
                    f"in `{where}` of PartitionSpec."
                )

    def __repr__(self) -> str:
        """JAX 0.10's form: ``P`` and the tuple of entries (``P('data',)``, ``P()``), then the
        unreduced and reduced axes (``P('X', None, unreduced={'Y'})``)."""
        entries = repr(self._partitions)[1:-1]
        sets = [f"{k}={set(v)!r}" for k, v in (("unreduced", self.unreduced),
                                              ("reduced", self.reduced)) if v]  # fmt: skip
        if not sets:
            return f"P({entries})"
        entries = "" if not entries else entries + (" " if entries.endswith(",") else ", ")
        return f"P({entries}{', '.join(sets)})"

    def __eq__(self, other: object) -> bool:
        # JAX 0.10's `P` equals only an equal `P` (`P('a') == ('a',)` is False)
        return isinstance(other, PartitionSpec) and (
            self._partitions,
            self.unreduced,
            self.reduced,
        ) == (other._partitions, other.unreduced, other.reduced)

    def __hash__(self) -> int:
        return hash((self._partitions, self.unreduced, self.reduced))

    def __reduce__(self) -> tuple:
        if self.unreduced or self.reduced:
            return (_spec, (self._partitions, self.unreduced, self.reduced))
        return (PartitionSpec, self._partitions)


def _spec(partitions: tuple, unreduced: frozenset, reduced: frozenset) -> PartitionSpec:
    """A `PartitionSpec` with unreduced or reduced axes, from its pickled form."""
    return PartitionSpec(*partitions, unreduced=unreduced, reduced=reduced)


def _axis_set(name: str, value: Any) -> frozenset:
    """`PartitionSpec`'s `unreduced=`/`reduced=` as a frozenset of mesh axis names."""
    if not isinstance(value, (set, frozenset)):
        raise TypeError(
            f"{name} argument of PartitionSpec should of type `frozenset` or `set`. Got type "
            f"{value}"
        )
    return frozenset(value)


def _check_unreduced(partitions: tuple, unreduced: frozenset, reduced: frozenset) -> None:
    """JAX's checks of a `PartitionSpec`'s unreduced and reduced axes (ValueErrors, its texts):
    no None, no axis in both sets, none also partitioning an array axis."""
    for name, axes in (("unreduced", unreduced), ("reduced", reduced)):
        if None in axes:
            raise ValueError(
                f"{name} cannot contain None. All elements in {name} should refer to the mesh axes."
            )
    if unreduced & reduced:
        raise ValueError(
            "`unreduced` and `reduced` argument to PartitionSpec cannot overlap. Got "
            f"unreduced: {unreduced} and reduced: {reduced}"
        )
    for entry in partitions:
        for axis in entry if isinstance(entry, tuple) else (entry,):
            for name, axes in (("unreduced", unreduced), ("reduced", reduced)):
                if axis in axes:
                    raise ValueError(
                        f"partitions cannot overlap with {name} axes passed to PartitionSpec. "
                        f"Got partitions: {partitions} and {name} axes: {axes}"
                    )


def global_shards(arr: Array) -> list:
    """`arr.global_shards`: one `Shard` per device of its sharding, in the sharding's device
    order; the copies of one piece count up their `replica_id` (0, 1, ...) as in JAX, the
    shards of other processes' devices have `data=None`, and a shard's data is committed if
    the array is."""
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
            if getattr(getattr(sharding, "spec", None), "unreduced", None):
                value = sharding.summand(arr._value, d, index)
            else:
                value = arr._value[index]
            aval = interned(value.shape, value.dtype, arr.weak_type)
            data = _shard_array(arr, value, aval, d)
        out.append(Shard(d, index, data, replica))
    return out


def _shard_array(arr: Array, value: Any, aval: Any, device: Any) -> Array:
    """The data of `arr`'s shard on `device`: committed to it if `arr` is, else uncommitted as
    `arr` (on the default device, or placed by a `default_device` block), as JAX's."""
    if arr.committed:
        return Array._placed(value, aval, SingleDeviceSharding(device))
    if getattr(arr.sharding, "uncommitted", False):
        return Array._placed(value, aval, UncommittedSharding(device))
    return Array(value, aval=aval)


def addressable_shards(arr: Array) -> list:
    """`arr.addressable_shards`: the `Shard`s of this process (see `core.array.Array`)."""
    return [s for s in global_shards(arr) if s.data is not None]


@functools.cache
def default_sharding() -> SingleDeviceSharding:
    """The sharding of arrays computed outside `pmap`: the default device."""
    return SingleDeviceSharding(default_device())


def as_sharding(device: Any) -> Sharding:
    """The sharding `device_put` places a leaf with: a local device or a `Sharding`."""
    if isinstance(device, Sharding):
        for d in device.device_set:
            check_local(d)
        return device
    if isinstance(device, Device):
        check_local(device)
        return SingleDeviceSharding(device)
    raise DeviceError(
        "`jax.device_put` only accepts `None`, `jax.sharding.Sharding`, `jax.Device`, "
        "`Format`, `jax.memory.Space` or a pytree of these values. Received invalid value: "
        f"{device}\nPass a device (an element of core.devices()) or a Sharding."
    )


def placed(x: Any, sharding: Sharding) -> Any:
    """`x` as an `Array` placed by `sharding` (the same buffer when `x` already is an Array)."""
    arr = as_value(x)
    return Array._placed(arr._value, arr._aval, sharding)


register_placement(
    default_sharding=default_sharding,
    addressable_shards=addressable_shards,
    global_shards=global_shards,
)
