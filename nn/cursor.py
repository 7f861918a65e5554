"""Cursors into nested immutable values (``flax.cursor``).

``cursor(tree)`` wraps a value made of dicts, `FrozenDict`s, lists, tuples, named tuples and
dataclasses (a `TrainState`, a parameter dict). Indexing (``c['params']['Dense_0']``) and
attribute access (``c.params``) walk into it; assigning at a position (``c['a'] = 1``,
``c.step = 0``) or ``set`` records a replacement, and ``build`` returns a copy of the whole value
with every recorded replacement in place (the original is untouched). ``apply_update`` and
``find``/``find_all`` visit every part below the cursor with its ``'/'``-joined path
(``'params/Dense_0/kernel'``), parents before their children.
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from nn.errors import CursorMatchError
from nn.frozen_dict import FrozenDict

__all__ = ["Cursor", "cursor"]

_ITEM, _ATTR = "item", "attr"


def _is_namedtuple(value: Any) -> bool:
    return isinstance(value, tuple) and all(
        hasattr(value, name) for name in ("_fields", "_asdict", "_replace")
    )


def _parts(value: Any) -> tuple[str, list[tuple[Any, Any]]] | None:
    """How `value`'s parts are reached (by item or by attribute) and its (key, part) pairs;
    None for a value the traversal does not enter."""
    if isinstance(value, (dict, FrozenDict)):
        return _ITEM, list(value.items())
    if _is_namedtuple(value):
        return _ATTR, [(name, getattr(value, name)) for name in value._fields]
    if isinstance(value, (list, tuple)):
        return _ITEM, list(enumerate(value))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = [f.name for f in dataclasses.fields(value) if f.init]
        return _ATTR, [(name, getattr(value, name)) for name in fields]
    return None


def _walk(value: Any, path: tuple) -> Iterator[tuple[tuple, Any]]:
    """Every part below `value` as (path of (key, access) pairs, part), parents first."""
    found = _parts(value)
    if found is None:
        return
    access, items = found
    for key, part in items:
        here = (*path, (key, access))
        yield here, part
        yield from _walk(part, here)


def _joined(path: tuple) -> str:
    return "/".join(str(key) for key, _ in path)


def _rebuilt(value: Any, changes: dict) -> Any:
    """A copy of `value` with the parts under `changes`' keys replaced."""
    if not changes:
        return value
    if isinstance(value, FrozenDict):
        return value.copy(changes)
    if _is_namedtuple(value):
        return value._replace(**changes)
    if isinstance(value, (dict, list, tuple)):
        copy = list(value) if isinstance(value, tuple) else value.copy()
        for key, part in changes.items():
            copy[key] = part
        return tuple(copy) if isinstance(value, tuple) else copy
    if dataclasses.is_dataclass(value):
        return dataclasses.replace(value, **changes)
    return value


