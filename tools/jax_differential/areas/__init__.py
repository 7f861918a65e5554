"""The registry of areas. An area is a module of this package named as the area: its `cases()`
gives the calls (sources, or (source, exact) pairs; a source is an expression, or statements that
set `out`), its optional `PRELUDE` is source run before every case on both sides (after the
common `prelude.PRELUDE`, in the order of `NAMES`), `EXACT = True` marks all its plain
sources as compared bit for bit, and an optional `ENV` dict holds environment variables both
sides' processes start with (such areas run in processes of their own)."""

from __future__ import annotations

import importlib
from types import ModuleType

from tools.jax_differential.prelude import PRELUDE

# the areas in the order `--list` and the report show them
NAMES = (
    "control_flow",
    "tree_util",
    "random",
    "random_x64",
    "initializers",
    "indexing",
    "linalg_fft",
    "optax_train",
    "optax_more",
    "scipy_stats",
    "nn_funcs",
    "lax_ops",
    "jnp_stats",
    "optax_tx",
    "flax_layers",
    "flax_layer_options",
    "jnp_arrays",
    "transforms",
    "flax_module_api",
    "jnp_ufuncs",
    "conv_windows",
    "conv_windows_x64",
    "conv_windows_jit",
    "key_arrays",
    "flax_utils",
    "image",
    "products",
    "array_text",
    "scipy_more",
    "jnp_misc",
    "lax_more",
    "flax_training",
    "autodiff_edges",
    "transform_api",
    "flax_lifted",
    "devices_pmap",
    "jnp_grid",
    "jnp_grid_x64",
    "jnp_grid_jit",
    "special_accuracy",
    "special_accuracy_x64",
    "flax_optax_usage",
    "transform_compose",
    "uncovered_jnp",
    "uncovered_lax_scipy",
    "uncovered_optax_flax",
    "scipy_usage",
    "experimental_linalg",
)


def module(name: str) -> ModuleType:
    """The module of the area `name`."""
    if name not in NAMES:
        raise KeyError(f"no area {name!r}; the areas are {', '.join(NAMES)}")
    return importlib.import_module(f"{__name__}.{name}")


def cases(name: str) -> list[tuple[str, bool]]:
    """The area's cases as (source, exact) pairs."""
    mod = module(name)
    exact = getattr(mod, "EXACT", False)
    return [(c, exact) if isinstance(c, str) else c for c in mod.cases()]


def environment(name: str) -> tuple[tuple[str, str], ...]:
    """The area's `ENV` (environment variables for its side processes) as sorted items."""
    return tuple(sorted(getattr(module(name), "ENV", {}).items()))


def prelude() -> str:
    """The source run before every case: the common prelude, then each area's."""
    return PRELUDE + "".join(getattr(module(n), "PRELUDE", "") for n in NAMES)
