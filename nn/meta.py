"""Axis metadata boxes: ``Partitioned`` values and logical axis rules (linen ``meta``, spmd).

A box wraps a variable's value with per-axis metadata, e.g. which mesh axes each array axis is
sharded over. Boxes are pytree nodes whose only child is the value and whose aux data is the
metadata, so they flow through ``jit``, ``grad`` and ``tree_map`` and come back boxed (a
gradient of boxed params is boxed the same way). ``init`` returns boxed variables when an
initializer is wrapped with :func:`with_partitioning`; ``Module.param`` (and
``Variable.value``) hand the unboxed value to layer code, so layers never see boxes and
``apply`` accepts boxed and unboxed variables alike.

Specs are computed exactly as Flax does (:func:`get_partition_spec`,
:func:`logical_to_mesh_axes`). As in Flax, unboxing applies a sharding constraint when a mesh is
set (``core.set_mesh``) or given to the box, and so does :func:`with_logical_constraint`; numbax
computes on one CPU device, so a constraint checks the array against its ``NamedSharding`` and
changes no values (``core.sharding``).
Lifted transforms may call :func:`add_axis`/:func:`remove_axis` to keep the names in step
with a mapped axis (``metadata_params={PARTITION_NAME: 'layers'}``).
"""

from __future__ import annotations

import abc
import collections
import contextlib
import enum
import functools
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from core import struct, tree_util
from core.sharding import Mesh, NamedSharding, PartitionSpec, get_mesh, with_sharding_constraint
from nn import errors

PARTITION_NAME = "partition_name"

LogicalNames = tuple[str | None, ...]
LogicalRules = Sequence[tuple[str, str | tuple[str, ...] | None]]


class AxisMetadata(abc.ABC):
    """Base class of boxes holding a value plus metadata about its axes.

    Subclasses must be pytree nodes whose children are the boxed value (use
    ``core.struct.PyTreeNode`` with the metadata in ``struct.field(pytree_node=False)``).
    """

    @abc.abstractmethod
    def unbox(self) -> Any:
        """Returns the boxed value (one level: a box inside is returned as is)."""

    @abc.abstractmethod
    def replace_boxed(self, val: Any) -> AxisMetadata:
        """Returns a box of the same kind and metadata holding ``val``."""

    @abc.abstractmethod
    def add_axis(self, index: int, params: dict[Any, Any]) -> AxisMetadata:
        """Returns this box with metadata for a new axis at ``index``.

        ``params`` are the transform's ``metadata_params``; ``add_axis`` and ``remove_axis``
        are inverses of each other.
        """

    @abc.abstractmethod
    def remove_axis(self, index: int, params: dict[Any, Any]) -> AxisMetadata:
        """Returns this box without the metadata of axis ``index``."""


def is_axis_metadata(val: Any) -> bool:
    """Returns whether ``val`` is an :class:`AxisMetadata` box."""
    return isinstance(val, AxisMetadata)


def map_axis_meta(fn: Callable[[AxisMetadata], Any], tree: Any) -> Any:
    """Applies ``fn`` to every box of ``tree`` (other leaves are kept)."""
    return tree_util.tree_map(
        lambda x: fn(x) if isinstance(x, AxisMetadata) else x, tree, is_leaf=is_axis_metadata
    )


def add_axis(tree: Any, index: int, params: dict[Any, Any]) -> Any:
    """Adds axis ``index`` to the metadata of every box of ``tree``."""
    return map_axis_meta(lambda x: x.add_axis(index, params), tree)


def remove_axis(tree: Any, index: int, params: dict[Any, Any]) -> Any:
    """Removes axis ``index`` from the metadata of every box of ``tree``."""
    return map_axis_meta(lambda x: x.remove_axis(index, params), tree)


def unbox(tree: Any) -> Any:
    """Returns ``tree`` with every box (also nested boxes) replaced by its value.

    Example::

        >>> nn.unbox({"w": nn.Partitioned(1.0, ("data",))})
        {'w': 1.0}
    """
    return map_axis_meta(lambda x: unbox(x.unbox()), tree)


def replace_boxed(tree: Any, updates: Any) -> Any:
    """Puts the values of the unboxed tree ``updates`` into the boxes of ``tree``."""

    def update(box: Any, value: Any) -> Any:
        if isinstance(box, AxisMetadata):
            return box.replace_boxed(replace_boxed(box.unbox(), value))
        return value

    return tree_util.tree_map(update, tree, updates, is_leaf=is_axis_metadata)