class Cursor:
    """A position in a nested value and the replacements recorded below it.

    Attributes are the wrapped value's (``c.params``); arithmetic and comparisons act on the
    value at the cursor (``c['w'] * 2``).
    """

    def __init__(self, value: Any, parent: Cursor | None = None, key: Any = None,
                 access: str = _ITEM):  # fmt: skip
        state = vars(self)
        state["_obj"], state["_parent"], state["_key"], state["_access"] = (
            value, parent, key, access,
        )  # fmt: skip
        state["_changes"] = {}

    def _child(self, key: Any, value: Any, access: str) -> Cursor:
        child = Cursor(value, self, key, access)
        self._changes[key] = child
        return child

    @property
    def _root(self) -> Cursor:
        return self if self._parent is None else self._parent._root

    @property
    def _path(self) -> str:
        """The cursor's position as Python accessors from the root (``['a'].b[0]``)."""
        if self._parent is None:
            return ""
        if self._access == _ATTR:
            return f"{self._parent._path}.{self._key}"
        key = f"'{self._key}'" if isinstance(self._key, str) else str(self._key)
        return f"{self._parent._path}[{key}]"

    def __getitem__(self, key: Any) -> Cursor:
        if key in self._changes:
            return self._changes[key]
        value = self._obj
        if _is_namedtuple(value):
            return getattr(self, value._fields[key])
        if not hasattr(value, "__getitem__"):
            raise TypeError(f"Cannot index into {value}")
        if isinstance(value, Mapping) and key not in value:
            raise KeyError(f"Key {key} not found in {value}")
        return self._child(key, value[key], _ITEM)

    def __getattr__(self, name: str) -> Cursor:
        if name.startswith("__"):
            raise AttributeError(name)
        changes = vars(self)["_changes"]
        if name in changes:
            return changes[name]
        if not hasattr(self._obj, name):
            raise AttributeError(f"Attribute {name} not found in {self._obj}")
        return self._child(name, getattr(self._obj, name), _ATTR)

    def __setitem__(self, key: Any, value: Any) -> None:
        if _is_namedtuple(self._obj):
            setattr(self, self._obj._fields[key], value)
        else:
            self._changes[key] = Cursor(value, self, key, _ITEM)

    def __setattr__(self, name: str, value: Any) -> None:
        self._changes[name] = Cursor(value, self, name, _ATTR)

    def set(self, value: Any) -> Any:
        """Replaces the value at this cursor and builds the root.

        Args:
          value: the new value at this position.

        Returns:
          A copy of the root's value with this replacement and every other recorded one.
        """
        if self._parent is None:
            return value
        self._parent._changes[self._key] = Cursor(value, self._parent, self._key, self._access)
        return self._root.build()

    def build(self) -> Any:
        """A copy of the wrapped value with every replacement recorded below this cursor.

        Returns:
          The rebuilt value (of the wrapped value's type).
        """
        return _rebuilt(self._obj, {key: child.build() for key, child in self._changes.items()})

    def _at(self, path: tuple) -> Cursor:
        here = self
        for key, access in path:
            here = here[key] if access == _ITEM else getattr(here, key)
        return here

    def apply_update(self, update_fn: Callable[[str, Any], Any]) -> Cursor:
        """Records ``update_fn(path, value)`` for every part below the cursor whose result is
        not the part itself (the parts below a replaced one are not visited).

        Args:
          update_fn: called with the ``'/'``-joined path and the part; returns the part
            unchanged (the same object) to keep it.

        Returns:
          This cursor; ``.build()`` gives the updated value.
        """
        pending = [((), self._obj)]
        while pending:
            path, value = pending.pop()
            if path:
                new = update_fn(_joined(path), value)
                if new is not value:
                    parent, (key, access) = self._at(path[:-1]), path[-1]
                    if access == _ITEM:
                        parent[key] = new
                    else:
                        setattr(parent, key, new)
                    continue
            found = _parts(value)
            if found is not None:
                access, items = found
                pending.extend((path + ((k, access),), v) for k, v in reversed(items))
        return self

    def find_all(self, cond_fn: Callable[[str, Any], bool]) -> Iterator[Cursor]:
        """Cursors to the parts below this one for which ``cond_fn(path, value)`` is true (the
        parts below a match are not searched).

        Args:
          cond_fn: called with the ``'/'``-joined path and the part.

        Yields:
          A cursor per match, in traversal order.
        """
        skip: tuple | None = None
        for path, value in _walk(self._obj, ()):
            if skip is not None and path[: len(skip)] == skip:
                continue
            skip = None
            if cond_fn(_joined(path), value):
                skip = path
                yield self._at(path)

    def find(self, cond_fn: Callable[[str, Any], bool]) -> Cursor:
        """The one part below this cursor for which ``cond_fn(path, value)`` is true.

        Args:
          cond_fn: called with the ``'/'``-joined path and the part.

        Returns:
          A cursor to the match.

        Raises:
          CursorMatchError: no part or more than one part matches.
        """
        matches = self.find_all(cond_fn)
        first = next(matches, None)
        if first is None:
            raise CursorMatchError()
        second = next(matches, None)
        if second is not None:
            raise CursorMatchError(first._path, second._path)
        return first

    def __str__(self) -> str:
        return str(self._obj)

    def __repr__(self) -> str:
        return self._pretty(2, 0)

    def _pretty(self, indent: int, margin: int) -> str:
        pad, inner = " " * margin, " " * (margin + indent)
        value = repr(self._obj).replace("\n", "\n" + inner)
        lines = [f"Cursor(\n{inner}_obj={value},\n{inner}_changes={{"]
        if not self._changes:
            return f"{lines[0]}}}\n{pad})"
        entries = []
        for key, child in self._changes.items():
            prefix = " " * (margin + 2 * indent) + f"{key!r}: "
            entries.append(prefix + child._pretty(indent, len(prefix)))
        return lines[0] + "\n" + ",\n".join(entries) + f"\n{inner}}}\n{pad})"

    def __len__(self) -> int:
        return len(self._obj)

    def __iter__(self) -> Iterator[Cursor]:
        if not isinstance(self._obj, (list, tuple)):
            raise NotImplementedError(
                f"__iter__ method only implemented for tuples and lists, not type {type(self._obj)}"
            )
        return (self[i] for i in range(len(self._obj)))

    def __reversed__(self) -> Iterator[Cursor]:
        if not isinstance(self._obj, (list, tuple)):
            raise NotImplementedError(
                "__reversed__ method only implemented for tuples and lists, not type "
                f"{type(self._obj)}"
            )
        return (self[i] for i in reversed(range(len(self._obj))))

    __hash__ = None  # type: ignore[assignment]


def _forward(op: Callable) -> Callable:
    return lambda self, other: op(self._obj, other)


def _reflected(op: Callable) -> Callable:
    return lambda self, other: op(other, self._obj)


def _unary(op: Callable) -> Callable:
    return lambda self: op(self._obj)


_BINARY = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul, "matmul": operator.matmul,
    "truediv": operator.truediv, "floordiv": operator.floordiv, "mod": operator.mod,
    "divmod": divmod, "pow": pow, "lshift": operator.lshift, "rshift": operator.rshift,
    "and": operator.and_, "xor": operator.xor, "or": operator.or_,
}  # fmt: skip
for _name, _op in _BINARY.items():
    setattr(Cursor, f"__{_name}__", _forward(_op))
    setattr(Cursor, f"__r{_name}__", _reflected(_op))
for _name, _op in {"lt": operator.lt, "le": operator.le, "eq": operator.eq,
                   "ne": operator.ne, "gt": operator.gt, "ge": operator.ge}.items():  # fmt: skip
    setattr(Cursor, f"__{_name}__", _forward(_op))
for _name, _op in {"neg": operator.neg, "pos": operator.pos, "abs": abs,
                   "invert": operator.invert}.items():  # fmt: skip
    setattr(Cursor, f"__{_name}__", _unary(_op))
Cursor.__round__ = lambda self, ndigits=None: round(self._obj, ndigits)  # type: ignore[attr-defined]


def cursor(obj: Any) -> Cursor:
    """A cursor at the root of `obj`.

    Args:
      obj: a nested value (dicts, `FrozenDict`s, lists, tuples, named tuples, dataclasses).

    Returns:
      A `Cursor` whose edits `build` (or `set`) into a copy of `obj`.
    """
    return Cursor(obj)
