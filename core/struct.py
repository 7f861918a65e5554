"""Frozen dataclasses that are pytrees (the `flax.struct` analogue).

``@dataclass`` makes a frozen dataclass, registers it with `core.tree_util.register_dataclass`
(fields are children, key paths are ``.name``) and adds ``.replace(**updates)``. A field
declared with ``field(pytree_node=False)`` is static: it lives in the treedef (so it must be
hashable to be used as a ``jit`` argument) and transformations never see it. `PyTreeNode`
is the base-class form: every subclass becomes such a dataclass.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar, overload

from core.tree_util import register_dataclass

try:
    from typing import dataclass_transform
except ImportError:  # Python 3.10: the decorator only informs type checkers

    def dataclass_transform(**_: Any) -> Callable[[_T], _T]:
        return lambda c: c


__all__ = ["PyTreeNode", "dataclass", "field"]

_T = TypeVar("_T")


def field(pytree_node: bool = True, *, metadata: dict | None = None, **kwargs: Any) -> Any:
    """A dataclass field that says whether it is a pytree child.

    Args:
      pytree_node: True for a child (transformed, e.g. parameters); False for static
        metadata kept in the treedef (e.g. functions, sizes, flags).
      metadata: extra field metadata.
      **kwargs: passed to `dataclasses.field` (``default``, ``default_factory``, ...).

    Returns:
      A `dataclasses.Field`.
    """
    return dataclasses.field(metadata={**(metadata or {}), "pytree_node": pytree_node}, **kwargs)


def _replace(self, **updates):
    """Returns a copy of this object with the given fields replaced."""
    return dataclasses.replace(self, **updates)


@overload
def dataclass(clz: _T, **kwargs: Any) -> _T: ...


@overload
def dataclass(clz: None = None, **kwargs: Any) -> Callable[[_T], _T]: ...


@dataclass_transform(field_specifiers=(field,))
def dataclass(clz: _T | None = None, **kwargs: Any) -> _T | Callable[[_T], _T]:
    """Turns a class into a frozen dataclass registered as a pytree node.

    Args:
      clz: the class (omit to use ``@dataclass(**kwargs)``).
      **kwargs: passed to `dataclasses.dataclass`; ``frozen`` defaults to True.

    Returns:
      The dataclass, with a ``replace(**updates)`` method.
    """
    if clz is None:
        return lambda c: dataclass(c, **kwargs)
    if "_flax_dataclass" in clz.__dict__:
        return clz
    kwargs.setdefault("frozen", True)
    data_clz = dataclasses.dataclass(**kwargs)(clz)
    data_fields, meta_fields = [], []
    for f in dataclasses.fields(data_clz):
        (data_fields if f.metadata.get("pytree_node", True) else meta_fields).append(f.name)
    data_clz.replace = _replace
    register_dataclass(data_clz, data_fields, meta_fields)
    data_clz._flax_dataclass = True  # Flax's marker of a struct dataclass, under its name
    return data_clz


TNode = TypeVar("TNode", bound="PyTreeNode")


@dataclass_transform(field_specifiers=(field,))
class PyTreeNode:
    """Base class whose subclasses are `dataclass` pytrees.

    Example::

        class TrainState(PyTreeNode):
            params: Any
            apply_fn: Callable = field(pytree_node=False)
    """

    def __init_subclass__(cls, **kwargs: Any):
        super().__init_subclass__()
        dataclass(cls, **kwargs)

    def __init__(self, *args: Any, **kwargs: Any):
        # Replaced by the dataclass __init__ in every subclass.
        raise NotImplementedError

    def replace(self: TNode, **overrides: Any) -> TNode:
        """Returns a copy of this object with the given fields replaced."""
        raise NotImplementedError
