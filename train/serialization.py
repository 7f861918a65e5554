"""Flax's serialization (``flax.serialization``): state dicts and the msgpack byte format.

A *state dict* is an object's state as nested dicts with string keys and array leaves:
`to_state_dict` turns a registered type into one and `from_state_dict(target, state)` builds a
copy of ``target`` holding ``state``. Registered are ``dict``, ``list``, ``tuple``, named
tuples (by field name), other mappings such as `nn.FrozenDict`, and every `core.struct`
dataclass (its pytree fields: a `TrainState` gives ``step``, ``params`` and ``opt_state``);
`register_serialization_state` adds more. Other values are leaves.

`to_bytes` / `from_bytes` write and read a state dict with MessagePack exactly as Flax does, so
files move both ways between Flax and numbax. Arrays are ext type 1 holding the msgpack of
``(shape, dtype name, C-order bytes)`` (``bfloat16`` included), numpy scalars ext type 3 with
the same payload, Python complex numbers ext type 2 holding ``(real, imag)``; arrays above
`MAX_CHUNK_SIZE` bytes are split into ``{"__msgpack_chunked_array__": True, ...}`` dicts. The
MessagePack codec is `train.msgpack` (ours, no dependency).
"""

from __future__ import annotations

import collections.abc
import dataclasses
import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import numpy as np

from core import dtypes, tree_util

from . import msgpack
from .errors import MsgpackDecodeError, StateDictMismatchError

__all__ = [
    "MAX_CHUNK_SIZE",
    "current_path",
    "from_bytes",
    "from_state_dict",
    "is_serializable",
    "msgpack_restore",
    "msgpack_serialize",
    "register_serialization_state",
    "to_bytes",
    "to_state_dict",
]

_REGISTRY: dict[type, tuple[Callable, Callable]] = {}


class _Path(threading.local):
    def __init__(self) -> None:
        self.names: list[str] = []


_path = _Path()


@contextmanager
def _record_path(name: str) -> Iterator[None]:
    """`name` ends the path (`current_path`) while the block restores that entry."""
    with ExitStack() as on_exit:
        _path.names.append(name)
        on_exit.callback(_path.names.pop)
        yield


def current_path() -> str:
    """The ``/``-joined state-dict path being restored (for error messages), as in Flax."""
    return "/".join(_path.names)


class _NamedTuple:
    """Registry marker for every named tuple type."""


class _Mapping:
    """Registry marker for mappings that are not dicts (e.g. `nn.FrozenDict`)."""


class _StructDataclass:
    """Registry marker for `core.struct` dataclasses."""


def _handler_type(x: Any) -> type:
    ty = type(x)
    if ty in _REGISTRY:
        return ty
    if isinstance(x, tuple) and hasattr(x, "_fields"):
        return _NamedTuple
    if "_flax_dataclass" in ty.__dict__ or any(
        "_flax_dataclass" in base.__dict__ for base in ty.__mro__
    ):
        return _StructDataclass
    if isinstance(x, collections.abc.Mapping):
        return _Mapping
    return ty


def register_serialization_state(
    ty: type,
    ty_to_state_dict: Callable[[Any], Any],
    ty_from_state_dict: Callable[[Any, Any], Any],
    override: bool = False,
) -> None:
    """Registers how a type becomes a state dict and is rebuilt from one.

    Args:
        ty: the type.
        ty_to_state_dict: ``obj -> state dict`` (a dict with string keys).
        ty_from_state_dict: ``(obj, state dict) -> a copy of obj holding that state``.
        override: replace an existing registration.

    Raises:
        ValueError: ``ty`` is already registered and ``override`` is False.
    """
    if ty in _REGISTRY and not override:
        raise ValueError(f'a serialization handler for "{ty.__name__}" is already registered')
    _REGISTRY[ty] = (ty_to_state_dict, ty_from_state_dict)


def is_serializable(target: Any) -> bool:
    """Whether ``target`` (an object or a type) has a registered state-dict handler."""
    if isinstance(target, type):
        return target in _REGISTRY
    return _handler_type(target) in _REGISTRY


