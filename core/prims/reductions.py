"""Reductions over a static set of axes: reduce_sum/max/min/prod/and/or, argmax/argmin.

`reduce_sum` is linear (its transpose broadcasts the cotangent back); `reduce_max`/`reduce_min`
differentiate through the location of the extremum, ties sharing the gradient evenly (as JAX).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core import dtypes
from core.ad_util import Zero, add_any
from core.avals import ShapedArray
from core.errors import AxisError, DTypeError, KeyOrderError, ShapeError
from core.interpreters.jvp import defjvp_zero, deflinear
from core.primitive import Primitive, jax_params
from core.prims import elementwise as ew
from core.prims.indexing import pad, slice_in_dim
from core.prims.shapes import (
    broadcast_in_dim,
    convert_element_type,
    reshape,
    squeeze,
    transpose,
)
from core.prims.sum_order import window_sum, xla_sum, ynn_sum
from core.trace import get_aval


def reduced_shape(name: str, x: ShapedArray, axes: tuple[int, ...]) -> tuple[int, ...]:
    """The shape of a reduction `name` of `x` over `axes` (a `ShapeError` for bad axes)."""
    fix = f"\n{name}: axes must be distinct and in [0, {x.ndim}) for an array of shape {x.shape}."
    if any(a < 0 or a >= x.ndim for a in axes):  # JAX's first lines, then the fix
        raise ShapeError(
            f"reduction axes {axes} contains out-of-bounds indices for "
            f"{x.str_short(short_dtypes=False)}.{fix}"
        )
    if len(set(axes)) != len(axes):
        raise ShapeError(f"duplicate value in 'axes' of reduction: {axes}{fix}")
    return tuple(d for i, d in enumerate(x.shape) if i not in axes)


def batch_axes_rule(prim: Primitive) -> None:
    """Gives the reduction `prim` (parameter `axes`) JAX's batching rule."""

    def rule(args, dims, *, axes, **params):
        (x,), (d,) = args, dims
        # JAX's `batching.reducer_batcher` computes the axes with numpy: they are numpy ints
        # (`axes=(np.int64(1),)` in printed jaxprs; `core.jit.canonical` makes them ints)
        new_axes = tuple(np.where(np.less(axes, d), axes, np.add(axes, 1)))
        out_dim = d - sum(1 for a in axes if a < d)
        return prim.bind(x, axes=new_axes, **params), out_dim

    prim.def_batch(rule)


def _identity(np_fn, dtype: np.dtype) -> Any:
    """The identity of max (`np_fn is np.max`) or min for `dtype`."""
    low = np_fn is np.max
    if dtypes.kind(dtype) in "fc":
        return -np.inf if low else np.inf
    if dtype.kind == "b":
        return not low
    info = np.iinfo(dtype)
    return info.min if low else info.max


def _complex_extremum(x: np.ndarray, axes: tuple[int, ...], np_fn) -> np.ndarray:
    """XLA's complex reduce_max/min: a fold from the identity (-inf or inf) in order with
    `complex_pick`, so a NaN is kept only if the next element does not win against it."""
    kept = [i for i in range(x.ndim) if i not in axes]
    flat = np.transpose(x, kept + list(axes)).reshape([x.shape[i] for i in kept] + [-1])
    take_x = np.greater if np_fn is np.max else np.less
    acc = np.full(flat.shape[:-1], _identity(np_fn, x.dtype), x.dtype)
    for i in range(flat.shape[-1]):
        acc = ew.complex_pick(acc, flat[..., i], take_x)
    return acc


def _reduction(name: str, np_fn, kinds: str, out_bool: bool = False) -> Primitive:
    prim = Primitive(name)

    def impl(x, *, axes):
        if x.size == 0 and np_fn in (np.max, np.min):  # XLA's identity: -inf/+inf, int extremes
            return np.full(reduced_shape(name, x, axes), _identity(np_fn, x.dtype), x.dtype)
        if x.dtype.kind == "c" and np_fn in (np.max, np.min):
            return _complex_extremum(x, axes, np_fn)
        if np_fn is np.sum and dtypes.kind(x.dtype) in "fc":  # in XLA:CPU's order (sum_order)
            wide = x.astype(np.float32) if dtypes.is_ml_float(x.dtype) else x
            with np.errstate(invalid="ignore", over="ignore"):
                return np.asarray(xla_sum(wide, axes), dtype=x.dtype)
        if dtypes.is_ml_float(x.dtype):  # like XLA on CPU: accumulate in float32, round once
            return np.asarray(np_fn(x.astype(np.float32), axis=axes), dtype=x.dtype)
        with np.errstate(invalid="ignore", over="ignore"):  # inf - inf is nan, as in JAX
            out = np_fn(x, axis=axes)
        return np.asarray(out, dtype=x.dtype)

    def abstract_eval(x, *, axes):
        if dtypes.kind(x.dtype) not in kinds:
            raise TypeError(f"{name} does not accept dtype {x.dtype}")
        return ShapedArray(reduced_shape(name, x, axes), x.dtype, x.weak_type)

    prim.def_impl(impl)
    prim.def_abstract_eval(abstract_eval)
    batch_axes_rule(prim)
    return prim


