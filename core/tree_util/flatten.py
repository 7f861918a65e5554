"""Flattening: a pytree to its leaves and its `PyTreeDef`, with or without key paths.

`tree_flatten` has a fast path for the built-in containers (jit flattens its arguments on
every call): a per-type registration lookup, a dict's memoized key order, and children that
are all leaves appended in one step; `is_leaf` takes a generic walk. Key paths
(`tree_flatten_with_path`) take a slower generic walk over the registrations' keyed flatten.
`PyTreeRegistry` is JAX's `default_registry` object over these functions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from core.tree_util.keys import KeyEntry, KeyPath
from core.tree_util.nodes import _LEAF, _NONE_NODE
from core.tree_util.registry import (
    _DICT,
    _LEAF_KIND,
    _LIST,
    _NONE,
    _TUPLE,
    _classify,
    _dict_order,
    _key_children,
    _kind_get,
    _registry,
    is_tree_node,
    register_dataclass,
    register_pytree_node,
    register_pytree_with_keys,
)
from core.tree_util.treedef import PyTreeDef


def _flatten(x, leaves):
    """Fast flatten without is_leaf: appends leaves, returns the node tuple."""
    t = type(x)
    reg = _kind_get(t) or _classify(t)
    if reg is _LEAF_KIND:
        leaves.append(x)
        return _LEAF
    if reg is _DICT:
        keys, getter = _dict_order(x)
        vals = getter(x)
        # Common case first: all children are leaves of already-classified types.
        for leaf_type in set(map(type, vals)):
            if _kind_get(leaf_type) is not _LEAF_KIND:
                return (dict, keys, _flatten_children(vals, leaves))
        leaves.extend(vals)
        return (dict, keys, (_LEAF,) * len(vals))
    if reg is _TUPLE or reg is _LIST:
        for v in x:
            if _kind_get(type(v)) is not _LEAF_KIND:
                return (t, None, _flatten_children(x, leaves))
        leaves.extend(x)
        return (t, None, (_LEAF,) * len(x))
    if reg is _NONE:
        return _NONE_NODE
    out = reg.flatten(x)
    try:
        children, aux = out
    except (TypeError, ValueError):
        raise _bad_flatten(out) from None
    if type(children) is not tuple and not hasattr(children, "__iter__"):
        raise _bad_flatten(out)
    return (t, aux, _flatten_children(children, leaves))


def _bad_flatten(out: Any) -> ValueError:
    """JAX's ValueError for a custom node's flatten function that did not return a
    `(children, aux_data)` pair with iterable children."""
    try:
        _, aux = out
        what = "tuple where 'children' is iterable"
    except (TypeError, ValueError):
        what = "tuple"
    return ValueError(
        "The to_iterable function for a custom PyTree node should return a "
        f"(children, aux_data) {what}, got {out!r}"
    )


def _flatten_children(children, leaves) -> tuple:
    kids = []
    for c in children:
        if _kind_get(type(c)) is _LEAF_KIND:  # inline the common case: no call per leaf
            leaves.append(c)
            kids.append(_LEAF)
        else:
            kids.append(_flatten(c, leaves))
    return tuple(kids)


def _leaves(x, leaves) -> None:
    """`_flatten` without the structure: appends the leaves only (`tree_leaves`: building no
    node tuples takes half the time on a train step's output of params and Adam state)."""
    t = type(x)
    reg = _kind_get(t) or _classify(t)
    if reg is _LEAF_KIND:
        leaves.append(x)
        return
    if reg is _DICT:
        children = _dict_order(x)[1](x)
    elif reg is _TUPLE or reg is _LIST:
        children = x
    elif reg is _NONE:
        return
    else:
        children = reg.flatten(x)[0]
    for c in children:
        if _kind_get(type(c)) is _LEAF_KIND:
            leaves.append(c)
        else:
            _leaves(c, leaves)


def _flatten_is_leaf(x, leaves, is_leaf):
    if is_leaf(x):
        leaves.append(x)
        return _LEAF
    t = type(x)
    reg = _kind_get(t) or _classify(t)
    if reg is _LEAF_KIND:
        leaves.append(x)
        return _LEAF
    if reg is _NONE:
        return _NONE_NODE
    out = reg.flatten(x)
    try:
        children, aux = out
    except (TypeError, ValueError):
        raise _bad_flatten(out) from None
    if type(children) is not tuple and not hasattr(children, "__iter__"):
        raise _bad_flatten(out)
    return (t, aux, tuple([_flatten_is_leaf(c, leaves, is_leaf) for c in children]))


def tree_flatten(
    tree: Any, is_leaf: Callable[[Any], bool] | None = None
) -> tuple[list[Any], PyTreeDef]:
    """Flattens a pytree into its leaves and its structure.

    Args:
      tree: the pytree.
      is_leaf: optional predicate; a subtree for which it returns True is a leaf.

    Returns:
      ``(leaves, treedef)``; ``treedef.unflatten(leaves)`` rebuilds ``tree``.
    """
    leaves: list[Any] = []
    if is_leaf is None:
        node = _flatten(tree, leaves)
    else:
        node = _flatten_is_leaf(tree, leaves, is_leaf)
    return leaves, PyTreeDef(node, len(leaves))


def tree_unflatten(treedef: PyTreeDef, leaves: Iterable[Any]) -> Any:
    """Rebuilds a pytree from its structure and leaves (see `PyTreeDef.unflatten`)."""
    return treedef.unflatten(leaves)


def tree_leaves(tree: Any, is_leaf: Callable[[Any], bool] | None = None) -> list[Any]:
    """Returns the list of leaves of ``tree`` in flatten order."""
    if is_leaf is not None:
        return tree_flatten(tree, is_leaf)[0]
    leaves: list[Any] = []
    _leaves(tree, leaves)
    return leaves


def tree_structure(tree: Any, is_leaf: Callable[[Any], bool] | None = None) -> PyTreeDef:
    """Returns the `PyTreeDef` of ``tree``."""
    return tree_flatten(tree, is_leaf)[1]


def flatten_one_level(tree: Any) -> tuple[Iterable[Any], Any]:
    """Returns ``(children, aux_data)`` of the root node of ``tree``.

    Raises:
      ValueError: if ``tree`` is a leaf.
    """
    reg = _kind_get(type(tree)) or _classify(type(tree))
    if reg is _LEAF_KIND:
        raise ValueError(f"can't tree-flatten type: {type(tree)}")
    children, aux = reg.flatten(tree)
    # as JAX's registry gives them: a tuple for tuples, dicts and None; a list for the other
    # built-in nodes (lists, namedtuples, OrderedDicts, defaultdicts); a custom node's
    # children as its flatten function returns them; a namedtuple's aux data is its class
    if reg in (_TUPLE, _DICT, _NONE):
        return tuple(children), aux
    if type(tree) not in _registry:
        return list(children), type(tree)
    if reg is _LIST or isinstance(tree, dict):
        return list(children), aux
    return children, aux


def flatten_one_level_with_keys(tree: Any) -> tuple[list[tuple[KeyEntry, Any]], Any]:
    """Returns ``((key, child), ...)`` (a list for nodes other than tuples, lists, dicts and
    None) and the aux data of the root node of ``tree``.

    Raises:
      ValueError: if ``tree`` is a leaf.
    """
    reg = _kind_get(type(tree)) or _classify(type(tree))
    if reg is _LEAF_KIND:
        raise ValueError(f"can't tree-flatten type: {type(tree)}")
    keyed, aux = _key_children(reg, tree)
    # as JAX's registry gives them: a tuple for tuples, lists, dicts and None, else a list; a
    # namedtuple's aux data is its class
    if reg in (_TUPLE, _LIST, _DICT, _NONE):
        return tuple(keyed), aux
    return list(keyed), type(tree) if type(tree) not in _registry else aux


def _flatten_with_path(x, path, out, is_leaf, takes_path):
    if is_leaf is not None and (is_leaf(path, x) if takes_path else is_leaf(x)):
        out.append((path, x))
        return _LEAF
    t = type(x)
    reg = _kind_get(t) or _classify(t)
    if reg is _LEAF_KIND:
        out.append((path, x))
        return _LEAF
    keyed, aux = _key_children(reg, x)
    kids = tuple([_flatten_with_path(c, (*path, k), out, is_leaf, takes_path) for k, c in keyed])
    return (t, aux, kids)


def tree_flatten_with_path(
    tree: Any,
    is_leaf: Callable[..., bool] | None = None,
    is_leaf_takes_path: bool = False,
) -> tuple[list[tuple[KeyPath, Any]], PyTreeDef]:
    """Flattens ``tree`` into ``[(key_path, leaf), ...]`` and its structure.

    Args:
      tree: the pytree.
      is_leaf: optional predicate; ``is_leaf(x)``, or ``is_leaf(path, x)`` when
        ``is_leaf_takes_path`` is True.
      is_leaf_takes_path: whether ``is_leaf`` takes the key path as first argument.

    Returns:
      ``(path_leaf_pairs, treedef)``.
    """
    out: list[tuple[KeyPath, Any]] = []
    node = _flatten_with_path(tree, (), out, is_leaf, is_leaf_takes_path)
    return out, PyTreeDef(node, len(out))


def tree_leaves_with_path(
    tree: Any, is_leaf: Callable[..., bool] | None = None, is_leaf_takes_path: bool = False
) -> list[tuple[KeyPath, Any]]:
    """Returns ``[(key_path, leaf), ...]`` (see `tree_flatten_with_path`)."""
    return tree_flatten_with_path(tree, is_leaf, is_leaf_takes_path)[0]


def all_leaves(iterable: Iterable[Any], is_leaf: Callable[[Any], bool] | None = None) -> bool:
    """Returns True if every element of ``iterable`` is a leaf (``None`` is not a leaf)."""
    if is_leaf is None:
        return all((_kind_get(type(x)) or _classify(type(x))) is _LEAF_KIND for x in iterable)
    items = list(iterable)
    leaves = tree_leaves(items, is_leaf)  # JAX's: compared by identity, not `==`
    return len(leaves) == len(items) and all(a is b for a, b in zip(items, leaves))


class PyTreeRegistry:
    """The registry of pytree node types, as `jax.tree_util.default_registry` (JAX's
    `PyTreeRegistry` methods over numbax's one process-wide registry)."""

    def flatten(self, tree: Any, leaf_predicate: Callable[[Any], bool] | None = None) -> tuple:
        """`tree_flatten(tree, is_leaf=leaf_predicate)`."""
        return tree_flatten(tree, is_leaf=leaf_predicate)

    def flatten_with_path(
        self, tree: Any, leaf_predicate: Callable[[Any, Any], bool] | None = None
    ) -> tuple:
        """`tree_flatten_with_path`, the predicate seeing `(path, node)`."""
        return tree_flatten_with_path(tree, leaf_predicate, is_leaf_takes_path=True)

    def flatten_one_level(self, tree: Any) -> tuple | None:
        """`(children, aux_data)` of the root node, None for a leaf."""
        return flatten_one_level(tree) if is_tree_node(type(tree)) else None

    def flatten_one_level_with_keys(self, tree: Any) -> tuple | None:
        """`((key, child), ...), aux_data` of the root node, None for a leaf."""
        return flatten_one_level_with_keys(tree) if is_tree_node(type(tree)) else None

    def is_node(self, type: type) -> bool:  # noqa: A002  (JAX's name)
        """Whether `type` is registered as a pytree node."""
        return is_tree_node(type)

    def register_node(
        self,
        type: type,  # noqa: A002  (JAX's name)
        to_iterable: Callable,
        from_iterable: Callable,
        to_iterable_with_keys: Callable | None = None,
    ) -> None:
        """`register_pytree_node` (with keys when `to_iterable_with_keys` is given)."""
        if to_iterable_with_keys is None:
            register_pytree_node(type, to_iterable, from_iterable)
        else:
            register_pytree_with_keys(type, to_iterable_with_keys, from_iterable, to_iterable)

    def register_dataclass_node(
        self,
        type: type,  # noqa: A002  (JAX's name)
        data_fields: Sequence[str],
        meta_fields: Sequence[str],
        /,
    ) -> None:
        """`register_dataclass(type, data_fields, meta_fields)`."""
        register_dataclass(type, data_fields, meta_fields)


default_registry = PyTreeRegistry()