def to_state_dict(target: Any) -> Any:
    """The state of ``target`` as nested dicts with string keys (leaves are returned as is).

    Args:
        target: a registered object (dict, list, tuple, named tuple, mapping, struct
            dataclass such as `TrainState`, or a type given to `register_serialization_state`).

    Returns:
        The state dict, or ``target`` itself when it is a leaf.
    """
    handler = _REGISTRY.get(_handler_type(target))
    return target if handler is None else handler[0](target)


def from_state_dict(target: Any, state: Any, name: str = ".") -> Any:
    """A copy of ``target`` holding ``state`` (as made by `to_state_dict`).

    Only the structure of ``target`` is used; its leaves are replaced by the stored ones (no
    shape or dtype check, as in Flax; `train.checkpoints.restore_checkpoint` checks them).

    Args:
        target: an object with the structure to restore.
        state: its state dict.
        name: the path component of ``target``, for error messages.

    Returns:
        The restored object.

    Raises:
        StateDictMismatchError: keys, list lengths or fields differ (the message has the path).
    """
    ty = _handler_type(target)
    handler = _REGISTRY.get(ty)
    if handler is None:
        return state
    with _record_path(name):
        # numbax's own handlers read dicts; a user's may store anything (Flax checks neither)
        if ty in _DICT_HANDLERS and not isinstance(state, dict):
            raise StateDictMismatchError(
                current_path(),
                f"expected a dict for {type(target).__name__} in the state dict, got "
                f"{state!r:.60} at path {current_path()}",
            )
        return handler[1](target, state)


def _list_state_dict(xs: Any) -> dict[str, Any]:
    return {str(i): to_state_dict(x) for i, x in enumerate(xs)}


def _restore_list(xs: Any, state: dict[str, Any]) -> list[Any]:
    if len(state) != len(xs):
        raise StateDictMismatchError(
            current_path(),
            "The size of the list and the state dict do not match, got "
            f"{len(xs)} and {len(state)} at path {current_path()}",
        )
    missing = [str(i) for i in range(len(xs)) if str(i) not in state]
    if missing:
        raise StateDictMismatchError(
            current_path(), f"no items {missing} in the state dict at path {current_path()}"
        )
    return [from_state_dict(x, state[str(i)], name=str(i)) for i, x in enumerate(xs)]


def _dict_state_dict(xs: collections.abc.Mapping) -> dict[str, Any]:
    keys = {str(k) for k in xs}
    if len(keys) != len(xs):
        raise StateDictMismatchError(
            current_path(),
            f"Dict keys do not have a unique string representation: {keys} vs given: {xs}",
        )
    return {str(k): to_state_dict(v) for k, v in xs.items()}


def _restore_dict(xs: collections.abc.Mapping, state: dict[str, Any]) -> dict[Any, Any]:
    missing = set(map(str, xs)) - set(state)
    if missing:
        raise StateDictMismatchError(
            current_path(),
            "The target dict keys and state dict keys do not match, target dict contains keys "
            f"{missing} which are not present in state dict at path {current_path()}",
        )
    return {k: from_state_dict(v, state[str(k)], name=str(k)) for k, v in xs.items()}


def _restore_mapping(xs: collections.abc.Mapping, state: dict[str, Any]) -> Any:
    extra = set(state) - set(map(str, xs))
    if extra:
        raise StateDictMismatchError(
            current_path(),
            f"the state dict has keys {sorted(extra)} that the target has not, at path "
            f"{current_path()}",
        )
    return type(xs)(_restore_dict(xs, state))


def _restore_namedtuple(xs: Any, state: dict[str, Any]) -> Any:
    if set(state) == {"name", "fields", "values"}:  # Flax's legacy layout, still read by Flax
        state = {
            state["fields"][str(i)]: state["values"][str(i)] for i in range(len(state["fields"]))
        }
    if set(state) != set(xs._fields):
        raise StateDictMismatchError(
            current_path(),
            "The field names of the state dict and the named tuple do not match, got "
            f"{set(state)} and {set(xs._fields)} at path {current_path()}",
        )
    return type(xs)(**{k: from_state_dict(getattr(xs, k), state[k], name=k) for k in xs._fields})


def _data_fields(x: Any) -> list[str]:
    return [f.name for f in dataclasses.fields(x) if f.metadata.get("pytree_node", True)]


