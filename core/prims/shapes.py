"""Shape and dtype primitives: broadcast_in_dim, reshape, squeeze, transpose, convert_element_type,
iota.

These are the movement ops `core.numpy` builds broadcasting and reshaping from. All but
`convert_element_type` to or from integers are linear, so their transposes are short:
the transpose of a broadcast is a sum, of a reshape a reshape, of a transpose the inverse
permutation. In the numba lowering they are index arithmetic inside fused loops or free views.
"""

from __future__ import annotations

import enum
import warnings
from typing import Any

import numpy as np

from core import ad_util, dtypes
from core.ad_util import Zero
from core.array import Array, placement
from core.avals import ShapedArray
from core.errors import DTypeError, KeyDTypeConversionError, ShapeError
from core.interpreters import batching
from core.interpreters.jvp import defjvp_zero, deflinear
from core.primitive import Primitive, jax_params
from core.trace import Tracer, get_aval

# ---------------------------------------------------------------------------------------------
# broadcast_in_dim: operand dim i becomes output dim broadcast_dimensions[i] (distinct, in any
# order, as JAX's: `broadcast_dimensions=(1, 0)` also transposes)

broadcast_in_dim_p = Primitive("broadcast_in_dim")


def _in_output_order(broadcast_dimensions) -> list[int]:
    """The operand's axes in the order their output axes come."""
    return sorted(range(len(broadcast_dimensions)), key=broadcast_dimensions.__getitem__)


def _bid_impl(x, *, shape, broadcast_dimensions):
    if x.ndim == 0:  # a filled array: contiguous, so jitted calls need not copy it
        return np.full(shape, x, dtype=x.dtype)
    order = _in_output_order(broadcast_dimensions)
    x, broadcast_dimensions = x.transpose(order), [broadcast_dimensions[i] for i in order]
    expanded = [1] * len(shape)
    for i, d in enumerate(broadcast_dimensions):
        expanded[d] = x.shape[i]
    return np.broadcast_to(x.reshape(expanded), shape)


def _bid_abstract_eval(x, *, shape, broadcast_dimensions):
    """JAX's shape rule, its checks in its order and with its messages."""
    bd = broadcast_dimensions
    if any(d < 0 for d in shape):
        msg = _negative_shape(shape)
    elif len(bd) != x.ndim:
        msg = (
            f"broadcast_in_dim broadcast_dimensions must have length equal to operand ndim; got "
            f"broadcast_dimensions {bd} for operand ndim {x.ndim}."
        )
    elif len(shape) < x.ndim:
        msg = (
            "broadcast_in_dim target broadcast shape must have equal or higher rank to the "
            f"operand shape; got operand ndim {x.ndim} and target broadcast ndim {len(shape)}."
        )
    elif not set(bd) <= set(range(len(shape))):
        msg = (
            "broadcast_in_dim broadcast_dimensions must be a subset of output dimensions, got "
            f"{bd} for operand ndim {x.ndim} and shape {shape}."
        )
    elif any(x.shape[i] not in (1, shape[d]) for i, d in enumerate(bd)):
        msg = (
            "broadcast_in_dim operand dimension sizes must either be 1, or be equal to their "
            "corresponding dimensions in the target broadcast shape; got operand of shape "
            f"{x.shape}, target broadcast shape {shape}, broadcast_dimensions {bd}"
        )
    elif len(set(bd)) != len(bd):
        msg = f"broadcast_in_dim broadcast_dimensions must not contain duplicates, got {bd}"
    else:
        return ShapedArray(shape, x.dtype, x.weak_type)
    raise ShapeError(msg)
    return ShapedArray(shape, x.dtype, x.weak_type)


