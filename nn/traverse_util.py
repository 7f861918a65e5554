"""Flattening nested dicts to ``{path_tuple: leaf}`` and back (``flax.traverse_util``).

Used for optimizer masks, parameter overviews and weight import: every leaf of a nested
parameter dict gets a key path such as ``('Dense_0', 'kernel')`` or, with ``sep='/'``,
``'Dense_0/kernel'``.

The module also keeps Flax's (deprecated, still importable) functional-lens ``Traversal``
classes: a traversal focuses on parts of a value (``t_identity["a"].each()``), ``iterate``
yields them and ``update(fn, x)`` returns a copy of ``x`` with ``fn`` applied to them.
``ModelParamTraversal(filter_fn)`` focuses on the leaves of a parameter dict whose
``'/a/b'``-style path passes ``filter_fn(path, value)``. Constructing one warns, as in Flax.
"""

from __future__ import annotations

import abc
import copy
import dataclasses
import warnings
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from core import tree_util
from nn.errors import FlattenInputError, TraversalError
from nn.frozen_dict import FrozenDict, unfreeze
from nn.typing import PathParts, VariableDict

__all__ = [
    "ModelParamTraversal",
    "PathParts",
    "Traversal",
    "TraverseAttr",
    "TraverseCompose",
    "TraverseEach",
    "TraverseFilter",
    "TraverseId",
    "TraverseItem",
    "TraverseMerge",
    "TraverseTree",
    "VariableDict",
    "empty_node",
    "flatten_dict",
    "path_aware_map",
    "t_identity",
    "unflatten_dict",
]


class _EmptyNode:
    """The value `flatten_dict(..., keep_empty_nodes=True)` gives an empty sub-dict (a pytree
    node without leaves)."""

    def __repr__(self) -> str:
        return "_EmptyNode()"


empty_node = _EmptyNode()
# a pytree node without leaves, as Flax's (a `struct.dataclass` without fields): `jax.tree`
# functions skip it
tree_util.register_pytree_node(_EmptyNode, lambda _: ((), ()), lambda _aux, _children: empty_node)


def flatten_dict(
    xs: Mapping,
    keep_empty_nodes: bool = False,
    is_leaf: Callable[[tuple, Any], bool] | None = None,
    sep: str | None = None,
) -> dict:
    """Flattens a nested dict to ``{path: leaf}``.

    Args:
      xs: the nested dict.
      keep_empty_nodes: keep empty sub-dicts as leaves (the value is ``empty_node``).
      is_leaf: ``is_leaf(path, value)`` stops the descent at ``value`` when true.
      sep: join path keys with this separator instead of returning tuples.

    Returns:
      The flat dict.

    Raises:
      FlattenInputError: ``xs`` is not a mapping.

    Example::

        >>> flatten_dict({"a": {"b": 1, "c": 2}})
        {('a', 'b'): 1, ('a', 'c'): 2}
    """
    if not isinstance(xs, Mapping):
        raise FlattenInputError(xs)
    out: dict = {}

    def visit(x: Any, prefix: tuple) -> None:
        if not isinstance(x, Mapping) or (is_leaf is not None and is_leaf(prefix, x)):
            out[_key(prefix, sep)] = x
            return
        if not x:
            if keep_empty_nodes and prefix:
                out[_key(prefix, sep)] = empty_node
            return
        for k, v in x.items():
            visit(v, prefix + (k,))

    visit(xs, ())
    return out


def _key(path: tuple, sep: str | None) -> Any:
    return path if sep is None else sep.join(path)  # non-str keys: str.join's TypeError, as Flax


def unflatten_dict(xs: Mapping, sep: str | None = None) -> dict:
    """Inverse of :func:`flatten_dict`.

    Args:
      xs: ``{path: leaf}`` with tuple paths (or ``sep``-joined strings).
      sep: the separator used to join string paths.

    Returns:
      The nested dict.
    """
    out: dict = {}
    for path, value in xs.items():
        keys = tuple(path.split(sep)) if sep is not None else path
        cursor = out
        for k in keys[:-1]:
            cursor = cursor.setdefault(k, {})
        cursor[keys[-1]] = {} if value is empty_node else value
    return out


