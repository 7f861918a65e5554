"""`shard_map` (`jax.shard_map`): run a function on every block of its inputs over a device mesh.

Each input is cut into blocks by its `PartitionSpec` (array axis `d` split over the mesh axes
named by `spec[d]`); the function sees one block and the mesh axis names bound, so `lax.psum`,
`all_gather`, `axis_index`, `ppermute`... reduce across blocks; the outputs are put back
together by `out_specs` (an axis a spec does not name must be the same in every block). numbax
runs the blocks as nested `vmap`s over the mesh axes, one per axis with `axis_name` set, on the
calling thread: the values are JAX's, and it composes with `jit`, `grad` and `vmap`, but the
blocks are not spread over the devices (a `pure_callback` without a `vmap_method` is called
once per block, as JAX calls it once per device). With `check_vma=True` an output whose spec
leaves out a mesh axis must not vary along it (checked while tracing, like JAX's static check);
with `check_vma=False` the block at index 0 of that axis is returned, as JAX does.
"""

from __future__ import annotations

import functools
import math
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from core import numpy as jnp
from core import tree_util
from core.api import vmap
from core.errors import ShardMapOutSpecError, ShardMapSpecError, VmapAxesError
from core.interpreters import batching
from core.mesh import Mesh, get_mesh
from core.placement import device_put
from core.sharding import NamedSharding, PartitionSpec
from core.sharding_exemptions import unchecked
from core.trace import EvalTrace, Tracer, current_trace


def _entry_axes(entry: Any) -> tuple:
    if entry is None:
        return ()
    return tuple(entry) if isinstance(entry, (tuple, list)) else (entry,)


def _is_spec(x: Any) -> bool:
    return isinstance(x, PartitionSpec)


def _leaf_specs(specs: Any, tree: Any, what: str) -> list[PartitionSpec]:
    """One spec per leaf of `tree`, from `specs`, a spec or a tree prefix of specs."""
    try:
        spread = tree_util.tree_map(
            lambda spec, sub: tree_util.tree_map(lambda _: spec, sub), specs, tree, is_leaf=_is_spec
        )
    except ValueError as e:
        raise ShardMapSpecError(
            f"shard_map {what} must be a PartitionSpec or a tree of them matching (a prefix "
            f"of) the {what.split('_')[0]}puts: {e}"
        ) from None
    return tree_util.tree_leaves(spread, is_leaf=_is_spec)


def _check_spec(spec: PartitionSpec, mesh: Mesh, what: str) -> None:
    if not isinstance(spec, PartitionSpec):
        raise ShardMapSpecError(f"shard_map {what} entries must be PartitionSpecs, got {spec!r}.")
    used = [a for e in spec for a in _entry_axes(e)]
    for name in used:
        if name not in mesh.axis_names:
            raise ShardMapSpecError(
                f"shard_map {what} {spec} names mesh axis {name!r}, but the mesh has only "
                f"{mesh.axis_names}."
            )
    if len(set(used)) != len(used):
        raise ShardMapSpecError(f"shard_map {what} {spec} uses a mesh axis twice.")


