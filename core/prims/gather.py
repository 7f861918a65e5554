"""Dynamic indexing primitives: gather, scatter, dynamic_slice, dynamic_update_slice.

`gather` and `scatter` use one simple index form, enough for numpy's integer-array indexing,
`take`, `take_along_axis` and `.at[...]`: `indices` has shape `(*batch, k)` and its last axis
holds one index into each of the `k` operand dimensions named by `axes`; every other operand
dimension is taken whole. So

    gather(x, idx, axes)[b..., r...]  = x[idx[b..., 0] on axes[0], ..., r... on the other dims]
    scatter(x, idx, upd, axes)        writes upd[b..., r...] to the same places (combined by
                                      `kind`: set, add, mul, min or max)

Out-of-bounds indices are clamped (`mode="clip"`), or give `fill_value` (`gather`,
`mode="fill"`) or are dropped (`scatter`, `mode="drop"`). A gather with
`mode="promise_in_bounds"` (JAX's default for `x[idx]`) clamps like "clip", but its transpose
drops out-of-bounds cotangents as XLA's does, so gradients equal JAX's there too. Negative
indices are NOT wrapped here: `core.numpy` wraps them before binding. Batching adds the batch
axis as one more indexed axis (an iota index column), so every rule stays one primitive. The
gather transpose is a scatter-add.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core import dtypes
from core.ad_util import Zero, instantiate
from core.array import Array
from core.avals import ShapedArray
from core.errors import DTypeError, ShapeError
from core.interpreters import batching
from core.interpreters.transpose import is_undefined
from core.primitive import Primitive
from core.prims import elementwise as ew
from core.prims import shapes as sh
from core.prims.indexing import concatenate
from core.prims.indexing import slice as static_slice
from core.trace import get_aval

# ---------------------------------------------------------------------------------------------
# Shared helpers


def _rest(ndim: int, axes: tuple[int, ...]) -> list[int]:
    return [i for i in range(ndim) if i not in axes]


def _check_index_form(name: str, x: ShapedArray, idx: ShapedArray, axes: tuple[int, ...]) -> None:
    if idx.dtype.kind not in "iu":
        raise DTypeError(f"{name} indices must be integers, got {idx.dtype}")
    if idx.ndim == 0 or idx.shape[-1] != len(axes):
        raise ShapeError(
            f"{name} indices of shape {idx.shape} must end in one column per indexed axis "
            f"(axes={axes})"
        )
    if len(set(axes)) != len(axes) or any(not 0 <= a < x.ndim for a in axes):
        raise ShapeError(f"{name}: invalid axes {axes} for an operand of shape {x.shape}")


def _split_index(x: np.ndarray, idx: np.ndarray, axes: tuple[int, ...]):
    """The operand view with indexed axes first, the clipped index columns, and a validity mask."""
    xt = np.transpose(x, [*axes, *_rest(x.ndim, axes)])
    cols, valid = [], np.ones(idx.shape[:-1], dtype=bool)
    for j, a in enumerate(axes):
        col = idx[..., j].astype(np.int64)
        valid &= (col >= 0) & (col < x.shape[a])
        cols.append(np.clip(col, 0, max(x.shape[a] - 1, 0)))
    return xt, tuple(cols), valid


def default_fill_value(dtype: np.dtype) -> Any:
    """JAX's fill for out-of-bounds gathers: NaN, the minimum signed / maximum unsigned int."""
    dtype = np.dtype(dtype)
    if dtypes.kind(dtype) in "fc":
        return np.nan
    if dtype.kind == "i":
        return np.iinfo(dtype).min
    if dtype.kind == "u":
        return np.iinfo(dtype).max
    return True


def _with_batch_column(idx: Any, size: int) -> Any:
    """Prepends an iota column (the batch position) to indices batched along axis 0."""
    aval = get_aval(idx)
    col = sh.iota(aval.dtype, (*aval.shape[:-1], 1), 0)

    return concatenate([col, idx], aval.ndim - 1)


# ---------------------------------------------------------------------------------------------
# gather

gather_p = Primitive("gather")


