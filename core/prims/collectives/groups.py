"""`axis_index_groups` and an element's own slice of a gathered axis.

Groups are JAX's for the axes of `pmap` (over a `vmap` axis they raise, as in JAX). A grouped
collective runs as a gather of the whole axis and a reduction (or selection) of the element's
own group, picked with `axis_index` from constant tables; the composites of
`composed.py` keep their own slice of a gathered value the same way.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core import dtypes
from core.errors import AxisIndexGroupsCoverError, AxisIndexGroupsError, AxisIndexGroupSizeError
from core.prims import elementwise as ew
from core.prims import gather as gt
from core.prims import indexing as ix
from core.prims import reductions as rd
from core.prims import shapes as sh
from core.prims.collectives.names import _names, _param, _vmap_trace, axis_size
from core.prims.collectives.primitives import all_gather_p, axis_index_p
from core.trace import as_value, get_aval


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


# An element's own slice of a gathered (or summed) axis


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
