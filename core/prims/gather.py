"""JAX's gather and scatter primitives (gather, scatter, scatter-add/mul/min/max) and their rules.

`gather` and `scatter`/`scatter-add`/`scatter-mul`/`scatter-min`/`scatter-max` take JAX's
parameters (`dimension_numbers`, `slice_sizes`, `mode`, `fill_value`, `indices_are_sorted`,
`unique_indices`, the scatters' `update_jaxpr`), so jaxprs print JAX's text, and JAX's rules:
gather is linear and transposes to a scatter-add, scatter-add is linear and transposes to a
gather (so both live here). The jvps of scatter-set/mul/min/max are numbax's (exact with
repeated indices), computed on the point form.

Every row of `start_indices` (index vector last) names the start of a window of `slice_sizes`
in the operand. A primitive's composition (`Primitive.def_composition`, what `jit` compiles
and eager calls evaluate) runs the point gather/scatter of `core/prims/gather_points.py` on the
point indices that `core/prims/gather_dims.py` builds from XLA's dimension numbers (with the
checks and `GatherScatterMode`); one window of a vmapped dynamic slice binds
`core/prims/dynamic_slice.py`'s primitive. The batching rules (`core/prims/gather_batching.py`,
JAX's) are registered here, for dynamic_slice and dynamic_update_slice too, which batch as a
gather and a scatter.

Out-of-bounds windows follow `GatherScatterMode`: CLIP clamps every start so its window fits;
FILL_OR_DROP fills (gather) or drops (scatter) a whole window when any of it is out of bounds,
by moving its start past the end so that every point of it is out of bounds; PROMISE_IN_BOUNDS
clamps gathers and drops scatters, as XLA does on CPU. Negative indices are NOT wrapped here:
`core.numpy` wraps them before binding, as JAX's does.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from core import dtypes
from core.ad_util import Zero, instantiate
from core.avals import ShapedArray
from core.errors import DTypeError, KeyArithmeticError
from core.interpreters.transpose import is_undefined
from core.ir import Eqn, Jaxpr, Var
from core.primitive import Primitive
from core.prims import elementwise as ew
from core.prims import gather_batching
from core.prims import shapes as sh
from core.prims.dynamic_slice import (  # noqa: F401  (re-exported: `core.prims.gather`'s names)
    dynamic_slice,
    dynamic_slice_in_dim,
    dynamic_slice_p,
    dynamic_update_slice,
    dynamic_update_slice_in_dim,
    dynamic_update_slice_p,
)
from core.prims.gather_dims import (
    _CLIP,
    _FILL,
    _PROMISE,
    GatherDimensionNumbers,
    GatherScatterMode,
    GatherScatterUnsupportedError,
    ScatterDimensionNumbers,
    _dims,
    _kept,
    _permutation,
    _plan,
    _point_form,
    _starts,
    _to_layout,
    _tuple,
    check_gather,
    scatter_window,
)
from core.prims.gather_points import default_fill_value, point_gather_p, point_scatter_p
from core.trace import get_aval


def _with_prim(rule, prim):
    return functools.wraps(rule)(lambda *a, **params: rule(*a, prim=prim, **params))


# ---------------------------------------------------------------------------------------------
# gather

gather_p = Primitive("gather")


def _gather_abstract_eval(
    x, idx, *, dimension_numbers, slice_sizes, indices_are_sorted, unique_indices, mode, fill_value
):
    if idx.dtype.kind not in "iu":
        raise DTypeError(f"gather indices must be integers, got {idx.dtype}")
    offset, dropped, start_map, op_batch, idx_batch = _dims(dimension_numbers)
    window = _tuple("slice_sizes", slice_sizes)
    check_gather(x.shape, idx.shape, dimension_numbers, window)
    kept = _kept(x.ndim, dropped, op_batch)
    out_rank = idx.ndim - 1 + len(kept)
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
    zeros = sh.full(aval.shape, 0, get_aval(ct).dtype, False)  # as JAX: a strong cotangent
    sdn = ScatterDimensionNumbers(
        update_window_dims=dn.offset_dims,
        inserted_window_dims=dn.collapsed_slice_dims,
        scatter_dims_to_operand_dims=dn.start_index_map,
        operand_batching_dims=dn.operand_batching_dims,
        scatter_indices_batching_dims=dn.start_indices_batching_dims,
    )
    del params["fill_value"]
    return [_bind_scatter("add", zeros, idx, ct, sdn, **params), None]


gather_p.def_composed(_gather_points)
gather_p.def_abstract_eval(_gather_abstract_eval)
gather_p.def_jvp(_gather_jvp)
gather_p.def_transpose(_gather_transpose)
gather_p.linear = True
gather_p.def_batch(_with_prim(gather_batching.gather_batch, gather_p))


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


def _point_gather_batch(args, dims, *, axes, mode, fill_value):
    """A batched point gather is the batched general `gather` of its point form: the
    compiler's rewrites (`core/jit/scan_motion.py`) batch jaxprs it has already lowered."""
    x, idx = args
    dx, di = dims
    shape = tuple(n for d, n in enumerate(get_aval(x).shape) if d != dx)
    nb = get_aval(idx).ndim - 1 - (di is not None)
    dn = GatherDimensionNumbers(
        tuple(range(nb, nb + len(shape) - len(axes))), tuple(sorted(axes)), tuple(axes)
    )
    sizes = tuple(1 if d in axes else n for d, n in enumerate(shape))
    params = dict(indices_are_sorted=False, unique_indices=False, mode=_POINT_MODES[mode])
    params["fill_value"] = fill_value if mode == "fill" else None
    return gather_batching.gather_batch(
        args, dims, prim=gather_p, dimension_numbers=dn, slice_sizes=sizes, **params
    )


