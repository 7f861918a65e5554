"""Reductions: sum, prod, max, min, mean, var, std, any, all, argmax, argmin, cumsum...

All take numpy's `axis`, `keepdims`, `dtype`, `initial`, `where` where numpy has them.
"""

from __future__ import annotations

import builtins
import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from core import dtypes
from core.errors import AxisError
from core.jit.library import library_jit
from core.named_sharding import placed_by
from core.numpy._util import (
    astype,
    broadcast_to,
    check_arraylike,
    check_no_keys,
    check_not_string,
    ensure_array,
    np_dtype,
    promote_dtypes_inexact,
    reduction_axes,
    static_axes,
    to_inexact,
)
from core.numpy.lookup import take_along_axis, take_filling
from core.numpy.shapes import concatenate
from core.numpy.ufuncs import (
    add,
    clip,
    conjugate,
    divide,
    equal,
    isnan,
    less,
    logical_and,
    logical_not,
    logical_or,
    maximum,
    minimum,
    multiply,
    real,
    subtract,
)
from core.numpy.where import where as _where
from core.prims import elementwise as ew
from core.prims import reductions as red
from core.prims import shapes as sh
from core.prims import sorting
from core.prims.sorting import sort
from core.trace import get_aval


def _takes_args_of(base: Callable[..., Any]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Marks a function that passes its arguments on to `base`: `inspect.signature` and `help`
    show `base`'s signature for it."""

    def mark(fn: Callable[..., Any]) -> Callable[..., Any]:
        fn.__wrapped__ = base
        return fn

    return mark


def _keepdims(out: Any, shape: tuple[int, ...], axes: tuple[int, ...]) -> Any:
    return sh.expand_dims(out, tuple(sorted(axes)))


def _sum_dtype(dt: np.dtype) -> np.dtype:
    if dt.kind == "b" or (dt.kind in "iu" and dt.itemsize < dtypes.default_int().itemsize):
        return dtypes.default_int() if dt.kind != "u" else dtypes.default_uint()
    return dt


def _extreme(dt: np.dtype, lowest: bool) -> Any:
    """The identity of max (`lowest`) or min in `dt`: -inf/inf, an integer type's bounds, or
    False/True."""
    if dt == dtypes.bool_:
        return not lowest
    if dtypes.kind(dt) in "iu":
        info = np.iinfo(dt)
        return info.min if lowest else info.max
    return -np.inf if lowest else np.inf


def check_where(name: str, where: Any) -> None:
    """JAX's check of a reduction's `where`: None or a boolean array.

    Args:
      name: the jnp function's name, for the message.
      where: the mask given.

    Raises:
      ValueError: `where` is not boolean (JAX refuses to cast an integer mask).
    """
    if where is None:
        return
    check_arraylike(name, where)
    dt = get_aval(ensure_array(where)).dtype
    if dt != dtypes.bool_:
        raise ValueError(
            f"jnp.{name}: where must be None or a boolean array; got where.dtype=dtype('{dt}'). "
            "Fix: pass a boolean mask (e.g. `where=mask.astype(bool)`)."
        )


def _where_mask(where: Any, shape: tuple[int, ...]) -> Any:
    """A reduction's `where` broadcast to the operand's `shape`; one that does not broadcast is
    JAX's error (its `where(mask, a, identity)` names the three shapes)."""
    wshape = get_aval(ensure_array(where)).shape
    try:
        np.broadcast_shapes(wshape, shape)
    except ValueError:
        raise ValueError(
            f"Incompatible shapes for broadcasting: shapes=[{wshape}, {shape}, ()]"
        ) from None
    return broadcast_to(where, shape)


def _reduce(prim_fn, identity, name: str, upcast: bool = False, masked: Any = None):
    """A jnp reduction; `identity(dtype)` fills the masked elements and allows empty `where`
    reductions without `initial`; a reduction without one (max, min) fills with `masked(dtype)`
    (its operation's identity, as JAX: `initial` only joins the result afterwards)."""

    def fn(
        a: Any,
        axis: Any = None,
        dtype: Any = None,
        out: Any = None,
        keepdims: bool = False,
        initial: Any = None,
        where: Any = None,
        promote_integers: bool = True,
    ) -> Any:
        if out is not None:
            raise NotImplementedError(f"The 'out' argument to jnp.{name} is not supported.")
        check_not_string(f"_reduce_{name}", (a,), ("a",))
        check_arraylike(name, a)
        check_no_keys(name, a)
        check_where(name, where)
        a = ensure_array(a)
        aval = get_aval(a)
        axes = reduction_axes(axis, aval.ndim)
        dt = np_dtype(dtype, name) or (
            _sum_dtype(aval.dtype) if upcast and promote_integers else aval.dtype
        )
        if upcast and dt == dtypes.bool_ and dtype is None:
            dt = dtypes.int32  # JAX's sum and prod count booleans in int32 without promotion
        result_dt = dt
        if upcast and dtype is None and dt in (dtypes.float16, dtypes.bfloat16):
            dt = dtypes.float32  # JAX's sum and prod of 16-bit floats run in float32
        if dt != aval.dtype or aval.weak_type:  # jnp reductions' results are strongly typed
            a = sh.convert_element_type(a, dt)
        if where is not None:
            if identity is None:
                if initial is None:
                    raise ValueError(
                        f"reduction operation {name} does not have an identity, so "
                        "to use a where mask one has to specify 'initial'"
                    )
                fill = masked(get_aval(a).dtype)
            else:
                fill = identity(get_aval(a).dtype)

            # in a's dtype: a uint32 bound does not fit the weak int32 of a Python int
            a = _where(_where_mask(where, aval.shape), a, np.asarray(fill, get_aval(a).dtype))
        if (
            aval.size == 0
            and identity is None
            and initial is None
            and 0 in [aval.shape[i] for i in axes]  # (`any` is jnp.any in this module)
        ):
            raise ValueError(f"zero-size array to reduction operation {name} which has no identity")
        if get_aval(a).dtype == dtypes.bool_ and name in ("sum", "prod"):
            # XLA's add and multiply of booleans are or and and: sum(x, dtype=bool) is any(x)
            res = (red.reduce_or if name == "sum" else red.reduce_and)(a, axes)
        else:
            res = prim_fn(a, axes)
        if initial is not None:
            comb = {"sum": add, "prod": multiply, "max": maximum, "min": minimum}[name]
            initial = sh.convert_element_type(ensure_array(initial), get_aval(res).dtype)
            if get_aval(initial).shape != ():
                raise ValueError(
                    f"initial value must be a scalar. Got array of shape {get_aval(initial).shape}"
                )
            res = comb(initial, res)
        if keepdims:
            res = _keepdims(res, aval.shape, axes)
        return sh.convert_element_type(res, result_dt) if result_dt != dt else res

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"`{name}` over `axis` (all axes by default), like `numpy.{name}`."
    return fn


sum = _reduce(red.reduce_sum, lambda dt: 0, "sum", upcast=True)  # noqa: A001
prod = _reduce(red.reduce_prod, lambda dt: 1, "prod", upcast=True)


def _without_dtype(reduce: Any, name: str) -> Any:
    """`reduce` with JAX's `max`/`min` signature: no `dtype` (`out` is the third argument)."""

    def fn(
        a: Any,
        axis: Any = None,
        out: Any = None,
        keepdims: bool = False,
        initial: Any = None,
        where: Any = None,
    ) -> Any:
        return reduce(a, axis, None, out, keepdims, initial, where)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = reduce.__doc__
    return fn


# with a `dtype` argument, for the ufuncs' `maximum.reduce`/`minimum.reduce`
max_reduction = _reduce(red.reduce_max, None, "max", masked=lambda dt: _extreme(dt, True))
min_reduction = _reduce(red.reduce_min, None, "min", masked=lambda dt: _extreme(dt, False))
max = _without_dtype(max_reduction, "max")  # noqa: A001
min = _without_dtype(min_reduction, "min")  # noqa: A001
amax = _without_dtype(max_reduction, "amax")  # (named in errors as JAX's are)
amin = _without_dtype(min_reduction, "amin")


def _bool_reduce(prim_fn, name):
    def fn(
        a: Any, axis: Any = None, out: Any = None, keepdims: bool = False, *, where: Any = None
    ) -> Any:
        if out is not None:
            raise NotImplementedError(f"The 'out' argument to jnp.{name} is not supported.")
        check_not_string(f"_reduce_{name}", (a,), ("a",))
        check_arraylike(name, a)
        check_where(name, where)
        a = astype(ensure_array(a), dtypes.bool_)
        aval = get_aval(a)
        axes = reduction_axes(axis, aval.ndim)
        if where is not None:
            a = _where(_where_mask(where, aval.shape), a, name == "all")
        res = prim_fn(a, axes)
        return _keepdims(res, aval.shape, axes) if keepdims else res

    fn.__name__ = fn.__qualname__ = name
    return fn


all = _bool_reduce(red.reduce_and, "all")  # noqa: A001
any = _bool_reduce(red.reduce_or, "any")  # noqa: A001


def _inexact_operand(
    a: Any, axis: Any, dtype: Any, name: str
) -> tuple[Any, tuple[int, ...], tuple, Any]:
    """`a` cast to `dtype` (default: its own if inexact, else the default float), its shape,
    the normalized reduction axes and the dtype (`name`: the jnp function's, for warnings)."""
    check_no_keys(name, a)
    a = ensure_array(a)
    aval = get_aval(a)
    dt = np_dtype(dtype, name) or (
        aval.dtype if dtypes.kind(aval.dtype) in "fc" else to_inexact(aval.dtype)
    )
    a = sh.convert_element_type(a, dt)  # strongly typed, as JAX's statistics
    if not aval.ndim and axis not in (None, ()):
        raise AxisError(  # JAX's first line: its count reads a.shape[axis] first
            f"tuple index out of range\njnp.{name}: axis {axis} is out of bounds for an array "
            "of dimension 0"
        )
    return a, aval.shape, reduction_axes(axis, aval.ndim), dt


def _mean_over(
    x: Any, shape: tuple[int, ...], axes: tuple, dt: Any, keepdims: bool, where: Any, ddof: int = 0
) -> Any:
    """`sum(x) / (count - ddof)` over `axes`, counting only the `where` entries when given."""
    if where is None:
        n = int(np.prod([shape[i] for i in axes], dtype=np.int64))
        total = sum(x, axis=axes, dtype=dt, keepdims=keepdims)  # int8 stays int8, as in JAX
        return ew.div_like_xla(total, ew.full_like(total, n - ddof, shape=()), None)
    mask = broadcast_to(where, shape)
    total = sum(x, axis=axes, dtype=dt, keepdims=keepdims, where=mask)
    n = sum(sh.convert_element_type(mask, dt), axis=axes, dtype=dt, keepdims=keepdims)
    return ew.div(total, ew.sub(n, ew.full_like(n, ddof)) if ddof else n)


def mean(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    keepdims: bool = False,
    *,
    where: Any = None,
) -> Any:
    """Arithmetic mean (integers are averaged in the default float dtype)."""
    check_not_string("_mean", (a,), ("a",))
    check_arraylike("mean", a)
    check_where("mean", where)
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.mean is not supported.")
    a, shape, axes, dt = _inexact_operand(a, axis, dtype, "mean")
    if dtype is None and (dtypes.is_ml_float(dt) or dt == dtypes.float16):
        # JAX: 16-bit (and float8) in float32 unless the dtype is asked for
        a32 = sh.convert_element_type(a, dtypes.float32)
        out = _mean_over(a32, shape, axes, dtypes.float32, keepdims, where)
        return sh.convert_element_type(out, dt)
    return _mean_over(a, shape, axes, dt, keepdims, where)


_mean = mean  # `var`'s `mean` argument shadows the function


def var(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    ddof: int = 0,
    keepdims: bool = False,
    *,
    where: Any = None,
    mean: Any = None,
    correction: Any = None,
) -> Any:
    """Variance, `mean(|x - mean(x)|^2)` with `ddof` degrees of freedom removed (real for
    complex `a`, as in JAX).

    Args:
      a: the array.
      axis: the axes to reduce (None: all).
      dtype: the computation and result dtype.
      out: unsupported (must be None).
      ddof: the degrees of freedom removed from the count.
      keepdims: keep the reduced axes with size 1.
      where: which elements take part.
      mean: `a`'s mean over `axis` (with kept axes, or broadcast-compatible with `a`),
        computed if None.
      correction: `ddof`'s Array API name (overrides it).

    Returns:
      The variance.
    """
    check_arraylike("var", a)
    check_where("var", where)
    return _var(
        a,
        axis=static_axes(axis),
        dtype=dtype,
        out=out,
        correction=_correction(ddof, correction),
        keepdims=keepdims,
        where=where,
        a_mean=mean,
    )


def _correction(ddof: Any, correction: Any) -> Any:
    """`var`'s and `std`'s degrees of freedom removed from the count (JAX's check)."""
    if correction is None:
        return ddof
    if not isinstance(ddof, int) or ddof != 0:
        raise ValueError("ddof and correction can't be provided simultaneously.")
    return correction


@library_jit(static_argnames=("axis", "dtype", "keepdims"))
def _var(
    a: Any,
    *,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    correction: Any = 0,
    keepdims: bool = False,
    where: Any = None,
    a_mean: Any = None,
) -> Any:
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.var is not supported.")
    mean = a_mean
    a = ensure_array(a)
    comp, out_dt = _var_dtypes(get_aval(a).dtype, np_dtype(dtype, "var"))
    a, shape, axes, _ = _inexact_operand(a, axis, comp, "var")
    if mean is None:
        a_mean = _mean(a, axis=axes, dtype=comp, keepdims=True, where=where)
    else:
        check_arraylike("var", mean)
        a_mean = sh.convert_element_type(ensure_array(mean), comp)
    centered = subtract(a, a_mean)
    if comp.kind == "c":
        squares = real(ew.mul(centered, conjugate(centered)))
        comp = squares.dtype
    else:
        squares = ew.square(centered)
    if where is None:  # a rank-0 count, as JAX's
        count = sh.full((), int(np.prod([shape[i] for i in axes], dtype=np.int64)), comp)
    else:
        mask = sh.convert_element_type(broadcast_to(where, shape), comp)
        count = sum(mask, axes, dtype=comp, keepdims=keepdims)
    count = ew.sub(count, sh.convert_element_type(ensure_array(correction), comp))
    total = sum(squares, axis=axes, dtype=comp, keepdims=keepdims, where=where)
    out = sh.convert_element_type(ew.div(total, count), out_dt)
    # as JAX, after the cast: an integer `dtype`'s variance meets the weak NaN (weak float)
    return _where(ew.gt(count, ew.full_like(count, 0, shape=())), out, np.nan)


def _var_dtypes(a_dt: np.dtype, dtype: np.dtype | None) -> tuple[np.dtype, np.dtype]:
    """JAX's (computation, result) dtypes of `var`: a given dtype is both (complex `a` needs a
    complex one); else integers give the default float, complex `a` a real result; float16
    and bfloat16 compute in float32."""
    if dtype is not None:
        if dtype.kind != "c" and dtypes.kind(a_dt) == "c":
            raise ValueError(
                "jax.numpy.var does not yet support real dtype parameters when computing the "
                "variance of an array of complex values. Pass a complex dtype, or take the "
                "variance of `a.real` and `a.imag` separately."
            )
        comp = out = dtype
    elif dtypes.kind(a_dt) not in "fc":
        comp = out = to_inexact(a_dt)
    else:
        comp, out = a_dt, np.array(0, a_dt).real.dtype
    if np.dtype(comp) in (np.float16, dtypes.bfloat16):
        comp = np.dtype(np.float32)
    return np.dtype(comp), np.dtype(out)


def std(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    ddof: int = 0,
    keepdims: bool = False,
    *,
    where: Any = None,
    mean: Any = None,
    correction: Any = None,
) -> Any:
    """Standard deviation: `sqrt(var(...))`, with `var`'s arguments."""
    check_arraylike("std", a)
    check_where("std", where)
    return _std(
        a,
        axis=static_axes(axis),
        dtype=dtype,
        out=out,
        correction=_correction(ddof, correction),
        keepdims=keepdims,
        where=where,
        mean=mean,
    )


@library_jit(static_argnames=("axis", "dtype", "keepdims"))
def _std(
    a: Any,
    *,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    correction: Any = 0,
    keepdims: bool = False,
    where: Any = None,
    mean: Any = None,
) -> Any:
    if dtype is not None and not dtypes.is_inexact(np.dtype(dtype)):
        dt = dtypes.canonicalize_dtype(dtype)
        raise ValueError(f"dtype argument to jnp.std must be inexact; got {dt}")
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.std is not supported.")
    v = var(
        a, axis=axis, dtype=dtype, correction=correction, keepdims=keepdims, where=where, mean=mean
    )
    return ew.sqrt(v)


def _arg(prim_fn, name):
    def fn(a: Any, axis: Any = None, out: Any = None, keepdims: bool | None = None) -> Any:
        if out is not None:
            raise NotImplementedError(f"The 'out' argument to jnp.{name} is not supported.")
        check_arraylike(name, a)
        a = ensure_array(a)
        aval = get_aval(a)
        if axis is not None and not -aval.ndim <= operator.index(axis) < aval.ndim:
            raise AxisError(  # JAX's first line: its a.shape[axis] fails
                f"tuple index out of range\njnp.{name}: axis {axis} is out of bounds for an "
                f"array of dimension {aval.ndim}"
            )
        if aval.size == 0 and (axis is None or aval.shape[reduction_axes(axis, aval.ndim)[0]] == 0):
            raise ValueError(f"attempt to get {name} of an empty sequence")  # jit too, as JAX
        if axis is None:
            flat = sh.reshape(a, (aval.size,))
            res = prim_fn(flat, 0, dtypes.default_int())
            return sh.expand_dims(res, tuple(range(aval.ndim))) if keepdims else res
        ax = reduction_axes(axis, aval.ndim)[0]
        res = prim_fn(a, ax, dtypes.default_int())
        return _keepdims(res, aval.shape, (ax,)) if keepdims else res

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Indices of the {name[3:]}imum values along `axis`."
    return fn


argmax = _arg(red.argmax, "argmax")
argmin = _arg(red.argmin, "argmin")


# ---------------------------------------------------------------------------------------------
# Cumulative reductions, counting, NaN-ignoring and order statistics


def _cumulative(prim_fn, name: str):
    def fn(a: Any, axis: int | None = None, dtype: Any = None, out: Any = None) -> Any:
        if out is not None:  # (JAX's message has no final period here)
            raise NotImplementedError(f"The 'out' argument to jnp.{name} is not supported")
        check_arraylike(name, a)
        a = ensure_array(a)
        if axis is None:
            a = sh.reshape(a, (get_aval(a).size,))
            axis = 0
        aval = get_aval(a)
        ax = reduction_axes(axis, aval.ndim)[0]
        dt = np_dtype(dtype, name) or (
            dtypes.default_int() if aval.dtype == dtypes.bool_ else aval.dtype
        )
        if dt == dtypes.bool_:  # JAX: accumulate `a != 0` in the default int, then cast
            a = ew.ne(a, ew.full_like(a, 0, shape=())) if aval.dtype != dt else a
            acc = prim_fn(sh.convert_element_type(a, dtypes.default_int()), ax)
            return sh.convert_element_type(acc, dt)
        a = sh.convert_element_type(a, dt)  # strongly typed, as JAX's
        return prim_fn(a, ax)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"The running {name[3:]} along `axis` (the flattened array when None)."
    return library_jit(fn, static_argnames=("axis", "dtype"))


def _prims():
    return sorting


cumsum = _cumulative(lambda a, ax: _prims().cumsum(a, ax), "cumsum")
cumprod = _cumulative(lambda a, ax: _prims().cumprod(a, ax), "cumprod")


def cumulative_sum(
    x: Any, /, *, axis: int | None = None, dtype: Any = None, include_initial: bool = False
) -> Any:
    """Array-API cumulative sum (optionally starting with a 0)."""
    check_arraylike("cumulative_sum", x)
    x = ensure_array(x)
    aval = get_aval(x)
    _check_cumulative_axis(aval.ndim, axis, "sum")
    dtype = np_dtype(dtype, "cumulative_sum") or _sum_dtype(aval.dtype)  # as JAX's (not cumsum's)
    return _with_initial(cumsum(x, axis, dtype), axis, 0, include_initial)


def _check_cumulative_axis(ndim: int, axis: int | None, what: str) -> None:
    if ndim == 0:
        raise ValueError(
            f"The input must be non-scalar to take a cumulative {what}, however a scalar value "
            "or scalar array was given."
        )
    if axis is None and ndim > 1:
        raise ValueError(
            f"The input array has rank {ndim}, however axis was not set to an explicit value. "
            "The axis argument is only optional for one-dimensional arrays."
        )


def _with_initial(out: Any, axis: int | None, identity: int, include_initial: bool) -> Any:
    """`out` with the reduction's `identity` prepended along `axis` when `include_initial`."""
    if not include_initial:
        return out
    shape = get_aval(out).shape
    ax = reduction_axes(0 if axis is None else axis, len(shape))[0]
    first = sh.full(
        tuple(1 if i == ax else d for i, d in enumerate(shape)), identity, get_aval(out).dtype
    )
    return concatenate([first, out], axis=ax)


def cumulative_prod(
    x: Any, /, *, axis: int | None = None, dtype: Any = None, include_initial: bool = False
) -> Any:
    """Array-API cumulative product (optionally starting with a 1)."""
    check_arraylike("cumulative_prod", x)
    x = ensure_array(x)
    aval = get_aval(x)
    _check_cumulative_axis(aval.ndim, axis, "product")
    dtype = np_dtype(dtype, "cumulative_prod")  # None: cumprod's (int8 stays int8), as in JAX
    return _with_initial(cumprod(x, axis, dtype), axis, 1, include_initial)


@library_jit(static_argnames=("axis", "keepdims"))
def count_nonzero(a: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """The number of non-zero values along `axis` (int32)."""
    check_arraylike("count_nonzero", a)
    a = ensure_array(a)
    nz = ew.ne(a, np.zeros((), get_aval(a).dtype)[()])
    return sum(nz, axis=axis, dtype=dtypes.default_int(), keepdims=keepdims)


def ptp(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False) -> Any:
    """Peak to peak: `max - min` along `axis`."""
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.ptp is not supported.")
    check_arraylike("ptp", a)
    return ew.sub(max(a, axis, keepdims=keepdims), min(a, axis, keepdims=keepdims))


def _nan_mask(a: Any) -> Any:
    return isnan(a)


def _not_nan(a: Any, where: Any) -> Any:
    """The mask of non-NaN entries of `a`, and-ed with `where` when given."""
    valid = logical_not(_nan_mask(a))
    return valid if where is None else logical_and(valid, _where_mask(where, get_aval(a).shape))


def _nan_filled(a: Any, fill: Any) -> Any:
    a = ensure_array(a)
    if dtypes.kind(get_aval(a).dtype) not in "fc":
        return a
    return _where(_nan_mask(a), ew.full_like(a, fill), a)


def _nan_accumulate(fn, fill: int, name: str, fill_name: str):
    def op(
        a: Any,
        axis: Any = None,
        dtype: Any = None,
        out: Any = None,
        keepdims: bool = False,
        initial: Any = None,
        where: Any = None,
    ) -> Any:
        check_arraylike(name, a)
        check_where(name, where)
        return fn(
            _nan_filled(a, fill), axis, dtype, out, keepdims=keepdims, initial=initial, where=where
        )

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"`{fn.__name__}` treating NaNs as {fill_name}."
    return op


nansum = _nan_accumulate(sum, 0, "nansum", "zero")
nanprod = _nan_accumulate(prod, 1, "nanprod", "one")


def _nan_extremum(fn, fill, name: str):
    def op(
        a: Any,
        axis: Any = None,
        out: Any = None,
        keepdims: bool = False,
        initial: Any = None,
        where: Any = None,
    ) -> Any:
        check_arraylike(name, a)
        check_where(name, where)
        a = ensure_array(a)
        res = fn(_nan_filled(a, fill), axis, out, keepdims, initial, where)
        if dtypes.kind(get_aval(a).dtype) not in "fc" or initial is not None:
            return res  # JAX: with `initial`, an all-NaN (or empty) slice gives `initial`

        all_nan = all(_nan_mask(a), axis=axis, keepdims=keepdims)
        return _where(all_nan, ew.full_like(res, np.nan), res)

    op.__name__ = op.__qualname__ = name
    return op


nanmax = _nan_extremum(max, -np.inf, "nanmax")
nanmin = _nan_extremum(min, np.inf, "nanmin")


def nanmean(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    keepdims: bool = False,
    where: Any = None,
) -> Any:
    """`mean` of the non-NaN values."""
    check_arraylike("nanmean", a)
    check_where("nanmean", where)
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.nanmean is not supported.")
    a = ensure_array(a)
    if dtypes.kind(get_aval(a).dtype) not in "fc":
        return mean(a, axis, dtype, keepdims=keepdims, where=where)
    return mean(a, axis, dtype, keepdims=keepdims, where=_not_nan(a, where))


def nanvar(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    ddof: int = 0,
    keepdims: bool = False,
    where: Any = None,
    mean: Any = None,
) -> Any:
    """`var` of the non-NaN values.

    Args:
      a, axis, dtype, out, ddof, keepdims, where: as `var`'s.
      mean: `a`'s mean over `axis` (as `var`'s), else `nanmean`'s.

    Returns:
      The variance.
    """
    check_arraylike("nanvar", a)
    check_where("nanvar", where)
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.nanvar is not supported.")
    a = ensure_array(a)
    # As JAX: convert to the computation dtype first (an integer dtype has no NaN to skip).
    comp, out_dt = _var_dtypes(get_aval(a).dtype, np_dtype(dtype, "nanvar"))
    a = sh.convert_element_type(a, comp)
    if comp.kind not in "fc":
        res = var(a, axis, comp, ddof=ddof, keepdims=keepdims, where=where, mean=mean)
    else:
        valid = _not_nan(a, where)
        res = var(
            _nan_filled(a, 0), axis, comp, ddof=ddof, keepdims=keepdims, where=valid, mean=mean
        )
        if comp.kind == "c" and out_dt.kind != "c":  # a complex `a`'s variance is real
            res = ew.real_p.bind(res)
    return sh.convert_element_type(res, out_dt)


def nanstd(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    ddof: int = 0,
    keepdims: bool = False,
    where: Any = None,
    mean: Any = None,
) -> Any:
    """`std` of the non-NaN values: `sqrt(nanvar(...))`.

    Args:
      a, axis, dtype, out, ddof, keepdims, where, mean: as `nanvar`'s.

    Returns:
      The standard deviation.
    """
    check_arraylike("nanstd", a)
    check_where("nanstd", where)
    return ew.sqrt(nanvar(a, axis, dtype, out, ddof, keepdims, where, mean))


def average(
    a: Any, axis: Any = None, weights: Any = None, returned: bool = False, keepdims: bool = False
) -> Any:
    """Weighted mean along `axis` (`returned=True` also gives the sum of the weights)."""
    check_arraylike("average", a, *(() if weights is None else (weights,)))
    if weights is None:
        avg = mean(a, axis, keepdims=keepdims)
        if not returned:
            return avg
        a = ensure_array(a)
        count = get_aval(a).size // builtins.max(get_aval(avg).size, 1)
        return avg, ew.full_like(avg, count)
    a, w = promote_dtypes_inexact(a, weights)
    ashape, wshape = get_aval(a).shape, get_aval(w).shape
    if ashape != wshape:
        if axis is None:
            raise ValueError(
                "Axis must be specified when shapes of a and weights differ.\n"
                f"a has shape {ashape} and weights {wshape}"
            )
        # JAX: the weights' dimensions are the axes' sizes, in the order the axes are given
        axes = reduction_axes(axis, len(ashape))
        if wshape != tuple(ashape[ax] for ax in axes):
            raise ValueError(
                "Shape of weights must be consistent with shape of a along specified axis."
            )
        order = tuple(int(i) for i in np.argsort(axes))
        w = sh.broadcast_in_dim(sh.transpose(w, order), ashape, tuple(sorted(axes)))
    wsum = sum(w, axis, keepdims=keepdims)
    avg = ew.div(sum(ew.mul(a, w), axis, keepdims=keepdims), wsum)
    return (avg, wsum) if returned else avg


_METHODS = ("linear", "lower", "higher", "midpoint", "nearest", "inverted_cdf")


def check_no_out(name: str, out: Any, overwrite_input: bool) -> None:
    """JAX's ValueError for quantile's numpy-only `out` and `overwrite_input=True` (results
    are new arrays: assign the returned value instead)."""
    if overwrite_input or out is not None:
        raise ValueError(f"jax.numpy.{name} does not support overwrite_input=True or out != None")


def reject_complex_quantile(a: Any) -> None:
    """JAX's ValueError for quantiles (medians, percentiles) of complex values."""
    if dtypes.kind(get_aval(a).dtype) == "c":
        raise ValueError(
            "quantile does not support complex input, as the operation is poorly defined."
        )


def check_quantile_method(method: str, weights: Any, q: Any = None) -> None:
    """JAX's errors for a quantile `method` it lacks, `weights` with another method than
    "inverted_cdf" (the only one that takes them), or quantiles `q` of rank above 1."""
    if method not in _METHODS:
        raise ValueError(
            "method can only be 'linear', 'lower', 'higher', 'midpoint', 'nearest' or "
            "'inverted_cdf'"
        )
    if weights is not None:
        if dtypes.kind(get_aval(ensure_array(weights)).dtype) == "c":
            raise ValueError("Weights cannot be complex types.")
        if method != "inverted_cdf":
            raise NotImplementedError(
                f"{method} doesn't support weights. Only method 'inverted_cdf' supports weights."
            )
    if q is not None and np.ndim(q) > 1:
        raise ValueError(f"q must be have rank <= 1, got shape {np.shape(q)}")


def inverted_cdf(a: Any, q: Any, axis: Any, keepdims: bool, weights: Any, skip_nans: bool) -> Any:
    """Quantiles by the "inverted_cdf" method, as JAX computes them: along the reduced axes
    sorted, the first value whose cumulative weight (1 each by default) reaches `q` times the
    total; NaN where a weight is negative or NaN, and where a value is NaN (`skip_nans`: NaN
    values weigh nothing, and only an all-NaN row gives NaN). The dimensions of `q` first."""
    a = ensure_array(a)
    if weights is None:
        (a,) = promote_dtypes_inexact(a)
        w = ew.full_like(a, 1.0)
    else:
        a, w = promote_dtypes_inexact(a, weights)
    shape = get_aval(a).shape
    if dtypes.kind(get_aval(a).dtype) == "c":
        raise ValueError(
            "quantile does not support complex input, as the operation is poorly defined."
        )
    axes = reduction_axes(axis, len(shape))
    if get_aval(w).shape != shape:
        if axis is None:
            raise ValueError("Weights shape must match 'a' shape when axis is None.")
        want = tuple(shape[i] for i in axes)
        if get_aval(w).shape != want:
            raise ValueError(f"Weights shape {get_aval(w).shape} must match reduction axes {want}")
        w = sh.broadcast_in_dim(w, shape, axes)
    keep = [i for i in range(len(shape)) if i not in axes]
    batch = tuple(shape[i] for i in keep)
    n = int(np.prod([shape[i] for i in axes], dtype=np.int64))

    def flat(x: Any) -> Any:
        return sh.reshape(sh.transpose(x, (*keep, *axes)), (*batch, n))

    a, w = sorting.sort_key_val(flat(a), flat(w), dimension=len(batch))
    nan_a = isnan(a)
    bad = logical_or(less(w, 0), isnan(w))
    cum = cumsum(_where(logical_or(bad, nan_a), 0, w), axis=-1)
    q = sh.convert_element_type(ensure_array(q), get_aval(a).dtype)
    qshape = get_aval(q).shape
    q = sh.reshape(q, (*qshape, *(1,) * (len(batch) + 1)))
    # every operand of q's rank (*qshape, *batch, ...), so rank promotion='raise' allows them
    lead = (1,) * len(qshape)
    cum = sh.reshape(cum, (*lead, *batch, n))
    target = multiply(q, cum[..., -1:] if n else 0)  # (*qshape, *batch, 1)
    idx = sum(less(cum, target), axis=-1, dtype=dtypes.default_int())
    valid = sum(logical_not(nan_a), axis=-1, dtype=dtypes.default_int()) if skip_nans else n
    last = sh.reshape(valid, (*lead, *batch)) if skip_nans else valid
    idx = clip(idx, 0, subtract(last, 1))
    a_q = sh.broadcast_in_dim(
        a, (*qshape, *batch, n), tuple(range(len(qshape), get_aval(idx).ndim + 1))
    )
    res = take_along_axis(a_q, sh.expand_dims(idx, (get_aval(idx).ndim,)), axis=-1)[..., 0]
    nan_row = logical_or(any(bad, axis=-1), equal(valid, 0) if skip_nans else any(nan_a, axis=-1))
    res = _where(nan_row, np.nan, res)
    if keepdims:
        res = sh.reshape(res, (*qshape, *(1 if i in axes else d for i, d in enumerate(shape))))
    return res


def quantile(
    a: Any,
    q: Any,
    axis: Any = None,
    out: Any = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
    *,
    weights: Any = None,
) -> Any:
    """The `q`-th quantiles (0 <= q <= 1) along `axis`, interpolated linearly between order
    statistics (also "lower", "higher", "nearest", "midpoint", and "inverted_cdf", the only
    method that takes `weights`, an array of `a`'s shape or of the reduced axes' shape)."""
    check_arraylike("quantile", a, q, *(() if weights is None else (weights,)))
    check_no_out("quantile", out, overwrite_input)
    check_quantile_method(method, weights, q)
    if method == "inverted_cdf":
        return inverted_cdf(a, q, axis, keepdims, weights, skip_nans=False)
    a = ensure_array(a)
    shape0 = get_aval(a).shape
    axes = (
        tuple(range(len(shape0)))
        if axis is None
        else reduction_axes(axis, len(shape0), iterable=False)
    )
    if len(axes) == 1:
        ax = axes[0]
    else:  # the reduced axes moved last and merged into one
        others = tuple(d for d in range(len(shape0)) if d not in axes)
        a = sh.transpose(a, (*others, *axes))
        merged = int(np.prod([shape0[d] for d in axes], dtype=np.int64))
        a = sh.reshape(a, (*(shape0[d] for d in others), merged))
        ax = len(others)
    (a,) = promote_dtypes_inexact(a)
    reject_complex_quantile(a)
    n = get_aval(a).shape[ax]
    s = sort(a, ax)
    q = ensure_array(q)
    q = sh.convert_element_type(q, get_aval(a).dtype, get_aval(q).weak_type)
    # JAX's position: q times a strongly typed n - 1 (a Python float q's gradient is strong)
    pos = ew.mul(q, ew.full_like(q, n - 1, get_aval(q).dtype))
    lo = ew.floor(pos)
    hi = ew.ceil(pos)
    idx_dt = dtypes.default_int()
    lo_i, hi_i = (sh.convert_element_type(v, idx_dt) for v in (lo, hi))
    mode = "clip" if n else "fill"  # an empty axis reads NaN (numpy's answer, quietly)
    v_lo = take_filling(s, lo_i, axis=ax, mode=mode)
    v_hi = take_filling(s, hi_i, axis=ax, mode=mode)
    qnd = get_aval(q).ndim
    if method == "linear":
        frac = ew.sub(pos, lo)
        shape = get_aval(v_lo).shape
        frac = sh.broadcast_in_dim(frac, shape, tuple(range(ax, ax + qnd)))
        res = ew.add(v_lo, ew.mul(ew.sub(v_hi, v_lo), frac))
    elif method == "lower":
        res = v_lo
    elif method == "higher":
        res = v_hi
    elif method == "midpoint":
        res = ew.mul(ew.add(v_lo, v_hi), ew.full_like(v_lo, 0.5))
    elif method == "nearest":  # as JAX: a fraction of exactly 1/2 takes the lower neighbour
        upper = ew.gt(ew.sub(pos, lo), ew.full_like(pos, 0.5))
        res = take_filling(s, ew.select_n(upper, lo_i, hi_i), axis=ax, mode=mode)
    else:
        raise ValueError(f"method={method!r} is not one of linear/lower/higher/midpoint/nearest")
    if dtypes.kind(get_aval(a).dtype) == "f":  # a NaN along the axis makes the quantile NaN
        nan_rows = any(ew.ne(a, a), axis=ax)
        nd = get_aval(res).ndim
        dims = (*range(ax), *range(ax + qnd, nd))
        nan_rows = sh.broadcast_in_dim(nan_rows, get_aval(res).shape, dims)
        res = ew.select_n(nan_rows, res, ew.full_like(res, np.nan))
    if qnd:  # numpy puts the q dimensions first
        perm = (*range(ax, ax + qnd), *range(ax), *range(ax + qnd, get_aval(res).ndim))
        res = sh.transpose(res, perm)
    if keepdims:
        kept = tuple(1 if i in axes else d for i, d in enumerate(shape0))
        res = sh.reshape(res, (*get_aval(q).shape, *kept))
    return res


def percentile(
    a: Any,
    q: Any,
    axis: Any = None,
    out: Any = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
    *,
    weights: Any = None,
    out_sharding: Any = None,
) -> Any:
    """`quantile` with `q` in percent.

    Args:
      a, axis, out, overwrite_input, method, keepdims, weights: as `quantile`'s.
      q: the percentiles, in [0, 100].
      out_sharding: how the result is sharded (see `jnp.zeros`), or None.

    Returns:
      The percentiles.
    """
    check_arraylike("percentile", a, q)
    res = quantile(a, divide(q, 100), axis, out, overwrite_input, method, keepdims, weights=weights)
    return placed_by(res, None, out_sharding, "percentile")


def median(
    a: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False, keepdims: bool = False
) -> Any:
    """The median along `axis` (the mean of the two middle values for even sizes)."""
    check_arraylike("median", a)
    return quantile(a, 0.5, axis, out, overwrite_input, method="linear", keepdims=keepdims)
