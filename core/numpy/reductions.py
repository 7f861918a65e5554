"""Reductions: sum, prod, max, min, mean, var, std, any, all, argmax, argmin, cumsum...

All take numpy's `axis`, `keepdims`, `dtype`, `initial`, `where` where numpy has them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core import dtypes
from core.numpy._util import (broadcast_to, ensure_array, np_dtype, reduction_axes)
from core.prims import elementwise as ew
from core.prims import reductions as red
from core.prims import shapes as sh
from core.trace import get_aval


def _keepdims(out: Any, shape: tuple[int, ...], axes: tuple[int, ...]) -> Any:
    new = tuple(1 if i in axes else d for i, d in enumerate(shape))
    return sh.reshape(out, new)


def _sum_dtype(dt: np.dtype) -> np.dtype:
    if dt.kind == "b" or (dt.kind in "iu" and dt.itemsize < dtypes.default_int().itemsize):
        return dtypes.default_int() if dt.kind != "u" else dtypes.default_uint()
    return dt


def _reduce(prim_fn, identity, name: str, upcast: bool = False):
    def fn(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: bool = False,
           initial: Any = None, where: Any = None, promote_integers: bool = True) -> Any:
        if out is not None:
            raise NotImplementedError(f"The 'out' argument to jnp.{name} is not supported.")
        a = ensure_array(a)
        aval = get_aval(a)
        axes = reduction_axes(axis, aval.ndim)
        dt = np_dtype(dtype) or (_sum_dtype(aval.dtype) if upcast and promote_integers else aval.dtype)
        if dt != aval.dtype:
            a = sh.convert_element_type(a, dt, aval.weak_type and dtype is None)
        if where is not None:
            if identity is None:
                if initial is None:
                    raise ValueError(f"reduction operation {name} does not have an identity, so "
                                     "to use a where mask one has to specify 'initial'")
                fill = initial
            else:
                fill = identity(get_aval(a).dtype)
            from core.numpy.where import where as _where

            a = _where(broadcast_to(where, aval.shape), a, fill)
        if aval.size == 0 and identity is None and initial is None and any(aval.shape[i] == 0 for i in axes):
            raise ValueError(f"zero-size array to reduction operation {name} which has no identity")
        res = prim_fn(a, axes)
        if initial is not None:
            from core.numpy.ufuncs import add, maximum, minimum, multiply

            comb = {"sum": add, "prod": multiply, "max": maximum, "min": minimum}[name]
            res = sh.convert_element_type(comb(res, initial), get_aval(res).dtype, get_aval(res).weak_type)
        return _keepdims(res, aval.shape, axes) if keepdims else res

    fn.__name__ = name
    fn.__doc__ = f"`{name}` over `axis` (all axes by default), like `numpy.{name}`."
    return fn


def _max_identity(dt):
    return -np.inf if dt.kind == "f" else (np.iinfo(dt).min if dt.kind in "iu" else False)


def _min_identity(dt):
    return np.inf if dt.kind == "f" else (np.iinfo(dt).max if dt.kind in "iu" else True)


sum = _reduce(red.reduce_sum, lambda dt: 0, "sum", upcast=True)  # noqa: A001
prod = _reduce(red.reduce_prod, lambda dt: 1, "prod", upcast=True)
max = _reduce(red.reduce_max, None, "max")  # noqa: A001
min = _reduce(red.reduce_min, None, "min")  # noqa: A001
amax, amin = max, min


def _bool_reduce(prim_fn, name):
    def fn(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False, *,
           where: Any = None) -> Any:
        a = sh.convert_element_type(ensure_array(a), dtypes.bool_)
        aval = get_aval(a)
        axes = reduction_axes(axis, aval.ndim)
        if where is not None:
            from core.numpy.where import where as _where

            a = _where(broadcast_to(where, aval.shape), a, name == "all")
        res = prim_fn(a, axes)
        return _keepdims(res, aval.shape, axes) if keepdims else res

    fn.__name__ = name
    return fn


all = _bool_reduce(red.reduce_and, "all")  # noqa: A001
any = _bool_reduce(red.reduce_or, "any")  # noqa: A001


def mean(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: bool = False,
         *, where: Any = None) -> Any:
    """Arithmetic mean (integers are averaged in the default float dtype)."""
    a = ensure_array(a)
    aval = get_aval(a)
    axes = reduction_axes(axis, aval.ndim)
    dt = np_dtype(dtype) or (aval.dtype if aval.dtype.kind in "fc" else dtypes.default_float())
    a = sh.convert_element_type(a, dt, aval.weak_type and dtype is None)
    if where is None:
        count = int(np.prod([aval.shape[i] for i in axes], dtype=np.int64))
        total = sum(a, axis=axes, keepdims=keepdims)
        return ew.div(total, ew.full_like(total, count))
    mask = broadcast_to(where, aval.shape)
    total = sum(a, axis=axes, keepdims=keepdims, where=mask)
    count = sum(sh.convert_element_type(mask, dt), axis=axes, keepdims=keepdims)
    return ew.div(total, count)


def var(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: int = 0,
        keepdims: bool = False, *, where: Any = None, correction: Any = None) -> Any:
    """Variance, `mean(|x - mean(x)|^2)` with `ddof` degrees of freedom removed."""
    from core.numpy.ufuncs import subtract

    if correction is not None:
        ddof = correction
    a = ensure_array(a)
    aval = get_aval(a)
    axes = reduction_axes(axis, aval.ndim)
    dt = np_dtype(dtype) or (aval.dtype if aval.dtype.kind in "fc" else dtypes.default_float())
    a = sh.convert_element_type(a, dt, aval.weak_type and dtype is None)
    centered = subtract(a, mean(a, axis=axes, keepdims=True, where=where))
    sq = ew.mul(centered, centered)
    if where is None:
        n = int(np.prod([aval.shape[i] for i in axes], dtype=np.int64))
        total = sum(sq, axis=axes, keepdims=keepdims)
        return ew.div(total, ew.full_like(total, n - ddof))
    mask = broadcast_to(where, aval.shape)
    total = sum(sq, axis=axes, keepdims=keepdims, where=mask)
    n = sum(sh.convert_element_type(mask, dt), axis=axes, keepdims=keepdims)
    return ew.div(total, ew.sub(n, ew.full_like(n, ddof)))


def std(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: int = 0,
        keepdims: bool = False, *, where: Any = None, correction: Any = None) -> Any:
    """Standard deviation: `sqrt(var(...))`."""
    return ew.sqrt(var(a, axis, dtype, out, ddof, keepdims, where=where, correction=correction))


def _arg(prim_fn, name):
    def fn(a: Any, axis: Any = None, out: Any = None, keepdims: bool | None = None) -> Any:
        a = ensure_array(a)
        aval = get_aval(a)
        if axis is None:
            flat = sh.reshape(a, (aval.size,))
            res = prim_fn(flat, 0, dtypes.default_int())
            return sh.reshape(res, (1,) * aval.ndim) if keepdims else res
        ax = reduction_axes(axis, aval.ndim)[0]
        if aval.shape[ax] == 0:
            raise ValueError(f"attempt to get {name} of an empty sequence")
        res = prim_fn(a, ax, dtypes.default_int())
        return _keepdims(res, aval.shape, (ax,)) if keepdims else res

    fn.__name__ = name
    fn.__doc__ = f"Indices of the {name[3:]}imum values along `axis`."
    return fn


argmax = _arg(red.argmax, "argmax")
argmin = _arg(red.argmin, "argmin")