def path_aware_map(f: Callable[[tuple, Any], Any], nested_dict: Mapping) -> dict:
    """Maps ``f(path, leaf)`` over a nested dict, keeping its structure."""
    flat = flatten_dict(nested_dict, keep_empty_nodes=True)
    return unflatten_dict({k: v if v is empty_node else f(k, v) for k, v in flat.items()})


class Traversal(abc.ABC):
    """A functional lens: which parts of a value to read (`iterate`) or replace (`update`).

    Traversals compose: ``t["a"]``, ``t.b`` (attribute), ``t.each()``, ``t.tree()`` (every
    pytree leaf), ``t.filter(fn)``, ``t.merge(t1, t2)``.
    """

    def __new__(cls, *args: Any, **kwargs: Any) -> Traversal:
        warnings.warn(
            "`flax.traverse_util.Traversal` will be deprecated. If you are using it for "
            "`flax.optim`, use `optax` instead (numbax: `optim`).",
            DeprecationWarning,
            stacklevel=2,
        )
        return super().__new__(cls)

    @abc.abstractmethod
    def update(self, fn: Callable[[Any], Any], inputs: Any) -> Any:
        """Returns a copy of `inputs` with `fn` applied to every focused part."""

    @abc.abstractmethod
    def iterate(self, inputs: Any) -> Iterator[Any]:
        """Yields every focused part of `inputs`."""

    def set(self, values: list[Any], inputs: Any) -> Any:
        """Replaces the focused parts, in `iterate` order, by `values` (consumed from the
        list; one value per part, or `TraversalError`)."""

        def take_next(_):
            # Each focused part is replaced by the front of `values`, which is consumed.
            if values:
                return values.pop(0)
            raise TraversalError("Not enough values provided: give one value per item.")

        replaced = self.update(take_next, inputs)
        if not values:
            return replaced
        raise TraversalError("Too many values provided: give one value per item.")

    def compose(self, other: Traversal) -> Traversal:
        """The parts `other` focuses on within the parts this one focuses on."""
        return TraverseCompose(self, other)

    def merge(self, *traversals: Traversal) -> Traversal:
        """The union of `traversals` applied after this one."""
        return self.compose(TraverseMerge(*traversals))

    def each(self) -> Traversal:
        """Every entry of a focused list, tuple or dict."""
        return self.compose(TraverseEach())

    def tree(self) -> Traversal:
        """Every pytree leaf of a focused value."""
        return self.compose(TraverseTree())

    def filter(self, fn: Callable[[Any], bool]) -> Traversal:
        """Only the focused parts for which `fn` is true."""
        return self.compose(TraverseFilter(fn))

    def __getattr__(self, attr: str) -> Traversal:
        if attr.startswith("__"):
            raise AttributeError(attr)
        return self.compose(TraverseAttr(attr))

    def __getitem__(self, key: Any) -> Traversal:
        return self.compose(TraverseItem(key))


class TraverseId(Traversal):
    """The identity traversal: focuses on the whole input."""

    def update(self, fn, inputs):
        return fn(inputs)

    def iterate(self, inputs):
        yield inputs


with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    t_identity = TraverseId()


class TraverseMerge(Traversal):
    """The union of several traversals (updates applied in order)."""

    def __init__(self, *traversals: Traversal):
        self._traversals = traversals

    def update(self, fn, inputs):
        for traversal in self._traversals:
            inputs = traversal.update(fn, inputs)
        return inputs

    def iterate(self, inputs):
        for traversal in self._traversals:
            yield from traversal.iterate(inputs)


class TraverseCompose(Traversal):
    """`y` within the parts `x` focuses on."""

    def __init__(self, x: Traversal, y: Traversal):
        self._x = x
        self._y = y

    def update(self, fn, inputs):
        return self._x.update(lambda x: self._y.update(fn, x), inputs)

    def iterate(self, inputs):
        for x in self._x.iterate(inputs):
            yield from self._y.iterate(x)


class TraverseFilter(Traversal):
    """Focuses on the input only when `fn(input)` is true."""

    def __init__(self, fn: Callable[[Any], bool]):
        self._fn = fn

    def update(self, fn, inputs):
        return fn(inputs) if self._fn(inputs) else inputs

    def iterate(self, inputs):
        if self._fn(inputs):
            yield inputs


def _is_namedtuple(t: type) -> bool:
    return issubclass(t, tuple) and hasattr(t, "_fields")


