"""`core.experimental.mesh_utils` (`jax.experimental.mesh_utils`): device arrays for meshes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from core.errors import MeshShapeError


def create_device_mesh(
    mesh_shape: Sequence[int],
    devices: Sequence[Any] | None = None,
    *,
    contiguous_submeshes: bool = False,
    allow_split_physical_axes: bool = False,
) -> np.ndarray:
    """The devices laid out in an array of shape `mesh_shape`, for `Mesh(...)`.

    CPU devices have no physical topology, so they are laid out in order (as JAX does for CPU).

    Args:
      mesh_shape: the mesh's shape; its product must be the number of devices.
      devices: the devices (default: `core.devices()`).
      contiguous_submeshes: accepted for compatibility (no topology on the CPU).
      allow_split_physical_axes: accepted for compatibility.

    Returns:
      An object array of devices of shape `mesh_shape`.
    """
    if devices is None:
        from core.devices import devices as all_devices

        devices = all_devices()
    mesh_shape = tuple(int(d) for d in mesh_shape)
    if int(np.prod(mesh_shape)) != len(devices):
        raise MeshShapeError(
            f"Number of devices {len(devices)} must equal the product of mesh_shape {mesh_shape}."
        )
    arr = np.empty(len(devices), dtype=object)
    arr[:] = list(devices)
    return arr.reshape(mesh_shape)
