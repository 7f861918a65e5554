"""Bit-level functions: `bitwise_count`, `packbits`, `unpackbits`, and the floating-point
representation helpers `frexp`, `ldexp`, `spacing`, `nextafter`.

Everything is a composition of existing primitives: `population_count`, shifts and masks for
the integer functions; `bitcast_convert_type` to read exponent fields for `frexp`. The mantissa
of `frexp` is computed as `x * 2**-e` with the power of two assembled from bits, so its
derivative `2**-e` comes out of the ordinary multiplication rule (JAX needs a `custom_jvp` for
this). `ldexp` follows JAX's recipe (split off the exponent with `frexp` so that extreme
exponents do not overflow early).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core import dtypes
from core.lax.composites import nextafter as lax_nextafter
from core.numpy._util import (
    canonicalize_axis,
    check_arraylike,
    ensure_array,
    promote_args,
    promote_args_inexact,
)
from core.numpy.padding import pad
from core.numpy.shapes import expand_dims, ravel, swapaxes
from core.numpy.ufuncs import isinf
from core.numpy.where import where
from core.prims import elementwise as ew
from core.prims import indexing as ix
from core.prims import shapes as sh
from core.prims.random_bits import bitcast_convert_type
from core.trace import get_aval


def bitwise_count(x: Any, /) -> Any:
    """The number of set bits in `|x|` (uint8, like numpy).

    Args:
      x: an integer or boolean array (booleans count as 0/1).

    Returns:
      A uint8 array of bit counts.
    """
    check_arraylike("bitwise_count", x)
    x = ensure_array(x)
    if get_aval(x).dtype == dtypes.bool_:
        x = sh.convert_element_type(x, dtypes.default_int(), get_aval(x).weak_type)
    (x,) = promote_args("bitwise_count", x)
    dt = get_aval(x).dtype
    if dt.kind not in "iu":  # JAX counts the bits of |x|: a complex's message names its float
        shown = dtypes.finfo(dt).dtype if dt.kind == "c" else dt
        raise TypeError(
            f"population_count does not accept dtype {shown}. Accepted dtypes are "
            "subtypes of integer.\nbitwise_count counts the bits of integers: convert floats "
            "with x.astype(int), or view their bits with lax.bitcast_convert_type."
        )
    if get_aval(x).dtype.kind == "i":
        x = ew.abs(x)
    return sh.convert_element_type(ew.population_count(x), np.dtype(np.uint8))


def _check_bitorder(bitorder: str) -> None:
    if bitorder not in ("little", "big"):
        raise ValueError(f"'order' must be either 'little' or 'big', got {bitorder!r}")


def packbits(a: Any, axis: int | None = None, bitorder: str = "big") -> Any:
    """Packs the truth values of `a` into the bits of a uint8 array, 8 per byte.

    Args:
      a: an integer or boolean array (non-zero means a set bit).
      axis: the axis to pack along; None packs the flattened array.
      bitorder: "big" (the first element is the most significant bit) or "little".

    Returns:
      A uint8 array, `ceil(n / 8)` long along `axis` (the last byte is padded with zeros).
    """
    check_arraylike("packbits", a)
    arr = ensure_array(a)
    if get_aval(arr).dtype.kind not in "iub":
        raise TypeError(
            f"Expected an input array of integer or boolean data type, got {get_aval(arr).dtype}"
        )
    _check_bitorder(bitorder)
    u8 = np.dtype(np.uint8)
    arr = sh.convert_element_type(ew.ne(arr, ew.full_like(arr, 0)), u8)
    bits = np.arange(8, dtype=u8)
    if bitorder == "big":
        bits = bits[::-1].copy()
    if axis is None:
        arr, axis = ravel(arr), 0
    arr = swapaxes(arr, axis, -1)
    shape = get_aval(arr).shape
    rem = shape[-1] % 8
    if rem:
        config = [(0, 0, 0)] * (len(shape) - 1) + [(0, 8 - rem, 0)]
        arr = ix.pad(arr, sh.full((), 0, u8), config)
        shape = get_aval(arr).shape
    arr = sh.reshape(arr, shape[:-1] + (shape[-1] // 8, 8))
    shifted = arr << expand_dims(bits, tuple(range(len(shape))))
    packed = shifted.sum(-1, dtype=u8)
    return swapaxes(packed, axis, -1)


def unpackbits(
    a: Any, axis: int | None = None, count: int | None = None, bitorder: str = "big"
) -> Any:
    """Unpacks each uint8 element into 8 bits (the inverse of `packbits`).

    Args:
      a: a uint8 array.
      axis: the axis to unpack along; None unpacks the flattened array.
      count: how many bits to keep along `axis` (negative: drop that many from the end;
        larger than available: pad with zeros).
      bitorder: "big" (most significant bit first) or "little".

    Returns:
      A uint8 array of 0s and 1s.
    """
    check_arraylike("unpackbits", a)
    arr = ensure_array(a)
    if get_aval(arr).dtype != np.uint8:
        raise TypeError(
            f"Expected an input array of unsigned byte data type, got {get_aval(arr).dtype}"
        )
    _check_bitorder(bitorder)
    u8 = np.dtype(np.uint8)
    bits = (1 << np.arange(8, dtype=u8)).astype(u8)
    if bitorder == "big":
        bits = bits[::-1].copy()
    if axis is None:
        arr, axis = ravel(arr), 0
    arr = swapaxes(arr, axis, -1)
    nd = get_aval(arr).ndim
    masked = arr[..., None] & bits.reshape((1,) * nd + (8,))
    unpacked = sh.convert_element_type(ew.gt(masked, ew.full_like(masked, 0)), u8)
    shape = get_aval(unpacked).shape
    unpacked = sh.reshape(unpacked, shape[:-2] + (shape[-2] * 8,))
    if count is not None:
        n = get_aval(unpacked).shape[-1]
        if count > n:
            unpacked = pad(unpacked, [(0, 0)] * (nd - 1) + [(0, count - n)])
        else:
            unpacked = unpacked[..., :count]
    return swapaxes(unpacked, canonicalize_axis(axis, nd), -1)


# ---------------------------------------------------------------------------------------------
# Floating-point representation


def _int_dtype(dt: np.dtype) -> np.dtype:
    return np.dtype(f"i{dt.itemsize}")


def _pow2(k: Any, dt: np.dtype) -> Any:
    """`2.0 ** k` for integer `k` inside the normal exponent range of `dt`, built from bits."""
    info = dtypes.finfo(dt)
    idt = _int_dtype(dt)
    k = sh.convert_element_type(k, idt)
    biased = ew.add(k, ew.full_like(k, 1 - int(info.minexp)))
    return bitcast_convert_type(ew.shift_left(biased, ew.full_like(biased, int(info.nmant))), dt)


def _check_real(name: str, x: Any) -> None:
    if get_aval(x).dtype.kind == "c":
        raise TypeError(f"{name} does not support complex-valued inputs")


def frexp(x: Any, /) -> tuple[Any, Any]:
    """Splits `x` into a mantissa in `[0.5, 1)` (in magnitude) and a power-of-two exponent.

    Args:
      x: a real array (integers are promoted to the default float).

    Returns:
      `(mantissa, exponent)` with `x == mantissa * 2 ** exponent`; exponent is int32, and
      0, inf and NaN give `(x, 0)`.
    """
    (x,) = promote_args_inexact("frexp", x)
    _check_real("frexp", x)
    dt = get_aval(x).dtype
    # strongly typed as JAX's (its results are), so a Python float's gradient stays weak
    x = sh.convert_element_type(x, dt)
    info = dtypes.finfo(dt)
    nmant, mask, bias = int(info.nmant), (1 << int(info.nexp)) - 1, 1 - int(info.minexp)
    i32 = np.dtype(np.int32)
    subnormal = ew.lt(ew.abs(x), ew.full_like(x, info.tiny))
    small = ew.select(subnormal, x, ew.full_like(x, 0))  # scale only those: no overflow
    normal = ew.select(subnormal, ew.mul(small, ew.full_like(x, float(2**nmant))), x)
    bits = bitcast_convert_type(normal, _int_dtype(dt))
    field = ew.bitwise_and(
        ew.shift_right_logical(bits, ew.full_like(bits, nmant)), ew.full_like(bits, mask)
    )
    e = sh.convert_element_type(field, i32)
    e = ew.sub(e, ew.full_like(e, bias - 1))
    e = ew.select(subnormal, ew.sub(e, ew.full_like(e, nmant)), e)
    special = ew.bitwise_or(ew.bitwise_not(ew.is_finite(x)), ew.eq(x, ew.full_like(x, 0)))
    e = ew.select(special, ew.full_like(e, 0), e)
    half = ew.shift_right_arithmetic(e, ew.full_like(e, 1))
    # Two factors, each in the normal range (their product may not be, for subnormal x).
    m = ew.mul(ew.mul(x, _pow2(ew.neg(half), dt)), _pow2(ew.sub(half, e), dt))
    return ew.select(special, x, m), e


def ldexp(x1: Any, x2: Any, /) -> Any:
    """`x1 * 2 ** x2`, exact over the whole exponent range.

    Args:
      x1: a real array (integers are promoted to the default float).
      x2: an integer array broadcastable with `x1`.

    Returns:
      The scaled values, of `x1`'s (inexact) dtype.
    """
    check_arraylike("ldexp", x1, x2)
    x1, x2 = ensure_array(x1), ensure_array(x2)
    d1, d2 = get_aval(x1).dtype, get_aval(x2).dtype
    if dtypes.kind(d1) == "c" or dtypes.kind(d2) in "fc":  # (bfloat16 is a float)
        raise ValueError(f"ldexp not supported for input types {(d1, d2)}")
    (x1,) = promote_args_inexact("ldexp", x1)
    dt = get_aval(x1).dtype
    x2 = sh.convert_element_type(x2, dt)
    m, e = frexp(x1)
    e = e.astype(dt) + x2
    pos = e > 0
    m = where(pos, m * 2, m)
    e = where(pos, e - 1, e)
    out = m * (2 ** e.astype(dt))
    return where(isinf(x1) | (x1 == 0), x1, out)


def nextafter(x1: Any, x2: Any, /) -> Any:
    """The next representable float after `x1` in the direction of `x2`.

    Args:
      x1: the starting values (promoted to a float dtype with `x2`; complex raises
        `DTypeError`).
      x2: the direction.

    Returns:
      An array of the promoted float dtype.
    """
    return lax_nextafter(*promote_args_inexact("nextafter", x1, x2, lax_shapes=True))


def spacing(x: Any, /) -> Any:
    """The distance from `x` to the next representable value away from zero.

    Args:
      x: a real array (integers are promoted to the default float).

    Returns:
      The spacing (negative for negative `x`; float16 follows numpy's upward step).
    """
    (x,) = promote_args_inexact("spacing", x)
    if get_aval(x).dtype.kind == "c":
        raise ValueError("jnp.spacing is not defined for complex inputs.")
    dt = get_aval(x).dtype
    inf = ew.full_like(x, np.inf)
    if dt == np.float16:
        return ew.sub(lax_nextafter(x, inf), x)
    # The sign bit read from the bits (so -0.0 counts as negative, as in JAX).
    negative = ew.lt(
        bitcast_convert_type(x, _int_dtype(dt)), ew.full_like(x, 0).astype(_int_dtype(dt))
    )
    out = ew.sub(lax_nextafter(x, ew.select(negative, ew.neg(inf), inf)), x)
    tiny = ew.full_like(x, dtypes.finfo(dt).smallest_subnormal)
    out = where(out == 0, ew.select(negative, ew.neg(tiny), tiny), out)
    return sh.convert_element_type(out, dt)  # strongly typed, as JAX's