def _bid_transpose(ct, x, *, shape, broadcast_dimensions):
    # JAX's rule: a sum (`ad_util.ops.reduce_sum`, since the reductions sit above this module)
    # over every axis but the operand's non-unit ones, then the unit axes back (`expand_dims`);
    # the compiler makes a sum over axes of size 1 a reshape (`core.jit.canonical`)
    in_shape = x.aval.shape
    order = _in_output_order(broadcast_dimensions)
    if order != sorted(order):  # numbax's broadcasts may also permute: sum, then transpose
        new = tuple(i for i in range(len(shape)) if i not in broadcast_dimensions)
        unit = tuple(d for i, d in enumerate(broadcast_dimensions) if in_shape[i] == 1)
        summed_axes = tuple(sorted(d for d in new + unit if shape[d] != 1))
        summed = ad_util.ops.reduce_sum(ct, summed_axes) if summed_axes else ct
        summed = reshape(summed, tuple(in_shape[i] for i in order))
        return [transpose(summed, tuple(np.argsort(order).tolist()))]
    unit_dims = tuple(i for i, n in enumerate(in_shape) if n == 1)
    kept = {d for i, d in enumerate(broadcast_dimensions) if i not in unit_dims}
    axes = tuple(i for i in range(len(shape)) if i not in kept)
    summed = ad_util.ops.reduce_sum(ct, axes) if axes else ct
    return [expand_dims(summed, unit_dims) if unit_dims else summed]


def _bid_batch(args, dims, *, shape, broadcast_dimensions):
    (x,), (d,) = args, dims
    size = get_aval(x).shape[d]
    x = batching.moveaxis(x, d, 0, size)
    out_shape = (size, *shape)
    bdims = (0, *np.add(1, broadcast_dimensions))  # numpy ints, as JAX's rule makes them
    return broadcast_in_dim(x, out_shape, bdims), 0


broadcast_in_dim_p.def_impl(_bid_impl)
broadcast_in_dim_p.def_abstract_eval(_bid_abstract_eval)
deflinear(broadcast_in_dim_p)
broadcast_in_dim_p.def_transpose(_bid_transpose)
broadcast_in_dim_p.def_batch(_bid_batch)
jax_params(broadcast_in_dim_p, sharding=None)


def static_ints(values: Any) -> tuple:
    """`values` as a tuple of ints, numpy ints kept: JAX's lax functions keep the parameters
    they are given, so the ones its rules compute with numpy print as `np.int64(2)`
    (`core.jit.canonical` makes them ints for the compiler)."""
    return tuple(v if isinstance(v, np.integer) else int(v) for v in values)


def broadcast_in_dim(
    operand: Any, shape: tuple[int, ...], broadcast_dimensions: tuple[int, ...]
) -> Any:
    """Broadcasts `operand` to `shape`; operand dimension i becomes `broadcast_dimensions[i]`."""
    shape, bdims = tuple(int(s) for s in shape), static_ints(broadcast_dimensions)
    if get_aval(operand).shape == shape and bdims == tuple(range(len(shape))):
        return operand
    return broadcast_in_dim_p.bind(operand, shape=shape, broadcast_dimensions=bdims)


# ---------------------------------------------------------------------------------------------
# reshape (row-major)

reshape_p = Primitive("reshape")


def _reshape_abstract_eval(x, *, new_sizes):
    if int(np.prod(new_sizes, dtype=np.int64)) != x.size:
        raise ShapeError(
            f"cannot reshape array of shape {x.shape} (size {x.size}) into {new_sizes}"
        )
    return ShapedArray(new_sizes, x.dtype, x.weak_type)


def _reshape_batch(args, dims, *, new_sizes):
    (x,), (d,) = args, dims
    size = get_aval(x).shape[d]
    return reshape(batching.moveaxis(x, d, 0, size), (size, *new_sizes)), 0


reshape_p.def_impl(lambda x, *, new_sizes: x.reshape(new_sizes))
reshape_p.def_abstract_eval(_reshape_abstract_eval)
deflinear(reshape_p)
reshape_p.def_transpose(lambda ct, x, *, new_sizes: [reshape(ct, x.aval.shape)])
reshape_p.def_batch(_reshape_batch)
jax_params(reshape_p, dimensions=None, sharding=None)


