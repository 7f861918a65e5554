"""`PyTreeDef`, the structure of a pytree, and JAX's `treedef_*` helpers.

A `PyTreeDef` wraps the root node tuple (`core/tree_util/nodes.py`): equal and hashed as the
tuple (falling back to a structural hash when some aux data is unhashable), its leaf and
node counts computed once, and able to rebuild trees (`unflatten`, `builder_source`), flatten
a tree down to it (`flatten_up_to`, `core/tree_util/prefix.py`) and compose.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from core.tree_util.errors import PyTreeLeafCountError, PyTreeStructureError
from core.tree_util.nodes import (
    _LEAF,
    _builder_source,
    _compose,
    _count,
    _node_repr,
    _structural_hash,
    _unflatten,
)
from core.tree_util.prefix import _flatten_up_to, _up_to_message

_MISSING = object()  # the end of the leaves `walk` folds


class PyTreeDef:
    """The structure of a pytree: hashable, comparable, and able to rebuild trees from leaves."""

    __slots__ = ("_node", "_num_leaves", "_num_nodes", "_hash")

    def __init__(self, node, num_leaves: int | None = None):
        self._node = node
        self._num_leaves = num_leaves
        self._num_nodes = None
        self._hash = None

    @property
    def num_leaves(self) -> int:
        """Number of leaves."""
        if self._num_leaves is None:
            self._num_leaves, self._num_nodes = _count(self._node)
        return self._num_leaves

    @property
    def num_nodes(self) -> int:
        """Number of nodes, counting leaves and ``None`` nodes."""
        if self._num_nodes is None:
            self._num_leaves, self._num_nodes = _count(self._node)
        return self._num_nodes

    def children(self) -> list[PyTreeDef]:
        """The treedefs of the root's children (empty for a leaf)."""
        if self._node is _LEAF:
            return []
        return [PyTreeDef(k) for k in self._node[2]]

    def node_data(self) -> tuple[type, Any] | None:
        """``(nodetype, aux_data)`` of the root, or None for a leaf."""
        if self._node is _LEAF:
            return None
        t, aux, _ = self._node
        return (t, list(aux)) if t is dict else (t, aux)

    def walk(self, f_node: Any, f_leaf: Any, leaves: Iterable[Any]) -> Any:
        """Folds the tree bottom-up, as JAX's `PyTreeDef.walk`.

        Args:
          f_node: `f_node(children_results, node_data)` for each node (`node_data` is the
            aux data of `node_data()`: a dict's keys, a namedtuple's class, None for None).
          f_leaf: `f_leaf(leaf)` for each leaf (None: the leaves as they are).
          leaves: one per leaf, in flatten order.

        Returns:
          The root's result.

        Raises:
          ValueError: too few or too many leaves.
        """
        it = iter(leaves)

        def go(node: Any) -> Any:
            if node is _LEAF:
                leaf = next(it, _MISSING)
                if leaf is _MISSING:
                    raise ValueError("Too few leaves for PyTreeDef")
                return leaf if f_leaf is None else f_leaf(leaf)
            results = tuple(go(child) for child in node[2])
            t, data = PyTreeDef(node).node_data()
            if data is None and t is not tuple and issubclass(t, tuple):
                data = t  # JAX's walk gives a namedtuple's class
            return f_node(results, data)

        out = go(self._node)
        if next(it, _MISSING) is not _MISSING:
            raise ValueError("Too many leaves for PyTreeDef")
        return out

    def unflatten(self, leaves: Iterable[Any]) -> Any:
        """Builds the pytree with this structure from ``leaves``.

        Args:
          leaves: an iterable of exactly ``num_leaves`` leaves, in flatten order.

        Returns:
          The rebuilt pytree.
        """
        leaves = leaves if isinstance(leaves, list) else list(leaves)
        n = self.num_leaves
        if len(leaves) < n:
            raise PyTreeLeafCountError(
                f"Too few leaves for PyTreeDef; expected {n}, got {len(leaves)}\n"
                f"The structure is {self}."
            )
        if len(leaves) > n:  # JAX's first line, then the count and the structure
            raise PyTreeLeafCountError(
                f"Too many leaves for PyTreeDef; expected {n}.\n"
                f"Got {len(leaves)}; the structure is {self}."
            )
        return _unflatten(self._node, iter(leaves))

    def builder_source(self, leaf_exprs: list[str], namespace: dict) -> str:
        """A Python expression that builds a tree of this structure from `leaf_exprs`.

        Code generators (jit's cache-hit path) use it to build output trees with no loop over
        the structure. Names the expression needs are added to `namespace`.
        """
        return _builder_source(self._node, iter(leaf_exprs), namespace)

    def flatten_up_to(self, tree: Any) -> list[Any]:
        """Flattens ``tree`` down to this structure: each leaf here takes a whole subtree.

        Args:
          tree: a pytree that has this treedef as a prefix of its structure.

        Returns:
          The list of ``num_leaves`` subtrees of ``tree``.
        """
        out: list[Any] = []
        fail = _flatten_up_to(self._node, tree, out, ())
        if fail is not None:
            raise PyTreeStructureError(_up_to_message(*fail[1:]))
        return out

    def compose(self, inner: PyTreeDef) -> PyTreeDef:
        """This structure with each leaf replaced by ``inner`` (a tree of trees).

        Args:
          inner: the treedef put in place of every leaf.

        Returns:
          The composed treedef: ``num_leaves`` is ``self.num_leaves * inner.num_leaves``.
        """
        if not isinstance(inner, PyTreeDef):
            raise TypeError(
                f"compose(): incompatible function arguments; expected a PyTreeDef, got {inner!r}."
            )
        return PyTreeDef(_compose(self._node, inner._node))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PyTreeDef):
            return NotImplemented
        try:
            return bool(self._node == other._node)
        except Exception as e:  # JAX's: any error of an aux data's `==` (an array there)
            raise ValueError(
                "Exception raised while checking equality of metadata fields of pytree. Make "
                "sure that metadata fields are hashable and have simple equality semantics. "
                "(Note: arrays cannot be passed as metadata fields!)"
            ) from e

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            try:
                h = hash(self._node)
            except TypeError:
                h = _structural_hash(self._node)
            self._hash = h
        return h

    def __repr__(self) -> str:
        return f"PyTreeDef({_node_repr(self._node)})"


def treedef_children(treedef: PyTreeDef) -> list[PyTreeDef]:
    """Returns the treedefs of the root's children."""
    return treedef.children()


def treedef_is_leaf(treedef: PyTreeDef) -> bool:
    """Returns True if ``treedef`` has no nodes below its root (a leaf, ``None``, ``()``...)."""
    return treedef.num_nodes == 1


def treedef_tuple(treedefs: Iterable[PyTreeDef]) -> PyTreeDef:
    """Returns the treedef of a tuple whose children have the given treedefs."""
    return PyTreeDef((tuple, None, tuple(td._node for td in treedefs)))
