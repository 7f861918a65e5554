"""`core.experimental`: the names JAX keeps in `jax.experimental` that numbax provides:
`io_callback` and `mesh_utils.create_device_mesh`."""

from core.callbacks import io_callback
from core.experimental import mesh_utils

__all__ = ["io_callback", "mesh_utils"]