def _gather_impl(x, idx, *, axes, mode, fill_value):
    xt, cols, valid = _split_index(x, idx, axes)
    if any(x.shape[a] == 0 for a in axes):
        shape = (*idx.shape[:-1], *xt.shape[len(axes) :])
        return np.full(shape, fill_value if mode == "fill" else 0, dtype=x.dtype)
    out = xt[cols]
    if mode == "fill":
        mask = valid.reshape(valid.shape + (1,) * (out.ndim - valid.ndim))
        out = np.where(mask, out, np.asarray(fill_value).astype(x.dtype))
    return out


def _gather_abstract_eval(x, idx, *, axes, mode, fill_value):
    _check_index_form("gather", x, idx, axes)
    shape = (*idx.shape[:-1], *(x.shape[i] for i in _rest(x.ndim, axes)))
    return ShapedArray(shape, x.dtype, x.weak_type)


def _gather_jvp(primals, tangents, **params):
    (x, idx), (tx, _) = primals, tangents
    out = gather_p.bind(x, idx, **params)
    if type(tx) is Zero:
        return out, Zero(get_aval(out))
    return out, gather_p.bind(tx, idx, **params)


def _gather_transpose(ct, x, idx, *, axes, mode, fill_value):
    aval = x.aval
    zeros = sh.full(aval.shape, 0, aval.dtype, aval.weak_type)
    smode = "clip" if mode == "clip" else "drop"
    return [scatter_p.bind(zeros, idx, instantiate(ct), axes=axes, mode=smode, kind="add"), None]


def _gather_batch(args, dims, *, axes, mode, fill_value):
    (x, idx), (dx, di) = args, dims
    if di is None:  # only the operand is batched: its batch axis is one more whole dimension
        x = batching.moveaxis(x, dx, 0, get_aval(x).shape[dx])
        nb = get_aval(idx).ndim - 1
        out = gather_p.bind(
            x, idx, axes=tuple(a + 1 for a in axes), mode=mode, fill_value=fill_value
        )
        return out, nb
    size = get_aval(idx).shape[di]
    idx = batching.moveaxis(idx, di, 0, size)
    if dx is None:
        return gather_p.bind(x, idx, axes=axes, mode=mode, fill_value=fill_value), 0
    x = batching.moveaxis(x, dx, 0, size)
    idx = _with_batch_column(idx, size)
    out = gather_p.bind(x, idx, axes=(0, *(a + 1 for a in axes)), mode=mode, fill_value=fill_value)
    return out, 0


gather_p.def_impl(_gather_impl)
gather_p.def_abstract_eval(_gather_abstract_eval)
gather_p.def_jvp(_gather_jvp)
gather_p.def_transpose(_gather_transpose)
gather_p.linear = True
gather_p.def_batch(_gather_batch)


