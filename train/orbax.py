"""Reading Orbax checkpoint directories (Flax's default writer) through TensorStore.

An Orbax ``PyTreeCheckpointHandler`` directory (``checkpoint_N/``) holds ``_METADATA``, a JSON
file whose ``tree_metadata`` maps every leaf's key path to its kind, and the arrays as zarr
arrays named by the ``.``-joined key path, inside one OCDBT database (``use_ocdbt``, the
default) or as plain directories; ``use_zarr3`` selects zarr v3. `read_state_dict` rebuilds
Flax's state dict from them: nested dicts with string keys, numpy arrays, Python numbers for
``scalar`` leaves, and ``{}`` for ``None`` leaves (how Orbax stores an optimizer's
``EmptyState``). It needs the optional ``tensorstore`` package (``pip install
numbax[orbax]``); without it `train.checkpoints` refuses Orbax directories with the way out.
Writing Orbax checkpoints is not supported (write Flax's msgpack format instead).
"""

from __future__ import annotations

import ast
import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from .errors import CorruptCheckpointError, OrbaxCheckpointError

__all__ = ["MARKERS", "available", "is_orbax_checkpoint", "read_state_dict"]

# Files an Orbax checkpoint directory has (current OCDBT and older layouts).
MARKERS = ("_CHECKPOINT_METADATA", "_METADATA", "manifest.ocdbt", "commit_success.txt")


def is_orbax_checkpoint(path: str | os.PathLike) -> bool:
    """Whether ``path`` is an Orbax checkpoint directory."""
    path = Path(path)
    return path.is_dir() and any((path / marker).exists() for marker in MARKERS)


def available() -> bool:
    """Whether the optional ``tensorstore`` package (needed to read Orbax arrays) is installed."""
    try:
        import tensorstore  # noqa: F401
    except ImportError:
        return False
    return True


def _read_array(path: Path, name: str, metadata: dict) -> np.ndarray:
    import tensorstore as ts

    if metadata.get("use_ocdbt", True):
        kvstore = {"driver": "ocdbt", "base": f"file://{path.resolve()}", "path": name}
    else:
        kvstore = {"driver": "file", "path": str(path.resolve() / name)}
    driver = "zarr3" if metadata.get("use_zarr3") else "zarr"
    try:
        store = ts.open({"driver": driver, "kvstore": kvstore}, open=True, read=True).result()
        return np.asarray(store.read().result())
    except (ValueError, RuntimeError) as e:  # tensorstore reports missing/damaged data so
        raise CorruptCheckpointError(path, f"array {name}: {e}") from e


def read_state_dict(path: str | os.PathLike) -> dict[str, Any]:
    """The state dict stored in an Orbax checkpoint directory.

    Args:
        path: the directory (``checkpoint_N``, with ``_METADATA``).

    Returns:
        Nested dicts as ``flax.serialization.to_state_dict`` gives.

    Raises:
        OrbaxCheckpointError: ``tensorstore`` is not installed (the message says how to
            install it or convert the checkpoint in Flax).
        CorruptCheckpointError: ``_METADATA`` or an array is missing or unreadable, or a leaf
            kind is not supported.
    """
    path = Path(path)
    if not available():
        raise OrbaxCheckpointError(path)
    try:
        metadata = json.loads((path / "_METADATA").read_text())
        tree = metadata["tree_metadata"]
    except (OSError, ValueError, KeyError) as e:
        raise CorruptCheckpointError(path, f"no readable Orbax _METADATA ({e})") from e
    state: dict[str, Any] = {}
    for key, entry in tree.items():
        keys = [str(k) for k in ast.literal_eval(key)]
        kind = entry["value_metadata"]["value_type"]
        if kind == "None":
            value: Any = {}
        elif kind in ("jax.Array", "np.ndarray", "scalar"):
            value = _read_array(path, ".".join(keys), metadata)
            if kind == "scalar":
                value = value.item()
        else:
            raise CorruptCheckpointError(path, f"leaf {'/'.join(keys)} of Orbax kind {kind!r}")
        node = state
        for k in keys[:-1]:
            node = node.setdefault(k, {})
        node[keys[-1]] = value
    return state