class Partitioned(struct.PyTreeNode, AxisMetadata):
    """A value annotated with the mesh axis of each of its axes (``flax.linen.Partitioned``).

    Usually made by :func:`with_partitioning` around an initializer.

    Attributes:
      value: the boxed value (the pytree child).
      names: one mesh axis name (or ``None``, or a tuple of names) per axis of ``value``.
      mesh: the mesh the unboxed value is constrained to (default: the current mesh).

    Example::

        >>> p = nn.Partitioned(jnp.ones((2, 3)), ("data", "model"))
        >>> p.get_partition_spec()
        P('data', 'model')
        >>> core.tree_util.tree_map(lambda v: v * 2, p).unbox().sum()
        Array(12., dtype=float32)
    """

    value: Any
    names: LogicalNames = struct.field(pytree_node=False)
    mesh: Any = struct.field(default=None, pytree_node=False)

    def __post_init__(self) -> None:
        # Names live in the treedef, which jit hashes: keep them a tuple.
        object.__setattr__(self, "names", tuple(self.names))

    def unbox(self, apply_constraint: bool = True) -> Any:
        """Returns the value, constrained to :meth:`get_sharding` when a mesh is set or given
        (and ``apply_constraint``)."""
        mesh = _constraint_mesh(self.mesh, apply_constraint)
        if mesh is None:
            return self.value
        return with_sharding_constraint(self.value, self.get_sharding(mesh))

    def get_sharding(self, mesh: Mesh) -> NamedSharding:
        """The ``NamedSharding`` of the value over ``mesh``."""
        return NamedSharding(mesh, self.get_partition_spec())

    def replace_boxed(self, val: Any) -> Partitioned:
        return self.replace(value=val)

    def _partition_name(self, params: dict[Any, Any]) -> Any:
        if PARTITION_NAME not in params:
            raise errors.PartitioningUnspecifiedError(self.names)
        return params[PARTITION_NAME]

    def add_axis(self, index: int, params: dict[Any, Any]) -> Partitioned:
        """Inserts ``params[PARTITION_NAME]`` at ``index`` (padding with ``None`` if short)."""
        names = list(self.names)
        names.extend([None] * (index - len(names)))
        names.insert(index, self._partition_name(params))
        return self.replace(names=tuple(names))

    def remove_axis(self, index: int, params: dict[Any, Any]) -> Partitioned:
        """Drops the name at ``index``, which must be ``params[PARTITION_NAME]``."""
        name = self._partition_name(params)
        names = list(self.names)
        if index >= len(names) or names[index] != name:
            raise errors.PartitionAxisMismatchError(self.names, index, name)
        del names[index]
        return self.replace(names=tuple(names))

    def get_partition_spec(self) -> PartitionSpec:
        """The ``PartitionSpec`` of the value: its names."""
        return PartitionSpec(*self.names)


def with_partitioning(
    fn: Callable[..., Any], names: LogicalNames, mesh: Any = None
) -> Callable[..., Partitioned]:
    """Wraps an initializer so its result is boxed in :class:`Partitioned` with ``names``.

    Args:
      fn: the initializer (or any function).
      names: the mesh axis of each axis of the result.
      mesh: accepted for Flax compatibility.

    Returns:
      ``fn`` returning ``Partitioned(fn(...), names, mesh)``.

    Example::

        >>> init = nn.with_partitioning(nn.initializers.lecun_normal(), (None, "model"))
        >>> v = nn.Dense(3, kernel_init=init).init(core.random.key(0), jnp.ones((1, 2)))
        >>> nn.get_partition_spec(v)["params"]["kernel"]
        P(None, 'model')
    """

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return Partitioned(fn(*args, **kwargs), names, mesh=mesh)

    return wrapper


def _leaf_partition_spec(x: Any) -> PartitionSpec | None:
    if hasattr(x, "get_partition_spec"):
        return x.get_partition_spec()
    if hasattr(x, "shape"):
        return PartitionSpec()
    return None


def _constraint_mesh(mesh: Mesh | None, apply_constraint: bool = True) -> Mesh | None:
    """The mesh a sharding constraint applies to: ``mesh``, else the current one, else None."""
    if not apply_constraint:
        return None
    if mesh is None:
        mesh = get_mesh()
    return None if mesh.empty else mesh


def get_sharding(tree: Any, mesh: Mesh) -> Any:
    """The tree of ``NamedSharding``s over ``mesh`` of ``tree``'s boxes and arrays
    (``nn.get_sharding``); leaves that are neither become ``None``.

    Example::

        >>> mesh = core.sharding.Mesh(core.devices(), ("model",))
        >>> p = nn.Partitioned(jnp.ones((2, 3)), (None, "model"))
        >>> nn.get_sharding({"w": p}, mesh)["w"].spec
        P(None, 'model')
    """

    def leaf(x: Any) -> NamedSharding | None:
        if hasattr(x, "get_sharding"):
            return x.get_sharding(mesh)
        spec = _leaf_partition_spec(x)
        return None if spec is None else NamedSharding(mesh, spec)

    return tree_util.tree_map(leaf, tree, is_leaf=is_axis_metadata)


