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


def _sorted(dims: tuple[int, ...], op: str, field: str) -> None:
    if list(dims) != sorted(dims):
        raise ShapeError(f"{field} in {op} op must be sorted; got {dims}")


def _unique(dims: tuple[int, ...], op: str, field: str) -> None:
    if len(set(dims)) != len(dims):
        raise ShapeError(f"{field} in {op} op must not repeat; got: {dims}.")


def _in_range(dims: tuple[int, ...], rank: int, op: str, field: str, ends: bool = False) -> None:
    """Every dim in [0, rank); with `ends` (sorted dims) JAX looks at the first and last only."""
    for d in (dims[:1] + dims[-1:]) if ends else dims:
        if not 0 <= d < rank:
            raise ShapeError(
                f"Invalid {field} set in {op} op; valid range is [0, {rank}); got: {d}."
            )


def _sorted_unique_in_range(dims, rank, op, field, unique_first=False) -> None:
    checks = (_unique, _sorted) if unique_first else (_sorted, _unique)
    for check in checks:
        check(dims, op, field)
    _in_range(dims, rank, op, field, ends=True)


def _disjoint(a: tuple[int, ...], b: tuple[int, ...], op: str, fields: str) -> None:
    if set(a) & set(b):
        raise ShapeError(f"{fields} in {op} op must be disjoint; got: {a} and {b}.")


def _check_batching(
    op: str,
    shape: tuple[int, ...],
    ishape: tuple[int, ...],
    start_map: tuple[int, ...],
    dropped: tuple[int, ...],
    op_batch: tuple[int, ...],
    idx_batch: tuple[int, ...],
) -> None:
    """XLA's checks of the batching dims (gather's and scatter's), in JAX's order."""
    fields = ("collapsed_slice_dims", "start_index_map", "start_indices_batching_dims")
    if op == "scatter":
        fields = (
            "inserted_window_dims",
            "scatter_dims_to_operand_dims",
            "scatter_indices_batching_dims",
        )
    _sorted_unique_in_range(op_batch, len(shape), op, "operand_batching_dims", op == "gather")
    _disjoint(dropped, op_batch, op, f"{fields[0]} and operand_batching_dims")
    _disjoint(start_map, op_batch, op, f"{fields[1]} and operand_batching_dims")
    _unique(idx_batch, op, fields[2])
    _in_range(idx_batch, len(ishape), op, fields[2])
    Op = op.capitalize()
    if len(ishape) - 1 in idx_batch:
        raise ShapeError(
            f"{Op} op cannot have the index vector dimension as a batching dimension; got "
            f"{idx_batch}."
        )
    if len(op_batch) != len(idx_batch):
        sep = "" if op == "gather" else " "  # JAX's spacing
        raise ShapeError(
            f"{Op} op requires equal numbers of operand_batching_dims and {fields[2]}, got "
            f"{op_batch} and{sep}{idx_batch}."
        )
    op_shape = tuple(shape[d] for d in op_batch)
    idx_shape = tuple(ishape[d] for d in idx_batch)
    if op_shape != idx_shape:
        raise ShapeError(
            f"{Op} op requires operand batching dimensions and indices batching dimensions to "
            f"have the same shape, got {op_shape} and {idx_shape}."
        )


def _check_index_vector(op: str, ishape: tuple[int, ...], start_map: tuple[int, ...]) -> None:
    if len(start_map) != ishape[-1]:
        field = "start_index_map" if op == "gather" else "scatter_dims_to_operand_dims"
        raise ShapeError(
            f"{op.capitalize()} op has {len(start_map)} elements in {field} and the bound of "
            f"dimension index_vector_dim={len(ishape) - 1} of indices is {ishape[-1]}. These "
            "two numbers must be equal" + ("." if op == "gather" else "")
        )


def _check_start_map(op: str, rank: int, start_map: tuple[int, ...]) -> None:
    field = "start_index_map" if op == "gather" else "scatter_dims_to_operand_dims mapping"
    for i, d in enumerate(start_map):
        if not 0 <= d < rank:
            raise ShapeError(f"Invalid {field}; domain is [0, {rank}), got: {i}->{d}.")
    _unique(start_map, op, field.split()[0])


def _check_rank(op: str, ishape: tuple[int, ...]) -> None:
    if not ishape:
        raise ShapeError(
            f"{op.capitalize()} index leaf dimension must be within [0, rank(indices) + 1). "
            f"rank(indices) is 0 and {op} index leaf dimension is -1."
        )


def _fits(d: int, w: int, n: int, start_map: tuple[int, ...], op_batch: tuple[int, ...]) -> bool:
    """A window of `w` fits a dimension of `n` (a window of 1 on an indexed empty dimension
    too, as jnp's indexing of empty axes and a vmap over zero rows make: every index is out
    of bounds)."""
    return 0 <= w <= n or (w == 1 and (d in start_map or d in op_batch))


