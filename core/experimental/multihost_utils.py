"""`core.experimental.multihost_utils`: moving values between the processes of a
`core.distributed` job outside `pmap` (`jax.experimental.multihost_utils`).

Each function is collective: every process must call it, in the same order. In a single
process (no `core.distributed.initialize()`) they act on that one process alone.
`host_local_array_to_global_array` and `global_array_to_host_local_array` convert between a
process's local data and arrays laid out over a mesh, as JAX 0.10 does with one process: the
global array of the local data is that data placed by `NamedSharding(mesh, spec)`, and a
global array is already host-local (returned as it is; a numpy value is placed like the
other way). Several processes' local data are not gathered into one array (numbax's arrays
under `core.distributed` hold each process's own values): there, use `process_allgather`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core import tree_util
from core.array import Array
from core.devices import process_count, process_index
from core.distributed import process_group, wait_for_all
from core.errors import NumbaxError, ShardingShapeError
from core.mesh import Mesh
from core.named_sharding import NamedSharding
from core.numpy import asarray
from core.sharding_base import PartitionSpec, placed
from core.trace import Tracer, as_value

__all__ = [
    "assert_equal",
    "broadcast_one_to_all",
    "global_array_to_host_local_array",
    "host_local_array_to_global_array",
    "process_allgather",
    "sync_global_devices",
]


class MultihostError(NumbaxError, ValueError):
    """Processes that disagree where they must agree (the source, a barrier name, values).

    Failing code: ``sync_global_devices(f"step {i}")`` with a different ``i`` in each process,
    or ``broadcast_one_to_all(x, is_source=True)`` in every process. Fix: the same barrier
    names in the same order everywhere, and exactly one source process.
    """


class PspecsNoneError(NumbaxError, ValueError):
    """`None` given where a `PartitionSpec` belongs (JAX's ValueError, its message).

    Failing code: ``host_local_array_to_global_array(x, mesh, None)``. Fix: ``PartitionSpec()``
    to replicate the value over the mesh.
    """


class PspecsTreeError(NumbaxError, ValueError):
    """pspecs that are not a tree prefix of the inputs (JAX's ValueError).

    Failing code: ``host_local_array_to_global_array({"a": x}, mesh, {"b": P("x")})``. Fix: one
    `PartitionSpec` for all inputs, or a tree of them shaped like (a prefix of) the inputs.
    """


class NotAMeshError(NumbaxError, AttributeError):
    """A global mesh that is not a `Mesh` (JAX fails with an AttributeError, no `local_mesh`).

    Failing code: ``host_local_array_to_global_array(x, core.devices(), P("x"))``. Fix:
    ``Mesh(np.array(core.devices()), ("x",))``.
    """


class NotAPartitionSpecError(NumbaxError, AttributeError):
    """A pspec that is not a `PartitionSpec` (JAX fails with an AttributeError, no
    `partitions`).

    Failing code: ``host_local_array_to_global_array(x, mesh, "x")``. Fix: ``P("x")``.
    """


def _flat_pspecs(what: str, inputs: Any, pspecs: Any) -> list[Any]:
    """One pspec per leaf of `inputs`, from one pspec or a tree prefix of them."""
    is_leaf = lambda x: x is None or isinstance(x, PartitionSpec)  # noqa: E731
    specs, spec_tree = tree_util.tree_flatten(pspecs, is_leaf=is_leaf)
    try:
        subtrees = spec_tree.flatten_up_to(inputs)
    except (ValueError, TypeError) as e:
        raise PspecsTreeError(
            f"{what} specification must be a tree prefix of the positional arguments tuple: "
            f"got {pspecs!r} for inputs of tree {tree_util.tree_structure(inputs)}. Give one "
            "PartitionSpec, or a tree of "
            "them shaped like (a prefix of) the inputs."
        ) from e
    return [s for s, sub in zip(specs, subtrees) for _ in tree_util.tree_leaves(sub)]


def _check(mesh: Any, spec: Any) -> None:
    if spec is None:
        raise PspecsNoneError(
            "`None` is not a valid input to the pspecs argument. Please use "
            "jax.sharding.PartitionSpec() if you wanted to replicate your input."
        )
    if not isinstance(mesh, Mesh):
        raise NotAMeshError(
            f"{type(mesh).__name__!r} object has no attribute 'local_mesh': the global mesh "
            "must be a Mesh, e.g. Mesh(np.array(core.devices()), ('x',))."
        )
    if not isinstance(spec, PartitionSpec):
        raise NotAPartitionSpecError(
            f"{type(spec).__name__!r} object has no attribute 'partitions': pspecs must be "
            f"PartitionSpecs, e.g. P({spec!r}) instead of {spec!r}."
        )


def _place(x: Any, mesh: Mesh, spec: PartitionSpec) -> Any:
    """`x` as an Array placed by `NamedSharding(mesh, spec)` (checked as JAX checks it: the
    spec's entries past the array's rank may only be None); a tracer as it is."""
    sharding = NamedSharding(mesh, spec)  # unknown or repeated mesh axes raise JAX's errors
    if isinstance(x, Tracer):
        return x
    arr = as_value(x)
    shape = tuple(arr.shape)
    rank = len(shape)
    if len(spec) > rank and any(e is not None for e in spec[rank:]):
        sharding.check_shape(shape, "host_local_array_to_global_array")  # too short: raises
    splits = sharding._splits()[:rank]
    splits += [1] * (rank - len(splits))
    for axis, (dim, n) in enumerate(zip(shape, splits)):
        if dim % n:
            raise ShardingShapeError(  # JAX's IndivisibleError
                f"Sharding {sharding!r} implies that array axis {axis} is partitioned {n} "
                f"times, but the dimension size is {dim} (full shape: {shape}, per-dimension "
                f"tiling factors: {splits} should evenly divide the shape). Give that axis a "
                "size the mesh axes divide, or another spec."
            )
    return placed(arr, sharding)


def host_local_array_to_global_array(local_inputs: Any, global_mesh: Mesh, pspecs: Any) -> Any:
    """This process's values as arrays laid out over `global_mesh`
    (`jax.experimental.multihost_utils.host_local_array_to_global_array`).

    With one process the global array is the local value (numpy values and scalars in their
    canonical dtypes) placed by `NamedSharding(global_mesh, pspec)`; under `jit` a traced
    value is returned as it is.

    Args:
      local_inputs: a pytree of this process's arrays.
      global_mesh: the `Mesh` the arrays are laid out over.
      pspecs: a `PartitionSpec` for every input, or a tree of them matching (a prefix of)
        `local_inputs`.

    Returns:
      The pytree of global `Array`s.

    Raises:
      PspecsNoneError: a pspec is None (use `PartitionSpec()` to replicate).
      PspecsTreeError: `pspecs` is not a tree prefix of `local_inputs`.
      NotAMeshError, NotAPartitionSpecError: arguments of the wrong type.
      MeshAxisNotFoundError, DuplicateSpecError, ShardingShapeError: a spec that does not fit
        the mesh or the array (JAX's ValueErrors).
      MultihostError: with more than one process (gather with `process_allgather`).
    """
    leaves, tree = tree_util.tree_flatten(local_inputs)
    specs = _flat_pspecs("input pspecs", local_inputs, pspecs)
    for spec in specs:
        _check(global_mesh, spec)
    _single_process("host_local_array_to_global_array")
    return tree_util.tree_unflatten(
        tree, [_place(x, global_mesh, spec) for x, spec in zip(leaves, specs)]
    )


def global_array_to_host_local_array(global_inputs: Any, global_mesh: Mesh, pspecs: Any) -> Any:
    """This process's part of global arrays
    (`jax.experimental.multihost_utils.global_array_to_host_local_array`).

    With one process every array is host-local: an `Array` (or a traced value) is returned as
    it is, as JAX returns a fully addressable array; a numpy value or scalar is placed by
    `NamedSharding(global_mesh, pspec)`.

    Args:
      global_inputs: a pytree of global arrays.
      global_mesh: the `Mesh` they are laid out over.
      pspecs: a `PartitionSpec` for every input, or a tree of them matching (a prefix of)
        `global_inputs`.

    Returns:
      The pytree of host-local arrays.

    Raises:
      PspecsNoneError: a pspec is None (use `PartitionSpec()` to replicate).
      PspecsTreeError: `pspecs` is not a tree prefix of `global_inputs`.
      NotAMeshError, NotAPartitionSpecError: for a numpy input, arguments of the wrong type.
      MultihostError: with more than one process.
    """
    leaves, tree = tree_util.tree_flatten(global_inputs)
    specs = _flat_pspecs("output pspecs", global_inputs, pspecs)
    _single_process("global_array_to_host_local_array")
    outs = []
    for x, spec in zip(leaves, specs):
        if spec is None:
            _check(global_mesh, spec)
        if isinstance(x, (Array, Tracer)):
            outs.append(x)
            continue
        _check(global_mesh, spec)
        outs.append(_place(x, global_mesh, spec))
    return tree_util.tree_unflatten(tree, outs)


def _single_process(name: str) -> None:
    if process_count() > 1:
        raise MultihostError(
            f"{name}: numbax converts between host-local and global arrays in a single process "
            f"only ({process_count()} processes here); gather the processes' values with "
            "process_allgather, or run one process."
        )


def _allgather(value: Any) -> list[Any]:
    if process_count() == 1:
        return [value]
    wait_for_all()  # sleeping: MPICH's blocking allgather would spin while it waits
    return process_group().allgather(value)


def process_allgather(in_tree: Any, tiled: bool = False) -> Any:
    """Every process's value of each leaf of `in_tree`, gathered on every process.

    Args:
      in_tree: a pytree of arrays (this process's values; the same structure everywhere).
      tiled: False stacks the processes' values along a new leading axis; True concatenates
        them along axis 0.

    Returns:
      The pytree of numpy arrays holding all processes' values, in process order.
    """
    leaves, tree = tree_util.tree_flatten(in_tree)
    gathered = _allgather([np.asarray(x) for x in leaves])
    join = np.concatenate if tiled else np.stack
    outs = [
        join([np.atleast_1d(p[i]) if tiled else p[i] for p in gathered]) for i in range(len(leaves))
    ]
    return tree_util.tree_unflatten(tree, outs)


def broadcast_one_to_all(in_tree: Any, is_source: bool | None = None) -> Any:
    """The source process's `in_tree` on every process.

    Args:
      in_tree: a pytree of arrays; only the source's values matter, but every process passes
        one of the same structure.
      is_source: whether this process is the source (default: process 0 is); exactly one
        process may be.

    Returns:
      The source's pytree, as numpy arrays (as JAX's: with one process the leaves as given,
      dtypes kept; with several, each leaf in JAX's canonical dtype, as JAX's jitted psum
      gives it).

    Raises:
      MultihostError: when not exactly one process is the source.
    """
    source = process_index() == 0 if is_source is None else bool(is_source)
    flags = _allgather(source)
    if sum(flags) != 1:
        raise MultihostError(
            f"broadcast_one_to_all: exactly one process must be the source, got processes "
            f"{[i for i, f in enumerate(flags) if f]}; pass is_source=True on one process only."
        )
    root = flags.index(True)
    leaves, tree = tree_util.tree_flatten(in_tree)
    values = [np.asarray(x) for x in leaves]
    if process_count() > 1:  # everyone arrived at `_allgather` above: no long wait here
        values = process_group().bcast(values, root=root)
        values = [np.asarray(asarray(v)) for v in values]
    return tree_util.tree_unflatten(tree, values)


def sync_global_devices(name: str) -> None:
    """Waits until every process reaches the barrier called `name`.

    Raises:
      MultihostError: when the processes arrive at barriers of different names (their
        programs have diverged).
    """
    names = _allgather(str(name))
    if len(set(names)) != 1:
        raise MultihostError(
            f"sync_global_devices: the processes reached different barriers: {names}; every "
            "process must call the same barriers in the same order."
        )


def assert_equal(in_tree: Any, fail_message: str = "") -> None:
    """Raises `MultihostError` unless every process passes equal values (and structure)."""
    leaves, tree = tree_util.tree_flatten(in_tree)
    gathered = _allgather((str(tree), [np.asarray(x) for x in leaves]))
    first_tree, first = gathered[0]
    for p, (t, values) in enumerate(gathered):
        same = t == first_tree and all(
            a.shape == b.shape and np.array_equal(a, b) for a, b in zip(values, first)
        )
        if not same:
            raise MultihostError(
                f"{fail_message} Process {p}'s values differ from process 0's.".strip()
            )