def gather(
    x: Any, indices: Any, axes: tuple[int, ...], mode: str = "clip", fill_value: Any = None
) -> Any:
    """Gathers `x` at `indices[..., j]` along `axes[j]` (see the module docstring).

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
    if mode == "fill":
        dt = get_aval(x).dtype
        fv = default_fill_value(dt) if fill_value is None else fill_value
        fill_value = np.asarray(fv).astype(dt).item()
    else:
        fill_value = None
    return gather_p.bind(
        x, indices, axes=tuple(int(a) for a in axes), mode=mode, fill_value=fill_value
    )


# ---------------------------------------------------------------------------------------------
# scatter (kind: set, add, mul, min, max)

scatter_p = Primitive("scatter")
_UFUNC = {"add": np.add, "mul": np.multiply, "min": np.minimum, "max": np.maximum}


def _scatter_impl(x, idx, upd, *, axes, mode, kind):
    out = np.array(x, copy=True)
    if any(x.shape[a] == 0 for a in axes):
        return out
    view, cols, valid = _split_index(out, idx, axes)
    if mode == "drop" and not valid.all():
        cols = tuple(c[valid] for c in cols)
        upd = upd[valid]
    if kind == "set":
        view[cols] = upd
    else:
        _UFUNC[kind].at(view, cols, upd)
    return out


def _scatter_abstract_eval(x, idx, upd, *, axes, mode, kind):
    _check_index_form("scatter", x, idx, axes)
    want = (*idx.shape[:-1], *(x.shape[i] for i in _rest(x.ndim, axes)))
    if upd.shape != want:
        raise ShapeError(
            f"scatter updates of shape {upd.shape} do not match the indexed shape {want} "
            f"(operand {x.shape}, indices {idx.shape}, axes={axes})"
        )
    if upd.dtype != x.dtype:
        raise DTypeError(f"scatter needs updates of the operand's dtype {x.dtype}, got {upd.dtype}")
    return ShapedArray(x.shape, x.dtype, x.weak_type)


def _scatter_jvp(primals, tangents, *, axes, mode, kind):
    (x, idx, upd), (tx, _, tu) = primals, tangents
    kw = dict(axes=axes, mode=mode)
    out = scatter_p.bind(x, idx, upd, kind=kind, **kw)
    if type(tx) is Zero and type(tu) is Zero:
        return out, Zero(get_aval(out))
    gmode = "fill" if mode == "drop" else "clip"
    if kind == "set" and type(tu) is not Zero:
        return out, _scatter_set_tangent(x, idx, instantiate(tx), tu, axes, mode, gmode)
    tx, tu = instantiate(tx), instantiate(tu)
    if kind in ("add", "set"):  # linear in (operand, updates) jointly
        return out, scatter_p.bind(tx, idx, tu, kind=kind, **kw)
    if kind == "mul":
        return out, _scatter_mul_tangent(x, idx, upd, tx, tu, kw, gmode)
    # min / max: the tangent follows whichever value won (ties credit every winner).
    from_x = ew.eq(out, x)
    won = ew.eq(upd, gather(out, idx, axes, gmode, 0))
    t_upd = scatter_p.bind(
        ew.full_like(x, 0), idx, ew.select_n(won, ew.full_like(tu, 0), tu), kind="add", **kw
    )
    t_x = ew.select_n(from_x, ew.full_like(tx, 0), tx)
    hits = scatter_p.bind(
        ew.full_like(x, 0),
        idx,
        ew.select_n(won, ew.full_like(tu, 0), ew.full_like(tu, 1)),
        kind="add",
        **kw,
    )
    count = ew.add(hits, ew.select_n(from_x, ew.full_like(x, 0), ew.full_like(x, 1)))
    count = ew.max(count, ew.full_like(count, 1))
    return out, ew.div(ew.add(t_x, t_upd), count)


def _scatter_mul_tangent(x, idx, upd, tx, tu, kw, gmode):
    """d(x * prod u) = dx * prod u + x * sum_j du_j * prod_{k != j} u_k, where the product of
    the other updates is found without dividing by a zero `u_j` (exact with repeated indices
    and zero updates; JAX only differentiates unique indices)."""
    axes = kw["axes"]
    zero_u = ew.eq(upd, ew.full_like(upd, 0))
    one_u, zero_like_u = ew.full_like(upd, 1), ew.full_like(upd, 0)
    nonzero_prod = scatter_p.bind(
        ew.full_like(x, 1), idx, ew.select(zero_u, one_u, upd), kind="mul", **kw
    )
    zero_count = scatter_p.bind(
        ew.full_like(x, 0), idx, ew.select(zero_u, one_u, zero_like_u), kind="add", **kw
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
    t = scatter_p.bind(tx, idx, upd, kind="mul", **kw)
    return ew.add(t, scatter_p.bind(ew.full_like(x, 0), idx, d_upd, kind="add", **kw))


def _scatter_set_tangent(x, idx, tx, tu, axes, mode, gmode):
    """JAX's tangent of a scatter-set whose indices may repeat: only the update that landed
    carries its tangent (found by scattering update ids and gathering them back), and the
    operand's tangent survives where nothing was written; then one scatter-add."""
    batch = get_aval(idx).shape[:-1]
    ushape = get_aval(tu).shape
    n = int(np.prod(batch, dtype=np.int64))
    ids = sh.reshape(ew.add(sh.iota(dtypes.int32, (n,), 0), sh.full((n,), 1, dtypes.int32)), batch)
    ids = sh.broadcast_in_dim(ids, ushape, tuple(range(len(batch))))
    kw = dict(axes=axes, mode=mode)
    nothing = sh.full(get_aval(x).shape, 0, dtypes.int32)
    landed_ids = scatter_p.bind(nothing, idx, ids, kind="set", **kw)
    landed = ew.eq(ids, gather(landed_ids, idx, axes, gmode, 0))
    untouched = ew.eq(landed_ids, ew.full_like(landed_ids, 0))
    t_x = ew.select(untouched, tx, ew.full_like(tx, 0))
    return scatter_p.bind(t_x, idx, ew.select(landed, tu, ew.full_like(tu, 0)), kind="add", **kw)


