"""`dynamic_slice` and `dynamic_update_slice`: a slice of static size at traced starts.

Start indices are clamped so the slice fits (as XLA does); the wrappers (`lax.dynamic_slice`,
`dynamic_update_slice` and their `_in_dim` forms) first count negative starts from the end,
as JAX's do. Both primitives are linear: the slice transposes to an update of zeros, the
update to a slice. Their batching rules (a gather, a scatter) are in
`core/prims/gather_batching.py`, registered by `core/prims/gather.py`, whose gathers and
scatters of one window bind these primitives.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core import dtypes
from core.ad_util import Zero, instantiate
from core.array import Array
from core.avals import ShapedArray
from core.errors import DTypeError, ShapeError
from core.interpreters.transpose import is_undefined
from core.primitive import Primitive
from core.prims import elementwise as ew
from core.prims import shapes as sh
from core.prims.indexing import slice as static_slice
from core.trace import get_aval

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
        space = "  " if name == "dynamic_slice" else " "  # JAX's two texts differ so
        avals = tuple(ShapedArray(s.shape, s.dtype) for s in starts)
        raise ShapeError(
            f"start_indices arguments to {name} must be scalars,{space}got indices {avals!r}\n"
            "Pass one scalar index per dimension (`x[i]`, not `x[i:i+1]`)."
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


dynamic_slice_p.def_impl(_ds_impl)
dynamic_slice_p.def_abstract_eval(_ds_abstract_eval)
dynamic_slice_p.def_jvp(_ds_jvp)
dynamic_slice_p.def_transpose(_ds_transpose)
dynamic_slice_p.linear = True


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


dynamic_update_slice_p.def_impl(_dus_impl)
dynamic_update_slice_p.def_abstract_eval(_dus_abstract_eval)
dynamic_update_slice_p.def_jvp(_dus_jvp)
dynamic_update_slice_p.def_transpose(_dus_transpose)
dynamic_update_slice_p.linear = True


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
        if isinstance(s, (int, np.integer)) and not isinstance(s, bool):
            if s < 0 and not negatives:
                raise ValueError(
                    f"Index {s} is out of bounds for dimension {d} if allow_negative_indices=False"
                )
            # a Python int is a default-int start, a numpy scalar keeps its (canonical) dtype
            dt = dtypes.default_int() if isinstance(s, int) else dtypes.canonicalize_dtype(s.dtype)
            s = Array(np.asarray(s + d if s < 0 else s, dtype=dt))
        elif negatives and get_aval(s).dtype.kind == "i":
            negative = ew.lt(s, ew.full_like(s, 0))
            aval = get_aval(s)  # JAX's `i + d` makes a weakly typed index strong
            strong = sh.convert_element_type(s, aval.dtype, False) if aval.weak_type else s
            s = ew.select(negative, ew.add(strong, ew.full_like(strong, d)), s)
        out.append(s)
    return out + starts[len(shape) :]


def _check_index_dtypes(name: str, starts: list[Any]) -> None:
    """JAX's dtype rule of `dynamic_slice` and `dynamic_update_slice`: one integer dtype for
    every start (a Python int counts as the default int, so it does not adapt to an int8
    start)."""
    dts = [get_aval(s).dtype for s in starts]
    names = [dt.name for dt in dts]
    if len(set(names)) > 1 or any(dt.kind not in "iu" for dt in dts):
        colon = ":" if name == "dynamic_slice" else ""  # JAX's two texts differ by it
        raise TypeError(
            f"index arguments to {name} must be integers of the same type, got{colon} "
            + ", ".join(names)
        )


def slice_index(x: Any, i: int) -> Any:
    return static_slice(x, (i,), (i + 1,))


def dynamic_slice(
    operand: Any, start_indices: Any, slice_sizes: Any, *, allow_negative_indices: Any = True
) -> Any:
    """`lax.dynamic_slice`: a slice of static size at traced start indices (clamped to fit);
    negative starts count from the end where `allow_negative_indices` (a bool or one per
    axis) allows (a static negative start elsewhere is a ValueError)."""
    starts = _scalar_starts(start_indices, get_aval(operand).shape, allow_negative_indices)
    _check_index_dtypes("dynamic_slice", starts)
    return dynamic_slice_p.bind(operand, *starts, slice_sizes=tuple(int(n) for n in slice_sizes))


def dynamic_update_slice(
    operand: Any, update: Any, start_indices: Any, *, allow_negative_indices: Any = True
) -> Any:
    """`lax.dynamic_update_slice`: writes `update` at traced start indices (clamped to fit;
    negative ones as `dynamic_slice`'s)."""
    starts = _scalar_starts(start_indices, get_aval(operand).shape, allow_negative_indices)
    _check_index_dtypes("dynamic_update_slice", starts)
    return dynamic_update_slice_p.bind(operand, update, *starts)


def _other_starts(start_index: Any, n: int) -> list[Any]:
    """The zero starts of the other axes of an `*_in_dim` slice, in `start_index`'s dtype (as
    JAX's `_const(start_index, 0)`: an int32 index under x64 still gives one index dtype)."""
    if isinstance(start_index, int):
        return [0] * n
    dt = dtypes.canonicalize_dtype(get_aval(start_index).dtype)
    return [np.zeros((), dt)[()] for _ in range(n)]


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
    starts = _other_starts(start_index, len(shape))
    sizes = list(shape)
    starts[axis], sizes[axis] = start_index, slice_size
    return dynamic_slice(operand, starts, sizes, allow_negative_indices=allow_negative_indices)


def dynamic_update_slice_in_dim(
    operand: Any, update: Any, start_index: Any, axis: int, *, allow_negative_indices: bool = True
) -> Any:
    """`lax.dynamic_update_slice_in_dim`: `dynamic_update_slice` along one axis."""
    starts = _other_starts(start_index, get_aval(operand).ndim)
    starts[axis] = start_index
    return dynamic_update_slice(
        operand, update, starts, allow_negative_indices=allow_negative_indices
    )
