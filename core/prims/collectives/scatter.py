"""psum_scatter: JAX's `reduce_scatter` primitive (composed, `composed.py`), the sum over the
axis cut along `scatter_dimension`, element `j` keeping part `j`; its transpose is
all_gather, as JAX's.
"""

from __future__ import annotations

from typing import Any

from core import tree_util
from core.errors import AxisError, ShapeError
from core.prims import elementwise as ew
from core.prims import reductions as rd
from core.prims.collectives.composed import _composed_collective, _group_size, _split_axis
from core.prims.collectives.groups import _group_reduce, _groups, _own_slice, _squeeze
from core.prims.collectives.names import _names, _one_name
from core.prims.collectives.primitives import psum_p
from core.prims.collectives.wrappers import all_gather
from core.trace import as_value, get_aval


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
        ndim = get_aval(v).ndim
        if not -ndim <= scatter_dimension < ndim:
            raise AxisError(
                f"tuple index out of range\npsum_scatter scatter_dimension={scatter_dimension} "
                f"for a value of shape {get_aval(v).shape}: name one of its axes."
            )
        params = dict(
            axis_name=names,
            scatter_dimension=scatter_dimension % ndim,
            axis_index_groups=groups,
            axis_size=size,
            tiled=bool(tiled),
        )
        _reduce_scatter_abstract_eval(get_aval(v), **params)  # JAX's errors, under vmap too
        if groups is not None:  # tables of the groups: inlined here (see `_composed_collective`)
            return _reduce_scatter_composite(v, **params)
        return reduce_scatter_p.bind(v, **params)

    return tree_util.tree_map(one, x)
