"""Key path entries (`SequenceKey`, `DictKey`, `GetAttrKey`, `FlattenedIndexKey`) and `keystr`.

A key path is a tuple of entries, one per node from the root to a leaf, as
`tree_flatten_with_path` returns them; each entry prints as Python's subscript or attribute
syntax (`['a'][0].b`), and `keystr(..., simple=True)` prints the bare keys.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SequenceKey:
    """Key of a child of a tuple or list: prints as ``[idx]``."""

    idx: int

    def __str__(self) -> str:
        return f"[{self.idx!r}]"


@dataclass(frozen=True)
class DictKey:
    """Key of a child of a dict-like node: prints as ``['key']``."""

    key: Hashable

    def __str__(self) -> str:
        return f"[{self.key!r}]"


@dataclass(frozen=True)
class GetAttrKey:
    """Key of an attribute child (namedtuples, dataclasses): prints as ``.name``."""

    name: str

    def __str__(self) -> str:
        return f".{self.name}"


@dataclass(frozen=True)
class FlattenedIndexKey:
    """Key of a child of a custom node registered without keys: prints as ``[<flat index k>]``."""

    key: int

    def __str__(self) -> str:
        return f"[<flat index {self.key}>]"

    def __hash__(self) -> int:  # JAX's: not the hash of `SequenceKey(key)`
        return hash((FlattenedIndexKey, self.key))


KeyEntry = Any
KeyPath = tuple[KeyEntry, ...]


def _simple_key(k: KeyEntry) -> str:
    if isinstance(k, SequenceKey):
        return str(k.idx)
    if isinstance(k, (DictKey, FlattenedIndexKey)):
        return str(k.key)
    if isinstance(k, GetAttrKey):
        return k.name
    return str(k)


def keystr(keys: KeyPath, *, simple: bool = False, separator: str = "") -> str:
    """Formats a key path as a string.

    Args:
      keys: a key path, as produced by `tree_flatten_with_path`.
      simple: if True, print each key bare (``a/0/x``) instead of ``['a'][0].x``.
      separator: string placed between the keys.

    Returns:
      The formatted path, e.g. ``"['params']['kernel']"``.
    """
    fmt = _simple_key if simple else str
    return separator.join(fmt(k) for k in keys)
