"""``nn.partitioning`` (``flax.linen.partitioning``): Flax's legacy logical-axis API.

Parameters declared with :func:`param_with_axes` (variables with :func:`variable_with_axes`)
record their logical axis names in a parallel ``'<collection>_axes'`` collection as
:class:`AxisMetadata` (``'params_axes'`` for params); :func:`get_axis_names` turns that
collection into logical ``PartitionSpec``s, which ``logical_to_mesh`` /
``nn.logical_to_mesh_sharding`` map to the mesh. ``with_sharding_constraint`` is
``nn.with_logical_constraint``, ``axis_rules``/``set_axis_rules``/``get_axis_rules`` are the
logical-rule context of ``nn.logical_axis_rules``. ``scan_with_axes``/``vmap_with_axes`` are
``nn.scan``/``nn.vmap`` that also insert the new axis's name into the ``'<collection>_axes'``
boxes, and ``remat`` is ``nn.remat`` counting ``static_argnums`` after the module, as Flax's.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from core import struct, tree_util
from core.sharding import PartitionSpec
from nn import errors, lift, transforms
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
from nn.scope import CollectionFilter, union_filters
from nn.traverse_util import flatten_dict, unflatten_dict
from nn.variables import Variable

__all__ = [
    "AxisMetadata",
    "PartitionedVariable",
    "RulesFallback",
    "axis_rules",
    "core_remat_static",
    "get_axis_names",
    "get_axis_rules",
    "logical_to_mesh",
    "logical_to_mesh_axes",
    "param_with_axes",
    "remat",
    "scan_with_axes",
    "set_axis_rules",
    "variable_with_axes",
    "vmap_with_axes",
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
      axes: one logical axis name per axis of the parameter (a pytree of such tuples for a
        pytree parameter), or ``None``.
      module: the module (default: the one whose method is running).
      **init_kwargs: keyword arguments of ``init_fn``.

    Returns:
      The parameter's value, constrained to its logical axes.
    """
    module = _current_module(module, "param_with_axes")
    value = module.param(name, init_fn, *init_args, **init_kwargs)
    if axes is not None:
        value = with_sharding_constraint(value, PartitionSpec(*axes))
        # a pytree parameter's axes are a pytree of names, kept as given (Flax's)
        names = tuple(axes) if isinstance(axes, list) else axes
        module.sow("params_axes", f"{name}_axes", AxisMetadata(names), reduce_fn=_sow_axes)
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


# ------------------------------------------------------------------ lifted transformations


def _not_concrete(concrete: bool) -> None:
    if concrete:
        raise NotImplementedError(
            "The concrete argument is deprecated. Use static_argnums instead. for more "
            "information, see https://docs.jax.dev/en/latest/jep/11830-new-remat-checkpoint.html"
        )


def core_remat_static(
    fn: Callable[..., Any],
    variables: CollectionFilter = True,
    rngs: CollectionFilter = True,
    concrete: bool = False,
    prevent_cse: bool = True,
    static_argnums: Sequence[int] = (),
    policy: Callable[..., bool] | None = None,
) -> Callable[..., Any]:
    """Flax's functional-core remat with static arguments (`nn.lift.checkpoint`), counting
    ``static_argnums`` from the first argument after the scope.

    Args:
      fn: ``fn(scope, *args)``.
      variables: the collections lifted.
      rngs: the RNG streams lifted.
      concrete: must be False (Flax's NotImplementedError otherwise).
      prevent_cse: `core.checkpoint`'s prevent_cse.
      static_argnums: the positions of ``args`` that are not traced.
      policy: which intermediates may be saved (``core.checkpoint_policies``).

    Returns:
      ``wrapper(scope, *args)``.
    """
    _not_concrete(concrete)
    return lift.checkpoint(
        fn,
        variables=variables,
        rngs=rngs,
        prevent_cse=prevent_cse,
        static_argnums=tuple(n + 1 for n in sorted(static_argnums)),
        policy=policy,
    )


def remat(
    target: Any,
    variables: CollectionFilter = True,
    rngs: CollectionFilter = True,
    concrete: bool = False,
    prevent_cse: bool = True,
    static_argnums: Sequence[int] = (),
    policy: Callable[..., bool] | None = None,
    methods: Any = None,
) -> Any:
    """Flax's lifted remat with static arguments (`nn.remat`), counting ``static_argnums``
    from the first argument after the module (``nn.remat`` counts the module as 0).

    Args:
      target: a ``Module`` class or a function ``f(module, *args)``.
      variables: the collections lifted.
      rngs: the RNG streams lifted.
      concrete: must be False (Flax's NotImplementedError otherwise).
      prevent_cse: `core.checkpoint`'s prevent_cse.
      static_argnums: the positions of the arguments (after the module) that are not traced.
      policy: which intermediates may be saved.
      methods: for a class, the methods to transform.

    Returns:
      The transformed class or function.
    """
    _not_concrete(concrete)
    return transforms.checkpoint(
        target,
        variables=variables,
        rngs=rngs,
        prevent_cse=prevent_cse,
        static_argnums=tuple(n + 1 for n in sorted(static_argnums)),
        policy=policy,
        methods=methods,
    )


def _tree_map_axes(fn: Callable, tree: Any) -> Any:
    """Maps ``fn`` over the `AxisMetadata` leaves of ``tree`` only."""
    is_meta = lambda x: isinstance(x, AxisMetadata)
    return tree_util.tree_map(lambda x: fn(x) if is_meta(x) else x, tree, is_leaf=is_meta)


def _is_mutable(axis_col: str) -> bool:
    from nn.module import _context

    last = _context.module_stack[-1]
    return last.is_mutable_collection(axis_col) if last else True