def _scatter_transpose(ct, x, idx, upd, *, axes, mode, kind):
    if kind == "mul" and is_undefined(x) and not is_undefined(upd):
        # Linear in the operand for known updates (the jvp's `dx * prod u`): self-adjoint.
        return [
            scatter_p.bind(instantiate(ct), idx, upd, axes=axes, mode=mode, kind="mul"),
            None,
            None,
        ]
    if kind not in ("add", "set"):
        raise NotImplementedError(f"scatter-{kind} is not linear; it has no transpose rule")
    ct = instantiate(ct)
    gmode = "fill" if mode == "drop" else "clip"
    ct_x = ct_u = None
    if is_undefined(x):
        if kind == "add":
            ct_x = ct
        else:
            zeros = sh.full(
                get_aval(upd).shape if not is_undefined(upd) else upd.aval.shape,
                0,
                get_aval(ct).dtype,
            )
            ct_x = scatter_p.bind(ct, idx, zeros, axes=axes, mode=mode, kind="set")
    if is_undefined(upd):
        ct_u = gather(ct, idx, axes, gmode, 0)
    return [ct_x, None, ct_u]


def _scatter_batch(args, dims, *, axes, mode, kind):
    (x, idx, upd), (dx, di, du) = args, dims
    size = next(get_aval(a).shape[d] for a, d in zip(args, dims) if d is not None)
    x = batching.moveaxis(x, dx, 0, size)
    if di is None:  # shared indices: the batch axis is one more whole dimension
        nb = get_aval(idx).ndim - 1
        upd = batching.moveaxis(upd, du, nb, size)
        out = scatter_p.bind(x, idx, upd, axes=tuple(a + 1 for a in axes), mode=mode, kind=kind)
        return out, 0
    idx = _with_batch_column(batching.moveaxis(idx, di, 0, size), size)
    upd = batching.moveaxis(upd, du, 0, size)
    out = scatter_p.bind(x, idx, upd, axes=(0, *(a + 1 for a in axes)), mode=mode, kind=kind)
    return out, 0


scatter_p.def_impl(_scatter_impl)
scatter_p.def_abstract_eval(_scatter_abstract_eval)
scatter_p.def_jvp(_scatter_jvp)
scatter_p.def_transpose(_scatter_transpose)
scatter_p.linear = True
scatter_p.def_batch(_scatter_batch)


