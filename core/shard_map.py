"""`shard_map` (`jax.shard_map`): run a function on every block of its inputs over a device mesh.

Each input is cut into blocks by its `PartitionSpec` (array axis `d` split over the mesh axes
named by `spec[d]`); the function sees one block and the mesh axis names bound, so `lax.psum`,
`all_gather`, `axis_index`, `ppermute`... reduce across blocks; the outputs are put back
together by `out_specs` (an axis a spec does not name must be the same in every block).

Called on tracers (`jit`, `make_jaxpr`, `grad`, `vmap`), `shard_map` stages `f` on one block's
abstract values and binds the `shard_map` primitive (`core/shard_map_prim.py`), which prints
JAX 0.10.2's `shard_map[...]` equation and has every transformation rule; with
`check_vma=True` its body is typed by JAX's varying manual axes (`core/shard_map_vma.py`) and
an output whose spec leaves out a mesh axis it varies along is JAX's error while tracing.
Called eagerly, `f` runs once on the blocks as nested `vmap`s over the mesh axes, and a value
printed inside shows each device's block as JAX prints it; with `check_vma=True` a block's vma
is the set of mesh axes it is batched along (a `pvary` or `all_gather` gives each device its
copy), and the outputs are checked against `out_specs` by it, with JAX's error.

Either way the blocks are computed as nested `vmap`s on the calling thread (or in the compiled
program): the values are JAX's, but the blocks are not spread over the devices (a
`pure_callback` without a `vmap_method` is called once per block, as JAX calls it once per
device). With `check_vma=False` the block at index 0 of an axis an output's spec leaves out is
returned, as JAX does. Partial: `axis_names` (a subset of the mesh axes) is not supported.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from core import numpy as jnp
from core import tree_util
from core.avals import typed, vma_of
from core.errors import ShardMapSpecError
from core.interpreters import batching
from core.interpreters.partial_eval import trace_to_closed_jaxpr
from core.mesh import Mesh, get_mesh
from core.shard_map_prim import (
    axes_bound,
    block_aval,
    entry_axes,
    join,
    nested_vmaps,
    place,
    shard_map_p,
    split,
    traces,
)
from core.shard_map_vma import annotate, check_outputs, spec_axes, typing, vary_outputs
from core.sharding import AxisType, Infer, PartitionSpec
from core.sharding_exemptions import unchecked
from core.sharding_types import typeof
from core.trace import EvalTrace, Tracer, current_trace, get_aval


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
            f"{e}\nshard_map {what} must be a PartitionSpec or a tree of them matching (a "
            f"prefix of) the {what.split('_')[0]}puts."
        ) from None
    return tree_util.tree_leaves(spread, is_leaf=_is_spec)


def _leaf_spec_names(specs: Any, tree: Any) -> list[str]:
    """For each leaf of `tree`, where its spec sits in `out_specs` as JAX's errors name it
    (`out_specs`, `out_specs[1]`, ...)."""
    paths, treedef = tree_util.tree_flatten_with_path(specs, is_leaf=_is_spec)
    names = treedef.unflatten([f"out_specs{tree_util.keystr(path)}" for path, _ in paths])
    spread = tree_util.tree_map(
        lambda name, sub: tree_util.tree_map(lambda _: name, sub), names, tree
    )
    return tree_util.tree_leaves(spread)


def _check_spec(spec: PartitionSpec, mesh: Mesh, what: str) -> None:
    if not isinstance(spec, PartitionSpec):
        raise ShardMapSpecError(f"shard_map {what} entries must be PartitionSpecs, got {spec!r}.")
    used = [a for e in spec for a in entry_axes(e)]
    for name in used:
        if name not in mesh.axis_names:
            raise ShardMapSpecError(
                f"shard_map {what} argument must refer to an axis marked as manual "
                f"({frozenset(mesh.axis_names)}), but:\n{what} {spec} names mesh axis "
                f"{name!r}, and the mesh has only {mesh.axis_names}."
            )
    if len(set(used)) != len(used):
        raise ShardMapSpecError(f"shard_map {what} {spec} uses a mesh axis twice.")


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
        default: each argument leaf's type's spec (its sharding over `Explicit` axes, as
        JAX infers it), else replicated (`P()`).
      mesh: the mesh (default: the current one, `core.set_mesh`).
      axis_names: the mesh axes `f` is manual over; only all of them (the default) is supported.
      check_vma: require outputs to be the same along mesh axes their spec leaves out.

    Returns:
      The mapped function.

    Example::

        >>> mesh = core.sharding.Mesh(core.devices()[:4], ("i",))  # Auto axes
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
                "The context mesh cannot be empty. Use `jax.set_mesh(mesh)` to enter into a "
                "mesh context\nshard_map needs a mesh: pass mesh=... or set one with "
                "core.set_mesh(mesh)."
            )
        if axis_names and set(axis_names) != set(m.axis_names):
            raise NotImplementedError(
                "shard_map over a subset of the mesh axes (axis_names=...) is not implemented: "
                "numbax maps over every mesh axis."
            )
        specs = in_specs if in_specs is not None else tree_util.tree_map(_own_spec, args)
        leaves, treedef = tree_util.tree_flatten(args)
        leaf_specs = _leaf_specs(specs, args, "in_specs")
        for i, (leaf, spec) in enumerate(zip(leaves, leaf_specs)):
            _check_spec(spec, m, "in_specs")
            block_aval(get_aval(leaf), spec, m, i, getattr(f, "__name__", "fun"))
        if in_specs is not None:
            _check_explicit_inputs(m, leaves, leaf_specs)
        if type(current_trace()) is EvalTrace:
            return _eager(f, m, leaves, treedef, leaf_specs, out_specs, check_vma)
        return _staged(f, m, leaves, treedef, leaf_specs, out_specs, check_vma)

    @functools.wraps(f)
    def mapped(*args: Any) -> Any:
        # the blocks' axes are Manual: JAX checks no Explicit shardings inside, nor splitting
        # the arguments into blocks and joining the results
        with unchecked():
            return run(*args)

    return mapped


def _eager(f, m: Mesh, leaves, treedef, leaf_specs, out_specs, check_vma: bool) -> Any:
    """An eager `shard_map`: `f` runs once on the blocks as nested `vmap`s over the mesh axes,
    its values shown per device (`_shown_blocks`)."""
    pieces = [split(leaf, spec, m, i) for i, (leaf, spec) in enumerate(zip(leaves, leaf_specs))]
    order = tuple(m.axis_names) if check_vma else None

    def body(*block_leaves: Any) -> Any:
        axis_traces = traces(current_trace(), len(m.axis_names))
        for trace in axis_traces:
            trace.per_device = True
            trace.boxes_all = True
            trace.vma_order = order  # the blocks typed by vma (None: not)
        boxed = [
            x
            if isinstance(x, batching.BatchTracer)
            else batching.BatchTracer(axis_traces[-1], x, None)
            for x in block_leaves
        ]
        _frames.stack.append((m, axis_traces))
        try:
            with typing(order):
                out = f(*treedef.unflatten(boxed))
        finally:
            _frames.stack.pop()
        if check_vma:  # JAX's static replication check, on the blocks' vma
            vmas = [vma_of(getattr(o, "aval", None)) for o in tree_util.tree_leaves(out)]
            specs = _leaf_specs(out_specs, out, "out_specs")
            names = _leaf_spec_names(out_specs, out)
            check_outputs(vmas, specs, names, m, getattr(f, "__name__", str(f)))
        return out

    fn = nested_vmaps(body, m, [used for _, used in pieces], out_specs, check_vma)
    out = fn(*[b for b, _ in pieces])
    out_leaves, out_tree = tree_util.tree_flatten(out)
    joined = []
    for y, spec in zip(out_leaves, _leaf_specs(out_specs, out, "out_specs")):
        _check_spec(spec, m, "out_specs")
        joined.append(place(join(y, spec, m, check_vma), spec, m))
    return out_tree.unflatten(joined)


def _staged(f, m: Mesh, leaves, treedef, leaf_specs, out_specs, check_vma: bool) -> Any:
    """A traced `shard_map`: `f` staged on one block's avals and bound as `shard_map_p`
    (its body typed by vma and checked against `out_specs` with `check_vma`, as JAX does)."""
    leaves = [jnp.asarray(leaf) for leaf in leaves]
    order = tuple(m.axis_names)
    avals = [block_aval(get_aval(x), s, m, i) for i, (x, s) in enumerate(zip(leaves, leaf_specs))]
    if check_vma:  # the body's values typed by vma while it is traced, as JAX's
        avals = [typed(a, spec_axes(s), order) for a, s in zip(avals, leaf_specs)]
    found: dict = {}

    def flat(*block_leaves: Any) -> list:
        out = f(*treedef.unflatten(block_leaves))
        found["out"] = out
        out_leaves, found["tree"] = tree_util.tree_flatten(out)
        return out_leaves

    with axes_bound(m), typing(order if check_vma else None):
        jaxpr, consts = trace_to_closed_jaxpr(flat, avals, dce=False)
    leaf_out_specs = _leaf_specs(out_specs, found["out"], "out_specs")
    for spec in leaf_out_specs:
        _check_spec(spec, m, "out_specs")
    all_specs = (PartitionSpec(),) * len(consts) + tuple(leaf_specs)
    if check_vma:
        jaxpr, out_vmas = annotate(jaxpr, [spec_axes(s) for s in all_specs], order)
        names = _leaf_spec_names(out_specs, found["out"])
        check_outputs(out_vmas, leaf_out_specs, names, m, getattr(f, "__name__", str(f)))
        jaxpr = vary_outputs(jaxpr, out_vmas, [spec_axes(s) for s in leaf_out_specs], order)
    outs = shard_map_p.bind(
        *consts,
        *leaves,
        jaxpr=jaxpr,
        mesh=m,
        in_specs=all_specs,
        out_specs=tuple(leaf_out_specs),
        check_vma=bool(check_vma),
        manual_axes=frozenset(m.axis_names),
    )
    return found["tree"].unflatten(outs)


class _Frames(threading.local):
    """The eager `shard_map` calls running on this thread: (mesh, the vmap traces of its axes,
    outermost first)."""

    def __init__(self) -> None:
        self.stack: list[tuple[Mesh, list]] = []


_frames = _Frames()


def _shown_blocks(tracer: batching.BatchTracer) -> str | None:
    """A value of an eager `shard_map`'s body as JAX prints it: each device's block after the
    device and its mesh coordinates; None for a tracer of any other `vmap`."""
    for mesh, axis_traces in reversed(_frames.stack):
        if tracer._trace not in axis_traces:
            continue
        dims: dict = {}
        value = tracer
        while isinstance(value, batching.BatchTracer) and value._trace in axis_traces:
            dims[axis_traces.index(value._trace)] = value.batch_dim
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


def _check_explicit_inputs(m: Mesh, leaves: list, leaf_specs: list) -> None:
    """Over a mesh whose axes are all `Explicit` (`make_mesh`'s default), JAX 0.10.2's check
    that each argument's type already has its `in_specs` sharding: shard_map does not
    reshard typed inputs."""
    if not m.axis_names or any(t != AxisType.Explicit for t in m.axis_types):
        return
    for leaf, spec in zip(leaves, leaf_specs):
        aval = typeof(leaf)
        want = PartitionSpec(*spec, *[None] * (aval.ndim - len(spec)))
        if aval.sharding.spec != want:
            raise ShardMapSpecError(
                f"in_specs passed to shard_map: {want} does not match the specs of the input: "
                f"{aval.sharding.spec} for arg: {aval.str_short()}. `in_specs` is an optional "
                "argument so you can omit specifying it and shard_map will infer the in_specs "
                "from the arguments. If you want to reshard your inputs, you can use "
                "`jax.reshard` on the arguments and then pass those args to shard_map.\nTo "
                "split an unplaced argument, `device_put` it with NamedSharding(mesh, spec) "
                "first, or use a mesh of Auto axes."
            )


def _own_spec(x: Any) -> PartitionSpec:
    """An argument leaf's spec when `in_specs` is not given, as JAX infers it: the spec of its
    type (`typeof(x).sharding.spec`, its `Explicit` axes), also for values traced by `jit`."""
    return typeof(x).sharding.spec


def smap(
    f: Callable | None = None,
    /,
    *,
    in_axes: Any = Infer,
    out_axes: Any,
    axis_name: Any,
) -> Callable:
    """`jax.smap`: `shard_map` over the one mesh axis `axis_name` of the context mesh
    (`core.set_mesh`), with vmap-style axes: `in_axes`/`out_axes` entries are the positions of
    the mapped axis (None: not mapped), like `shard_map` with `P(None, ..., axis_name)` specs.

    Args:
      f: the per-block function (omit it to use `smap` as a decorator factory).
      in_axes: an int, None, `core.sharding.Infer` (the arguments' shardings, over an
        `Explicit` axis) or a tuple of them, one per positional argument.
      out_axes: an int, None, or a pytree of them matching `f`'s output.
      axis_name: the mesh axis (a name, not a tuple).

    Returns:
      The mapped function.
    """
    if isinstance(axis_name, (list, tuple)):
        raise TypeError(f"smap axis_name should be a `str` or a `Hashable`, but got {axis_name}")
    if in_axes is not None and in_axes is not Infer and not isinstance(in_axes, (int, tuple)):
        raise TypeError(
            "smap in_axes must be an int, None, jax.sharding.Infer, or a tuple of entries "
            "corresponding to the positional arguments passed to the function, but got "
            f"{in_axes}."
        )
    if in_axes is not Infer and not all(
        isinstance(leaf, int) for leaf in tree_util.tree_leaves(in_axes)
    ):
        raise TypeError(
            "smap in_axes must be an int, None, jax.sharding.Infer, or (nested) container with "
            f"those types as leaves, but got {in_axes}."
        )
    if not all(isinstance(leaf, int) for leaf in tree_util.tree_leaves(out_axes)):
        raise TypeError(
            "smap out_axes must be an int, None, or (nested) container with those types as "
            f"leaves, but got {out_axes}."
        )

    def spec(axis: int | None) -> PartitionSpec:  # as JAX's (a negative axis: the first)
        return PartitionSpec() if axis is None else PartitionSpec(*[None] * axis, axis_name)

    def specs(axes: Any) -> Any:
        return tree_util.tree_map(spec, axes, is_leaf=lambda x: x is None)

    def wrap(g: Callable) -> Callable:
        @functools.wraps(g)
        def mapped(*args: Any) -> Any:
            mesh = get_mesh()
            auto = axis_name in mesh.axis_names and (
                mesh.axis_types[mesh.axis_names.index(axis_name)] == AxisType.Auto
            )
            if in_axes is Infer and auto:
                raise TypeError(
                    f"in_axes was not specified when axis_name={frozenset({axis_name})} was of "
                    "type AxisType.Auto\nsmap infers in_axes over Explicit axes only: give "
                    "in_axes."
                )
            in_specs = None if in_axes is Infer else specs(in_axes)
            if isinstance(in_specs, PartitionSpec) and len(args) != 1:
                in_specs = (in_specs,) * len(args)
            return shard_map(
                g, out_specs=specs(out_axes), in_specs=in_specs, axis_names={axis_name}
            )(*args)

        return mapped

    return wrap if f is None else wrap(f)