def reshape(x: Any, new_sizes: tuple[int, ...]) -> Any:
    """Row-major reshape to `new_sizes` (no -1 here; `jnp.reshape` resolves it)."""
    new_sizes = tuple(int(s) for s in new_sizes)
    if get_aval(x).shape == new_sizes:
        return x
    return reshape_p.bind(x, new_sizes=new_sizes)


def expand_dims(x: Any, dimensions: tuple[int, ...]) -> Any:
    """`lax.expand_dims`: inserts axes of size 1 at the output positions `dimensions` (a
    `broadcast_in_dim`, as JAX's: index arithmetic in fused loops, like a reshape)."""
    shape = list(get_aval(x).shape)
    nd = len(shape) + len(dimensions)
    for d in dimensions:
        if not -nd <= int(d) < nd:
            raise ShapeError(
                f"axis {d} is out of bounds for array of dimension {nd}\n"
                f"expand_dims: dimensions {tuple(dimensions)} must be in [{-nd}, {nd}) for a "
                f"result of rank {nd}."
            )
    dims = {int(d) % nd for d in dimensions}
    if len(dims) != len(dimensions):
        raise ValueError(f"repeated axis in lax.expand_dims: {tuple(dimensions)}")
    for d in sorted(dims):
        shape.insert(d, 1)
    return broadcast_in_dim(x, tuple(shape), tuple(i for i in range(nd) if i not in dims))


# ---------------------------------------------------------------------------------------------
# squeeze: removes axes of size 1 (a view, like a reshape)

squeeze_p = Primitive("squeeze")


def _squeeze_abstract_eval(x, *, dimensions):
    if any(not 0 <= d < x.ndim or x.shape[d] != 1 for d in dimensions) or len(
        set(dimensions)
    ) != len(dimensions):
        raise ShapeError(
            f"cannot select an axis to squeeze out which has size not equal to one, got "
            f"shape={x.shape} and dimensions={dimensions}"
        )
    kept = tuple(s for i, s in enumerate(x.shape) if i not in dimensions)
    return ShapedArray(kept, x.dtype, x.weak_type)


def _squeeze_batch(args, dims, *, dimensions):
    (x,), (d,) = args, dims
    size = get_aval(x).shape[d]
    x = batching.moveaxis(x, d, 0, size)
    return squeeze(x, tuple(i + 1 for i in dimensions)), 0


squeeze_p.def_impl(lambda x, *, dimensions: np.squeeze(x, dimensions))
squeeze_p.def_abstract_eval(_squeeze_abstract_eval)
deflinear(squeeze_p)
squeeze_p.def_transpose(lambda ct, x, *, dimensions: [expand_dims(ct, dimensions)])
squeeze_p.def_batch(_squeeze_batch)


def squeeze(x: Any, dimensions: tuple[int, ...]) -> Any:
    """`lax.squeeze`: removes the axes `dimensions` (each of size 1)."""
    if type(x) in (bool, int, float, complex):
        x = full((), x, *dtypes.dtype_and_weak(x))
    nd = get_aval(x).ndim
    for d in dimensions:
        if not -nd <= int(d) < nd:
            raise ShapeError(
                f"axis {d} is out of bounds for array of dimension {nd}\n"
                f"squeeze: dimensions {tuple(dimensions)} must be in [{-nd}, {nd})."
            )
    dims = tuple(sorted({int(d) % nd for d in dimensions}))
    if not dims:
        return x
    return squeeze_p.bind(x, dimensions=dims)


# ---------------------------------------------------------------------------------------------
# transpose

transpose_p = Primitive("transpose")


