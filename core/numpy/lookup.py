"""Look-ups along one axis: `take`, `take_along_axis` (one `gather` each) and `searchsorted`.

Indices are wrapped (negative ones count from the end) or reduced modulo the size
(`mode="wrap"`); out-of-bounds ones give `fill_value` (`mode="fill"`, the default) or are
clamped (`mode="clip"`), as in JAX. `x[idx]` (`core/numpy/indexing.py`) shares the index
wrapping and the gather modes defined here.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from core import dtypes
from core.jit.library import library_jit
from core.numpy._util import (
    broadcast_shapes,
    canonicalize_axis,
    check_arraylike,
    ensure_array,
    promote_dtypes,
)
from core.numpy.ufuncs import (
    add,
    bitwise_and,
    bitwise_or,
    equal,
    imag,
    isnan,
    less,
    less_equal,
    logical_not,
    multiply,
    not_equal,
    real,
    remainder,
)
from core.numpy.where import where
from core.prims import elementwise as ew
from core.prims import gather as gp
from core.prims import shapes as sh
from core.prims.reductions import reduce_sum
from core.trace import get_aval

PROMISE_IN_BOUNDS = "promise_in_bounds"  # JAX's default gather mode: clamps, drops OOB cotangents


def wrap_negative(i: Any, n: int) -> Any:
    """Wraps negative indices (numpy semantics); concrete indices are wrapped in numpy."""
    if isinstance(i, np.ndarray):
        return np.where(i < 0, i + n, i).astype(i.dtype) if i.dtype.kind == "i" else i
    if get_aval(i).dtype.kind == "u":
        return i
    negative = ew.lt(i, ew.full_like(i, 0, shape=()))  # rank-0 constants, as JAX's
    return ew.select_n(negative, i, ew.add(i, ew.full_like(i, n, shape=())))


def gather_mode(mode: str | None, default: str) -> str:
    mode = default if mode is None else mode
    if mode not in ("clip", "fill", "wrap", "drop", PROMISE_IN_BOUNDS):
        raise ValueError(f"Invalid mode {mode!r}: expected 'clip', 'fill', 'wrap' or None")
    return "fill" if mode == "drop" else mode


def prim_mode(mode: str) -> str:
    """The gather's mode for a `gather_mode` (wrapped indices are in bounds: JAX promises)."""
    return PROMISE_IN_BOUNDS if mode == "wrap" else mode


def _prep_indices(indices: Any, n: int, mode: str, wrap_negatives: bool = True) -> Any:
    idx = ensure_array(indices)
    if get_aval(idx).dtype.kind not in "iu":
        raise ValueError(
            f"indices must have an integer type\ntake's indices are {get_aval(idx).dtype}: "
            "convert them with `.astype(jnp.int32)`."
        )
    if get_aval(idx).dtype != dtypes.default_int():  # (a weak int index stays as it is: JAX's)
        idx = sh.convert_element_type(idx, dtypes.default_int())
    if mode == "wrap":
        return remainder(idx, n)
    return wrap_negative(idx, n) if wrap_negatives else idx


def take(
    a: Any,
    indices: Any,
    axis: int | None = None,
    out: Any = None,
    mode: str | None = None,
    unique_indices: bool = False,
    indices_are_sorted: bool = False,
    fill_value: Any = None,
) -> Any:
    """Elements of `a` at `indices` along `axis` (the flattened array when None), as `jnp.take`.

    Args:
      a: the array.
      indices: integer indices.
      axis: the axis to index (None: the flattened array).
      out: unsupported (JAX's NotImplementedError when given).
      mode: out-of-bounds handling: "fill" (the default: `fill_value`; negative indices count
        from the end), "clip" (clamp: negative indices give the first element, as in JAX) or
        "wrap" (modulo).
      unique_indices: a promise that the indices are distinct.
      indices_are_sorted: a promise that the indices are sorted.
      fill_value: the value of out-of-bounds indices with "fill" (NaN, or the dtype's
        smallest value).

    Returns:
      The gathered values. Non-empty indices into an empty axis are JAX's IndexError.
    """
    check_arraylike("take", a, indices)
    if _is_empty_axis(a, axis) and math.prod(np.shape(indices)):
        raise IndexError("Cannot do a non-empty jnp.take() from an empty axis.")
    return take_filling(a, indices, axis, out, mode, unique_indices, indices_are_sorted, fill_value)


