"""XLA's gather/scatter dimension numbers and modes, their checks, and the point form.

`GatherDimensionNumbers`, `ScatterDimensionNumbers` and `GatherScatterMode` are JAX's types.
What runs is the point gather/scatter of `core/prims/gather_points.py` (one index per indexed
operand dimension, the other dimensions whole): `_plan` builds one point index per element of
every window (start + iota, with iota columns for the batching dimensions; starts clamped, or
moved past the end for FILL_OR_DROP), `_point_form` binds dimension numbers already in point
form directly, and `_to_layout` moves the window dimensions to XLA's places. The primitives
(`core/prims/gather.py`) and their batching rules (`core/prims/gather_batching.py`) build on
these; nothing here binds a gather or scatter.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from core.errors import NumbaxError, ShapeError
from core.prims import elementwise as ew
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


_CLIP, _FILL, _PROMISE = (
    GatherScatterMode.CLIP,
    GatherScatterMode.FILL_OR_DROP,
    GatherScatterMode.PROMISE_IN_BOUNDS,
)


# ---------------------------------------------------------------------------------------------
# From XLA's dimension numbers to the point form


def _check(
    name: str,
    shape: tuple[int, ...],
    ishape: tuple[int, ...],
    start_map: tuple[int, ...],
    dropped: tuple[int, ...],
    op_batch: tuple[int, ...],
    idx_batch: tuple[int, ...],
    window: tuple[int, ...],
) -> None:
    """Checks dimension numbers against the operand and indices shapes."""
    if not ishape:
        raise ShapeError(f"{name} indices must have an index-vector dimension, got shape ()")
    batch_shape, r, nb = ishape[:-1], len(shape), len(ishape) - 1
    if ishape[-1] != len(start_map):
        raise ShapeError(
            f"{name}: the index vector has {ishape[-1]} entries (indices shape "
            f"{ishape}) but the dimension numbers map {len(start_map)}: {start_map}"
        )
    # (an indexed empty dimension takes windows of 1: every index is out of bounds; so does an
    # empty operand batching dimension, as a vmap over zero rows makes: there are no indices)
    if len(window) != r or any(
        not 0 <= w <= n and not (w == 1 and (d in start_map or d in op_batch))
        for d, (w, n) in enumerate(zip(window, shape))
    ):
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
        # window 0 or 1, as XLA's (jnp.take_along_axis takes 0 along an empty batching dim)
        if od in start_map or od in dropped or shape[od] != batch_shape[i] or window[od] > 1:
            raise ShapeError(
                f"{name}: operand batching dim {od} (size {shape[od]}) must have window size "
                f"0 or 1, match indices dim {i} (size {batch_shape[i]}) and not be indexed"
            )
    if any(window[d] != 1 for d in dropped):
        raise ShapeError(f"{name}: collapsed/inserted dims {dropped} need window size 1")


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


class _Plan(NamedTuple):
    """The point form of one gather/scatter: `points` index `axes`, the rest is whole."""

    points: Any  # int32 (*batch, *window sizes of axes, len(axes)), or None if axes is empty
    axes: tuple[int, ...]
    whole: tuple[int, ...]
    batch_shape: tuple[int, ...]


def _plan(
    shape: tuple[int, ...],
    idx: Any,
    start_map: tuple[int, ...],
    op_batch: tuple[int, ...],
    idx_batch: tuple[int, ...],
    window: tuple[int, ...],
    clamp: bool,
) -> _Plan:
    """Builds the point indices of checked dimension numbers (see the module docstring)."""
    iaval = get_aval(idx)
    batch_shape, r, nb = iaval.shape[:-1], len(shape), iaval.ndim - 1
    whole = tuple(
        d for d in range(r) if d not in start_map and d not in op_batch and window[d] == shape[d]
    )
    axes = tuple(d for d in range(r) if d not in whole)
    if not axes:
        return _Plan(None, axes, whole, batch_shape)

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
    return _Plan(concatenate(parts, len(full)), axes, whole, batch_shape)


def _permutation(order: Sequence[int]) -> tuple[int, ...]:
    return tuple(int(i) for i in np.argsort(order))


def _kept(ndim: int, dropped: tuple[int, ...], op_batch: tuple[int, ...]) -> list[int]:
    return [d for d in range(ndim) if d not in dropped and d not in op_batch]


def _point_form(shape, idx, start_map, op_batch, idx_batch, window) -> tuple[Any, tuple] | None:
    """The point indices and axes when every indexed dimension has a window of 1 and every
    other is whole (no window to clamp: the point primitive handles each index, as numbax's
    gather and scatter did): iota columns for the batching dimensions, then the indices.
    None for windows."""
    if any(window[d] != 1 for d in start_map) or any(
        window[d] != n for d, n in enumerate(shape) if d not in start_map and d not in op_batch
    ):
        return None
    if not op_batch:
        return idx, tuple(start_map)
    iaval = get_aval(idx)
    full = (*iaval.shape[:-1], 1)
    cols = [sh.iota(iaval.dtype, full, i) for i in idx_batch]
    return concatenate([*cols, idx], len(full) - 1), (*op_batch, *start_map)


def _to_layout(out: Any, nb: int, window_dims: Sequence[int]) -> Any:
    """(*batch, *window dims) -> XLA's layout: the window dims at `window_dims`."""
    rank = get_aval(out).ndim
    source = [0] * rank
    for i, p in enumerate(p for p in range(rank) if p not in window_dims):
        source[p] = i
    for j, p in enumerate(window_dims):
        source[p] = nb + j
    return sh.transpose(out, tuple(source)) if source != sorted(source) else out


