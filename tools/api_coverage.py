"""Which public names of JAX, Flax and Optax numbax's counterparts lack (porting parity).

The reference names live in ``tools/reference_names.json``: for each JAX/Flax/Optax module
(``jax.numpy``, ``flax.linen``, ``optax.losses``...) its ``__all__`` (or, without one, its
public attributes), recorded with the reference environment. The check imports numbax's
counterpart of each module (``jax`` -> ``core``, ``flax.linen`` -> ``nn``, other ``flax`` ->
``flaxport``, ``optax`` -> ``optim``) and lists the
names it does not have.

Usage::

    /opt/ref/bin/python -m tools.api_coverage --record   # rewrite reference_names.json
    python -m tools.api_coverage [MODULE_PREFIX]          # print what is missing
"""

from __future__ import annotations

import argparse
import importlib
import json
import pathlib
import sys
import warnings
from typing import Any

REFERENCE = pathlib.Path(__file__).with_name("reference_names.json")

MODULES = [
    "jax",
    "jax.numpy",
    "jax.numpy.linalg",
    "jax.numpy.fft",
    "jax.lax",
    "jax.lax.linalg",
    "jax.nn",
    "jax.nn.initializers",
    "jax.random",
    "jax.tree_util",
    "jax.tree",
    "jax.dtypes",
    "jax.debug",
    "jax.image",
    "jax.ops",
    "jax.flatten_util",
    "jax.sharding",
    "jax.errors",
    "jax.stages",
    "jax.test_util",
    "jax.ad_checkpoint",
    "jax.custom_derivatives",
    "jax.typing",
    "jax.experimental",
    "jax.export",
    "jax.monitoring",
    "jax.dlpack",
    "jax.experimental.checkify",
    "jax.example_libraries.stax",
    "jax.example_libraries.optimizers",
    "jax.core",
    "jax.extend.core",
    "jax.extend.core.primitives",
    "jax.extend.linear_util",
    "jax.extend.random",
    "jax.extend.source_info_util",
    "jax.interpreters.ad",
    "jax.interpreters.batching",
    "jax.scipy.special",
    "jax.scipy.stats",
    "jax.scipy.linalg",
    "jax.scipy.signal",
    "jax.scipy.fft",
    "jax.scipy.integrate",
    "jax.scipy.ndimage",
    "jax.scipy.optimize",
    "jax.scipy.interpolate",
    "jax.scipy.cluster.vq",
    "jax.scipy.sparse.linalg",
    "jax.scipy.spatial.transform",
    "flax.linen",
    "flax.linen.initializers",
    "flax.linen.partitioning",
    "flax.core",
    "flax.struct",
    "flax.traverse_util",
    "flax.serialization",
    "flax.training.train_state",
    "flax.training.common_utils",
    "flax.jax_utils",
    "optax",
    "optax.losses",
    "optax.schedules",
    "optax.tree_utils",
    "optax.tree",
    "optax.experimental",
    "optax.projections",
    "optax.second_order",
    "optax.transforms",
    "optax.assignment",
    "optax.contrib",
]


def counterpart(module: str) -> str:
    """numbax's module for a JAX/Flax/Optax module name."""
    if module.startswith("jax"):
        return "core" + module[3:]
    if module.startswith("flax.linen"):
        return "nn" + module[len("flax.linen") :]
    if module.startswith("flax"):
        return "flaxport" + module[4:]
    return "optim" + module[5:]


def _public(module: Any) -> list[str]:
    names = getattr(module, "__all__", None) or dir(module)
    # Modules re-export what they import; a module object or dunder is not API.
    return sorted(
        n
        for n in names
        if not n.startswith("_") and type(getattr(module, n, None)).__name__ != "module"
    )


def record() -> None:
    """Writes the reference names (run with JAX, Flax and Optax installed)."""
    warnings.simplefilter("ignore")  # reading deprecated attributes warns
    table = {}
    for name in MODULES:
        try:
            table[name] = _public(importlib.import_module(name))
        except ImportError:
            continue
    REFERENCE.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")


def _resolve(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError:
        obj = importlib.import_module(name.split(".")[0])
        for part in name.split(".")[1:]:
            obj = getattr(obj, part, None)
            if obj is None:
                return None
        return obj


def missing(prefix: str = "") -> dict[str, list[str] | None]:
    """`{reference module: names numbax's counterpart lacks}` (None: no counterpart at all)."""
    reference = json.loads(REFERENCE.read_text())
    out: dict[str, list[str] | None] = {}
    for name, names in reference.items():
        if not name.startswith(prefix):
            continue
        target = _resolve(counterpart(name))
        if target is None:
            out[name] = None
            continue
        lacking = [n for n in names if not hasattr(target, n)]
        if lacking:
            out[name] = lacking
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("prefix", nargs="?", default="", help="only modules starting so")
    parser.add_argument("--record", action="store_true", help="rewrite the reference names")
    args = parser.parse_args(argv)
    if args.record:
        record()
        return 0
    for name, names in missing(args.prefix).items():
        where = counterpart(name)
        if names is None:
            print(f"{name}: no {where}")
        else:
            print(f"{name} ({where}): {len(names)} missing: {' '.join(names)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