def _is_empty_axis(a: Any, axis: int | None) -> bool:
    shape = np.shape(a)
    if axis is None:
        return math.prod(shape) == 0
    return bool(shape) and shape[canonicalize_axis(axis, len(shape))] == 0


@library_jit(
    static_argnames=("axis", "mode", "unique_indices", "indices_are_sorted", "fill_value"),
    name="_take",  # JAX's jitted part of take
)
def take_filling(
    a: Any,
    indices: Any,
    axis: int | None = None,
    out: Any = None,
    mode: str | None = None,
    unique_indices: bool = False,
    indices_are_sorted: bool = False,
    fill_value: Any = None,
) -> Any:
    """`take`, where non-empty indices into an empty axis read the fill value (or 0): what
    numbax's own functions use (the quantiles of an empty axis are NaN, numpy's answer; the
    padding of `unique(size=...)` of an empty array)."""
    check_arraylike("take", a, indices)
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.take is not supported.")
    a = ensure_array(a)
    if axis is None:
        a = sh.reshape(a, (get_aval(a).size,))
        axis = 0
    shape = get_aval(a).shape
    axis = canonicalize_axis(axis, len(shape))
    if mode == "raise":
        raise NotImplementedError("The 'raise' mode to jnp.take is not supported.")
    if mode not in (None, "fill", "wrap", "clip"):
        raise ValueError(f"Invalid mode '{mode}' for np.take")
    mode = gather_mode(mode, "fill")
    idx = _prep_indices(indices, shape[axis], mode, wrap_negatives=False)
    if mode == "fill":  # negative indices count from the end (JAX's jnp.where)
        idx = where(less(idx, 0), add(idx, shape[axis]), idx)
    ishape, nd = get_aval(idx).shape, len(shape)
    out_shape = (*shape[:axis], *ishape, *shape[axis + 1 :])
    if shape[axis] == 0 or int(np.prod(ishape)) == 0:
        # (JAX raises IndexError for a non-empty take from an empty axis; numbax fills, as its
        # quantiles of an empty axis are numpy's NaN)
        fill = gp.default_fill_value(get_aval(a).dtype) if fill_value is None else fill_value
        value = fill if mode == "fill" and int(np.prod(ishape)) else 0
        return sh.full(out_shape, value, get_aval(a).dtype)
    nb = len(ishape)
    dn = gp.GatherDimensionNumbers(
        offset_dims=(*range(axis), *range(axis + nb, nd + nb - 1)),
        collapsed_slice_dims=(axis,),
        start_index_map=(axis,),
    )
    return gp.bind_gather(
        a,
        sh.expand_dims(idx, (nb,)),
        dn,
        tuple(1 if d == axis else n for d, n in enumerate(shape)),
        mode=prim_mode(mode),
        unique_indices=unique_indices,
        indices_are_sorted=indices_are_sorted,
        fill_value=fill_value,
    )


