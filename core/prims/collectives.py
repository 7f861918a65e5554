"""Collectives over named axes: psum, pmean, pmax, pmin, all_gather, axis_index, and more.

A name is bound by `vmap(f, axis_name="i")`: inside, `psum(x, "i")` sums `x` over the mapped
axis and gives every batch element the result. The primitives are marked `collective`, so the
`BatchTrace` of that name hands them to their batch rule with `axis_trace=` set (see
`core/interpreters/batching.py`); there the collective becomes an ordinary reduction over the
batch axis (`reduce_sum`, where JAX 0.10.2's batcher binds psum over the positional axis and
prints `psum[axes=(0,) ...]`: numbax's psum takes names only). A batch trace of another name
treats them as elementwise. A name bound by `pmap`
stays in the traced program: on each device the collective exchanges values with the other
devices (`core/parallel/collective_ops.py`; eagerly, or from compiled code through a host
call). Outside any `vmap` or `pmap` that binds the name, the impl raises
`UnboundAxisNameError`.

Differentiation follows the per-element semantics: psum is linear and its own transpose (the
cotangent of x_j sums the cotangents of every output), the transpose of all_gather sums the
gathered cotangents and keeps the caller's slice.

ppermute, all_to_all and psum_scatter are JAX's primitives `ppermute`, `all_to_all` and
`reduce_scatter` (jaxprs print JAX's equations, with JAX's transposes: the inverse permutation,
all_to_all with its axes swapped, all_gather) that numbax computes from others: each element
all_gathers (or psums) and keeps its own slice, picked with `axis_index`. `jit` compiles that
composition in their place (`Primitive.def_composition`), so they need no lowering of their
own; over the vmap axis they name, JAX's batch rules make them reshapes, transposes and sums
(see `_composed_collective`). pshuffle, pbroadcast and pswapaxes are written on them (or on
all_gather), as in JAX. With `axis_index_groups`, all_to_all and psum_scatter stay composites
inlined where they are traced (their jaxprs differ from JAX's one equation).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from core import dtypes, tree_util
from core.ad_util import Zero
from core.avals import ShapedArray
from core.errors import (
    AxisIndexGroupsCoverError,
    AxisIndexGroupsError,
    AxisIndexGroupSizeError,
    ShapeError,
    UnboundAxisNameError,
)
from core.interpreters import batching
from core.interpreters.jvp import deflinear
from core.parallel import axis_env, collective_ops
from core.primitive import Primitive
from core.prims import elementwise as ew
from core.prims import gather as gt
from core.prims import indexing as ix
from core.prims import reductions as rd
from core.prims import shapes as sh
from core.trace import (
    Tracer,
    as_value,
    current_trace,
    eval_trace,
    get_aval,
    set_current_trace,
    to_numpy,
)


def _names(axis_name: Any) -> tuple:
    return tuple(axis_name) if isinstance(axis_name, (tuple, list)) else (axis_name,)


def _rest(names: tuple, trace: Any) -> tuple:
    return tuple(n for n in names if n != trace.axis_name)


def _collective(name: str) -> Primitive:
    prim = Primitive(name, collective=True)
    prim.def_impl(collective_ops.eager(name))
    return prim


# ---------------------------------------------------------------------------------------------
# psum / pmax / pmin: reduce over the named axis, the result is the same for every element


def _reducer(name: str, reduce, scale_unbatched: bool) -> Primitive:
    prim = _collective(name)
    prim.def_abstract_eval(lambda x, *, axis_name: x)

    def batch(args, dims, *, axis_name, axis_trace=None):
        (x,), (d,) = args, dims
        if axis_trace is None:  # another vmap's name: elementwise along this batch axis
            return prim.bind(x, axis_name=axis_name), d
        if d is None:
            out = ew.mul(x, ew.full_like(x, axis_trace.axis_size)) if scale_unbatched else x
        else:
            out = reduce(x, (d,))
        rest = _rest(_names(axis_name), axis_trace)
        return (prim.bind(out, axis_name=rest) if rest else out), None

    prim.def_batch(batch)
    return prim


psum_p = _reducer("psum", rd.reduce_sum, True)
deflinear(psum_p)
psum_p.def_transpose(lambda ct, x, *, axis_name: [psum_p.bind(ct, axis_name=axis_name)])


pmax_p = _reducer("pmax", rd.reduce_max, False)
pmin_p = _reducer("pmin", rd.reduce_min, False)


def _pext_jvp(prim):
    # Like reduce_max: the tangent at the extremum, shared evenly between ties.
    def rule(primals, tangents, *, axis_name):
        (x,), (t,) = primals, tangents
        out = prim.bind(x, axis_name=axis_name)
        at_ext = sh.convert_element_type(ew.eq(x, out), get_aval(t).dtype)
        num = psum_p.bind(ew.mul(t, at_ext), axis_name=axis_name)
        return out, ew.div(num, psum_p.bind(at_ext, axis_name=axis_name))

    prim.def_jvp(rule)


_pext_jvp(pmax_p)
_pext_jvp(pmin_p)

# ---------------------------------------------------------------------------------------------
# all_gather: every element receives the stack (or concatenation, `tiled`) of all of them


all_gather_p = _collective("all_gather")


def _gathered_shape(shape: tuple, axis: int, tiled: bool, axis_size: int) -> tuple:
    shape = list(shape)
    if tiled:
        shape[axis] *= axis_size
    else:
        shape.insert(axis, axis_size)
    return tuple(shape)


def _all_gather_abstract_eval(x, *, axis_name, axis, tiled, axis_size):
    return ShapedArray(_gathered_shape(x.shape, axis, tiled, axis_size), x.dtype, x.weak_type)


def _all_gather_batch(args, dims, *, axis_name, axis, tiled, axis_size, axis_trace=None):
    (x,), (d,) = args, dims
    if axis_trace is None:
        x = batching.moveaxis(x, d, 0, get_aval(x).shape[d])
        return all_gather_p.bind(
            x, axis_name=axis_name, axis=axis + 1, tiled=tiled, axis_size=axis_size
        ), 0
    x = batching.moveaxis(x, d, axis, axis_trace.axis_size)
    if tiled:
        shape = get_aval(x).shape
        x = sh.reshape(x, (*shape[:axis], shape[axis] * shape[axis + 1], *shape[axis + 2 :]))
    rest = _rest(_names(axis_name), axis_trace)
    if rest:
        # The remaining names gather around the result, outermost first (as nested vmaps do).
        x = all_gather_p.bind(
            x, axis_name=rest, axis=axis, tiled=True, axis_size=axis_size // axis_trace.axis_size
        )
    return x, None


def _all_gather_transpose(ct, x, *, axis_name, axis, tiled, axis_size):
    # Sum every element's cotangent of the gathered array, then keep this element's slice.
    total = psum_p.bind(ct, axis_name=axis_name)
    shape = x.aval.shape
    if tiled:
        total = sh.reshape(total, (*shape[:axis], axis_size, shape[axis], *shape[axis + 1 :]))
    index = axis_index_p.bind(axis_name=axis_name)
    onehot = ew.eq(sh.iota(dtypes.int32, axis_size), sh.broadcast_in_dim(index, (axis_size,), ()))
    onehot = sh.convert_element_type(onehot, get_aval(ct).dtype)
    mask = sh.broadcast_in_dim(onehot, get_aval(total).shape, (axis,))
    return [rd.reduce_sum(ew.mul(total, mask), (axis,))]


all_gather_p.def_abstract_eval(_all_gather_abstract_eval)
all_gather_p.def_batch(_all_gather_batch)
deflinear(all_gather_p)
all_gather_p.def_transpose(_all_gather_transpose)

# ---------------------------------------------------------------------------------------------
# axis_index: the position of the current element along the named axis

axis_index_p = _collective("axis_index")
axis_index_p.def_abstract_eval(lambda *, axis_name: ShapedArray((), dtypes.int32))


def _axis_index_batch(args, dims, *, axis_name, axis_trace=None):
    names = _names(axis_name)
    size = axis_trace.axis_size
    idx = sh.iota(dtypes.int32, size)
    # With several names the index is row-major over them: outer_index * inner_size + inner.
    rest = _rest(names, axis_trace)
    if rest:
        outer = axis_index_p.bind(axis_name=rest if len(rest) > 1 else rest[0])
        base = ew.mul(outer, sh.full((), size, dtypes.int32))
        idx = ew.add(idx, sh.broadcast_in_dim(base, (size,), ()))
    return idx, 0


axis_index_p.def_batch(_axis_index_batch)


def _axis_index_jvp(primals, tangents, *, axis_name):
    out = axis_index_p.bind(axis_name=axis_name)
    return out, Zero(get_aval(out))


axis_index_p.def_jvp(_axis_index_jvp)

# ---------------------------------------------------------------------------------------------
# The lax-style wrappers (pytrees in, pytrees out)


def axis_size(axis_name: Any, collective: str | None = None) -> int:
    """The size of the named axis (the product over a tuple of names).

    Args:
      axis_name: a name, or a tuple of names, that an enclosing `vmap`, `pmap` or `shard_map`
        binds (or `make_jaxpr`'s `axis_env`).
      collective: the collective asking, named by the error of an unbound name while tracing.

    Returns:
      The number of elements along the axis.

    Raises:
      UnboundAxisNameError: no enclosing transformation binds a name.
    """
    size = 1
    for name in _names(axis_name):
        trace = _vmap_trace(name)
        if trace is not None:
            size *= trace.axis_size
            continue
        pmapped = axis_env.size(name)
        if pmapped is None:
            staged = collective is not None and current_trace() is not eval_trace
            raise UnboundAxisNameError(name, collective if staged else None)
        size *= pmapped
    return size


def _param(axis_name: Any) -> Any:
    return tuple(axis_name) if isinstance(axis_name, list) else axis_name


def _pmapped(axis_name: Any) -> bool:
    """Whether `axis_name` is one name bound by the pmap being traced (not by a vmap)."""
    if isinstance(axis_name, tuple) or _vmap_trace(axis_name) is not None:
        return False
    return axis_env.traced_size(axis_name) is not None


def _vmap_trace(name: Any) -> Any:
    """The batch trace of the `vmap` that binds axis `name` around the current trace, or None."""
    trace = current_trace()
    while trace is not None and getattr(trace, "axis_name", None) != name:
        trace = trace.parent
    return trace


# Leaves of at least this many elements travel alone (see `_leafwise`).
PACK_MAX = 1 << 18


def _leafwise(prim: Primitive, x: Any, axis_name: Any) -> Any:
    """`prim` bound on every leaf of the pytree `x`.

    Over a pmapped axis each binding is an exchange between the device threads, so leaves of
    one dtype (and weak type) travel together: flattened, concatenated, reduced once and cut
    back (a train step's gradients then cost one exchange instead of one per parameter).
    Leaves of `PACK_MAX` elements or more are exchanged alone: copying one into the packed
    buffer and its result back out costs more than an exchange (a ResNet-10's four largest
    kernels hold 90% of its 4.9M parameters).
    """
    axis_size(axis_name, prim.name)  # an unbound name raises here, while tracing too
    leaves, tree = tree_util.tree_flatten(x)
    leaves = [as_value(v) for v in leaves]
    name = _param(axis_name)
    if len(leaves) < 2 or not _pmapped(name):
        return tree_util.tree_unflatten(tree, [prim.bind(v, axis_name=name) for v in leaves])
    groups: dict[tuple, list[int]] = {}
    for i, v in enumerate(leaves):
        aval = get_aval(v)
        key = (i,) if math.prod(aval.shape) >= PACK_MAX else (aval.dtype, aval.weak_type)
        groups.setdefault(key, []).append(i)
    out = list(leaves)
    for members in groups.values():
        if len(members) == 1:
            out[members[0]] = prim.bind(leaves[members[0]], axis_name=name)
            continue
        shapes = [get_aval(leaves[i]).shape for i in members]
        sizes = [int(np.prod(s)) for s in shapes]
        flat = ix.concatenate([sh.reshape(leaves[i], (n,)) for i, n in zip(members, sizes)], 0)
        total, start = prim.bind(flat, axis_name=name), 0
        for i, shape, n in zip(members, shapes, sizes):
            out[i] = sh.reshape(ix.slice_in_dim(total, start, start + n), shape)
            start += n
    return tree_util.tree_unflatten(tree, out)


def psum(x: Any, axis_name: Any, *, axis_index_groups: Any = None) -> Any:
    """Sums `x` (a pytree) over the named vmap or pmap axis; every element gets the total.

    With `axis_index_groups` (pmap axes only) each element gets the total of its group.
    Booleans are summed as int32; constants (values not traced, such as `psum(1, "i")`, the
    axis size) are summed while tracing, as JAX does: the value times the size.
    """
    groups = _groups(axis_index_groups, axis_name, "psum")
    leaves, tree = tree_util.tree_flatten(x)
    leaves = [sh.convert_element_type(v, np.int32) if _is_bool(v) else v for v in leaves]
    if not any(isinstance(v, Tracer) for v in leaves) and not _positional(axis_name):
        # constants (Python numbers, arrays made outside the trace): every element holds the
        # same value, so the sum is the value times the axis size, as JAX computes it
        n = axis_size(axis_name, "psum") if groups is None else len(groups[0])
        return tree_util.tree_unflatten(tree, [_times(v, n) for v in leaves])
    x = tree_util.tree_unflatten(tree, leaves)
    if groups is not None:
        return tree_util.tree_map(lambda v: _group_reduce(v, axis_name, groups, "add"), x)
    return _leafwise(psum_p, x, axis_name)


def _is_bool(v: Any) -> bool:
    return isinstance(v, (bool, np.bool_)) or getattr(v, "dtype", None) == np.bool_


def _positional(axis_name: Any) -> bool:
    return any(isinstance(n, int) for n in _names(axis_name))


def _times(v: Any, n: int) -> Any:
    """`v * n` with `n` of `v`'s type (a Python number stays one) or dtype, as JAX's `_const`."""
    if isinstance(v, (int, float, complex)):
        return type(v)(n) * v
    return np.asarray(n, v.dtype) * v


def pmean(x: Any, axis_name: Any, *, axis_index_groups: Any = None) -> Any:
    """Averages `x` (a pytree) over the named vmap or pmap axis (or over each element's group
    of `axis_index_groups`, divided as JAX does by the first group's size)."""
    groups = _groups(axis_index_groups, axis_name, "pmean")
    n = axis_size(axis_name, "pmean") if groups is None else len(groups[0])
    total = psum(x, axis_name, axis_index_groups=groups)
    return tree_util.tree_map(lambda v: v / n, total)  # integers divide into floats


def pmax(x: Any, axis_name: Any, *, axis_index_groups: Any = None) -> Any:
    """Maximum of `x` (a pytree) over the named vmap or pmap axis (or each element's group)."""
    groups = _groups(axis_index_groups, axis_name, "pmax")
    if groups is not None:
        return tree_util.tree_map(lambda v: _group_reduce(v, axis_name, groups, "max"), x)
    return _leafwise(pmax_p, x, axis_name)


def pmin(x: Any, axis_name: Any, *, axis_index_groups: Any = None) -> Any:
    """Minimum of `x` (a pytree) over the named vmap or pmap axis (or each element's group)."""
    groups = _groups(axis_index_groups, axis_name, "pmin")
    if groups is not None:
        return tree_util.tree_map(lambda v: _group_reduce(v, axis_name, groups, "min"), x)
    return _leafwise(pmin_p, x, axis_name)


def all_gather(
    x: Any,
    axis_name: Any,
    *,
    axis_index_groups: Any = None,
    axis: int = 0,
    tiled: bool = False,
    to: str = "varying",
) -> Any:
    """Gathers `x` (a pytree) from every element of the named axis along a new `axis`.

    With `tiled=True` the pieces are concatenated along the existing `axis` instead. With
    `axis_index_groups` (pmap axes only, groups of one size) each element gathers its group's
    members, in the group's order. `to` is JAX's type of the result over the axis ("varying",
    "invarying" or "reduced"): numbax does not type values by their variance over mesh axes,
    so the three gather the same values.
    """
    allowed = {"varying", "reduced", "invarying"}
    if to not in allowed:
        raise ValueError(
            "Got unexpected `to` value for `jax.lax.all_gather`. Allowed `to` values are: "
            f"{allowed}"
        )
    groups = _groups(axis_index_groups, axis_name, "all_gather", same_size=True)
    size = axis_size(axis_name, "all_gather")

    def gather(v):
        v = as_value(v)
        ax = int(axis) % (get_aval(v).ndim + (0 if tiled else 1))
        if groups is None:
            return all_gather_p.bind(
                v, axis_name=_param(axis_name), axis=ax, tiled=bool(tiled), axis_size=size
            )
        members = _group_members(v, axis_name, groups)  # (group size, *shape)
        out = _move_first(members, ax)
        if not tiled:
            return out
        shape = list(get_aval(v).shape)
        shape[ax] *= len(groups[0])
        return sh.reshape(out, tuple(shape))

    return tree_util.tree_map(gather, x)


def axis_index(axis_name: Any) -> Any:
    """The int32 index of the current element along the named vmap axis."""
    axis_size(axis_name, "axis_index")
    return axis_index_p.bind(axis_name=_param(axis_name))


# ---------------------------------------------------------------------------------------------
# axis_index_groups: collectives within groups of a pmapped axis, as composites (below)


def _groups(axis_index_groups: Any, axis_name: Any, name: str, same_size: bool = False):
    """`axis_index_groups` as a tuple of tuples, checked against the axis (None stays None).

    Groups are JAX's for the axes of `pmap`: over a `vmap` axis they raise, as in JAX. Each
    grouped collective runs as a gather of the whole axis and a reduction (or selection) of
    the element's own group: the exchange moves every element's value, not only its group's.
    """
    if axis_index_groups is None:
        return None
    groups = tuple(tuple(int(i) for i in g) for g in axis_index_groups)
    if {i for g in groups for i in g} != set(range(sum(map(len, groups)))):
        raise AxisIndexGroupsCoverError([list(g) for g in groups])
    if any(_vmap_trace(n) is not None for n in _names(axis_name)):
        raise AxisIndexGroupsError(name)
    size = axis_size(axis_name, name)
    if sum(map(len, groups)) != size:
        raise AxisIndexGroupsCoverError([list(g) for g in groups], size)
    if same_size and len({len(g) for g in groups}) > 1:
        raise AxisIndexGroupSizeError(name, [list(g) for g in groups])
    return groups


def _group_table(axis_name: Any, table: np.ndarray) -> Any:
    """Row `axis_index` of the constant `table`: this element's entry."""
    return _squeeze(_own_slice(as_value(table), axis_name, 0, 1), 0)


def _group_reduce(v: Any, axis_name: Any, groups: tuple, kind: str) -> Any:
    """The sum (max, min) of `v` over this element's group: the whole axis gathered, the other
    groups' rows replaced by the reduction's identity."""
    v = as_value(v)
    if get_aval(v).dtype == np.bool_ and kind == "add":  # JAX sums booleans as int32
        v = sh.convert_element_type(v, np.dtype(np.int32))
    size = sum(map(len, groups))
    same = np.zeros((size, size), np.bool_)
    for g in groups:
        same[np.ix_(g, g)] = True
    gathered = _gather(v, axis_name, size)
    shape = get_aval(gathered).shape
    mine = sh.broadcast_in_dim(_group_table(axis_name, same), shape, (0,))
    dtype = get_aval(v).dtype
    if kind == "add":
        fill = np.zeros((), dtype)
    elif dtype == np.bool_:
        fill = np.array(kind == "min")
    elif dtype.kind in "iu":
        info = np.iinfo(dtype)
        fill = np.array(info.min if kind == "max" else info.max, dtype)
    else:
        fill = np.array(-np.inf if kind == "max" else np.inf, dtype)
    others = sh.broadcast_in_dim(as_value(fill), shape, ())
    picked = ew.select_n(mine, others, gathered)
    reduce = {"add": rd.reduce_sum, "max": rd.reduce_max, "min": rd.reduce_min}[kind]
    return reduce(picked, (0,))


def _group_members(v: Any, axis_name: Any, groups: tuple) -> Any:
    """The values of this element's group's members, stacked in the group's order (groups of
    one size)."""
    size, k = sum(map(len, groups)), len(groups[0])
    members = np.zeros((size, k), np.int32)
    for g in groups:
        members[list(g)] = g
    gathered = _gather(v, axis_name, size)
    rows = _group_table(axis_name, members)
    pieces = [
        gt.dynamic_slice_in_dim(gathered, _squeeze(ix.slice_in_dim(rows, q, q + 1), 0), 1, 0)
        for q in range(k)
    ]
    return ix.concatenate(pieces, 0)


def _group_position(axis_name: Any, groups: tuple) -> Any:
    """This element's position in its group (an int32 scalar)."""
    position = np.zeros(sum(map(len, groups)), np.int32)
    for g in groups:
        position[list(g)] = np.arange(len(g))
    return _group_table(axis_name, position)


# ---------------------------------------------------------------------------------------------
# Composites: gather (or sum) over the axis, keep this element's slice


def _own_slice(v: Any, axis_name: Any, axis: int, size: int, groups: Any = None) -> Any:
    """The `size`-long slice of `v` along `axis` that belongs to this element of the axis (or,
    with `groups`, to its position in its group)."""
    if groups is None:
        index = axis_index_p.bind(axis_name=_param(axis_name))
    else:
        index = _group_position(axis_name, groups)
    start = ew.mul(index, sh.full((), size, dtypes.int32))
    return gt.dynamic_slice_in_dim(v, start, size, axis)


def _squeeze(v: Any, axis: int) -> Any:
    shape = get_aval(v).shape
    return sh.reshape(v, shape[:axis] + shape[axis + 1 :])


def _move_first(v: Any, dst: int) -> Any:
    """Moves axis 0 of `v` to position `dst`."""
    perm = list(range(1, get_aval(v).ndim))
    perm.insert(dst, 0)
    return sh.transpose(v, tuple(perm))


def _gather(v: Any, axis_name: Any, size: int) -> Any:
    return all_gather_p.bind(v, axis_name=_param(axis_name), axis=0, tiled=False, axis_size=size)


def _one_name(axis_name: tuple) -> Any:
    """A 1-tuple of names as its name (what the composites bind, as `psum` binds it)."""
    return axis_name[0] if len(axis_name) == 1 else axis_name


def _group_size(axis_name: Any, groups: Any, name: str) -> int:
    return axis_size(_one_name(_names(axis_name)), name) if groups is None else len(groups[0])


def _composed_collective(
    name: str, composite, abstract_eval, batch_other, transpose, batch_named
) -> Primitive:
    """A collective primitive JAX has and numbax computes from `all_gather`, `psum` and
    `axis_index` (`composite(x, **params)`, per leaf).

    Jaxprs print JAX's one equation. `jit` compiles the composite in its place
    (`Primitive.def_composition`), eager calls run it, and under a `vmap` that binds the axis
    Over a vmap that binds the axis alone, `batch_named(x, d, size, **params)` computes it on
    the batch axis as JAX's batchers do (None where it does not: axis_index_groups, several
    names, a partial ppermute), and otherwise the composite runs on that vmap's trace, each of
    its collectives batched by its own rule. Over another vmap's axis,
    `batch_other(x, d, **params)` moves the parameters past the batch axis, as JAX's do.

    With `axis_index_groups` the wrappers inline the composite where they are traced instead
    of binding the primitive: it reads the groups from arrays, and a composition `jit` inlines
    must not close over arrays (`core.jit.canonical.composition_jaxpr`).
    """
    prim = Primitive(name, collective=True)
    prim.def_impl(lambda x, **params: to_numpy(composite(x, **params)))
    prim.def_abstract_eval(abstract_eval)
    prim.def_composition(composite)

    def batch(args, dims, *, axis_trace=None, **params):
        (x,), (d,) = args, dims
        if axis_trace is None:
            return batch_other(x, d, **params)
        alone = _names(params["axis_name"]) == (axis_trace.axis_name,)
        if alone and params.get("axis_index_groups") is None:
            out = batch_named(x, d, axis_trace.axis_size, **params)
            if out is not None:
                return out
        with set_current_trace(axis_trace):
            out = composite(batching.BatchTracer(axis_trace, x, d), **params)
        return axis_trace.to_val_dim(out)

    prim.def_batch(batch)
    deflinear(prim)
    prim.def_transpose(transpose)
    return prim


# ppermute: element `src` sends its value to `dst`, for each (src, dst) pair


def _wrapped(perm: tuple, size: int) -> tuple:
    """`perm` with negative indices counted from the end of the axis, as JAX's lowering."""
    return tuple((src % size, dst % size) for src, dst in perm)


def _ppermute_composite(x: Any, *, axis_name: tuple, perm: tuple) -> Any:
    # Every element gathers the axis and keeps its source's value (zeros where none sends).
    # The source is chosen with scalar selects, not read from a table: `jit` inlines this
    # composition, which must not close over arrays.
    name = _one_name(axis_name)
    gathered = _gather(as_value(x), name, axis_size(name, "ppermute"))
    index = axis_index_p.bind(axis_name=name)
    src = sh.full((), -1, dtypes.int32)
    for s, d in _wrapped(perm, get_aval(gathered).shape[0]):
        here = ew.eq(index, sh.full((), d, dtypes.int32))
        src = ew.select_n(here, src, sh.full((), s, dtypes.int32))
    zero = sh.full((), 0, dtypes.int32)
    piece = _squeeze(gt.dynamic_slice_in_dim(gathered, ew.max(src, zero), 1, 0), 0)
    valid = sh.broadcast_in_dim(ew.ge(src, zero), get_aval(piece).shape, ())
    return ew.select_n(valid, sh.zeros_like(piece), piece)


ppermute_p = _composed_collective(
    "ppermute",
    _ppermute_composite,
    lambda x, *, axis_name, perm: x,
    lambda x, d, **params: (ppermute_p.bind(x, **params), d),
    lambda ct, x, *, axis_name, perm: [
        ppermute_p.bind(ct, axis_name=axis_name, perm=tuple((d, s) for s, d in perm))
    ],
    lambda x, d, size, *, axis_name, perm: _ppermute_named(x, d, size, perm),
)


def _ppermute_named(x: Any, d: int | None, size: int, perm: tuple) -> Any:
    """A full permutation of the batch axis (as JAX's batcher, which takes no other): the
    rows in their sources' order, one slice per row."""
    if len(perm) != size:
        return None
    if d is None:
        return x, None
    sources = dict((dst, src) for src, dst in _wrapped(perm, size))
    rows = [ix.slice_in_dim(x, sources[i], sources[i] + 1, axis=d) for i in range(size)]
    return ix.concatenate(rows, d), d


def ppermute(x: Any, axis_name: Any, perm: Any) -> Any:
    """Sends `x` (a pytree) from element `src` to element `dst` for each `(src, dst)` in `perm`.

    Args:
        x: the per-element value.
        axis_name: the name (or tuple of names) of the vmap or pmap axis.
        perm: pairs `(source_index, destination_index)`; no two share a source or a
            destination (JAX's error otherwise); negative indices count from the axis' end.

    Returns:
        At each destination the source's `x`; zeros at the elements no pair sends to.
    """
    names = _names(axis_name)
    size = axis_size(_one_name(names), "ppermute")
    perm = tuple((int(src), int(dst)) for src, dst in perm)
    if any(not -size <= i < size for pair in perm for i in pair):
        raise ValueError(
            f"ppermute: perm {perm} names an index outside the axis {axis_name!r} of size "
            f"{size}; use indices in [-{size}, {size})"
        )
    wrapped = _wrapped(perm, size)
    for k in range(2):
        if len({pair[k] for pair in wrapped}) < len(perm):
            raise ValueError(f"ppermute sources and destinations must be unique, got {perm}.")
    return tree_util.tree_map(lambda v: ppermute_p.bind(as_value(v), axis_name=names, perm=perm), x)


def pshuffle(x: Any, axis_name: Any, perm: Any) -> Any:
    """`ppermute` with `perm[i]` the source of element `i` (a full permutation of the axis)."""
    if set(perm) != set(range(len(perm))):
        raise ValueError(f"pshuffle: `perm` does not represent a permutation: {perm}")
    return ppermute(x, axis_name, list(zip(perm, range(len(perm)))))


def pbroadcast(x: Any, axis_name: Any, source: int) -> Any:
    """Gives every element of the named axis the `x` (a pytree) of element `source`."""
    size = axis_size(axis_name, "pbroadcast")
    source = int(source)
    if not 0 <= source < size:
        raise ValueError(
            f"pbroadcast: source {source} is outside the axis {axis_name!r} of size {size}"
        )

    def one(v):
        gathered = _gather(as_value(v), axis_name, size)
        return _squeeze(ix.slice_in_dim(gathered, source, source + 1), 0)

    return tree_util.tree_map(one, x)


# all_to_all: chunk `j` of `split_axis` goes to element `j`, the received chunks concatenate
# along `concat_axis` (the primitive always tiles; `all_to_all` adds and drops the unit axes of
# the untiled form, as JAX's wrapper does)


def _all_to_all_composite(
    x: Any, *, axis_name, split_axis, concat_axis, axis_index_groups, tiled
) -> Any:
    x = as_value(x)
    size = _group_size(axis_name, axis_index_groups, "all_to_all")
    shape = get_aval(x).shape
    chunk = shape[split_axis] // size
    # pieces[i] is the chunk sender i (of the group) sends to this element.
    if axis_index_groups is None:
        senders = _gather(x, axis_name, size)
    else:
        senders = _group_members(x, axis_name, axis_index_groups)
    pieces = _own_slice(senders, axis_name, split_axis + 1, chunk, axis_index_groups)
    out = _move_first(pieces, concat_axis)
    return sh.reshape(out, _all_to_all_shape(shape, split_axis, concat_axis, size))


def _all_to_all_shape(shape: tuple, split_axis: int, concat_axis: int, size: int) -> tuple:
    out = list(shape)
    out[split_axis] //= size
    out[concat_axis] *= size
    return tuple(out)


def _all_to_all_abstract_eval(x, *, axis_name, split_axis, concat_axis, axis_index_groups, tiled):
    size = _group_size(axis_name, axis_index_groups, "all_to_all")
    return x.update(shape=_all_to_all_shape(x.shape, split_axis, concat_axis, size))


def _all_to_all_batch_other(x, d, *, split_axis, concat_axis, **params):
    return all_to_all_p.bind(
        x,
        split_axis=split_axis + (d <= split_axis),
        concat_axis=concat_axis + (d <= concat_axis),
        **params,
    ), d


def _all_to_all_transpose(ct, x, *, split_axis, concat_axis, **params):
    return [all_to_all_p.bind(ct, split_axis=concat_axis, concat_axis=split_axis, **params)]


def _split_axis(x: Any, axis: int, size: int) -> Any:
    """Axis `axis` of `x` cut into `size` rows of its size / `size` (JAX's `_splitaxis`)."""
    shape = get_aval(x).shape
    return sh.reshape(x, (*shape[:axis], size, shape[axis] // size, *shape[axis + 1 :]))


def _fold_axis(x: Any, axis: int) -> Any:
    """Axes `axis` and `axis + 1` of `x` merged into one (JAX's `_foldaxis`)."""
    shape = get_aval(x).shape
    return sh.reshape(x, (*shape[:axis], shape[axis] * shape[axis + 1], *shape[axis + 2 :]))


def _all_to_all_named(x, d, size, *, axis_name, split_axis, concat_axis, **params):
    # JAX's batcher: the batch axis is the named axis, so the exchange is a transpose.
    if d is None:
        x, d = batching.moveaxis(x, None, 0, size), 0
    if split_axis == concat_axis:
        axis = split_axis + (d <= split_axis)
        x = _split_axis(x, axis, size)
        moved = d + (axis <= d)
        perm = list(range(get_aval(x).ndim))
        perm[moved], perm[axis] = axis, moved
        return _fold_axis(sh.transpose(x, tuple(perm)), axis), d
    x = _fold_axis(batching.moveaxis(x, d, concat_axis, size), concat_axis)
    return _split_axis(x, split_axis, size), split_axis


all_to_all_p = _composed_collective(
    "all_to_all",
    _all_to_all_composite,
    _all_to_all_abstract_eval,
    _all_to_all_batch_other,
    _all_to_all_transpose,
    _all_to_all_named,
)


def all_to_all(
    x: Any,
    axis_name: Any,
    split_axis: int,
    concat_axis: int,
    *,
    axis_index_groups: Any = None,
    tiled: bool = False,
) -> Any:
    """Splits `x` (a pytree) along `split_axis` and sends chunk `j` to element `j`.

    Args:
        x: the per-element value.
        axis_name: the name (or tuple of names) of the vmap or pmap axis.
        split_axis: the axis of `x` cut into one chunk per element of the named axis.
        concat_axis: where the received chunks go, ordered by sender.
        axis_index_groups: None, or groups of one size of a pmapped axis: the chunks go to
            the members of the element's group (the group size takes the axis size's place).
        tiled: False: `x.shape[split_axis]` is the axis size, the split axis is removed and
            the senders stack along a new axis at `concat_axis`. True: the chunks are
            concatenated along the existing `concat_axis` (the rank is kept).

    Returns:
        The received chunks, shaped as described for `tiled`.
    """
    groups = _groups(axis_index_groups, axis_name, "all_to_all", same_size=True)
    size = _group_size(axis_name, groups, "all_to_all")
    name = _param(axis_name)

    def one(v):
        v = as_value(v)
        shape = get_aval(v).shape
        split, concat = split_axis % len(shape), concat_axis % len(shape)
        if tiled and shape[split] % size:
            raise ShapeError(
                f"The size of all_to_all split_axis ({shape[split]}) has to be divisible by "
                f"the size of the named axis {axis_name} ({size})"
            )
        if not tiled and shape[split] != size:
            raise ShapeError(
                "all_to_all requires the size of the mapped axis axis_name to equal "
                f"x.shape[split_axis], but they are {size} and {shape[split]} respectively."
            )
        if not tiled and split != concat:  # the senders stack along a new unit axis
            if split < concat:
                concat += 1
            else:
                split += 1
            v = sh.expand_dims(v, (concat,))
        params = dict(
            axis_name=name,
            split_axis=split,
            concat_axis=concat,
            axis_index_groups=groups,
            tiled=bool(tiled),
        )
        if groups is None:
            out = all_to_all_p.bind(v, **params)
        else:  # tables of the groups: inlined here (see `_composed_collective`)
            out = _all_to_all_composite(v, **params)
        return sh.squeeze(out, (split,)) if not tiled and split != concat else out

    return tree_util.tree_map(one, x)


def pswapaxes(x: Any, axis_name: Any, axis: int, *, axis_index_groups: Any = None) -> Any:
    """Swaps the named axis with `axis` of `x` (a pytree): `all_to_all(x, name, axis, axis)`."""
    return all_to_all(x, axis_name, axis, axis, axis_index_groups=axis_index_groups)


# psum_scatter: the sum over the axis, cut along `scatter_dimension`; element `j` keeps part `j`


def _reduce_scatter_composite(
    x: Any, *, axis_name, scatter_dimension, axis_index_groups, axis_size, tiled
) -> Any:
    x, name = as_value(x), _one_name(axis_name)
    if axis_index_groups is None:
        total = psum_p.bind(x, axis_name=name)
    else:
        total = _group_reduce(x, name, axis_index_groups, "add")
    part_size = get_aval(x).shape[scatter_dimension] // axis_size
    part = _own_slice(total, name, scatter_dimension, part_size, axis_index_groups)
    return part if tiled else _squeeze(part, scatter_dimension)


def _reduce_scatter_abstract_eval(
    x, *, axis_name, scatter_dimension, axis_index_groups, axis_size, tiled
):
    shape = list(x.shape)
    n = shape[scatter_dimension]
    if tiled and n % axis_size:
        raise ShapeError(
            f"tiled reduce_scatter operand scatter dimension size {n} must be divisible by "
            f"shard_count {axis_size}"
        )
    if not tiled and n != axis_size:
        raise ShapeError(
            f"reduce_scatter operand scatter dimension size {n} must match shard count {axis_size}"
        )
    if tiled:
        shape[scatter_dimension] = n // axis_size
    else:
        del shape[scatter_dimension]
    return x.update(shape=tuple(shape))


def _reduce_scatter_batch_other(x, d, *, scatter_dimension, tiled, **params):
    if d <= scatter_dimension:
        scatter_dimension += 1
    elif not tiled:  # the untiled scatter drops its dimension, before the batch axis
        d -= 1
    out = reduce_scatter_p.bind(x, scatter_dimension=scatter_dimension, tiled=tiled, **params)
    return out, d


def _reduce_scatter_transpose(
    ct, x, *, axis_name, scatter_dimension, axis_index_groups, axis_size, tiled
):
    return [
        all_gather(
            ct,
            _one_name(axis_name),
            axis_index_groups=axis_index_groups,
            axis=scatter_dimension,
            tiled=tiled,
        )
    ]


def _reduce_scatter_named(x, d, size, *, scatter_dimension, tiled, **params):
    # JAX's batcher: the sum over the batch axis, whose parts are the scatter dimension's.
    if d is None:
        y = ew.mul(x, ew.full_like(x, size))
    else:
        y = rd.reduce_sum(x, (d,))
    return (_split_axis(y, scatter_dimension, size) if tiled else y), scatter_dimension


reduce_scatter_p = _composed_collective(
    "reduce_scatter",
    _reduce_scatter_composite,
    _reduce_scatter_abstract_eval,
    _reduce_scatter_batch_other,
    _reduce_scatter_transpose,
    _reduce_scatter_named,
)


def psum_scatter(
    x: Any,
    axis_name: Any,
    *,
    scatter_dimension: int = 0,
    axis_index_groups: Any = None,
    tiled: bool = False,
) -> Any:
    """`psum(x)` cut along `scatter_dimension`; element `j` keeps part `j` (`x` is a pytree).

    Args:
        x: the per-element value.
        axis_name: the name (or tuple of names) of the vmap or pmap axis.
        scatter_dimension: the axis of the sum that is scattered over the named axis.
        axis_index_groups: None, or groups of one size of a pmapped axis: each group's sum
            is scattered over its members (the group size takes the axis size's place).
        tiled: False: that axis has the named axis' size and is removed. True: its size is a
            multiple of the axis size and it is kept, divided by the axis size.

    Returns:
        This element's part of the sum (one `reduce_scatter` equation per leaf, as in JAX).
    """
    groups = _groups(axis_index_groups, axis_name, "psum_scatter", same_size=True)
    size = _group_size(axis_name, groups, "psum_scatter")
    names = _names(axis_name)

    def one(v):
        v = as_value(v)
        params = dict(
            axis_name=names,
            scatter_dimension=scatter_dimension % get_aval(v).ndim,
            axis_index_groups=groups,
            axis_size=size,
            tiled=bool(tiled),
        )
        _reduce_scatter_abstract_eval(get_aval(v), **params)  # JAX's errors, under vmap too
        if groups is not None:  # tables of the groups: inlined here (see `_composed_collective`)
            return _reduce_scatter_composite(v, **params)
        return reduce_scatter_p.bind(v, **params)

    return tree_util.tree_map(one, x)


__all__ = [
    "all_gather",
    "all_to_all",
    "axis_index",
    "axis_size",
    "pbroadcast",
    "pmax",
    "pmean",
    "pmin",
    "ppermute",
    "pshuffle",
    "psum",
    "psum_scatter",
    "pswapaxes",
]
