"""The functions over whole trees: `tree_map` (several trees, each a prefix-matched copy of the
first), `tree_map_with_path`, `tree_reduce`, `tree_reduce_associative`, `tree_all`,
`tree_broadcast` and `tree_transpose`, all written on flattening and `PyTreeDef`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from core.tree_util.flatten import tree_flatten, tree_flatten_with_path, tree_leaves, tree_structure
from core.tree_util.prefix import _flatten_up_to, _mismatch, prefix_errors
from core.tree_util.treedef import PyTreeDef


def _flatten_rest(treedef: PyTreeDef, rest: tuple, name: str) -> list[list[Any]]:
    all_rest = []
    for r in rest:
        out: list[Any] = []
        fail = _flatten_up_to(treedef._node, r, out, ())
        if fail is not None:
            raise _mismatch(*fail)(name) from None
        all_rest.append(out)
    return all_rest


def flatten_prefix(prefix: Any, full: Any, name: str) -> list[Any]:
    """The subtrees of `full` at the leaves of `prefix` (a None in `prefix` is a leaf), as
    `in_axes`-style prefixes are matched.

    Args:
      prefix: the prefix tree.
      full: the tree it must be a prefix of.
      name: what `prefix` is, for the message (e.g. "pmap in_axes").

    Returns:
      One subtree of `full` per leaf of `prefix`, in leaf order.

    Raises:
      PyTreeStructureError: JAX's "pytree structure error" naming the key path where
        `full` does not match.
    """
    treedef = tree_structure(prefix, is_leaf=lambda x: x is None)
    return _flatten_rest(treedef, (full,), name)[0]


class PytreeLeaf:
    """What stands for each leaf of a full tree in a prefix-mismatch message (JAX's
    `api_util.PytreeLeaf`): the leaves' own types are not what is wrong."""

    def __repr__(self) -> str:
        return "pytree leaf"


def mismatch_details(prefix: PyTreeDef, full: Any, name: str) -> str:
    """JAX's account of a prefix that does not match: ``Mismatch details (2 found):`` and each
    mismatch's message, the way `jax.vmap` and `jax.device_put` end their errors.

    Args:
      prefix: the prefix tree's structure.
      full: the tree it should be a prefix of.
      name: what the prefix is, e.g. ``vmap in_axes``.

    Returns:
      The text, starting with a newline.
    """
    treedef = tree_structure(full)
    dummy = treedef.unflatten([PytreeLeaf()] * treedef.num_leaves)
    errors = prefix_errors(prefix._node, dummy)
    details = "\n  ".join(e(name).args[0] for e in errors)
    return f"\n  Mismatch details ({len(errors)} found):\n  {details}"


def tree_map(
    f: Callable[..., Any],
    tree: Any,
    *rest: Any,
    is_leaf: Callable[[Any], bool] | None = None,
) -> Any:
    """Applies ``f`` to the leaves of ``tree`` (and the matching subtrees of ``rest``).

    Args:
      f: function of ``1 + len(rest)`` arguments.
      tree: the pytree whose structure the result has.
      *rest: pytrees with the structure of ``tree``, or with ``tree`` as a prefix (then ``f``
        receives whole subtrees of them).
      is_leaf: optional predicate marking subtrees of ``tree`` as leaves.

    Returns:
      A pytree with the structure of ``tree`` holding ``f(leaf, *rest_leaves)``.
    """
    leaves, treedef = tree_flatten(tree, is_leaf)
    if not rest:
        return treedef.unflatten([f(x) for x in leaves])
    all_rest = _flatten_rest(treedef, rest, "tree_map tree")
    return treedef.unflatten([f(*xs) for xs in zip(leaves, *all_rest)])


def tree_map_with_path(
    f: Callable[..., Any],
    tree: Any,
    *rest: Any,
    is_leaf: Callable[..., bool] | None = None,
    is_leaf_takes_path: bool = False,
) -> Any:
    """Like `tree_map`, but ``f`` receives the key path first: ``f(path, leaf, *rest)``.

    Args:
      f: function of ``2 + len(rest)`` arguments.
      tree: the pytree whose structure the result has.
      *rest: pytrees with ``tree``'s structure or ``tree`` as a prefix.
      is_leaf: optional predicate marking subtrees of ``tree`` as leaves.
      is_leaf_takes_path: whether ``is_leaf`` takes ``(path, x)``.

    Returns:
      A pytree with the structure of ``tree``.
    """
    path_leaves, treedef = tree_flatten_with_path(tree, is_leaf, is_leaf_takes_path)
    all_rest = _flatten_rest(treedef, rest, "tree_map_with_path tree")
    return treedef.unflatten(
        [f(p, x, *xs) for (p, x), *xs in zip(path_leaves, *all_rest)]
        if rest
        else [f(p, x) for p, x in path_leaves]
    )


