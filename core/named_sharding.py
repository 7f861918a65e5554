"""`NamedSharding` (`jax.sharding.NamedSharding`) and placing arrays by shardings.

`NamedSharding(mesh, spec)` splits array axis `i` over the mesh axes named by `spec[i]`
(`core/mesh.py`); its `shard_shape` and `devices_indices_map` follow JAX's layout for any mesh
of `core.devices()`. numbax arrays live in host memory and computations run on the default
device, so placing an array (`device_put`, `lax.with_sharding_constraint`, `reshard`) checks
the sharding against it exactly as JAX does (unknown mesh axes, an axis used twice, too few
array axes, sizes not divisible), then records it on the array (`x.sharding`,
`x.addressable_shards`) without copying. Operations on such arrays give results placed as
JAX's compiler places them (`core/committed.py`, `core/sharding_propagation.py`), and what is
computed under `set_mesh` from unplaced arrays goes on its mesh, replicated (`on_context_mesh`,
`committed.follow`); under `jit`, `grad` and `vmap` the constraints are checked on the traced
shapes, a constraint inside `jit` placing the jitted results, and `with_sharding_constraint`
of a traced value to a `NamedSharding` binds JAX's `sharding_constraint_p` (the value passes
through; its jvp and transpose constrain the tangent and cotangent, `vmap` leaves the batch
axis `UNCONSTRAINED`, as JAX's rules; to another kind of sharding it returns its input).
A spec's `unreduced` axes (`P('X', None, unreduced={'Y'})`) are partial: `device_put` places an
array so, its shards the summands of its value as XLA splits them (`NamedSharding.summand`),
and it prints and types as JAX's (`float32[8@X,4]{U:Y}`); computations on it use its value
(JAX's rules for unreduced operands, and `reduced` axes, are not implemented).
`core.sharding` re-exports these names.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from core import tree_util
from core.ad_util import Zero
from core.array import Array
from core.errors import (
    AutoAxisShardingError,
    DeviceAndShardingError,
    DuplicateSpecError,
    ExplicitAxisConstraintError,
    IndivisibleError,
    MeshAxisNotFoundError,
    NamedShardingArgumentError,
    NoMeshError,
    ShardingShapeError,
)
from core.interpreters.jvp import deflinear
from core.interpreters.partial_eval import JaxprTracer
from core.mesh import AbstractMesh, AxisType, Mesh, get_abstract_mesh, get_mesh
from core.primitive import Primitive
from core.prims import prng
from core.prng_key import PRNGKeyArray
from core.sharding_base import PartitionSpec, Sharding, as_sharding, placed
from core.sharding_exemptions import unchecked
from core.sharding_propagation import as_partition_spec, constrain
from core.trace import Tracer, as_value, get_aval
from core.tree_util.functions import mismatch_details


def _entry_axes(entry: Any) -> tuple:
    """The mesh axis names of one `PartitionSpec` entry."""
    if entry is None or entry is PartitionSpec.UNCONSTRAINED:
        return ()
    return tuple(entry) if isinstance(entry, (tuple, list)) else (entry,)


class NamedSharding(Sharding):
    """An array split over a mesh by a `PartitionSpec` (`jax.sharding.NamedSharding`).

    Args:
      mesh: the device mesh.
      spec: one entry per leading array axis: `None`, a mesh axis name or a tuple of names.
      memory_kind: accepted for compatibility ('device').

    Example::

        >>> mesh = core.sharding.Mesh(core.devices()[:2], ("data",))
        >>> s = NamedSharding(mesh, PartitionSpec("data"))
        >>> s.shard_shape((8, 3)), s.is_fully_replicated
        ((4, 3), False)
    """

    # Whether computations on arrays placed this way place their results by it
    # (`core/committed.py`): False for `pmap`'s outputs (`core.sharding.pmap_sharding`).
    followed = True

    def __init__(self, mesh: Mesh, spec: PartitionSpec, *, memory_kind: str | None = None) -> None:
        if not isinstance(mesh, AbstractMesh):
            raise NamedShardingArgumentError(
                f"NamedSharding expects a Mesh, got {type(mesh).__name__}: make one with "
                "make_mesh(shape, names) or Mesh(devices, names)."
            )
        if not isinstance(spec, PartitionSpec):
            raise NamedShardingArgumentError(
                f"NamedSharding expects a PartitionSpec, got {spec!r}: wrap the entries, "
                "PartitionSpec('data', None), or PartitionSpec() for a replicated array."
            )
        used: list = []
        for entry in (*spec, *spec.unreduced, *spec.reduced):
            for name in _entry_axes(entry):
                if name not in mesh.axis_names:
                    raise MeshAxisNotFoundError(name, spec, mesh.axis_names)
                used.append(name)
        repeated = sorted({n for n in used if used.count(n) > 1})
        if repeated:
            raise DuplicateSpecError(spec, repeated)
        self.mesh = mesh
        self.spec = spec
        # none for an `AbstractMesh` (an array type's sharding: `jax.typeof(x).sharding`)
        self._devices = tuple(mesh.devices.flat) if isinstance(mesh, Mesh) else ()

    def _splits(self) -> list[int]:
        """How many pieces each array axis named by the spec is cut into."""
        sizes = self.mesh.shape
        return [int(np.prod([sizes[n] for n in _entry_axes(e)])) for e in self.spec]

    @property
    def is_fully_replicated(self) -> bool:
        return all(n == 1 for n in self._splits())

    def summing(self, source: Any) -> NamedSharding:
        """This sharding (whose spec has unreduced axes) for an array placed from one placed by
        `source`: its shards are summands of the value, as XLA splits it (`summand`).

        Args:
          source: the sharding of the array being placed.

        Returns:
          An equal `NamedSharding` that remembers `source`.
        """
        out = NamedSharding(self.mesh, self.spec)
        out._source = source
        return out

    def summand(self, value: np.ndarray, device: Any, index: tuple) -> np.ndarray:
        """The shard on `device` of an array of global `value` placed by this sharding (whose
        spec has unreduced axes): the shards along an unreduced mesh axis sum to the value.
        As XLA resharding to it: each device keeps what it held of `index` under the sharding
        the array was placed from (`summing`), zeros elsewhere; where a piece was replicated
        along an unreduced axis, only the device at position 0 of that axis keeps it.

        Args:
          value: the array's global value.
          device: one of the mesh's devices.
          index: the device's block (slices) of the global array under this sharding.

        Returns:
          The device's block, with zeros where another device holds the summand.
        """
        out = np.zeros_like(value[index])
        source = getattr(self, "_source", None)
        same_mesh = isinstance(source, NamedSharding) and source.mesh == self.mesh
        held = source.devices_indices_map(value.shape)[device] if same_mesh else index
        used = {n for e in source.spec for n in _entry_axes(e)} if same_mesh else set()
        position = dict(zip(self.mesh.axis_names, np.argwhere(self.mesh.devices == device)[0]))
        if any(position[n] for n in self.spec.unreduced if n not in used):
            return out
        starts, stops = [], []
        for dim, (mine, theirs) in enumerate(zip(index, held)):
            lo = max(mine.indices(value.shape[dim])[0], theirs.indices(value.shape[dim])[0])
            hi = min(mine.indices(value.shape[dim])[1], theirs.indices(value.shape[dim])[1])
            starts.append(lo)
            stops.append(max(lo, hi))
        first = [m.indices(value.shape[d])[0] for d, m in enumerate(index)]
        target = tuple(slice(a - f, b - f) for a, b, f in zip(starts, stops, first))
        out[target] = value[tuple(slice(a, b) for a, b in zip(starts, stops))]
        return out

    def update(
        self, *, mesh: Mesh | None = None, spec: Any = None, memory_kind: str | None = None
    ) -> NamedSharding:
        """This sharding with another mesh, spec or memory kind (`NamedSharding.update`).

        Args:
          mesh: the new mesh (default: this one's).
          spec: the new spec, a `PartitionSpec` or a tuple of its entries (default: this one's).
          memory_kind: the new memory kind (default: this one's).

        Returns:
          The new `NamedSharding`.
        """
        if spec is not None and not isinstance(spec, PartitionSpec):
            spec = PartitionSpec(*spec)
        return NamedSharding(
            self.mesh if mesh is None else mesh,
            self.spec if spec is None else spec,
            memory_kind=self.memory_kind if memory_kind is None else memory_kind,
        )

    def check_shape(self, shape: Sequence[int], where: str = "device_put") -> None:
        """Raises `ShardingShapeError` unless an array of `shape` can be split this way."""
        if len(self.spec) > len(shape):
            raise ShardingShapeError(
                f"One of {where} args is incompatible with its sharding annotation {self!r}: "
                f"it is only valid for values of rank at least {len(self.spec)}, but got a "
                f"value of shape {tuple(shape)}."
            )
        for axis, (dim, n) in enumerate(zip(shape, self._splits())):
            if dim % n and where == "shard_shape":
                factors = self._splits() + [1] * (len(shape) - len(self.spec))
                raise IndivisibleError(
                    f"Sharding {self!r} implies that array axis {axis} is partitioned {n} times, "
                    f"but the dimension size is {dim} (full shape: {tuple(shape)}, "
                    f"per-dimension tiling factors: {factors} should evenly divide the shape)"
                )
            if dim % n and where == "device_put":
                full = _full_rank(self, len(shape))
                raise ShardingShapeError(
                    f"Sharding spec {_entry_axes(self.spec[axis])} implies that array axis "
                    f"{axis} is partitioned {n} times, but does not evenly divide the dimension "
                    f"size {dim}. Got shape: {tuple(shape)} and sharding "
                    f"NamedSharding(mesh={self.mesh.abstract_mesh!r}, spec={full.spec!r})"
                )
            if dim % n:
                raise ShardingShapeError(
                    f"One of {where} args is incompatible with its sharding annotation "
                    f"{self!r}: axis {axis} of shape {tuple(shape)} has size {dim}, which the "
                    f"{n} devices of mesh axes {self.spec[axis]} cannot split evenly."
                )

    def shard_shape(self, global_shape: Sequence[int]) -> tuple[int, ...]:
        self.check_shape(global_shape, "shard_shape")
        splits = self._splits() + [1] * (len(global_shape) - len(self.spec))
        return tuple(d // n for d, n in zip(global_shape, splits))

    def devices_indices_map(self, global_shape: Sequence[int]) -> dict:
        shard = self.shard_shape(global_shape)
        names = self.mesh.axis_names
        out = {}
        for coords in np.ndindex(*self.mesh.axis_sizes):
            position = dict(zip(names, coords))
            index = []
            for axis, size in enumerate(shard):
                entry = self.spec[axis] if axis < len(self.spec) else None
                piece = 0
                for name in _entry_axes(entry):  # row-major over the entry's mesh axes
                    piece = piece * self.mesh.shape[name] + position[name]
                whole = size == global_shape[axis]
                index.append(slice(None) if whole else slice(piece * size, (piece + 1) * size))
            out[self.mesh.devices[coords]] = tuple(index)
        return out

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, NamedSharding)
            and other.mesh == self.mesh
            and tuple(other.spec) == tuple(self.spec)
            and (other.spec.unreduced, other.spec.reduced)
            == (self.spec.unreduced, self.spec.reduced)
        )

    def __hash__(self) -> int:
        return hash((self.mesh, self.spec))

    def __repr__(self) -> str:
        if not isinstance(self.mesh, Mesh):  # a type's sharding, as JAX prints it
            return f"NamedSharding(mesh={self.mesh!r}, spec={self.spec!r})"
        axes = ", ".join(f"{n!r}: {s}" for n, s in zip(self.mesh.axis_names, self.mesh.axis_sizes))
        mesh = f"Mesh({axes}, axis_types={self.mesh.axis_types!r})"
        return f"NamedSharding(mesh={mesh}, spec={self.spec!r}, memory_kind=device)"


# Checks of a `device_put` inside `jit` (`sharding_types.check_put_in_jit`, which reads the
# jitted arguments' types and so sits above this module, registers itself when it loads).
_PUT_IN_JIT_CHECKS: list[Callable[[Any, Any], None]] = []


def on_put_in_jit(check: Callable[[Any, Any], None]) -> None:
    """Registers `check(tracer, target)`, run for every `device_put` of a value `jit` traces."""
    _PUT_IN_JIT_CHECKS.append(check)


def _resolve(sharding: Any, where: str) -> Sharding | None:
    """A `Sharding` from a sharding, a device, or a bare `PartitionSpec` (over the current
    mesh); None stays None (no constraint)."""
    if sharding is None:
        return None
    if isinstance(sharding, PartitionSpec):
        mesh = get_mesh()
        if mesh.empty:
            raise NoMeshError(where)
        return NamedSharding(mesh, sharding)
    return as_sharding(sharding)


def _is_spec_leaf(x: Any) -> bool:
    return x is None or isinstance(x, (Sharding, PartitionSpec)) or hasattr(x, "platform")


def place(x: Any, shardings: Any, where: str, *, full_rank: bool = False) -> Any:
    """Every leaf of `x` as an `Array` checked against, and placed by, its sharding; traced
    leaves are checked and returned as they are.

    Args:
      x: a pytree of arrays or scalars.
      shardings: one sharding (or device, or `PartitionSpec`) for every leaf, or a tree of
        them shaped like (a prefix of) `x`.
      where: the API name, for error messages.
      full_rank: record a `NamedSharding`'s spec with one entry per array axis (`None` for
        the missing ones and for `UNCONSTRAINED`), as JAX records a computation's output.

    Returns:
      The placed pytree.
    """

    def one(sharding: Any, subtree: Any) -> Any:
        resolved = _resolve(sharding, where)
        if where == "with_sharding_constraint" and isinstance(resolved, NamedSharding):
            _check_auto_axes(resolved)

        def leaf(v: Any) -> Any:
            arr = as_value(v)
            if resolved is None:
                return arr
            target = resolved
            if isinstance(resolved, NamedSharding):
                resolved.check_shape(arr.shape, where)
                if full_rank:
                    target = _full_rank(resolved, len(arr.shape))
            if isinstance(arr, JaxprTracer) and where == "device_put":
                for check in _PUT_IN_JIT_CHECKS:
                    check(arr, target)
            if isinstance(arr, JaxprTracer) and isinstance(target, NamedSharding):
                constrain(arr.var, target)  # what `jit`'s results follow
            if where == "with_sharding_constraint" and isinstance(arr, Tracer):
                return _bind_constraint(arr, sharding, resolved)
            if (
                isinstance(arr, Array)
                and isinstance(target, NamedSharding)
                and target.spec.unreduced
            ):
                target = target.summing(arr.sharding)
            if isinstance(arr, PRNGKeyArray):  # keys: their data, its word axis unsharded
                if isinstance(target, NamedSharding):
                    target = _full_rank(target, len(arr.shape) + 1)
                return PRNGKeyArray(placed(arr._base, target), arr.impl)
            return placed(arr, target) if isinstance(arr, Array) else arr

        return tree_util.tree_map(leaf, subtree)

    if not _is_spec_leaf(shardings) and tree_util.is_tree_node(type(shardings)):
        try:
            return tree_util.tree_map(one, shardings, x, is_leaf=_is_spec_leaf)
        except tree_util.PyTreeStructureError:
            if where != "device_put":
                raise
            spec_tree = tree_util.tree_structure(shardings, is_leaf=_is_spec_leaf)
            raise tree_util.PyTreeStructureError(
                "device_put device specification must be a tree prefix of the corresponding "
                "value;" + mismatch_details(spec_tree, x, "device_put device")
            ) from None
    return one(shardings, x)  # a bad value raises core.devices.DeviceError, naming the fix


def _unconstrained_dims(sharding: NamedSharding) -> frozenset:
    return frozenset(i for i, p in enumerate(sharding.spec) if p is PartitionSpec.UNCONSTRAINED)


def _bind_constraint(x: Tracer, given: Any, resolved: Sharding) -> Any:
    """JAX's `sharding_constraint` equation on a traced value constrained to a `NamedSharding`
    (with its parameters: a `PartitionSpec`'s sharding over the abstract context mesh, the
    context mesh, the `UNCONSTRAINED` axes); other shardings constrain nothing."""
    if not isinstance(resolved, NamedSharding):
        return x
    abstract = get_abstract_mesh()
    sharding = NamedSharding(abstract, given) if isinstance(given, PartitionSpec) else resolved
    out = sharding_constraint_p.bind(
        x,
        sharding=sharding,
        layout=None,
        context_mesh=get_mesh() if abstract.empty else abstract,
        unconstrained_dims=_unconstrained_dims(sharding),
    )
    if isinstance(out, JaxprTracer):
        constrain(out.var, resolved)
    return out


def _sharding_constraint_transpose(ct: Any, x: Any, **params: Any) -> list:
    return [ct if type(ct) is Zero else sharding_constraint_p.bind(ct, **params)]


def _sharding_constraint_batch(args: list, dims: list, *, sharding: Any, **params: Any) -> tuple:
    # JAX's rule (no spmd_axis_name): the batch axis is an unconstrained axis of the sharding
    # (a sharding that splits nothing keeps its spec, whose axis `d` becomes unconstrained)
    (x,), (d,) = args, dims
    dims_ = {u + (d <= u) for u in params.pop("unconstrained_dims")} | {d}
    ndim = get_aval(x).ndim
    spec = list(sharding.spec)
    if any(sharding.mesh.shape[n] > 1 for entry in spec for n in _entry_axes(entry)):
        spec += [None] * (ndim - 1 - len(spec))
        spec.insert(d, None)
    spec += [None] * (ndim - len(spec))
    for u in dims_:
        spec[u] = PartitionSpec.UNCONSTRAINED
    batched = NamedSharding(sharding.mesh, PartitionSpec(*spec))
    out = sharding_constraint_p.bind(
        x, sharding=batched, unconstrained_dims=frozenset(dims_), **params
    )
    return out, d


# JAX's primitive of `with_sharding_constraint` on traced values: the value passes through (it
# lives in host memory), eagerly and compiled (`jit` inlines the identity)
sharding_constraint_p = Primitive("sharding_constraint")
sharding_constraint_p.def_impl(lambda x, **params: x)
sharding_constraint_p.def_abstract_eval(lambda x, **params: x)
sharding_constraint_p.def_composition(lambda x, **params: x)
deflinear(sharding_constraint_p)
sharding_constraint_p.def_transpose(_sharding_constraint_transpose)
sharding_constraint_p.def_batch(_sharding_constraint_batch)
prng.def_physical_like(sharding_constraint_p)  # keys pass through as their data


def with_sharding_constraint(x: Any, shardings: Any) -> Any:
    """`x` constrained to `shardings` (`jax.lax.with_sharding_constraint`).

    Checks every leaf against its sharding (a `Sharding`, or a `PartitionSpec` over the current
    mesh) and records it on concrete arrays; values are unchanged. Works under `jit`, `grad`
    and `vmap`.

    Args:
      x: an array or pytree of arrays.
      shardings: one sharding, or a tree of them matching (a prefix of) `x`.

    Returns:
      `x`, placed.
    """
    return place(x, shardings, "with_sharding_constraint")


def _check_auto_axes(sharding: NamedSharding) -> None:
    """JAX 0.10.2's error for a constraint naming an Explicit axis of the mesh (as the current
    abstract mesh types it, inside `explicit_axes`/`auto_axes`)."""
    mesh = sharding.mesh
    current = get_abstract_mesh()
    source = current if current.shape_tuple == mesh.shape_tuple else mesh
    types = dict(zip(source.axis_names, source.axis_types))
    named = [n for e in sharding.spec for n in _entry_axes(e)]
    if any(types.get(n) is AxisType.Explicit for n in named):
        abstract = mesh.abstract_mesh if source is mesh else source
        raise ExplicitAxisConstraintError(sharding.spec, abstract)


def _full_rank(sharding: NamedSharding, ndim: int) -> NamedSharding:
    """`sharding` with a spec of one entry per axis (JAX's `_normalized_spec_for_aval`)."""
    spec = [None if p is PartitionSpec.UNCONSTRAINED else p for p in sharding.spec]
    spec += [None] * (ndim - len(spec))
    if tuple(spec) == tuple(sharding.spec):
        return sharding
    unreduced, reduced = sharding.spec.unreduced, sharding.spec.reduced
    return NamedSharding(sharding.mesh, PartitionSpec(*spec, unreduced=unreduced, reduced=reduced))


def reshard(x: Any, out_shardings: Any) -> Any:
    """`x` placed by `out_shardings` (`jax.sharding.reshard`); see `with_sharding_constraint`.
    The result's spec has one entry per axis, as in JAX (`P('batch', None)` for a matrix
    resharded by `P('batch')`).

    Args:
      x: an array or pytree of arrays.
      out_shardings: one sharding (a `NamedSharding`, or a `PartitionSpec` over the current
        mesh), or a tree of them matching (a prefix of) `x`; their specs may name only
        `Explicit` mesh axes.

    Returns:
      `x`, placed.

    Raises:
      AutoAxisShardingError: a spec names an `Auto` or `Manual` mesh axis.
    """
    return resharded(x, out_shardings, "reshard")


def resharded(x: Any, out_shardings: Any, where: str) -> Any:
    """`reshard` for the `out_sharding` of API `where` (`dot_general`, `jnp.zeros`, ...),
    whose name JAX's error for an `Auto` axis gives.

    Args:
      x, out_shardings: as `reshard`'s.
      where: the API's name.

    Returns:
      `x`, placed.
    """
    for leaf in tree_util.tree_leaves(out_shardings, is_leaf=_is_spec_leaf):
        _check_explicit_spec(leaf, where)
    return place(x, out_shardings, where, full_rank=True)


def placed_by(
    x: Any, device: Any, out_sharding: Any, where: str, *, host_data: bool = False
) -> Any:
    """`x` placed by the `device=` or the `out_sharding=` of array-creating API `where`
    (`jnp.zeros`, `jax.random.normal`, ...), as JAX's `choose_device_or_out_sharding`; with
    neither, on the mesh `set_mesh` set, if any (`on_context_mesh`).

    Args:
      x: the created array (or pytree of arrays).
      device: a device or a `Sharding` (as `device_put`'s), or None.
      out_sharding: a `PartitionSpec` over the current mesh or a `NamedSharding` (as
        `reshard`'s), or None.
      where: the API's name, for the errors.
      host_data: `x` was made from host data (`jnp.array` of numpy arrays or lists) rather
        than computed (see `on_context_mesh`).

    Returns:
      `x`, placed.

    Raises:
      DeviceAndShardingError: both are given.
    """
    if device is not None and out_sharding is not None:
        raise DeviceAndShardingError(device, out_sharding)
    if out_sharding is not None:
        return resharded(x, out_sharding, where)
    if device is not None:
        return place(x, device, where)
    return on_context_mesh(x, host_data)


def like_sharding(x: Any, shape: Any, weak_type: bool) -> Sharding | None:
    """The sharding an array made like `x` (`jnp.zeros_like`, `lax.full_like`, ...) with no
    `device`/`out_sharding` takes, as JAX's `lax.full_like` chooses it for a concrete array:
    `x`'s own when `x` is committed, the result is not weakly typed, and the shape is `x`'s
    (or `x` is fully replicated). Partial: a traced `x` gives None (JAX types the result with
    the tracer's sharding; numbax's propagation sees a constant, `core/sharding_types.py`).

    Args:
      x: the array the result is made like.
      shape: the result's shape, or None for `x`'s.
      weak_type: whether the result is weakly typed.

    Returns:
      The sharding to place the result by, or None (the default placement).
    """
    if weak_type or not isinstance(x, Array) or not x.committed:
        return None
    sharding = x.sharding
    if shape is not None and tuple(shape) != x.shape and not sharding.is_fully_replicated:
        return None
    return sharding


@functools.lru_cache(maxsize=1024)
def result_sharding(mesh: Mesh, spec: tuple) -> NamedSharding:
    """The `NamedSharding` JAX reports for a result over `mesh` whose axes are sharded by
    `spec` (one entry per axis, None or a tuple of mesh axis names): printed with one entry per
    axis over a mesh of `Explicit` axes (the sharding in the type), trailing Nones dropped
    otherwise."""
    explicit = bool(mesh.axis_types) and all(t is AxisType.Explicit for t in mesh.axis_types)
    return NamedSharding(mesh, as_partition_spec(spec, full_rank=explicit))


def untyped_results(out: Any) -> Any:
    """The arrays of `out` with their `NamedSharding` specs as XLA's propagation reports them,
    without trailing Nones: a `jit` with `in_shardings` called on data not placed by a
    `NamedSharding` gives such results in JAX 0.10.2 (its inputs' types carry no sharding), where
    typed inputs give one entry per axis.

    Args:
      out: the jitted call's results (a pytree).

    Returns:
      `out`, its arrays re-placed where a spec ends in None.
    """

    def one(leaf: Any) -> Any:
        sharding = getattr(leaf, "_sharding", None) if isinstance(leaf, Array) else None
        if not isinstance(sharding, NamedSharding) or not sharding.spec:
            return leaf
        entries = list(sharding.spec)
        if entries[-1] is not None:
            return leaf
        while entries and entries[-1] is None:
            entries.pop()
        spec = sharding.spec
        target = NamedSharding(
            sharding.mesh, PartitionSpec(*entries, unreduced=spec.unreduced, reduced=spec.reduced)
        )
        if leaf.is_ready():
            return Array._placed(leaf._value, leaf._aval, target)
        leaf._sharding = target  # a pending output: made for this call alone
        return leaf

    return tree_util.tree_map(one, out)


def on_context_mesh(x: Any, host_data: bool = False) -> Any:
    """The arrays of `x` not placed yet, placed on the mesh `set_mesh` set (as it is without
    one): replicated, as JAX places what it computes under a mesh (`P(None, None)` for a
    matrix over `Explicit` axes, `P()` over `Auto` ones), or `P()` for arrays made from host
    data (what `jnp.array` of a numpy array gives)."""
    mesh = get_mesh()
    if mesh.empty:
        return x

    def one(leaf: Any) -> Any:
        if not isinstance(leaf, Array) or hasattr(leaf, "_sharding"):
            return leaf
        spec = () if host_data else (None,) * leaf.ndim
        return Array._placed(leaf._value, leaf._aval, result_sharding(mesh, spec))

    return tree_util.tree_map(one, x)


def takes_out_sharding(
    fn: Callable[..., Any] | None = None, *, exempt: bool = False
) -> Callable[..., Any]:
    """`fn` with JAX's keyword-only `out_sharding=None` argument (of `jax.random.normal`,
    `jnp.repeat`, `lax.dot_general`, ...): the result is placed by it (`resharded`); the
    values do not change.

    Args:
      fn: an array-creating function without the argument (omitted: a decorator is returned).
      exempt: with an `out_sharding`, `fn` runs under `core.sharding_exemptions.unchecked`:
        its operands may then be sharded as its type rule alone refuses (a product's
        contracted axes over `Explicit` mesh axes, a reshape the rule finds ambiguous), as
        in JAX.

    Returns:
      The function, its signature extended by `out_sharding`.
    """
    if fn is None:
        return functools.partial(takes_out_sharding, exempt=exempt)

    @functools.wraps(fn)
    def placed_fn(*args: Any, out_sharding: Any = None, **kwargs: Any) -> Any:
        if out_sharding is None:
            return fn(*args, **kwargs)
        with unchecked() if exempt else contextlib.nullcontext():
            out = fn(*args, **kwargs)
        return resharded(out, out_sharding, fn.__name__)

    signature = inspect.signature(fn)
    extra = inspect.Parameter("out_sharding", inspect.Parameter.KEYWORD_ONLY, default=None)
    placed_fn.__signature__ = signature.replace(parameters=[*signature.parameters.values(), extra])
    return placed_fn


def _check_explicit_spec(sharding: Any, where: str) -> None:
    """Raises `AutoAxisShardingError` if `sharding` (a `PartitionSpec` over the current mesh,
    or a `NamedSharding`) names a mesh axis that is not `Explicit`: the current abstract
    mesh's type when it has the sharding's axes (`auto_axes`), else its mesh's."""
    if isinstance(sharding, PartitionSpec):
        spec, mesh = sharding, get_mesh()
    elif isinstance(sharding, NamedSharding):
        spec, mesh = sharding.spec, sharding.mesh
    else:
        return
    current = get_abstract_mesh()
    types = dict(zip(mesh.axis_names, mesh.axis_types))
    if current.shape_tuple == mesh.shape_tuple:
        types = dict(zip(current.axis_names, current.axis_types))
    for entry in spec:
        for name in _entry_axes(entry):
            if types.get(name, AxisType.Explicit) is not AxisType.Explicit:
                raise AutoAxisShardingError(where, spec, name, types[name])
