"""Checkpoints: pytrees of numbers saved as plain ``.npz`` files, atomically, without pickle.

The API is the legacy ``flax.training.checkpoints`` one (`save_checkpoint`,
`restore_checkpoint`, `latest_checkpoint`, `available_steps`): one file per step, named
``{ckpt_dir}/{prefix}{step}``, the last ``keep`` kept.

File format (version 1): a NumPy ``.npz`` archive (a zip; every member has a CRC) written with
``allow_pickle=False``. Member ``__header__`` is the UTF-8 JSON::

    {"format": "numbax.checkpoint", "version": 1, "step": 3,
     "leaves": [{"path": ".params['Dense_0']['bias']", "keys": ["params", "Dense_0", "bias"],
                 "shape": [128], "dtype": "float32", "kind": "array"}, ...]}

and member ``leaf_i`` holds the i-th leaf in state-dict order (see `train.serialization`:
dataclass fields as declared, dicts in insertion order). Leaves are
matched to a target tree by key path, never by position, so a mismatch is reported by name.
``kind`` is ``"array"``, ``"npscalar"`` for a numpy scalar, or, for a Python scalar leaf,
``"int"``, ``"float"``, ``"bool"`` or ``"complex"``; an ``"array"`` entry that was a
``core.Array`` has ``"type": "Array"`` (readers before it ignore the key), so restoring without
a target gives an Array again, as Flax's (Orbax) checkpoints do. A typed PRNG key array
(`random.key`) is ``"kind": "key"``: its uint32 data (`random.key_data`) with ``"impl"``, its
implementation's name, and restores as a key array of that implementation.

``save_checkpoint(..., format="msgpack")`` writes Flax's format instead: the bytes of
``flax.serialization.to_bytes(target)`` (see `train.serialization`), which Flax's
``restore_checkpoint`` reads. `restore_checkpoint` and `load_state_dict` read both formats (told
apart by their first bytes), and Orbax checkpoint directories (Flax's default writer) when the
optional ``tensorstore`` is installed (`train.orbax`; else `OrbaxCheckpointError` says how).
The header's ``empty`` lists the key paths of empty containers (an optimizer's ``EmptyState``),
so `load_state_dict` gives Flax's state dict and a conversion to msgpack restores in Flax.

Writing is atomic: the archive goes to a hidden temporary file in ``ckpt_dir``, is flushed to
disk, then renamed over the final name with `os.replace`. A crash leaves at most a temporary
file that no function here reads; a visible checkpoint is always complete. The next
`save_checkpoint` or `restore_checkpoint` in that directory deletes such leftovers: temporaries
whose writer process (its pid is in the name) no longer exists on this machine, or that were
last written more than an hour ago. ``step`` must be an integer >= 0 and ``keep`` one >= 1; the
checkpoint just written is never pruned.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import time
import uuid
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

import core.numpy as jnp
from core import dtypes, random, tree_util
from core.array import Array

from . import orbax, serialization
from .errors import (
    CheckpointArgumentError,
    CheckpointExistsError,
    CheckpointMismatchError,
    CheckpointNotFoundError,
    CheckpointVersionError,
    CorruptCheckpointError,
    MsgpackDecodeError,
    OrbaxTransformsError,
    UnsupportedLeafError,
)

__all__ = [
    "FORMAT_VERSION",
    "available_steps",
    "detect_format",
    "encode_checkpoint",
    "latest_checkpoint",
    "load_state_dict",
    "restore_checkpoint",
    "save_checkpoint",
    "set_default_format",
]

FORMAT_NAME = "numbax.checkpoint"
FORMAT_VERSION = 1
_HEADER = "__header__"
_SCALAR_KINDS = {bool: "bool", int: "int", float: "float", complex: "complex"}
FORMATS = ("npz", "msgpack")
# The format `save_checkpoint` writes when not told: numbax's npz (standing in for Flax's
# default, Orbax), or Flax's legacy msgpack once ``flax.config.update(
# 'flax_use_orbax_checkpointing', False)`` (flaxport's config calls `set_default_format`).
_default_format = ["npz"]


def set_default_format(format: str) -> None:
    """Sets the format `save_checkpoint` writes when its ``format`` is None.

    Args:
        format: one of `FORMATS`.
    """
    if format not in FORMATS:
        raise ValueError(f"format={format!r}: use one of {FORMATS}")
    _default_format[0] = format


def _simple_key(k: Any) -> str:
    return tree_util.keystr((k,), simple=True)


def _leaf_to_array(path: str, leaf: Any) -> tuple[np.ndarray, str]:
    if _is_key(leaf):  # a typed key array: its data
        return np.asarray(random.key_data(leaf)), "key"
    kind = _SCALAR_KINDS.get(type(leaf))
    if kind is None and isinstance(leaf, np.generic):
        kind = "npscalar"
    if kind is None:
        if not hasattr(leaf, "__array__"):
            raise UnsupportedLeafError(path, leaf)
        kind = "array"
    array = np.asarray(leaf)
    if dtypes.kind(array.dtype) not in "biufc":
        raise UnsupportedLeafError(path, leaf)
    return array, kind


def _is_key(leaf: Any) -> bool:
    return isinstance(getattr(leaf, "dtype", None), dtypes.KeyDType)


def _checkpoint_path(ckpt_dir: Path, step: int, prefix: str) -> Path:
    return ckpt_dir / f"{prefix}{step}"


def _integer(name: str, value: Any, low: int) -> int:
    """`value` as an int if it is an integer (Python, numpy, or a 0-d integer array) >= `low`."""
    array = np.asarray(value) if hasattr(value, "__array__") else None
    if array is not None and array.ndim == 0 and dtypes.kind(array.dtype) in "iu":
        value = int(array)
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise CheckpointArgumentError(name, value, f"an integer >= {low}")
    if value < low:
        raise CheckpointArgumentError(name, value, f"an integer >= {low}")
    return int(value)


_TMP_NAME = re.compile(r"\.(?P<name>.+)\.tmp-(?P<pid>\d+)-[0-9a-f]{8}")
_STALE_SECONDS = 3600.0


def _writer_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists, owned by another user
        return True
    return True


def _remove_stale_temporaries(ckpt_dir: Path, prefix: str) -> None:
    """Deletes the temporary files of saves that were killed (see the module docstring)."""
    if not ckpt_dir.is_dir():
        return
    now = time.time()
    for entry in ckpt_dir.iterdir():
        match = _TMP_NAME.fullmatch(entry.name)
        if not match or not match["name"].startswith(prefix):
            continue
        try:
            old = now - entry.stat().st_mtime > _STALE_SECONDS
        except FileNotFoundError:  # its save just finished
            continue
        if old or not _writer_alive(int(match["pid"])):
            entry.unlink(missing_ok=True)


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


def _write_atomic(path: Path, content: dict[str, np.ndarray] | bytes) -> None:
    """Writes an ``.npz`` of ``content`` (a dict of arrays) or the bytes ``content``."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}-{uuid.uuid4().hex[:8]}")
    try:
        with open(tmp, "wb") as f:
            if isinstance(content, bytes):
                f.write(content)
            else:
                np.savez(f, allow_pickle=False, **content)
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