reduce_sum_p = _reduction("reduce_sum", np.sum, "iufc")
deflinear(reduce_sum_p)


def _reduce_sum_transpose(ct, x, *, axes):
    shape = x.aval.shape
    kept = tuple(np.delete(np.arange(len(shape)), axes))  # numpy ints, as JAX's (printed)
    return [broadcast_in_dim(ct, shape, kept)]


reduce_sum_p.def_transpose(_reduce_sum_transpose)
jax_params(reduce_sum_p, out_sharding=None)


def _in_order_impl(x, *, axes):
    with np.errstate(invalid="ignore", over="ignore"):
        return np.asarray(window_sum(x, tuple(axes)), x.dtype)


def _sum_in_an_order(name: str, impl: Any) -> Primitive:
    """A `reduce_sum` whose `impl` adds in an order of its own: linear, transposed and batched
    as `reduce_sum`."""
    prim = Primitive(name)
    prim.def_impl(impl)
    prim.def_abstract_eval(
        lambda x, *, axes: ShapedArray(reduced_shape("reduce_sum", x, axes), x.dtype, x.weak_type)
    )
    deflinear(prim)
    prim.def_transpose(_reduce_sum_transpose)
    batch_axes_rule(prim)
    return prim


# `reduce_sum` adding the elements in the order of XLA:CPU's own loops (windows of 32, each
# summed in order from 0: `sum_order.window_sum`): what `jit` compiles a float sum that XLA
# does not hand to YNNPACK into (core/jit/sum_order.py), a loop nest of its own order
# (`core/jit/loops.py`, `LoopNest._emit_windows`)
reduce_sum_in_order_p = _sum_in_an_order("reduce_sum_in_order", _in_order_impl)


def _ynn_impl(x, *, axes):
    with np.errstate(invalid="ignore", over="ignore"):
        return np.asarray(ynn_sum(np.ascontiguousarray(x), tuple(axes)), x.dtype)


# `reduce_sum` adding in the order of YNNPACK, to which XLA:CPU hands float32 and float64 sums
# of 4096 elements or more (`sum_order.ynn_sum`): what `jit` compiles such a sum into
# (core/jit/sum_order.py), a loop nest of its own order (`LoopNest._emit_ynn`)
reduce_sum_ynn_p = _sum_in_an_order("reduce_sum_ynn", _ynn_impl)

reduce_max_p = _reduction("reduce_max", np.max, "iufcb")
reduce_min_p = _reduction("reduce_min", np.min, "iufcb")
reduce_prod_p = _reduction("reduce_prod", np.prod, "iufc")
reduce_and_p = _reduction("reduce_and", np.all, "b")
reduce_or_p = _reduction("reduce_or", np.any, "b")
defjvp_zero(reduce_and_p)
defjvp_zero(reduce_or_p)


def _extremum_jvp(prim):
    def rule(primals, tangents, *, axes):
        (x,), (t,) = primals, tangents
        out = prim.bind(x, axes=axes)
        if type(t) is Zero:
            return out, Zero(get_aval(out))
        # JAX's: the result reshaped with size-1 reduced axes, compared by broadcasting
        shape = tuple(1 if i in axes else d for i, d in enumerate(get_aval(x).shape))
        at_ext = convert_element_type(ew.eq(x, reshape(out, shape)), get_aval(t).dtype)
        count = reduce_sum(at_ext, axes)
        return out, ew.div(reduce_sum(ew.mul(t, at_ext), axes), count)

    prim.def_jvp(rule)


_extremum_jvp(reduce_max_p)
_extremum_jvp(reduce_min_p)