def _transpose_abstract_eval(x, *, permutation):
    if sorted(permutation) != list(range(x.ndim)):
        raise ShapeError(
            "transpose permutation isn't a permutation of operand dimensions, got permutation "
            f"{permutation} for operand shape {x.shape}."
        )
    return ShapedArray(tuple(x.shape[p] for p in permutation), x.dtype, x.weak_type)


def _transpose_transpose(ct, x, *, permutation):
    return [transpose(ct, tuple(int(i) for i in np.argsort(permutation)))]


def _transpose_batch(args, dims, *, permutation):
    (x,), (d,) = args, dims
    perm = [p + 1 if p >= d else p for p in permutation]
    perm = [d, *perm]
    return transpose(x, tuple(perm)), 0


transpose_p.def_impl(lambda x, *, permutation: np.transpose(x, permutation))
transpose_p.def_abstract_eval(_transpose_abstract_eval)
deflinear(transpose_p)
transpose_p.def_transpose(_transpose_transpose)
transpose_p.def_batch(_transpose_batch)


def transpose(operand: Any, permutation: tuple[int, ...]) -> Any:
    """Permutes the axes of `operand`."""
    permutation = tuple(int(p) for p in permutation)
    if type(operand) in (bool, int, float, complex):
        operand = full((), operand, *dtypes.dtype_and_weak(operand))
    if permutation == tuple(range(get_aval(operand).ndim)):
        return operand
    return transpose_p.bind(operand, permutation=permutation)


# ---------------------------------------------------------------------------------------------
# convert_element_type

convert_element_type_p = Primitive("convert_element_type", elementwise=True)


def _convert_impl(x, *, new_dtype, weak_type):
    if x.dtype == new_dtype:
        return x
    if x.dtype.kind == "c" and new_dtype.kind != "c":
        x = x.real  # the primitive takes the real part (the user-facing wrapper warns)
    if dtypes.kind(new_dtype) in "iu" and dtypes.kind(x.dtype) == "f":
        # Saturate like XLA (NaN -> 0). Compare before casting: int32's max is not a float32.
        info = dtypes.int_info(new_dtype)
        with np.errstate(invalid="ignore", over="ignore"):  # float16 bounds round to inf
            hi, lo = x >= float(info.max) + 1, x <= float(info.min)
        with np.errstate(invalid="ignore"):
            safe = np.where(hi | lo | np.isnan(x), 0, x).astype(new_dtype)
        return np.where(hi, info.max, np.where(lo, info.min, safe)).astype(new_dtype)
    if new_dtype == np.bool_:
        return x != 0
    if x.dtype.kind in "fc" and np.dtype(new_dtype).itemsize < x.dtype.itemsize:
        with np.errstate(over="ignore"):  # overflows round to inf, as XLA's, without a warning
            return x.astype(new_dtype)
    return x.astype(new_dtype)


def _convert_jvp(primals, tangents, *, new_dtype, weak_type):
    (x,), (t,) = primals, tangents
    out = convert_element_type_p.bind(x, new_dtype=new_dtype, weak_type=weak_type)
    if (
        type(t) is Zero
        or dtypes.kind(new_dtype) not in "fc"
        or dtypes.kind(get_aval(x).dtype) not in "fc"
    ):
        return out, Zero(get_aval(out))
    return out, _convert_unless_same(t, new_dtype, weak_type)


def _convert_transpose(ct, x, *, new_dtype, weak_type):
    return [_convert_unless_same(ct, x.aval.dtype, x.aval.weak_type)]


def _convert_unless_same(x: Any, new_dtype: Any, weak_type: bool) -> Any:
    """The conversion of a tangent or cotangent as JAX's staging records it: none when `x` has
    `new_dtype` and `weak_type` already (JAX forwards it: a transposed loop body whose carry
    cotangent is strong, as the seed, does not convert it to the weak type of the carry's
    tangent), and a constant folded (a `grad` seed converted twice stays the literal `1.0`)."""
    aval = get_aval(x)
    if aval.dtype == new_dtype and aval.weak_type == weak_type:
        return x
    if isinstance(x, Tracer):
        return convert_element_type_p.bind(x, new_dtype=new_dtype, weak_type=weak_type)
    with warnings.catch_warnings():  # the primitive drops an imaginary part silently
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        return convert_exact(x, new_dtype, weak_type)