def get_partition_spec(tree: Any) -> Any:
    """The tree of ``PartitionSpec``s of ``tree``: a box's names, ``PartitionSpec()`` for arrays.

    Leaves that are neither boxes nor arrays become ``None``.
    """
    return tree_util.tree_map(_leaf_partition_spec, tree, is_leaf=is_axis_metadata)


# ---------------------------------------------------------------------------------------------
# Logical axis names and the rules mapping them to mesh axes


class _AxisRules(threading.local):
    def __init__(self) -> None:
        self.rules: LogicalRules = ()


_axis_rules = _AxisRules()


def set_logical_axis_rules(rules: LogicalRules) -> None:
    """Sets the global (per-thread) logical-to-mesh axis rules."""
    _axis_rules.rules = rules


def get_logical_axis_rules() -> LogicalRules:
    """Returns the current logical-to-mesh axis rules (``()`` when none are set)."""
    return _axis_rules.rules


@contextlib.contextmanager
def logical_axis_rules(rules: LogicalRules) -> Iterator[None]:
    """Sets the logical-to-mesh axis rules inside a ``with`` block.

    Example::

        >>> with nn.logical_axis_rules((("embed", "data"), ("mlp", "model"))):
        ...     nn.logical_to_mesh_axes(("embed", "mlp"))
        P('data', 'model')
    """
    outer = get_logical_axis_rules()
    set_logical_axis_rules(rules)
    with contextlib.ExitStack() as on_exit:
        # The enclosing block's rules come back, also when the block raises.
        on_exit.callback(set_logical_axis_rules, outer)
        yield


class _UnassignedAxis:
    """Marks a named axis that no rule has mapped yet (falsy, like ``None``)."""

    def __repr__(self) -> str:
        return "UnassignedAxis"

    def __bool__(self) -> bool:
        return False


_unassigned_axis = _UnassignedAxis()


def _mesh_axes_of(assignment: Any) -> set:
    leaves = assignment if isinstance(assignment, (tuple, list)) else (assignment,)
    found = set()
    for leaf in leaves:
        found |= _mesh_axes_of(leaf) if isinstance(leaf, (tuple, list)) else {leaf}
    return found - {None, PartitionSpec.UNCONSTRAINED, _unassigned_axis}


def _assign_mesh_axes(names: Sequence[Any] | None, rules: LogicalRules | None) -> list | None:
    """Like :func:`logical_to_mesh_axes`, but unmatched named axes stay ``_unassigned_axis``."""
    if names is None:
        return None
    if rules is None:
        rules = get_logical_axis_rules()
    counts = collections.Counter(names)
    repeated = [k for k, v in counts.items() if v > 1 and isinstance(k, str)]
    if repeated:
        raise errors.RepeatedLogicalAxisError(names, repeated)
    if not isinstance(rules, (tuple, list)):
        raise errors.LogicalAxisRulesError(rules)
    names = list(names)
    result = [_unassigned_axis if isinstance(name, str) else name for name in names]
    for logical, mesh_axes in rules:
        if logical in names:
            pos = names.index(logical)
            used = _mesh_axes_of(result)
            if result[pos] is _unassigned_axis and not (_mesh_axes_of(mesh_axes) & used):
                result[pos] = mesh_axes
    return result


def logical_to_mesh_axes(
    array_dim_names: Sequence[str | None] | None, rules: LogicalRules | None = None
) -> PartitionSpec | None:
    """Maps the logical names of an array's axes to mesh axes.

    Rules are ``(logical_name, mesh_axes)`` pairs in order of precedence: an axis takes the
    first rule naming it whose mesh axes no earlier axis uses; unmatched axes are ``None``.

    Args:
      array_dim_names: one logical name (or ``None``) per axis, or ``None``.
      rules: the rules (default: the ones set by :func:`logical_axis_rules`).

    Returns:
      The ``PartitionSpec``, or ``None`` when ``array_dim_names`` is ``None``.

    Example::

        >>> rules = (("batch", "X"), ("features", "X"), ("heads", "Y"), ("batch", "Z"))
        >>> nn.logical_to_mesh_axes(("batch", "length", "heads", "features"), rules)
        P('X', None, 'Y', None)
    """
    result = _assign_mesh_axes(array_dim_names, rules)
    if result is None:
        return None
    return PartitionSpec(*(None if x is _unassigned_axis else x for x in result))


