"""`jax.lax` functions that are compositions of primitives, and JAX's primitives numbax computes
from others.

The functions (`clamp`, `reduce`, `split`, ...) differentiate, batch and compile through the
primitives they are made of. JAX's primitives `conj`, `clz`, `nextafter`, `reduce_precision`,
`eq_to`/`le_to`/`lt_to` and `reduce_xor` are numbax's too (jaxprs print JAX's one equation,
with JAX's parameters and jvp/transpose rules), each with its composition
(`Primitive.def_composition`), which eager calls evaluate and `jit` compiles in its place.
`reduce` recognises the monoids of the reduction primitives (add, mul, max, min, and, or with
their identities) by tracing the computation on scalars; any other computation is reduced by
pairwise halving, which is right for the associative, commutative computations `lax.reduce`
requires. `associative_scan` (JAX's odd/even parallel prefix algorithm) is
`core/prims/associative_scan.py`'s, so the cumulative primitives' rules can use it.

`empty` returns zeros. The general gather/scatter API (dimension numbers) is
`core/lax/gather_api.py`.
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from core import dtypes, tree_util
from core.ad_util import Zero, instantiate
from core.api import vmap
from core.avals import ShapedArray
from core.custom_derivatives import custom_jvp
from core.errors import DTypeError, NumbaxError, ShapeError
from core.interpreters import batching
from core.interpreters.jvp import defjvp_zero, deflinear, jvp_flat
from core.interpreters.partial_eval import trace_to_jaxpr
from core.ir import ClosedJaxpr, eval_jaxpr
from core.jit.library import library_jit
from core.named_sharding import like_sharding, placed_by
from core.numpy._util import broadcast_shapes as numpy_broadcast_shapes
from core.numpy._util import canonical_shape
from core.primitive import Primitive
from core.prims import elementwise as ew
from core.prims import gather as gt
from core.prims import indexing as ix
from core.prims import prng, shapes, sorting
from core.prims import reductions as red
from core.prims.control_flow import scan
from core.prims.control_flow.errors import MapBatchSizeError
from core.prims.conv import conv_dimension_numbers, conv_general_dilated
from core.prims.indexing import concatenate, slice_in_dim
from core.prims.linalg import dot_general
from core.prims.random_bits import bitcast_convert_type, unsigned_mulhi
from core.trace import as_value, get_aval

_PY_SCALARS = (int, float, complex)  # before the module's own `complex` shadows the builtin


def canonical_scalar(x: Any) -> Any:
    """A Python scalar as a 0-d array of its own canonical dtype (weak unless bool)."""
    if type(x) is bool:
        return shapes.full((), x, dtypes.bool_, False)
    if type(x) in _PY_SCALARS:
        dt = dtypes.python_scalar_dtype(x)
        if type(x) is int:
            info = np.iinfo(dt)
            if not info.min <= x <= info.max:
                raise OverflowError(f"Python int {x} too large to convert to {dt}")
        return shapes.full((), x, dt, True)
    return x


def clamp(min: Any, x: Any, max: Any) -> Any:  # noqa: A002
    """`lax.clamp`: `x` limited to `[min, max]` elementwise (rank-0 bounds broadcast); a
    Python scalar bound takes its own canonical dtype, as in JAX (`lax.clamp(0, x, 1.)` of a
    float32 `x` raises JAX's dtype error)."""
    return ew.clamp(canonical_scalar(min), x, canonical_scalar(max))


def square(x: Any) -> Any:
    """`lax.square`: `x * x`."""
    return ew.square(x)


def reciprocal(x: Any) -> Any:
    """`lax.reciprocal`: `1 / x`."""
    return ew.integer_pow(x, -1)


def dot(
    lhs: Any,
    rhs: Any,
    *,
    dimension_numbers: Any = None,
    precision: Any = None,
    preferred_element_type: Any = None,
) -> Any:
    """`lax.dot`: vector/matrix products (contracts lhs's last axis with rhs's first), or
    `dot_general` with `dimension_numbers`. As in JAX 0.10, all but the operands are
    keyword-only (a positional `precision` is Python's TypeError).

    Args:
      lhs, rhs: the operands.
      precision, preferred_element_type: as `dot_general`'s.
      dimension_numbers: `((lhs_contract, rhs_contract), (lhs_batch, rhs_batch))`; needed
        unless both operands have rank 1 or 2.

    Returns:
      The product.

    Raises:
      ShapeError: no `dimension_numbers` for operands that are not matrices or vectors with
        matching inner sizes.
    """
    if dimension_numbers is None:
        ls, rs = get_aval(lhs).shape, get_aval(rhs).shape
        if not (1 <= len(ls) <= 2 and 1 <= len(rs) <= 2 and ls[-1] == rs[0]):
            raise ShapeError(
                "jax.lax.dot: dimension_numbers must be specified when not performing simple "
                "un-batched matrix-matrix, matrix-vector, or vector-vector products; got "
                f"lhs_shape={ls} rhs_shape={rs}"
            )
        dimension_numbers = (((len(ls) - 1,), (0,)), ((), ()))
    return dot_general(
        lhs,
        rhs,
        dimension_numbers,
        precision=precision,
        preferred_element_type=preferred_element_type,
    )


def iota(dtype: Any, size: int) -> Any:
    """`lax.iota`: `[0, 1, ..., size - 1]`."""
    return shapes.iota(dtype, (int(size),), 0)


def broadcasted_iota(dtype: Any, shape: Sequence[int], dimension: int) -> Any:
    """`lax.broadcasted_iota`: indices along `dimension` of an array of `shape`."""
    shape = tuple(shape)
    if not 0 <= dimension < len(shape):
        raise ValueError(
            f"iota dimension must be between 0 and len(shape), got dimension={dimension} for "
            f"shape={shape}"
        )
    return shapes.iota(dtype, shape, dimension)


def full(
    shape: Sequence[int] | int, fill_value: Any, dtype: Any = None, *, sharding: Any = None
) -> Any:
    """`lax.full`: an array of `shape` filled with the scalar `fill_value`.

    Args:
      shape: the shape.
      fill_value: a scalar.
      dtype: the dtype (default: `fill_value`'s, weak for Python scalars).
      sharding: the `Sharding` (or device) the result is placed by, or None.

    Returns:
      The array.
    """
    return placed_by(_full(shape, fill_value, dtype), sharding, None, "full")


def full_like(
    x: Any, fill_value: Any, dtype: Any = None, shape: Any = None, sharding: Any = None
) -> Any:
    """`lax.full_like`: an array like `x` (its shape and dtype unless given) filled with
    `fill_value`, placed by `sharding` (a `Sharding` or device) unless it is None; keys like
    key arrays (`prng.full_keys`)."""
    aval = get_aval(x)
    dt = aval.dtype if dtype is None else dtype
    if type(dt) is dtypes.KeyDType:
        out = prng.full_keys(aval.shape if shape is None else tuple(shape), fill_value, dt)
    else:
        out = ew.full_like(x, fill_value, dtype, shape)
    if sharding is None:
        sharding = like_sharding(x, get_aval(out).shape, dtype is None and aval.weak_type)
    return placed_by(out, sharding, None, "full_like")


def _full(shape: Sequence[int] | int, fill_value: Any, dtype: Any) -> Any:
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    fill_shape = get_aval(fill_value).shape
    if fill_shape:
        raise TypeError(
            f"full must be called with a scalar fill_value, got shape {fill_shape}; "
            "use lax.broadcast_in_dim to broadcast an array"
        )
    if dtype is None:
        dt, weak = (
            dtypes.dtype_and_weak(fill_value)
            if not hasattr(fill_value, "aval")
            else (get_aval(fill_value).dtype, get_aval(fill_value).weak_type)
        )
    else:
        dt, weak = dtype, False
    if type(dt) is dtypes.KeyDType:
        return prng.full_keys(shape, fill_value, dt)
    if np.dtype(dt) == dtypes.float0:  # integers' tangent dtype: a numpy array, as JAX's
        return np.zeros(shape, dtypes.float0)
    return shapes.full(shape, fill_value, dt, weak)


def zeros_like_array(x: Any) -> Any:
    """`lax.zeros_like_array`."""
    return shapes.zeros_like(x)


def reshape(operand: Any, new_sizes: Sequence[int], dimensions: Sequence[int] | None = None):
    """`lax.reshape`: row-major reshape, after transposing by `dimensions` when given."""
    if dimensions is not None:
        dims = tuple(int(d) for d in dimensions)
        shape = get_aval(operand).shape
        if sorted(dims) != list(range(len(shape))):  # JAX's first line
            raise ShapeError(
                "reshape dimensions must be a permutation of operand dimensions, got "
                f"dimensions {dims} for shape {shape}."
            )
        operand = shapes.transpose(operand, dims)
    return shapes.reshape(operand, canonical_shape(new_sizes))


def broadcast(operand: Any, sizes: Sequence[int]) -> Any:
    """`lax.broadcast`: adds leading dimensions of the given sizes."""
    shape = get_aval(operand).shape
    sizes = tuple(int(s) for s in sizes)
    return shapes.broadcast_in_dim(
        operand, sizes + shape, tuple(range(len(sizes), len(sizes) + len(shape)))
    )


def expand_dims(array: Any, dimensions: Sequence[int]) -> Any:
    """`lax.expand_dims`: inserts unit dimensions at the given output positions."""
    return shapes.expand_dims(array, tuple(dimensions))


def squeeze(array: Any, dimensions: Sequence[int]) -> Any:
    """`lax.squeeze`: removes the given unit dimensions (an Array even when there are none,
    as in JAX; a dimension named twice is JAX's ValueError)."""
    array = as_value(array)
    nd = get_aval(array).ndim
    dims = [operator.index(d) for d in dimensions]  # None: Python's TypeError, as JAX's
    for d in dims:
        if not -nd <= d < nd:
            raise ShapeError(f"axis {d} is out of bounds for array of dimension {nd}")
    dims = sorted(d % nd for d in dims)
    if len(set(dims)) != len(dims):
        raise ShapeError(f"dimensions are not unique: {tuple(dims)}")
    return shapes.squeeze(array, tuple(dims))


def collapse(operand: Any, start_dimension: int, stop_dimension: int | None = None) -> Any:
    """`lax.collapse`: merges dimensions `[start, stop)` into one."""
    shape = get_aval(operand).shape
    stop = len(shape) if stop_dimension is None else stop_dimension
    size = int(np.prod(shape[start_dimension:stop], dtype=np.int64))
    return shapes.reshape(operand, shape[:start_dimension] + (size,) + shape[stop:])


def index_in_dim(operand: Any, index: int, axis: int = 0, keepdims: bool = True) -> Any:
    """`lax.index_in_dim`: the static slice `index` along `axis`."""
    size = get_aval(operand).shape[axis]
    if not -size <= int(index) < size:
        raise IndexError(
            f"index {index} is out of bounds for axis {axis} with size {size}\nPass an index "
            f"in [-{size}, {size})."
        )
    index = int(index) + size if int(index) < 0 else int(index)
    out = slice_in_dim(operand, index, index + 1, 1, axis)
    return out if keepdims else squeeze(out, (axis,))


# ---------------------------------------------------------------------------------------------
# Complex parts (the real/imag/complex primitives of core/prims/elementwise.py)


def real(x: Any) -> Any:
    """`lax.real`: the real part of a complex array."""
    return ew.real_p.bind(x)


def imag(x: Any) -> Any:
    """`lax.imag`: the imaginary part of a complex array."""
    return ew.imag_p.bind(x)


def complex(x: Any, y: Any) -> Any:  # noqa: A001
    """`lax.complex`: `x + 1j * y` from two real arrays of one shape and dtype."""
    return ew.complex_p.bind(*ew._operands(x, y))


def _conj_abstract_eval(x: Any, *, input_dtype: Any) -> ShapedArray:
    if x.dtype.kind != "c" and x.dtype not in (np.float32, np.float64):
        raise DTypeError(
            f"conj does not accept dtype {x.dtype}. Accepted dtypes are subtypes of "
            "float32, complexfloating, float64.\nConvert the operand with "
            "`x.astype(jnp.float32)` first."
        )
    return ShapedArray(x.shape, ew._complex_dtype(x.dtype), x.weak_type)


def _conj(x: Any, *, input_dtype: Any) -> Any:
    aval = get_aval(x)
    if aval.dtype.kind != "c":  # +0 imaginary part, as XLA gives; a weak float stays weak
        return shapes.convert_element_type(x, ew._complex_dtype(aval.dtype), aval.weak_type)
    return ew.complex_p.bind(ew.real_p.bind(x), ew.neg(ew.imag_p.bind(x)))


def _conj_transpose(ct: Any, x: Any, *, input_dtype: Any) -> list[Any]:
    # JAX's: the conjugate of the cotangent, or its real part for a real operand
    if type(ct) is Zero:
        return [Zero(x.aval)]
    if np.dtype(input_dtype).kind == "c":
        return [conj_p.bind(ct, input_dtype=get_aval(ct).dtype)]
    return [ew.real_p.bind(ct)]


conj_p = Primitive("conj", elementwise=True)
conj_p.def_composed(_conj)
conj_p.def_abstract_eval(_conj_abstract_eval)
deflinear(conj_p)
conj_p.def_transpose(_conj_transpose)
batching.broadcast_batcher(conj_p)


def conj(x: Any) -> Any:
    """`lax.conj`: the complex conjugate (real inputs give a complex result, as in JAX)."""
    return conj_p.bind(x, input_dtype=get_aval(x).dtype)


# ---------------------------------------------------------------------------------------------
# Bits


def _unsigned(dt: np.dtype) -> np.dtype:
    return np.dtype(f"u{dt.itemsize}")


def _clz(x: Any) -> Any:
    dt = get_aval(x).dtype
    bits = dt.itemsize * 8
    u = x if dt.kind == "u" else bitcast_convert_type(x, _unsigned(dt))
    shift = 1
    while shift < bits:  # smear the highest set bit into every lower position
        u = ew.bitwise_or(u, ew.shift_right_logical(u, ew.full_like(u, shift)))
        shift *= 2
    ones = ew.population_count(u)
    out = ew.sub(ew.full_like(ones, bits), ones)
    return out if dt.kind == "u" else bitcast_convert_type(out, dt)


clz_p = ew.composed("clz", _clz, 1, "iu")
defjvp_zero(clz_p)


def clz(x: Any) -> Any:
    """`lax.clz`: the number of leading zero bits of each integer (a weak operand gives a weak
    result, as JAX's)."""
    return clz_p.bind(x)


def mulhi(x: Any, y: Any) -> Any:
    """`lax.mulhi`: the high half of the double-width product of two integers."""
    dt = get_aval(x).dtype
    ud = _unsigned(dt)
    ux = x if dt.kind == "u" else bitcast_convert_type(x, ud)
    uy = y if dt.kind == "u" else bitcast_convert_type(y, ud)
    hi = unsigned_mulhi(ux, uy)
    if dt.kind == "u":
        return hi
    # Signed: subtract y where x < 0 and x where y < 0 (two's complement identity).
    zero = ew.full_like(uy, 0)
    hi = ew.sub(hi, ew.select(ew.lt(x, ew.full_like(x, 0)), uy, zero))
    hi = ew.sub(hi, ew.select(ew.lt(y, ew.full_like(y, 0)), ux, zero))
    return bitcast_convert_type(hi, dt)


def _nextafter(x1: Any, x2: Any) -> Any:
    dt = get_aval(x1).dtype
    idt = np.dtype(f"i{dt.itemsize}")
    bits = bitcast_convert_type(x1, idt)
    one = ew.full_like(bits, 1)
    toward_larger_magnitude = ew.eq(ew.gt(x2, x1), ew.gt(x1, ew.full_like(x1, 0)))
    stepped = ew.add(bits, ew.select(toward_larger_magnitude, one, ew.neg(one)))
    # From +-0 the next value is the smallest subnormal carrying the sign of x2.
    sign_of_x2 = ew.bitwise_and(
        bitcast_convert_type(x2, idt), ew.full_like(bits, np.iinfo(idt).min)
    )
    tiny = ew.bitwise_or(sign_of_x2, one)
    out = ew.select(ew.eq(x1, ew.full_like(x1, 0)), tiny, stepped)
    out = bitcast_convert_type(out, dt)
    out = ew.select(ew.eq(x1, x2), x2, out)
    either_nan = ew.bitwise_or(ew.ne(x1, x1), ew.ne(x2, x2))
    out = ew.select(either_nan, ew.add(x1, x2), out)
    return out


nextafter_p = ew.composed("nextafter", _nextafter, 2, "f")  # no jvp, as in JAX


@ew._binds(nextafter_p)
def nextafter(x1: Any, x2: Any) -> Any:
    """`lax.nextafter`: the next representable float after `x1` in the direction of `x2`."""
    return nextafter_p.bind(*ew._operands(x1, x2))


def _total_order_key(x: Any) -> Any:
    # IEEE totalOrder as XLA compares it: a float's bits as a signed integer, with the
    # magnitude bits of negative numbers flipped, so -nan < -inf < ... < -0 < +0 < ... < +nan.
    aval = get_aval(x)
    dt = np.dtype(aval.dtype)
    if dtypes.kind(dt) != "f":
        return x
    idt = np.dtype(f"int{8 * dt.itemsize}")
    bits = bitcast_convert_type(x, idt)
    sign = ew.shift_right_arithmetic(bits, shapes.full(aval.shape, 8 * dt.itemsize - 1, idt))
    magnitude = shapes.full(aval.shape, np.iinfo(idt).max, idt)
    return ew.bitwise_xor(bits, ew.bitwise_and(sign, magnitude))


def _total_order(name: str, compare: Callable[[Any, Any], Any], kinds: str | None) -> Primitive:
    """JAX's comparison `name` in IEEE totalOrder (`eq_to`, `le_to`, `lt_to`)."""
    prim = ew.composed(
        name, lambda x, y: compare(_total_order_key(x), _total_order_key(y)), 2, kinds, np.bool_
    )
    defjvp_zero(prim)
    return prim


eq_to_p = _total_order("eq_to", ew.eq, None)
le_to_p = _total_order("le_to", ew.le, "iufb")
lt_to_p = _total_order("lt_to", ew.lt, "iufb")


def _reduce_precision(operand: Any, *, exponent_bits: int, mantissa_bits: int) -> Any:
    dt = get_aval(operand).dtype
    info = dtypes.finfo(dt)
    src_mant, src_exp = int(info.nmant), int(info.nexp)
    nbits = dt.itemsize * 8
    ud = _unsigned(dt)
    u = bitcast_convert_type(operand, ud)

    def c(v: int) -> Any:
        return ew.full_like(u, v)

    if mantissa_bits < src_mant:
        drop = src_mant - mantissa_bits
        last_bit_mask = 1 << drop
        base_bias = (last_bit_mask >> 1) - 1
        last_bit = ew.shift_right_logical(ew.bitwise_and(u, c(last_bit_mask)), c(drop))
        u = ew.bitwise_and(
            ew.add(u, ew.add(last_bit, c(base_bias))), c(~(last_bit_mask - 1) & (2**nbits - 1))
        )
    if exponent_bits < src_exp:
        sign_mask = 1 << (nbits - 1)
        exp_mask = ((1 << src_exp) - 1) << src_mant
        bias = (1 << (src_exp - 1)) - 1
        reduced_bias = (1 << (exponent_bits - 1)) - 1
        max_exp, min_exp = bias + reduced_bias, bias - reduced_bias
        x_exp = ew.bitwise_and(u, c(exp_mask))
        overflow = ew.gt(x_exp, c(max_exp << src_mant))
        underflow = ew.le(x_exp, c(min_exp << src_mant))
        signed_zero = ew.bitwise_and(u, c(sign_mask))
        signed_inf = ew.bitwise_or(signed_zero, c(exp_mask))
        u = ew.select(overflow, signed_inf, ew.select(underflow, signed_zero, u))
    out = bitcast_convert_type(u, dt)
    if mantissa_bits < src_mant:
        out = ew.select(ew.ne(operand, operand), operand, out)
    return out


def _reduce_precision_abstract_eval(x: Any, *, exponent_bits: int, mantissa_bits: int) -> Any:
    if dtypes.kind(x.dtype) != "f":
        ew.reject_dtype("reduce_precision", x.dtype, "f")
    return x


reduce_precision_p = Primitive("reduce_precision", elementwise=True)
reduce_precision_p.def_composed(_reduce_precision)
reduce_precision_p.def_abstract_eval(_reduce_precision_abstract_eval)
deflinear(reduce_precision_p)
reduce_precision_p.def_transpose(lambda ct, x, **params: [reduce_precision_p.bind(ct, **params)])
batching.broadcast_batcher(reduce_precision_p)


def reduce_precision(operand: Any, exponent_bits: int, mantissa_bits: int) -> Any:
    """`lax.reduce_precision`: rounds floats to a format with fewer exponent/mantissa bits.

    Rounds the mantissa to nearest-even, then flushes values outside the reduced exponent range
    to signed infinity (overflow) or signed zero (underflow, including subnormals), exactly as
    XLA does; NaNs stay NaN. The result keeps the input dtype.

    Raises:
      ValueError: `exponent_bits` < 1 or `mantissa_bits` < 0 (JAX's messages).
    """
    if int(exponent_bits) < 1:
        raise ValueError(
            f"reduce_precision: exponent_bits must be positive; got {exponent_bits}\n"
            "A float format needs at least one exponent bit."
        )
    if int(mantissa_bits) < 0:
        raise ValueError(
            f"reduce_precision: mantissa_bits must be non-negative; got {mantissa_bits}\n"
            "Pass 0 to keep only the leading bit."
        )
    return reduce_precision_p.bind(
        operand, exponent_bits=int(exponent_bits), mantissa_bits=int(mantissa_bits)
    )


# ---------------------------------------------------------------------------------------------
# Shapes and indexing


def split(operand: Any, sizes: Sequence[int], axis: int = 0) -> list[Any]:
    """`lax.split`: consecutive pieces of the given sizes along `axis` (JAX's ValueErrors for
    an axis out of bounds, negative sizes, or sizes that do not sum to the axis)."""
    return ix.split(operand, sizes, axis)


@library_jit(static_argnames=("axis", "keepdims", "allow_negative_indices"))
def dynamic_index_in_dim(
    operand: Any,
    index: Any,
    axis: int = 0,
    keepdims: bool = True,
    *,
    allow_negative_indices: bool = True,
) -> Any:
    """`lax.dynamic_index_in_dim`: the slice at a traced `index` along `axis` (clamped)."""
    out = gt.dynamic_slice_in_dim(
        operand, index, 1, axis, allow_negative_indices=allow_negative_indices
    )
    return out if keepdims else squeeze(out, (axis,))


@library_jit(static_argnames=("axis", "allow_negative_indices"))
def dynamic_update_index_in_dim(
    operand: Any, update: Any, index: Any, axis: int, *, allow_negative_indices: bool = True
) -> Any:
    """`lax.dynamic_update_index_in_dim`: writes `update` at a traced `index` along `axis`."""
    shape = get_aval(operand).shape
    axis = axis % len(shape)
    if get_aval(update).ndim == len(shape) - 1:
        update = expand_dims(update, (axis,))
    return gt.dynamic_update_slice_in_dim(
        operand, update, index, axis, allow_negative_indices=allow_negative_indices
    )


def index_take(src: Any, idxs: Any, axes: Sequence[int]) -> Any:
    """`lax.index_take`: `src` at the index arrays `idxs[j]` along `axes[j]` (negative wrap).

    Returns an array of shape `(n, *dims of src not in axes)`.
    """
    axes = tuple(int(a) for a in axes)
    shape = get_aval(src).shape
    cols = []
    for i, ax in zip(idxs, axes, strict=True):
        i = ew.select(ew.lt(i, ew.full_like(i, 0)), ew.add(i, ew.full_like(i, shape[ax])), i)
        cols.append(expand_dims(i, (1,)))
    indices = cols[0] if len(cols) == 1 else concatenate(cols, 1)
    return gt.gather(src, indices, axes)


def optimization_barrier(operand: Any, /) -> Any:
    """`lax.optimization_barrier`: the identity (this compiler does not reorder across it).

    Args:
      operand: a pytree of arrays or scalars.

    Returns:
      `operand` with every leaf an array, as in JAX (a Python `1` becomes a weakly typed
      int32 array).
    """
    return tree_util.tree_map(as_value, operand)


def batch_matmul(lhs: Any, rhs: Any, precision: Any = None) -> Any:
    """`lax.batch_matmul`: matrix products over leading batch dimensions (equal ranks >= 2)."""
    nl, nr = get_aval(lhs).ndim, get_aval(rhs).ndim
    if nl < 2 or nl != nr:
        raise ValueError(f"batch_matmul requires equal ranks >= 2, got ranks {nl} and {nr}")
    batch = tuple(range(nl - 2))
    return dot_general(lhs, rhs, (((nl - 1,), (nl - 2,)), (batch, batch)))


def broadcast_to_rank(x: Any, rank: int) -> Any:
    """`lax.broadcast_to_rank`: adds leading unit dimensions up to `rank`."""
    shape = get_aval(x).shape
    if len(shape) >= rank:
        return x
    return broadcast(x, (1,) * (rank - len(shape)))


def broadcast_like(arr: Any, like_arr: Any) -> Any:
    """`lax.broadcast_like`: `arr` broadcast (numpy's rules) to the shape of `like_arr`.

    Args:
      arr: the array to broadcast; keeps its dtype.
      like_arr: the array whose shape to take.

    Returns:
      `arr`'s values in `like_arr`'s shape.
    """
    aval, shape = get_aval(arr), get_aval(like_arr).shape
    lead = len(shape) - aval.ndim
    if lead < 0 or any(d not in (1, s) for d, s in zip(aval.shape, shape[lead:])):
        want = aval.update(shape=shape, weak_type=False).str_short(short_dtypes=False)
        have = aval.update(weak_type=False).str_short(short_dtypes=False)
        raise ValueError(
            f"Incompatible types for broadcasting: input type={have} and requested type={want}"
        )
    return shapes.broadcast_in_dim(arr, shape, tuple(range(lead, len(shape))))


def stack(operands: Sequence[Any], axis: int = 0) -> Any:
    """`lax.stack`: joins arrays of one shape along a new `axis`."""
    return ix.stack(operands, axis)


def tile(operand: Any, reps: Sequence[int]) -> Any:
    """`lax.tile`: repeats `operand` `reps[i]` times along each dimension i."""
    return ix.tile(operand, reps)


def empty(shape: int | Sequence[int], dtype: Any, *, out_sharding: Any = None) -> Any:
    """`lax.empty`: an array of `shape` and `dtype` (zeros here: never uninitialised memory)."""
    shape = (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(shape)
    return shapes.full(shape, 0, dtypes.canonicalize_dtype(dtype))


def conv_general_dilated_patches(
    lhs: Any,
    filter_shape: Sequence[int],
    window_strides: Sequence[int],
    padding: str | Sequence[tuple[int, int]],
    lhs_dilation: Sequence[int] | None = None,
    rhs_dilation: Sequence[int] | None = None,
    dimension_numbers: Any = None,
    precision: Any = None,
    preferred_element_type: Any = None,
) -> Any:
    """`lax.conv_general_dilated_patches`: the image patches a convolution would see.

    Output features are ordered (input channel, *filter_shape) flattened, as in JAX; computed
    as a depthwise convolution with a one-hot kernel.
    """
    filter_shape = tuple(int(s) for s in filter_shape)
    lhs_shape = get_aval(lhs).shape
    dn = conv_dimension_numbers(lhs_shape, (1, 1) + filter_shape, dimension_numbers)
    lhs_spec, rhs_spec, _ = dn
    k = int(np.prod(filter_shape, dtype=np.int64))
    channels = lhs_shape[lhs_spec[1]]
    eye = np.eye(k, dtype=get_aval(lhs).dtype).reshape((k, 1) + filter_shape)
    kernel = np.tile(eye, (channels,) + (1,) * (eye.ndim - 1))
    kernel = np.moveaxis(kernel, (0, 1), (rhs_spec[0], rhs_spec[1]))
    return conv_general_dilated(
        lhs,
        np.ascontiguousarray(kernel),
        window_strides,
        padding,
        lhs_dilation=lhs_dilation,
        rhs_dilation=rhs_dilation,
        dimension_numbers=dn,
        feature_group_count=channels,
        preferred_element_type=preferred_element_type,
    )


# ---------------------------------------------------------------------------------------------
# reduce and associative_scan


def _monoid_reducer(computation: Callable, aval: Any) -> Callable | None:
    """The reduction primitive wrapper when `computation` is a single add/mul/max/min/and/or."""
    scalar = type(aval)((), aval.dtype)
    try:
        jaxpr, _ = trace_to_jaxpr(lambda a, b: [computation(a, b)], [scalar, scalar])
    except Exception:  # any computation that does not trace on two scalars: generic path
        return None
    if len(jaxpr.eqns) != 1 or jaxpr.eqns[0].outputs[0] is not jaxpr.outvars[0]:
        return None
    eqn = jaxpr.eqns[0]
    if set(eqn.inputs) != set(jaxpr.invars) or len(eqn.inputs) != 2:
        return None
    table = {
        "add": red.reduce_sum,
        "mul": red.reduce_prod,
        "max": red.reduce_max,
        "min": red.reduce_min,
        "and": red.reduce_and if aval.dtype == np.bool_ else None,
        "or": red.reduce_or if aval.dtype == np.bool_ else None,
    }
    return table.get(eqn.prim.name)


def _halving_reduce(combine: Callable, xs: list[Any], inits: list[Any], axis: int) -> list[Any]:
    """Reduces `xs` along `axis` by combining halves until one element is left (keeps the axis)."""
    n = get_aval(xs[0]).shape[axis]
    if n == 0:
        return [_filled_like_axis(x, i, axis, 1) for x, i in zip(xs, inits)]
    while n > 1:
        if n % 2:
            xs = [
                concatenate([x, _filled_like_axis(x, i, axis, 1)], axis) for x, i in zip(xs, inits)
            ]
            n += 1
        h = n // 2
        xs = combine(
            [slice_in_dim(x, 0, h, 1, axis) for x in xs],
            [slice_in_dim(x, h, n, 1, axis) for x in xs],
        )
        n = h
    return xs


def _filled_like_axis(x: Any, value: Any, axis: int, size: int) -> Any:
    shape = list(get_aval(x).shape)
    shape[axis] = size
    return shapes.broadcast_in_dim(value, tuple(shape), ())


def reduce(
    operands: Any,
    init_values: Any,
    computation: Callable[[Any, Any], Any],
    dimensions: Sequence[int],
    out_sharding: Any = None,
) -> Any:
    """`lax.reduce`: reduces `operands` over `dimensions` with `computation` from `init_values`.

    `computation` must be associative and commutative (as XLA requires). Single-operand
    add/mul/max/min (and bool and/or) with their identity as init become the reduction
    primitives; other computations bind JAX's `reduce` primitive (the computation staged on
    scalars), whose value is the computation applied pairwise, elementwise on whole halves.

    Args:
      operands: an array or a pytree of arrays of one shape.
      init_values: matching scalars (the computation's identity).
      computation: `(acc, x) -> acc` on pytrees of the operands' structure.
      dimensions: the dimensions to reduce.

    Returns:
      The reduced array (or pytree).
    """
    flat, tree = tree_util.tree_flatten(operands)
    inits, init_tree = tree_util.tree_flatten(init_values)
    if tree != init_tree:  # JAX's ValueErrors (ShapeError is one)
        raise ShapeError(
            f"Operands must have the same tree structure as init_values: {tree} vs. {init_tree}"
        )
    init_shapes = [np.shape(i) for i in inits]
    if any(init_shapes):
        raise ShapeError(f"reduce found non-scalar initial value: {init_shapes}")
    aval0 = get_aval(flat[0])
    if any(not 0 <= int(d) < aval0.ndim for d in dimensions):
        raise ValueError(
            f"reduction axes {tuple(dimensions)} contains out-of-bounds indices for "
            f"{aval0.str_short()}.\nName dimensions in [0, {aval0.ndim}); lax.reduce takes no "
            "negative ones."
        )
    dims = tuple(int(d) for d in dimensions)
    if len(set(dims)) != len(dims):
        raise ShapeError(f"duplicate value in 'axes' of reduction: {dims}")
    dims = tuple(sorted(dims))
    inits = [
        ew.full_like(shapes.full((), 0, get_aval(x).dtype), i) if not hasattr(i, "aval") else i
        for x, i in zip(flat, inits)
    ]
    if len(flat) == 1:
        reducer = _monoid_reducer(computation, get_aval(flat[0]))
        if reducer is not None:
            out = reducer(flat[0], dims)
            ident = _identity(reducer, get_aval(flat[0]).dtype)
            init = inits[0]
            concrete = getattr(init, "_value", None)
            if concrete is None or ident is None or not np.array_equal(concrete, ident):
                out = computation(shapes.broadcast_in_dim(init, get_aval(out).shape, ()), out)
            elif get_aval(out).weak_type and not get_aval(init).weak_type:
                out = shapes.convert_element_type(out, get_aval(out).dtype)  # weak if both are
            return tree_util.tree_unflatten(tree, [out])

    def fun(*xs):
        n = len(xs) // 2
        a = tree_util.tree_unflatten(tree, list(xs[:n]))
        out, out_tree = tree_util.tree_flatten(
            computation(a, tree_util.tree_unflatten(tree, list(xs[n:])))
        )
        if out_tree != tree:
            raise TypeError(
                f"reduce: the computation must return the operands' structure {tree}, got "
                f"{out_tree}"
            )
        return out

    scalars = [ShapedArray((), get_aval(x).dtype) for x in flat]
    jaxpr, consts = trace_to_jaxpr(fun, scalars + scalars)
    closed = ClosedJaxpr(jaxpr, consts)
    inits = [shapes.convert_element_type(i, a.dtype) for i, a in zip(inits, scalars)]
    outs = reduce_p.bind(*flat, *inits, computation=computation, jaxpr=closed, dimensions=dims)
    return tree_util.tree_unflatten(tree, outs)


def _halving_composition(combine: Callable, xs: list, inits: list, dims: tuple) -> list:
    """`xs` reduced over `dims` by `combine(as, bs) -> list`, pairwise on whole halves, the
    init values joining once per output element (a no-op when they are the identity)."""
    for d in reversed(dims):
        xs = _halving_reduce(combine, xs, inits, d)
    keep = tuple(s for i, s in enumerate(get_aval(xs[0]).shape) if i not in dims)
    xs = [shapes.reshape(x, keep) for x in xs]
    return combine([shapes.broadcast_in_dim(i, keep, ()) for i in inits], xs)


def _reduce_composition(*args: Any, computation: Callable, jaxpr: Any, dimensions: tuple):
    n = len(args) // 2
    closed = jaxpr if isinstance(jaxpr, ClosedJaxpr) else ClosedJaxpr(jaxpr, [])

    def combine(a, b):
        fun = lambda *xs: eval_jaxpr(closed.jaxpr, closed.consts, *xs)  # noqa: E731
        return batching.scalar_call(fun, [*a, *b])

    return _halving_composition(combine, list(args[:n]), list(args[n:]), dimensions)


def _reduce_abstract_eval(*args: ShapedArray, computation, jaxpr, dimensions):
    n = len(args) // 2
    for x, i in zip(args[:n], args[n:]):
        if x.shape != args[0].shape or i.shape != () or i.dtype != x.dtype:
            raise TypeError(
                "reduce: the operands must have one shape and the init values be scalars of "
                f"their dtypes, got {x.dtype}{list(x.shape)} and {i.dtype}{list(i.shape)}"
            )
    return [ShapedArray(red.reduced_shape("reduce", x, dimensions), x.dtype) for x in args[:n]]


def _reduce_jvp(primals, tangents, **params):
    # the jvp of the pairwise composition (JAX's rule differentiates its own tree of halves)
    outs = reduce_p.bind(*primals, **params)
    tangents = [instantiate(t) for t in tangents]
    fun = lambda *xs: _reduce_composition(*xs, **params)  # noqa: E731
    return outs, jvp_flat(fun, primals, tangents)[1]


def _reduce_batch(args, dims, *, dimensions, **params):
    # JAX's: the operands' batch axes in front, the reduced dimensions renumbered past it
    n = len(args) // 2
    if any(d is not None for d in dims[n:]):
        raise NotImplementedError("reduce batching is not implemented for initial values")
    size = next(get_aval(x).shape[d] for x, d in zip(args, dims) if d is not None)
    operands = [batching.moveaxis(x, d, 0, size) for x, d in zip(args[:n], dims[:n])]
    dimensions = tuple(d + 1 for d in dimensions)
    outs = reduce_p.bind(*operands, *args[n:], dimensions=dimensions, **params)
    return outs, [0] * n


reduce_p = Primitive("reduce", multiple_results=True)
reduce_p.def_composed(_reduce_composition)
reduce_p.def_abstract_eval(_reduce_abstract_eval)
reduce_p.def_jvp(_reduce_jvp)
reduce_p.def_batch(_reduce_batch)


def _identity(reducer: Callable, dt: np.dtype) -> Any:
    if reducer is red.reduce_sum:
        return np.zeros((), dt)
    if reducer is red.reduce_prod:
        return np.ones((), dt)
    if reducer is red.reduce_and:
        return np.True_
    if reducer is red.reduce_or:
        return np.False_
    if dt.kind == "f":
        return np.asarray(-np.inf if reducer is red.reduce_max else np.inf, dt)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return np.asarray(info.min if reducer is red.reduce_max else info.max, dt)
    return None


def _bitwise_reduction(name: str, operand: Any, axes: Sequence[int], ident: int, fn) -> Any:
    dt = get_aval(operand).dtype
    if dt.kind not in "biu":
        raise TypeError(f"{name} is a logical reduction: it needs a bool or int operand, got {dt}")
    return reduce(operand, shapes.full((), ident, dt), fn, axes)


def _reduce_xor(operand: Any, *, axes: tuple[int, ...]) -> Any:
    zero = shapes.full((), 0, get_aval(operand).dtype)
    xor = lambda a, b: [ew.bitwise_xor(a[0], b[0])]  # noqa: E731
    return _halving_composition(xor, [operand], [zero], tuple(sorted(axes)))[0]


def _reduce_xor_abstract_eval(x: Any, *, axes: tuple[int, ...]) -> ShapedArray:
    if x.dtype.kind not in "biu":
        raise TypeError(
            f"reduce_xor is a logical reduction: it needs a bool or int operand, got {x.dtype}"
        )
    return ShapedArray(red.reduced_shape("reduce_xor", x, axes), x.dtype, x.weak_type)


reduce_xor_p = Primitive("reduce_xor")
reduce_xor_p.def_impl(lambda x, *, axes: np.bitwise_xor.reduce(x, axis=axes))
reduce_xor_p.def_abstract_eval(_reduce_xor_abstract_eval)
reduce_xor_p.def_composition(_reduce_xor)
defjvp_zero(reduce_xor_p)
red.batch_axes_rule(reduce_xor_p)


def reduce_xor(operand: Any, axes: Sequence[int]) -> Any:
    """`lax.reduce_xor`: bitwise xor over `axes` (parity for booleans)."""
    return reduce_xor_p.bind(operand, axes=tuple(int(a) for a in axes))


def reduce_and(operand: Any, axes: Sequence[int]) -> Any:
    """`lax.reduce_and`: logical (bool) or bitwise (integer) and over `axes`."""
    if get_aval(operand).dtype == np.bool_:
        return red.reduce_and(operand, axes)
    return _bitwise_reduction("reduce_and", operand, axes, -1, ew.bitwise_and)


def reduce_or(operand: Any, axes: Sequence[int]) -> Any:
    """`lax.reduce_or`: logical (bool) or bitwise (integer) or over `axes`."""
    if get_aval(operand).dtype == np.bool_:
        return red.reduce_or(operand, axes)
    return _bitwise_reduction("reduce_or", operand, axes, 0, ew.bitwise_or)


# ---------------------------------------------------------------------------------------------
# Small utilities of jax.lax


def dtype(x: Any) -> np.dtype:
    """`lax.dtype`: the canonical dtype of a value or of a dtype-like (`np.float64` -> float32
    with x64 off)."""
    if isinstance(x, (type, str, np.dtype)):
        return dtypes.canonicalize_dtype(x)
    return dtypes.dtype_and_weak(x)[0]


def broadcast_shapes(*shapes_: Sequence[int]) -> tuple[int, ...]:
    """`lax.broadcast_shapes`: the numpy-style broadcast of static shapes (ValueError if they
    do not broadcast, TypeError for a size that is not a non-negative integer)."""
    return numpy_broadcast_shapes(*shapes_)


def shape_as_value(shape: Sequence[int]) -> Any:
    """`lax.shape_as_value`: a shape as an int32 array (`[]` for `()`). numbax shapes are
    static, so this is a constant (JAX's symbolic dimensions would compute)."""
    return as_value(np.asarray(canonical_shape(shape), np.int32))


def unstack(x: Any, axis: int = 0) -> tuple[Any, ...]:
    """`lax.unstack`: the slices of `x` along `axis`, that axis removed."""
    return tuple(ix.unstack(x, axis))


def approx_max_k(
    operand: Any,
    k: int,
    reduction_dimension: int = -1,
    recall_target: float = 0.95,
    reduction_input_size_override: int = -1,
    aggregate_to_topk: bool = True,
) -> list[Any]:
    """`lax.approx_max_k`: the `k` largest entries along `reduction_dimension` and their
    indices (JAX's `approx_top_k` primitive; exact here: recall 1 meets any `recall_target`)."""
    return sorting.approx_top_k(
        operand,
        k,
        reduction_dimension,
        recall_target,
        True,
        reduction_input_size_override,
        aggregate_to_topk,
    )


def approx_min_k(
    operand: Any,
    k: int,
    reduction_dimension: int = -1,
    recall_target: float = 0.95,
    reduction_input_size_override: int = -1,
    aggregate_to_topk: bool = True,
) -> list[Any]:
    """`lax.approx_min_k`: the `k` smallest entries along `reduction_dimension` and their
    indices, exactly (see `approx_max_k`)."""
    return sorting.approx_top_k(
        operand,
        k,
        reduction_dimension,
        recall_target,
        False,
        reduction_input_size_override,
        aggregate_to_topk,
    )


def map(f: Callable, xs: Any, *, batch_size: int | None = None) -> Any:  # noqa: A001
    """`lax.map`: `f` applied to each slice of `xs` along axis 0, as a scan.

    Args:
      f: function of one slice (a pytree).
      xs: a pytree of arrays with a common leading size.
      batch_size: when given, slices are processed `batch_size` at a time with `vmap`.

    Returns:
      The stacked outputs.
    """
    if batch_size is not None:
        batch_size = operator.index(batch_size)  # JAX's TypeError for a float
    if not batch_size:  # None or 0: one slice at a time, as JAX
        return scan(lambda c, x: (c, f(x)), (), xs)[1]
    leaves = tree_util.tree_leaves(xs)
    n = get_aval(leaves[0]).shape[0]
    nb, rem = divmod(n, batch_size)
    if batch_size < 0:  # JAX's reshape of the leading axis to (n // batch_size, batch_size)
        first = (
            f"reshape new_sizes must all be positive, got {(nb, batch_size)}."
            if nb * batch_size == n
            else f"cannot reshape array of shape ({n},) (size {n}) into shape "
            f"{(nb, batch_size)} (size {nb * batch_size})"
        )
        raise MapBatchSizeError(f"{first}\nlax.map batch_size must be positive, got {batch_size}.")
    main = tree_util.tree_map(
        lambda x: shapes.reshape(
            slice_in_dim(x, 0, nb * batch_size), (nb, batch_size, *get_aval(x).shape[1:])
        ),
        xs,
    )
    ys = scan(lambda c, x: (c, vmap(f)(x)), (), main)[1]
    ys = tree_util.tree_map(
        lambda y: shapes.reshape(y, (nb * batch_size, *get_aval(y).shape[2:])), ys
    )
    if rem:
        tail = vmap(f)(tree_util.tree_map(lambda x: slice_in_dim(x, nb * batch_size, n), xs))
        ys = tree_util.tree_map(lambda a, b: concatenate([a, b], 0), ys, tail)
    return ys


def conv_general_dilated_local(
    lhs: Any,
    rhs: Any,
    window_strides: Sequence[int],
    padding: str | Sequence[tuple[int, int]],
    filter_shape: Sequence[int],
    lhs_dilation: Sequence[int] | None = None,
    rhs_dilation: Sequence[int] | None = None,
    dimension_numbers: Any = None,
    precision: Any = None,
) -> Any:
    """`lax.conv_general_dilated_local`: a convolution whose filter differs at every output
    position (an unshared, "locally connected" convolution), as JAX computes it: the patches
    of `conv_general_dilated_patches` contracted with ``rhs`` position by position.

    Args:
      lhs: the input, ``N, C, *spatial`` in the default layout.
      rhs: the per-position filters, ``(C * prod(filter_shape), O, *out_spatial)`` in the
        layout of ``dimension_numbers``'s rhs spec (``I`` is the flattened patch,
        channel-major; the spatial dimensions are the output's).
      window_strides: the strides.
      padding: ``"SAME"``, ``"VALID"`` or ``(low, high)`` pairs.
      filter_shape: the spatial shape of the filters.
      lhs_dilation, rhs_dilation: dilations, default 1.
      dimension_numbers: as `conv_general_dilated`.
      precision: one precision or an ``(lhs, rhs)`` pair (hints, no effect on the CPU).

    Returns:
      The output, in ``dimension_numbers``'s output layout.
    """
    if precision is None or not isinstance(precision, (tuple, list)):
        lhs_precision = precision
    elif len(precision) == 2:
        lhs_precision = precision[0]
    else:
        raise ValueError(f"Unsupported precision for conv_general_dilated_local: {precision}")
    patches = conv_general_dilated_patches(
        lhs,
        filter_shape=filter_shape,
        window_strides=window_strides,
        padding=padding,
        lhs_dilation=lhs_dilation,
        rhs_dilation=rhs_dilation,
        dimension_numbers=dimension_numbers,
        precision=lhs_precision,
    )
    lhs_shape = get_aval(lhs).shape
    _, rhs_spec, out_spec = conv_dimension_numbers(
        lhs_shape, (1, 1) + tuple(int(s) for s in filter_shape), dimension_numbers
    )
    lhs_b_dims, rhs_b_dims = list(out_spec[2:]), list(rhs_spec[2:])
    rhs_b_dims = [
        rhs_b_dims[i] for i in sorted(range(len(rhs_b_dims)), key=lambda k: lhs_b_dims[k])
    ]
    lhs_b_dims = sorted(lhs_b_dims)
    dn = (([out_spec[1]], [rhs_spec[1]]), (lhs_b_dims, rhs_b_dims))
    out = dot_general(patches, rhs, dn, precision=precision)
    # (*batch, N, O) -> the output layout: N and O moved to out_spec[0] and out_spec[1]
    ndim = len(get_aval(out).shape)
    src, dst = (ndim - 2, ndim - 1), (out_spec[0], out_spec[1])
    order = [i for i in range(ndim) if i not in src]
    for d, s_ in sorted(zip(dst, src)):
        order.insert(d, s_)
    return shapes.transpose(out, tuple(order))


def ragged_dot(
    lhs: Any,
    rhs: Any,
    group_sizes: Any,
    precision: Any = None,
    preferred_element_type: Any = None,
    group_offset: Any = None,
) -> Any:
    """`lax.ragged_dot`: row `i` of `lhs (m, k)` times `rhs[g] (k, n)`, `g` the group that row
    belongs to (consecutive groups of `group_sizes (g,)` rows; rows past them give 0).

    Every group's product is computed and the rows keep their group's (`g` times the work of
    one product; exact, as the other groups contribute zeros).

    Args:
        lhs: `(m, k)`.
        rhs: `(g, k, n)`.
        group_sizes: `(g,)` integers.
        precision: accepted for compatibility.
        preferred_element_type: the result dtype (default: the operands').
        group_offset: not implemented (None only).

    Returns:
        `(m, n)`.
    """
    if group_offset is not None:
        raise NotImplementedError("lax.ragged_dot: group_offset is not implemented; pass None.")
    lhs_aval, rhs_aval, sizes_aval = get_aval(lhs), get_aval(rhs), get_aval(group_sizes)
    if sizes_aval.shape[0] != rhs_aval.shape[0]:
        raise TypeError(
            f"expected rhs group dimension size to be {sizes_aval.shape[0]}, got "
            f"{rhs_aval.shape[0]}."
        )
    products = dot_general(  # (m, g, n)
        lhs, rhs, (((1,), (1,)), ((), ())), preferred_element_type=preferred_element_type
    )
    ends = sorting.cumsum(group_sizes, 0, False)
    starts = ew.sub(ends, group_sizes)
    rows = shapes.iota(sizes_aval.dtype, (lhs_aval.shape[0], sizes_aval.shape[0]), 0)
    shape = (lhs_aval.shape[0], sizes_aval.shape[0])
    ends = shapes.broadcast_in_dim(ends, shape, (1,))
    starts = shapes.broadcast_in_dim(starts, shape, (1,))
    inside = ew.bitwise_and(ew.ge(rows, starts), ew.lt(rows, ends))
    out_shape = get_aval(products).shape
    inside = shapes.broadcast_in_dim(inside, out_shape, (0, 1))
    zeros = ew.full_like(products, 0)
    return red.reduce_sum(ew.select_n(inside, zeros, products), (1,))


@dataclasses.dataclass(frozen=True)
class RaggedDotDimensionNumbers:
    """The dimensions of `ragged_dot_general` (JAX's `lax.RaggedDotDimensionNumbers`).

    Args:
      dot_dimension_numbers: ``((lhs_contracting, rhs_contracting), (lhs_batch,
        rhs_batch))``, as `dot_general`'s.
      lhs_ragged_dimensions: the lhs's one ragged dimension, ``[d]``.
      rhs_group_dimensions: the rhs's group dimension (``[d]``, ragged non-contracting mode)
        or ``[]``.
    """

    dot_dimension_numbers: Any
    lhs_ragged_dimensions: Sequence[int]
    rhs_group_dimensions: Sequence[int]

    def __init__(self, dot_dimension_numbers, lhs_ragged_dimensions, rhs_group_dimensions):
        dn = tuple(tuple(tuple(d) for d in t) for t in dot_dimension_numbers)
        object.__setattr__(self, "dot_dimension_numbers", dn)
        object.__setattr__(self, "lhs_ragged_dimensions", tuple(lhs_ragged_dimensions))
        object.__setattr__(self, "rhs_group_dimensions", tuple(rhs_group_dimensions))


def _remaining(dims: Sequence[int], *removed: Sequence[int]) -> list[int]:
    gone = {d for r in removed for d in r}
    return [d for d in dims if d not in gone]


def _ragged_to_dense(x: Any, gs: Any, dim: int) -> Any:
    """``x`` repeated per group along a new leading axis, zero outside the group's slice of
    axis ``dim`` (JAX's ragged_to_dense)."""
    x_shape = get_aval(x).shape
    shape = get_aval(gs).shape + x_shape
    x = shapes.broadcast_in_dim(x, shape, tuple(range(1, len(shape))))
    iota = shapes.iota(get_aval(gs).dtype, shape, dim + 1)
    ends = sorting.cumsum(gs, 0, False)
    starts = concatenate([ew.full_like(gs, 0)[:1], ends[:-1]], 0)
    ends = shapes.broadcast_in_dim(ends, shape, (0,))
    starts = shapes.broadcast_in_dim(starts, shape, (0,))
    mask = ew.bitwise_and(ew.le(starts, iota), ew.lt(iota, ends))
    return ew.select_n(mask, ew.full_like(x, 0), x)


def _batched_ragged_to_dense(dim: int, *x_in_axes: int) -> Callable[[Any, Any], Any]:
    if not x_in_axes:
        return lambda x, gs: _ragged_to_dense(x, gs, dim)
    x_axis, *rest = x_in_axes
    decr = lambda d: d - 1 if d >= x_axis else d
    return vmap(_batched_ragged_to_dense(decr(dim), *[decr(a) for a in rest]), in_axes=(x_axis, 0))


def _expand(x: Any, dim: int, gs: Any, *axes: int) -> Any:
    """``x``'s ragged ``dim`` expanded to a leading group axis, given its batching ``axes``
    (``[m,k], [g] -> [g,m,k]``; ``[b1,m,b2,k], [b1,b2,g] -> [g,b1,m,b2,k]``)."""
    ndim = len(get_aval(x).shape)
    expanded = _batched_ragged_to_dense(dim, *axes)(x, gs)
    unsorted = [a + 1 for a in axes] + [0] + [d + 1 for d in _remaining(range(ndim), axes)]
    return shapes.transpose(expanded, tuple(int(i) for i in np.argsort(unsorted)))


def _ragged_in_range(dim: int, rank: int, what: str, side: str) -> None:
    if not 0 <= dim < rank:
        raise ShapeError(
            f"ragged_dot_general requires {what} numbers to be nonnegative and less than the "
            f"number of axes of the {side} value, got {dim} for {side} of rank {rank}."
        )


def ragged_dot_general(
    lhs: Any,
    rhs: Any,
    group_sizes: Any,
    ragged_dot_dimension_numbers: RaggedDotDimensionNumbers,
    precision: Any = None,
    preferred_element_type: Any = None,
    group_offset: Any = None,
    out_sharding: Any = None,
) -> Any:
    """`lax.ragged_dot_general`: a `dot_general` whose lhs has one ragged dimension split into
    consecutive groups of ``group_sizes``, computed as JAX's reference implementation (dense
    per-group masks). The three modes, by the kind of the lhs ragged dimension:

    1. non-contracting (``m``): ``[b,m,k], [g,b,k,n], [b,g] -> [b,m,n]``, each group's rows
       times its own rhs;
    2. contracting (``k``): ``[b,m,k], [b,k,n], [b,g] -> [g,b,m,n]``, one product per group;
    3. batch (``b``): ``[b,m,k], [b,k,n], [g] -> [b,m,n]``, `dot_general` itself.

    Args:
      lhs, rhs: the operands.
      group_sizes: integer group sizes, ``[g]`` (broadcast) or with the leading dimensions
        above.
      ragged_dot_dimension_numbers: a `RaggedDotDimensionNumbers`.
      precision: a precision hint (no effect on the CPU).
      preferred_element_type: the result dtype.
      group_offset: not implemented (None only), as in JAX.
      out_sharding: None only (one device).

    Returns:
      The product: `dot_general`'s shape, with a leading ``g`` dimension in mode 2.

    Raises:
      NotImplementedError: for ``group_offset``.
      TypeError: JAX's shape-rule errors (the ragged and group dimensions, group_sizes'
        shape).
    """
    del out_sharding
    if group_offset is not None:
        raise NotImplementedError("Unimplemented group_offset support.")
    rdn = ragged_dot_dimension_numbers
    lhs_shape, rhs_shape = get_aval(lhs).shape, get_aval(rhs).shape
    (l_contract, r_contract), (l_batch, r_batch) = rdn.dot_dimension_numbers
    l_contract, r_contract, l_batch, r_batch = (
        list(d) for d in (l_contract, r_contract, l_batch, r_batch)
    )
    # JAX's shape rule: its checks in its order, its messages
    if len(rdn.lhs_ragged_dimensions) != 1:
        raise ShapeError("ragged_dot_general expects exactly one lhs ragged dimension.")
    ragged = rdn.lhs_ragged_dimensions[0]
    _ragged_in_range(ragged, len(lhs_shape), "lhs ragged dimension", "lhs")
    noncontract = _remaining(range(len(lhs_shape)), l_contract, l_batch)
    if ragged in noncontract:
        prefix = l_batch + noncontract[: noncontract.index(ragged)]
    elif ragged in l_contract:
        prefix = l_batch + l_contract[: l_contract.index(ragged)]
    else:  # in range, the ragged dimension is a batch one if neither of the others
        prefix = l_batch[: l_batch.index(ragged)]
    gs_shape = get_aval(group_sizes).shape
    if not gs_shape:
        raise ShapeError("expected rank of group_sizes to be >=1.")
    want = (*(lhs_shape[i] for i in prefix), gs_shape[-1])
    if len(gs_shape) != 1 and gs_shape != want:
        raise ShapeError(f"expected group_sizes to have shape {want}, got {gs_shape}.")
    if ragged not in noncontract and rdn.rhs_group_dimensions:
        raise ShapeError(
            "ragged_dot_general requires zero group dimensions in the rhs when lhs ragged "
            "dimension is contracting or batch."
        )
    if ragged in noncontract:
        if len(rdn.rhs_group_dimensions) != 1:
            raise ShapeError(
                "ragged_dot_general requires exactly one rhs group dimension when lhs ragged "
                "dimension is noncontracting."
            )
        (group_dim,) = rdn.rhs_group_dimensions
        _ragged_in_range(group_dim, len(rhs_shape), "rhs group dimension", "rhs")
        if group_dim in r_batch or group_dim in r_contract:
            raise ShapeError(
                "ragged_dot_general requires rhs group dimension numbers to be distinct from "
                "contracting and batch dimensions."
            )
        if rhs_shape[group_dim] != gs_shape[-1]:
            raise ShapeError(
                f"expected rhs group dimension size to be {gs_shape[-1]}, got "
                f"{rhs_shape[group_dim]}."
            )
    if len(gs_shape) == 1:
        pre = tuple(lhs_shape[i] for i in prefix)
        group_sizes = shapes.broadcast_in_dim(group_sizes, pre + gs_shape, (len(pre),))
    incr = lambda dims: [d + 1 for d in dims]

    def dot(a, b, dn):
        return dot_general(
            a, b, dn, precision=precision, preferred_element_type=preferred_element_type
        )

    if ragged in noncontract:
        (group_dim,) = rdn.rhs_group_dimensions
        dn = ((incr(l_contract) + [0], r_contract + [group_dim]), (incr(l_batch), r_batch))
        return dot(_expand(lhs, ragged, group_sizes, *prefix), rhs, dn)
    if ragged in l_contract:
        rhs_ragged = r_contract[l_contract.index(ragged)]
        r_prefix = r_batch + r_contract[: r_contract.index(rhs_ragged)]
        dn = ((incr(l_contract), incr(r_contract)), ([0] + incr(l_batch), [0] + incr(r_batch)))
        return dot(
            _expand(lhs, ragged, group_sizes, *prefix),
            _expand(rhs, rhs_ragged, group_sizes, *r_prefix),
            dn,
        )
    return dot(lhs, rhs, rdn.dot_dimension_numbers)


def platform_dependent(
    *args: Any, default: Callable[..., Any] | None = None, **per_platform: Callable[..., Any]
) -> Any:
    """`lax.platform_dependent`: calls the branch for the platform the code runs on, the CPU
    (`cpu=`), else `default`.

    Args:
        *args: the branch's arguments.
        default: the branch for platforms not named.
        **per_platform: branches by platform name (`cpu`, `cuda`, `rocm`, `tpu`).

    Returns:
        The branch's result.
    """
    branch = per_platform.get("cpu", default)
    if branch is None:
        raise NotImplementedError(
            "lax.platform_dependent: numbax runs on the cpu platform, and no `cpu=` or "
            f"`default=` branch was given (only {sorted(per_platform)})."
        )
    return branch(*args)


class CompositeJVPError(NumbaxError, ValueError):
    """A `lax.composite` function has no derivative (JAX's composite primitive has no JVP).

    Failing code: ``jax.grad(lax.composite(lambda x: x**2, name="my.square"))(1.0)``. Fix:
    give the decomposition a rule with `jax.custom_jvp`, or differentiate the decomposition.
    """


def _no_composite_jvp(primals: Any, tangents: Any) -> Any:
    raise CompositeJVPError(
        "JVP rule for composite not implemented. You can use `jax.custom_jvp` to add support. "
        "See https://docs.jax.dev/en/latest/_autosummary/jax.custom_jvp.html"
    )


def composite(decomposition: Callable[..., Any], name: str, version: int = 0) -> Callable:
    """`lax.composite`: `decomposition` marked as the named operation `name` for compilers
    that have a fused version; numbax has none and calls `decomposition` (its equations
    appear inline in jaxprs, where JAX shows one `composite` equation). Differentiating it is
    JAX's ValueError (`CompositeJVPError`).

    Args:
        decomposition: the function (keyword arguments are the composite's attributes).
        name: the operation's name, e.g. "my.softmax".
        version: its version.

    Returns:
        A function with `decomposition`'s signature.
    """

    def call(*args: Any, **kwargs: Any) -> Any:
        if not args:
            return decomposition(**kwargs)

        def bound(*xs: Any) -> Any:
            return decomposition(*xs, **kwargs)

        bound.__name__ = name  # jaxprs name the custom_jvp_call after the composite
        fn = custom_jvp(bound)
        fn.defjvp(_no_composite_jvp)
        return fn(*args)

    call.__name__ = name
    call.__doc__ = decomposition.__doc__
    return call
