"""The point gather and scatter the compiled back end runs (what `gather`/`scatter` become).

JAX's `gather` and `scatter*` primitives (`core/prims/gather.py`) take XLA's dimension numbers.
`jit` compiles them through their compositions onto these two, of one simple index form:
`indices` has shape `(*batch, k)` and its last axis holds one index into each of the `k`
operand dimensions named by `axes`; every other operand dimension is taken whole. So

    point_gather(x, idx, axes)[b..., r...] = x[idx[b..., 0] on axes[0], ..., r... on the others]
    point_scatter(x, idx, upd, axes)       writes upd[b..., r...] to the same places (combined
                                           by `kind`: set, add, mul, min or max)

Out-of-bounds indices are clamped (`mode="clip"` or `"promise_in_bounds"`), or give
`fill_value` (gather, `mode="fill"`) or are dropped (scatter, `mode="drop"`). They appear only
in the jaxprs `jit` rewrites (`CompilerPrimitive`s: no derivative rules, those are the general
primitives'); the point gather batches as the general gather of its point form
(`core/prims/gather.py`), since `core/jit/scan_motion.py` vmaps rewritten loop bodies. Their
`impl` is the numpy reference and the eager evaluation of the general ones.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core import dtypes
from core.avals import ShapedArray
from core.errors import DTypeError, ShapeError
from core.primitive import CompilerPrimitive


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
    """JAX's fill for out-of-bounds gathers: NaN, the minimum signed / maximum unsigned int
    (keys: their uint32 data's, so a missing key has data 0xFFFFFFFF in every word)."""
    dtype = dtypes.uint32 if type(dtype) is dtypes.KeyDType else np.dtype(dtype)
    if dtypes.kind(dtype) in "fc":
        return np.nan
    if dtype.kind == "i":
        return np.iinfo(dtype).min
    if dtype.kind == "u":
        return np.iinfo(dtype).max
    return True


point_gather_p = CompilerPrimitive("point_gather")


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


point_gather_p.def_impl(_gather_impl)
point_gather_p.def_abstract_eval(_gather_abstract_eval)


point_scatter_p = CompilerPrimitive("point_scatter")
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


point_scatter_p.def_impl(_scatter_impl)
point_scatter_p.def_abstract_eval(_scatter_abstract_eval)