def encode_checkpoint(target: Any, step: int, format: str = "npz") -> dict[str, np.ndarray] | bytes:
    """The content of a checkpoint file: the ``.npz`` members, or Flax's msgpack bytes.

    Args:
        target: the pytree to save.
        step: the step recorded in the ``.npz`` header.
        format: ``"npz"`` or ``"msgpack"``.

    Returns:
        A dict of arrays for `numpy.savez`, or bytes.
    """
    if format not in FORMATS:
        raise ValueError(f"format={format!r}: use one of {FORMATS}")
    if format == "msgpack":
        return serialization.to_bytes(target)
    state = serialization.to_state_dict(target)
    # Leaves in state-dict order (dataclass fields as declared, dicts as inserted), so that a
    # conversion to msgpack gives the bytes Flax writes for the same object.
    order = {keys: i for i, keys in enumerate(_state_paths(state))}
    leaves = tree_util.tree_flatten_with_path(target)[0]
    leaves.sort(key=lambda kl: order.get(tuple(map(_simple_key, kl[0])), len(order)))
    header_leaves, arrays = [], {}
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
                **({"type": "Array"} if isinstance(leaf, Array) else {}),
                **({"impl": random.key_impl(leaf)} if kind == "key" else {}),
            }
        )
    header = {"format": FORMAT_NAME, "version": FORMAT_VERSION, "step": int(step)}
    header["leaves"] = header_leaves
    header["empty"] = _empty_containers(state)
    arrays[_HEADER] = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)
    return arrays