def _insert_axis_name(names: Any, pos: int, name: str) -> Any:
    if names is None:
        return None
    grown = list(names)
    grown.insert(pos, name)
    return tuple(grown)


def _drop_axis_name(names: Any, pos: int, name: str) -> Any:
    if names is None:
        return None
    kept = list(names)
    if kept[pos] != name:
        raise ValueError(f"Expected axis {name} at position {pos} in axis metadata {kept}.")
    del kept[pos]
    return tuple(kept)


def _edit_names(edit: Callable[[Any], Any], box: Any) -> Any:
    """`box` with `edit` applied to each logical-axis tuple of its ``names``."""
    return box.replace(names=tree_util.tree_map(edit, box.names, is_leaf=_is_logical_spec))


def _add_axis_to_metadata(fn: Any, axis_pos: Any, axis_name: str, axis_col: str) -> Any:
    """``fn`` with ``axis_name`` inserted at ``axis_pos`` in the names of its ``axis_col``
    collection on the way out (and removed on the way in), as Flax's."""
    pos = getattr(axis_pos, "axis", axis_pos)  # nn.scan's In()/Out() markers
    grow = functools.partial(_edit_names, lambda names: _insert_axis_name(names, pos, axis_name))
    shrink = functools.partial(_edit_names, lambda names: _drop_axis_name(names, pos, axis_name))
    return transforms.map_variables(
        fn,
        axis_col,
        mutable=_is_mutable(axis_col),
        trans_in_fn=lambda tree: _tree_map_axes(shrink, tree),
        trans_out_fn=lambda tree: _tree_map_axes(grow, tree),
    )


def scan_with_axes(
    target: Any,
    variable_axes: Mapping[CollectionFilter, Any] | None = None,
    variable_broadcast: CollectionFilter = False,
    variable_carry: CollectionFilter = False,
    split_rngs: Mapping[CollectionFilter, bool] | None = None,
    in_axes: Any = 0,
    out_axes: Any = 0,
    length: int | None = None,
    reverse: bool = False,
    unroll: int = 1,
    axis_name: str = "layers",
    axes_collections: tuple[str, ...] = ("params",),
    data_transform: Callable[..., Any] | None = None,
    methods: Any = None,
) -> Any:
    """`nn.scan` that also stacks the logical axis metadata: the ``'<col>_axes'`` names of
    the scanned collections get ``axis_name`` at the scanned axis (Flax's T5X layers).

    Args:
      target: a ``Module`` class or a function ``f(module, carry, *xs)``.
      variable_axes, variable_broadcast, variable_carry, split_rngs, in_axes, out_axes,
        length, reverse, unroll, data_transform, methods: as `nn.scan`.
      axis_name: the logical name of the scanned axis.
      axes_collections: the collections whose axis metadata is stacked.

    Returns:
      The scanned class or function.
    """
    variable_axes = dict(variable_axes or {})
    # The '<col>_axes' collections hold names, not per-layer values: every step shares them.
    metadata_cols = [(col, f"{col}_axes") for col in axes_collections]
    shared = union_filters(variable_broadcast, tuple(axis_col for _, axis_col in metadata_cols))
    scanned = transforms.scan(
        target,
        variable_axes=variable_axes,
        variable_broadcast=shared,
        variable_carry=variable_carry,
        split_rngs=dict(split_rngs or {}),
        in_axes=in_axes,
        out_axes=out_axes,
        length=length,
        reverse=reverse,
        unroll=unroll,
        data_transform=data_transform,
        methods=methods,
    )
    # Each scanned collection's names gain `axis_name` where the scan stacks its variables.
    for col, axis_col in metadata_cols:
        if col in variable_axes:
            axis = variable_axes[col]
            scanned = _add_axis_to_metadata(scanned, axis, axis_name, axis_col=axis_col)
    return scanned


def vmap_with_axes(
    target: Any,
    variable_axes: Mapping[CollectionFilter, Any],
    split_rngs: Mapping[CollectionFilter, bool] | None = None,
    in_axes: Any = 0,
    out_axes: Any = 0,
    axis_size: int | None = None,
    axis_name: str | None = None,
    partitioning_axis_names: Mapping[Any, str] | None = None,
    spmd_axis_name: str | None = None,
    methods: Any = None,
) -> Any:
    """`nn.vmap` that also adds the vmapped axis to the logical axis metadata of the
    collections named in ``partitioning_axis_names``.

    Args:
      target: a ``Module`` class or a function ``f(module, *args)``.
      variable_axes, split_rngs, in_axes, out_axes, axis_size, axis_name, spmd_axis_name,
        methods: as `nn.vmap`.
      partitioning_axis_names: ``{collection: logical name of the vmapped axis}``.

    Returns:
      The vmapped class or function.
    """
    partitioning_axis_names = dict(partitioning_axis_names or {})
    variable_axes = dict(variable_axes)
    for name in partitioning_axis_names:
        variable_axes[f"{name}_axes"] = None
    vmapped = transforms.vmap(
        target,
        variable_axes=variable_axes,
        split_rngs=dict(split_rngs or {}),
        in_axes=in_axes,
        out_axes=out_axes,
        axis_size=axis_size,
        axis_name=axis_name,
        spmd_axis_name=spmd_axis_name,
        methods=methods,
    )
    for collection, axis in variable_axes.items():
        if collection in partitioning_axis_names:
            vmapped = _add_axis_to_metadata(
                vmapped, axis, partitioning_axis_names[collection], axis_col=f"{collection}_axes"
            )
    return vmapped
