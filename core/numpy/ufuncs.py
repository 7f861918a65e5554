"""Elementwise functions (`jnp.add`, `jnp.exp`, comparisons, ...) on top of the primitives.

Every binary function promotes its arguments with JAX's rules and broadcasts them explicitly
(`core/numpy/_util.py`), then binds one shape-exact primitive. Functions that only make sense
for inexact values (exp, sin, ...) first promote integers to the default float, as JAX does.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from core import dtypes
from core.array import Array
from core.committed import renamed
from core.custom_derivatives import custom_jvp
from core.errors import IncompatibleDevicesError
from core.jit.errors import static_hash_error
from core.jit.library import library_jit, staging
from core.lax.composites import conj as lax_conj
from core.numpy._util import (
    alias,
    astype,
    check_arraylike,
    check_no_keys,
    check_not_string,
    ensure_array,
    promote_args,
    promote_args_inexact,
    promote_args_numeric,
)
from core.numpy.where import where
from core.prims import elementwise as ew
from core.prims import shapes as sh
from core.prims.random_bits import bitcast_convert_type
from core.prims.windows import register_monoid
from core.trace import Tracer, get_aval


def _binary(name: str, fn, inexact: bool = False, names: tuple = ("x", "y")):
    promote = promote_args_inexact if inexact else promote_args

    def op(x: Any, y: Any, /) -> Any:
        check_not_string(name, (x, y), names)
        try:
            return fn(*promote(name, x, y, lax_shapes=True))
        except IncompatibleDevicesError as err:  # named as JAX's jitted `jnp` function
            raise renamed(err, name, names) from None

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"Elementwise `{name}` with numpy broadcasting and JAX type promotion."
    return op


def _unary(name: str, fn, inexact: bool = False):
    promote = promote_args_inexact if inexact else promote_args

    def op(x: Any, /) -> Any:
        check_not_string(name, (x,), ("x",))
        return fn(*promote(name, x))

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"Elementwise `{name}`."
    return op


def _logical_on_bool(name: str, fn, bool_fn):
    """`add`/`multiply` of booleans are `or`/`and`, as in numpy and JAX."""

    def op(x: Any, y: Any, /) -> Any:
        check_not_string(name, (x, y), ("x", "y"))
        x, y = promote_args(name, x, y, lax_shapes=True)
        try:
            return (bool_fn if get_aval(x).dtype == np.bool_ else fn)(x, y)
        except IncompatibleDevicesError as err:
            raise renamed(err, name, ("x", "y")) from None

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"Elementwise `{name}` with numpy broadcasting and JAX type promotion."
    return op


add = _logical_on_bool("add", ew.add, ew.bitwise_or)
subtract = _binary("subtract", ew.sub)


def multiply(x: Any, y: Any, /) -> Any:
    """Elementwise `multiply` with numpy broadcasting and JAX type promotion (`and` of
    booleans; complex products rounded as XLA's loops round them: `ew.mul_like_xla`)."""
    check_not_string("multiply", (x, y), ("x", "y"))
    x, y = promote_args("multiply", x, y, lax_shapes=True)
    try:
        if get_aval(x).dtype == np.bool_:
            return ew.bitwise_and(x, y)
        return ew.mul_like_xla(x, y)
    except IncompatibleDevicesError as err:
        raise renamed(err, "multiply", ("x", "y")) from None


def true_divide(x: Any, y: Any, /) -> Any:
    """Elementwise `true_divide` with numpy broadcasting and JAX type promotion (a broadcast
    divisor is inverted once and multiplied, as in XLA: `ew.div_like_xla`)."""
    x1, x2 = promote_args_inexact("true_divide", x, y, lax_shapes=True)
    try:
        # (the divisor's own shape; a `__jax_array__` value's is its array's)
        y_shape = np.shape(y.__jax_array__() if hasattr(y, "__jax_array__") else y)
        return ew.div_like_xla(x1, x2, y_shape)
    except IncompatibleDevicesError as err:
        raise renamed(err, "true_divide", ("x1", "x2")) from None


divide = alias(true_divide, "divide")
maximum = _binary("maximum", ew.max)
minimum = _binary("minimum", ew.min)
# lax.reduce_window runs these as its sum/max/min primitives
register_monoid(add, "sum")
register_monoid(maximum, "max")
register_monoid(minimum, "min")


@library_jit
def clip(arr: Any = None, /, min: Any = None, max: Any = None) -> Any:
    """Clips values to [min, max] (either bound may be None). JAX 0.10.2's signature: the
    deprecated `a`, `a_min` and `a_max` keywords are gone (a `TypeError`, as JAX's)."""
    check_arraylike("clip", arr)
    x = ensure_array(arr)
    if any(
        v is not None and dtypes.kind(dtypes.dtype_and_weak(v)[0]) == "c" for v in (x, min, max)
    ):
        raise ValueError(
            "Clip received a complex value either through the input or the min/max "
            "keywords. Complex values have no ordering and cannot be clipped. "
            "Please convert to a real value or array by taking the real or "
            "imaginary components via jax.numpy.real/imag respectively."
        )
    if min is not None:
        x = maximum(min, x)
    if max is not None:
        x = minimum(max, x)
    return x


arctan2 = _binary("arctan2", ew.atan2, inexact=True, names=("x1", "x2"))


def atan2(x1: Any, x2: Any, /) -> Any:
    """`arctan2` of the operands promoted to their common dtype first, as JAX's alias: a
    negative Python int beside an unsigned array wraps (`atan2(uint8, -2)` divides by 254)."""
    return arctan2(*promote_args("atan2", x1, x2, lax_shapes=True))


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
arcsin = _unary("arcsin", ew.asin, inexact=True)
asin = _unary("asin", ew.asin, inexact=True)
arccos = _unary("arccos", ew.acos, inexact=True)
acos = _unary("acos", ew.acos, inexact=True)
arctan = _unary("arctan", ew.atan, inexact=True)
atan = _unary("atan", ew.atan, inexact=True)
sinh = _unary("sinh", ew.sinh, inexact=True)
cosh = _unary("cosh", ew.cosh, inexact=True)
tanh = _unary("tanh", ew.tanh, inexact=True)
arcsinh = _unary("arcsinh", ew.asinh, inexact=True)
asinh = _unary("asinh", ew.asinh, inexact=True)
arccosh = _unary("arccosh", ew.acosh, inexact=True)
acosh = _unary("acosh", ew.acosh, inexact=True)
arctanh = _unary("arctanh", ew.atanh, inexact=True)
atanh = _unary("atanh", ew.atanh, inexact=True)


def isfinite(x: Any, /) -> Any:
    """Whether each element is finite (integers and bools all are: a strongly typed True, as
    JAX's)."""
    check_not_string("isfinite", (x,), ("x",))
    check_arraylike("isfinite", x)
    x = ensure_array(x)
    aval = get_aval(x)
    if dtypes.kind(aval.dtype) not in "fc":
        return sh.full(aval.shape, True, dtypes.bool_)
    return ew.is_finite(x)


def positive(x: Any, /) -> Any:
    check_not_string("positive", (x,), ("x",))
    check_arraylike("positive", x)
    return ensure_array(x)


def abs(x: Any, /) -> Any:  # noqa: A001
    """`|x|`; the modulus, of the real dtype, for complex `x` (as in JAX)."""
    check_not_string("abs", (x,), ("x",))
    check_arraylike("absolute", x)
    x = ensure_array(x)
    kind = dtypes.kind(get_aval(x).dtype)
    if kind in "bu":
        return x
    if kind == "c":
        return _scaled_norm(real(x), imag(x), zero_slope=True)
    return ew.abs(x)


absolute = alias(abs, "absolute")


def sign(x: Any, /) -> Any:
    check_not_string("sign", (x,), ("x",))
    check_arraylike("sign", x)
    x = ensure_array(x)
    if dtypes.kind(get_aval(x).dtype) == "u":
        return ew.select_n(ew.eq(x, ew.full_like(x, 0)), ew.full_like(x, 1), ew.full_like(x, 0))
    return ew.sign(x)


def square(x: Any, /) -> Any:
    check_not_string("square", (x,), ("x",))
    check_arraylike("square", x)
    x = ensure_array(x)
    if get_aval(x).dtype == dtypes.bool_:
        x = sh.convert_element_type(x, dtypes.default_int())
    return ew.square(x)


def reciprocal(x: Any, /) -> Any:
    check_not_string("reciprocal", (x,), ("x",))
    (x,) = promote_args_inexact("reciprocal", x)
    return ew.integer_pow(x, -1)


def floor(x: Any, /) -> Any:
    check_not_string("floor", (x,), ("x",))
    check_arraylike("floor", x)
    x = ensure_array(x)
    return x if dtypes.kind(get_aval(x).dtype) in "iub" else ew.floor(x)


def ceil(x: Any, /) -> Any:
    check_not_string("ceil", (x,), ("x",))
    check_arraylike("ceil", x)
    x = ensure_array(x)
    return x if dtypes.kind(get_aval(x).dtype) in "iub" else ew.ceil(x)


def power(x: Any, y: Any, /) -> Any:
    """`x ** y`; a concrete integer exponent (a Python int or a concrete integer scalar array,
    as JAX's `operator.index` test) uses repeated multiplication, like JAX."""
    if type(getattr(y, "dtype", None)) is dtypes.KeyDType:
        check_no_keys("power", x, y)
    n = _concrete_index(y)
    if n is not None:
        (x,) = promote_args_numeric("power", x)
        if dtypes.kind(get_aval(x).dtype) in "biu" and n < 0:
            aval = get_aval(x)
            if aval.dtype == dtypes.bool_:  # JAX's integer_pow sees bools as default ints
                aval = aval.update(dtype=dtypes.default_int())
            raise TypeError(
                f"Integers cannot be raised to negative powers, got integer_pow({aval}, {n})"
            )
        return ew.integer_pow(x, n)
    xa, ya = get_aval(ensure_array(x)), get_aval(ensure_array(y))
    if dtypes.kind(xa.dtype) in "fc" and dtypes.kind(ya.dtype) in "iu":
        x, y = promote_args("power", x, y)
        out = ew.pow_integer_exponent(x, y)
        if xa.weak_type and ya.weak_type:
            return out
        # JAX's lax.pow(x, y) on the unpromoted operands: weak only if both are
        return sh.convert_element_type(out, get_aval(out).dtype)
    if dtypes.kind(dtypes.result_type(x, y)) in "biu":
        return _int_power(*promote_args_numeric("power", x, y))
    return ew.pow(*promote_args_numeric("power", x, y, lax_shapes=True))


def _concrete_index(y: Any) -> int | None:
    if isinstance(y, Tracer):
        return None
    try:
        return operator.index(y)
    except TypeError:
        return None


def _int_power(x, y):
    """JAX's integer power: square-and-multiply over the exponent's low 6 bits (any larger
    exponent overflows for |x| > 1; negative exponents use their two's-complement bits)."""
    one, zero = ew.full_like(y, 1), ew.full_like(y, 0)
    acc = where(ew.bitwise_and(ew.eq(x, ew.full_like(x, 0)), ew.ne(y, zero)), 0, 1)
    acc = sh.convert_element_type(acc, get_aval(x).dtype)
    for _ in range(6):
        acc = where(ew.ne(ew.bitwise_and(y, one), zero), ew.mul(acc, x), acc)
        x = ew.mul(x, x)
        y = ew.shift_right_logical(y, one)
    return acc


def float_power(x: Any, y: Any, /) -> Any:
    return ew.pow(*promote_args_inexact("float_power", x, y, lax_shapes=True))


@library_jit
def floor_divide(x: Any, y: Any, /) -> Any:
    """Division rounded towards minus infinity (integer or float); bools divide as ints."""
    x, y = promote_args_numeric("floor_divide", x, y, lax_shapes=True)
    kind = dtypes.kind(get_aval(x).dtype)
    if kind == "c":
        raise TypeError("floor_divide does not support complex-valued inputs")
    if kind in "iu":
        q = ew.div(x, y)
        if kind == "u":
            return q
        fix = ew.bitwise_and(ew.ne(ew.sign(x), ew.sign(y)), ew.ne(ew.rem(x, y), _rank0_like(x)))
        return where(fix, ew.sub(q, _rank0_like(q, 1)), q)
    return _float_divmod(x, y)[0]


def _rank0_like(x: Any, value: int = 0) -> Any:
    """A rank-0 `value` of `x`'s dtype and weak type (a literal when staged: JAX's
    `_constant_like(x, 0)`, or the Python scalar of `x - 1`)."""
    return ew.full_like(x, value, shape=())


def _float_divmod(x: Any, y: Any) -> tuple[Any, Any]:
    """JAX's float `(x // y, x % y)` (CPython's float_divmod): the quotient of `x - fmod(x, y)`
    corrected towards minus infinity, then rounded; so inf // y and x // 0 give NaN or +-inf
    as in JAX, not numpy's `floor(x / y)`."""
    mod = ew.rem(x, y)
    div = ew.div(where(ew.eq(y, _rank0_like(y)), x, ew.sub(x, mod)), y)
    fix = ew.bitwise_and(ew.ne(mod, _rank0_like(mod)), ew.ne(ew.sign(y), ew.sign(mod)))
    mod = ew.select_n(fix, mod, ew.add(mod, y))
    div = ew.select_n(fix, div, ew.sub(div, _rank0_like(div, 1)))
    return ew.round(div), mod


def _nonzero_divisor(y: Any) -> Any:
    """Integer divisors with 0 replaced by 1 (JAX's `%` and `fmod` give 0 there)."""
    if dtypes.kind(get_aval(y).dtype) not in "iu":
        return y
    return where(ew.eq(y, _rank0_like(y)), ew.full_like(y, 1), y)


@library_jit
def remainder(x: Any, y: Any, /) -> Any:
    """Remainder with the sign of the divisor (numpy's `%`)."""
    x, y = promote_args_numeric("remainder", x, y, lax_shapes=True)
    y = _nonzero_divisor(y)
    r = ew.rem(x, y)
    if dtypes.kind(get_aval(x).dtype) == "u":
        return r
    zero = _rank0_like(r)
    nonzero = ew.ne(r, zero)
    fix = ew.bitwise_and(ew.ne(ew.lt(r, zero), ew.lt(y, zero)), nonzero)
    return ew.select_n(fix, r, ew.add(r, y))


mod = alias(remainder, "mod")


def fmod(x: Any, y: Any, /) -> Any:
    """Remainder with the sign of the dividend (C's `%`): an integer divisor 0 counts as 1
    (remainder 0); booleans are not integers there, so `fmod(True, False)` is lax.rem's
    `1 % 0 == 1`, as in JAX."""
    check_arraylike("fmod", x, y)
    integer = dtypes.kind(dtypes.result_type(x, y)) in "iu"
    x, y = promote_args_numeric("fmod", x, y, lax_shapes=True)
    return ew.rem(x, _nonzero_divisor(y) if integer else y)


def logical_not(x: Any, /) -> Any:
    check_not_string("logical_not", (x,), ("x",))
    check_arraylike("logical_not", x)
    x = ensure_array(x)
    return ew.bitwise_not(astype(x, dtypes.bool_, get_aval(x).weak_type))


def _logical(name, fn):
    def op(x: Any, y: Any, /) -> Any:
        check_arraylike(name, x, y)
        x, y = promote_args(name, x, y, lax_shapes=True)
        # As JAX's `x != 0`, whose 0 is weak only beside a weak scalar: weak for two Python
        # numbers (not two bools: booleans are never weak), strong beside an array.
        aval = get_aval(x)
        scalars = aval.ndim == 0 and get_aval(y).ndim == 0  # (not broadcast: lax_shapes)
        weak = aval.weak_type and aval.dtype != dtypes.bool_ and scalars
        return fn(astype(x, dtypes.bool_, weak), astype(y, dtypes.bool_, weak))

    op.__name__ = op.__qualname__ = name
    return op


logical_and = _logical("logical_and", ew.bitwise_and)
logical_or = _logical("logical_or", ew.bitwise_or)
logical_xor = _logical("logical_xor", ew.bitwise_xor)


def _invert(name: str):
    def op(x: Any, /) -> Any:
        check_arraylike(name, x)
        return ew.bitwise_not(ensure_array(x))

    op.__name__ = op.__qualname__ = name
    op.__doc__ = "Elementwise bitwise NOT (logical NOT for booleans)."
    return op


invert, bitwise_not, bitwise_invert = map(_invert, ["invert", "bitwise_not", "bitwise_invert"])


def isnan(x: Any, /) -> Any:
    check_not_string("isnan", (x,), ("x",))
    check_arraylike("isnan", x)
    x = ensure_array(x)
    aval = get_aval(x)
    if dtypes.kind(aval.dtype) not in "fc":
        return sh.full(aval.shape, False, dtypes.bool_, aval.weak_type)
    return ew.ne(x, x)


def isinf(x: Any, /) -> Any:
    check_not_string("isinf", (x,), ("x",))
    check_arraylike("isinf", x)
    x = ensure_array(x)
    if dtypes.kind(get_aval(x).dtype) not in "fc":
        return sh.full(get_aval(x).shape, False, dtypes.bool_)
    if dtypes.kind(get_aval(x).dtype) == "c":  # either part infinite (|nan+inf j| is nan)
        return ew.bitwise_or(isinf(ew.real_p.bind(x)), isinf(ew.imag_p.bind(x)))
    return ew.eq(ew.abs(x), ew.full_like(x, np.inf, get_aval(x).dtype))


def _log_add(base: str):
    """`log_b(b**x1 + b**x2)` for b = e or 2, as JAX's: a `custom_jvp` whose tangent is
    `t1 * b**(x1 - out) + t2 * b**(x2 - out)`, so equal operands share the derivative (1/2
    each) instead of one branch taking it all; infinities of the same sign give that infinity."""
    power = ew.exp if base == "e" else ew.exp2
    scale = 1.0 if base == "e" else 1 / np.log(2)
    period = np.pi * scale

    def scaled_log1p(z):
        return ew.log1p(z) if base == "e" else ew.mul(ew.full_like(z, scale, shape=()), ew.log1p(z))

    def fn(x1, x2):
        amax = ew.max(x1, x2)
        if dtypes.kind(get_aval(x1).dtype) == "c":
            two = ew.full_like(amax, 2)
            out = ew.add(amax, scaled_log1p(power(ew.sub(ew.add(x1, x2), ew.mul(amax, two)))))
            half = ew.full_like(imag(out), period)
            turns = ew.rem(ew.add(imag(out), half), ew.add(half, half))
            turns = ew.select_n(
                ew.lt(turns, ew.full_like(turns, 0)), turns, ew.add(turns, ew.add(half, half))
            )
            return ew.complex_p.bind(real(out), ew.sub(turns, half))
        delta = ew.sub(x1, x2)
        same_infs = ew.ne(delta, delta)  # nan: NaNs or infinities of the same sign
        both = ew.add(x1, x2)
        return ew.select_n(
            same_infs, ew.add(amax, scaled_log1p(power(ew.neg(ew.abs(delta))))), both
        )

    fn.__name__ = fn.__qualname__ = "logaddexp" if base == "e" else "logaddexp2"
    fn = custom_jvp(fn)

    def finite(x):
        re = real(x)
        return ew.select_n(ew.eq(re, ew.full_like(re, np.inf)), x, ew.full_like(x, 0))

    def jvp(primals, tangents):
        (x1, x2), (t1, t2) = primals, tangents
        out = fn(x1, x2)
        d1 = ew.mul(t1, power(ew.sub(finite(x1), finite(out))))
        return out, ew.add(d1, ew.mul(t2, power(ew.sub(finite(x2), finite(out)))))

    jvp.__name__ = jvp.__qualname__ = f"_{fn.__name__}_jvp"  # JAX's names, as printed
    fn.defjvp(jvp)
    return fn


_logaddexp, _logaddexp2 = _log_add("e"), _log_add("2")


def logaddexp(x: Any, y: Any, /) -> Any:
    """`log(exp(x) + exp(y))`, computed stably, with JAX's derivative (1/2 each where x == y).

    Args:
      x: an array or scalar.
      y: an array or scalar, broadcasting with `x`.

    Returns:
      The elementwise result, of the inexact promoted dtype.
    """
    out = _logaddexp(*promote_args_inexact("logaddexp", x, y, lax_shapes=True))
    # JAX's complex formula multiplies by a constant 2 (see `_weak_if_all`).
    return _weak_if_all(out, x, y) if dtypes.kind(get_aval(out).dtype) == "c" else out


def _weak_if_all(out: Any, *args: Any) -> Any:
    """`out`, weakly typed only if every argument is: JAX's result where its formula combines
    the promoted operands with a `lax._const` (a strongly typed int8 array and a Python float
    give a weak float32 sum but a strong logaddexp2 or hypot; Python scalars give weak results
    where the promotion does: True and 3 a weak one, True and False a strong one)."""
    weak = get_aval(out).weak_type and all(
        type(a) is bool or dtypes.dtype_and_weak(a)[1] for a in args
    )
    return sh.convert_element_type(out, get_aval(out).dtype, weak)


# ---------------------------------------------------------------------------------------------
# Rounding, sign bits and friends (compositions of the primitives above)


@library_jit(static_argnames="decimals")
def round(a: Any, decimals: int = 0, out: Any = None) -> Any:  # noqa: A001
    """Rounds half to even, to `decimals` places (integers with decimals >= 0 are unchanged)."""
    check_arraylike("round", a)
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.round is not supported.")
    if isinstance(decimals, (Array, Tracer)):  # JAX's decimals is a static argument of its jit
        raise static_hash_error(decimals, round)
    decimals = operator.index(decimals)
    a = ensure_array(a)
    dt = get_aval(a).dtype
    if dt == dtypes.bool_:  # JAX's error
        raise ValueError(f"data type {np.bool_} not inexact")
    if dtypes.kind(dt) in "iu":
        if decimals >= 0:
            return a
        raise NotImplementedError(
            "integer np.round not implemented for decimals < 0\n"
            "Round a float copy: jnp.round(x.astype(jnp.float32), decimals).astype(x.dtype)."
        )
    if dtypes.kind(dt) == "c":  # the parts apart, as JAX (a complex product mixes infinities)
        parts = (round(ew.real_p.bind(a), decimals), round(ew.imag_p.bind(a), decimals))
        return ew.complex_p.bind(*parts)
    if decimals == 0:
        return ew.round(a, 1)
    if decimals > np.log10(float(dtypes.finfo(dt).max)):  # JAX: beyond the precision, a no-op
        return a
    if dt == dtypes.float16:  # scaled in float32, as JAX does (bfloat16 is scaled as itself)
        wide = round(sh.convert_element_type(a, dtypes.float32), decimals)
        return sh.convert_element_type(wide, dt)
    factor = ew.full_like(a, 10.0**decimals)
    # XLA divides by the constant factor as a product with its reciprocal (JAX's last bits)
    out = ew.div_like_xla(ew.round(ew.mul(a, factor), 1), factor, None)
    if get_aval(a).weak_type and get_aval(a).ndim:  # JAX: only a scalar stays weak
        out = sh.convert_element_type(out, dt)
    return out


@library_jit(static_argnames="decimals")
def around(a: Any, decimals: int = 0, out: Any = None) -> Any:
    """`round` (JAX's alias, jitted of its own)."""
    return round(a, decimals, out)


def rint(x: Any, /) -> Any:
    """Rounds to the nearest integer, half to even (integers become floats, as in JAX)."""
    check_not_string("rint", (x,), ("x",))
    check_arraylike("rint", x)
    x = ensure_array(x)
    if dtypes.kind(get_aval(x).dtype) in "biu":  # strongly typed, as JAX's
        return sh.convert_element_type(x, dtypes.default_float())
    (x,) = promote_args_inexact("rint", x)
    return ew.round(x, 1)


@library_jit
def trunc(x: Any) -> Any:
    """Rounds towards zero."""
    check_not_string("trunc", (x,), ("x",))
    check_arraylike("trunc", x)
    x = ensure_array(x)
    kind = dtypes.kind(get_aval(x).dtype)
    if kind in "iub":
        return x
    if kind == "c":  # JAX's trunc compares with zero first
        ew.reject_dtype("lt", get_aval(x).dtype, "iufb", 0)
    return ew.select_n(ew.lt(x, ew.full_like(x, 0)), ew.floor(x), ew.ceil(x))


def signbit(x: Any, /) -> Any:
    """True where the sign bit is set (also for -0.0)."""
    check_not_string("signbit", (x,), ("x",))
    check_arraylike("signbit", x)
    x = ensure_array(x)
    dt = get_aval(x).dtype
    if dtypes.kind(dt) == "c":
        raise ValueError(f"jax.numpy.signbit is not well defined for {dt}")
    if dtypes.kind(dt) in "ub":
        return sh.full(get_aval(x).shape, False, dtypes.bool_)
    if dtypes.kind(dt) == "f":  # the sign bit itself: -0.0 and -nan count, as in JAX
        x = bitcast_convert_type(x, np.dtype(f"i{dt.itemsize}"))
    return ew.lt(x, ew.full_like(x, 0, get_aval(x).dtype))


def copysign(x1: Any, x2: Any, /) -> Any:
    """`|x1|` with the sign of `x2`."""
    x1, x2 = promote_args_inexact("copysign", x1, x2)
    if dtypes.kind(get_aval(x1).dtype) == "c":
        raise TypeError("copysign does not support complex-valued inputs")
    mag = ew.abs(x1)
    return ew.select_n(signbit(x2), mag, ew.neg(mag))


def heaviside(x1: Any, x2: Any, /) -> Any:
    """0 where x1 < 0, `x2` where x1 == 0, 1 where x1 > 0."""
    x1_in = x1
    x1, x2 = promote_args_inexact("heaviside", x1, x2, rank_name="")  # JAX: no rank check
    if dtypes.kind(get_aval(x1).dtype) == "c":  # JAX compares with zero first
        ew.reject_dtype("lt", get_aval(x1).dtype, "iufb", 0)
    # JAX's constants (lax._const of x1, before broadcasting) are weak only for a weak 0-d x1,
    # so a weak array's or a strongly typed x1's result is strongly typed
    weak_const = (type(x1_in) is bool or dtypes.dtype_and_weak(x1_in)[1]) and np.ndim(x1_in) == 0
    dt = None if weak_const else get_aval(x1).dtype
    zero, one = ew.full_like(x1, 0, dt), ew.full_like(x1, 1, dt)
    at_zero = ew.select_n(ew.ne(x1, x1), x2, x1)  # NaN stays NaN, as in JAX
    return ew.select_n(ew.lt(x1, zero), ew.select_n(ew.gt(x1, zero), at_zero, one), zero)


def hypot(x1: Any, x2: Any, /) -> Any:
    """`sqrt(x1**2 + x2**2)`, scaled to avoid overflow."""
    args = x1, x2
    x1, x2 = promote_args_inexact("hypot", x1, x2)
    if dtypes.kind(get_aval(x1).dtype) == "c":
        raise ValueError(
            "jnp.hypot is not well defined for complex-valued inputs. Please convert to real "
            "values first, such as by using abs(x)"
        )
    return _weak_if_all(_scaled_norm(x1, x2, zero_slope=False), *args)


def _scaled_norm(x1: Any, x2: Any, zero_slope: bool) -> Any:
    """`sqrt(x1**2 + x2**2)` as JAX's hypot: `big * sqrt(1 + (small/big)**2)`, inf if either is.

    At (0, 0) the value is `big` itself, so the gradient is JAX's hypot one (1/2 to each
    operand); `zero_slope` makes it 0 instead, the gradient of the complex modulus at 0, whose
    value is XLA's: NaN if either part is NaN (|nan + inf j| is nan, `hypot(nan, inf)` inf)."""
    a, b = ew.abs(x1), ew.abs(x2)
    big, small = ew.max(a, b), ew.min(a, b)
    zero = ew.eq(big, ew.full_like(big, 0))
    safe = ew.select_n(zero, big, ew.full_like(big, 1))
    ratio = ew.div(small, safe)
    out = ew.mul(big, ew.sqrt(ew.add(ew.full_like(ratio, 1), ew.mul(ratio, ratio))))
    out = ew.select_n(zero, out, ew.full_like(out, 0) if zero_slope else big)
    inf = ew.full_like(out, np.inf)
    infinite = ew.eq(big, inf) if zero_slope else ew.bitwise_or(ew.eq(a, inf), ew.eq(b, inf))
    return ew.select_n(infinite, out, inf)


def _scale_log_parts(x: Any, scale) -> Any:
    """`scale` applied to the real and imaginary parts of `log(x)` separately (JAX's complex
    log2/log10: log(0) stays -inf+0j, where a complex division would give a NaN part)."""
    r = ew.log(x)
    re, im = ew.real_p.bind(r), ew.imag_p.bind(r)
    out = ew.complex_p.bind(scale(re), scale(im))
    return sh.convert_element_type(out, get_aval(out).dtype)  # JAX's constant is strong


def log2(x: Any, /) -> Any:
    """`log(x) / log(2)` (JAX's jaxpr); computed eagerly as `log(x) * (1 / log(2))`, the product
    XLA's simplifier makes of JAX's jitted division (and numbax's `jit` of the staged one), so
    eager results are JAX's bits too (bfloat16, which XLA computes with excess precision,
    divides)."""
    check_not_string("log2", (x,), ("x",))
    (x,) = promote_args_inexact("log2", x)
    if dtypes.kind(get_aval(x).dtype) == "c":
        if staging():  # JAX's jaxpr divides the parts by log(2)
            return _scale_log_parts(x, lambda p: ew.div(p, ew.log(ew.full_like(p, 2))))
        # eagerly the product XLA's simplifier makes of it, as for real x (last bits)
        return _scale_log_parts(x, lambda p: ew.mul(p, ew.full_like(p, 1 / np.log(2))))
    if staging() or get_aval(x).dtype == dtypes.bfloat16:
        out = ew.div(ew.log(x), ew.full_like(x, np.log(2)))
    else:
        out = ew.mul(ew.log(x), ew.full_like(x, 1 / np.log(2)))
    return sh.convert_element_type(out, get_aval(out).dtype)  # JAX's divisor is strongly typed


def log10(x: Any, /) -> Any:
    """`log(x) * (1 / log(10))`, a product as in JAX (not a division by log(10))."""
    check_not_string("log10", (x,), ("x",))
    (x,) = promote_args_inexact("log10", x)
    if dtypes.kind(get_aval(x).dtype) == "c":
        return _scale_log_parts(x, lambda p: ew.mul(p, ew.full_like(p, 0.4342944819032518)))
    out = ew.mul(ew.log(x), ew.full_like(x, 0.4342944819032518))  # exactly 1 / log(10)
    return sh.convert_element_type(out, get_aval(out).dtype)  # JAX's factor is strongly typed


def deg2rad(x: Any, /) -> Any:
    check_not_string("deg2rad", (x,), ("x",))
    (x,) = promote_args_inexact("deg2rad", x)
    return ew.mul(x, ew.full_like(x, np.pi / 180))


def rad2deg(x: Any, /) -> Any:
    check_not_string("rad2deg", (x,), ("x",))
    (x,) = promote_args_inexact("rad2deg", x)
    return ew.mul(x, ew.full_like(x, 180 / np.pi))


radians, degrees = alias(deg2rad, "radians"), alias(rad2deg, "degrees")


def logaddexp2(x1: Any, x2: Any, /) -> Any:
    """`log2(2**x1 + 2**x2)`, computed stably, with JAX's derivative (1/2 each where equal).

    Args:
      x1: an array or scalar.
      x2: an array or scalar, broadcasting with `x1`.

    Returns:
      The elementwise result, of the inexact promoted dtype.
    """
    return _weak_if_all(
        _logaddexp2(*promote_args_inexact("logaddexp2", x1, x2, lax_shapes=True)), x1, x2
    )


def _sinc_maclaurin(k: int, x: Any) -> Any:
    """The k-th derivative of `sin(y)/y` at y = 0, in the shape of `x`: its jvp is the next
    derivative times the tangent, so every derivative of `sinc` at 0 is exact (as JAX's)."""
    value = 0.0 if k % 2 else (-1) ** (k // 2) / (k + 1)
    return ew.add(ew.mul(x, ew.full_like(x, 0)), ew.full_like(x, value))


_sinc_maclaurin = custom_jvp(_sinc_maclaurin, nondiff_argnums=(0,))


@_sinc_maclaurin.defjvp
def _sinc_maclaurin_jvp(k: int, primals: tuple, tangents: tuple) -> tuple[Any, Any]:
    (x,), (t,) = primals, tangents
    return _sinc_maclaurin(k, x), ew.mul(_sinc_maclaurin(k + 1, x), t)


def sinc(x: Any, /) -> Any:
    """`sin(pi x) / (pi x)`, 1 at 0 (where its derivatives come from the Maclaurin series)."""
    (x,) = promote_args_inexact("sinc", x)
    zero = ew.eq(x, ew.full_like(x, 0))
    pi_x = ew.mul(ew.full_like(x, np.pi), x)
    safe = ew.select_n(zero, pi_x, ew.full_like(x, 1))
    return ew.select_n(zero, ew.div(ew.sin(safe), safe), _sinc_maclaurin(0, pi_x))


@library_jit
def fmax(x1: Any, x2: Any) -> Any:
    """Elementwise maximum that ignores NaNs."""
    # JAX's fmax is a `where` of `greater`: its name, gt's shape error, then `where` broadcasts
    x1, x2 = promote_args("greater", x1, x2, lax_shapes=True)
    return where(ew.bitwise_or(ew.gt(x1, x2), isnan(x2)), x1, x2)


@library_jit
def fmin(x1: Any, x2: Any) -> Any:
    """Elementwise minimum that ignores NaNs."""
    # JAX's fmin is a `where` of `less`: its name, lt's shape error, then `where` broadcasts
    x1, x2 = promote_args("less", x1, x2, lax_shapes=True)
    return where(ew.bitwise_or(ew.lt(x1, x2), isnan(x2)), x1, x2)


def isposinf(x: Any, /, out: Any = None) -> Any:
    """Whether each element of `x` is inf (False for integers and booleans; `out` must be
    None, as in JAX)."""
    return _is_signed_inf("isposinf", x, out, np.inf)


def isneginf(x: Any, /, out: Any = None) -> Any:
    """Whether each element of `x` is -inf (as `isposinf`)."""
    return _is_signed_inf("isneginf", x, out, -np.inf)


def _is_signed_inf(name: str, x: Any, out: Any, inf: float) -> Any:
    if out is not None:
        raise NotImplementedError("The 'out' argument to isneginf/isposinf is not supported.")
    check_arraylike(name, x)
    x = ensure_array(x)
    if dtypes.kind(get_aval(x).dtype) == "c":
        raise ValueError("isposinf/isneginf are not well defined for complex types")
    if dtypes.kind(get_aval(x).dtype) != "f":
        return sh.full(get_aval(x).shape, False, dtypes.bool_)
    return ew.eq(x, np.asarray(inf, get_aval(x).dtype)[()])


@library_jit
def nan_to_num(
    x: Any,
    copy: bool = True,
    nan: float = 0.0,
    posinf: float | None = None,
    neginf: float | None = None,
) -> Any:
    """Replaces NaN by `nan` and infinities by `posinf`/`neginf` (the dtype's extremes)."""
    check_arraylike("nan_to_num", x)
    x = ensure_array(x)
    dt = get_aval(x).dtype
    if dtypes.kind(dt) not in "fc":
        return x
    if dtypes.kind(dt) == "c":  # each part on its own, as JAX's
        parts = (nan_to_num(p, copy, nan, posinf, neginf) for p in (real(x), imag(x)))
        return ew.complex_p.bind(*parts)
    info = dtypes.finfo(dt)
    hi = info.max if posinf is None else posinf
    lo = info.min if neginf is None else neginf
    x = where(isnan(x), sh.convert_element_type(ensure_array(nan), dt), x)  # strong, as JAX's
    x = where(isposinf(x), sh.convert_element_type(ensure_array(hi), dt), x)
    return where(isneginf(x), sh.convert_element_type(ensure_array(lo), dt), x)


def divmod(x1: Any, x2: Any, /) -> tuple[Any, Any]:  # noqa: A001
    """`(x1 // x2, x1 % x2)`."""
    x1, x2 = promote_args_numeric("divmod", x1, x2, lax_shapes=True)
    if dtypes.kind(get_aval(x1).dtype) in "fc":  # complex: lax.rem's error, as in JAX
        return _float_divmod(x1, x2)
    return floor_divide(x1, x2), remainder(x1, x2)


def modf(x: Any, /, out: Any = None) -> tuple[Any, Any]:
    """Fractional and integral parts (both with the sign of x)."""
    (x,) = promote_args_inexact("modf", x)
    if dtypes.kind(get_aval(x).dtype) == "c":  # JAX's modf compares with zero by `ge`
        ew.reject_dtype("ge", get_aval(x).dtype, "iufb", 0)
    whole = trunc(x)
    return ew.sub(x, whole), whole


def _left_shift(name: str):
    def op(x1: Any, x2: Any, /) -> Any:
        return ew.shift_left(*promote_args_numeric(name, x1, x2, lax_shapes=True))

    op.__name__ = op.__qualname__ = name
    op.__doc__ = "Elementwise `x1 << x2`."
    return op


left_shift, bitwise_left_shift = _left_shift("left_shift"), _left_shift("bitwise_left_shift")


def right_shift(x1: Any, x2: Any, /) -> Any:
    """Arithmetic shift for signed integers, logical for unsigned ones (numpy's `>>`)."""
    x1, x2 = promote_args_numeric("right_shift", x1, x2, lax_shapes=True)
    if dtypes.kind(get_aval(x1).dtype) == "u":
        return ew.shift_right_logical(x1, x2)
    return ew.shift_right_arithmetic(x1, x2)


bitwise_right_shift = alias(right_shift, "bitwise_right_shift")


def real(val: Any, /) -> Any:
    """The real part (`val` itself for real dtypes; float32 from complex64, as in JAX).

    Uses the `real` primitive, so a NaN or infinity in the imaginary part stays there.
    """
    check_arraylike("real", val)
    x = ensure_array(val)
    return ew.real_p.bind(x) if dtypes.kind(get_aval(x).dtype) == "c" else x


def imag(val: Any, /) -> Any:
    """The imaginary part (zeros of `val`'s dtype for real dtypes, as in JAX)."""
    check_arraylike("imag", val)
    x = ensure_array(val)
    return ew.imag_p.bind(x) if dtypes.kind(get_aval(x).dtype) == "c" else ew.full_like(x, 0)


def conjugate(x: Any, /) -> Any:
    """The complex conjugate (`x` itself for real dtypes, as in JAX's `jnp.conjugate`).

    `lax.conj` (rebuilt from its parts, so a NaN or infinity in one part never reaches the
    other), whose transpose is the conjugate: a weak cotangent stays weak, as in JAX.
    """
    check_arraylike("conjugate", x)
    x = ensure_array(x)
    if dtypes.kind(get_aval(x).dtype) != "c":
        return x
    return lax_conj(x)


conj = alias(conjugate, "conj")


@library_jit(static_argnames=("equal_nan",))
def isclose(a: Any, b: Any, rtol: Any = 1e-05, atol: Any = 1e-08, equal_nan: bool = False) -> Any:
    """`|a - b| <= atol + rtol * |b|` elementwise (integers compared as floats, as in JAX);
    infinities must match exactly."""
    a, b = promote_args("isclose", a, b, lax_shapes=True)
    if dtypes.issubdtype(get_aval(a).dtype, dtypes.extended):  # key arrays: equality, as JAX
        return equal(a, b)
    a, b = promote_args_inexact("isclose", a, b, lax_shapes=True)
    dt = dtypes.finfo(get_aval(a).dtype).dtype  # the tolerances' (|b| is real for complex b)
    rtol = sh.convert_element_type(ensure_array(rtol), dt)
    atol = sh.convert_element_type(ensure_array(atol), dt)
    both_nan = ew.bitwise_and(isnan(a), isnan(b))
    finite = isfinite(b)
    in_range = ew.le(absolute(ew.sub(a, b)), ew.add(atol, ew.mul(rtol, absolute(b))))
    out = ew.bitwise_or(ew.eq(a, b), ew.bitwise_and(finite, in_range))
    return ew.bitwise_or(out, both_nan) if equal_nan else out