def _tuple(name: str, v: Any) -> tuple[int, ...]:
    try:
        return tuple(int(i) for i in v)
    except TypeError:
        raise TypeError(f"{name} must be a sequence of integers, got {v!r}") from None


def _dims(dn: Any) -> tuple[tuple[int, ...], ...]:
    return tuple(_tuple("dimension_numbers", f) for f in dn)


def _starts(idx: Any, start_map: tuple[int, ...], ndim: int) -> list[Any]:
    """A dynamic slice's scalar starts from an index vector (0 where it maps none)."""
    zero = sh.full((), 0, get_aval(idx).dtype)
    starts = [zero] * ndim
    for j, d in enumerate(start_map):
        starts[d] = sh.reshape(static_slice(idx, (j,), (j + 1,)), ())
    return starts


def scatter_window(name, shape, ishape, ushape, dimension_numbers) -> tuple[int, ...]:
    """Checks scatter dimension numbers; the window size in every operand dimension."""
    window_dims, inserted, start_map, op_batch, idx_batch = _dims(dimension_numbers)
    kept = _kept(len(shape), inserted, op_batch)
    if len(window_dims) != len(kept) or any(not 0 <= p < len(ushape) for p in window_dims):
        raise ShapeError(
            f"{name}: update_window_dims {window_dims} must name {len(kept)} "
            f"dimensions of the updates (shape {ushape}), one per operand dim not inserted or "
            "batched"
        )
    window = [1] * len(shape)
    for d, p in zip(kept, window_dims):
        window[d] = ushape[p]
    _check(name, shape, ishape, start_map, inserted, op_batch, idx_batch, tuple(window))
    scatter_dims = [p for p in range(len(ushape)) if p not in window_dims]
    batch = tuple(ushape[p] for p in scatter_dims)
    for i, u, b in zip(scatter_dims, batch, ishape[:-1]):  # i: the updates' dimension
        if len(batch) == len(ishape) - 1 and u != b:  # JAX's first line
            raise ShapeError(
                "Bounds of the scatter dimensions of updates must be the same as the bounds of "
                f"the corresponding dimensions of scatter indices. For scatter dimension {i}, "
                f"updates bound is {u}, indices bound is {b}.\n{name}: the updates' scatter "
                f"batch dims {batch} must be the indices' batch shape {tuple(ishape[:-1])}."
            )
    if batch != tuple(ishape[:-1]):
        raise ShapeError(
            f"{name}: updates of shape {ushape} have scatter batch dims {batch} but the "
            f"indices batch shape is {tuple(ishape[:-1])}"
        )
    return tuple(window)
