"""The `lax` functions psum, pmean, pmax, pmin, all_gather and axis_index: pytrees in,
pytrees out.

They check the axis name (an unbound one raises `UnboundAxisNameError` while tracing too),
apply `axis_index_groups` as composites (`groups.py`), compute collectives of constants
while tracing as JAX does (`psum(1, "i")` is the axis size), and over a pmapped axis pack
the leaves of one dtype into one exchange (`_leafwise`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from core import tree_util
from core.errors import AxisError
from core.primitive import Primitive
from core.prims import indexing as ix
from core.prims import shapes as sh
from core.prims.collectives.groups import _group_members, _group_reduce, _groups, _move_first
from core.prims.collectives.names import _names, _param, _pmapped, axis_size
from core.prims.collectives.primitives import all_gather_p, axis_index_p, pmax_p, pmin_p, psum_p
from core.trace import Tracer, as_value, get_aval

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
    if isinstance(axis_name, (tuple, list)) and not axis_name:
        return x  # a sum over no axes, as JAX's
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
        dim = get_aval(v).ndim + (0 if tiled else 1)  # the axes `axis` may name
        if not -dim <= int(axis) < dim:
            raise AxisError(f"axis {axis} is out of bounds for array of dimension {dim}")
        ax = int(axis) % dim
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
