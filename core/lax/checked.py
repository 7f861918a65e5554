"""The `jax.lax` front door of the elementwise operations: JAX's operand checks.

The wrappers in `core.prims.elementwise` are the lenient internal ones (a Python scalar takes the
other operand's dtype). The public `core.lax` functions check their operands like `jax.lax`:

* a Python scalar takes its own canonical dtype (int -> int32, float -> float32, complex ->
  complex64, all weak; bool -> bool), then every operand must have one dtype (`TypeError`
  otherwise: `core.numpy` is the promoting layer);
* each operation accepts the dtype kinds JAX accepts (`mul` no bool, `lt` no complex, ...);
* shapes broadcast only in JAX's restricted way: rank-0 operands, and size-1 dimensions of
  operands of equal rank (`OperandShapeError`, a `TypeError` as in JAX, otherwise);
* `pow` takes an integer exponent with an inexact base (as JAX does);
* `pad`'s padding value must have the operand's dtype (a Python `0` pads int32 arrays only).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from core import dtypes
from core.errors import DTypeError, ShapeError
from core.lax import composites
from core.prims import elementwise as ew
from core.prims import indexing as ix
from core.prims import shapes
from core.trace import get_aval


class OperandShapeError(ShapeError):
    """Operand shapes of a `core.lax` elementwise operation that do not broadcast (a TypeError,
    as JAX raises, and a ValueError, like every ShapeError).

    Failing code: ``lax.add(jnp.ones(3), jnp.ones(4))``. Fix: operands of one shape (`lax` does
    not broadcast ranks), or ``jnp.add`` for numpy broadcasting.
    """


# The jnp function JAX's same-dtype error names for a lax one (JAX's table)
_JNP_EQUIVALENTS = {
    "add": "add",
    "atan2": "arctan2",
    "bitwise_and": "bitwise_and",
    "bitwise_or": "bitwise_or",
    "bitwise_xor": "bitwise_xor",
    "concatenate": "concatenate",
    "div": "divide",
    "eq": "equal",
    "max": "maximum",
    "min": "minimum",
    "mul": "multiply",
    "ne": "not_equal",
    "nextafter": "nextafter",
    "pow": "float_power",
    "select": "where",
    "shift_left": "left_shift",
    "shift_right_logical": "right_shift",
    "shift_right_arithmetic": "right_shift",
    "sub": "subtract",
}


def _check_kinds(prim_name: str, args: list[Any], kinds: str) -> None:
    """JAX's check of each operand's dtype kind, naming the primitive (`or` for
    `bitwise_or`) and, of several operands, the position."""
    for i, a in enumerate(args):
        dt = get_aval(a).dtype
        if prim_name == "complex" and dt not in (dtypes.float32, dtypes.float64):
            raise DTypeError(  # JAX names the two dtypes it makes complex numbers of
                f"complex does not accept dtype {dt} at position {i}. Accepted dtypes at "
                f"position {i} are subtypes of float32, float64.\nConvert the operands with "
                "`x.astype(jnp.float32)` first."
            )
        if dtypes.kind(dt) not in kinds:
            ew.reject_dtype(prim_name, dt, kinds, i if len(args) > 1 else None)


def _check_dtypes(name: str, args: list[Any], kinds: str, prim_name: str) -> None:
    # JAX checks each operand's dtype kind before it checks that the dtypes agree
    _check_kinds(prim_name, args, kinds)
    ew.check_same_dtypes(name, [get_aval(a).dtype for a in args], _JNP_EQUIVALENTS.get(name))


def broadcast_operands(name: str, args: list[Any], explicit: bool = True) -> list[Any]:
    """Checks that the operands broadcast (rank-0 operands, and size-1 dimensions among
    operands of equal rank) and, if `explicit`, broadcasts them (a primitive that broadcasts
    itself, `Primitive.broadcasting`, takes them as they are: `mul a 2.0:f32[]`, as in JAX)."""
    shps = [get_aval(a).shape for a in args]
    if all(s == shps[0] for s in shps):
        return args
    try:
        out_shape = ew.broadcast_shape(name, shps)  # the primitives' own rule, JAX's texts
    except ShapeError as e:
        raise OperandShapeError(str(e)) from None
    if not explicit:
        return args
    out = []
    for a, s in zip(args, shps):
        if s != out_shape:
            kept = tuple(i for i, d in enumerate(s) if d == out_shape[i])
            squeezed = shapes.reshape(a, tuple(s[i] for i in kept))
            a = shapes.broadcast_in_dim(squeezed, out_shape, kept)
        out.append(a)
    return out


def checked(fn: Callable, kinds: str | None = None, name: str | None = None) -> Callable:
    """`fn` (an elementwise wrapper) behind JAX's operand checks (see the module docstring).

    Args:
      fn: the wrapper of `core.prims.elementwise` (or a composite of primitives).
      kinds: the dtype kinds JAX accepts; by default those its primitive declares
        (`Primitive.dtype_kinds`). Given only where `jax.lax` is stricter than the primitive,
        which numbax's own rules also use (`mul` of bool masks, `abs` of unsigned integers...),
        and for composites.
      name: the name in messages (default `fn.__name__`).

    Returns:
      The checked function.
    """
    name = name or fn.__name__
    kinds = kinds or fn.primitive.dtype_kinds
    prim_name = getattr(getattr(fn, "primitive", None), "name", name)
    explicit = not getattr(getattr(fn, "primitive", None), "broadcasting", False)

    @functools.wraps(fn)
    def op(*args: Any) -> Any:
        args = [composites.canonical_scalar(a) for a in args]
        impl = fn
        if name == "pow" and len(args) == 2:
            x, y = (get_aval(a).dtype for a in args)
            if dtypes.kind(x) in "fc" and dtypes.kind(y) in "iu":  # an integer exponent
                args[1] = shapes.convert_element_type(args[1], x, get_aval(args[1]).weak_type)
                impl = ew.pow_integer_exponent
        # JAX checks the shapes (ranks, then broadcasting) before the dtypes
        args = broadcast_operands(prim_name, args, explicit or impl is not fn)
        _check_dtypes(name, args, kinds, prim_name)
        return impl(*args)

    return op


_NUM = "iufc"
add = checked(ew.add)
sub = checked(ew.sub)
_mul = checked(ew.mul, _NUM)  # the primitive also multiplies bool masks


def mul(x: Any, y: Any, *, out_dtype: Any = None) -> Any:
    """`lax.mul`: the elementwise product of operands of one dtype.

    Args:
      x, y: the operands (see the module docstring for the checks).
      out_dtype: the result's dtype (None: theirs). Given, the operands may have different
        numeric dtypes: one `mul[out_dtype=...]` equation converts them to it and multiplies
        there, as JAX's does.

    Returns:
      The product.
    """
    if out_dtype is None:
        return _mul(x, y)
    args = [composites.canonical_scalar(a) for a in (x, y)]
    _check_kinds("mul", args, _NUM)
    return ew.mul(*broadcast_operands("mul", args, explicit=False), out_dtype)


div = checked(ew.div)
rem = checked(ew.rem, "iuf")  # the primitive also takes complex operands
pow = checked(ew.pow)  # noqa: A001
max = checked(ew.max)  # noqa: A001
min = checked(ew.min)  # noqa: A001
atan2 = checked(ew.atan2)
# The comparison primitives take every kind; JAX orders no complex numbers.
eq = checked(ew.eq, "iufcb")
ne = checked(ew.ne, "iufcb")
lt = checked(ew.lt, "iufb")
le = checked(ew.le, "iufb")
gt = checked(ew.gt, "iufb")
ge = checked(ew.ge, "iufb")
bitwise_and = checked(ew.bitwise_and)
bitwise_or = checked(ew.bitwise_or)
bitwise_xor = checked(ew.bitwise_xor)
shift_left = checked(ew.shift_left)
shift_right_logical = checked(ew.shift_right_logical)
shift_right_arithmetic = checked(ew.shift_right_arithmetic)
nextafter = checked(composites.nextafter, "f")
mulhi = checked(composites.mulhi, "iu")
complex = checked(composites.complex, "f")  # noqa: A001
conj = checked(composites.conj, "fc")
polygamma = checked(ew.polygamma, "f")


def _abs(x: Any) -> Any:
    # The magnitude of a complex number is real (the primitive keeps the complex dtype).
    out = ew.abs(x)
    return ew.real_p.bind(out) if dtypes.kind(get_aval(x).dtype) == "c" else out


abs = checked(_abs, "ifc", "abs")  # noqa: A001
is_finite = checked(ew.is_finite, "f")  # the primitive also takes complex operands


def pad(operand: Any, padding_value: Any, padding_config: Any) -> Any:
    """`lax.pad`: `operand` padded with the scalar `padding_value` of its own dtype.

    Args:
      operand: the array.
      padding_value: a scalar of `operand`'s dtype (a Python scalar takes its own canonical
        dtype first, as in JAX: `0` pads int32 arrays, `0.0` float32 ones).
      padding_config: one `(low, high, interior)` per dimension; `low`/`high` may be negative.

    Returns:
      The padded array.
    """
    value = composites.canonical_scalar(padding_value)
    a, v = get_aval(operand).dtype, get_aval(value).dtype
    if a != v:
        raise DTypeError(
            f"pad operand and padding_value must be same dtype: got {a} and {v}.\n"
            "Give the padding value the operand's dtype (jnp.pad converts it for you)."
        )
    if get_aval(value).shape != ():
        raise ShapeError(
            f"padding_value must be a scalar; got np.shape(padding_value)={get_aval(value).shape}"
        )
    return ix.pad(operand, value, padding_config)
