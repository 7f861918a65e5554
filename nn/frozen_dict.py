"""``FrozenDict``: Flax's immutable mapping, with ``freeze``/``unfreeze``/``copy``/``pop``.

``nn`` itself works on plain dicts (``init`` returns dicts), but code written for Flax builds and
passes ``FrozenDict`` trees; this one behaves like ``flax.core.FrozenDict``: an immutable,
hashable mapping whose nested dicts are frozen on construction, a pytree with children in
sorted key order (keys appear in key paths as ``DictKey``), ``copy(add_or_replace)`` and
``pop(key) -> (rest, value)`` returning new dicts. ``freeze``, ``unfreeze``, ``copy``, ``pop``
and ``pretty_repr`` accept plain dicts as well.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from core import tree_util


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
        raise ValueError("FrozenDict is immutable; use .copy({key: value}) for an updated copy.")

    def __setattr__(self, name: str, value: Any) -> None:
        raise ValueError("FrozenDict is immutable.")

    def __contains__(self, key: object) -> bool:
        return key in self._dict

    def __iter__(self) -> Iterator:
        return iter(self._dict)

    def __len__(self) -> int:
        return len(self._dict)

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
        return pretty_repr(self, num_spaces)

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
    """Nested plain dicts from a ``FrozenDict`` (or dict); other values are returned as they are."""
    if isinstance(x, (FrozenDict, dict)):
        return {k: unfreeze(v) for k, v in x.items()}
    return x


def copy(x: Mapping, add_or_replace: Mapping | None = None) -> Mapping:
    """An updated copy of a ``FrozenDict`` or dict (the same type comes back)."""
    if isinstance(x, FrozenDict):
        return x.copy(add_or_replace)
    return {**x, **dict(add_or_replace or {})}


def pop(x: Mapping, key: Any) -> tuple[Mapping, Any]:
    """``(copy of x without key, x[key])`` for a ``FrozenDict`` or dict."""
    if isinstance(x, FrozenDict):
        return x.pop(key)
    rest = dict(x)
    value = rest.pop(key)
    return rest, value


def pretty_repr(x: Any, num_spaces: int = 4) -> str:
    """A multi-line representation of nested mappings (Flax's format)."""
    if not isinstance(x, Mapping):
        return repr(x)
    name = "FrozenDict" if isinstance(x, FrozenDict) else ""
    if not x:
        return f"{name}({{}})" if name else "{}"
    pad = " " * num_spaces

    def body(m: Mapping, depth: int) -> str:
        lines = []
        for k, v in m.items():
            value = body(v, depth + 1) if isinstance(v, Mapping) and v else repr(v)
            if isinstance(v, Mapping) and not v:
                value = "{}"
            lines.append(f"{pad * (depth + 1)}{k}: {value},")
        return "{\n" + "\n".join(lines) + f"\n{pad * depth}}}"

    out = body(x, 0)
    return f"{name}({out})" if name else out
