"""Checkpoints: pytrees of numbers saved as plain ``.npz`` files, atomically, without pickle.

The API is the legacy ``flax.training.checkpoints`` one (`save_checkpoint`,
`restore_checkpoint`, `latest_checkpoint`, `available_steps`): one file per step, named
``{ckpt_dir}/{prefix}{step}``, the last ``keep`` kept.

File format (version 1): a NumPy ``.npz`` archive (a zip; every member has a CRC) written with
``allow_pickle=False``. Member ``__header__`` is the UTF-8 JSON::

    {"format": "numbax.checkpoint", "version": 1, "step": 3,
     "leaves": [{"path": ".params['Dense_0']['bias']", "keys": ["params", "Dense_0", "bias"],
                 "shape": [128], "dtype": "float32", "kind": "array"}, ...]}

and member ``leaf_i`` holds the i-th leaf in `core.tree_util` flattening order. Leaves are
matched to a target tree by key path, never by position, so a mismatch is reported by name.
``kind`` is ``"array"`` or, for a Python scalar leaf, ``"int"``, ``"float"``, ``"bool"`` or
``"complex"``.

Writing is atomic: the archive goes to a hidden temporary file in ``ckpt_dir``, is flushed to
disk, then renamed over the final name with `os.replace`. A crash leaves at most a temporary
file that no function here looks at; a visible checkpoint is always complete.
"""

from __future__ import annotations

import json
import os
import re
import uuid
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from core import dtypes, tree_util
from train.errors import (
    CheckpointExistsError,
    CheckpointMismatchError,
    CheckpointNotFoundError,
    CheckpointVersionError,
    CorruptCheckpointError,
    UnsupportedLeafError,
)

__all__ = [
    "FORMAT_VERSION",
    "available_steps",
    "latest_checkpoint",
    "load_state_dict",
    "restore_checkpoint",
    "save_checkpoint",
]

FORMAT_NAME = "numbax.checkpoint"
FORMAT_VERSION = 1
_HEADER = "__header__"
_SCALAR_KINDS = {bool: "bool", int: "int", float: "float", complex: "complex"}


def _simple_key(k: Any) -> str:
    return tree_util.keystr((k,), simple=True)


def _leaf_to_array(path: str, leaf: Any) -> tuple[np.ndarray, str]:
    kind = _SCALAR_KINDS.get(type(leaf))
    if kind is None:
        if not hasattr(leaf, "__array__"):
            raise UnsupportedLeafError(path, leaf)
        kind = "array"
    array = np.asarray(leaf)
    if dtypes.kind(array.dtype) not in "biufc":
        raise UnsupportedLeafError(path, leaf)
    return array, kind


def _checkpoint_path(ckpt_dir: Path, step: int, prefix: str) -> Path:
    return ckpt_dir / f"{prefix}{step}"


def available_steps(ckpt_dir: str | os.PathLike, prefix: str = "checkpoint_") -> list[int]:
    """The steps that have a checkpoint file in ``ckpt_dir``, ascending.

    Args:
        ckpt_dir: the checkpoint directory (may not exist yet).
        prefix: the file name prefix given to `save_checkpoint`.

    Returns:
        Sorted steps; temporary files of interrupted saves are not counted.
    """
    ckpt_dir = Path(ckpt_dir)
    if not ckpt_dir.is_dir():
        return []
    pattern = re.compile(re.escape(prefix) + r"(\d+)")
    steps = []
    for entry in ckpt_dir.iterdir():
        match = pattern.fullmatch(entry.name)
        if match and entry.is_file():
            steps.append(int(match.group(1)))
    return sorted(steps)


def latest_checkpoint(ckpt_dir: str | os.PathLike, prefix: str = "checkpoint_") -> str | None:
    """The path of the checkpoint with the highest step in ``ckpt_dir``.

    Args:
        ckpt_dir: the checkpoint directory.
        prefix: the file name prefix given to `save_checkpoint`.

    Returns:
        The path as a string, or None when there is no checkpoint.
    """
    steps = available_steps(ckpt_dir, prefix)
    return str(_checkpoint_path(Path(ckpt_dir), steps[-1], prefix)) if steps else None


