"""``nn.spmd`` (``flax.linen.spmd``): logical axis names, their rules, and shardings from them.

Logical names (``"batch"``, ``"embed"``, ``"mlp"``) annotate array axes; rules map them to
mesh axes; :func:`logical_to_mesh_sharding` turns a tree of logical specs into
``NamedSharding``s over a mesh. The rule machinery lives in ``nn/meta.py``; this module is the
Flax module path for it.
"""

from __future__ import annotations

from typing import Any

from core import tree_util
from core.sharding import Mesh, NamedSharding, PartitionSpec
from nn.meta import (
    LogicallyPartitioned,
    LogicalRules,
    RulesFallback,
    get_logical_axis_rules,
    logical_axis_rules,
    logical_to_mesh,
    logical_to_mesh_axes,
    set_logical_axis_rules,
    with_logical_constraint,
    with_logical_partitioning,
)

__all__ = [
    "LogicallyPartitioned",
    "RulesFallback",
    "get_logical_axis_rules",
    "logical_axis_rules",
    "logical_to_mesh",
    "logical_to_mesh_axes",
    "logical_to_mesh_sharding",
    "set_logical_axis_rules",
    "with_logical_constraint",
    "with_logical_partitioning",
]


def logical_to_mesh_sharding(tree: Any, mesh: Mesh, rules: LogicalRules | None = None) -> Any:
    """A tree of logical ``PartitionSpec``s as ``NamedSharding``s over ``mesh``.

    Args:
      tree: a pytree whose leaves are logical ``PartitionSpec``s (e.g. from
        ``nn.get_partition_spec(variables)``).
      mesh: the device mesh.
      rules: the logical-to-mesh rules (default: the current ones).

    Returns:
      The tree with each spec mapped by :func:`logical_to_mesh_axes` and wrapped in a
      ``NamedSharding``.

    Example::

        >>> mesh = core.sharding.Mesh(core.devices(), ("data",))
        >>> specs = {"w": PartitionSpec("batch", "embed")}
        >>> nn.logical_to_mesh_sharding(specs, mesh, [("batch", "data")])["w"].spec
        P('data', None)
    """
    return tree_util.tree_map(
        lambda spec: NamedSharding(mesh, spec),
        logical_to_mesh(tree, rules),
        is_leaf=lambda x: isinstance(x, PartitionSpec),
    )
