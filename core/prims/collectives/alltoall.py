"""all_to_all (a composed primitive, `composed.py`) and pswapaxes written on it.

Chunk `j` of `split_axis` goes to element `j`, the received chunks concatenate along
`concat_axis`. The primitive always tiles; `all_to_all` adds and drops the unit axes of the
untiled form, as JAX's wrapper does. Its transpose is all_to_all with the axes swapped.
"""

from __future__ import annotations

from typing import Any

from core import tree_util
from core.errors import AxisError, ShapeError
from core.interpreters import batching
from core.prims import shapes as sh
from core.prims.collectives.composed import (
    _composed_collective,
    _fold_axis,
    _group_size,
    _split_axis,
)
from core.prims.collectives.groups import _gather, _group_members, _groups, _move_first, _own_slice
from core.prims.collectives.names import _param
from core.trace import as_value, get_aval


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
        for what, ax in (("split_axis", split_axis), ("concat_axis", concat_axis)):
            if not -len(shape) <= ax < len(shape):
                raise AxisError(
                    f"tuple index out of range\nall_to_all {what}={ax} for a value of shape "
                    f"{shape}: name one of its axes."
                )
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
