"""Indexing: `x[idx]`, `x.at[idx].<op>(...)`, argwhere, unique.

`x[idx]` follows numpy: the index is expanded (Ellipsis, None) into one entry per dimension.
Without integer arrays, static slices and ints become one `slice` (plus `rev` for negative
steps) and a `squeeze`, None axes a last `broadcast_in_dim`; a traced scalar becomes a
`dynamic_slice`. With integer arrays (Python ints count as 0-d arrays then, as in numpy), the
index is JAX's one `gather` (`_to_gather`, JAX's `_index_to_gather`): the array indices are
broadcast together and their batch dims placed where numpy puts them (in place when they are
adjacent, else in front), slices become window dims (a start index when not whole; an iota of
starts for other steps), scalars collapsed dims. Negative indices wrap; out-of-bounds indices,
static ints included, are clamped as in JAX (`mode="fill"` gives `fill_value` instead), and
their cotangents are dropped; an out-of-bounds static int is a `dynamic_slice` start, as in
JAX. Concrete boolean masks (of the indexed shape) become integer arrays; traced masks raise
`NonConcreteBooleanIndexError`; Python bools add an axis of length 1 or 0 (numpy's rule).
A Python list as the whole index is a TypeError, as in JAX: `x[jnp.array(seq)]` or
`x[tuple(seq)]` say which is meant. `jax.ds(start, size, stride)` (a `Slice`) selects `size`
elements from a start that may be traced: a `dynamic_slice` (start clamped, as JAX's gather
clamps it), then a strided slice.

`.at[idx].set/add/...` is JAX's `_scatter_impl`: the same gather form, transposed to one
`scatter`/`scatter-add`/... of the values broadcast to the indexed shape (out-of-bounds updates
dropped by default). An index that selects everything (`x.at[:]`) combines elementwise
(JAX scatters with an empty index vector).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from core import dtypes, tree_util
from core.array import Array
from core.config import config
from core.errors import (
    ConcretizationTypeError,
    DTypeError,
    KeyArithmeticError,
    NonConcreteBooleanIndexError,
    SliceWithArrayIndexError,
)
from core.lax import fori_loop
from core.named_sharding import takes_out_sharding
from core.numpy import ufuncs
from core.numpy._util import (
    broadcast_to,
    check_arraylike,
    check_no_keys,
    ensure_array,
    promote_dtypes,
)
from core.numpy.creation import asarray, ones_like, zeros_like
from core.numpy.lookup import PROMISE_IN_BOUNDS, take, wrap_negative
from core.numpy.nonzero import compact, nonzero
from core.numpy.setops import check_padding
from core.numpy.shapes import atleast_1d, stack
from core.prims import elementwise as ew
from core.prims import gather as gp
from core.prims import indexing as ix
from core.prims import shapes as sh
from core.prims.reductions import reduce_max, reduce_or, reduce_sum
from core.prims.rev import rev
from core.prims.sorting import cumsum, sort
from core.trace import Tracer, get_aval

# ---------------------------------------------------------------------------------------------
# Index normalization


@tree_util.register_pytree_node_class
class Slice:
    """`size` elements from `start` (static or traced) every `stride`: `x[jax.ds(i, n)]`.

    Args:
      start: the first index, an int or a scalar integer array (traced too).
      size: the number of elements, an int.
      stride: the step, an int >= 0.
    """

    def __init__(self, start: Any, size: int, stride: int = 1):
        if stride < 0:
            raise ValueError("`stride` must be >= 0.")
        self.start, self.size, self.stride = start, size, stride

    def __repr__(self) -> str:
        return f"Slice(start={self.start!r}, size={self.size!r}, stride={self.stride!r})"

    def __eq__(self, other: object) -> bool:
        """Equal fields, as JAX's dataclass Slice (unhashable, as it is)."""
        if type(other) is not Slice:
            return NotImplemented
        return (self.start, self.size, self.stride) == (other.start, other.size, other.stride)

    __hash__ = None  # type: ignore[assignment]

    def tree_flatten(self) -> tuple[tuple, tuple]:
        static = _is_int_scalar(self.start)
        return (None if static else self.start,), (self.start if static else None, self.size,
                                                   self.stride)  # fmt: skip

    @classmethod
    def tree_unflatten(cls, aux: tuple, children: tuple) -> Slice:
        return cls(aux[0] if children[0] is None else children[0], aux[1], aux[2])


def ds(start: Any, size: int | None = None, stride: int | None = None) -> slice | Slice:
    """A `Slice` as the builtin `slice` reads: `ds(None)` is `:`, `ds(j)` is `:j`, `ds(i, j)`
    is `i:i+j`, `ds(i, j, k)` is `i:i+j:k`, where `i` may be traced.

    Args:
      start: the first index (or the size when `size` is None); None for `:`.
      size: the number of elements.
      stride: the step (static), default 1.

    Returns:
      `slice(None)` for `ds(None)`, else a `Slice`.
    """
    if start is None:
        return slice(None)
    if stride is None:
        stride = 1
    if not isinstance(stride, int):
        raise ValueError("Non-static stride in `dslice`")
    if size is None:
        start, size = 0, start
    return Slice(start, size, stride)


_EMPTY_NEW_AXIS = ("empty new axis",)  # the axis `x[False]` adds


def _is_int_scalar(e: Any) -> bool:
    return isinstance(e, (int, np.integer)) and not isinstance(e, (bool, np.bool_))