@library_jit(static_argnames=("axis", "mode", "fill_value", "wrap_negative_indices"))
def take_along_axis(
    arr: Any,
    indices: Any,
    axis: int | None = -1,
    mode: str | None = None,
    fill_value: Any = None,
    *,
    wrap_negative_indices: bool | None = None,
) -> Any:
    """`arr` gathered at `indices` along `axis`; other dimensions broadcast against each other.

    Args:
      arr: the array.
      indices: integer indices, of `arr`'s rank.
      axis: the axis to index (None: the flattened array).
      mode: out-of-bounds handling: "fill" (the default: `fill_value`), "clip",
        "promise_in_bounds", or "one_hot" (JAX's: a sum of `arr` times the indices' one-hot
        rows, so out-of-bounds indices give 0 and an inf or NaN on the axis spreads).
      fill_value: the value of out-of-bounds indices with "fill" (NaN, or the dtype's
        smallest value).
      wrap_negative_indices: count negative indices from the end (None: unless `mode` is
        "promise_in_bounds", as JAX).

    Returns:
      The gathered values.
    """
    check_arraylike("take_along_axis", arr, indices)
    arr = ensure_array(arr)
    idx = ensure_array(indices)
    if get_aval(idx).dtype.kind not in "iu":
        raise TypeError(
            f"take_along_axis indices must be of integer type, got {get_aval(idx).dtype}"
        )
    if axis is None:
        if get_aval(idx).ndim != 1:
            raise ValueError(
                f"take_along_axis indices must be 1D if axis=None, got shape {get_aval(idx).shape}"
            )
        arr = sh.reshape(arr, (get_aval(arr).size,))
        axis = 0
    ashape, ishape = get_aval(arr).shape, get_aval(idx).shape
    if len(ashape) != len(ishape):
        raise ValueError(
            "indices and arr must have the same number of dimensions; "
            f"{len(ishape)} vs. {len(ashape)}\nThe shapes are {ishape} and {ashape}."
        )
    axis = canonicalize_axis(axis, len(ashape))
    if mode == "wrap":  # a gather mode, as JAX's take_along_axis reads it, not a take mode
        raise ValueError('Unknown gather mode "wrap"')
    mode = mode if mode == "one_hot" else gather_mode(mode, "fill")
    arr_shape = (*ashape[:axis], 1, *ashape[axis + 1 :])
    out_shape = broadcast_shapes(ishape, arr_shape)  # JAX's message on a mismatch
    if ashape[axis] == 0:
        return sh.full(out_shape, 0, get_aval(arr).dtype)
    if wrap_negative_indices is None:
        wrap_negative_indices = mode != PROMISE_IN_BOUNDS
    idx = _prep_indices(idx, ashape[axis], mode, wrap_negative_indices)
    if mode == "one_hot":
        return _take_along_one_hot(arr, idx, axis)
    # JAX's: the index's size-1 dims take the array's whole, the array's size-1 dims are
    # squeezed, the others are batching dims of both
    index_dims = [d for d, n in enumerate(ishape) if d == axis or n != 1]
    idx = sh.reshape(idx, (*(out_shape[d] for d in index_dims), 1))
    sizes, offset, squeezed, op_batch, idx_batch = [], [], [], [], []
    new_d = j = 0
    for d in range(len(ashape)):
        if d == axis:
            sizes.append(1)
            start = new_d
            new_d, j = new_d + 1, j + 1
        elif ishape[d] == 1:
            offset.append(d)
            sizes.append(arr_shape[d])
            new_d += 1
        elif arr_shape[d] == 1:
            squeezed.append(d)
            j += 1
        else:
            sizes.append(0 if arr_shape[d] == 0 else 1)
            op_batch.append(new_d)
            idx_batch.append(j)
            new_d, j = new_d + 1, j + 1
    arr = sh.squeeze(arr, tuple(squeezed))
    dn = gp.GatherDimensionNumbers(tuple(offset), (start,), (start,), tuple(op_batch),
                                   tuple(idx_batch))  # fmt: skip
    return gp.bind_gather(arr, idx, dn, tuple(sizes), mode=prim_mode(mode), fill_value=fill_value)


_SEARCH_METHODS = ("compare_all", "scan", "scan_unrolled", "sort")


def _sort_order_cmp(a: Any, v: Any, side: str) -> Any:
    # `a < v` (side "left") or `a <= v` (side "right") in the order of lax.sort, as JAX's
    # searchsorted compares: NaN after every number (so NaN queries go to the end of `a`),
    # -0.0 equal to 0.0, and complex numbers by real then imaginary part.
    le = side == "right"
    kind = dtypes.kind(get_aval(a).dtype)  # (bfloat16 is a float)
    if kind == "c":
        ar, ai, vr, vi = real(a), imag(a), real(v), imag(v)
        lt_r = _sort_order_cmp(ar, vr, "left")
        eq_r = bitwise_or(equal(ar, vr), bitwise_and(isnan(ar), isnan(vr)))
        return bitwise_or(lt_r, bitwise_and(eq_r, _sort_order_cmp(ai, vi, side)))
    if kind != "f":
        return (less_equal if le else less)(a, v)
    if le:
        return bitwise_or(less_equal(a, v), isnan(v))
    return bitwise_or(less(a, v), bitwise_and(isnan(v), logical_not(isnan(a))))