def _struct_state_dict(x: Any) -> dict[str, Any]:
    return {name: to_state_dict(getattr(x, name)) for name in _data_fields(x)}


def _restore_struct(x: Any, state: dict[str, Any]) -> Any:
    names = _data_fields(x)
    where = f"an instance of {type(x).__name__}"
    for n in names:
        if n not in state:
            raise StateDictMismatchError(
                current_path(),
                f"Missing field {n} in state dict while restoring {where}, at path "
                f"{current_path()}",
            )
    extra = [k for k in state if k not in names]
    if extra:
        raise StateDictMismatchError(
            current_path(),
            f'Unknown field(s) "{",".join(extra)}" in state dict while restoring {where} at '
            f"path {current_path()}",
        )
    return x.replace(**{n: from_state_dict(getattr(x, n), state[n], name=n) for n in names})


register_serialization_state(dict, _dict_state_dict, _restore_dict)
register_serialization_state(list, _list_state_dict, _restore_list)
register_serialization_state(tuple, _list_state_dict, lambda xs, s: tuple(_restore_list(xs, s)))
register_serialization_state(
    _NamedTuple,
    lambda nt: {k: to_state_dict(getattr(nt, k)) for k in nt._fields},
    _restore_namedtuple,
)
register_serialization_state(_Mapping, _dict_state_dict, _restore_mapping)
register_serialization_state(_StructDataclass, _struct_state_dict, _restore_struct)
register_serialization_state(
    tree_util.Partial,
    lambda p: {"args": to_state_dict(p.args), "keywords": to_state_dict(p.keywords)},
    lambda p, state: tree_util.Partial(
        p.func,
        *from_state_dict(p.args, state["args"], name="args"),
        **from_state_dict(p.keywords, state["keywords"], name="keywords"),
    ),
)
_DICT_HANDLERS = (dict, list, tuple, _NamedTuple, _Mapping, _StructDataclass, tree_util.Partial)


# ---- the msgpack format -------------------------------------------------------------------

_EXT_NDARRAY, _EXT_COMPLEX, _EXT_NPSCALAR = 1, 2, 3
MAX_CHUNK_SIZE = 2**30  # bytes; msgpack's limit is 2**31 - 1 per object, as in Flax
_CHUNKED = "__msgpack_chunked_array__"


def _ndarray_to_bytes(array: np.ndarray) -> bytes:
    if array.dtype.hasobject or array.dtype.isalignedstruct or array.dtype.names:
        raise ValueError(
            "Object and structured dtypes not supported for serialization of ndarrays."
        )
    shape = tuple(int(d) for d in array.shape)
    return msgpack.packb((shape, array.dtype.name, np.ascontiguousarray(array).tobytes("C")))


def _dtype_from_name(name: bytes) -> np.dtype:
    return np.dtype(dtypes.bfloat16) if name == b"bfloat16" else np.dtype(name.decode())


def _ndarray_from_bytes(data: bytes) -> np.ndarray:
    try:
        shape, name, buffer = msgpack.unpackb(data, raw=True)
        return np.frombuffer(buffer, dtype=_dtype_from_name(name)).reshape(shape, order="C")
    except (TypeError, ValueError) as e:
        raise MsgpackDecodeError(f"bad array payload ({e})") from e


def _is_array(x: Any) -> bool:
    return isinstance(x, np.ndarray) or (
        hasattr(x, "__array__") and hasattr(x, "dtype") and not isinstance(x, np.generic)
    )


def _ext_pack(x: Any) -> Any:
    if _is_array(x):
        return msgpack.ExtType(_EXT_NDARRAY, _ndarray_to_bytes(np.asarray(x)))
    if isinstance(x, np.generic):
        return msgpack.ExtType(_EXT_NPSCALAR, _ndarray_to_bytes(np.asarray(x)))
    if isinstance(x, complex):
        return msgpack.ExtType(_EXT_COMPLEX, msgpack.packb((x.real, x.imag)))
    return x


