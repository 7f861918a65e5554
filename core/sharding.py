"""``core.sharding``: where arrays are placed, with the names of JAX's sharding API.

Every numbax array lives in host memory; its sharding says which CPU device(s) it is placed
on (`core/devices.py`): a `SingleDeviceSharding` (`device_put(x, device)`, and everything
computed outside `pmap`, on the default device) or, for the outputs of `pmap`, a
`NamedSharding` over a one-axis mesh of the mapped devices named by the pmap's `axis_name`
(`_internal_pmap_axis_name` without one; `pmap_sharding`), as JAX 0.10 reports them: slice
`i` along the mapped axis belongs to device `i`. ``PartitionSpec`` exists so that code which
annotates arrays with mesh axes (Flax's ``nn.with_partitioning``,
``nn.get_partition_spec``, logical axis rules) runs unchanged and returns the same specs as
JAX. Device meshes and the current mesh (`Mesh`, `AxisType`, `set_mesh`, `use_mesh`,
`get_mesh`, `make_mesh`: `core/mesh.py`) and `NamedSharding` with `reshard` /
`with_sharding_constraint` (`core/named_sharding.py`), `auto_axes`/`explicit_axes`
(`core/sharding_modes.py`) are re-exported here: a `NamedSharding`
is checked against the arrays it places and recorded on them, and computations on them
place their results as JAX does (`core/sharding_propagation.py`), without moving data.

This is the public namespace: the classes are defined in `core/sharding_base.py`, below the
meshes and `NamedSharding`, so that no module of the sharding API imports this one.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from core.mesh import (
    AbstractMesh,
    AxisType,
    Mesh,
    get_abstract_mesh,
    get_mesh,
    make_mesh,
    set_mesh,
    use_abstract_mesh,
    use_mesh,
)
from core.named_sharding import NamedSharding, reshard, with_sharding_constraint
from core.sharding_base import (
    PartitionSpec,
    Shard,
    Sharding,
    SingleDeviceSharding,
)
from core.sharding_modes import auto_axes, explicit_axes

__all__ = [
    "AbstractMesh",
    "AxisType",
    "Infer",
    "Mesh",
    "NamedSharding",
    "PartitionSpec",
    "Shard",
    "Sharding",
    "SingleDeviceSharding",
    "auto_axes",
    "explicit_axes",
    "get_abstract_mesh",
    "pmap_sharding",
    "get_mesh",
    "make_mesh",
    "reshard",
    "set_mesh",
    "use_abstract_mesh",
    "use_mesh",
    "with_sharding_constraint",
]


class _InferFromArgs:
    """`jax.sharding.Infer`: `smap`'s default `in_axes`, the arguments' own shardings."""

    def __repr__(self) -> str:
        return "Infer"


Infer = _InferFromArgs()

PMAP_AXIS = "_internal_pmap_axis_name"


@functools.lru_cache(maxsize=256)
def _pmap_sharding(devices: tuple, axis: int | None, name: str) -> NamedSharding:
    mesh = Mesh(np.array(devices, dtype=object), (name,))
    spec = PartitionSpec() if axis is None else PartitionSpec(*([None] * axis), name)
    sharding = NamedSharding(mesh, spec)
    sharding.followed = False  # pmap's outputs are not followed (`core/committed.py`)
    return sharding


def pmap_sharding(
    devices: Sequence[Any], axis: int | None = 0, axis_name: Any = None
) -> NamedSharding:
    """How `pmap` places an output over `devices`: slice `i` along `axis` on `devices[i]`
    (`axis=None`: the whole array on every device), JAX 0.10's `NamedSharding` over the mesh
    `Mesh(devices, (axis_name,))`.

    Args:
      devices: the mapped devices, in order.
      axis: the mapped axis of the array, or None.
      axis_name: the pmap's `axis_name` (a string names the mesh axis; anything else, None
        included, gives JAX's `_internal_pmap_axis_name`).

    Returns:
      The `NamedSharding`.
    """
    name = axis_name if isinstance(axis_name, str) else PMAP_AXIS
    return _pmap_sharding(tuple(devices), axis, name)


def is_pmap_layout(sharding: Any, devices: Sequence[Any], axis: int | None) -> bool:
    """Whether `sharding` places an array as a pmap over `devices` mapped along `axis` does,
    whatever the pmap's axis name."""
    if not isinstance(sharding, NamedSharding) or len(sharding.mesh.axis_names) != 1:
        return False
    return sharding == pmap_sharding(devices, axis, sharding.mesh.axis_names[0])
