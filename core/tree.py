"""The `jax.tree` namespace: short names for the functions of `core.tree_util`.

``core.tree.map(f, tree)`` is ``core.tree_util.tree_map(f, tree)``, and so on; the functions are
the same objects, so their behaviour and errors are documented there.
"""

import dataclasses as _dataclasses
from typing import Any as _Any

from core.tree_util import tree_all as all
from core.tree_util import tree_broadcast as broadcast
from core.tree_util import tree_flatten as flatten
from core.tree_util import tree_flatten_with_path as flatten_with_path
from core.tree_util import tree_leaves as leaves
from core.tree_util import tree_leaves_with_path as leaves_with_path
from core.tree_util import tree_map as map
from core.tree_util import tree_map_with_path as map_with_path
from core.tree_util import tree_reduce as reduce
from core.tree_util import tree_reduce_associative as reduce_associative
from core.tree_util import tree_structure as structure
from core.tree_util import tree_transpose as transpose
from core.tree_util import tree_unflatten as unflatten

__all__ = [
    "all",
    "broadcast",
    "flatten",
    "flatten_with_path",
    "leaves",
    "leaves_with_path",
    "map",
    "map_with_path",
    "reduce",
    "reduce_associative",
    "static",
    "structure",
    "transpose",
    "unflatten",
]


def static(**kwargs: _Any) -> _Any:
    """A `dataclasses.field` marked static (``metadata={"static": True}``).

    `core.tree_util.register_dataclass` without explicit field lists treats such fields as
    metadata (part of the tree structure) instead of children.

    Args:
      **kwargs: the arguments of `dataclasses.field`.

    Returns:
      The field.
    """
    metadata = {"static": True, **(kwargs.pop("metadata", None) or {})}  # JAX's: it may say no
    return _dataclasses.field(metadata=metadata, **kwargs)