class _Unspecified:
    def __repr__(self) -> str:
        return "<unspecified>"


_UNSPECIFIED = _Unspecified()


def tree_reduce(
    function: Callable[[Any, Any], Any],
    tree: Any,
    initializer: Any = _UNSPECIFIED,
    is_leaf: Callable[[Any], bool] | None = None,
) -> Any:
    """Reduces the leaves of ``tree`` with ``function`` (``functools.reduce`` semantics).

    Args:
      function: binary function.
      tree: the pytree.
      initializer: optional start value (required when ``tree`` has no leaves).
      is_leaf: optional predicate marking subtrees as leaves.

    Returns:
      The reduced value.
    """
    leaves = tree_leaves(tree, is_leaf)
    if initializer is _UNSPECIFIED:
        return functools.reduce(function, leaves)
    return functools.reduce(function, leaves, initializer)


def tree_reduce_associative(
    operation: Callable[[Any, Any], Any],
    tree: Any,
    *,
    identity: Any = _UNSPECIFIED,
    is_leaf: Callable[[Any], bool] | None = None,
) -> Any:
    """Reduces the leaves of ``tree`` with an associative ``operation`` as a balanced tree.

    Args:
      operation: associative binary function.
      tree: the pytree.
      identity: returned when ``tree`` has no leaves (required then).
      is_leaf: optional predicate marking subtrees as leaves.

    Returns:
      The reduced value.
    """

    def reduce(seq):
        if len(seq) == 1:
            return seq[0]
        half = len(seq) // 2
        return operation(reduce(seq[:half]), reduce(seq[half:]))

    leaves = tree_leaves(tree, is_leaf)
    if not leaves:
        if identity is _UNSPECIFIED:
            raise TypeError("Must specify identity for parallel reduction of empty sequence.")
        return identity
    return reduce(leaves)


def tree_all(tree: Any, *, is_leaf: Callable[[Any], bool] | None = None) -> bool:
    """Returns True if every leaf of ``tree`` is truthy (True for no leaves)."""
    return all(tree_leaves(tree, is_leaf))


def tree_broadcast(
    prefix_tree: Any, full_tree: Any, is_leaf: Callable[[Any], bool] | None = None
) -> Any:
    """Broadcasts the leaves of ``prefix_tree`` over the matching subtrees of ``full_tree``.

    Args:
      prefix_tree: a pytree that is a prefix of ``full_tree``.
      full_tree: the pytree whose structure the result has.
      is_leaf: optional predicate marking subtrees of ``prefix_tree`` as leaves.

    Returns:
      A pytree shaped like ``full_tree`` whose leaves are the prefix leaves above them.
    """
    leaves, treedef = tree_flatten(prefix_tree, is_leaf)
    subtrees = _flatten_rest(treedef, (full_tree,), "broadcast_prefix prefix_tree")[0]
    return treedef.unflatten([tree_map(lambda _, x=x: x, s) for x, s in zip(leaves, subtrees)])


def tree_transpose(
    outer_treedef: PyTreeDef, inner_treedef: PyTreeDef | None, pytree_to_transpose: Any
) -> Any:
    """Turns an outer-of-inner pytree into an inner-of-outer pytree.

    Args:
      outer_treedef: the structure of the outer level.
      inner_treedef: the structure of the inner level; inferred from the first outer
        leaf when None.
      pytree_to_transpose: a pytree with structure ``outer`` composed with ``inner``.

    Returns:
      The transposed pytree.
    """
    flat, treedef = tree_flatten(pytree_to_transpose)
    if inner_treedef is None:
        inner_treedef = tree_structure(outer_treedef.flatten_up_to(pytree_to_transpose)[0])
    inner_size, outer_size = inner_treedef.num_leaves, outer_treedef.num_leaves
    if treedef.num_leaves != inner_size * outer_size:
        expected = tree_structure(
            outer_treedef.unflatten([inner_treedef.unflatten([0] * inner_size)] * outer_size)
        )
        raise TypeError(f"Mismatch\n{treedef}\n != \n{expected}")
    rows = [flat[i * inner_size : (i + 1) * inner_size] for i in range(outer_size)]
    return inner_treedef.unflatten([outer_treedef.unflatten(col) for col in zip(*rows)])