def _convert_batch(args, dims, **params):
    return convert_element_type_p.bind(args[0], **params), dims[0]


convert_element_type_p.def_impl(_convert_impl)


def _convert_abstract_eval(x, *, new_dtype, weak_type):
    if x.dtype != new_dtype and dtypes.KeyDType in (type(x.dtype), type(new_dtype)):
        raise KeyDTypeConversionError(f"Cannot convert_element_type from {x.dtype} to {new_dtype}")
    return ShapedArray(x.shape, new_dtype, weak_type)


convert_element_type_p.def_abstract_eval(_convert_abstract_eval)
convert_element_type_p.def_jvp(_convert_jvp)
convert_element_type_p.def_transpose(_convert_transpose)
convert_element_type_p.linear = True  # between inexact dtypes
convert_element_type_p.def_batch(_convert_batch)
jax_params(convert_element_type_p, sharding=None)


def convert_element_type(operand: Any, new_dtype: Any, weak_type: bool = False) -> Any:
    """Casts `operand` to `new_dtype` (float to int truncates towards zero and saturates)."""
    return convert_exact(operand, dtypes.canonicalize_dtype(new_dtype), weak_type)


def convert_exact(operand: Any, new_dtype: Any, weak_type: bool = False) -> Any:
    """`convert_element_type` to `new_dtype` as it is, not made canonical: the dtype of an
    existing value (a transposed conversion's cotangent takes its operand's dtype, 64 bits
    made in an `enable_x64` block included, as JAX's)."""
    keys = type(new_dtype) is dtypes.KeyDType  # only keys convert to keys (abstract eval)
    aval = get_aval(operand)
    host = isinstance(operand, (bool, int, float, complex, np.generic, np.ndarray))
    if not host and aval.dtype == new_dtype and aval.weak_type == weak_type:
        return operand  # an Array or a tracer that already fits
    if aval.dtype.kind == "c" and new_dtype.kind != "c":
        warnings.warn(
            "Casting complex values to real discards the imaginary part",
            np.exceptions.ComplexWarning,
            stacklevel=2,
        )
    if (host or isinstance(operand, Array)) and not keys:
        # Constant folding: a concrete input converts now, under any trace.
        val = _convert_impl(np.asarray(operand), new_dtype=new_dtype, weak_type=weak_type)
        out = Array(np.asarray(val), weak_type)
        if placement.committed_to_device and isinstance(operand, Array):  # placed as `operand` is
            params = {"new_dtype": new_dtype, "weak_type": bool(weak_type)}
            return placement.follow_primitive(
                out, [operand], "convert_element_type", params, out.aval
            )
        return out
    return convert_element_type_p.bind(operand, new_dtype=new_dtype, weak_type=bool(weak_type))


# ---------------------------------------------------------------------------------------------
# copy: JAX's `jnp.array(x)` / `x.copy()` of a traced value (an identity under `jit`)

copy_p = Primitive("copy", elementwise=True)
copy_p.def_impl(lambda x: np.array(x, copy=True))
copy_p.def_abstract_eval(lambda x: x)
deflinear(copy_p)
copy_p.def_transpose(lambda ct, x: [copy_p.bind(ad_util.instantiate(ct))])
copy_p.def_batch(lambda args, dims: (copy_p.bind(args[0]), dims[0]))
copy_p.def_composition(lambda x: x)


# ---------------------------------------------------------------------------------------------
# iota and full (array creation)

iota_p = Primitive("iota")