def check_gather(
    shape: tuple[int, ...],
    ishape: tuple[int, ...],
    dimension_numbers: Any,
    slice_sizes: tuple[int, ...],
) -> None:
    """XLA's gather shape checks, in JAX's order and with its messages (TypeErrors).

    Args:
      shape: the operand's shape.
      ishape: the indices' shape (the index vector last).
      dimension_numbers: a `GatherDimensionNumbers`.
      slice_sizes: the window size in every operand dimension.
    """
    offset, collapsed, start_map, op_batch, idx_batch = _dims(dimension_numbers)
    _check_rank("gather", ishape)
    _sorted(offset, "gather", "offset_dims")
    _unique(offset, "gather", "offset_dims")
    out_rank = len(offset) + len(ishape) - 1
    for i, d in enumerate(offset):
        if not 0 <= d < out_rank:
            raise ShapeError(
                f"Offset dimension {i} in gather op is out of bounds; got {d}, but should "
                f"have been in [0, {out_rank})"
            )
    _check_index_vector("gather", ishape, start_map)
    _check_start_map("gather", len(shape), start_map)
    _sorted_unique_in_range(collapsed, len(shape), "gather", "collapsed_slice_dims")
    _check_batching("gather", shape, ishape, start_map, collapsed, op_batch, idx_batch)
    if len(shape) != len(slice_sizes):
        raise ShapeError(
            "Gather op must have one slice size for every input dimension; got: "
            f"len(slice_sizes)={len(slice_sizes)}, input_shape.rank={len(shape)}"
        )
    if len(slice_sizes) != len(offset) + len(collapsed) + len(op_batch):
        raise ShapeError(
            "All components of the offset index in a gather op must either be a offset "
            f"dimension or explicitly collapsed/batching; got len(slice_sizes)="
            f"{len(slice_sizes)}, output_slice_sizes={offset}, collapsed_slice_dims="
            f"{collapsed}, operand_batching_dims={op_batch}."
        )
    for d, (w, n) in enumerate(zip(slice_sizes, shape)):
        if 0 not in ishape and not _fits(d, w, n, start_map, op_batch):
            raise ShapeError(
                f"Slice size at index {d} in gather op is out of range, must be within "
                f"[0, {n} + 1), got {w}."
            )
    for i, d in enumerate(collapsed):
        if slice_sizes[d] != 1:
            raise ShapeError(
                "Gather op can only collapse slice dims with bound 1, but bound is "
                f"{slice_sizes[d]} for index {d} at position {i}."
            )
    for i, d in enumerate(op_batch):
        if slice_sizes[d] > 1:
            raise ShapeError(
                "Gather op can only have operand batching dims with bound 0/1, but bound is "
                f"{slice_sizes[d]} for index {d} at position {i}."
            )


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
    """XLA's scatter shape checks, in JAX's order and with its messages (TypeErrors); returns
    the window size in every operand dimension."""
    window_dims, inserted, start_map, op_batch, idx_batch = _dims(dimension_numbers)
    _check_rank(name, ishape)
    if len(ushape) != len(ishape) - 1 + len(window_dims):
        raise ShapeError(
            f"Updates tensor must be of rank {len(ishape) - 1 + len(window_dims)}; got "
            f"{len(ushape)}."
        )
    _sorted_unique_in_range(window_dims, len(ushape), name, "update_window_dims")
    _sorted_unique_in_range(inserted, len(shape), name, "inserted_window_dims")
    _check_batching(name, shape, ishape, start_map, inserted, op_batch, idx_batch)
    scatter_dims = [p for p in range(len(ushape)) if p not in window_dims]
    op_shape = tuple(shape[d] for d in op_batch)
    upd_shape = tuple(ushape[scatter_dims[i]] for i in idx_batch)
    if op_shape != upd_shape:
        raise ShapeError(
            "Scatter op requires operand batching dimensions and updates batching dimensions "
            f"to have the same shape, got {op_shape} and {upd_shape}."
        )
    size = len(window_dims) + len(inserted) + len(op_batch)
    if size != len(shape):
        raise ShapeError(
            f"Scatter op has window of size {size}; doesn't match operand of rank {len(shape)}."
        )
    _check_index_vector(name, ishape, start_map)
    _check_start_map(name, len(shape), start_map)
    window = [1] * len(shape)
    for d, p in zip(_kept(len(shape), inserted, op_batch), window_dims):
        if not _fits(d, ushape[p], shape[d], start_map, op_batch):
            raise ShapeError(
                "Bounds of the window dimensions of updates must not exceed the bounds of the "
                f"corresponding dimensions of operand. For dimension {p}, updates bound is "
                f"{ushape[p]}, operand bound is {shape[d]}."
            )
        window[d] = ushape[p]
    for p, b in zip(scatter_dims, ishape[:-1]):
        if ushape[p] != b:
            raise ShapeError(
                "Bounds of the scatter dimensions of updates must be the same as the bounds of "
                f"the corresponding dimensions of scatter indices. For scatter dimension {p}, "
                f"updates bound is {ushape[p]}, indices bound is {b}."
            )
    return tuple(window)