def _write_atomic(path: Path, arrays: dict[str, np.ndarray]) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}-{uuid.uuid4().hex[:8]}")
    try:
        with open(tmp, "wb") as f:
            np.savez(f, allow_pickle=False, **arrays)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    try:  # make the rename itself durable; not possible on every platform
        fd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def save_checkpoint(
    ckpt_dir: str | os.PathLike,
    target: Any,
    step: int,
    prefix: str = "checkpoint_",
    keep: int = 1,
    overwrite: bool = False,
    keep_every_n_steps: int | None = None,
) -> str:
    """Saves the leaves of a pytree as ``{ckpt_dir}/{prefix}{step}`` and prunes old files.

    Args:
        ckpt_dir: directory for the checkpoint files; created if needed.
        target: a pytree of arrays and Python numbers, e.g. a `TrainState` (its static fields,
            ``apply_fn`` and ``tx``, are not saved: they come from the target at restore).
        step: the training step (an int or an integer scalar array).
        prefix: the file name prefix.
        keep: how many of the most recent checkpoints to keep.
        overwrite: allow saving a step that is not newer than every existing one; the file of
            the same step and those of later steps are then deleted.
        keep_every_n_steps: also keep, beyond ``keep``, every checkpoint whose step is a
            multiple of this.

    Returns:
        The path of the new checkpoint file.

    Raises:
        CheckpointExistsError: a checkpoint of this or a later step exists and ``overwrite`` is
            False.
        UnsupportedLeafError: a leaf is not a number or numeric array.
    """
    ckpt_dir = Path(ckpt_dir)
    step = int(step)
    path = _checkpoint_path(ckpt_dir, step, prefix)
    steps = available_steps(ckpt_dir, prefix)
    if steps and steps[-1] >= step and not overwrite:
        raise CheckpointExistsError(path, step, steps[-1])

    leaves, header_leaves, arrays = tree_util.tree_flatten_with_path(target)[0], [], {}
    for i, (key_path, leaf) in enumerate(leaves):
        name = tree_util.keystr(key_path)
        array, kind = _leaf_to_array(name, leaf)
        # .npy has no bfloat16: its bits are stored as uint16, the header keeps the dtype
        arrays[f"leaf_{i}"] = array.view(np.uint16) if array.dtype == dtypes.bfloat16 else array
        header_leaves.append(
            {
                "path": name,
                "keys": [_simple_key(k) for k in key_path],
                "shape": list(array.shape),
                "dtype": array.dtype.name,
                "kind": kind,
            }
        )
    header = {"format": FORMAT_NAME, "version": FORMAT_VERSION, "step": step}
    header["leaves"] = header_leaves
    arrays[_HEADER] = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)

    ckpt_dir.mkdir(parents=True, exist_ok=True)
    _write_atomic(path, arrays)

    if overwrite:
        for s in steps:
            if s > step:
                _checkpoint_path(ckpt_dir, s, prefix).unlink(missing_ok=True)
    steps = [s for s in steps if s < step] + [step]
    excess = steps[: max(len(steps) - keep, 0)]
    for s in excess:
        if keep_every_n_steps and s % keep_every_n_steps == 0:
            continue
        _checkpoint_path(ckpt_dir, s, prefix).unlink(missing_ok=True)
    return str(path)


def _read(path: Path) -> tuple[dict, list[np.ndarray]]:
    try:
        with np.load(path, allow_pickle=False) as archive:
            if _HEADER not in archive.files:
                raise CorruptCheckpointError(path, f"no {_HEADER} member")
            header = json.loads(archive[_HEADER].tobytes().decode())
            if not isinstance(header, dict) or header.get("format") != FORMAT_NAME:
                raise CorruptCheckpointError(path, f"the header does not say {FORMAT_NAME!r}")
            version = header.get("version")
            if not isinstance(version, int) or version > FORMAT_VERSION:
                raise CheckpointVersionError(path, version, FORMAT_VERSION)
            arrays = [archive[f"leaf_{i}"] for i in range(len(header["leaves"]))]
    except (CorruptCheckpointError, CheckpointVersionError):
        raise
    except (OSError, EOFError, ValueError, KeyError, zipfile.BadZipFile) as e:
        raise CorruptCheckpointError(path, f"{type(e).__name__}: {e}") from e
    arrays = [
        a.view(dtypes.bfloat16) if e["dtype"] == "bfloat16" and a.dtype == np.uint16 else a
        for e, a in zip(header["leaves"], arrays)
    ]
    for entry, array in zip(header["leaves"], arrays):
        if list(array.shape) != entry["shape"] or array.dtype.name != entry["dtype"]:
            raise CorruptCheckpointError(
                path, f"leaf {entry['path']} disagrees with the header ({array.shape})"
            )
    return header, arrays


def _to_python(array: np.ndarray, kind: str) -> Any:
    return {"bool": bool, "int": int, "float": float, "complex": complex}[kind](array.item())