def searchsorted(
    a: Any, v: Any, side: str = "left", sorter: Any = None, *, method: str = "scan"
) -> Any:
    """Insertion points of `v` into the sorted 1-D `a`, like `numpy.searchsorted`.

    Args:
      a: the sorted 1-D array (or sorted by `sorter`).
      v: the values to insert.
      side: "left" (the first suitable index) or "right" (the last).
      sorter: indices that sort `a`.
      method: JAX's algorithm name: "scan" and "scan_unrolled" bisect (`ceil(log2(n + 1))`
        halvings), "sort" and "compare_all" count the entries before each value. They agree
        for a sorted `a`; for an unsorted one each gives JAX's answer of that method.

    Returns:
      int32 indices (int64 past 2**31 entries) shaped like `v`. NaNs sort last, as in JAX.
    """
    check_arraylike("searchsorted", a, v, *(() if sorter is None else (sorter,)))
    a = ensure_array(a)
    if get_aval(a).ndim != 1:
        raise ValueError(f"a should be 1-dimensional\nsearchsorted: got shape {get_aval(a).shape}")
    a, v = promote_dtypes(a, ensure_array(v))
    if sorter is not None:
        a = take(a, sorter)
    if side not in ("left", "right"):
        raise ValueError(f"invalid argument side={side!r}, expected 'left' or 'right'")
    if method not in _SEARCH_METHODS:
        raise ValueError(
            f"invalid argument method={method!r}, expected one of {list(_SEARCH_METHODS)}"
        )
    vshape = get_aval(v).shape
    n = get_aval(a).shape[0]
    out_dtype = np.dtype(np.int64 if n > np.iinfo(np.int32).max else np.int32)
    if method in ("scan", "scan_unrolled"):
        return _bisect(a, v, side, out_dtype)
    # both of rank len(vshape) + 1, so no rank promotion (which the config may forbid)
    a_row = sh.reshape(a, (1,) * len(vshape) + (n,))
    hits = _sort_order_cmp(a_row, sh.reshape(v, (*vshape, 1)), side)
    return reduce_sum(sh.convert_element_type(hits, out_dtype), (len(vshape),))


def _take_along_one_hot(arr: Any, idx: Any, axis: int) -> Any:
    """`take_along_axis` as JAX's mode "one_hot" computes it: the sum over the axis of `arr`
    times `idx`'s one-hot rows (`idx` already wrapped; both operands of one rank)."""
    ashape, ishape = get_aval(arr).shape, get_aval(idx).shape
    n, dt = ashape[axis], get_aval(arr).dtype
    work = np.dtype(np.int32) if dt == np.bool_ else dt
    positions = sh.reshape(sh.iota(get_aval(idx).dtype, n), (1,) * len(ishape) + (n,))
    hot = sh.convert_element_type(equal(sh.reshape(idx, (*ishape, 1)), positions), work)
    rest = [d for d in range(len(ashape)) if d != axis]
    moved = sh.transpose(sh.convert_element_type(arr, work), (*rest, axis))
    moved = sh.reshape(moved, (*ashape[:axis], 1, *ashape[axis + 1 :], n))
    out = reduce_sum(multiply(hot, moved), (len(ishape),))
    return not_equal(out, 0) if work != dt else out


def _bisect(a: Any, v: Any, side: str, out_dtype: np.dtype) -> Any:
    """Insertion points of `v` into `a` found by halving `[low, high)` `ceil(log2(n + 1))`
    times, moving `low` up to the middle while the middle entry sorts before the value (or
    equal to it for side "right")."""
    n = get_aval(a).shape[0]
    vshape = get_aval(v).shape
    low = sh.full(vshape, 0, out_dtype)
    high = sh.full(vshape, n, out_dtype)
    two = sh.full(vshape, 2, out_dtype)
    for _ in range(int(np.ceil(np.log2(n + 1)))):
        mid = ew.div(ew.add(low, high), two)
        right = _sort_order_cmp(take(a, mid, mode="clip"), v, side)
        low, high = where(right, mid, low), where(right, high, mid)
    return high