def logical_to_mesh(tree: Any, rules: LogicalRules | None = None) -> Any:
    """Applies :func:`logical_to_mesh_axes` to every ``PartitionSpec`` of ``tree``."""
    return tree_util.tree_map(
        lambda x: logical_to_mesh_axes(x, rules),
        tree,
        is_leaf=lambda x: isinstance(x, PartitionSpec),
    )


class RulesFallback(enum.Enum):
    """What :func:`with_logical_constraint` does with an axis no rule matches."""

    AXIS_IS_UNSHARDED = "axis_is_unsharded"
    RAISE_ERROR = "raise_error"
    NO_CONSTRAINT = "no_constraint"


def _is_logical_spec(x: Any) -> bool:
    return x is None or (
        isinstance(x, tuple)
        and all(isinstance(e, str) or e is None or e is PartitionSpec.UNCONSTRAINED for e in x)
    )


def with_logical_constraint(
    x: Any,
    logical_axis_resources: Any,
    rules: LogicalRules | None = None,
    mesh: Any = None,
    fallback: RulesFallback = RulesFallback.AXIS_IS_UNSHARDED,
) -> Any:
    """A sharding constraint in logical axis names (``nn.with_logical_constraint``).

    The names are mapped to mesh axes by the rules as Flax does (repeated names raise, and so
    do unmatched ones with ``fallback=RulesFallback.RAISE_ERROR``); when a mesh is given or
    set, every leaf is constrained to the resulting ``NamedSharding`` (checked, values
    unchanged on one device). Without rules it returns ``x``, as in Flax.

    Args:
      x: an array or pytree of arrays.
      logical_axis_resources: logical names per axis (a tuple, or a tree of them like ``x``).
      rules: the rules (default: the current ones).
      mesh: the mesh (default: the current one, see ``core.set_mesh``).
      fallback: what to do with axes no rule matches.

    Returns:
      ``x``, constrained.
    """
    if rules is None:
        rules = get_logical_axis_rules()
    if not rules or logical_axis_resources is None:
        return x
    target = _constraint_mesh(mesh)

    def constrain(names: Any, leaf: Any) -> Any:
        assigned = _assign_mesh_axes(names, rules)
        if assigned is None:
            return leaf
        if any(a is _unassigned_axis for a in assigned):
            if fallback is RulesFallback.RAISE_ERROR:
                raise errors.UnmatchedLogicalAxisError(names)
            if fallback is RulesFallback.NO_CONSTRAINT:
                return leaf
        if target is None:
            return leaf
        spec = PartitionSpec(*(None if a is _unassigned_axis else a for a in assigned))
        return with_sharding_constraint(leaf, NamedSharding(target, spec))

    return tree_util.tree_map(constrain, logical_axis_resources, x, is_leaf=_is_logical_spec)


class LogicallyPartitioned(Partitioned):
    """A :class:`Partitioned` whose names are logical axis names, mapped by rules.

    ``get_partition_spec`` returns the logical names; :func:`logical_to_mesh` maps a tree of
    them to mesh axes with the current rules.

    Attributes:
      rules: rules for this value (default: the current ones).
    """

    rules: LogicalRules | None = struct.field(default=None, pytree_node=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.rules is not None:
            # Rules join the treedef too: make them hashable.
            object.__setattr__(self, "rules", tuple(tuple(rule) for rule in self.rules))

    def unbox(self, apply_constraint: bool = True) -> Any:
        """Returns the value, constrained by :func:`with_logical_constraint` with this box's
        rules when a mesh is set or given (and ``apply_constraint``)."""
        if _constraint_mesh(self.mesh, apply_constraint) is None:
            return self.value
        return with_logical_constraint(self.value, self.names, rules=self.rules, mesh=self.mesh)


def with_logical_partitioning(
    fn: Callable[..., Any],
    names: LogicalNames,
    mesh: Any = None,
    rules: LogicalRules | None = None,
) -> Callable[..., LogicallyPartitioned]:
    """Wraps an initializer so its result is boxed in :class:`LogicallyPartitioned`.

    Args:
      fn: the initializer.
      names: the logical name of each axis of the result.
      mesh: accepted for Flax compatibility.
      rules: rules for this value (default: the current ones).

    Returns:
      ``fn`` returning ``LogicallyPartitioned(fn(...), names, mesh, rules)``.
    """

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return LogicallyPartitioned(fn(*args, **kwargs), names, mesh=mesh, rules=rules)

    return wrapper
