"""`core.experimental`: the names JAX keeps in `jax.experimental` that numbax provides:
`io_callback`, `mesh_utils.create_device_mesh`, and `multihost_utils` for programs running
under `core.distributed`."""

from core.callbacks import io_callback
from core.experimental import mesh_utils, multihost_utils

__all__ = ["io_callback", "mesh_utils", "multihost_utils"]