def _ext_unpack(code: int, data: bytes) -> Any:
    if code == _EXT_NDARRAY:
        return _ndarray_from_bytes(data)
    if code == _EXT_COMPLEX:
        real, imag = msgpack.unpackb(data)
        return complex(real, imag)
    if code == _EXT_NPSCALAR:
        return _ndarray_from_bytes(data)[()]
    return msgpack.ExtType(code, data)


def _chunk(array: np.ndarray) -> dict[str, Any]:
    size = max(1, MAX_CHUNK_SIZE // array.dtype.itemsize)
    flat = array.reshape(-1)
    chunks = [flat[i : i + size] for i in range(0, flat.size, size)]
    return {
        _CHUNKED: True,
        "shape": {str(i): int(d) for i, d in enumerate(array.shape)},
        "chunks": {str(i): c for i, c in enumerate(chunks)},
    }


def _unchunk(data: dict[str, Any]) -> np.ndarray:
    shape = tuple(data["shape"][str(i)] for i in range(len(data["shape"])))
    chunks = [data["chunks"][str(i)] for i in range(len(data["chunks"]))]
    return np.concatenate(chunks).reshape(shape)


def _prepare(tree: Any) -> Any:
    """Arrays as numpy arrays, oversized ones (directly under a dict) chunked; copies dicts."""
    if isinstance(tree, dict):
        return {k: _prepare(v) for k, v in tree.items()}
    if _is_array(tree):
        array = np.asarray(tree)
        return _chunk(array) if array.nbytes > MAX_CHUNK_SIZE else array
    return tree


def _restore_chunks(tree: Any) -> Any:
    if isinstance(tree, dict):
        if tree.get(_CHUNKED) is True:
            return _unchunk(tree)
        for k, v in tree.items():
            tree[k] = _restore_chunks(v)
    return tree


def msgpack_serialize(pytree: Any, in_place: bool = False) -> bytes:
    """Encodes a tree of dicts, lists, Python scalars and arrays as Flax's msgpack bytes.

    Args:
        pytree: nested dicts and lists with numbers, strings, None and array leaves (use
            `to_bytes` for other objects; tuples are rejected, as in Flax).
        in_place: encode the dicts in their own key order; otherwise (the default) the tree
            is first rebuilt by ``tree_map``, as Flax does, which sorts every dict's keys.

    Returns:
        The bytes, identical to ``flax.serialization.msgpack_serialize``'s.

    Raises:
        MsgpackEncodeError: a value has no msgpack encoding.
    """
    if not in_place:
        pytree = tree_util.tree_map(lambda x: x, pytree)
    return msgpack.packb(_prepare(pytree), default=_ext_pack, strict=True)


def msgpack_restore(encoded_pytree: bytes) -> Any:
    """Decodes Flax's msgpack bytes into dicts, lists, Python scalars and numpy arrays.

    Args:
        encoded_pytree: bytes from `msgpack_serialize`, `to_bytes` or their Flax versions.

    Returns:
        The tree; arrays are read-only numpy arrays (``bfloat16`` as `ml_dtypes.bfloat16`),
        numpy scalars stay numpy scalars, chunked arrays are joined.

    Raises:
        MsgpackDecodeError: the bytes are not valid msgpack.
    """
    return _restore_chunks(msgpack.unpackb(encoded_pytree, ext_hook=_ext_unpack))


def to_bytes(target: Any) -> bytes:
    """``msgpack_serialize(to_state_dict(target), in_place=True)``: an object as Flax's msgpack
    bytes (its state dict's key order kept).

    Args:
        target: e.g. a `TrainState` or a parameter dict.

    Returns:
        The bytes (a Flax checkpoint file's content).
    """
    return msgpack_serialize(to_state_dict(target), in_place=True)


def from_bytes(target: Any, encoded_bytes: bytes) -> Any:
    """``from_state_dict(target, msgpack_restore(encoded_bytes))``.

    Args:
        target: an object with the structure of the stored one (e.g. a fresh `TrainState`).
        encoded_bytes: bytes from `to_bytes` or ``flax.serialization.to_bytes``.

    Returns:
        A copy of ``target`` with the stored leaves.

    Raises:
        MsgpackDecodeError: the bytes are not valid msgpack.
        StateDictMismatchError: the stored structure differs from ``target``'s.
    """
    return from_state_dict(target, msgpack_restore(encoded_bytes))
