"""The built-in ufuncs: `jnp.add`, `jnp.maximum`, `jnp.logical_and`, ... as `jnp.ufunc` objects.

JAX makes fourteen of its elementwise functions `ufunc` instances, so that numpy's methods
work on them (`jnp.add.reduce(x)`, `jnp.multiply.accumulate(x)`, `jnp.add.at(x, i, v,
inplace=False)`, `jnp.add.outer(a, b)`, `jnp.add.reduceat(x, idx)`) and `identity` tells the
neutral element. Here as there, each wraps the plain function (`core.numpy.ufuncs`, which the
rest of the package calls directly) and names the fast paths its methods take: `add.reduce` is
`sum`, `multiply.accumulate` is `cumprod`, `add.at` is `x.at[i].add(v)`, `logaddexp.reduce` is
a `logsumexp`, the bitwise and logical reductions are `lax.reduce_and/or/xor`. A method without
a fast path (`subtract.reduce`, `maximum.accumulate`, every `reduceat`) folds the function with
`lax` control flow (`core.numpy.ufunc_api`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from core import dtypes
from core.lax import composites
from core.numpy import _util
from core.numpy import reductions as red
from core.numpy import ufuncs as uf
from core.numpy._util import broadcast_to, ensure_array, np_dtype, reduction_axes
from core.numpy.logsumexp import logsumexp
from core.numpy.shapes import expand_dims
from core.numpy.ufunc_api import ufunc
from core.numpy.where import where as _where
from core.prims import shapes as sh
from core.trace import get_aval

__all__ = [
    "add",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "logaddexp",
    "logaddexp2",
    "logical_and",
    "logical_or",
    "logical_xor",
    "maximum",
    "minimum",
    "multiply",
    "negative",
    "subtract",
]


def _lax_reduction(name: str, combine, reduce_fn, identity, preprocess):
    """A `reduce` fast path over a `lax` reduction: `preprocess` makes the operand's dtype
    (bool for the logical ufuncs, an integer check for the bitwise ones), masked entries
    become `identity`, and `initial` is combined into the result with `combine`."""

    def reduce(
        a: Any,
        axis: Any = 0,
        dtype: Any = None,
        keepdims: bool = False,
        initial: Any = None,
        where: Any = None,
    ) -> Any:
        a = preprocess(ensure_array(a))
        if dtype is not None:
            a = sh.convert_element_type(a, np_dtype(dtype, "reduce"))
        shape = get_aval(a).shape
        axes = reduction_axes(axis, len(shape))
        if where is not None:
            a = _where(broadcast_to(where, shape), a, identity(get_aval(a).dtype))
        out = reduce_fn(a, axes)
        if initial is not None:
            out = sh.convert_element_type(combine(out, initial), get_aval(out).dtype)
        return expand_dims(out, axes) if keepdims else out

    reduce.__name__ = f"{name}_reduce"
    return reduce


def _to_bool(a: Any) -> Any:
    return _util.astype(a, np.dtype(np.bool_))


def _integer(a: Any) -> Any:
    if get_aval(a).dtype.kind not in "biu":
        raise ValueError(f"integer argument required; got dtype={get_aval(a).dtype}")
    return a


def _all_ones(dt: np.dtype) -> np.ndarray:
    return np.array(-1).astype(dt)


def _zero(dt: np.dtype) -> np.ndarray:
    return np.zeros((), dt)


def _one(dt: np.dtype) -> np.ndarray:
    return np.ones((), dt)


def _logsumexp(
    a: Any,
    axis: Any = 0,
    dtype: Any = None,
    keepdims: bool = False,
    initial: Any = None,
    where: Any = None,
) -> Any:
    """`logaddexp.reduce`: `log(sum(exp(a)))` over `axis`, stably (JAX ignores `dtype` too)."""
    del dtype
    axes = reduction_axes(axis, get_aval(ensure_array(a)).ndim)
    out = logsumexp(a, axis=axes, keepdims=keepdims, where=where)
    return out if initial is None else uf.logaddexp(initial, out)


def _logsumexp2(
    a: Any,
    axis: Any = 0,
    dtype: Any = None,
    keepdims: bool = False,
    initial: Any = None,
    where: Any = None,
) -> Any:
    """`logaddexp2.reduce`: `log2(sum(2 ** a))` over `axis`, through `_logsumexp`."""
    ln2 = math.log(2)
    initial = None if initial is None else uf.multiply(initial, ln2)
    scaled = uf.multiply(ensure_array(a), ln2)
    return uf.divide(_logsumexp(scaled, axis, dtype, keepdims, initial, where), ln2)


def _ufunc_reduction(fn):
    """A `reduce` fast path over a `jnp` reduction (`sum`, `prod`, `max`, `min`), whose default
    axis is the ufunc method's 0 rather than the reduction's None."""

    def reduce(
        a: Any,
        axis: Any = 0,
        dtype: Any = None,
        keepdims: bool = False,
        initial: Any = None,
        where: Any = None,
    ) -> Any:
        return fn(a, axis=axis, dtype=dtype, keepdims=keepdims, initial=initial, where=where)

    return reduce


def _cumulative(fn):
    def accumulate(a: Any, axis: int = 0, dtype: Any = None) -> Any:
        return fn(a, axis=axis, dtype=dtype)

    return accumulate


def _on_bool_as_int(method: str):
    """`x.at[i].add/mul(v)`, booleans counted as int32 and turned back to bool (JAX's rule)."""

    def at(a: Any, indices: Any, b: Any) -> Any:
        a = ensure_array(a)
        if get_aval(a).dtype == np.bool_:
            a = sh.convert_element_type(a, dtypes.int32)
            b = sh.convert_element_type(_to_bool(ensure_array(b)), dtypes.int32)
            return sh.convert_element_type(getattr(a.at[indices], method)(b), np.dtype(np.bool_))
        return getattr(a.at[indices], method)(b)

    return at


def _subtract_at(a: Any, indices: Any, b: Any) -> Any:
    return ensure_array(a).at[indices].subtract(b)


def _binary(fn, identity: Any, **methods: Any) -> ufunc:
    return ufunc(fn, 2, 1, name=fn.__name__, call=fn, identity=identity, **methods)


add = _binary(
    uf.add,
    0,
    reduce=_ufunc_reduction(red.sum),
    accumulate=_cumulative(red.cumsum),
    at=_on_bool_as_int("add"),
)
multiply = _binary(
    uf.multiply,
    1,
    reduce=_ufunc_reduction(red.prod),
    accumulate=_cumulative(red.cumprod),
    at=_on_bool_as_int("multiply"),
)
subtract = _binary(uf.subtract, None, at=_subtract_at)
maximum = _binary(uf.maximum, None, reduce=_ufunc_reduction(red.max_reduction))
minimum = _binary(uf.minimum, None, reduce=_ufunc_reduction(red.min_reduction))
bitwise_and = _binary(
    uf.bitwise_and,
    -1,
    reduce=_lax_reduction(
        "bitwise_and", uf.bitwise_and, composites.reduce_and, _all_ones, _integer
    ),
)
bitwise_or = _binary(
    uf.bitwise_or,
    0,
    reduce=_lax_reduction("bitwise_or", uf.bitwise_or, composites.reduce_or, _zero, _integer),
)
bitwise_xor = _binary(
    uf.bitwise_xor,
    0,
    reduce=_lax_reduction("bitwise_xor", uf.bitwise_xor, composites.reduce_xor, _zero, _integer),
)
logical_and = _binary(
    uf.logical_and,
    True,
    reduce=_lax_reduction("logical_and", uf.logical_and, composites.reduce_and, _one, _to_bool),
)
logical_or = _binary(
    uf.logical_or,
    False,
    reduce=_lax_reduction("logical_or", uf.logical_or, composites.reduce_or, _zero, _to_bool),
)
logical_xor = _binary(
    uf.logical_xor,
    False,
    reduce=_lax_reduction("logical_xor", uf.logical_xor, composites.reduce_xor, _zero, _to_bool),
)
logaddexp = _binary(uf.logaddexp, -np.inf, reduce=_logsumexp)
logaddexp2 = _binary(uf.logaddexp2, -np.inf, reduce=_logsumexp2)
negative = ufunc(uf.negative, 1, 1, name="negative", call=uf.negative)