def _expand(shape: tuple[int, ...], idx: Any) -> tuple[tuple[int, ...], list[Any], bool]:
    """Aligns the index with the dimensions: returns the positions of the None axes inserted,
    one entry per dimension: ("slice", slice) | ("int", i) | ("dyn", tracer) |
    ("arr", array), and whether an Ellipsis of no dimensions stands between advanced indices
    (they are then not adjacent, as in numpy: `x[:, a, ..., b]` puts their dims first)."""
    if isinstance(idx, list):  # JAX's texts: tuple(seq) when an entry indexes a dimension
        several = any(
            e is None or e is Ellipsis or isinstance(e, (slice, list, tuple)) or np.ndim(e) != 0
            for e in idx
        )
        raise TypeError(
            "Using a non-tuple sequence for multidimensional indexing is not allowed; use "
            f"`arr[{'tuple' if several else 'array'}(seq)]` instead of `arr[seq]`. See "
            "https://github.com/jax-ml/jax/issues/4564 for more information."
        )
    if not isinstance(idx, tuple):
        idx = (idx,)
    for e in idx:
        if isinstance(e, str):
            raise TypeError(f"JAX does not support string indexing; got idx={e!r}")
    items: list[Any] = []
    masks: dict[int, tuple[int, tuple[int, ...]]] = {}  # item -> (index position, mask shape)
    for pos, e in enumerate(idx):
        if isinstance(e, np.ndarray | Array) and e.dtype == np.bool_ and e.ndim:
            masks[len(items)] = (pos, e.shape)
        if e is None or e is Ellipsis or isinstance(e, slice):
            items.append(e)
        elif isinstance(e, Slice):
            items.append(("ds", e))
        elif _is_int_scalar(e):
            items.append(("int", int(e)))
        elif isinstance(e, (bool, np.bool_)) or _is_bool_scalar_array(e):
            items.append(None if e else _EMPTY_NEW_AXIS)  # numpy's rule: an axis of 1 or 0
        else:
            items.extend(_array_entries(e))

    def is_new_axis(e: Any) -> bool:
        return e is None or e is _EMPTY_NEW_AXIS

    consumed = sum(1 for e in items if not is_new_axis(e) and e is not Ellipsis)
    if sum(1 for e in items if e is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if consumed > len(shape):
        raise IndexError(
            f"Too many indices: array is {len(shape)}-dimensional, but {consumed} were "
            f"indexed\nThe array's shape is {shape}."
        )
    new_axes, entries, dim, split = [], [], 0, False
    for i, e in enumerate(items):
        if isinstance(e, slice) and any(isinstance(v, Tracer) for v in (e.start, e.stop, e.step)):
            raise IndexError(  # JAX's words, then the fix
                f"Slice entries must be static integers. Got {e} at position {i}\nUse "
                "lax.dynamic_slice for traced starts (the slice size must be static)."
            )
        if i in masks and not all(
            g in (0, n) for g, n in zip(masks[i][1], shape[dim : dim + len(masks[i][1])])
        ):  # numpy's (and JAX's) rule: an empty mask's zero-length dims match any size
            pos, got = masks[i]
            raise IndexError(
                f"boolean index did not match shape of indexed array in index {pos}: got "
                f"{got}, expected {list(shape[dim : dim + len(got)])}"
            )
        if e is Ellipsis:
            split = len(shape) == consumed and _advanced(items[:i]) and _advanced(items[i + 1 :])
            for _ in range(len(shape) - consumed):
                entries.append(("slice", slice(None)))
                dim += 1
        elif is_new_axis(e):
            new_axes.append(len(entries))
            entries.append(("slice", slice(None) if e is None else slice(0, 0)))
        else:
            entries.append(("slice", e) if isinstance(e, slice) else e)
            dim += 1
    entries.extend(("slice", slice(None)) for _ in shape[dim:])
    return tuple(new_axes), entries, split


def _advanced(items: list[Any]) -> bool:
    return any(isinstance(e, tuple) and e[0] in ("int", "dyn", "arr") for e in items)


def _is_bool_scalar_array(e: Any) -> bool:
    """A concrete 0-d boolean array, which JAX indexes with as with a Python bool."""
    return isinstance(e, np.ndarray | Array) and e.dtype == np.bool_ and e.ndim == 0


def _is_scalar_bool(e: Any) -> bool:
    return isinstance(e, (bool, np.bool_)) or _is_bool_scalar_array(e)


def _dims_consumed(e: Any) -> int:
    """How many dimensions of the indexed array an index entry other than `...` consumes."""
    if e is None or _is_scalar_bool(e):
        return 0
    if isinstance(e, np.ndarray | Array) and e.dtype == np.bool_:
        return e.ndim
    if isinstance(e, list) and np.asarray(e).dtype == np.bool_:
        return np.ndim(e)
    return 1


def _scalar_bools_as_arrays(ndim: int, idx: Any, lone_ok: bool) -> tuple[tuple, tuple] | None:
    """numpy's reading of scalar booleans among other advanced indices (JAX's
    `expand_scalar_bool_indices`): each is the index array `arange(1)` (True) or `arange(0)`
    (False) of a new axis of length 1 inserted where it stands, so it broadcasts with the other
    advanced indices (ints included) and several scalar booleans make one axis.

    Returns the positions of the axes to insert and the rewritten index; None when there is no
    scalar boolean, or (`lone_ok`) a single one without other advanced indices, which `_expand`
    reads as a new axis of length 1 or 0."""
    if not isinstance(idx, tuple):
        idx = (idx,)
    bools = sum(1 for e in idx if _is_scalar_bool(e))
    basic = sum(1 for e in idx if e is None or e is Ellipsis or isinstance(e, slice | Slice))
    if not bools or (lone_ok and bools == 1 and bools + basic == len(idx)):
        return None
    ellipsis_dims = max(ndim - sum(_dims_consumed(e) for e in idx if e is not Ellipsis), 0)
    axes: list[int] = []
    rewritten: list[Any] = []
    dim = 0
    for e in idx:
        if _is_scalar_bool(e):
            axes.append(dim)
            rewritten.append(np.arange(int(bool(e)), dtype=_index_dtype()))
            dim += 1
        else:
            rewritten.append(e)
            dim += ellipsis_dims if e is Ellipsis else _dims_consumed(e)
    return tuple(axes), tuple(rewritten)


def _array_entries(e: Any) -> list[Any]:
    if isinstance(e, (list, tuple)) and any(
        isinstance(v, Tracer) for v in tree_util.tree_leaves(e)
    ):  # a list of traced ints (jit's argument `([0, 1],)`): one index array, as JAX's
        e = asarray(e)
    if isinstance(e, Tracer):
        aval = get_aval(e)
        if aval.dtype == dtypes.bool_:
            raise NonConcreteBooleanIndexError(aval)
        if aval.dtype.kind not in "iu":
            raise TypeError(
                f"Indexer must have integer or boolean type, got indexer with type {aval.dtype}"
            )
        return [("dyn", e) if aval.ndim == 0 else ("arr", e)]
    arr = np.asarray(e)
    if arr.dtype == np.bool_:
        if arr.ndim == 0:
            raise IndexError("0-d boolean indices are not supported; use jnp.where instead.")
        return [("arr", i.astype(dtypes.default_int())) for i in np.nonzero(arr)]
    if arr.dtype.kind not in "iu":
        if arr.size == 0:
            arr = arr.astype(dtypes.default_int())
        else:
            raise TypeError(
                f"Indexer must have integer or boolean type, got indexer with type {arr.dtype}"
            )
    if arr.ndim == 0:
        return [("int", int(arr))]
    return [("arr", arr.astype(dtypes.canonicalize_dtype(arr.dtype)))]


def _static_bounds(s: slice, d: int) -> tuple[int, int, int]:
    for v in (s.start, s.stop, s.step):
        if isinstance(v, Tracer):
            raise IndexError(
                "Array slice indices must have static start/stop/step; use lax.dynamic_slice "
                "for traced starts (the slice size must be static)."
            )
    return slice(*(None if v is None else int(v) for v in (s.start, s.stop, s.step))).indices(d)


def _apply_slices(x: Any, entries: list[Any]) -> tuple[Any, list[Any]]:
    """Applies the slice entries (keeping their dims) and static ints (no array is present).

    Returns the sliced array and the entries with slices replaced by ("full",)."""
    shape = get_aval(x).shape
    start, limit, step, flip = [], [], [], []
    out_entries = []
    for d, (e, n) in enumerate(zip(entries, shape)):
        if e[0] == "slice":
            lo, hi, st = _static_bounds(e[1], n)
            count = len(range(lo, hi, st))
            if st < 0:
                flip.append(d)
                lo, st = n - 1 - lo, -st
            if count == 0:
                lo = 0
            start.append(lo)
            limit.append(lo + (count - 1) * st + 1 if count else lo)
            step.append(st)
            out_entries.append(("full",))
        elif e[0] == "dyn" and n == 0:  # JAX's error for a traced index of an empty axis
            raise IndexError(
                f"index is out of bounds for axis {d} with size 0\n"
                "A traced index of an empty axis: check the axis's size before indexing it."
            )
        elif e[0] == "int":
            if n == 0:
                raise IndexError(
                    f"index is out of bounds for axis {d} with size 0\n"
                    f"Index {e[1]} of an empty axis: check the axis's size before indexing it."
                )
            i = min(max(e[1] + n if e[1] < 0 else e[1], 0), n - 1)  # JAX clamps static ints
            start.append(i)
            limit.append(i + 1)
            step.append(1)
            out_entries.append(("drop",))
        else:
            start.append(0)
            limit.append(n)
            step.append(1)
            out_entries.append(e)
    if flip:
        x = rev(x, flip)
    if (tuple(start), tuple(limit), tuple(step)) != ((0,) * len(shape), shape, (1,) * len(shape)):
        x = ix.slice(x, start, limit, None if set(step) <= {1} else step)
    return x, out_entries


def _index_dtype() -> np.dtype:
    return dtypes.default_int()


class _GatherIndexer(NamedTuple):
    """JAX's `_GatherIndexer`: an index as one gather (or scatter) and what surrounds it."""

    slice_shape: tuple[int, ...]  # the result's shape
    gather_slice_shape: tuple[int, ...]  # the gather's slice sizes
    indices: Any  # the index vectors (None: nothing is indexed)
    dnums: gp.GatherDimensionNumbers
    plain: bool  # no advanced index: unique and sorted
    reversed_dims: tuple[int, ...]  # result dims of negative-step slices
    newaxis_dims: tuple[int, ...]  # result dims of None entries


def _ndim(v: Any) -> int:
    return np.ndim(v) if isinstance(v, np.ndarray | int) else get_aval(v).ndim


def _as_index(v: Any, dt: np.dtype) -> Any:
    """A scalar index in the index dtype: a Python int is a constant (staged where used, as
    JAX's are), an array is converted."""
    if _is_int_scalar(v) or isinstance(v, np.ndarray):
        return Array(np.asarray(v, dt))
    return sh.convert_element_type(v, dt)


def _index_vectors(pieces: list[tuple[Any, int]], shape: list[int], dt: np.dtype) -> Any:
    """The pieces `(index array, its first dim)` broadcast into `shape` and stacked on a new
    last axis (numpy pieces stay constants, as JAX computes them eagerly)."""
    if not pieces:
        return None
    if len(pieces) == 1:
        g = pieces[0][0]
        return Array(g[..., None]) if isinstance(g, np.ndarray) else sh.expand_dims(g, (_ndim(g),))

    full = (*shape, 1)
    cols = []
    for g, i in pieces:
        if isinstance(g, np.ndarray):
            g = g.reshape((1,) * i + g.shape + (1,) * (len(full) - i - g.ndim))
            cols.append(np.broadcast_to(g, full))
        else:
            cols.append(sh.broadcast_in_dim(g, full, tuple(range(i, i + _ndim(g)))))
    if all(isinstance(c, np.ndarray) for c in cols):
        return Array(np.concatenate(cols, -1).astype(dt))
    return ix.concatenate([Array(c) if isinstance(c, np.ndarray) else c for c in cols], len(shape))


def _to_gather(
    shape: tuple[int, ...], entries: list[Any], new_axes: tuple[int, ...], normalize: bool = True,
    split: bool = False,
) -> _GatherIndexer:  # fmt: skip
    """JAX's `_index_to_gather`: `entries` (one per index item, `new_axes` the None items) as
    gather dimension numbers, indices and slice sizes (numpy's placement of advanced indices:
    in place when they are adjacent, else first)."""
    kinds = ["none" if p in new_axes else e[0] for p, e in enumerate(entries)]
    adv_pos = [p for p, k in enumerate(kinds) if k in ("int", "dyn", "arr")]
    contiguous = not split and all(b - a == 1 for a, b in zip(adv_pos, adv_pos[1:]))
    dt = dtypes.int32 if max(shape, default=0) <= np.iinfo(np.int32).max else np.dtype(np.int64)
    axis_of, x_axis = {}, 0
    for p, k in enumerate(kinds):
        if k != "none":
            axis_of[p], x_axis = x_axis, x_axis + 1
    values = {}
    for p in adv_pos:
        v, n = entries[p][1], shape[axis_of[p]]
        if kinds[p] == "int":
            values[p] = v + n if normalize and v < 0 else v
        else:
            values[p] = wrap_negative(v, n) if normalize else v
    advanced = any(kinds[p] == "arr" and _ndim(values[p]) > 0 for p in adv_pos)
    if not advanced:
        adv_pos = []

    offset, collapsed, start_map, gather_sizes = [], [], [], []
    pieces, ishape, slice_shape, newaxis, reversed_dims = [], [], [], [], []
    y_axis = collapsed_y = 0
    for p, k in enumerate(kinds):
        if adv_pos and p == (adv_pos[0] if contiguous else 0):
            arrays = [ensure_array(values[q]) if kinds[q] == "int" else values[q]
                      for q in adv_pos]  # fmt: skip
            bshape = np.broadcast_shapes(*(np.shape(a) if isinstance(a, np.ndarray)
                                           else get_aval(a).shape for a in arrays))  # fmt: skip
            start = len(ishape)
            for a in arrays:
                if isinstance(a, np.ndarray):
                    pieces.append((np.broadcast_to(a, bshape).astype(dt), start))
                else:
                    pieces.append((sh.convert_element_type(broadcast_to(a, bshape), dt), start))
            ishape += bshape
            start_map += [axis_of[q] for q in adv_pos]
            collapsed += [axis_of[q] for q in adv_pos]
            slice_shape += bshape
            y_axis += len(bshape)
            collapsed_y += len(bshape)
        if p in adv_pos:
            gather_sizes.append(1)
        elif k in ("int", "dyn", "arr"):  # a scalar index
            d = axis_of[p]
            if shape[d] == 0:
                raise IndexError(f"index is out of bounds for axis {d} with size 0")
            pieces.append((_as_index(values[p], dt), len(ishape)))
            collapsed.append(d)
            gather_sizes.append(1)
            start_map.append(d)
        elif k == "none":
            slice_shape.append(1)
            newaxis.append(y_axis)
            y_axis += 1
        else:  # a slice
            d, n = axis_of[p], shape[axis_of[p]]
            if k == "ds":
                lo, st, size = entries[p][1].start, entries[p][1].stride, entries[p][1].size
            else:
                lo, hi, st = _static_bounds(entries[p][1], n)
                size = len(range(lo, hi, st))
            slice_shape.append(size)
            if st == 1:
                if size != n:
                    pieces.append((_as_index(lo, dt), len(ishape)))
                    start_map.append(d)
                gather_sizes.append(size)
                offset.append(collapsed_y)
            else:
                steps = ew.mul(np.asarray(st, dt), sh.iota(dt, (size,), 0))
                idx = ew.add(np.asarray(lo, dt) if _is_int_scalar(lo) else lo, steps)
                if st < 0:
                    reversed_dims.append(collapsed_y)
                    idx = rev(idx, (0,))
                gather_sizes.append(1)
                pieces.append((idx, len(ishape)))
                start_map.append(d)
                ishape.append(size)
                collapsed.append(d)
            collapsed_y += 1
            y_axis += 1
    dnums = gp.GatherDimensionNumbers(tuple(offset), tuple(sorted(collapsed)), tuple(start_map))
    return _GatherIndexer(
        tuple(slice_shape),
        tuple(gather_sizes),
        _index_vectors(pieces, ishape, dt),
        dnums,
        not advanced,
        tuple(reversed_dims),
        tuple(newaxis),
    )


def _gather_indexed(
    x: Any, entries: list[Any], new_axes: tuple[int, ...], mode: Any, fill_value: Any,
    normalize: bool, sorted_hint: bool = False, unique_hint: bool = False, split: bool = False,
) -> Any:  # fmt: skip
    """JAX's `_gather`: `x[idx]` as one gather (then `rev` and the None axes)."""
    ix_ = _to_gather(get_aval(x).shape, entries, new_axes, normalize, split)
    if fill_value is not None:
        if np.ndim(fill_value) != 0:
            raise ValueError("fill_value argument to indexed get() must be a scalar")
        fill_value = np.asarray(fill_value).item()
    if 0 in ix_.slice_shape:
        return sh.full(ix_.slice_shape, 0, get_aval(x).dtype, get_aval(x).weak_type)
    y = x
    if ix_.indices is not None:
        y = gp.bind_gather(
            y,
            ix_.indices,
            ix_.dnums,
            ix_.gather_slice_shape,
            unique_indices=unique_hint or ix_.plain,
            indices_are_sorted=sorted_hint or ix_.plain,
            mode=mode,
            fill_value=fill_value,
        )
    if ix_.reversed_dims:
        y = rev(y, ix_.reversed_dims)
    return sh.expand_dims(y, ix_.newaxis_dims) if ix_.newaxis_dims else y


def _unwrapped(entry: tuple, n: int, clip: bool) -> tuple:
    """An index entry with negative indices out of bounds instead of counted from the end
    (`wrap_negative_indices=False`): `n` (dropped or filled), or 0 under `mode="clip"`."""
    kind, value = entry[0], entry[1] if len(entry) > 1 else None
    to = 0 if clip else n
    if kind == "int":
        return ("int", to if value < 0 else value)
    if kind == "arr" and isinstance(value, np.ndarray):
        return ("arr", np.where(value < 0, to, value).astype(value.dtype))
    if kind in ("arr", "dyn"):
        negative = ew.lt(value, ew.full_like(value, 0, shape=()))
        return (kind, ew.select_n(negative, value, ew.full_like(value, to)))
    return entry


_MODES = (None, "clip", "fill", "drop", PROMISE_IN_BOUNDS)


def _check_static_indices(
    shape: tuple[int, ...], new_axes: tuple[int, ...], entries: list[Any], wrap: bool
) -> None:
    """`jax_check_static_indices`: JAX's IndexError for a static int index out of bounds."""
    dims = [e for p, e in enumerate(entries) if p not in new_axes]
    for axis, (e, n) in enumerate(zip(dims, shape)):
        if e[0] == "int" and not 0 <= (e[1] + n if wrap and e[1] < 0 else e[1]) < n:
            raise IndexError(f"index {e[1]} out of bounds for axis {axis} with size {n}")


def _check_mode(mode: Any) -> None:
    """JAX's ValueError for a mode string that is none of its gather/scatter modes."""
    if isinstance(mode, str) and mode not in _MODES:
        raise ValueError(
            f'Unknown gather mode "{mode}"\nUse one of "clip", "fill", "drop" or '
            '"promise_in_bounds".'
        )


def getitem(
    x: Any,
    idx: Any,
    mode: str | None = None,
    fill_value: Any = None,
    wrap_negative_indices: bool = True,
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
) -> Any:
    """`x[idx]` with numpy's basic and advanced indexing (see the module docstring);
    `wrap_negative_indices=False` makes negative indices out of bounds, as JAX's `.at[]`."""
    _check_mode(mode)
    x = ensure_array(x)
    aval = get_aval(x)
    as_arrays = _scalar_bools_as_arrays(aval.ndim, idx, lone_ok=True)
    if as_arrays is not None:
        axes, idx = as_arrays
        x = sh.expand_dims(x, axes)
        hints = dict(indices_are_sorted=indices_are_sorted, unique_indices=unique_indices)
        return getitem(x, idx, mode, fill_value, wrap_negative_indices, **hints)
    new_axes, entries, split = _expand(aval.shape, idx)
    if mode in (None, PROMISE_IN_BOUNDS) and config.read("check_static_indices"):
        _check_static_indices(aval.shape, new_axes, entries, wrap_negative_indices)
    original = x
    new_shape = list(aval.shape)
    for p in new_axes:
        new_shape.insert(p, 1)
    if not wrap_negative_indices:
        entries = [_unwrapped(e, n, mode == "clip") for e, n in zip(entries, new_shape)]
    if mode in ("fill", "drop"):  # out-of-bounds scalars must fill too: gather, not clamp
        entries = [
            ("arr", np.asarray(e[1])) if e[0] == "int" and n and not -n <= e[1] < n else e
            for e, n in zip(entries, new_shape)
        ]
        entries = [("arr", e[1]) if e[0] == "dyn" else e for e in entries]
    elif mode is None and not any(e[0] == "arr" for e in entries):
        # JAX slices statically by in-bounds ints only: an out-of-bounds one is a
        # `dynamic_slice` start (clamped there; `checkify`'s index_checks report it)
        entries = [
            ("dyn", e[1]) if e[0] == "int" and n and not -n <= e[1] < n else e
            for e, n in zip(entries, new_shape)
        ]
    if any(e[0] == "arr" for e in entries):
        if any(e[0] == "ds" for e in entries):
            raise SliceWithArrayIndexError()
        gmode = gp.GatherScatterMode.from_any(PROMISE_IN_BOUNDS if mode is None else mode)
        hints = dict(sorted_hint=indices_are_sorted, unique_hint=unique_indices, split=split)
        return _gather_indexed(
            original, entries, new_axes, gmode, fill_value, wrap_negative_indices, **hints
        )
    # JAX's static and dynamic slicing add the None axes last (`x[None]` of an empty axis first)
    late = all(entries[p] == ("slice", slice(None)) for p in new_axes)
    kept = [p not in new_axes and e[0] in ("slice", "ds") for p, e in enumerate(entries)]
    out_axes = tuple(sum(kept[:p]) + new_axes.index(p) for p in new_axes) if late else ()
    if late:
        entries = [e for p, e in enumerate(entries) if p not in new_axes]
    else:
        x = sh.expand_dims(x, new_axes)
    x, entries = _apply_slices(x, entries)
    cur = get_aval(x).shape
    dyn = [(d, e[1]) for d, e in enumerate(entries) if e[0] in ("dyn", "ds")]
    if dyn:
        starts: list[Any] = [0] * len(cur)
        sizes = list(cur)
        for d, i in dyn:
            # `dynamic_slice` wraps a negative start once, as JAX's indexing does
            starts[d] = i.start if isinstance(i, Slice) else i
            sizes[d] = max((i.size - 1) * i.stride + 1, 0) if isinstance(i, Slice) else 1
        if len(starts) > 1:  # JAX's: one dtype for every start, so each is wrapped (staged)
            dt = dtypes.int32 if max(cur) <= np.iinfo(np.int32).max else dtypes.default_int()
            starts = [sh.convert_element_type(ensure_array(s), dt) for s in starts]
        x = gp.dynamic_slice(x, starts, sizes)
        strides = {d: i.stride for d, i in dyn if isinstance(i, Slice) and i.stride > 1}
        if strides:
            step = [strides.get(d, 1) for d in range(len(cur))]
            x = ix.slice(x, [0] * len(cur), get_aval(x).shape, step)
    x = sh.squeeze(x, tuple(d for d, e in enumerate(entries) if e[0] not in ("full", "ds")))
    return sh.expand_dims(x, out_axes) if out_axes else x


# ---------------------------------------------------------------------------------------------
# .at[idx]


def _scatter_update(
    x: Any,
    idx: Any,
    values: Any,
    kind: str,
    mode: str | None,
    wrap: bool = True,
    hints: tuple[bool, bool] = (False, False),
) -> Any:
    """JAX's `_scatter_impl`: the index as a gather (`_to_gather`), transposed to a scatter
    of `values` broadcast to the indexed shape (`hints`: indices_are_sorted, unique_indices)."""
    _check_mode(mode)
    x = ensure_array(x)
    aval = get_aval(x)
    as_arrays = _scalar_bools_as_arrays(aval.ndim, idx, lone_ok=False)
    if as_arrays is not None:
        axes, idx = as_arrays
        out = _scatter_update(sh.expand_dims(x, axes), idx, values, kind, mode, wrap, hints)
        return sh.squeeze(out, axes)
    new_axes, entries, split = _expand(aval.shape, idx)
    if any(e[0] == "ds" for e in entries) and any(e[0] == "arr" for e in entries):
        raise SliceWithArrayIndexError()
    if not wrap:
        sizes = iter(aval.shape)
        entries = [e if p in new_axes else _unwrapped(e, next(sizes), mode == "clip")
                   for p, e in enumerate(entries)]  # fmt: skip
    keys = type(aval.dtype) is dtypes.KeyDType
    if keys:  # keys take keys, and are only set
        _check_key_updates(aval.dtype, values)
        gp.check_scatter_kind(kind, aval.dtype)
    else:
        # As JAX: the scatter runs in the promoted dtype of the array and the values, and its
        # result is converted back (int x.at[i].multiply(2.7) scales by 2.7, then truncates).
        if type(values) is int and dtypes.kind(aval.dtype) in "iu":
            info = np.iinfo(aval.dtype)
            if info.min <= values <= info.max:  # JAX's: a Python int takes x's integer dtype
                values = Array(np.asarray(values, aval.dtype), weak_type=True)
        x, values = promote_dtypes(x, ensure_array(values))
    if get_aval(x).dtype == np.bool_ and kind in ("add", "mul", "sub"):  # lax's dtype check
        raise DTypeError(
            f"{kind} does not accept dtype bool at position 0. Accepted dtypes at position 0 are "
            "subtypes of integer, floating, complexfloating."
        )
    if kind == "sub":  # x[idx] -= values: add the negated values
        values, kind = ew.neg(values), "add"
    ix_ = _to_gather(aval.shape, entries, new_axes, wrap, split)
    if 0 in ix_.slice_shape:
        return x if keys else sh.convert_element_type(x, aval.dtype, aval.weak_type)
    y = broadcast_to(values, ix_.slice_shape)
    if ix_.newaxis_dims:
        y = sh.squeeze(y, ix_.newaxis_dims)
    if ix_.reversed_dims:
        y = rev(y, ix_.reversed_dims)
    if ix_.indices is None:  # every element is updated once
        out = y if kind == "set" else _COMBINE[kind](x, y)
    else:
        dn = ix_.dnums
        sdn = gp.ScatterDimensionNumbers(
            dn.offset_dims, dn.collapsed_slice_dims, dn.start_index_map
        )
        out = gp.bind_scatter(
            kind,
            x,
            ix_.indices,
            y,
            sdn,
            indices_are_sorted=ix_.plain or hints[0],
            unique_indices=ix_.plain or hints[1],
            mode=mode,
        )
    return out if keys else sh.convert_element_type(out, aval.dtype, aval.weak_type)


def _check_key_updates(dtype: dtypes.KeyDType, values: Any) -> None:
    """JAX's errors for updates of keys that are not keys of their dtype (its cast check asks
    numpy for the key dtype): a Python scalar, or an array of another dtype."""
    if type(values) in (bool, int, float, complex):
        raise KeyArithmeticError(f"Cannot interpret '{dtype}' as a data type")
    if dtypes.dtype_and_weak(values)[0] != dtype:
        raise KeyArithmeticError(f"Cannot determine dtype of {dtype}")


_COMBINE = {"add": ew.add, "mul": ew.mul, "min": ew.min, "max": ew.max}


def _update_method(kind: str, doc: str, combine: str | None = None) -> Callable[..., Any]:
    """One `.at[idx]` method: scatter `values` with `kind` into the array.

    With `combine` (a ufunc name) the values are
    scattered into ones and the result is `combine(array, scattered)`.
    """

    def method(
        self: _IndexUpdateRef,
        values: Any,
        *,
        indices_are_sorted: bool = False,
        unique_indices: bool = False,
        mode: str | None = None,
        wrap_negative_indices: bool = True,
    ) -> Any:
        wrap, hints = wrap_negative_indices, (indices_are_sorted, unique_indices)
        if combine is None:
            return _scatter_update(self.array, self.index, values, kind, mode, wrap, hints)
        other = _scatter_update(ones_like(self.array), self.index, values, kind, mode, wrap, hints)
        return getattr(ufuncs, combine)(self.array, other)

    method.__name__ = method.__qualname__ = "scatter"  # as the errors name it
    method.__doc__ = doc
    return takes_out_sharding(method, exempt=True)


class _IndexUpdateRef:
    """`x.at[idx]`: the functional update methods of JAX (each returns a new array)."""

    __slots__ = ("array", "index")

    def __init__(self, array: Any, index: Any):
        self.array = array
        self.index = index

    def __repr__(self) -> str:
        return f"_IndexUpdateRef({self.array!r}, {self.index!r})"

    @takes_out_sharding(exempt=True)
    def get(
        self,
        *,
        indices_are_sorted: bool = False,
        unique_indices: bool = False,
        mode: str | None = None,
        fill_value: Any = None,
        wrap_negative_indices: bool = True,
    ) -> Any:
        """`x[idx]`; `mode="fill"` returns `fill_value` (NaN by default) out of bounds;
        `wrap_negative_indices=False` makes negative indices out of bounds; an `out_sharding`
        places the result (see `core.sharding.reshard`)."""
        return getitem(self.array, self.index, mode, fill_value, wrap_negative_indices,
                       indices_are_sorted, unique_indices)  # fmt: skip

    set = _update_method(
        "set", "`x[idx] = values` as a new array (out-of-bounds updates are dropped)."
    )
    add = _update_method("add", "`x[idx] += values`; repeated indices accumulate.")
    subtract = _update_method("sub", "`x[idx] -= values`.")
    multiply = _update_method("mul", "`x[idx] *= values`; repeated indices multiply.")
    mul = multiply
    divide = _update_method("mul", "`x[idx] /= values`.", combine="divide")
    power = _update_method("mul", "`x[idx] **= values`.", combine="power")
    min = _update_method("min", "`x[idx] = minimum(x[idx], values)`.")
    max = _update_method("max", "`x[idx] = maximum(x[idx], values)`.")

    def apply(
        self,
        func: Callable[[Any], Any],
        *,
        indices_are_sorted: bool = False,
        unique_indices: bool = False,
        mode: str | None = None,
        wrap_negative_indices: bool = True,
    ) -> Any:
        """`x[idx] = func(x[idx])` (func must be elementwise), as JAX's `scatter_apply`: an
        element that `idx` names k times gets `func` applied k times.

        Args:
          func: an elementwise function of one array.
          indices_are_sorted, unique_indices: hints, unused (as on JAX's CPU, a repeated index
            still applies `func` again when `unique_indices=True` promised none).
          mode: what out-of-bounds indices do ("fill"/"drop" or "clip"; "promise_in_bounds").
          wrap_negative_indices: whether negative indices count from the end.

        Returns:
          The updated array.
        """
        wrap, x = wrap_negative_indices, ensure_array(self.array)
        values = func(getitem(x, self.index, wrap_negative_indices=wrap))
        once = _scatter_update(x, self.index, values, "set", mode, wrap)
        ones = ones_like(values, dtype=np.int32)
        counts = _scatter_update(zeros_like(x, dtype=np.int32), self.index, ones, "add", mode, wrap)
        most = reduce_max(counts, tuple(range(get_aval(counts).ndim)))
        if not isinstance(most, Tracer) and int(most) <= 1:
            return once  # no element named twice: the gradient-friendly scatter

        def again(i: Any, y: Any) -> Any:  # the k-th application where k < count
            return ew.select_n(ew.lt(i, counts), y, func(y))

        return fori_loop(1, most, again, once)


class AtIndexer:
    """The object behind `x.at`: `x.at[idx]` gives the update methods for `idx`."""

    __slots__ = ("array",)

    def __init__(self, array: Any):
        self.array = array

    def __getitem__(self, index: Any) -> _IndexUpdateRef:
        return _IndexUpdateRef(self.array, index)

    def __repr__(self) -> str:
        return f"_IndexUpdateHelper({self.array!r})"


# ---------------------------------------------------------------------------------------------
# argwhere, unique


def argwhere(a: Any, *, size: int | None = None, fill_value: Any = None) -> Any:
    """Indices of the non-zero elements as an array of shape (count, ndim)."""
    check_arraylike("argwhere", a)
    a = ensure_array(a)
    if get_aval(a).ndim == 0:
        return stack(nonzero(atleast_1d(a), size=size, fill_value=fill_value), 1)[:, :0]
    return stack(nonzero(a, size=size, fill_value=fill_value), 1)


_UNIQUE_SIZE = (
    "The error arose for the first argument of jnp.unique(). To make jnp.unique() compatible "
    "with JIT and other transforms, you can specify a concrete value for the size argument, "
    "which will determine the output size"
)


def unique(
    ar: Any,
    return_index: bool = False,
    return_inverse: bool = False,
    return_counts: bool = False,
    axis: int | None = None,
    *,
    equal_nan: bool = True,
    size: int | None = None,
    fill_value: Any = None,
    sorted: bool = True,
) -> Any:
    """The sorted unique values (of the flattened array), or with `axis` the unique slices.

    A traced array needs a static `size=`: its values come padded with `fill_value` (by
    default the smallest value); its `return_*` flags, and those of `axis`, run
    `_unique_slices` (JAX's algorithm).
    `sorted` is unused, as in JAX (the values always come sorted)."""
    check_arraylike("unique", ar)
    ar = ensure_array(ar)
    check_padding("unique", get_aval(ar).size, size, fill_value)
    if axis is not None:
        flags = (return_index, return_inverse, return_counts)
        return _unique_slices(ar, int(axis), flags, equal_nan, size, fill_value)
    if isinstance(ar, Tracer):
        if size is None:
            raise ConcretizationTypeError(  # JAX's class (not the boolean-index one)
                f"traced array with shape {get_aval(ar).str_short(short_dtypes=False)}",
                _UNIQUE_SIZE + ".",
            )
        n = get_aval(ar).size
        if return_index or return_inverse or return_counts:  # JAX's algorithm on the elements
            flags = (return_index, return_inverse, return_counts)
            res = _unique_slices(sh.reshape(ar, (n,)), 0, flags, equal_nan, size, fill_value)
            if not return_inverse:
                return res
            i = 1 + return_index  # the inverse has the input's shape, as JAX's
            inverse = sh.reshape(res[i], get_aval(ar).shape)
            return (*res[:i], inverse, *res[i + 1 :])
        if get_aval(ar).dtype.kind == "c":  # JAX's unique: complex NaNs become nan + 0j
            ar = ew.select_n(ew.ne(ar, ar), ar, ew.full_like(ar, np.nan))
        s = sort(sh.reshape(ar, (n,)), 0)
        if n == 0:
            return sh.full((size,), 0 if fill_value is None else fill_value, get_aval(ar).dtype)
        first = ix.slice(s, (0,), (1,))
        after, before = ix.slice(s, (1,), (n,)), ix.slice(s, (0,), (n - 1,))
        differs = ew.ne(after, before)
        if equal_nan and get_aval(ar).dtype.kind in "fc":  # NaNs (sorted last) are one value
            nans = ew.bitwise_and(ew.ne(after, after), ew.ne(before, before))
            differs = ew.bitwise_and(differs, ew.bitwise_not(nans))
        new = ix.concatenate([sh.full((1,), True, dtypes.bool_), differs], 0)
        fill = sh.reshape(first, ()) if fill_value is None else fill_value
        out = compact(new, s, size, 0)
        k = reduce_sum(sh.convert_element_type(new, _index_dtype()), (0,))
        keep = ew.lt(sh.iota(_index_dtype(), size), sh.broadcast_in_dim(k, (size,), ()))
        fill = sh.convert_element_type(ensure_array(fill), get_aval(out).dtype)
        return ew.select_n(keep, sh.broadcast_in_dim(fill, (size,), ()), out)
    check_no_keys("unique", ar)  # (traced keys: the sort's error, as JAX's)
    host = np.asarray(ar)
    if dtypes.is_ml_float(host.dtype):  # numpy sorts bfloat16's NaNs first: unique in float32
        host = host.astype(np.float32)
    if host.dtype.kind == "c":  # JAX sorts complex NaNs as nan + 0j (numpy: by their parts)
        host = np.where(np.isnan(host), host.dtype.type(np.nan), host)
    res = np.unique(
        host,
        return_index=return_index,
        return_inverse=return_inverse,
        return_counts=return_counts,
        equal_nan=equal_nan,
    )
    res = res if isinstance(res, tuple) else (res,)
    vals = res[0].astype(get_aval(ar).dtype)
    if size is not None:  # as JAX: the values padded with fill_value, the first occurrences
        # with the first one's, the counts with zeros (all cut at `size`)
        fv = vals.min() if fill_value is None and vals.size else (fill_value or 0)
        vals = _padded(vals, size, fv)
        kinds = _unique_outputs(return_index, return_inverse, return_counts)
        res = (vals, *(_padded_output(r, k, size) for r, k in zip(res[1:], kinds)))
    outs = [Array(vals)]
    outs += [
        Array(
            r.astype(_index_dtype()).reshape(get_aval(ar).shape)
            if k == "inverse"
            else r.astype(_index_dtype())
        )
        for r, k in zip(res[1:], _unique_outputs(return_index, return_inverse, return_counts))
    ]
    return outs[0] if len(outs) == 1 else tuple(outs)


def _unique_outputs(index: bool, inverse: bool, counts: bool) -> list[str]:
    """The names of `unique`'s extra outputs, in order."""
    return [k for k, f in (("index", index), ("inverse", inverse), ("counts", counts)) if f]


def _padded_output(r: np.ndarray, kind: str, size: int) -> np.ndarray:
    """An extra output of `unique(size=...)`: first occurrences padded with the first one's,
    counts with zeros (the inverse stays)."""
    if kind == "inverse":
        return r
    return _padded(r, size, r[0] if kind == "index" and r.size else 0)


def _padded(x: np.ndarray, size: int, fill: Any) -> np.ndarray:
    """`x` cut or padded with `fill` to `size` entries."""
    return np.concatenate([x, np.full(max(size - x.size, 0), fill, x.dtype)])[:size]


def _unique_slices(
    ar: Any, axis: int, flags: tuple[bool, bool, bool], equal_nan: bool, size: Any, fill: Any
) -> Any:
    """`unique(ar, axis=axis)`: the distinct slices along `axis` in lexicographic order, with
    (per `flags`) the index of each one's first occurrence, the inverse and the counts.

    JAX's algorithm, so that traced arrays work given a static `size`: the slices become rows
    that one stable `sort` orders by all their columns (NaNs last), a row starts a new value
    where it differs from the row before (NaNs equal if `equal_nan`), and the positions of
    those rows, padded with the first, pick the results (`fill` replaces padded values)."""
    aval = get_aval(ar)
    if not -aval.ndim <= axis < aval.ndim:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {aval.ndim}")
    axis %= aval.ndim
    n, tail = aval.shape[axis], (*aval.shape[:axis], *aval.shape[axis + 1 :])
    width = int(np.prod(tail, dtype=np.int64))
    moved = (axis, *(d for d in range(aval.ndim) if d != axis))
    rows = sh.reshape(sh.transpose(ar, moved), (n, width))
    idt = _index_dtype()
    order = sh.iota(idt, n)
    if width and n:
        cols = [ix.slice(rows, (0, j), (n, j + 1)) for j in range(width)]
        *cols, order = sort([sh.reshape(c, (n,)) for c in cols] + [order], 0, True, width)
        rows = ix.concatenate([sh.reshape(c, (n, 1)) for c in cols], 1)
    new = sh.full((min(n, 1),), True, dtypes.bool_)
    if width and n > 1:
        a, b = ix.slice(rows, (1, 0), (n, width)), ix.slice(rows, (0, 0), (n - 1, width))
        differ = ew.ne(a, b)
        if equal_nan and dtypes.kind(aval.dtype) in "fc":
            both_nan = ew.bitwise_and(ew.ne(a, a), ew.ne(b, b))
            differ = ew.bitwise_and(differ, ew.bitwise_not(both_nan))
        new = ix.concatenate([new, reduce_or(differ, (1,))], 0)
    elif n > 1:
        new = ix.concatenate([new, sh.full((n - 1,), False, dtypes.bool_)], 0)
    starts = sh.convert_element_type(new, idt)
    count = reduce_sum(starts, (0,))
    if size is None:
        if isinstance(ar, Tracer):
            raise ConcretizationTypeError(
                f"traced array with shape {aval.str_short(short_dtypes=False)}", _UNIQUE_SIZE + "."
            )
        size = int(np.asarray(count))
    size = int(size)
    (pos,) = nonzero(new, size=size, fill_value=0) if n else (sh.full((size,), 0, idt),)
    picked = take(rows, pos, axis=0) if n else sh.full((size, width), 0, aval.dtype)
    if fill is not None or not n:
        valid = ew.lt(sh.iota(idt, size), sh.broadcast_in_dim(count, (size,), ()))
        if fill is None or np.ndim(fill) == 0:
            pad = sh.full((size, width), 0 if fill is None else fill, aval.dtype)
        else:  # one slice (broadcast to a slice's shape), as JAX takes it
            row = sh.reshape(broadcast_to(asarray(fill, aval.dtype), tail), (1, width))
            pad = sh.broadcast_in_dim(row, (size, width), (0, 1))
        picked = ew.select_n(sh.broadcast_in_dim(valid, (size, width), (0,)), pad, picked)
    back = tuple(int(k) for k in np.argsort(moved))
    outs = [sh.transpose(sh.reshape(picked, (size, *tail)), back)]
    if flags[0]:
        outs.append(take(order, pos) if n else sh.full((size,), 0, idt))
    if flags[1]:
        _, undo = sort([order, sh.iota(idt, n)], 0, True, 1)
        label = ew.sub(cumsum(starts, 0), ew.full_like(starts, 1))
        outs.append(take(label, undo))
    if flags[2]:
        (ends,) = (
            nonzero(new, size=size + 1, fill_value=n) if n else (sh.full((size + 1,), 0, idt),)
        )
        outs.append(ew.sub(ix.slice(ends, (1,), (size + 1,)), ix.slice(ends, (0,), (size,))))
    return outs[0] if len(outs) == 1 else tuple(outs)
