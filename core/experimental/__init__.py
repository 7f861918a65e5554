"""`core.experimental`: the names JAX keeps in `jax.experimental` that numbax provides:
`checkify` (run-time checks as error values), `io_callback`, `jet` (Taylor-mode
derivatives), `mesh_utils.create_device_mesh`,
`ode.odeint` (adaptive Runge-Kutta with adjoint gradients),
`sparse` (`BCOO` matrices without batch or dense dimensions),
`shard_map.shard_map` and `pjit.pjit` (the older spellings of `core.shard_map` and `jit` with
shardings), `multihost_utils` for programs running under `core.distributed`, and
`compilation_cache.compilation_cache.set_cache_dir` (accepted; numbax keeps its own cache)."""

from core.callbacks import io_callback
from core.experimental import (
    checkify,
    compilation_cache,
    jet,
    mesh_utils,
    multihost_utils,
    ode,
    pjit,
    shard_map,
    sparse,
)

__all__ = [
    "checkify",
    "compilation_cache",
    "io_callback",
    "jet",
    "mesh_utils",
    "multihost_utils",
    "ode",
    "pjit",
    "shard_map",
    "sparse",
]