def _iota_impl(*, dtype, shape, dimension):
    idx = np.arange(shape[dimension], dtype=dtype)
    expanded = [1] * len(shape)
    expanded[dimension] = shape[dimension]
    return np.broadcast_to(idx.reshape(expanded), shape)


iota_p.def_impl(_iota_impl)
iota_p.def_abstract_eval(lambda *, dtype, shape, dimension: ShapedArray(shape, dtype))
jax_params(iota_p, sharding=None)
defjvp_zero(iota_p)


def iota(dtype: Any, shape: tuple[int, ...] | int, dimension: int = 0) -> Any:
    """The indices along `dimension` of an array of `shape` (like `lax.broadcasted_iota`)."""
    shape = (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(s) for s in shape)
    if any(s < 0 for s in shape):  # JAX's first line
        raise ShapeError(f"iota shape must have every element be nonnegative, got {shape}.")
    dt = dtypes.canonicalize_dtype(dtype)
    if dt == np.bool_:  # lax's iota makes numbers only (one_hot of booleans raises this)
        raise DTypeError(
            "iota does not accept dtype bool. Accepted dtypes are subtypes of integer, floating, "
            "complexfloating.\nConvert the operand with `x.astype(...)` first."
        )
    return iota_p.bind(dtype=dt, shape=shape, dimension=int(dimension))


def _negative_shape(shape: tuple[int, ...]) -> str:
    return (
        f"broadcast_in_dim shape must have every element be nonnegative, got {shape}.\n"
        "Sizes are counts of elements: use 0 for an empty axis."
    )


def full(
    shape: tuple[int, ...],
    fill_value: Any,
    dtype: Any,
    weak_type: bool = False,
    *,
    exact_dtype: bool = False,
) -> Any:
    """An array of `shape` filled with `fill_value` (a scalar, possibly traced), of `dtype`
    made canonical (x64 off: 32 bits), or `exact_dtype` as it is: the dtype of an existing
    value (`full_like` of an array made in an `enable_x64` block keeps its 64 bits, as JAX's)."""
    shape = tuple(int(s) for s in shape)
    if any(d < 0 for d in shape):
        raise ShapeError(_negative_shape(shape))
    dt = np.dtype(dtype) if exact_dtype else dtypes.canonicalize_dtype(dtype)
    if isinstance(fill_value, Tracer) or (
        isinstance(fill_value, Array) and fill_value.aval.shape != ()
    ):
        scalar = convert_element_type(fill_value, dt, weak_type)
    else:
        scalar = Array(
            np.asarray(_convert_impl(np.asarray(fill_value), new_dtype=dt, weak_type=weak_type)),
            weak_type,
        )
    return broadcast_in_dim(scalar, shape, ()) if shape else scalar


class MemorySpace(enum.Enum):
    """JAX's `core.MemorySpace`: where an array lives (`empty2`'s `memory_space`)."""

    Device = "device"
    Host = "host"


# empty2: JAX's placeholder for a value nothing reads (the residual slots of a cond branch that
# other branches fill); numbax's is a zero
empty2_p = Primitive("empty2")
empty2_p.def_abstract_eval(lambda *, dtype, memory_space: ShapedArray((), dtype))
empty2_p.def_composed(lambda *, dtype, memory_space: reshape(full((1,), 0, dtype), ()))
defjvp_zero(empty2_p)


def empty_like_aval(aval: ShapedArray) -> Any:
    """JAX's `ad_util.empty_like_aval`: an `empty2` broadcast to `aval`'s shape (strong).

    Args:
      aval: the shape and dtype.

    Returns:
      The placeholder array (zeros in numbax).
    """
    out = empty2_p.bind(dtype=aval.dtype, memory_space=MemorySpace.Device)
    return broadcast_in_dim(out, aval.shape, ()) if aval.shape else out


def zeros_like(x: Any) -> Any:
    aval = get_aval(x)
    return full(aval.shape, 0, aval.dtype, aval.weak_type)
