"""``Variable``: a named handle on one entry of a scope's collection.

``self.variable('batch_stats', 'mean', jnp.zeros, (n,))`` returns a ``Variable``; reading
``.value`` looks the entry up in the scope, assigning ``.value`` writes it back (and raises
:class:`~nn.errors.ImmutableCollectionError` when the collection is not mutable in this call).
"""

from __future__ import annotations

from typing import Any


class Variable:
    """A reference to variable ``name`` of collection ``collection`` in ``scope``.

    Args:
      scope: the :class:`~nn.scope.Scope` holding the variable.
      collection: the collection name, e.g. ``'batch_stats'``.
      name: the variable name.
    """

    def __init__(self, scope: Any, collection: str, name: str):
        self.scope = scope
        self.collection = collection
        self.name = name

    @property
    def value(self) -> Any:
        """The current value."""
        return self.scope.get_variable(self.collection, self.name)

    @value.setter
    def value(self, value: Any) -> None:
        self.scope.put_variable(self.collection, self.name, value)

    def is_mutable(self) -> bool:
        """Whether this variable's collection may be written in the current call."""
        return self.scope.is_mutable_collection(self.collection)

    def __repr__(self) -> str:
        return f"Variable({self.collection}/{self.name}={self.value!r})"