def _nest(header: dict, arrays: list[np.ndarray]) -> dict:
    tree: dict = {}
    for entry, array in zip(header["leaves"], arrays):
        node = tree
        *parents, last = entry["keys"]
        for k in parents:
            node = node.setdefault(k, {})
        node[last] = array if entry["kind"] == "array" else _to_python(array, entry["kind"])
    return tree


def load_state_dict(path: str | os.PathLike) -> tuple[int, dict]:
    """Reads a checkpoint file without a target, as nested dicts (Flax's state-dict form).

    Lists, tuples and named tuples become dicts keyed ``"0"``, ``"1"``, ... or by field name;
    dataclasses (like `TrainState`) become dicts of their pytree fields.

    Args:
        path: a checkpoint file.

    Returns:
        ``(step, state_dict)``.

    Raises:
        CorruptCheckpointError: the file is truncated, damaged or not a numbax checkpoint.
        CheckpointVersionError: the file was written by a newer format version.
    """
    header, arrays = _read(Path(path))
    return header["step"], _nest(header, arrays)


def _restore_into(path: Path, target: Any, header: dict, arrays: list[np.ndarray]) -> Any:
    stored = {e["path"]: (e, a) for e, a in zip(header["leaves"], arrays)}
    flat, treedef = tree_util.tree_flatten_with_path(target)
    wanted = [(tree_util.keystr(kp), leaf) for kp, leaf in flat]
    names = {name for name, _ in wanted}
    missing = [name for name, _ in wanted if name not in stored]
    extra = [name for name in stored if name not in names]
    changed, leaves = [], []
    for name, leaf in wanted:
        if name not in stored:
            continue
        entry, array = stored[name]
        stored_desc = f"{array.dtype}{list(array.shape)}"
        if type(leaf) in _SCALAR_KINDS:
            if array.shape != ():
                changed.append(f"{name}: {stored_desc} vs Python {type(leaf).__name__}")
            else:
                leaves.append(type(leaf)(array.item()))
            continue
        shape = tuple(leaf.shape) if hasattr(leaf, "shape") else np.shape(leaf)
        dtype = np.dtype(leaf.dtype) if hasattr(leaf, "dtype") else np.asarray(leaf).dtype
        if array.shape != shape or array.dtype != dtype:
            changed.append(f"{name}: {stored_desc} vs {dtype}{list(shape)}")
        leaves.append(array)
    if missing or extra or changed:
        raise CheckpointMismatchError(path, missing, extra, changed)
    return tree_util.tree_unflatten(treedef, leaves)


def restore_checkpoint(
    ckpt_dir: str | os.PathLike,
    target: Any,
    step: int | None = None,
    prefix: str = "checkpoint_",
) -> Any:
    """Restores the latest (or a given) checkpoint into the structure of ``target``.

    Leaves are matched by key path; every stored leaf must have the target leaf's shape and
    dtype (Python number leaves accept any stored scalar and keep their Python type). The
    static parts of the target (``apply_fn``, ``tx`` of a `TrainState`) are kept.

    Args:
        ckpt_dir: a checkpoint directory, or the path of one checkpoint file.
        target: a pytree with the structure to restore into (e.g. a freshly created
            `TrainState`), its leaves only giving shapes and dtypes; or None to get the stored
            tree as nested dicts (see `load_state_dict`).
        step: the step to restore; None for the latest.
        prefix: the file name prefix given to `save_checkpoint`.

    Returns:
        The restored tree (leaves are numpy arrays or Python numbers); ``target`` itself when
        ``ckpt_dir`` holds no checkpoint and ``step`` is None (as in Flax).

    Raises:
        CheckpointNotFoundError: ``step`` was given and has no checkpoint file.
        CheckpointMismatchError: the stored tree differs from ``target`` (the message lists
            the missing, extra and changed leaves by key path).
        CorruptCheckpointError: the file is truncated, damaged or not a numbax checkpoint.
        CheckpointVersionError: the file was written by a newer format version.
    """
    ckpt_dir = Path(ckpt_dir)
    if ckpt_dir.is_file():
        path = ckpt_dir
    elif step is not None:
        path = _checkpoint_path(ckpt_dir, int(step), prefix)
        if not path.is_file():
            raise CheckpointNotFoundError(path, available_steps(ckpt_dir, prefix))
    else:
        latest = latest_checkpoint(ckpt_dir, prefix)
        if latest is None:
            return target
        path = Path(latest)
    header, arrays = _read(path)
    if target is None:
        return _nest(header, arrays)
    return _restore_into(path, target, header, arrays)