def save_checkpoint(
    ckpt_dir: str | os.PathLike,
    target: Any,
    step: int,
    prefix: str = "checkpoint_",
    keep: int = 1,
    overwrite: bool = False,
    keep_every_n_steps: int | None = None,
    format: str | None = None,
) -> str:
    """Saves the leaves of a pytree as ``{ckpt_dir}/{prefix}{step}`` and prunes old files.

    Args:
        ckpt_dir: directory for the checkpoint files; created if needed.
        target: a pytree of arrays and Python numbers, e.g. a `TrainState` (its static fields,
            ``apply_fn`` and ``tx``, are not saved: they come from the target at restore).
        step: the training step: an integer >= 0 (a Python or numpy int, or an integer
            scalar array).
        prefix: the file name prefix.
        keep: how many of the most recent checkpoints to keep (an integer >= 1).
        overwrite: allow saving a step that exists (or, in the msgpack format, one that is
            not newer than every existing one, as Flax's legacy writer); the files of later
            steps are then deleted. Without it a step older than the latest is saved (npz, as
            Flax's Orbax writer) and pruned by ``keep`` with the others.
        keep_every_n_steps: also keep, beyond ``keep``, old checkpoints spaced at least this
            many steps apart: walking them from the oldest, Flax's rule keeps a nonzero step
            that is this many steps or more after the last one kept (saving steps 1..7 with
            ``keep=1, keep_every_n_steps=3`` leaves steps 1, 4 and 7).
        format: ``"npz"`` (numbax's format, above) or ``"msgpack"`` (Flax's: the file is
            ``flax.serialization.to_bytes(target)``, readable by Flax's
            ``restore_checkpoint``); None for the default (`set_default_format`: npz, or
            msgpack after ``flax.config.update('flax_use_orbax_checkpointing', False)``, as
            Flax then writes its legacy format).

    Returns:
        The path of the new checkpoint file.

    Raises:
        CheckpointExistsError: a checkpoint of this step (msgpack: or a later one) exists and
            ``overwrite`` is False.
        CheckpointArgumentError: ``step``, ``keep`` or ``keep_every_n_steps`` is not an
            integer in its range.
        UnsupportedLeafError: a leaf is not a number or numeric array.
        MsgpackEncodeError: with ``format="msgpack"``, a leaf has no msgpack encoding.
        ValueError: ``format`` is not one of `FORMATS`.
    """
    ckpt_dir = Path(ckpt_dir)
    step = _integer("step", step, 0)
    keep = _integer("keep", keep, 1)
    if keep_every_n_steps is not None:
        keep_every_n_steps = _integer("keep_every_n_steps", keep_every_n_steps, 1)
    path = _checkpoint_path(ckpt_dir, step, prefix)
    _remove_stale_temporaries(ckpt_dir, prefix)
    steps = available_steps(ckpt_dir, prefix)
    format = _default_format[0] if format is None else format
    # Flax's legacy (msgpack) writer refuses a step not newer than the latest; its Orbax
    # writer, which npz stands in for, only one that exists
    outdated = steps and (steps[-1] >= step if format == "msgpack" else step in steps)
    if outdated and not overwrite:
        raise CheckpointExistsError(path, step, steps[-1], legacy=format == "msgpack")

    content = encode_checkpoint(target, step, format)
    ckpt_dir.mkdir(parents=True, exist_ok=True)
    _write_atomic(path, content)

    if overwrite:
        for s in steps:
            if s > step:
                _checkpoint_path(ckpt_dir, s, prefix).unlink(missing_ok=True)
        steps = [s for s in steps if s <= step]
    steps = sorted({*steps, step})
    excess = steps[: max(len(steps) - keep, 0)]
    last_kept = -float("inf")
    for s in excess:  # Flax's walk: keep a nonzero step n or more after the last one kept
        if keep_every_n_steps and s and s - last_kept >= keep_every_n_steps:
            last_kept = s
            continue
        _checkpoint_path(ckpt_dir, s, prefix).unlink(missing_ok=True)
    return str(path)