point_gather_p.def_batch(_point_gather_batch)


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
        raise DTypeError(  # JAX's first line
            f"lax.scatter requires arguments to have the same dtypes, got {x.dtype}, "
            f"{upd.dtype}.\nscatter needs updates of the operand's dtype: cast them with "
            f"updates.astype({x.dtype})."
        )
    scatter_window("scatter", x.shape, idx.shape, upd.shape, dimension_numbers)
    return ShapedArray(x.shape, x.dtype, x.weak_type)


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


def check_scatter_kind(kind: str, dtype: Any) -> None:
    """JAX's error for a combining scatter (add, mul, min, max) of keys: it asks numpy for the
    identity element of their dtype. Keys are only set."""
    if kind != "set" and type(dtype) is dtypes.KeyDType:
        raise KeyArithmeticError(f"Cannot interpret '{dtype}' as a data type")


def _bind_scatter(kind: str, x, idx, upd, dimension_numbers, **params) -> Any:
    params.setdefault("indices_are_sorted", False)
    params.setdefault("unique_indices", False)
    params.setdefault("mode", _FILL)
    dt = get_aval(x).dtype
    check_scatter_kind(kind, dt)
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


for _kind, _prim in scatter_prims.items():
    _prim.def_composed(_scatter_composition(_kind))
    _prim.def_abstract_eval(_scatter_abstract_eval)
    _prim.def_jvp(_scatter_add_jvp if _kind == "add" else _with_prim(_scatter_jvp, _prim))
    _prim.def_transpose(_with_prim(_scatter_transpose, _prim))
    _prim.linear = True
    _prim.def_batch(_with_prim(gather_batching.scatter_batch, _prim))


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


# dynamic_slice and dynamic_update_slice batch as a gather and a scatter of one window
dynamic_slice_p.def_batch(_with_prim(gather_batching.dynamic_slice_batch, gather_p))
dynamic_update_slice_p.def_batch(_with_prim(gather_batching.dynamic_update_slice_batch, scatter_p))