def _split(x: Any, spec: PartitionSpec, mesh: Mesh, index: int) -> tuple[Any, list[str]]:
    """`x` reshaped so every mesh axis its spec names is a leading axis, in mesh order."""
    x = jnp.asarray(x)
    if len(spec) > x.ndim:
        raise ShardMapSpecError(
            f"shard_map in_specs[{index}] {spec} has more entries than args[{index}] has axes "
            f"(shape {x.shape})."
        )
    shape, position = [], {}
    for d, size in enumerate(x.shape):
        names = _entry_axes(spec[d]) if d < len(spec) else ()
        pieces = math.prod(mesh.shape[n] for n in names)
        if size % pieces:
            raise ShardMapSpecError(
                f"shard_map was given argument arrays with axis sizes that are not evenly "
                f"divisible by the corresponding mesh axis sizes: args[{index}] of shape "
                f"{x.shape}, axis {d} split over mesh axes {names} of total size {pieces}."
            )
        for n in names:
            position[n] = len(shape)
            shape.append(mesh.shape[n])
        shape.append(size // pieces)
    used = [n for n in mesh.axis_names if n in position]
    front = [position[n] for n in used]
    perm = front + [i for i in range(len(shape)) if i not in front]
    return jnp.transpose(x.reshape(shape), perm), used


def _join(y: Any, spec: PartitionSpec, mesh: Mesh, check_vma: bool) -> Any:
    """The inverse of `_split` for an output: leading mesh axes merged into their dims.

    The output has a leading axis for every mesh axis its spec names (and, without
    `check_vma`, for the others too: of those, block 0 is kept)."""
    named = {n for e in spec for n in _entry_axes(e)}
    leading = [n for n in mesh.axis_names if n in named or not check_vma]
    y = y[tuple(slice(None) if n in named else 0 for n in leading)]
    used = [n for n in leading if n in named]
    block = y.shape[len(used) :]
    if len(spec) > len(block):
        raise ShardMapOutSpecError(
            f"shard_map out_specs {spec} has more entries than the output has axes "
            f"(block shape {block})."
        )
    perm, shape = [], []
    for d, size in enumerate(block):
        names = _entry_axes(spec[d]) if d < len(spec) else ()
        perm += [used.index(n) for n in names] + [len(used) + d]
        shape.append(size * math.prod(mesh.shape[n] for n in names))
    return jnp.transpose(y, perm).reshape(shape)


def shard_map(
    f: Callable | None = None,
    /,
    *,
    out_specs: Any,
    in_specs: Any = None,
    mesh: Mesh | None = None,
    axis_names: Any = frozenset(),
    check_vma: bool = True,
) -> Callable:
    """Maps `f` over the blocks of its inputs on `mesh` (`jax.shard_map`).

    Args:
      f: the per-block function (omit it to use `shard_map` as a decorator factory).
      out_specs: a `PartitionSpec`, or a tree of them matching (a prefix of) `f`'s output.
      in_specs: a `PartitionSpec`, or a tree of them matching (a prefix of) the argument tuple;
        default: each argument's own `NamedSharding` spec, else replicated (`P()`).
      mesh: the mesh (default: the current one, `core.set_mesh`).
      axis_names: the mesh axes `f` is manual over; only all of them (the default) is supported.
      check_vma: require outputs to be the same along mesh axes their spec leaves out.

    Returns:
      The mapped function.

    Example::

        >>> mesh = core.make_mesh((4,), ("i",), devices=core.devices()[:4])
        >>> total = shard_map(lambda b: lax.psum(b.sum(), "i"), mesh=mesh,
        ...                   in_specs=P("i"), out_specs=P())
        >>> total(jnp.arange(8.0))
        Array(28., dtype=float32)
    """
    if f is None:
        return functools.partial(
            shard_map,
            out_specs=out_specs,
            in_specs=in_specs,
            mesh=mesh,
            axis_names=axis_names,
            check_vma=check_vma,
        )

    def run(*args: Any) -> Any:
        m = get_mesh() if mesh is None else mesh
        if m.empty:
            raise ShardMapSpecError(
                "shard_map needs a mesh: pass mesh=... or set one with core.set_mesh(mesh)."
            )
        if axis_names and set(axis_names) != set(m.axis_names):
            raise NotImplementedError(
                "shard_map over a subset of the mesh axes (axis_names=...) is not implemented: "
                "numbax maps over every mesh axis."
            )
        specs = in_specs if in_specs is not None else tuple(_own_spec(a, m) for a in args)
        leaves, treedef = tree_util.tree_flatten(args)
        split = []
        for i, (leaf, spec) in enumerate(zip(leaves, _leaf_specs(specs, args, "in_specs"))):
            _check_spec(spec, m, "in_specs")
            split.append(_split(leaf, spec, m, i))
        blocks = [b for b, _ in split]

        eager = type(current_trace()) is EvalTrace

        def body(*block_leaves: Any) -> Any:
            traces = _traces(current_trace(), len(m.axis_names))
            for trace in traces:
                trace.per_device = True
            if not eager:
                return f(*treedef.unflatten(block_leaves))
            for trace in traces:
                trace.boxes_all = True
            boxed = [
                x
                if isinstance(x, batching.BatchTracer)
                else batching.BatchTracer(traces[-1], x, None)
                for x in block_leaves
            ]
            _frames.stack.append((m, traces))
            try:
                return f(*treedef.unflatten(boxed))
            finally:
                _frames.stack.pop()

        fn = body
        for name in reversed(m.axis_names):
            in_axes = [0 if name in used else None for _, used in split]
            out_axes = tree_util.tree_map(
                lambda s, n=name: (
                    0 if any(n in _entry_axes(e) for e in s) or not check_vma else None
                ),
                out_specs,
                is_leaf=_is_spec,
            )
            fn = vmap(
                fn, in_axes=in_axes, out_axes=out_axes, axis_name=name, axis_size=m.shape[name]
            )
        try:
            out = fn(*blocks)
        except VmapAxesError as e:
            raise ShardMapOutSpecError(
                "shard_map out_specs leave out a mesh axis along which an output varies (an "
                "output whose spec does not name a mesh axis must be the same in every block "
                f"along it, e.g. the result of lax.psum over it): {e}"
            ) from e
        out_leaves, out_tree = tree_util.tree_flatten(out)
        joined = []
        for y, spec in zip(out_leaves, _leaf_specs(out_specs, out, "out_specs")):
            _check_spec(spec, m, "out_specs")
            joined.append(_place(_join(y, spec, m, check_vma), spec, m))
        return out_tree.unflatten(joined)

    @functools.wraps(f)
    def mapped(*args: Any) -> Any:
        # the blocks' axes are Manual: JAX checks no Explicit shardings inside, nor splitting
        # the arguments into blocks and joining the results
        with unchecked():
            return run(*args)

    return mapped


class _Frames(threading.local):
    """The eager `shard_map` calls running on this thread: (mesh, the vmap traces of its axes,
    outermost first)."""

    def __init__(self) -> None:
        self.stack: list[tuple[Mesh, list]] = []


_frames = _Frames()


def _traces(inner: Any, n: int) -> list:
    """The `n` traces from `inner` outwards, outermost first."""
    out = [inner]
    while len(out) < n:
        out.append(out[-1].parent)
    return out[::-1]


def _shown_blocks(tracer: batching.BatchTracer) -> str | None:
    """A value of an eager `shard_map`'s body as JAX prints it: each device's block after the
    device and its mesh coordinates; None for a tracer of any other `vmap`."""
    for mesh, traces in reversed(_frames.stack):
        if tracer._trace not in traces:
            continue
        dims: dict = {}
        value = tracer
        while isinstance(value, batching.BatchTracer) and value._trace in traces:
            dims[traces.index(value._trace)] = value.batch_dim
            value = value.val
        if isinstance(value, Tracer):
            return None  # staged (under `jit`): no values
        whole = np.asarray(value)
        names = f"({', '.join(mesh.axis_names)},)"
        shown = []
        for coords in np.ndindex(*mesh.axis_sizes):
            block = whole
            for level, k in enumerate(coords):
                if dims.get(level) is not None:
                    block = np.take(block, k, axis=dims[level])
            device = mesh.devices[coords]
            shown.append(f"On {device} at mesh coordinates {names} = {coords}:\n{block}\n")
        return "\n".join(shown)
    return None


batching.shown_blocks = _shown_blocks


def _place(y: Any, spec: PartitionSpec, mesh: Mesh) -> Any:
    """An eager output laid out as JAX's: `NamedSharding(mesh, spec)` (its blocks one per
    device); traced outputs are left to the enclosing `jit`."""
    if type(current_trace()) is not EvalTrace or not isinstance(mesh, Mesh):
        return y
    return device_put(y, NamedSharding(mesh, spec))


def _own_spec(x: Any, mesh: Mesh) -> PartitionSpec:
    """An argument's spec when `in_specs` is not given: its `NamedSharding` over `mesh`."""
    sharding = getattr(x, "sharding", None)
    spec = getattr(sharding, "spec", None)
    if spec is not None and getattr(sharding, "mesh", None) == mesh:
        return spec
    return PartitionSpec()
