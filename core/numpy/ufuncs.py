"""Elementwise functions (`jnp.add`, `jnp.exp`, comparisons, ...) on top of the primitives.

Every binary function promotes its arguments with JAX's rules and broadcasts them explicitly
(`core/numpy/_util.py`), then binds one shape-exact primitive. Functions that only make sense
for inexact values (exp, sin, ...) first promote integers to the default float, as JAX does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core import dtypes
from core.numpy._util import ensure_array, promote_args, promote_args_inexact
from core.prims import elementwise as ew
from core.prims import shapes as sh
from core.trace import get_aval


def _binary(name: str, fn, inexact: bool = False):
    promote = promote_args_inexact if inexact else promote_args

    def op(x: Any, y: Any, /) -> Any:
        return fn(*promote(name, x, y))

    op.__name__ = name
    op.__doc__ = f"Elementwise `{name}` with numpy broadcasting and JAX type promotion."
    return op


def _unary(name: str, fn, inexact: bool = False):
    promote = promote_args_inexact if inexact else promote_args

    def op(x: Any, /) -> Any:
        return fn(*promote(name, x))

    op.__name__ = name
    op.__doc__ = f"Elementwise `{name}`."
    return op


add = _binary("add", ew.add)
subtract = _binary("subtract", ew.sub)
multiply = _binary("multiply", ew.mul)
true_divide = divide = _binary("divide", ew.div, inexact=True)
maximum = _binary("maximum", ew.max)
minimum = _binary("minimum", ew.min)
arctan2 = atan2 = _binary("arctan2", ew.atan2, inexact=True)
equal = _binary("equal", ew.eq)
not_equal = _binary("not_equal", ew.ne)
less = _binary("less", ew.lt)
less_equal = _binary("less_equal", ew.le)
greater = _binary("greater", ew.gt)
greater_equal = _binary("greater_equal", ew.ge)
bitwise_and = _binary("bitwise_and", ew.bitwise_and)
bitwise_or = _binary("bitwise_or", ew.bitwise_or)
bitwise_xor = _binary("bitwise_xor", ew.bitwise_xor)

negative = _unary("negative", ew.neg)
exp = _unary("exp", ew.exp, inexact=True)
exp2 = _unary("exp2", ew.exp2, inexact=True)
log = _unary("log", ew.log, inexact=True)
log1p = _unary("log1p", ew.log1p, inexact=True)
expm1 = _unary("expm1", ew.expm1, inexact=True)
sqrt = _unary("sqrt", ew.sqrt, inexact=True)
cbrt = _unary("cbrt", ew.cbrt, inexact=True)
sin = _unary("sin", ew.sin, inexact=True)
cos = _unary("cos", ew.cos, inexact=True)
tan = _unary("tan", ew.tan, inexact=True)
arcsin = asin = _unary("arcsin", ew.asin, inexact=True)
arccos = acos = _unary("arccos", ew.acos, inexact=True)
arctan = atan = _unary("arctan", ew.atan, inexact=True)
sinh = _unary("sinh", ew.sinh, inexact=True)
cosh = _unary("cosh", ew.cosh, inexact=True)
tanh = _unary("tanh", ew.tanh, inexact=True)
arcsinh = asinh = _unary("arcsinh", ew.asinh, inexact=True)
arccosh = acosh = _unary("arccosh", ew.acosh, inexact=True)
arctanh = atanh = _unary("arctanh", ew.atanh, inexact=True)
isfinite = _unary("isfinite", ew.is_finite, inexact=True)


def positive(x: Any, /) -> Any:
    return ensure_array(x)


def abs(x: Any, /) -> Any:  # noqa: A001
    x = ensure_array(x)
    if get_aval(x).dtype.kind in "bu":
        return x
    return ew.abs(x)


absolute = abs


def sign(x: Any, /) -> Any:
    x = ensure_array(x)
    if get_aval(x).dtype.kind == "u":
        return ew.select_n(ew.eq(x, ew.full_like(x, 0)), ew.full_like(x, 1), ew.full_like(x, 0))
    return ew.sign(x)


def square(x: Any, /) -> Any:
    x = ensure_array(x)
    return ew.integer_pow(x, 2)


def reciprocal(x: Any, /) -> Any:
    (x,) = promote_args_inexact("reciprocal", x)
    return ew.integer_pow(x, -1)


def floor(x: Any, /) -> Any:
    x = ensure_array(x)
    return x if get_aval(x).dtype.kind in "iub" else ew.floor(x)


def ceil(x: Any, /) -> Any:
    x = ensure_array(x)
    return x if get_aval(x).dtype.kind in "iub" else ew.ceil(x)


def power(x: Any, y: Any, /) -> Any:
    """`x ** y`; a concrete integer exponent uses repeated multiplication (exact, like JAX)."""
    if isinstance(y, (int, np.integer)) and not isinstance(y, bool):
        x = ensure_array(x)
        if get_aval(x).dtype.kind in "iu" and y < 0:
            raise ValueError("Integers cannot be raised to negative integer powers.")
        return ew.integer_pow(x, int(y))
    x, y = promote_args("power", x, y)
    if get_aval(x).dtype.kind in "iu":
        return _int_power(x, y)
    return ew.pow(x, y)


def _int_power(x, y):
    # Exponentiation by squaring for integer arrays with array exponents (bounded loop).
    from core.numpy.where import where

    bits = get_aval(y).dtype.itemsize * 8
    acc = ew.full_like(x, 1)
    base = x
    e = y
    for _ in range(bits):
        odd = ew.ne(ew.bitwise_and(e, ew.full_like(e, 1)), ew.full_like(e, 0))
        acc = where(odd, ew.mul(acc, base), acc)
        base = ew.mul(base, base)
        e = ew.shift_right_logical(e, ew.full_like(e, 1))
    return acc


def float_power(x: Any, y: Any, /) -> Any:
    return ew.pow(*promote_args_inexact("float_power", x, y))


def floor_divide(x: Any, y: Any, /) -> Any:
    """Division rounded towards minus infinity (integer or float)."""
    x, y = promote_args("floor_divide", x, y)
    if get_aval(x).dtype.kind in "iu":
        q = ew.div(x, y)
        if get_aval(x).dtype.kind == "u":
            return q
        r = ew.rem(x, y)
        zero = ew.full_like(x, 0)
        fix = ew.bitwise_and(ew.ne(r, zero), ew.ne(ew.lt(r, zero), ew.lt(y, zero)))
        return ew.select_n(fix, q, ew.sub(q, ew.full_like(q, 1)))
    return ew.floor(ew.div(x, y))


def remainder(x: Any, y: Any, /) -> Any:
    """Remainder with the sign of the divisor (numpy's `%`)."""
    x, y = promote_args("remainder", x, y)
    r = ew.rem(x, y)
    if get_aval(x).dtype.kind == "u":
        return r
    zero = ew.full_like(r, 0)
    fix = ew.bitwise_and(ew.ne(r, zero), ew.ne(ew.lt(r, zero), ew.lt(y, zero)))
    return ew.select_n(fix, r, ew.add(r, y))


mod = remainder


def fmod(x: Any, y: Any, /) -> Any:
    return ew.rem(*promote_args("fmod", x, y))


def logical_not(x: Any, /) -> Any:
    x = ensure_array(x)
    return ew.bitwise_not(sh.convert_element_type(x, dtypes.bool_))


def _logical(name, fn):
    def op(x: Any, y: Any, /) -> Any:
        x = sh.convert_element_type(ensure_array(x), dtypes.bool_)
        y = sh.convert_element_type(ensure_array(y), dtypes.bool_)
        return fn(*promote_args(name, x, y))

    op.__name__ = name
    return op


logical_and = _logical("logical_and", ew.bitwise_and)
logical_or = _logical("logical_or", ew.bitwise_or)
logical_xor = _logical("logical_xor", ew.bitwise_xor)


def invert(x: Any, /) -> Any:
    return ew.bitwise_not(ensure_array(x))


bitwise_not = bitwise_invert = invert


def isnan(x: Any, /) -> Any:
    x = ensure_array(x)
    if get_aval(x).dtype.kind not in "fc":
        return sh.full(get_aval(x).shape, False, dtypes.bool_)
    return ew.ne(x, x)


def isinf(x: Any, /) -> Any:
    x = ensure_array(x)
    if get_aval(x).dtype.kind not in "fc":
        return sh.full(get_aval(x).shape, False, dtypes.bool_)
    return ew.eq(ew.abs(x), ew.full_like(x, np.inf))


def logaddexp(x: Any, y: Any, /) -> Any:
    """log(exp(x) + exp(y)), computed stably."""
    x, y = promote_args_inexact("logaddexp", x, y)
    amax = ew.max(x, y)
    delta = ew.sub(x, y)
    safe = ew.select_n(ew.ne(delta, delta), ew.neg(ew.abs(delta)), ew.full_like(delta, np.nan))
    out = ew.add(amax, ew.log1p(ew.exp(safe)))
    return ew.select_n(ew.eq(x, y), out, ew.add(x, ew.full_like(x, np.log(2))))