class TraverseAttr(Traversal):
    """Focuses on an attribute (namedtuples and dataclasses are rebuilt, other objects
    copied)."""

    def __init__(self, attr: str):
        self._attr = attr

    def update(self, fn, inputs):
        return _with_attribute(inputs, self._attr, fn(getattr(inputs, self._attr)))

    def iterate(self, inputs):
        yield getattr(inputs, self._attr)


def _with_attribute(obj: Any, name: str, value: Any) -> Any:
    """A copy of `obj` whose attribute `name` is `value`: namedtuples and dataclasses are
    rebuilt through their constructors, other objects shallow-copied and assigned."""
    if _is_namedtuple(type(obj)):
        return obj._replace(**{name: value})
    if dataclasses.is_dataclass(obj):
        return dataclasses.replace(obj, **{name: value})
    twin = copy.copy(obj)
    setattr(twin, name, value)
    return twin


class TraverseItem(Traversal):
    """Focuses on an item or a slice (`inputs[key]`)."""

    def __init__(self, key: Any):
        self._key = key

    def update(self, fn, inputs):
        if not isinstance(inputs, tuple):
            mutable_copy = copy.copy(inputs)
            mutable_copy[self._key] = fn(mutable_copy[self._key])
            return mutable_copy
        # Tuples are immutable: rebuild one with the focused positions replaced.
        key = self._key
        span = key if isinstance(key, slice) else slice(key, key + 1)
        focused = set(range(*span.indices(len(inputs))))
        entries = [fn(x) if i in focused else x for i, x in enumerate(inputs)]
        kind = type(inputs)
        return kind(*entries) if _is_namedtuple(kind) else kind(entries)

    def iterate(self, inputs):
        if isinstance(self._key, slice):
            yield from inputs[self._key]
        else:
            yield inputs[self._key]


class TraverseEach(Traversal):
    """Focuses on every entry of a list, tuple or dict."""

    def update(self, fn, inputs):
        kind = type(inputs)
        # Exact types only: a subclass (a namedtuple, a custom dict) may not rebuild from a
        # sequence of entries.
        if kind is not dict and kind is not list and kind is not tuple:
            raise TraversalError(
                f"Only the entries of a list or tuple can be traversed, got {kind.__name__}; "
                "use .tree() for the leaves of any pytree."
            )
        if kind is dict:
            keys = list(inputs)
            return dict(zip(keys, [fn(inputs[k]) for k in keys]))
        return kind([fn(entry) for entry in inputs])

    def iterate(self, inputs):
        if isinstance(inputs, dict):
            yield from inputs.values()
        else:
            yield from inputs


class TraverseTree(Traversal):
    """Focuses on every pytree leaf."""

    def update(self, fn, inputs):
        return tree_util.tree_map(fn, inputs)

    def iterate(self, inputs):
        yield from tree_util.tree_leaves(inputs)


def _params_dict(inputs: Any) -> dict:
    if isinstance(inputs, (dict, FrozenDict)):
        return unfreeze(inputs)
    raise TraversalError(
        f"Can only traverse a flax Model instance or a nested dict, not {type(inputs)}; pass "
        "the parameter dict (variables['params'])."
    )


class ModelParamTraversal(Traversal):
    """Focuses on the leaves of a parameter dict whose path passes a filter.

    Example::

        traversal = ModelParamTraversal(lambda path, _: "bias" in path)
        params = traversal.update(lambda x: x * 0, params)  # every bias set to zero
    """

    def __init__(self, filter_fn: Callable[[str, Any], bool]):
        """Args:
        filter_fn: `filter_fn(path, value)`, with paths like ``'/Dense_0/kernel'``.
        """
        self._filter_fn = filter_fn

    def iterate(self, inputs):
        flat = flatten_dict(_params_dict(inputs))
        for key, value in sorted(flat.items(), key=lambda kv: kv[0]):
            if self._filter_fn("/" + "/".join(key), value):
                yield value

    def update(self, fn, inputs):
        flat = flatten_dict(_params_dict(inputs), keep_empty_nodes=True)
        new = {}
        for key, value in sorted(flat.items(), key=lambda kv: kv[0]):
            if value is not empty_node and self._filter_fn("/" + "/".join(key), value):
                value = fn(value)
            new[key] = value
        params = unflatten_dict(new)
        return FrozenDict(params) if isinstance(inputs, FrozenDict) else params
