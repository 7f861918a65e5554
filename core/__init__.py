"""numbax core: a JAX-like array library with composable transformations.

import core                      # like `import jax`
import core.numpy as jnp         # like `jax.numpy`
from core import grad, jit, vmap, random, lax

Loading is lazy (PEP 562), so `import core.errors` costs next to nothing (`datasets` roots its
errors in `NumbaxError` and needs only numpy). The rest of core loads at once, in one fixed
order, on first use: the first read of a public name (`core.jit`, `from core import numpy`) or
the first import of another core module (`import core.numpy as jnp`, through the finder
`_LoadCoreFirst`). It loads as a whole because its modules register into each other (the array
methods of `core.numpy`, the placement of `core.devices`) and some import in one order only.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import threading
from typing import Any

from core.packages import check_numbax_packages as _check_numbax_packages

# The submodules `import core` used to bind, then each module's public names, in load order.
_SUBMODULES = (
    "numpy",
    "debug",
    "distributed",
    "dtypes",
    "experimental",
    "image",
    "lax",
    "nn",
    "ops",
    "random",
    "scipy",
    "sharding",
    "struct",
    "test_util",
    "tree",
    "tree_util",
)
_NAMES = {
    "core.api": (
        "eval_shape",
        "grad",
        "hessian",
        "jacfwd",
        "jacobian",
        "jacrev",
        "jvp",
        "linearize",
        "make_jaxpr",
        "stop_gradient",
        "value_and_grad",
        "vjp",
        "vmap",
    ),
    "core.api_extras": (
        "checking_leaks",
        "closure_convert",
        "custom_gradient",
        "default_device",
        "ensure_compile_time_eval",
        "float0",
        "linear_transpose",
        "named_call",
        "named_scope",
        "print_environment_info",
        "typeof",
    ),
    "core.array": ("Array",),
    "core.avals": ("ShapedArray", "ShapeDtypeStruct"),
    "core.callbacks": ("pure_callback",),
    "core.checkpoint": ("checkpoint", "checkpoint_policies", "remat"),
    "core.config": (
        "config",
        "debug_infs",
        "debug_nans",
        "default_matmul_precision",
        "disable_jit",
        "enable_x64",
        "numpy_dtype_promotion",
    ),
    "core.custom_derivatives": ("custom_jvp", "custom_vjp"),
    "core.devices": (
        "block_until_ready",
        "default_backend",
        "device_count",
        "device_get",
        "device_put",
        "device_put_replicated",
        "device_put_sharded",
        "devices",
        "local_device_count",
        "local_devices",
        "process_count",
        "process_index",
    ),
    "core.jit.api": ("clear_caches", "compile_count", "jit"),
    "core.pmap": ("effects_barrier", "host_count", "host_id", "live_arrays", "pmap"),
    "core.shard_map": ("shard_map",),
    "core.sharding": ("make_mesh", "set_mesh"),
}
_ALIASES = {"P": ("core.sharding", "PartitionSpec")}
# Modules importable without loading the rest (they import no other core module).
_LIGHT = frozenset({"core.errors", "core.packages"})

__all__ = [
    "Array",
    "P",
    "ShapeDtypeStruct",
    "ShapedArray",
    "block_until_ready",
    "checking_leaks",
    "checkpoint",
    "checkpoint_policies",
    "clear_caches",
    "closure_convert",
    "compile_count",
    "config",
    "custom_gradient",
    "custom_jvp",
    "custom_vjp",
    "debug",
    "debug_infs",
    "debug_nans",
    "distributed",
    "default_matmul_precision",
    "experimental",
    "default_backend",
    "default_device",
    "device_count",
    "device_get",
    "device_put",
    "device_put_replicated",
    "device_put_sharded",
    "devices",
    "disable_jit",
    "dtypes",
    "effects_barrier",
    "enable_x64",
    "ensure_compile_time_eval",
    "eval_shape",
    "float0",
    "grad",
    "hessian",
    "host_count",
    "host_id",
    "image",
    "jacfwd",
    "jacobian",
    "jacrev",
    "jit",
    "jvp",
    "lax",
    "linear_transpose",
    "linearize",
    "live_arrays",
    "local_device_count",
    "local_devices",
    "make_jaxpr",
    "make_mesh",
    "named_call",
    "named_scope",
    "nn",
    "numpy",
    "numpy_dtype_promotion",
    "ops",
    "pmap",
    "print_environment_info",
    "process_count",
    "process_index",
    "pure_callback",
    "random",
    "remat",
    "scipy",
    "set_mesh",
    "shard_map",
    "stop_gradient",
    "sharding",
    "struct",
    "test_util",
    "tree",
    "tree_util",
    "typeof",
    "value_and_grad",
    "vjp",
    "vmap",
]

_lock = threading.RLock()
_state = {"loading": False, "loaded": False}


def _load() -> None:
    """Imports the whole of core (once) and binds its public names here."""
    with _lock:
        if _state["loading"] or _state["loaded"]:
            return
        _state["loading"] = True
        try:
            namespace = globals()
            for name in _SUBMODULES:
                namespace[name] = importlib.import_module(f"core.{name}")
            for module, names in _NAMES.items():
                mod = importlib.import_module(module)
                namespace.update({name: getattr(mod, name) for name in names})
            for alias, (module, name) in _ALIASES.items():
                namespace[alias] = getattr(importlib.import_module(module), name)
            _state["loaded"] = True
            if _finder in sys.meta_path:
                sys.meta_path.remove(_finder)
        finally:
            _state["loading"] = False


def __getattr__(name: str) -> Any:
    if name in _PUBLIC and not _state["loading"]:
        _load()
        return globals()[name]
    raise AttributeError(f"module 'core' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | _PUBLIC)


class _AlreadyLoaded(importlib.abc.Loader):
    """Hands the import system a module `_load` has just imported (instead of a second copy)."""

    def __init__(self, module: Any):
        self.module, self.spec = module, module.__spec__

    def create_module(self, spec: Any) -> Any:
        return self.module

    def exec_module(self, module: Any) -> None:
        module.__spec__ = self.spec  # the import system set ours


class _LoadCoreFirst(importlib.abc.MetaPathFinder):
    """Loads all of core before the first import of one of its modules (other than `_LIGHT`),
    so `import core.lax` or `from core.api import grad` work in a fresh process as when
    `import core` loaded everything. It leaves `sys.meta_path` once core is loaded."""

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if _state["loading"] or not fullname.startswith("core.") or fullname in _LIGHT:
            return None
        _load()
        module = sys.modules.get(fullname)
        if module is None:  # not part of the load (`core.profiler`, ...): imported as usual
            return None
        return importlib.util.spec_from_loader(fullname, _AlreadyLoaded(module))


_PUBLIC = frozenset(__all__)
_finder = _LoadCoreFirst()
sys.meta_path.insert(0, _finder)

# Warn when `train`, `datasets`, ... resolve to someone else's module (core/packages.py).
_check_numbax_packages()
