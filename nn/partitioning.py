"""``nn.partitioning`` (``flax.linen.partitioning``): Flax's legacy logical-axis API.

Parameters declared with :func:`param_with_axes` (variables with :func:`variable_with_axes`)
record their logical axis names in a parallel ``'<collection>_axes'`` collection as
:class:`AxisMetadata` (``'params_axes'`` for params); :func:`get_axis_names` turns that
collection into logical ``PartitionSpec``s, which ``logical_to_mesh`` /
``nn.logical_to_mesh_sharding`` map to the mesh. ``with_sharding_constraint`` is
``nn.with_logical_constraint``, ``axis_rules``/``set_axis_rules``/``get_axis_rules`` are the
logical-rule context of ``nn.logical_axis_rules``. Flax's ``scan_with_axes``,
``vmap_with_axes`` and the legacy ``remat`` are not provided: use ``nn.scan``/``nn.vmap`` with
``metadata_params={nn.PARTITION_NAME: ...}`` and ``nn.remat``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from core import struct, tree_util
from core.sharding import PartitionSpec
from nn import errors
from nn.frozen_dict import FrozenDict, freeze, unfreeze
from nn.meta import (
    RulesFallback,
    _is_logical_spec,
    logical_to_mesh,
    logical_to_mesh_axes,
)
from nn.meta import get_logical_axis_rules as get_axis_rules
from nn.meta import logical_axis_rules as axis_rules
from nn.meta import set_logical_axis_rules as set_axis_rules
from nn.meta import with_logical_constraint as with_sharding_constraint
from nn.traverse_util import flatten_dict, unflatten_dict
from nn.variables import Variable

__all__ = [
    "AxisMetadata",
    "PartitionedVariable",
    "RulesFallback",
    "axis_rules",
    "get_axis_names",
    "get_axis_rules",
    "logical_to_mesh",
    "logical_to_mesh_axes",
    "param_with_axes",
    "set_axis_rules",
    "variable_with_axes",
    "with_sharding_constraint",
]


@struct.dataclass
class AxisMetadata:
    """The logical axis names of one variable, stored in the ``'<collection>_axes'``
    collection (a pytree node with no children: the names are static)."""

    names: Any = struct.field(pytree_node=False)


def _sow_axes(x: Any, y: AxisMetadata) -> AxisMetadata:
    """``sow`` reduction: the first names stick; sowing different names again is an error."""
    if isinstance(x, AxisMetadata) and x != y:
        raise errors.AxisNamesMismatchError(x.names, y.names)
    return y


def _current_module(module: Any, what: str) -> Any:
    from nn.module import _context

    module = module if module is not None else _context.module_stack[-1]
    if module is None:
        raise errors.AxesOutsideModuleError(what)
    return module


def param_with_axes(
    name: str,
    init_fn: Callable[..., Any],
    *init_args: Any,
    axes: Sequence[str | None] | None = None,
    module: Any = None,
    **init_kwargs: Any,
) -> Any:
    """Declares parameter ``name`` in the current module and records its logical axes.

    Args:
      name: the parameter name.
      init_fn: the initializer (gets the ``'params'`` key first).
      *init_args: more arguments of ``init_fn`` (typically the shape).
      axes: one logical axis name per axis of the parameter, or ``None``.
      module: the module (default: the one whose method is running).
      **init_kwargs: keyword arguments of ``init_fn``.

    Returns:
      The parameter's value, constrained to its logical axes.
    """
    module = _current_module(module, "param_with_axes")
    value = module.param(name, init_fn, *init_args, **init_kwargs)
    if axes is not None:
        value = with_sharding_constraint(value, PartitionSpec(*axes))
        module.sow("params_axes", f"{name}_axes", AxisMetadata(tuple(axes)), reduce_fn=_sow_axes)
    return value


class PartitionedVariable(Variable):
    """A :class:`~nn.Variable` whose value is constrained to its logical axes when read or
    written."""

    def __init__(
        self,
        scope: Any,
        collection: str,
        name: str,
        axes: Sequence[str | None] | None = None,
        fallback: RulesFallback = RulesFallback.AXIS_IS_UNSHARDED,
    ) -> None:
        super().__init__(scope, collection, name)
        self.axes = None if axes is None else tuple(axes)
        self.fallback = fallback

    def _constrain(self, value: Any) -> Any:
        if self.axes is None:
            return value
        return with_sharding_constraint(value, self.axes, fallback=self.fallback)

    @property
    def value(self) -> Any:
        return self._constrain(self.scope.get_variable(self.collection, self.name))

    @value.setter
    def value(self, value: Any) -> None:
        self.scope.put_variable(self.collection, self.name, self._constrain(value))


def variable_with_axes(
    collection: str,
    name: str,
    init_fn: Callable[..., Any],
    *init_args: Any,
    axes: Sequence[str | None] | None = None,
    module: Any = None,
    fallback: RulesFallback = RulesFallback.AXIS_IS_UNSHARDED,
    **init_kwargs: Any,
) -> PartitionedVariable:
    """Declares variable ``name`` of ``collection`` and records its logical axes.

    Args:
      collection: the collection, e.g. ``'cache'``.
      name: the variable name.
      init_fn: computes the initial value from ``init_args``/``init_kwargs``.
      *init_args: arguments of ``init_fn``.
      axes: one logical axis name per axis of the value, or ``None``.
      module: the module (default: the one whose method is running).
      fallback: what constraints do with axes no rule matches.
      **init_kwargs: keyword arguments of ``init_fn``.

    Returns:
      A :class:`PartitionedVariable`.
    """
    module = _current_module(module, "variable_with_axes")
    var = module.variable(collection, name, init_fn, *init_args, **init_kwargs)
    if axes is not None:
        module.sow(
            f"{collection}_axes", f"{name}_axes", AxisMetadata(tuple(axes)), reduce_fn=_sow_axes
        )
    return PartitionedVariable(var.scope, collection, name, axes, fallback)


def get_axis_names(axes_metadata: Any) -> FrozenDict:
    """The logical ``PartitionSpec``s of a ``'<collection>_axes'`` collection.

    Args:
      axes_metadata: e.g. ``variables['params_axes']`` from ``init``.

    Returns:
      A ``FrozenDict`` shaped like the variables' collection (the ``_axes`` suffixes removed),
      with a ``PartitionSpec`` of logical names per variable.

    Example::

        variables = model.init(key, x)
        specs = nn.partitioning.get_axis_names(variables["params_axes"])
        shardings = nn.logical_to_mesh_sharding(specs, mesh, rules)
    """

    def spec(names: Any) -> Any:
        return tree_util.tree_map(
            lambda x: None if x is None else PartitionSpec(*x), names, is_leaf=_is_logical_spec
        )

    flat = flatten_dict(unfreeze(axes_metadata))
    renamed = {
        (*path[:-1], re.sub(r"_axes$", "", path[-1])): spec(meta.names)
        for path, meta in flat.items()
    }
    return freeze(unflatten_dict(renamed))
