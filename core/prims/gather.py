"""JAX's gather and scatter primitives, with XLA's dimension numbers, and dynamic slicing.

`gather` and `scatter`/`scatter-add`/`scatter-mul`/`scatter-min`/`scatter-max` take JAX's
parameters (`dimension_numbers`, `slice_sizes`, `mode`, `fill_value`, `indices_are_sorted`,
`unique_indices`, the scatters' `update_jaxpr`), so jaxprs print JAX's text, and JAX's rules:
gather is linear and transposes to a scatter-add, scatter-add is linear and transposes to a
gather, and both batch by adding batching dimensions (`operand_batching_dims`). The jvps of
scatter-set/mul/min/max are numbax's (exact with repeated indices), computed on the point form.

Every row of `start_indices` (index vector last) names the start of a window of `slice_sizes`
in the operand. What runs is the point gather/scatter of `core/prims/gather_points.py` (one
index per indexed operand dimension, the other dimensions whole): a primitive's composition
(`Primitive.def_composition`, what `jit` compiles and eager calls evaluate) builds one point
index per element of every window (start + iota, with iota columns for the batching
dimensions) and reshapes and transposes between XLA's layout and the point form. Dimension
numbers already in point form (`x[idx]`, `take`, `.at[idx]`) bind the point primitive directly.

Out-of-bounds windows follow `GatherScatterMode`: CLIP clamps every start so its window fits;
FILL_OR_DROP fills (gather) or drops (scatter) a whole window when any of it is out of bounds,
by moving its start past the end so that every point of it is out of bounds; PROMISE_IN_BOUNDS
clamps gathers and drops scatters, as XLA does on CPU. Negative indices are NOT wrapped here:
`core.numpy` wraps them before binding, as JAX's does.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from core import dtypes
from core.ad_util import Zero, instantiate
from core.array import Array
from core.avals import ShapedArray
from core.errors import DTypeError, NumbaxError, ShapeError
from core.interpreters import batching
from core.interpreters.transpose import is_undefined
from core.ir import Eqn, Jaxpr, Var
from core.primitive import Primitive
from core.prims import elementwise as ew
from core.prims import shapes as sh
from core.prims.gather_points import default_fill_value, point_gather_p, point_scatter_p
from core.prims.indexing import concatenate
from core.prims.indexing import slice as static_slice
from core.trace import get_aval, to_numpy


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
    # (an indexed empty dimension takes windows of 1: every index is out of bounds)
    if len(window) != r or any(
        not 0 <= w <= n and not (w == 1 and d in start_map)
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
        if od in start_map or od in dropped or shape[od] != batch_shape[i] or window[od] != 1:
            raise ShapeError(
                f"{name}: operand batching dim {od} (size {shape[od]}) must have window size "
                f"1, match indices dim {i} (size {batch_shape[i]}) and not be indexed"
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


# ---------------------------------------------------------------------------------------------
# gather

gather_p = Primitive("gather")


def _tuple(name: str, v: Any) -> tuple[int, ...]:
    try:
        return tuple(int(i) for i in v)
    except TypeError:
        raise TypeError(f"{name} must be a sequence of integers, got {v!r}") from None


def _dims(dn: Any) -> tuple[tuple[int, ...], ...]:
    return tuple(_tuple("dimension_numbers", f) for f in dn)


def _gather_abstract_eval(
    x, idx, *, dimension_numbers, slice_sizes, indices_are_sorted, unique_indices, mode, fill_value
):
    if idx.dtype.kind not in "iu":
        raise DTypeError(f"gather indices must be integers, got {idx.dtype}")
    offset, dropped, start_map, op_batch, idx_batch = _dims(dimension_numbers)
    window = _tuple("slice_sizes", slice_sizes)
    _check("gather", x.shape, idx.shape, start_map, dropped, op_batch, idx_batch, window)
    kept = _kept(x.ndim, dropped, op_batch)
    out_rank = idx.ndim - 1 + len(kept)
    if (
        len(offset) != len(kept)
        or list(offset) != sorted(set(offset))
        or any(not 0 <= p < out_rank for p in offset)
    ):
        raise ShapeError(
            f"gather: offset_dims {offset} must be {len(kept)} ascending output "
            f"dimensions (output rank {out_rank}), one per operand dim not collapsed or batched"
        )
    batch, sizes = iter(idx.shape[:-1]), iter(window[d] for d in kept)
    shape = tuple(next(sizes) if p in offset else next(batch) for p in range(out_rank))
    return ShapedArray(shape, x.dtype, x.weak_type)


def _gather_points(x, idx, *, dimension_numbers, slice_sizes, mode, fill_value, **_):
    """The gather on the point gather (the primitive's composition)."""
    offset, dropped, start_map, op_batch, idx_batch = _dims(dimension_numbers)
    shape, window = get_aval(x).shape, tuple(int(n) for n in slice_sizes)
    batch_shape = get_aval(idx).shape[:-1]
    nb = len(batch_shape)
    kept = _kept(len(shape), dropped, op_batch)
    fill = mode is _FILL
    if fill:
        fill_value = np.asarray(fill_value).astype(get_aval(x).dtype).item()
    point = _point_form(shape, idx, start_map, op_batch, idx_batch, window)
    if point is not None:
        pmode = "fill" if fill else "promise_in_bounds" if mode is _PROMISE else "clip"
        out = point_gather_p.bind(x, point[0], axes=point[1], mode=pmode, fill_value=fill_value)
    elif nb == 0 and not fill:  # one window (a vmapped dynamic_slice): the slice it was
        out = dynamic_slice_p.bind(x, *_starts(idx, start_map, len(shape)), slice_sizes=window)
    else:
        plan = _plan(shape, idx, start_map, op_batch, idx_batch, window, clamp=not fill)
        if plan.points is None:
            out = sh.broadcast_in_dim(x, (*batch_shape, *shape), tuple(range(nb, nb + len(shape))))
        else:
            pmode = "fill" if fill else "clip"
            out = point_gather_p.bind(
                x, plan.points, axes=plan.axes, mode=pmode, fill_value=fill_value
            )
            # (*batch, *axes windows, *whole dims) -> (*batch, operand dims in order)
            order = [*range(nb), *(nb + d for d in (*plan.axes, *plan.whole))]
            out = sh.transpose(out, _permutation(order))
    out = sh.reshape(out, (*batch_shape, *(window[d] for d in kept)))
    return _to_layout(out, nb, offset)


def _starts(idx: Any, start_map: tuple[int, ...], ndim: int) -> list[Any]:
    """A dynamic slice's scalar starts from an index vector (0 where it maps none)."""
    zero = sh.full((), 0, get_aval(idx).dtype)
    starts = [zero] * ndim
    for j, d in enumerate(start_map):
        starts[d] = sh.reshape(static_slice(idx, (j,), (j + 1,)), ())
    return starts


def _evaluated(composition):
    """An `impl` that evaluates the composition eagerly on numpy values."""
    return lambda *args, **params: to_numpy(composition(*args, **params))


def _gather_jvp(primals, tangents, **params):
    (x, idx), (tx, _) = primals, tangents
    out = gather_p.bind(x, idx, **params)
    if type(tx) is Zero:
        return out, Zero(get_aval(out))
    return out, gather_p.bind(tx, idx, **params)


def _gather_transpose(ct, x, idx, *, dimension_numbers, slice_sizes, **params):
    aval = x.aval
    if type(ct) is Zero:
        return [Zero(aval), None]
    dn = dimension_numbers
    zeros = sh.full(aval.shape, 0, aval.dtype, aval.weak_type)
    sdn = ScatterDimensionNumbers(
        update_window_dims=dn.offset_dims,
        inserted_window_dims=dn.collapsed_slice_dims,
        scatter_dims_to_operand_dims=dn.start_index_map,
        operand_batching_dims=dn.operand_batching_dims,
        scatter_indices_batching_dims=dn.start_indices_batching_dims,
    )
    del params["fill_value"]
    return [_bind_scatter("add", zeros, idx, ct, sdn, **params), None]


def _gather_batch(args, dims, *, dimension_numbers, slice_sizes, **params):
    """JAX's `_gather_batching_rule` (numpy's ints in the dimension numbers, as JAX's)."""
    (x, idx), (dx, di) = args, dims
    dn = dimension_numbers
    plus1 = lambda t: tuple(np.add(1, t))  # noqa: E731
    if di is None:  # the operand's batch axis is one more window dimension
        x = batching.moveaxis(x, dx, 0, get_aval(x).shape[dx])
        new = GatherDimensionNumbers(
            offset_dims=(0, *plus1(dn.offset_dims)),
            collapsed_slice_dims=plus1(dn.collapsed_slice_dims),
            start_index_map=plus1(dn.start_index_map),
            operand_batching_dims=plus1(dn.operand_batching_dims),
            start_indices_batching_dims=dn.start_indices_batching_dims,
        )
        sizes = (get_aval(x).shape[0], *slice_sizes)
        return gather_p.bind(x, idx, dimension_numbers=new, slice_sizes=sizes, **params), 0
    idx = batching.moveaxis(idx, di, 0, get_aval(idx).shape[di])
    if dx is None:
        new = dn._replace(
            offset_dims=tuple(1 + d for d in dn.offset_dims),
            start_indices_batching_dims=plus1(dn.start_indices_batching_dims),
        )
        params.update(unique_indices=False, indices_are_sorted=False)
        return gather_p.bind(x, idx, dimension_numbers=new, slice_sizes=slice_sizes, **params), 0
    x = batching.moveaxis(x, dx, 0, get_aval(idx).shape[0])
    new = GatherDimensionNumbers(
        offset_dims=plus1(dn.offset_dims),
        collapsed_slice_dims=plus1(dn.collapsed_slice_dims),
        start_index_map=plus1(dn.start_index_map),
        operand_batching_dims=(0, *plus1(dn.operand_batching_dims)),
        start_indices_batching_dims=(0, *plus1(dn.start_indices_batching_dims)),
    )
    sizes = (0 if get_aval(x).shape[0] == 0 else 1, *slice_sizes)
    return gather_p.bind(x, idx, dimension_numbers=new, slice_sizes=sizes, **params), 0


gather_p.def_impl(_evaluated(_gather_points))
gather_p.def_abstract_eval(_gather_abstract_eval)
gather_p.def_jvp(_gather_jvp)
gather_p.def_transpose(_gather_transpose)
gather_p.linear = True
gather_p.def_batch(_gather_batch)
gather_p.def_composition(_gather_points)


def bind_gather(
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
      unique_indices: a hint (printed, not used).
      indices_are_sorted: a hint (printed, not used).
      mode: a `GatherScatterMode` or "clip"/"fill"/"promise_in_bounds"; default
        PROMISE_IN_BOUNDS (clamped, as in JAX).
      fill_value: the value of out-of-bounds windows under FILL_OR_DROP (default NaN for
        inexact dtypes, the minimum signed / maximum unsigned integer, True).

    Returns:
      The gathered array: batch dimensions of `start_indices` interleaved with the window
      dimensions at `offset_dims`.
    """
    dn = GatherDimensionNumbers(*_dims(dimension_numbers))
    mode = GatherScatterMode.from_any(_PROMISE if mode is None else mode)
    if mode is GatherScatterMode.ONE_HOT:
        raise GatherScatterUnsupportedError("lax.gather: mode=ONE_HOT is not supported")
    if mode is _FILL:  # JAX's parameter: the value given, or the dtype's default
        if fill_value is None:
            fill_value = default_fill_value(get_aval(operand).dtype)
    else:
        fill_value = None
    return gather_p.bind(
        operand,
        start_indices,
        dimension_numbers=dn,
        slice_sizes=_tuple("slice_sizes", slice_sizes),
        indices_are_sorted=bool(indices_are_sorted),
        unique_indices=bool(unique_indices),
        mode=mode,
        fill_value=fill_value,
    )


def _point_gather_dims(x: Any, idx: Any, axes: tuple[int, ...]) -> tuple:
    shape, nb = get_aval(x).shape, get_aval(idx).ndim - 1
    rest = len(shape) - len(axes)
    return (
        tuple(range(nb, nb + rest)),
        tuple(sorted(axes)),
        tuple(axes),
        tuple(1 if d in axes else n for d, n in enumerate(shape)),
    )


_POINT_MODES = {"clip": _CLIP, "fill": _FILL, "drop": _FILL, "promise_in_bounds": _PROMISE}


def gather(
    x: Any, indices: Any, axes: tuple[int, ...], mode: str = "clip", fill_value: Any = None
) -> Any:
    """Gathers `x` at `indices[..., j]` along `axes[j]`: a `gather` in point form.

    Args:
      x: the operand.
      indices: integer array of shape `(*batch, len(axes))`, already non-negative.
      axes: the operand dimensions being indexed.
      mode: "clip" clamps out-of-bounds indices, "fill" returns `fill_value` for them,
        "promise_in_bounds" clamps them and drops their cotangents (as JAX's default).
      fill_value: used by "fill"; defaults to NaN / the dtype's extreme integer.

    Returns:
      An array of shape `(*batch, *other dims of x)`.
    """
    if mode not in ("clip", "fill", "promise_in_bounds"):
        raise ValueError(f"gather mode must be 'clip', 'fill' or 'promise_in_bounds', got {mode!r}")
    axes = tuple(int(a) for a in axes)
    offset, collapsed, start_map, sizes = _point_gather_dims(x, indices, axes)
    dn = GatherDimensionNumbers(offset, collapsed, start_map)
    return bind_gather(x, indices, dn, sizes, mode=_POINT_MODES[mode], fill_value=fill_value)


# ---------------------------------------------------------------------------------------------
# scatter, scatter-add, scatter-mul, scatter-min, scatter-max

_KINDS = {"set": "scatter", "add": "scatter-add", "mul": "scatter-mul"}
_KINDS.update(min="scatter-min", max="scatter-max")
scatter_prims = {kind: Primitive(name) for kind, name in _KINDS.items()}
scatter_p, scatter_add_p, scatter_mul_p, scatter_min_p, scatter_max_p = scatter_prims.values()
_KIND_OF = {p: k for k, p in scatter_prims.items()}
_COMBINE = {"add": ew.add_p, "mul": ew.mul_p, "min": ew.min_p, "max": ew.max_p}


@functools.cache
def update_jaxpr(kind: str, dtype: np.dtype) -> Jaxpr | None:
    """JAX's `update_jaxpr` parameter: the combining function on two scalars (None for set)."""
    if kind == "set":
        return None
    aval = ShapedArray((), dtype)
    a, b, c = Var(aval), Var(aval), Var(aval)
    return Jaxpr([], [a, b], [Eqn(_COMBINE[kind], [a, b], {}, [c])], [c])


def _scatter_abstract_eval(x, idx, upd, *, dimension_numbers, **params):
    if idx.dtype.kind not in "iu":
        raise DTypeError(f"scatter indices must be integers, got {idx.dtype}")
    if upd.dtype != x.dtype:
        raise DTypeError(f"scatter needs updates of the operand's dtype {x.dtype}, got {upd.dtype}")
    scatter_window("scatter", x.shape, idx.shape, upd.shape, dimension_numbers)
    return ShapedArray(x.shape, x.dtype, x.weak_type)


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
    batch = tuple(ushape[p] for p in range(len(ushape)) if p not in window_dims)
    if batch != tuple(ishape[:-1]):
        raise ShapeError(
            f"{name}: updates of shape {ushape} have scatter batch dims {batch} but the "
            f"indices batch shape is {tuple(ishape[:-1])}"
        )
    return tuple(window)


def _scatter_plan(x, idx, upd, dimension_numbers, mode) -> tuple[Any, tuple, Any, str]:
    """The point form of a scatter: (indices, axes, updates, point mode)."""
    window_dims, inserted, start_map, op_batch, idx_batch = _dims(dimension_numbers)
    shape, ushape = get_aval(x).shape, get_aval(upd).shape
    batch_shape = get_aval(idx).shape[:-1]
    nb = len(batch_shape)
    smode = "clip" if mode is _CLIP else "drop"
    window = scatter_window("scatter", shape, get_aval(idx).shape, ushape, dimension_numbers)
    batch_pos = [p for p in range(len(ushape)) if p not in window_dims]
    u = sh.transpose(upd, (*batch_pos, *window_dims))  # (*batch, *kept windows)
    point = _point_form(shape, idx, start_map, op_batch, idx_batch, window)
    if point is not None:
        whole = [n for d, n in enumerate(shape) if d not in start_map and d not in op_batch]
        return point[0], point[1], sh.reshape(u, (*batch_shape, *whole)), smode
    plan = _plan(shape, idx, start_map, op_batch, idx_batch, window, clamp=mode is _CLIP)
    if plan.points is None:  # nothing indexed: every update lands on the whole operand
        raise GatherScatterUnsupportedError(
            f"scatter: dimension numbers {dimension_numbers} index no operand dimension; "
            "not supported"
        )
    u = sh.reshape(u, (*plan.batch_shape, *window))
    order = [*range(nb), *(nb + d for d in (*plan.axes, *plan.whole))]
    return plan.points, plan.axes, sh.transpose(u, tuple(order)), smode


def _scatter_composition(kind: str):
    def points(x, idx, upd, *, dimension_numbers, mode, **_):
        dn = dimension_numbers
        if kind == "set" and mode is _CLIP and get_aval(idx).ndim == 1 and not dn[3]:
            # one window (a vmapped dynamic_update_slice): the update slice it was
            shape = get_aval(x).shape
            window = scatter_window("scatter", shape, (len(dn[2]),), get_aval(upd).shape, dn)
            starts = _starts(idx, tuple(dn[2]), len(shape))
            return dynamic_update_slice_p.bind(x, sh.reshape(upd, window), *starts)
        pidx, axes, u, smode = _scatter_plan(x, idx, upd, dimension_numbers, mode)
        return point_scatter_p.bind(x, pidx, u, axes=axes, mode=smode, kind=kind)

    return points


def _bind_scatter(kind: str, x, idx, upd, dimension_numbers, **params) -> Any:
    params.setdefault("indices_are_sorted", False)
    params.setdefault("unique_indices", False)
    params.setdefault("mode", _FILL)
    dt = get_aval(x).dtype
    return scatter_prims[kind].bind(
        x,
        idx,
        upd,
        dimension_numbers=dimension_numbers,
        update_jaxpr=update_jaxpr(kind, dt),
        update_consts=(),
        **params,
    )


def _point_scatter(kind, x, idx, upd, axes, mode) -> Any:
    """A scatter in point form (what numbax's own rules bind)."""
    shape, nb = get_aval(x).shape, get_aval(idx).ndim - 1
    dn = ScatterDimensionNumbers(
        tuple(range(nb, nb + len(shape) - len(axes))), tuple(sorted(axes)), tuple(axes)
    )
    return _bind_scatter(kind, x, idx, upd, dn, mode=_POINT_MODES[mode])


def _scatter_add_jvp(primals, tangents, **params):
    (x, idx, upd), (tx, _, tu) = primals, tangents
    out = scatter_add_p.bind(x, idx, upd, **params)
    if type(tx) is Zero and type(tu) is Zero:
        return out, Zero(get_aval(out))
    return out, scatter_add_p.bind(instantiate(tx), idx, instantiate(tu), **params)


def _scatter_jvp(primals, tangents, *, dimension_numbers, mode, **params):
    """numbax's jvps of scatter-set/mul/min/max on the point form (exact with repeats)."""
    (x, idx, upd), (tx, _, tu) = primals, tangents
    prim = params.pop("prim")
    kind = _KIND_OF[prim]
    out = prim.bind(x, idx, upd, dimension_numbers=dimension_numbers, mode=mode, **params)
    if type(tx) is Zero and type(tu) is Zero:
        return out, Zero(get_aval(out))
    pidx, axes, u, smode = _scatter_plan(x, idx, upd, dimension_numbers, mode)
    tu = _scatter_plan(x, idx, instantiate(tu), dimension_numbers, mode)[2]
    tx = instantiate(tx)
    gmode = "fill" if smode == "drop" else "clip"
    if kind == "set":
        return out, _scatter_set_tangent(x, pidx, tx, tu, axes, smode, gmode)
    if kind == "mul":
        return out, _scatter_mul_tangent(x, pidx, u, tx, tu, axes, smode, gmode)
    # min / max: the tangent follows whichever value won (ties credit every winner).
    p_out = _point_scatter(kind, x, pidx, u, axes, smode)
    from_x = ew.eq(p_out, x)
    won = ew.eq(u, gather(p_out, pidx, axes, gmode, 0))
    add = lambda base, v: _point_scatter("add", base, pidx, v, axes, smode)  # noqa: E731
    t_upd = add(ew.full_like(x, 0), ew.select_n(won, ew.full_like(tu, 0), tu))
    t_x = ew.select_n(from_x, ew.full_like(tx, 0), tx)
    hits = add(ew.full_like(x, 0), ew.select_n(won, ew.full_like(tu, 0), ew.full_like(tu, 1)))
    count = ew.add(hits, ew.select_n(from_x, ew.full_like(x, 0), ew.full_like(x, 1)))
    count = ew.max(count, ew.full_like(count, 1))
    return out, ew.div(ew.add(t_x, t_upd), count)


def _scatter_mul_tangent(x, idx, upd, tx, tu, axes, mode, gmode):
    """d(x * prod u) = dx * prod u + x * sum_j du_j * prod_{k != j} u_k, where the product of
    the other updates is found without dividing by a zero `u_j` (exact with repeated indices
    and zero updates; JAX only differentiates unique indices)."""
    zero_u = ew.eq(upd, ew.full_like(upd, 0))
    one_u, zero_like_u = ew.full_like(upd, 1), ew.full_like(upd, 0)
    nonzero_prod = _point_scatter(
        "mul", ew.full_like(x, 1), idx, ew.select(zero_u, one_u, upd), axes, mode
    )
    zero_count = _point_scatter(
        "add", ew.full_like(x, 0), idx, ew.select(zero_u, one_u, zero_like_u), axes, mode
    )
    prod_at, zeros_at = (
        gather(nonzero_prod, idx, axes, gmode, 1),
        gather(zero_count, idx, axes, gmode, 0),
    )
    others_if_zero = ew.select(ew.eq(zeros_at, one_u), prod_at, zero_like_u)
    others_if_not = ew.select(
        ew.eq(zeros_at, zero_like_u), ew.div(prod_at, ew.select(zero_u, one_u, upd)), zero_like_u
    )
    others = ew.select(zero_u, others_if_zero, others_if_not)
    d_upd = ew.mul(ew.mul(tu, gather(x, idx, axes, gmode, 0)), others)
    t = _point_scatter("mul", tx, idx, upd, axes, mode)
    return ew.add(t, _point_scatter("add", ew.full_like(x, 0), idx, d_upd, axes, mode))


def _scatter_set_tangent(x, idx, tx, tu, axes, mode, gmode):
    """JAX's tangent of a scatter-set whose indices may repeat: only the update that landed
    carries its tangent (found by scattering update ids and gathering them back), and the
    operand's tangent survives where nothing was written; then one scatter-add."""
    batch = get_aval(idx).shape[:-1]
    ushape = get_aval(tu).shape
    n = int(np.prod(batch, dtype=np.int64))
    ids = sh.reshape(ew.add(sh.iota(dtypes.int32, (n,), 0), sh.full((n,), 1, dtypes.int32)), batch)
    ids = sh.broadcast_in_dim(ids, ushape, tuple(range(len(batch))))
    nothing = sh.full(get_aval(x).shape, 0, dtypes.int32)
    landed_ids = _point_scatter("set", nothing, idx, ids, axes, mode)
    landed = ew.eq(ids, gather(landed_ids, idx, axes, gmode, 0))
    untouched = ew.eq(landed_ids, ew.full_like(landed_ids, 0))
    t_x = ew.select(untouched, tx, ew.full_like(tx, 0))
    return _point_scatter("add", t_x, idx, ew.select(landed, tu, ew.full_like(tu, 0)), axes, mode)


def _updates_gather(ct, idx, upd_shape, dn, mode) -> Any:
    """The cotangent of the updates: JAX's gather of the windows from the cotangent."""
    gdn = GatherDimensionNumbers(
        offset_dims=dn.update_window_dims,
        collapsed_slice_dims=dn.inserted_window_dims,
        start_index_map=dn.scatter_dims_to_operand_dims,
        operand_batching_dims=dn.operand_batching_dims,
        start_indices_batching_dims=dn.scatter_indices_batching_dims,
    )
    sizes, pos = [], 0
    for i in range(get_aval(ct).ndim):
        if i in dn.inserted_window_dims or i in dn.operand_batching_dims:
            sizes.append(1)
        else:
            sizes.append(upd_shape[dn.update_window_dims[pos]])
            pos += 1
    return bind_gather(ct, idx, gdn, sizes, mode=mode, fill_value=0)


def _aval(x):
    return x.aval if is_undefined(x) else get_aval(x)


def _scatter_transpose(ct, x, idx, upd, *, dimension_numbers, mode, **params):
    """JAX's transposes of scatter-add and scatter (numbax's does not need unique indices),
    and of scatter-mul in its operand (for known updates: the jvp's `dx * prod u`)."""
    kind = _KIND_OF[params.pop("prim")]
    params.pop("update_jaxpr"), params.pop("update_consts")
    if kind == "mul" and is_undefined(x) and not is_undefined(upd):
        return [_bind_scatter("mul", instantiate(ct), idx, upd, dimension_numbers, mode=mode,
                              **params), None, None]  # fmt: skip
    if kind not in ("add", "set"):
        raise NotImplementedError(f"scatter-{kind} is not linear; it has no transpose rule")
    if type(ct) is Zero:
        return [
            Zero(x.aval) if is_undefined(x) else None,
            None,
            Zero(upd.aval) if is_undefined(upd) else None,
        ]
    ct_x = ct_u = None
    ushape = _aval(upd).shape
    if is_undefined(x):
        if kind == "add":
            ct_x = ct
        else:
            zeros = sh.full(ushape, 0, get_aval(ct).dtype)
            ct_x = _bind_scatter("set", ct, idx, zeros, dimension_numbers, mode=mode, **params)
    if is_undefined(upd):
        ct_u = _updates_gather(ct, idx, ushape, dimension_numbers, mode)
    return [ct_x, None, ct_u]


def _scatter_batch(args, dims, *, dimension_numbers, **params):
    """JAX's `_scatter_batching_rule`."""
    (x, idx, upd), (dx, di, du) = args, dims
    prim = params.pop("prim")
    dn = dimension_numbers
    size = next(get_aval(a).shape[d] for a, d in zip(args, dims) if d is not None)
    x = batching.moveaxis(x, dx, 0, size)
    upd = batching.moveaxis(upd, du, 0, size)
    plus1 = lambda t: tuple(np.add(1, t))  # noqa: E731
    if di is None:
        new = ScatterDimensionNumbers(
            update_window_dims=(0, *plus1(dn.update_window_dims)),
            inserted_window_dims=plus1(dn.inserted_window_dims),
            scatter_dims_to_operand_dims=plus1(dn.scatter_dims_to_operand_dims),
            operand_batching_dims=plus1(dn.operand_batching_dims),
            scatter_indices_batching_dims=dn.scatter_indices_batching_dims,
        )
    else:
        idx = batching.moveaxis(idx, di, 0, size)
        new = ScatterDimensionNumbers(
            update_window_dims=plus1(dn.update_window_dims),
            inserted_window_dims=plus1(dn.inserted_window_dims),
            scatter_dims_to_operand_dims=plus1(dn.scatter_dims_to_operand_dims),
            operand_batching_dims=(0, *plus1(dn.operand_batching_dims)),
            scatter_indices_batching_dims=(0, *plus1(dn.scatter_indices_batching_dims)),
        )
    return prim.bind(x, idx, upd, dimension_numbers=new, **params), 0


def _with_prim(rule, prim):
    return functools.wraps(rule)(lambda *a, **params: rule(*a, prim=prim, **params))


for _kind, _prim in scatter_prims.items():
    _prim.def_impl(_evaluated(_scatter_composition(_kind)))
    _prim.def_abstract_eval(_scatter_abstract_eval)
    _prim.def_jvp(_scatter_add_jvp if _kind == "add" else _with_prim(_scatter_jvp, _prim))
    _prim.def_transpose(_with_prim(_scatter_transpose, _prim))
    _prim.linear = True
    _prim.def_batch(_with_prim(_scatter_batch, _prim))
    _prim.def_composition(_scatter_composition(_kind))


def bind_scatter(
    kind: str,
    operand: Any,
    scatter_indices: Any,
    updates: Any,
    dimension_numbers: ScatterDimensionNumbers,
    *,
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    mode: str | GatherScatterMode | None = None,
) -> Any:
    """`lax.scatter`, `scatter_add`, ... (`kind` set, add, mul, min or max).

    Args:
      kind: how updates combine with the operand and each other.
      operand: the array to update.
      scatter_indices: integer array whose last dimension is the index vector.
      updates: the windows, batch dimensions interleaved with `update_window_dims`.
      dimension_numbers: a `ScatterDimensionNumbers`.
      indices_are_sorted: a hint (printed, not used).
      unique_indices: a hint (printed, not used).
      mode: a `GatherScatterMode` or "clip"/"drop"/"promise_in_bounds"; default FILL_OR_DROP.

    Returns:
      The updated copy of `operand`.
    """
    dn = ScatterDimensionNumbers(*_dims(dimension_numbers))
    mode = GatherScatterMode.from_any(mode)
    if mode is GatherScatterMode.ONE_HOT:
        raise GatherScatterUnsupportedError(f"lax.{_KINDS[kind]}: mode=ONE_HOT is not supported")
    return _bind_scatter(
        kind,
        operand,
        scatter_indices,
        updates,
        dn,
        indices_are_sorted=bool(indices_are_sorted),
        unique_indices=bool(unique_indices),
        mode=mode,
    )


def scatter(
    x: Any, indices: Any, updates: Any, axes: tuple[int, ...], kind: str = "set", mode: str = "drop"
) -> Any:
    """Writes `updates` into `x` at `indices[..., j]` along `axes[j]`: a scatter in point form.

    Args:
      x: the operand.
      indices: integer array of shape `(*batch, len(axes))`, already non-negative.
      updates: array of shape `(*batch, *other dims of x)` and the dtype of `x`.
      axes: the operand dimensions being indexed.
      kind: "set", "add", "mul", "min" or "max" (repeated indices combine with it).
      mode: "drop" ignores out-of-bounds updates, "clip" clamps their indices.

    Returns:
      The updated copy of `x`.
    """
    if kind not in scatter_prims:
        raise ValueError(f"scatter kind must be set/add/mul/min/max, got {kind!r}")
    if mode not in ("clip", "drop"):
        raise ValueError(f"scatter mode must be 'clip' or 'drop', got {mode!r}")
    return _point_scatter(kind, x, indices, updates, tuple(int(a) for a in axes), mode)


# ---------------------------------------------------------------------------------------------
# dynamic_slice / dynamic_update_slice (start indices are clamped so the slice fits)

dynamic_slice_p = Primitive("dynamic_slice")


def _clamped_starts(shape, sizes, starts) -> list[int]:
    return [int(np.clip(int(s), 0, d - n)) for s, d, n in zip(starts, shape, sizes)]


def _ds_impl(x, *starts, slice_sizes):
    st = _clamped_starts(x.shape, slice_sizes, starts)
    return x[tuple(slice(s, s + n) for s, n in zip(st, slice_sizes))]


def _check_starts(name: str, x: Any, starts: tuple[Any, ...], colon: str) -> None:
    # JAX's checks of the start indices, its messages (mixed integer types pass: numbax's
    # own indexing mixes them)
    if len(starts) != x.ndim:
        raise ShapeError(
            "Length of slice indices must match number of operand dimensions "
            f"({len(starts)} vs {x.shape})"
        )
    if any(s.dtype.kind not in "iu" for s in starts):
        raise DTypeError(
            f"index arguments to {name} must be integers of the same type, got{colon} "
            + ", ".join(str(s.dtype) for s in starts)
        )
    if any(s.shape != () for s in starts):
        raise ShapeError(
            f"{name} start indices must be scalars, got shapes {[s.shape for s in starts]}"
        )


def _ds_abstract_eval(x, *starts, slice_sizes):
    _check_starts("dynamic_slice", x, starts, ":")
    if len(slice_sizes) != x.ndim:
        raise ShapeError(
            f"dynamic_slice needs one slice size per axis of {x.shape}, got {slice_sizes}"
        )
    if any(n < 0 for n in slice_sizes):
        raise ShapeError(
            "slice slice_sizes must be greater than or equal to zero, got slice_sizes of "
            f"{tuple(slice_sizes)}."
        )
    if any(n > d for n, d in zip(slice_sizes, x.shape)):
        raise ShapeError(
            "slice slice_sizes must be less than or equal to operand shape, got slice_sizes "
            f"{tuple(slice_sizes)} for operand shape {x.shape}."
        )
    return ShapedArray(tuple(slice_sizes), x.dtype, x.weak_type)


def _ds_jvp(primals, tangents, *, slice_sizes):
    x, *starts = primals
    out = dynamic_slice_p.bind(x, *starts, slice_sizes=slice_sizes)
    if type(tangents[0]) is Zero:
        return out, Zero(get_aval(out))
    return out, dynamic_slice_p.bind(tangents[0], *starts, slice_sizes=slice_sizes)


def _ds_transpose(ct, x, *starts, slice_sizes):
    aval = x.aval
    zeros = sh.full(aval.shape, 0, aval.dtype, aval.weak_type)
    return [dynamic_update_slice_p.bind(zeros, instantiate(ct), *starts), *([None] * len(starts))]


def _batch_dynamic_slice_indices(starts: list[Any], dims: list[int | None]) -> tuple[Any, Any]:
    """JAX's: the start indices as one index vector, batched on axis 0 if any start is (in
    their common integer dtype: a loop counter and a Python int differ under x64)."""
    dtype = np.result_type(*(get_aval(s).dtype for s in starts))
    starts = [
        s if get_aval(s).dtype == dtype else sh.convert_element_type(s, dtype) for s in starts
    ]
    size = next((get_aval(s).shape[d] for s, d in zip(starts, dims) if d is not None), None)
    if size is None:
        return concatenate([sh.broadcast_in_dim(s, (1,), ()) for s in starts], 0), None
    cols = [
        sh.broadcast_in_dim(s, (size, 1), (0,) if d is not None else ())
        for s, d in zip(starts, dims)
    ]
    return concatenate(cols, 1), 0


def _ds_batch(args, dims, *, slice_sizes):
    """JAX's: a dynamic slice is a gather (batched by the gather's rule)."""
    (x, *starts), (dx, *dstarts) = args, dims
    ndims = get_aval(x).ndim - (0 if dx is None else 1)
    dn = GatherDimensionNumbers(tuple(range(ndims)), (), tuple(range(ndims)))
    index, di = _batch_dynamic_slice_indices(starts, dstarts)
    params = dict(unique_indices=True, indices_are_sorted=True, mode=_CLIP, fill_value=None)
    return _gather_batch(
        [x, index], [dx, di], dimension_numbers=dn, slice_sizes=slice_sizes, **params
    )


dynamic_slice_p.def_impl(_ds_impl)
dynamic_slice_p.def_abstract_eval(_ds_abstract_eval)
dynamic_slice_p.def_jvp(_ds_jvp)
dynamic_slice_p.def_transpose(_ds_transpose)
dynamic_slice_p.linear = True
dynamic_slice_p.def_batch(_ds_batch)


dynamic_update_slice_p = Primitive("dynamic_update_slice")


def _dus_impl(x, upd, *starts):
    st = _clamped_starts(x.shape, upd.shape, starts)
    out = np.array(x, copy=True)
    out[tuple(slice(s, s + n) for s, n in zip(st, upd.shape))] = upd
    return out


def _dus_abstract_eval(x, upd, *starts):
    # JAX's shape rule, then its dtype rule (their messages)
    if upd.ndim != x.ndim:
        raise ShapeError(
            "dynamic_update_slice update must have the same rank as operand, got update shape "
            f"{upd.shape} for operand shape {x.shape}."
        )
    _check_starts("dynamic_update_slice", x, starts, "")
    if any(n > d for n, d in zip(upd.shape, x.shape)):
        raise ShapeError(
            "dynamic_update_slice update shape must be smaller than operand shape, got update "
            f"shape {upd.shape} for operand shape {x.shape}."
        )
    ew.check_same_dtypes("dynamic_update_slice", [x.dtype, upd.dtype])
    return ShapedArray(x.shape, x.dtype, x.weak_type)


def _dus_jvp(primals, tangents):
    x, upd, *starts = primals
    tx, tu = tangents[0], tangents[1]
    out = dynamic_update_slice_p.bind(x, upd, *starts)
    if type(tx) is Zero and type(tu) is Zero:
        return out, Zero(get_aval(out))
    return out, dynamic_update_slice_p.bind(instantiate(tx), instantiate(tu), *starts)


def _dus_transpose(ct, x, upd, *starts):
    ct = instantiate(ct)
    u_aval = upd.aval if is_undefined(upd) else get_aval(upd)
    ct_x = ct_u = None
    if is_undefined(x):
        zeros = sh.full(u_aval.shape, 0, u_aval.dtype)
        ct_x = dynamic_update_slice_p.bind(ct, zeros, *starts)
    if is_undefined(upd):
        ct_u = dynamic_slice_p.bind(ct, *starts, slice_sizes=u_aval.shape)
    return [ct_x, ct_u, *([None] * len(starts))]


def _dus_batch(args, dims):
    """JAX's: a dynamic update slice is a scatter (batched by the scatter's rule)."""
    (x, upd, *starts), (dx, du, *dstarts) = args, dims
    ndims = get_aval(upd).ndim - (0 if du is None else 1)
    dn = ScatterDimensionNumbers(tuple(range(ndims)), (), tuple(range(ndims)))
    index, di = _batch_dynamic_slice_indices(starts, dstarts)
    params = dict(indices_are_sorted=True, unique_indices=True, mode=_CLIP)
    params.update(update_jaxpr=None, update_consts=())
    return _scatter_batch(
        [x, index, upd], [dx, di, du], dimension_numbers=dn, prim=scatter_p, **params
    )


dynamic_update_slice_p.def_impl(_dus_impl)
dynamic_update_slice_p.def_abstract_eval(_dus_abstract_eval)
dynamic_update_slice_p.def_jvp(_dus_jvp)
dynamic_update_slice_p.def_transpose(_dus_transpose)
dynamic_update_slice_p.linear = True
dynamic_update_slice_p.def_batch(_dus_batch)


def _scalar_starts(
    start_indices: Any, shape: tuple[int, ...], allow_negative_indices: Any = True
) -> list[Any]:
    """One scalar int array per axis; negative starts count from the end (as in JAX) on the
    axes `allow_negative_indices` (a bool, or one per axis) allows, then the primitive clamps
    them so the slice fits."""
    if isinstance(start_indices, (list, tuple)):
        starts = list(start_indices)
    else:
        aval = get_aval(start_indices)
        starts = [sh.reshape(slice_index(start_indices, i), ()) for i in range(aval.shape[0])]
    if isinstance(allow_negative_indices, (bool, np.bool_)):
        allow_negative_indices = [allow_negative_indices] * len(starts)
    out = []
    for s, d, negatives in zip(starts, shape, allow_negative_indices):
        if isinstance(s, (int, np.integer)):
            if s < 0 and not negatives:
                raise ValueError(
                    f"Index {s} is out of bounds for dimension {d} if allow_negative_indices=False"
                )
            s = Array(np.asarray(s + d if s < 0 else s, dtype=dtypes.int32))
        elif negatives and get_aval(s).dtype.kind == "i":
            negative = ew.lt(s, ew.full_like(s, 0))
            aval = get_aval(s)  # JAX's `i + d` makes a weakly typed index strong
            strong = sh.convert_element_type(s, aval.dtype, False) if aval.weak_type else s
            s = ew.select(negative, ew.add(strong, ew.full_like(strong, d)), s)
        out.append(s)
    return out + starts[len(shape) :]


def slice_index(x: Any, i: int) -> Any:
    return static_slice(x, (i,), (i + 1,))


def dynamic_slice(
    operand: Any, start_indices: Any, slice_sizes: Any, *, allow_negative_indices: Any = True
) -> Any:
    """`lax.dynamic_slice`: a slice of static size at traced start indices (clamped to fit);
    negative starts count from the end where `allow_negative_indices` (a bool or one per
    axis) allows (a static negative start elsewhere is a ValueError)."""
    starts = _scalar_starts(start_indices, get_aval(operand).shape, allow_negative_indices)
    return dynamic_slice_p.bind(operand, *starts, slice_sizes=tuple(int(n) for n in slice_sizes))


def dynamic_update_slice(
    operand: Any, update: Any, start_indices: Any, *, allow_negative_indices: Any = True
) -> Any:
    """`lax.dynamic_update_slice`: writes `update` at traced start indices (clamped to fit;
    negative ones as `dynamic_slice`'s)."""
    starts = _scalar_starts(start_indices, get_aval(operand).shape, allow_negative_indices)
    return dynamic_update_slice_p.bind(operand, update, *starts)


def dynamic_slice_in_dim(
    operand: Any,
    start_index: Any,
    slice_size: int,
    axis: int = 0,
    *,
    allow_negative_indices: bool = True,
) -> Any:
    """`lax.dynamic_slice_in_dim`: `dynamic_slice` along one axis."""
    shape = get_aval(operand).shape
    starts: list[Any] = [0] * len(shape)
    sizes = list(shape)
    starts[axis], sizes[axis] = start_index, slice_size
    return dynamic_slice(operand, starts, sizes, allow_negative_indices=allow_negative_indices)


def dynamic_update_slice_in_dim(
    operand: Any, update: Any, start_index: Any, axis: int, *, allow_negative_indices: bool = True
) -> Any:
    """`lax.dynamic_update_slice_in_dim`: `dynamic_update_slice` along one axis."""
    starts: list[Any] = [0] * get_aval(operand).ndim
    starts[axis] = start_index
    return dynamic_update_slice(
        operand, update, starts, allow_negative_indices=allow_negative_indices
    )
