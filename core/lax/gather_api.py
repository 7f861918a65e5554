"""`jax.lax`'s general gather/scatter API, translated onto this core's point gather/scatter.

`lax.gather`/`lax.scatter*` take XLA dimension numbers: every row of `start_indices` (index
vector last) names the start of a window of `slice_sizes` in the operand. The primitives in
`core/prims/gather.py` index single points along some `axes` and take the other operand
dimensions whole. The translation builds one point index per element of every window
(start + iota, with iota columns for the operand/indices batching dimensions), takes the
dimensions whose window is the whole dimension as whole dimensions, then reshapes and transposes
the result into XLA's output layout (or the updates into the primitive's layout). Everything is
primitives with their own rules, so grad, vmap and jit need nothing more.

Out-of-bounds windows follow `GatherScatterMode`: CLIP clamps every start so its window fits;
FILL_OR_DROP fills (gather) or drops (scatter) a whole window when any of it is out of bounds,
by moving its start past the end so that every point of it is out of bounds; PROMISE_IN_BOUNDS
clamps gathers and drops scatters, as XLA does on CPU.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

from core.errors import NumbaxError, ShapeError
from core.prims import elementwise as ew
from core.prims import gather as gt
from core.prims import shapes as sh
from core.prims.indexing import concatenate
from core.prims.indexing import slice as static_slice
from core.trace import get_aval


class GatherScatterUnsupportedError(NumbaxError, NotImplementedError):
    """A gather/scatter mode or dimension-number field this translation does not support.

    Failing code: ``lax.gather(x, idx, dnums, slice_sizes, mode=GatherScatterMode.ONE_HOT)``.
    Fix: ``mode="clip"``, ``"fill"`` or ``"promise_in_bounds"``, or index with ``x.at[...]``.
    """


class GatherDimensionNumbers(NamedTuple):
    """XLA gather dimension numbers (the index vector is always the last indices dimension).

    Args:
      offset_dims: output dimensions holding the window dimensions, ascending.
      collapsed_slice_dims: operand dimensions of window size 1 left out of the output.
      start_index_map: the operand dimension each column of the index vector starts.
      operand_batching_dims: operand dimensions paired with `start_indices_batching_dims`.
      start_indices_batching_dims: the indices dimensions paired with them.
    """

    offset_dims: tuple[int, ...]
    collapsed_slice_dims: tuple[int, ...]
    start_index_map: tuple[int, ...]
    operand_batching_dims: tuple[int, ...] = ()
    start_indices_batching_dims: tuple[int, ...] = ()


class ScatterDimensionNumbers(NamedTuple):
    """XLA scatter dimension numbers (the index vector is always the last indices dimension).

    Args:
      update_window_dims: dimensions of `updates` holding the window dimensions, ascending.
      inserted_window_dims: operand dimensions of window size 1 absent from `updates`.
      scatter_dims_to_operand_dims: the operand dimension each index-vector column starts.
      operand_batching_dims: operand dimensions paired with `scatter_indices_batching_dims`.
      scatter_indices_batching_dims: the indices dimensions paired with them.
    """

    update_window_dims: tuple[int, ...]
    inserted_window_dims: tuple[int, ...]
    scatter_dims_to_operand_dims: tuple[int, ...]
    operand_batching_dims: tuple[int, ...] = ()
    scatter_indices_batching_dims: tuple[int, ...] = ()


class GatherScatterMode(enum.Enum):
    """How out-of-bounds windows are handled (see the module docstring)."""

    CLIP = enum.auto()
    FILL_OR_DROP = enum.auto()
    PROMISE_IN_BOUNDS = enum.auto()
    ONE_HOT = enum.auto()

    @staticmethod
    def from_any(s: str | GatherScatterMode | None) -> GatherScatterMode:
        """The mode named by `s`: None, "fill" and "drop" mean FILL_OR_DROP."""
        if isinstance(s, GatherScatterMode):
            return s
        named = {
            "clip": GatherScatterMode.CLIP,
            None: GatherScatterMode.FILL_OR_DROP,
            "fill": GatherScatterMode.FILL_OR_DROP,
            "drop": GatherScatterMode.FILL_OR_DROP,
            "promise_in_bounds": GatherScatterMode.PROMISE_IN_BOUNDS,
            "one_hot": GatherScatterMode.ONE_HOT,
        }
        if s not in named:
            raise ValueError(f'Unknown gather mode "{s}"')
        return named[s]


class _Plan(NamedTuple):
    """The point-index form of one gather/scatter: `points` index `axes`, the rest is whole."""

    points: Any  # int32 (*batch, *window sizes of axes, len(axes)), or None if axes is empty
    axes: tuple[int, ...]
    whole: tuple[int, ...]
    batch_shape: tuple[int, ...]
    window: tuple[int, ...]  # window size of every operand dimension


def _tuple(name: str, v: Any) -> tuple[int, ...]:
    try:
        return tuple(int(i) for i in v)
    except TypeError:
        raise TypeError(f"{name} must be a sequence of integers, got {v!r}") from None


def _indices_int32(idx: Any, bound: int) -> Any:
    """`idx` as int32, clamped first into [-1, bound] (in its own dtype) so nothing wraps."""
    dt = get_aval(idx).dtype
    if dt.kind not in "iu":
        raise TypeError(f"gather/scatter indices must be integers, got {dt}")
    info = np.iinfo(dt)
    if info.min < -1:
        idx = ew.max(idx, max(-1, int(info.min)))
    if info.max > bound:
        idx = ew.min(idx, bound)
    return sh.convert_element_type(idx, np.int32)


def _plan(
    name: str,
    shape: tuple[int, ...],
    idx: Any,
    start_map: tuple[int, ...],
    dropped: tuple[int, ...],
    op_batch: tuple[int, ...],
    idx_batch: tuple[int, ...],
    window: tuple[int, ...],
    clamp: bool,
) -> _Plan:
    """Checks the dimension numbers and builds the point indices (see the module docstring)."""
    iaval = get_aval(idx)
    if iaval.ndim == 0:
        raise ShapeError(f"{name} indices must have an index-vector dimension, got shape ()")
    batch_shape, r, nb = iaval.shape[:-1], len(shape), iaval.ndim - 1
    if iaval.shape[-1] != len(start_map):
        raise ShapeError(
            f"{name}: the index vector has {iaval.shape[-1]} entries (indices shape "
            f"{iaval.shape}) but the dimension numbers map {len(start_map)}: {start_map}"
        )
    if len(window) != r or any(not 0 <= w <= n for w, n in zip(window, shape)):
        raise ShapeError(f"{name}: window sizes {window} do not fit the operand shape {shape}")
    for field, dims in (("start dims", start_map), ("dropped dims", dropped)):
        if any(not 0 <= d < r for d in dims) or len(set(dims)) != len(dims):
            raise ShapeError(f"{name}: invalid {field} {dims} for an operand of rank {r}")
    if len(op_batch) != len(idx_batch) or any(not 0 <= d < nb for d in idx_batch):
        raise ShapeError(
            f"{name}: operand batching dims {op_batch} and indices batching dims {idx_batch} "
            f"must pair up, the latter among the {nb} indices batch dimensions"
        )
    for od, i in zip(op_batch, idx_batch):
        if od in start_map or od in dropped or shape[od] != batch_shape[i] or window[od] != 1:
            raise ShapeError(
                f"{name}: operand batching dim {od} (size {shape[od]}) must have window size "
                f"1, match indices dim {i} (size {batch_shape[i]}) and not be indexed"
            )
    if any(window[d] != 1 for d in dropped):
        raise ShapeError(f"{name}: collapsed/inserted dims {dropped} need window size 1")

    whole = tuple(
        d
        for d in range(r)
        if d not in start_map and d not in op_batch and d not in dropped and window[d] == shape[d]
    )
    axes = tuple(d for d in range(r) if d not in whole)
    if not axes:
        return _Plan(None, axes, whole, batch_shape, window)

    bound = max(shape) if shape else 0
    cols = {}
    valid = None
    for j, d in enumerate(start_map):
        col = static_slice(idx, (0,) * nb + (j,), (*batch_shape, j + 1))
        col = _indices_int32(sh.reshape(col, batch_shape), bound)
        hi = shape[d] - window[d]
        if clamp:
            col = ew.min(ew.max(col, 0), hi)
        else:
            ok = ew.bitwise_and(ew.ge(col, 0), ew.le(col, hi))
            valid = ok if valid is None else ew.bitwise_and(valid, ok)
        cols[d] = col
    if valid is not None:  # a window not wholly in bounds moves past the end: all of it is out
        d = start_map[0]
        cols[d] = ew.select(valid, cols[d], ew.full_like(cols[d], shape[d]))
    for od, i in zip(op_batch, idx_batch):
        cols[od] = sh.iota(np.int32, batch_shape, i)

    full = (*batch_shape, *(window[d] for d in axes))
    parts = []
    for k, d in enumerate(axes):
        coord = None
        if d in cols:
            coord = sh.broadcast_in_dim(cols[d], full, tuple(range(nb)))
        if window[d] != 1:
            offset = sh.iota(np.int32, full, nb + k)
            coord = offset if coord is None else ew.add(coord, offset)
        if coord is None:
            coord = sh.full(full, 0, np.int32)
        parts.append(sh.reshape(coord, (*full, 1)))
    return _Plan(concatenate(parts, len(full)), axes, whole, batch_shape, window)


def _permutation(order: Sequence[int]) -> tuple[int, ...]:
    return tuple(int(i) for i in np.argsort(order))


def gather(
    operand: Any,
    start_indices: Any,
    dimension_numbers: GatherDimensionNumbers,
    slice_sizes: Sequence[int],
    *,
    unique_indices: bool = False,
    indices_are_sorted: bool = False,
    mode: str | GatherScatterMode | None = None,
    fill_value: Any = None,
) -> Any:
    """`lax.gather`: the windows of `slice_sizes` starting at each row of `start_indices`.

    Args:
      operand: the array to gather from.
      start_indices: integer array whose last dimension is the index vector.
      dimension_numbers: a `GatherDimensionNumbers`.
      slice_sizes: the window size in every operand dimension.
      unique_indices: a hint, ignored.
      indices_are_sorted: a hint, ignored.
      mode: a `GatherScatterMode` or "clip"/"fill"/"promise_in_bounds"; default
        PROMISE_IN_BOUNDS (clamped, as in JAX).
      fill_value: the value of out-of-bounds windows under FILL_OR_DROP (default NaN for
        inexact dtypes, the minimum signed / maximum unsigned integer, True).

    Returns:
      The gathered array: batch dimensions of `start_indices` interleaved with the window
      dimensions at `offset_dims`.
    """
    del unique_indices, indices_are_sorted
    dn = GatherDimensionNumbers(*(_tuple("dimension_numbers", f) for f in dimension_numbers))
    # JAX's gather defaults to PROMISE_IN_BOUNDS (clamping); its scatters to FILL_OR_DROP
    mode = GatherScatterMode.from_any(GatherScatterMode.PROMISE_IN_BOUNDS if mode is None else mode)
    if mode is GatherScatterMode.ONE_HOT:
        raise GatherScatterUnsupportedError("lax.gather: mode=ONE_HOT is not supported")
    shape = get_aval(operand).shape
    window = _tuple("slice_sizes", slice_sizes)
    fill = mode is GatherScatterMode.FILL_OR_DROP
    plan = _plan(
        "gather",
        shape,
        start_indices,
        dn.start_index_map,
        dn.collapsed_slice_dims,
        dn.operand_batching_dims,
        dn.start_indices_batching_dims,
        window,
        clamp=not fill,
    )
    nb = len(plan.batch_shape)
    kept = [
        d for d in range(len(shape)) if d not in dn.collapsed_slice_dims + dn.operand_batching_dims
    ]
    out_rank = nb + len(kept)
    if (
        len(dn.offset_dims) != len(kept)
        or list(dn.offset_dims) != sorted(set(dn.offset_dims))
        or any(not 0 <= p < out_rank for p in dn.offset_dims)
    ):
        raise ShapeError(
            f"gather: offset_dims {dn.offset_dims} must be {len(kept)} ascending output "
            f"dimensions (output rank {out_rank}), one per operand dim not collapsed or batched"
        )
    if plan.points is None:
        out = sh.broadcast_in_dim(
            operand, (*plan.batch_shape, *shape), tuple(range(nb, nb + len(shape)))
        )
    else:
        out = gt.gather(
            operand, plan.points, plan.axes, mode="fill" if fill else "clip", fill_value=fill_value
        )
        # (*batch, *axes windows, *whole dims) -> (*batch, operand dims in order)
        order = [*range(nb), *(nb + d for d in (*plan.axes, *plan.whole))]
        out = sh.transpose(out, _permutation(order))
    out = sh.reshape(out, (*plan.batch_shape, *(window[d] for d in kept)))
    batch_pos = [p for p in range(out_rank) if p not in dn.offset_dims]
    source = [0] * out_rank
    for i, p in enumerate(batch_pos):
        source[p] = i
    for j, p in enumerate(dn.offset_dims):
        source[p] = nb + j
    return sh.transpose(out, tuple(source)) if source != sorted(source) else out


def _scatter(
    name: str,
    kind: str,
    operand: Any,
    scatter_indices: Any,
    updates: Any,
    dimension_numbers: ScatterDimensionNumbers,
    mode: str | GatherScatterMode | None,
) -> Any:
    dn = ScatterDimensionNumbers(*(_tuple("dimension_numbers", f) for f in dimension_numbers))
    mode = GatherScatterMode.from_any(mode)
    if mode is GatherScatterMode.ONE_HOT:
        raise GatherScatterUnsupportedError(f"lax.{name}: mode=ONE_HOT is not supported")
    shape, ushape = get_aval(operand).shape, get_aval(updates).shape
    kept = [
        d for d in range(len(shape)) if d not in dn.inserted_window_dims + dn.operand_batching_dims
    ]
    if len(dn.update_window_dims) != len(kept) or any(
        not 0 <= p < len(ushape) for p in dn.update_window_dims
    ):
        raise ShapeError(
            f"{name}: update_window_dims {dn.update_window_dims} must name {len(kept)} "
            f"dimensions of the updates (shape {ushape}), one per operand dim not inserted or "
            "batched"
        )
    window = [1] * len(shape)
    for d, p in zip(kept, dn.update_window_dims):
        window[d] = ushape[p]
    plan = _plan(
        name,
        shape,
        scatter_indices,
        dn.scatter_dims_to_operand_dims,
        dn.inserted_window_dims,
        dn.operand_batching_dims,
        dn.scatter_indices_batching_dims,
        tuple(window),
        clamp=mode is GatherScatterMode.CLIP,
    )
    nb = len(plan.batch_shape)
    batch_pos = [p for p in range(len(ushape)) if p not in dn.update_window_dims]
    if tuple(ushape[p] for p in batch_pos) != plan.batch_shape:
        raise ShapeError(
            f"{name}: updates of shape {ushape} have scatter batch dims "
            f"{tuple(ushape[p] for p in batch_pos)} but the indices batch shape is "
            f"{plan.batch_shape}"
        )
    if plan.points is None:  # nothing indexed: every update lands on the whole operand
        raise GatherScatterUnsupportedError(
            f"lax.{name}: dimension numbers {dn} index no operand dimension; not supported"
        )
    u = sh.transpose(updates, (*batch_pos, *dn.update_window_dims))
    u = sh.reshape(u, (*plan.batch_shape, *window))
    order = [*range(nb), *(nb + d for d in (*plan.axes, *plan.whole))]
    u = sh.transpose(u, tuple(order))
    smode = "clip" if mode is GatherScatterMode.CLIP else "drop"
    return gt.scatter(operand, plan.points, u, plan.axes, kind=kind, mode=smode)


def _scatter_fn(kind: str, name: str, doc: str) -> Callable:
    def fn(
        operand: Any,
        scatter_indices: Any,
        updates: Any,
        dimension_numbers: ScatterDimensionNumbers,
        *,
        indices_are_sorted: bool = False,
        unique_indices: bool = False,
        mode: str | GatherScatterMode | None = None,
    ) -> Any:
        del indices_are_sorted, unique_indices
        if kind == "sub":
            return _scatter(
                name, "add", operand, scatter_indices, ew.neg(updates), dimension_numbers, mode
            )
        return _scatter(name, kind, operand, scatter_indices, updates, dimension_numbers, mode)

    fn.__name__ = name
    fn.__doc__ = f"""`lax.{name}`: {doc}

    Args:
      operand: the array to update.
      scatter_indices: integer array whose last dimension is the index vector.
      updates: the windows, batch dimensions interleaved with `update_window_dims`.
      dimension_numbers: a `ScatterDimensionNumbers`.
      indices_are_sorted: a hint, ignored.
      unique_indices: a hint, ignored.
      mode: a `GatherScatterMode` or "clip"/"drop"/"promise_in_bounds"; default FILL_OR_DROP.

    Returns:
      The updated copy of `operand`.
    """
    return fn


scatter = _scatter_fn("set", "scatter", "writes `updates` at the windows (repeats: one wins).")
scatter_add = _scatter_fn("add", "scatter_add", "adds `updates` into the windows.")
scatter_sub = _scatter_fn("sub", "scatter_sub", "subtracts `updates` from the windows.")
scatter_mul = _scatter_fn("mul", "scatter_mul", "multiplies the windows by `updates`.")
scatter_min = _scatter_fn("min", "scatter_min", "the minimum of the windows and `updates`.")
scatter_max = _scatter_fn("max", "scatter_max", "the maximum of the windows and `updates`.")


def scatter_apply(
    operand: Any,
    scatter_indices: Any,
    func: Callable[[Any], Any],
    dimension_numbers: ScatterDimensionNumbers,
    *,
    update_shape: Sequence[int] = (),
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    mode: str | GatherScatterMode | None = None,
) -> Any:
    """`lax.scatter_apply`: `func` applied to the operand at the scattered windows.

    Gathers the windows, applies `func` and scatters the results back. A location named by
    several windows gets `func` applied once (XLA applies it once per window).

    Args:
      operand: the array to update.
      scatter_indices: integer array whose last dimension is the index vector.
      func: an elementwise function of one array.
      dimension_numbers: a `ScatterDimensionNumbers`.
      update_shape: the shape the updates would have (batch and window dimensions).
      indices_are_sorted: a hint, ignored.
      unique_indices: a hint, ignored.
      mode: as for `scatter`.

    Returns:
      The updated copy of `operand`.
    """
    del indices_are_sorted, unique_indices
    dn = ScatterDimensionNumbers(*(_tuple("dimension_numbers", f) for f in dimension_numbers))
    shape, update_shape = get_aval(operand).shape, _tuple("update_shape", update_shape)
    window = [1] * len(shape)
    kept = [
        d for d in range(len(shape)) if d not in dn.inserted_window_dims + dn.operand_batching_dims
    ]
    for d, p in zip(kept, dn.update_window_dims):
        window[d] = update_shape[p]
    gdn = GatherDimensionNumbers(
        dn.update_window_dims,
        dn.inserted_window_dims,
        dn.scatter_dims_to_operand_dims,
        dn.operand_batching_dims,
        dn.scatter_indices_batching_dims,
    )
    mode = GatherScatterMode.from_any(mode)
    values = gather(operand, scatter_indices, gdn, window, mode=mode, fill_value=0)
    return _scatter("scatter_apply", "set", operand, scatter_indices, func(values), dn, mode)
