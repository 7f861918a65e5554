"""numpy's in-place editors as pure functions: `insert`, `delete`, `place`, `put`,
`put_along_axis`, `fill_diagonal`.

Arrays are immutable, so each returns a new array built with `x.at[...].set(...)` (one
scatter). numpy's mutating spellings (`place`, `put`, `put_along_axis`, `fill_diagonal`) take
`inplace=True` by default there; here, as in JAX, the caller must pass `inplace=False` to
acknowledge that the result is returned instead. Output shapes come from shapes only, so
traced indices work everywhere except in `delete` without `assume_unique_indices=True` (there
duplicates would change the length).
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from core import dtypes
from core.errors import ConcretizationTypeError
from core.numpy._util import (
    broadcast_shapes,
    broadcast_to,
    canonicalize_axis,
    check_arraylike,
    converted,
    ensure_array,
)
from core.numpy.creation import arange, array, diag_indices, full, ones, unravel_index, zeros_like
from core.numpy.creation import indices as _index_grids
from core.numpy.nonzero import nonzero
from core.numpy.shapes import concatenate, moveaxis, ravel, reshape, tile
from core.numpy.sorting import argsort, sort
from core.numpy.ufuncs import clip
from core.numpy.where import where
from core.prims import shapes as sh
from core.trace import Tracer, get_aval


def _inplace_error(name: str) -> ValueError:
    space = "" if name == "put_along_axis" else " "  # JAX's put_along_axis lacks the space
    return ValueError(
        f"jax.numpy.{name} cannot modify arrays in-place, because JAX arrays{space}are "
        f"immutable. Pass inplace=False to instead return an updated array.\nx = jnp.{name}(..., "
        "inplace=False)."
    )


def _tile_to_size(arr: Any, size: int) -> Any:
    """The 1-D `arr` repeated (and cut) to exactly `size` elements."""
    n = get_aval(arr).shape[0]
    if n < size:
        arr = tile(arr, -(-size // n))
    return arr[:size] if get_aval(arr).shape[0] > size else arr


def insert(arr: Any, obj: Any, values: Any, axis: int | None = None) -> Any:
    """`arr` with `values` inserted before the positions `obj` along `axis`.

    Args:
      arr: the input array.
      obj: an int, a slice or a 1-D int array of positions (indices of `arr`, before insertion).
      values: values to insert, converted to `arr`'s dtype and broadcast to the inserted shape.
      axis: the axis to insert along; None inserts into the flattened array.

    Returns:
      A new array, longer along `axis` by the number of inserted entries.
    """
    check_arraylike("insert", arr, 0 if isinstance(obj, slice) else obj, values)
    a = ensure_array(arr)
    if axis is None:
        a = ravel(a)
        axis = 0
    axis = canonicalize_axis(operator.index(axis), get_aval(a).ndim)
    n_input = get_aval(a).shape[axis]
    if isinstance(obj, slice):
        idx = arange(*obj.indices(n_input))
    else:
        idx = ensure_array(obj)
    iaval = get_aval(idx)
    if iaval.ndim > 1:
        raise ValueError(
            "jnp.insert(): obj must be a slice, a one-dimensional array, or a scalar; got "
            f"shape {iaval.shape}"
        )
    if iaval.dtype.kind not in "iu":
        if iaval.size == 0 and not isinstance(obj, Tracer):
            idx = sh.convert_element_type(idx, dtypes.default_int())
        else:
            raise ValueError(f"jnp.insert(): index array must be integer typed; got {iaval.dtype}")
    vals = array(values, ndmin=get_aval(a).ndim, dtype=get_aval(a).dtype, copy=False)
    if get_aval(idx).size == 1:
        index = ravel(idx)[0]
        if get_aval(idx).ndim == 0:
            vals = moveaxis(vals, 0, axis)
        idx = full(get_aval(vals).shape[axis], index)
    n_insert = broadcast_shapes(get_aval(idx).shape, (get_aval(vals).shape[axis],))[0]
    out_shape = list(get_aval(a).shape)
    out_shape[axis] += n_insert
    out = zeros_like(a, shape=tuple(out_shape))
    idx = idx.astype(dtypes.default_int())
    idx = clip(where(idx < 0, idx + n_input, idx), 0, n_input)
    values_ind = idx.at[argsort(idx)].add(arange(n_insert, dtype=idx.dtype))
    arr_mask = ones(n_input + n_insert, dtype=bool).at[values_ind].set(False)
    (arr_ind,) = nonzero(arr_mask, size=n_input)
    lead = (slice(None),) * axis
    vals = broadcast_to(vals, tuple(out_shape[:axis]) + (n_insert,) + tuple(out_shape[axis + 1 :]))
    out = out.at[lead + (values_ind,)].set(vals)
    return out.at[lead + (arr_ind,)].set(a)


def delete(
    arr: Any, obj: Any, axis: int | None = None, *, assume_unique_indices: bool = False
) -> Any:
    """`arr` without the entries at `obj` along `axis`.

    Args:
      arr: the input array.
      obj: an int, a slice, a 1-D int array of indices or a boolean mask along `axis`.
      axis: the axis to delete along; None deletes from the flattened array.
      assume_unique_indices: promise that integer `obj` has no duplicates; then `obj` may be
        traced (the output length is `len(arr) - len(obj)`).

    Returns:
      A new, shorter array.
    """
    check_arraylike("delete", arr, 0 if isinstance(obj, slice) else obj)
    obj = converted(obj)
    a = ensure_array(arr)
    if axis is None:
        a = ravel(a)
        axis = 0
    shape = get_aval(a).shape
    axis = canonicalize_axis(axis, len(shape))
    lead = (slice(None),) * axis
    if isinstance(obj, (int, np.integer)) and not isinstance(obj, bool):
        i = canonicalize_axis(int(obj), shape[axis])
        return concatenate([a[lead + (slice(0, i),)], a[lead + (slice(i + 1, None),)]], axis)
    if isinstance(obj, slice):
        obj = np.arange(shape[axis])[obj]
        assume_unique_indices = True
    obj_dtype = get_aval(obj).dtype if isinstance(obj, Tracer) else np.asarray(obj).dtype
    if obj_dtype.kind in "iu" and assume_unique_indices:
        o = ravel(ensure_array(obj)).astype(dtypes.default_int())
        o = clip(where(o < 0, o + shape[axis], o), 0, shape[axis])
        o = sort(o)
        o = o - arange(get_aval(o).size, dtype=o.dtype)
        keep = arange(shape[axis] - get_aval(o).size, dtype=o.dtype)
        keep = keep + (keep[None, :] >= o[:, None]).sum(0, dtype=keep.dtype)
        return a[lead + (keep,)]
    if isinstance(obj, Tracer):
        raise ConcretizationTypeError(
            "'obj' array argument of jnp.delete()",
            "Pass concrete indices, or unique integer indices with assume_unique_indices=True.",
        )
    o = np.asarray(obj)
    if o.dtype.kind in "iu":
        mask = np.ones(shape[axis], dtype=bool)
        mask[o] = False
    elif o.dtype == np.bool_:
        if o.shape != (shape[axis],):
            raise ValueError(
                "jnp.delete(arr, obj): for boolean indices, obj must be one-dimensional with "
                f"length matching the axis ({shape[axis]}); got shape {o.shape}"
            )
        mask = ~o
    else:
        raise ValueError(f"jnp.delete(arr, obj): got obj.dtype={o.dtype}; must be integer or bool.")
    return a[lead + (mask,)]


def place(arr: Any, mask: Any, vals: Any, *, inplace: bool = True) -> Any:
    """`arr` with the positions where `mask` is true filled by `vals`, repeated in order.

    Args:
      arr: the input array.
      mask: a boolean array with as many elements as `arr`.
      vals: the values to place (flattened; repeated when shorter than the number of trues).
      inplace: must be False (arrays are immutable).

    Returns:
      The updated array.
    """
    check_arraylike("place", arr, mask, vals)
    if inplace:
        raise _inplace_error("place")
    data, m, v = ensure_array(arr), ensure_array(mask), ravel(vals)
    if get_aval(data).size != get_aval(m).size:
        raise ValueError(
            f"place: arr and mask must be the same size, got {get_aval(data).size} and "
            f"{get_aval(m).size}"
        )
    if not get_aval(v).size:
        raise ValueError("Cannot place values from an empty array")
    n = get_aval(m).size
    if not n:
        return data
    (pos,) = nonzero(ravel(m), size=n, fill_value=n)
    out = ravel(data).at[pos].set(_tile_to_size(v, n), mode="drop")
    return reshape(out, get_aval(data).shape)


def put(a: Any, ind: Any, v: Any, mode: str | None = None, *, inplace: bool = True) -> Any:
    """`a` with the flat positions `ind` set to `v` (repeated to the length of `ind`).

    Args:
      a: the input array.
      ind: flat indices into `a`.
      v: values to put.
      mode: None wraps negative indices once and clamps the others (as JAX), "clip" clamps
        them, "wrap" wraps them around; "raise" is not supported.
      inplace: must be False (arrays are immutable).

    Returns:
      The updated array.
    """
    if inplace:
        raise _inplace_error("put")
    check_arraylike("put", a, ind, v)
    arr = ensure_array(a)
    idx, vals = ravel(ind), ravel(v)
    size = get_aval(arr).size
    if not size or not get_aval(idx).size or not get_aval(vals).size:
        return arr
    vals = _tile_to_size(vals, get_aval(idx).size)
    if mode == "clip":
        idx = clip(idx, 0, size - 1)
    elif mode == "wrap":
        idx = idx % size
    elif mode == "raise":
        raise NotImplementedError("The 'raise' mode to jnp.put is not supported.")
    elif mode is not None:
        raise ValueError(f"mode should be one of 'wrap' or 'clip'; got mode={mode!r}")
    # mode None: unravel_index's own handling, as JAX's (negative indices wrap once, others clamp)
    return arr.at[unravel_index(idx, get_aval(arr).shape)].set(vals)


def put_along_axis(
    arr: Any,
    indices: Any,
    values: Any,
    axis: int | None,
    inplace: bool = True,
    *,
    mode: str | None = None,
) -> Any:
    """`arr` with `values` written at `indices` along `axis` (the inverse of
    `take_along_axis`).

    Args:
      arr: the input array.
      indices: int array with `arr`'s number of dimensions (broadcastable against it).
      values: values broadcastable to `indices`' shape.
      axis: the axis to index; None works on the flattened array.
      inplace: must be False (arrays are immutable).
      mode: as for `x.at[...].set` (out-of-bounds updates are dropped by default).

    Returns:
      The updated array, of `arr`'s shape.
    """
    if inplace:
        raise _inplace_error("put_along_axis")
    check_arraylike("put_along_axis", arr, indices, values)
    a = ensure_array(arr)
    idx = ensure_array(indices)
    orig_shape = get_aval(a).shape
    if axis is None:
        a = ravel(a)
        axis = 0
    shape, ishape = get_aval(a).shape, get_aval(idx).shape
    if len(shape) != len(ishape):
        raise ValueError(
            "put_along_axis arguments 'arr' and 'indices' must have same ndim. Got "
            f"arr.ndim={len(shape)} and indices.ndim={len(ishape)}."
        )
    vals = broadcast_to(values, ishape)
    axis = canonicalize_axis(axis, len(shape))
    grid = list(_index_grids(shape, sparse=True))
    grid[axis] = idx
    out = a.at[tuple(grid)].set(vals, mode=mode)
    return reshape(out, orig_shape)


def fill_diagonal(a: Any, val: Any, wrap: bool = False, *, inplace: bool = True) -> Any:
    """`a` with its main diagonal set to `val` (repeated along the diagonal if an array).

    Args:
      a: an array of at least 2 dimensions; beyond 2, all of one length.
      val: a scalar or an array whose flattened values are cycled along the diagonal.
      wrap: must be False (numpy's wrapping of tall matrices is not implemented, as in JAX).
      inplace: must be False (arrays are immutable).

    Returns:
      The updated array.
    """
    if inplace:
        raise NotImplementedError(
            "JAX arrays are immutable, must use inplace=False\nCall "
            "jnp.fill_diagonal(a, val, inplace=False), which returns the updated array."
        )
    if wrap:
        raise NotImplementedError("wrap=True is not implemented, must use wrap=False")
    check_arraylike("fill_diagonal", a, val)
    a, v = ensure_array(a), ensure_array(val)
    shape = get_aval(a).shape
    if len(shape) < 2:
        raise ValueError("array must be at least 2-d")
    if len(shape) > 2 and len(set(shape)) != 1:
        raise ValueError(f"All dimensions of input must be of equal length, got shape {shape}")
    n = min(shape)
    idx = diag_indices(n, len(shape))
    return a.at[idx].set(v if get_aval(v).ndim == 0 else _tile_to_size(ravel(v), n))