def _reduce_prod_jvp(primals, tangents, *, axes):
    # JAX's `_reduce_jvp`: the reduced axes moved to the front and flattened, then a product
    # tree (the two halves multiplied elementwise, the shorter second one padded with ones,
    # until one row is left) differentiated through `mul`, so the result and its tangent are
    # JAX's bit for bit (its order of products), exact at zeros and differentiable again.
    (x,), (t,) = primals, tangents
    shape = get_aval(x).shape
    kept = tuple(i for i in range(len(shape)) if i not in axes)
    n = int(np.prod([shape[a] for a in axes], dtype=np.int64))
    rest = tuple(shape[i] for i in kept)
    if n == 0:
        out = reduce_prod(x, axes)
        return out, Zero(get_aval(out))
    to_front = lambda v: reshape(transpose(v, (*axes, *kept)), (n, *rest))  # noqa: E731
    x, t = to_front(x), to_front(t)
    cfg = ((0, 1, 0), *[(0, 0, 0)] * len(rest))
    while n > 1:
        half = (n + 1) // 2
        x1, t1 = slice_in_dim(x, 0, half), slice_in_dim(t, 0, half)
        x2, t2 = slice_in_dim(x, half, n), slice_in_dim(t, half, n)
        if n - half != half:
            x2, t2 = pad(x2, 1, cfg), pad(t2, 0, cfg)
        x, t = ew.mul(x1, x2), add_any(ew.mul(t1, x2), ew.mul(x1, t2))
        n = half
    return squeeze(x, (0,)), squeeze(t, (0,))


reduce_prod_p.def_jvp(_reduce_prod_jvp)


def _argext(name: str, np_fn) -> Primitive:
    prim = Primitive(name)

    def check(x: Any, axes: tuple[int, ...]) -> None:
        if not 0 <= axes[0] < x.ndim:
            raise AxisError(f"Invalid axis {axes[0]} for operand shape {x.shape}")
        if type(x.dtype) is dtypes.KeyDType:  # JAX's message names the max (min) it takes
            raise KeyOrderError(f"Unsupported dtype for {name[3:]}: {x.dtype}")
        if x.dtype.kind == "c":  # complex numbers have no order (JAX's comparison raises)
            raise DTypeError(
                f"{'gt' if name == 'argmax' else 'lt'} does not accept dtype {x.dtype} at "
                "position 0. Accepted dtypes at position 0 are subtypes of integer, floating, "
                f"bool.\n{name}: complex numbers are not ordered; take {name} of "
                "`jnp.abs(x)`, `x.real` or `x.imag` instead."
            )
        if x.shape[axes[0]] == 0:  # under jit too, as JAX (no identity to return)
            raise ValueError(
                "argmin and argmax require non-empty reduced dimension. "
                f"operand.shape={x.shape} axis={axes[0]}"
            )

    def impl(x, *, axes, index_dtype):
        check(x, axes)
        (axis,) = axes
        return np.asarray(np_fn(x, axis=axis), dtype=index_dtype)

    def abstract_eval(x, *, axes, index_dtype):
        check(x, axes)
        return ShapedArray(reduced_shape(name, x, axes), index_dtype)

    prim.def_impl(impl)
    prim.def_abstract_eval(abstract_eval)
    defjvp_zero(prim)
    batch_axes_rule(prim)
    return prim


argmax_p = _argext("argmax", np.argmax)  # numpy and XLA both return the first NaN, if any


argmin_p = _argext("argmin", np.argmin)


def _wrap(prim):
    def fn(operand: Any, axes: tuple[int, ...]) -> Any:
        axes = tuple(int(a) for a in axes)
        if type(operand) in (bool, int, float, complex):
            operand = ew.full_like(operand, operand)  # a weakly typed 0-d array
        if not axes:
            return operand
        return prim.bind(operand, axes=axes)

    fn.__name__ = prim.name
    fn.__doc__ = f"`{prim.name}` over the static `axes`."
    return fn


reduce_sum = _wrap(reduce_sum_p)
reduce_max = _wrap(reduce_max_p)
reduce_min = _wrap(reduce_min_p)
reduce_prod = _wrap(reduce_prod_p)
reduce_and = _wrap(reduce_and_p)
reduce_or = _wrap(reduce_or_p)


def _index_dtype(index_dtype: Any) -> np.dtype:
    dt = dtypes.canonicalize_dtype(index_dtype)
    if dt.kind not in "iu":
        raise DTypeError(f"index_dtype must be an integer type, but got {dt}")
    return dt


def argmax(operand: Any, axis: int, index_dtype: Any = np.int32) -> Any:
    """Index of the largest element along `axis` (the first one on ties)."""
    return argmax_p.bind(operand, axes=(int(axis),), index_dtype=_index_dtype(index_dtype))


def argmin(operand: Any, axis: int, index_dtype: Any = np.int32) -> Any:
    """Index of the smallest element along `axis` (the first one on ties)."""
    return argmin_p.bind(operand, axes=(int(axis),), index_dtype=_index_dtype(index_dtype))
