"""``FrozenDict``: Flax's immutable mapping, with ``freeze``/``unfreeze``/``copy``/``pop``.

``nn`` itself works on plain dicts (``init`` returns dicts), but code written for Flax builds and
passes ``FrozenDict`` trees; this one behaves like ``flax.core.FrozenDict``: an immutable,
hashable mapping whose nested dicts are frozen on construction, a pytree with children in
sorted key order (keys appear in key paths as ``DictKey``), ``copy(add_or_replace)`` and
``pop(key) -> (rest, value)`` returning new dicts. ``freeze``, ``unfreeze``, ``copy``, ``pop``
and ``pretty_repr`` accept plain dicts as well.
"""

from __future__ import annotations

from collections.abc import Iterator, KeysView, Mapping, ValuesView
from typing import Any

from core import tree_util


class FrozenKeysView(KeysView):
    """The keys of a ``FrozenDict`` (``flax.core.frozen_dict.FrozenKeysView``)."""

    def __repr__(self) -> str:
        return f"frozen_dict_keys({list(self)})"


class FrozenValuesView(ValuesView):
    """The values of a ``FrozenDict`` (``flax.core.frozen_dict.FrozenValuesView``)."""

    def __repr__(self) -> str:
        return f"frozen_dict_values({list(self)})"


class FrozenDict(Mapping):
    """An immutable (and, with hashable leaves, hashable) nested mapping.

    Args:
      *args: as for ``dict``.
      **kwargs: as for ``dict``.
    """

    __slots__ = ("_dict", "_hash")

    def __init__(self, *args: Any, **kwargs: Any):
        raw = dict(*args, **kwargs)
        object.__setattr__(
            self,
            "_dict",
            {k: FrozenDict(v) if isinstance(v, dict) else v for k, v in raw.items()},
        )
        object.__setattr__(self, "_hash", None)

    def __getitem__(self, key: Any) -> Any:
        return self._dict[key]

    def __setitem__(self, key: Any, value: Any) -> None:
        raise ValueError(  # Flax's first line, then the fix
            "FrozenDict is immutable.\nuse .copy({key: value}) for an updated copy."
        )

    def __setattr__(self, name: str, value: Any) -> None:
        raise ValueError("FrozenDict is immutable.")

    def __contains__(self, key: object) -> bool:
        return key in self._dict

    def __iter__(self) -> Iterator:
        return iter(self._dict)

    def __len__(self) -> int:
        return len(self._dict)

    def keys(self) -> FrozenKeysView:
        """The keys, a set-like view printed as ``frozen_dict_keys([...])`` (as Flax's)."""
        return FrozenKeysView(self)

    def values(self) -> FrozenValuesView:
        """The values, a view printed as ``frozen_dict_values([...])`` (as Flax's)."""
        return FrozenValuesView(self)

    def items(self) -> Iterator[tuple[Any, Any]]:
        """The (key, value) pairs, as a generator (as Flax's: not a view, no ``len``)."""
        for key in self._dict:
            yield (key, self[key])

    def __repr__(self) -> str:
        return pretty_repr(self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenDict):
            return self._dict == other._dict
        return isinstance(other, Mapping) and self._dict == dict(other)

    def __hash__(self) -> int:
        if self._hash is None:
            object.__setattr__(self, "_hash", hash(tuple(sorted(self._dict.items(), key=repr))))
        return self._hash

    def __reduce__(self) -> tuple:
        return FrozenDict, (self.unfreeze(),)

    def copy(self, add_or_replace: Mapping | None = None) -> FrozenDict:
        """A new ``FrozenDict`` with the entries of ``add_or_replace`` added or replaced."""
        return type(self)({**self._dict, **dict(add_or_replace or {})})

    def pop(self, key: Any) -> tuple[FrozenDict, Any]:
        """``(a copy without key, its value)``."""
        value = self[key]
        return type(self)({k: v for k, v in self._dict.items() if k != key}), value

    def unfreeze(self) -> dict:
        """A mutable deep copy as nested plain dicts."""
        return unfreeze(self)

    def pretty_repr(self, num_spaces: int = 4) -> str:
        """A multi-line representation."""
        return f"FrozenDict({_pretty_dict(_thawed(self), num_spaces)})"

    def tree_flatten_with_keys(self) -> tuple[list, tuple]:
        keys = sorted(self._dict)
        return [(tree_util.DictKey(k), self._dict[k]) for k in keys], tuple(keys)

    @classmethod
    def tree_unflatten(cls, keys: tuple, values: Any) -> FrozenDict:
        return cls(dict(zip(keys, values)))


tree_util.register_pytree_with_keys(
    FrozenDict,
    FrozenDict.tree_flatten_with_keys,
    FrozenDict.tree_unflatten,
)


def freeze(xs: Mapping) -> FrozenDict:
    """``xs`` as a (nested) ``FrozenDict``."""
    return FrozenDict(xs)


def unfreeze(x: Any) -> Any:
    """Nested plain dicts from a ``FrozenDict`` (or dict); other values are returned as they are.

    As Flax's: a ``FrozenDict`` is copied as a pytree (its keys come back sorted at every level),
    a dict key by key in its own order."""
    if isinstance(x, FrozenDict):
        return tree_util.tree_map(lambda v: v, _thawed(x))
    if isinstance(x, dict):
        return {k: unfreeze(v) for k, v in x.items()}
    return x


def _thawed(x: FrozenDict) -> dict:
    """``x``'s nested dicts (as Flax's ``FrozenDict`` holds them), no leaf copied."""
    return {k: _thawed(v) if isinstance(v, FrozenDict) else v for k, v in x._dict.items()}


def copy(x: Mapping, add_or_replace: Mapping | None = None) -> Mapping:
    """An updated copy of a ``FrozenDict`` or dict (the same type comes back; a dict is copied
    as a pytree, as Flax does, so its keys come back sorted at every level)."""
    if isinstance(x, FrozenDict):
        return x.copy(add_or_replace)
    new = tree_util.tree_map(lambda v: v, x)
    new.update(add_or_replace or {})
    return new


def pop(x: Mapping, key: Any) -> tuple[Mapping, Any]:
    """``(copy of x without key, x[key])`` for a ``FrozenDict`` or dict (a dict is copied as a
    pytree, as Flax does, so the copy's and the value's keys come back sorted at every level)."""
    if isinstance(x, FrozenDict):
        return x.pop(key)
    rest = tree_util.tree_map(lambda v: v, x)
    value = rest.pop(key)
    return rest, value


def pretty_repr(x: Any, num_spaces: int = 4) -> str:
    """A multi-line representation of nested dicts (Flax's format: every line of a nested
    dict's or a value's own multi-line repr indented by ``num_spaces`` per level; a
    ``FrozenDict`` inside a plain dict shown by its own repr). A ``FrozenDict`` itself is shown
    by its ``pretty_repr()``, with 4 spaces whatever ``num_spaces`` says, as in Flax."""
    if isinstance(x, FrozenDict):
        return x.pretty_repr()
    return _pretty_dict(x, num_spaces)


def _pretty_dict(x: Any, num_spaces: int) -> str:
    if not isinstance(x, dict):
        return repr(x)
    rep = "".join(f"{key}: {_pretty_dict(val, num_spaces)},\n" for key, val in x.items())
    if not rep:
        return "{}"
    pad = " " * num_spaces
    return "{\n" + "".join(pad + line + "\n" for line in rep.split("\n")[:-1]) + "}"
