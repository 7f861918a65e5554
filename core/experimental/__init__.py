"""`core.experimental`: the names JAX keeps in `jax.experimental` that numbax provides:
`io_callback`, `mesh_utils.create_device_mesh`, `shard_map.shard_map` and `pjit.pjit` (the older
spellings of `core.shard_map` and `jit` with shardings), and `multihost_utils` for programs
running under `core.distributed`."""

from core.callbacks import io_callback
from core.experimental import mesh_utils, multihost_utils, pjit, shard_map

__all__ = ["io_callback", "mesh_utils", "multihost_utils", "pjit", "shard_map"]