def _state_paths(state: Any, keys: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """The key paths of a state dict's leaves, in its order."""
    if not isinstance(state, dict):
        return [keys]
    return [p for k, v in state.items() for p in _state_paths(v, (*keys, str(k)))]


def _empty_containers(state: Any, keys: tuple[str, ...] = ()) -> list[list[str]]:
    """The key paths of the empty dicts in a state dict (they hold no leaf to record)."""
    if not isinstance(state, dict):
        return []
    if not state and keys:
        return [list(keys)]
    return [p for k, v in state.items() for p in _empty_containers(v, (*keys, str(k)))]


def detect_format(path: str | os.PathLike) -> str:
    """The format of a checkpoint file, from its first byte.

    Args:
        path: a checkpoint file.

    Returns:
        ``"msgpack"`` when it starts with a msgpack map (Flax's files do), else ``"npz"`` (a
        zip; whether it is a valid one is checked when reading).
    """
    with open(path, "rb") as f:
        first = f.read(1)
    is_map = bool(first) and (0x80 <= first[0] <= 0x8F or first[0] in (0xDE, 0xDF))
    return "msgpack" if is_map else "npz"


def _stored_state(path: Path) -> dict | None:
    """The state dict of an Orbax directory or a msgpack file; None for an ``.npz`` file."""
    if orbax.is_orbax_checkpoint(path):
        return orbax.read_state_dict(path)
    if detect_format(path) == "msgpack":
        return _read_msgpack(path)
    return None


def _latest_any(ckpt_dir: Path, prefix: str) -> Path | None:
    """The checkpoint of the highest step: a file, or an Orbax directory ``{prefix}{step}``."""
    found = {s: _checkpoint_path(ckpt_dir, s, prefix) for s in available_steps(ckpt_dir, prefix)}
    if ckpt_dir.is_dir():
        pattern = re.compile(re.escape(prefix) + r"(\d+)")
        for entry in ckpt_dir.iterdir():
            match = pattern.fullmatch(entry.name)
            if match and orbax.is_orbax_checkpoint(entry):
                found.setdefault(int(match.group(1)), entry)
    return found[max(found)] if found else None


def _read_msgpack(path: Path) -> Any:
    try:
        return serialization.msgpack_restore(path.read_bytes())
    except MsgpackDecodeError as e:
        raise CorruptCheckpointError(path, e.reason) from e


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
    if kind == "npscalar":
        return array[()]
    return {"bool": bool, "int": int, "float": float, "complex": complex}[kind](array.item())


def _nest(header: dict, arrays: list[np.ndarray]) -> dict:
    tree: dict = {}
    for entry, array in zip(header["leaves"], arrays):
        node = tree
        *parents, last = entry["keys"]
        for k in parents:
            node = node.setdefault(k, {})
        if entry["kind"] == "key":
            array = random.wrap_key_data(array, impl=entry["impl"])
        elif entry["kind"] != "array":
            array = _to_python(array, entry["kind"])
        node[last] = jnp.asarray(array) if entry.get("type") == "Array" else array
    for keys in header.get("empty", []):
        node = tree
        for k in keys:
            node = node.setdefault(k, {})
    return tree


def _sorted_keys(tree: Any) -> Any:
    """``tree`` with the keys of every dict in sorted order (Orbax restores a checkpoint without
    a target so: ``{'b': .., 'a': ..}`` comes back as ``{'a': .., 'b': ..}``)."""
    if isinstance(tree, dict):
        return {k: _sorted_keys(tree[k]) for k in sorted(tree, key=str)}
    return tree


def _state_as_leaves(path: Path, state: Any) -> tuple[dict, list[np.ndarray]]:
    """A state dict as the header and arrays of an ``.npz`` file (None leaves are dropped)."""
    entries, arrays = [], []

    def visit(node: Any, keys: tuple[str, ...]) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                visit(v, (*keys, str(k)))
        elif node is not None:
            name = "/".join(keys)
            try:
                array, kind = _leaf_to_array(name, node)
            except UnsupportedLeafError as e:
                raise CorruptCheckpointError(path, str(e)) from e
            entries.append({"path": name, "keys": list(keys), "kind": kind})
            arrays.append(array)

    visit(state, ())
    return {"step": _step_of(path, state), "leaves": entries}, arrays


def _step_of(path: Path, state: Any) -> int | None:
    step = state.get("step") if isinstance(state, dict) else None
    if step is not None and np.ndim(step) == 0 and dtypes.kind(np.asarray(step).dtype) in "iu":
        return int(step)
    match = re.search(r"(\d+)$", path.name)
    return int(match.group(1)) if match else None


def load_state_dict(path: str | os.PathLike) -> tuple[int | None, dict]:
    """Reads a checkpoint file without a target, as nested dicts (Flax's state-dict form).

    Lists, tuples and named tuples become dicts keyed ``"0"``, ``"1"``, ... or by field name;
    dataclasses (like `TrainState`) become dicts of their pytree fields: the state dict
    ``flax.serialization.to_state_dict`` gives for the same object.

    Args:
        path: a numbax ``.npz`` or Flax msgpack checkpoint file, or an Orbax directory.

    Returns:
        ``(step, state_dict)``; for msgpack and Orbax the step is the ``step`` entry, else the
        number ending the file name, else None.

    Raises:
        CorruptCheckpointError: the file is truncated, damaged or not a checkpoint.
        CheckpointVersionError: the file was written by a newer format version.
        OrbaxCheckpointError: ``path`` is an Orbax directory and tensorstore is not installed.
    """
    path = Path(path)
    state = _stored_state(path)
    if state is not None:
        return _step_of(path, state), state
    header, arrays = _read(path)
    return header["step"], _nest(header, arrays)


def _in_target_order(restored: Any, target: Any) -> Any:
    """`restored` with its dicts' keys in `target`'s order (as Flax's `from_state_dict` builds
    them; unflattening sorts them), through lists, tuples, namedtuples and dataclasses."""
    if type(restored) is dict and isinstance(target, dict) and restored.keys() == target.keys():
        return {k: _in_target_order(restored[k], target[k]) for k in target}
    if isinstance(restored, (list, tuple)) and type(restored) is type(target):
        if len(restored) != len(target):
            return restored
        items = [_in_target_order(r, t) for r, t in zip(restored, target)]
        return type(target)._make(items) if hasattr(target, "_make") else type(target)(items)
    if dataclasses.is_dataclass(restored) and type(restored) is type(target):
        fields = [f.name for f in dataclasses.fields(restored) if f.init]
        changes = {n: _in_target_order(getattr(restored, n), getattr(target, n)) for n in fields}
        return dataclasses.replace(restored, **changes)
    return restored


def _restore_into(
    path: Path,
    target: Any,
    header: dict,
    arrays: list[np.ndarray],
    fallback: bool = False,
    as_numpy: bool = False,
) -> Any:
    # Matched by the simple keys ("params", "Dense_0", "0", "mu"), so a file converted from a
    # Flax state dict (dicts only) restores into a TrainState (attributes, tuples). With
    # `fallback` (Orbax's empty transforms), a target leaf the file lacks keeps its value and
    # the file's leaves the target lacks are dropped.
    stored = {tuple(e["keys"]): (e, a) for e, a in zip(header["leaves"], arrays)}
    flat, treedef = tree_util.tree_flatten_with_path(target)
    wanted = [(tuple(map(_simple_key, kp)), tree_util.keystr(kp), leaf) for kp, leaf in flat]
    keys = {k for k, _, _ in wanted}
    missing = [name for k, name, _ in wanted if k not in stored]
    extra = [e["path"] for k, (e, _) in stored.items() if k not in keys]
    changed, leaves = [], []
    for key, name, leaf in wanted:
        if key not in stored:
            if fallback:
                leaves.append(leaf)
            continue
        entry, array = stored[key]
        stored_desc = f"{array.dtype}{list(array.shape)}"
        if type(leaf) in _SCALAR_KINDS:
            if array.shape != ():
                changed.append(f"{name}: {stored_desc} vs Python {type(leaf).__name__}")
            else:
                leaves.append(type(leaf)(array.item()))
            continue
        if _is_key(leaf):  # compared and restored as its data
            if entry["kind"] != "key" or entry["impl"] != random.key_impl(leaf):
                changed.append(f"{name}: {stored_desc} vs keys {leaf.dtype}{list(leaf.shape)}")
            else:
                leaves.append(random.wrap_key_data(array, impl=entry["impl"]))
            continue
        shape = tuple(leaf.shape) if hasattr(leaf, "shape") else np.shape(leaf)
        dtype = np.dtype(leaf.dtype) if hasattr(leaf, "dtype") else np.asarray(leaf).dtype
        if entry["kind"] in ("int", "float", "bool") and shape == ():  # e.g. Flax's int step
            array = array.astype(dtype)
        if array.shape != shape or array.dtype != dtype:
            changed.append(f"{name}: {stored_desc} vs {dtype}{list(shape)}")
        leaves.append(jnp.asarray(array) if isinstance(leaf, Array) and not as_numpy else array)
    if fallback:
        missing, extra = [], []
    if missing or extra or changed:
        raise CheckpointMismatchError(path, missing, extra, changed)
    return _in_target_order(tree_util.tree_unflatten(treedef, leaves), target)


def restore_checkpoint(
    ckpt_dir: str | os.PathLike,
    target: Any,
    step: int | None = None,
    prefix: str = "checkpoint_",
    parallel: bool = True,
    gda_manager: Any = None,
    allow_partial_mpa_restoration: bool = False,
    orbax_checkpointer: Any = None,
    orbax_transforms: dict | None = None,
) -> Any:
    """Restores the latest (or a given) checkpoint into the structure of ``target``.

    Leaves are matched by key path; every stored leaf must have the target leaf's shape and
    dtype (Python number leaves accept any stored scalar and keep their Python type). The
    static parts of the target (``apply_fn``, ``tx`` of a `TrainState`) are kept.

    Args:
        ckpt_dir: a checkpoint directory, or the path of one checkpoint file (numbax ``.npz``
            or Flax msgpack, told apart by content).
        target: a pytree with the structure to restore into (e.g. a freshly created
            `TrainState`), its leaves only giving shapes and dtypes; or None to get the stored
            tree as nested dicts (see `load_state_dict`).
        step: the step to restore; None for the latest.
        prefix: the file name prefix given to `save_checkpoint`.
        parallel: Flax's parallel reading of large files; files are read whole here.
        gda_manager: Flax's manager of multiprocess arrays, which numbax does not write.
        allow_partial_mpa_restoration: likewise (no multiprocess arrays): no effect.
        orbax_checkpointer: Flax's Orbax checkpointer for Orbax directories; numbax reads them
            itself (`train.orbax`), so it is not used.
        orbax_transforms: Orbax's restore transformations; only the empty ``{}`` is
            implemented: the restored tree has the target's structure, a target leaf the
            checkpoint lacks keeps the target's value, the checkpoint's leaves the target
            lacks are dropped (Flax's guide restores an old `TrainState` into one with a new
            field this way). numbax's own checkpoints stand in for Flax's Orbax ones here.

    Returns:
        The restored tree, its dicts in the target's key order (leaves are numpy arrays or
        Python numbers, ``core.Array`` where the target's leaf is one, or without a target
        where the saved leaf was one, as Flax's Orbax checkpoints restore; without a target
        numbax's checkpoints come back with every dict's keys sorted, as Orbax's do; a msgpack
        file gives numpy arrays, as Flax's ``from_bytes`` does); ``target`` itself when
        ``ckpt_dir`` holds no checkpoint and ``step`` is None (as in Flax).

    Raises:
        CheckpointNotFoundError: ``step`` was given and has no checkpoint file.
        CheckpointArgumentError: ``step`` is not None or an integer >= 0.
        CheckpointMismatchError: the stored tree differs from ``target`` (the message lists
            the missing, extra and changed leaves by key path).
        CorruptCheckpointError: the file is truncated, damaged or not a checkpoint.
        CheckpointVersionError: the file was written by a newer format version.
        OrbaxCheckpointError: the checkpoint is an Orbax directory (Flax's default writer)
            and tensorstore is not installed.
        OrbaxTransformsError: ``orbax_transforms`` is a non-empty dict.
    """
    if orbax_transforms:
        raise OrbaxTransformsError(orbax_transforms)
    fallback = orbax_transforms is not None
    ckpt_dir = Path(ckpt_dir)
    if step is not None:
        step = _integer("step", step, 0)
    _remove_stale_temporaries(ckpt_dir, prefix)
    if ckpt_dir.is_file() or orbax.is_orbax_checkpoint(ckpt_dir):
        path = ckpt_dir
    elif step is not None:
        path = _checkpoint_path(ckpt_dir, step, prefix)
        if not (path.is_file() or orbax.is_orbax_checkpoint(path)):
            raise CheckpointNotFoundError(path, available_steps(ckpt_dir, prefix))
    else:
        path = _latest_any(ckpt_dir, prefix)
        if path is None:
            return target
    state = _stored_state(path)
    if state is None:
        header, arrays = _read(path)
        if target is None:
            return _sorted_keys(_nest(header, arrays))
    else:
        if target is None:
            return state
        header, arrays = _state_as_leaves(path, state)
    # Flax restores a msgpack file with `from_bytes`: numpy arrays, whatever the target's are
    as_numpy = state is not None and not orbax.is_orbax_checkpoint(path)
    try:
        return _restore_into(path, target, header, arrays, fallback, as_numpy)
    except CheckpointMismatchError as e:
        if not as_numpy:
            raise
        line = _from_state_dict_line(target, state)
        if line is None and not (e.missing or e.changed):  # Flax drops a dict's extra keys
            return _restore_into(path, target, header, arrays, True, as_numpy)
        raise CheckpointMismatchError(path, e.missing, e.extra, e.changed, line) from None


def _from_state_dict_line(target: Any, state: dict) -> str | None:
    """The first line of the error of Flax's legacy restore (`from_state_dict`) of `state`
    into `target` (a key, field or length the file lacks), None if it restores."""
    try:
        serialization.from_state_dict(target, state)
    except ValueError as e:  # StateDictMismatchError, as Flax's ValueErrors
        return str(e).splitlines()[0]
    return None
