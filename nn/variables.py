"""``Variable``: a named handle on one entry of a scope's collection.

``self.variable('batch_stats', 'mean', jnp.zeros, (n,))`` returns a ``Variable``; reading
``.value`` looks the entry up in the scope, assigning ``.value`` writes it back (and raises
:class:`~nn.errors.ImmutableCollectionError` when the collection is not mutable in this call).
"""

from __future__ import annotations

from typing import Any

from core import tree_util
from nn import meta


class Variable:
    """A reference to variable ``name`` of collection ``collection`` in ``scope``.

    Args:
      scope: the :class:`~nn.scope.Scope` holding the variable.
      collection: the collection name, e.g. ``'batch_stats'``.
      name: the variable name.
      unbox: hide metadata boxes (Flax's ``unbox``, what ``self.variable`` gives): ``.value``
        reads the unboxed value, and a value of the same structure assigned goes back into
        the current boxes.
    """

    def __init__(self, scope: Any, collection: str, name: str, unbox: bool = False):
        self.scope = scope
        self.collection = collection
        self.name = name
        self.unbox = unbox

    @property
    def value(self) -> Any:
        """The current value."""
        value = self.scope.get_variable(self.collection, self.name)
        return meta.unbox(value) if self.unbox else value

    @value.setter
    def value(self, value: Any) -> None:
        if self.unbox:
            current = self.scope.get_variable(self.collection, self.name)
            boxes = tree_util.tree_leaves(current, is_leaf=meta.is_axis_metadata)
            if any(map(meta.is_axis_metadata, boxes)) and tree_util.tree_structure(
                current, is_leaf=meta.is_axis_metadata
            ) == tree_util.tree_structure(value, is_leaf=meta.is_axis_metadata):
                value = meta.replace_boxed(current, value)
        self.scope.put_variable(self.collection, self.name, value)

    def is_mutable(self) -> bool:
        """Whether this variable's collection may be written in the current call."""
        return self.scope.is_mutable_collection(self.collection)

    def __repr__(self) -> str:
        return f"Variable({self.collection}/{self.name}={self.value!r})"