def scatter(
    x: Any, indices: Any, updates: Any, axes: tuple[int, ...], kind: str = "set", mode: str = "drop"
) -> Any:
    """Writes `updates` into `x` at `indices` (see the module docstring).

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
    if kind not in ("set", "add", "mul", "min", "max"):
        raise ValueError(f"scatter kind must be set/add/mul/min/max, got {kind!r}")
    if mode not in ("clip", "drop"):
        raise ValueError(f"scatter mode must be 'clip' or 'drop', got {mode!r}")
    return scatter_p.bind(
        x, indices, updates, axes=tuple(int(a) for a in axes), mode=mode, kind=kind
    )


# ---------------------------------------------------------------------------------------------
# dynamic_slice / dynamic_update_slice (start indices are clamped so the slice fits)

dynamic_slice_p = Primitive("dynamic_slice")


def _clamped_starts(shape, sizes, starts) -> list[int]:
    return [int(np.clip(int(s), 0, d - n)) for s, d, n in zip(starts, shape, sizes)]


def _ds_impl(x, *starts, slice_sizes):
    st = _clamped_starts(x.shape, slice_sizes, starts)
    return x[tuple(slice(s, s + n) for s, n in zip(st, slice_sizes))]


def _ds_abstract_eval(x, *starts, slice_sizes):
    if (
        len(starts) != x.ndim
        or len(slice_sizes) != x.ndim
        or any(not 0 <= n <= d for n, d in zip(slice_sizes, x.shape))
    ):
        raise ShapeError(
            f"dynamic_slice needs one start index and a slice size <= the dimension for each "
            f"axis of {x.shape}; got {len(starts)} starts and slice_sizes={slice_sizes}"
        )
    if any(s.shape != () or s.dtype.kind not in "iu" for s in starts):
        raise DTypeError("dynamic_slice start indices must be integer scalars")
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


def _grid_indices(starts: list[Any], shape: tuple[int, ...], sizes: tuple[int, ...]) -> Any:
    """Indices (batched on axis 0) of every element of slices starting at `starts` (clamped)."""
    cols = []
    size = get_aval(starts[0]).shape[0]
    for d, (s, dim, n) in enumerate(zip(starts, shape, sizes)):
        s = sh.convert_element_type(s, dtypes.int32)
        s = ew.max(ew.min(s, ew.full_like(s, dim - n)), ew.full_like(s, 0))
        grid = sh.iota(dtypes.int32, (size, *sizes, 1), d + 1)
        cols.append(ew.add(grid, sh.broadcast_in_dim(s, (size, *sizes, 1), (0,))))

    return concatenate(cols, len(sizes) + 1)


def _ds_batch(args, dims, *, slice_sizes):
    x, *starts = args
    dx, *dstarts = dims
    size = next(get_aval(a).shape[d] for a, d in zip(args, dims) if d is not None)
    x = batching.moveaxis(x, dx, 0, size)
    if all(d is None for d in dstarts):
        zero = sh.full((), 0, get_aval(starts[0]).dtype)
        return dynamic_slice_p.bind(x, zero, *starts, slice_sizes=(size, *slice_sizes)), 0
    starts = [batching.moveaxis(s, d, 0, size) for s, d in zip(starts, dstarts)]
    idx = _grid_indices(starts, get_aval(x).shape[1:], slice_sizes)
    idx = _with_batch_column(idx, size)
    return gather(x, idx, tuple(range(len(slice_sizes) + 1)), "clip"), 0


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
    if (
        len(starts) != x.ndim
        or upd.ndim != x.ndim
        or any(not n <= d for n, d in zip(upd.shape, x.shape))
    ):
        raise ShapeError(
            f"dynamic_update_slice needs an update no larger than the operand and one start "
            f"index per axis; got operand {x.shape}, update {upd.shape}, {len(starts)} starts"
        )
    if upd.dtype != x.dtype:
        raise DTypeError(
            f"dynamic_update_slice needs an update of dtype {x.dtype}, got {upd.dtype}"
        )
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
    x, upd, *starts = args
    dx, du, *dstarts = dims
    size = next(get_aval(a).shape[d] for a, d in zip(args, dims) if d is not None)
    x = batching.moveaxis(x, dx, 0, size)
    upd = batching.moveaxis(upd, du, 0, size)
    if all(d is None for d in dstarts):
        zero = sh.full((), 0, get_aval(starts[0]).dtype)
        return dynamic_update_slice_p.bind(x, upd, zero, *starts), 0
    starts = [batching.moveaxis(s, d, 0, size) for s, d in zip(starts, dstarts)]
    sizes = get_aval(upd).shape[1:]
    idx = _with_batch_column(_grid_indices(starts, get_aval(x).shape[1:], sizes), size)
    return scatter(x, idx, upd, tuple(range(len(sizes) + 1)), "set", "clip"), 0


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
