"""Primitives behind `core.random`: the Threefry-2x32 hash and bit casts.

`threefry2x32(k0, k1, x0, x1)` is the counter-based hash of Random123 (20 rounds) that JAX uses:
four uint32 arrays of one shape in, two uint32 arrays out, pure wrapping add/rotate/xor per
element. Everything random is built on it in `core/random.py` with ordinary primitives, so
random functions compose with jit, vmap and grad like any other code.

`bitcast_convert_type` reinterprets the bits of an array as another dtype of the same width
(uniform floats are built from mantissa bits); between widths (counted in bits: int4 is 4
bits, as in JAX, though numpy stores it in a byte) it splits or joins unsigned words.

Numba lowering (`core/backends/numba/rules/random_bits.py`): `threefry2x32` is elementwise: one
scalar kernel (the loop of `_threefry_impl` on uint32 scalars) inside a fused loop;
`bitcast_convert_type` is a view (a scalar bitcast in a loop).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core import dtypes
from core.avals import ShapedArray
from core.errors import DTypeError, KeyDTypeConversionError, ShapeError
from core.interpreters import batching
from core.interpreters.jvp import defjvp_zero
from core.primitive import Primitive
from core.prims import elementwise as ew
from core.prims import shapes
from core.prims.indexing import concatenate, slice_in_dim
from core.trace import get_aval

# ---------------------------------------------------------------------------------------------
# threefry2x32: (k0, k1, x0, x1) -> (y0, y1), all uint32 of one shape

_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))
_PARITY = np.uint32(0x1BD11BDA)

threefry2x32_p = Primitive("threefry2x32", multiple_results=True, elementwise=True)


def _rotate_left(x: np.ndarray, r: int) -> np.ndarray:
    return (x << np.uint32(r)) | (x >> np.uint32(32 - r))


def _threefry_impl(k0, k1, x0, x1):
    shape = x0.shape
    # 1-D views: numpy wraps uint32 overflow silently on arrays (it warns on 0-d scalars).
    k0, k1, x0, x1 = (np.asarray(a, np.uint32).reshape(-1) for a in (k0, k1, x0, x1))
    ks = (k0, k1, k0 ^ k1 ^ _PARITY)
    x0 = x0 + ks[0]
    x1 = x1 + ks[1]
    for i in range(5):
        for r in _ROTATIONS[i % 2]:
            x0 = x0 + x1
            x1 = _rotate_left(x1, r) ^ x0
        x0 = x0 + ks[(i + 1) % 3]
        x1 = x1 + ks[(i + 2) % 3] + np.uint32(i + 1)
    return [x0.reshape(shape), x1.reshape(shape)]


def _threefry_abstract_eval(k0, k1, x0, x1):
    avals = (k0, k1, x0, x1)
    if any(a.dtype != dtypes.uint32 for a in avals):
        raise DTypeError(
            "threefry2x32 requires uint32 operands, got "
            f"{', '.join(str(a.dtype) for a in avals)}; keys are uint32[2] arrays."
        )
    if any(a.shape != x0.shape for a in avals):
        raise ShapeError(
            "threefry2x32 requires operands of one shape, got "
            f"{', '.join(str(a.shape) for a in avals)}; broadcast the key words first."
        )
    out = ShapedArray(x0.shape, dtypes.uint32)
    return [out, out]


def _threefry_batch(args, dims):
    size = batching.batch_size(args, dims)
    moved = [batching.moveaxis(a, d, 0, size) for a, d in zip(args, dims)]
    return threefry2x32_p.bind(*moved), [0, 0]


threefry2x32_p.def_impl(_threefry_impl)
threefry2x32_p.def_abstract_eval(_threefry_abstract_eval)
threefry2x32_p.def_batch(_threefry_batch)
defjvp_zero(threefry2x32_p)


def threefry2x32(k0: Any, k1: Any, x0: Any, x1: Any) -> list[Any]:
    """The Threefry-2x32 hash of counters `(x0, x1)` under key `(k0, k1)` (uint32, one shape)."""
    _threefry_abstract_eval(*map(get_aval, (k0, k1, x0, x1)))  # eager binds check too
    return threefry2x32_p.bind(k0, k1, x0, x1)


def unsigned_mulhi(x: Any, y: Any) -> Any:
    """The high half of the double-width product of unsigned integers of one dtype (`lax.mulhi`;
    Philox's multiply), from the products of their halves, none of which overflows."""
    half = get_aval(x).dtype.itemsize * 4
    mask = ew.full_like(x, (1 << half) - 1)
    sh = ew.full_like(x, half)
    x_lo, x_hi = ew.bitwise_and(x, mask), ew.shift_right_logical(x, sh)
    y_lo, y_hi = ew.bitwise_and(y, mask), ew.shift_right_logical(y, sh)
    lolo, lohi = ew.mul(x_lo, y_lo), ew.mul(x_lo, y_hi)
    hilo, hihi = ew.mul(x_hi, y_lo), ew.mul(x_hi, y_hi)
    cross = ew.add(
        ew.add(ew.shift_right_logical(lolo, sh), ew.bitwise_and(lohi, mask)),
        ew.bitwise_and(hilo, mask),
    )
    return ew.add(
        ew.add(hihi, ew.shift_right_logical(lohi, sh)),
        ew.add(ew.shift_right_logical(hilo, sh), ew.shift_right_logical(cross, sh)),
    )


# ---------------------------------------------------------------------------------------------
# bitcast_convert_type: same bits, another dtype of the same width

bitcast_convert_type_p = Primitive("bitcast_convert_type", elementwise=True)


def _bitcast_abstract_eval(x, *, new_dtype):
    if x.dtype.itemsize != new_dtype.itemsize:
        raise DTypeError(
            f"bitcast_convert_type needs dtypes of one width, got {x.dtype} "
            f"({x.dtype.itemsize * 8} bits) and {new_dtype} ({new_dtype.itemsize * 8} bits)"
        )
    return ShapedArray(x.shape, new_dtype)


bitcast_convert_type_p.def_impl(lambda x, *, new_dtype: x.view(new_dtype))
bitcast_convert_type_p.def_abstract_eval(_bitcast_abstract_eval)
batching.broadcast_batcher(bitcast_convert_type_p)
defjvp_zero(bitcast_convert_type_p)


def bitcast_convert_type(operand: Any, new_dtype: Any) -> Any:
    """Reinterprets the bits of `operand` as `new_dtype`, like `lax.bitcast_convert_type`.

    Between dtypes of different widths, a narrower result gets a new last axis of
    `old_bits // new_bits` entries (little-endian, as XLA on CPU); a wider result needs a last
    axis of `new_bits // old_bits` entries and drops it.
    """
    new_dtype = np.dtype(new_dtype)
    aval = get_aval(operand)
    if type(aval.dtype) is dtypes.KeyDType:  # JAX's message; the data is `random.key_data`
        raise KeyDTypeConversionError(f"unexpected input: dtype={aval.dtype}")
    if aval.dtype == new_dtype and not aval.weak_type:
        return operand  # (a weakly typed operand binds: the result is not weak, as in JAX)
    if any(dtypes.kind(d) in "bc" for d in (aval.dtype, new_dtype)):
        raise DTypeError(
            "lax.bitcast_convert_type does not support bool or complex values unless the "
            f"operand and destination types match. Got operand dtype={aval.dtype}, "
            f"new_dtype={new_dtype!r}. Consider using the arr.view() method instead.\n"
            "For booleans, convert with `x.astype(jnp.uint8)`."
        )
    if _bits(aval.dtype) == _bits(new_dtype):
        _bitcast_abstract_eval(aval, new_dtype=new_dtype)
        return bitcast_convert_type_p.bind(operand, new_dtype=new_dtype)
    return _bitcast_resize(operand, aval, new_dtype)


def _bits(dt: np.dtype) -> int:
    """A dtype's width in bits (int4's is 4, though numpy stores it in a byte)."""
    return dtypes.iinfo(dt).bits if dt.name in dtypes.INTN_NAMES else 8 * dt.itemsize


def _container(bits: int) -> np.dtype:
    """The unsigned integer that holds a word of `bits` (a byte for the sub-byte ones)."""
    return np.dtype(f"u{max(bits, 8) // 8}")


def _to_word(x: Any, dt: np.dtype) -> Any:
    """The bits of `x` as an unsigned integer of `_container`'s dtype (sub-byte integers:
    their two's-complement pattern in the low bits of a byte)."""
    if dt.name not in dtypes.INTN_NAMES:
        return bitcast_convert_type(x, _container(_bits(dt)))
    wide = shapes.convert_element_type(x, np.dtype(np.int8 if dt.kind == "i" else np.uint8))
    u = bitcast_convert_type(wide, np.dtype(np.uint8))
    return ew.bitwise_and(u, ew.full_like(u, (1 << _bits(dt)) - 1))


def _from_word(u: Any, dt: np.dtype) -> Any:
    """`_to_word`'s inverse: a word (its high bits 0) as `dt`."""
    if dt.name not in dtypes.INTN_NAMES:
        return bitcast_convert_type(u, dt)
    if dt.kind == "i":  # sign-extend the low bits in a byte
        sign = 1 << (_bits(dt) - 1)
        v = bitcast_convert_type(ew.bitwise_xor(u, ew.full_like(u, sign)), np.dtype(np.int8))
        u = ew.sub(v, ew.full_like(v, sign))
    return shapes.convert_element_type(u, dt)


def _bitcast_resize(x: Any, aval: ShapedArray, new_dtype: np.dtype) -> Any:
    """Different widths: through unsigned words, split by shifts or joined by shifts and ors
    (little-endian, the first part in the lowest bits, as XLA on the CPU)."""
    if np.bool_ in (aval.dtype, new_dtype):
        raise DTypeError(f"bitcast_convert_type cannot reinterpret {aval.dtype} as {new_dtype}")
    old, new = _bits(aval.dtype), _bits(new_dtype)
    u_new = _container(new)
    u = _to_word(x, aval.dtype)
    if new < old:
        parts = []
        for i in range(old // new):
            shifted = ew.shift_right_logical(u, ew.full_like(u, new * i))
            part = shapes.convert_element_type(shifted, u_new)
            if new < 8:
                part = ew.bitwise_and(part, ew.full_like(part, (1 << new) - 1))
            part = _from_word(part, new_dtype)
            parts.append(shapes.broadcast_in_dim(part, (*aval.shape, 1), tuple(range(aval.ndim))))
        return concatenate(parts, aval.ndim)
    ratio = new // old
    if not aval.shape or aval.shape[-1] != ratio:
        raise ShapeError(
            f"bitcast_convert_type from {aval.dtype} to {new_dtype} needs a last axis of {ratio} "
            f"entries, got an operand of shape {aval.shape}"
        )
    out = None
    for i in range(ratio):
        part = shapes.reshape(slice_in_dim(u, i, i + 1, 1, -1), aval.shape[:-1])
        part = shapes.convert_element_type(part, u_new)
        part = ew.shift_left(part, ew.full_like(part, old * i))
        out = part if out is None else ew.bitwise_or(out, part)
    return _from_word(out, new_dtype)
