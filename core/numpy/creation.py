"""Array creation: array/asarray, zeros/ones/full(+_like), arange, linspace, eye, tri*."""

from __future__ import annotations

import operator
import warnings
from typing import Any

import numpy as np

from core import dtypes
from core.array import MASKED_ARRAY_MESSAGE, Array
from core.errors import (
    ConcretizationTypeError,
    MultiIndexLengthError,
    ShapeError,
    traced_shape,
)
from core.jit.library import library_jit
from core.named_sharding import like_sharding, placed_by
from core.numpy import ufuncs as uf
from core.numpy._util import (
    broadcast_to,
    canonical_shape,
    check_arraylike,
    converted,
    ensure_array,
    np_dtype,
    stack_leading,
    to_inexact,
)
from core.numpy.linalg_ops import diagonal
from core.numpy.shapes import moveaxis, ravel, stack
from core.numpy.ufuncs import add, clip, multiply, power, remainder
from core.numpy.where import where
from core.prims import elementwise as ew
from core.prims import indexing as ix
from core.prims import prng
from core.prims import shapes as sh
from core.prng_key import PRNGKeyArray
from core.trace import Tracer, get_aval


def array(
    object: Any,
    dtype: Any = None,
    *args: Any,
    copy: bool = True,
    order: str | None = "K",
    ndmin: int = 0,
    device: Any = None,
    out_sharding: Any = None,
) -> Any:
    """Creates an array (like `jnp.array`): Python scalars are weak unless `dtype` is given.

    Lists may hold tracers; float64/int64 inputs are canonicalized to 32 bits without x64.

    Args:
      object: an array, a scalar or (nested) sequences of them.
      dtype: the result's dtype.
      *args: `copy`, `order`, `ndmin` given positionally: deprecated, as in JAX (a
        `DeprecationWarning`).
      copy: copy an existing array's buffer.
      order: accepted for numpy compatibility (arrays are C-ordered).
      ndmin: the least number of dimensions (ones are prepended).
      device: the device (or `Sharding`) the result is committed to (see `zeros`), or None.
      out_sharding: how the result is sharded (see `zeros`), or None.

    Returns:
      The array.
    """
    if args:
        copy, order, ndmin = _positional_array_args(args, copy, order, ndmin)
    out = _array(object, dtype, copy, ndmin)
    return _placed(out, out_sharding, "jnp.array", device, host_data=not isinstance(object, Array))


def _positional_array_args(args: tuple, copy: bool, order: Any, ndmin: int) -> tuple:
    """`copy`, `order`, `ndmin` of `jnp.array` given positionally, with JAX's errors and its
    deprecation warning."""
    if len(args) > 3:
        raise TypeError(
            f"array() takes at most 5 positional arguments but {len(args) + 2} were given"
        )
    given, defaults = [copy, order, ndmin], [True, "K", 0]
    for i, name in enumerate(["copy", "order", "ndmin"][: len(args)]):
        if given[i] != defaults[i]:
            raise TypeError(f"array() got multiple values for argument '{name}'")
    warnings.warn(
        "Passing the copy, order, and ndmin arguments to jnp.array positionally is deprecated. "
        "Use keyword arguments instead.",
        DeprecationWarning,
        stacklevel=3,
    )
    return tuple([*args, *given[len(args) :]])


def _array(object: Any, dtype: Any, copy: bool, ndmin: int) -> Any:
    dt = np_dtype(dtype, "array")
    if isinstance(object, np.ma.MaskedArray):  # JAX's copy drops the mask (numpy's)
        if not copy:
            raise ValueError(MASKED_ARRAY_MESSAGE)
        object = np.array(object)
    if _is_float0(object) and dt in (None, dtypes.float0):
        return np.array(object, copy=copy)  # JAX's: tangent data (no values) stays numpy's
    if isinstance(object, Tracer):  # JAX's: a traced value is copied (`copy`), then converted
        out = sh.copy_p.bind(object) if copy else object
        out = out if dt is None else sh.convert_element_type(out, dt)
    elif isinstance(object, Array):
        out = object if dt is None else sh.convert_element_type(object, dt)
        if out is object and copy:
            out = _own_buffer(object)
    elif isinstance(object, PRNGKeyArray):  # keys stay keys (their dtype converts to none)
        if dt is not None and dt != object.dtype:
            raise ValueError(f"Cannot convert_element_type from {object.dtype} to {dt}")
        out = object.copy() if copy else object
    elif isinstance(object, (list, tuple)) and _has_array(object):
        parts = [array(o, copy=False) for o in object]
        out = stack_leading(parts, dt)
    else:
        if object is None:
            raise ValueError("None is not a valid value for jnp.array")
        if hasattr(object, "__jax_array__"):
            object = object.__jax_array__()
            return array(object, dtype=dtype, ndmin=ndmin)
        weak = dt is None and type(object) in (int, float, complex)
        if type(object) is int:  # JAX refuses Python ints its integer dtype cannot hold
            target = dtypes.python_scalar_dtype(object) if dt is None else dt
            if target.kind in "iu" and not _fits(object, target):
                if dt is None:
                    raise OverflowError(f"Python int {object} too large to convert to {target}")
                raise OverflowError(f"Python integer {object} out of bounds for {target}")
        val = np.array(object)
        if val.dtype.kind in "SU":  # JAX's error for strings and bytes
            first = val.ravel()[0].item() if val.size else ""
            raise TypeError(
                f"Value '{first}' with dtype {val.dtype} is not a valid JAX array type. Only "
                "arrays of numeric types are supported by JAX."
            )
        if val.dtype == object_dtype and _has_python_int(object):
            # a Python int beyond int64 among floats: converted as a float, as JAX does
            wide = dt if dt is not None and dt.kind in "fc" else _inexact_leaves(object)
            if wide is not None:
                val = np.array(object, dtype=wide)
        if val.dtype == object_dtype:
            if any(leaf is None for leaf in _leaves(object)):
                raise ValueError("None is not a valid value for jnp.array")
            if _has_python_int(object):
                raise OverflowError(
                    "Python int too large to convert to C long\n"
                    f"A Python int in {object!r} is beyond int64: give the list a float "
                    "(or pass dtype=float) to convert it as a float."
                )
            raise TypeError(f"Cannot make an array from {object!r}: not a numeric sequence.")
        if dt is None and isinstance(object, (list, tuple)) and _has_numpy_value(object):
            # JAX promotes the leaves: numpy scalars/arrays keep their dtypes, Python scalars
            # are weak ([np.float16(1.5), 2] is float16, numpy's array would be float64)
            dt = dtypes.canonicalize_dtype(dtypes.result_type(*_leaves(object)))
        if dt is None:
            dt = (
                dtypes.python_scalar_dtype(object) if weak else dtypes.canonicalize_dtype(val.dtype)
            )
        # Python ints (also inside lists) convert from the objects, so numpy's OverflowError
        # reports the out-of-range ones, as JAX does; numpy arrays wrap, as in JAX.
        source = object if _has_python_int(object) and dt.kind in "iu" else val
        out = Array(np.array(source, dtype=dt), weak)
    if ndmin > get_aval(out).ndim:
        shape = (1,) * (ndmin - get_aval(out).ndim) + get_aval(out).shape
        out = sh.reshape(out, shape)
    return out


object_dtype = np.dtype(object)


def _fits(value: int, dtype: np.dtype) -> bool:
    info = np.iinfo(dtype)
    return int(info.min) <= value <= int(info.max)


def _has_python_int(x: Any) -> bool:
    if isinstance(x, (list, tuple)):
        return any(_has_python_int(e) for e in x)
    return type(x) is int


def _inexact_leaves(x: Any) -> np.dtype | None:
    """complex128 if a leaf of the nested lists `x` is complex, float64 if one is a float (the
    dtypes a list holding a Python int beyond int64 converts in), else None."""
    kinds = {
        np.asarray(e).dtype.kind for e in _leaves(x) if isinstance(e, (float, complex, np.generic))
    }
    if "c" in kinds:
        return np.dtype(np.complex128)
    return np.dtype(np.float64) if "f" in kinds else None


def _leaves(x: Any) -> list[Any]:
    if isinstance(x, (list, tuple)):
        return [leaf for e in x for leaf in _leaves(e)]
    return [x]


def _has_numpy_value(x: Any) -> bool:
    return any(isinstance(leaf, (np.generic, np.ndarray)) for leaf in _leaves(x))


def _has_array(x: Any) -> bool:
    return any(
        isinstance(e, (Array, Tracer, PRNGKeyArray))
        or (isinstance(e, (list, tuple)) and _has_array(e))
        for e in x
    )


def asarray(
    a: Any,
    dtype: Any = None,
    order: str | None = None,
    copy: bool | None = None,
    *,
    device: Any = None,
    out_sharding: Any = None,
) -> Any:
    """Like `array`, without copying an existing array of the right dtype.

    Args:
      a: an array, a scalar or (nested) sequences of them.
      dtype: the result's dtype.
      order: accepted for numpy compatibility (arrays are C-ordered).
      copy: copy an existing array's buffer.
      device: the device (or `Sharding`) the result is committed to (see `zeros`), or None.
      out_sharding: how the result is sharded (see `zeros`), or None.

    Returns:
      The array.
    """
    if isinstance(a, (Array, Tracer, PRNGKeyArray)) and dtype is None:
        if device is None and out_sharding is None:
            return a  # as it is, on a mesh or not (JAX's asarray does not move it)
        out = a
    else:
        out = _array(a, np_dtype(dtype, "asarray"), bool(copy), 0)
    return _placed(out, out_sharding, "jnp.asarray", device, host_data=not isinstance(a, Array))


def _placed(
    out: Any, out_sharding: Any, where: str, device: Any = None, host_data: bool = False
) -> Any:
    """`out` placed by the `device` or `out_sharding` of creation function `where` (both None:
    on the mesh `set_mesh` set, if any; see `core.named_sharding.placed_by`)."""
    return placed_by(out, device, out_sharding, where, host_data=host_data)


def zeros(shape: Any, dtype: Any = None, *, device: Any = None, out_sharding: Any = None) -> Any:
    """An array of zeros (float32 by default).

    Args:
      shape: the shape.
      dtype: the dtype.
      device: the device (or `Sharding`) the result is committed to, as `device_put`'s; or
        None. Not with `out_sharding`.
      out_sharding: how the result is sharded (a `PartitionSpec` over the current mesh or a
        `NamedSharding`, as `core.sharding.reshard`), or None: unsharded.

    Returns:
      The array.
    """
    out = _filled(canonical_shape(shape), 0, _fill_dtype("zeros", shape, dtype))
    return _placed(out, out_sharding, "jnp.zeros", device)


def _fill_dtype(name: str, shape: Any, dtype: Any) -> np.dtype:
    """The dtype of `zeros`/`ones`/`empty` (float32 by default); `f(2, 3)` is JAX's TypeError
    with its hint about the shape tuple."""
    if isinstance(dtype, int) and isinstance(shape, int):
        raise TypeError(
            f"Cannot interpret '{dtype}' as a data type.\n\nDid you accidentally write "
            f"`jax.numpy.{name}({shape}, {dtype})` when you meant "
            f"`jax.numpy.{name}(({shape}, {dtype}))`, i.e. with a single tuple argument for the "
            "shape?"
        )
    return np_dtype(dtype, name) or dtypes.default_float()


def ones(shape: Any, dtype: Any = None, *, device: Any = None, out_sharding: Any = None) -> Any:
    """An array of ones (float32 by default).

    Args:
      shape: the shape.
      dtype: the dtype.
      device: the device (or `Sharding`) the result is committed to (see `zeros`), or None.
      out_sharding: how the result is sharded (see `zeros`), or None.

    Returns:
      The array.
    """
    out = _filled(canonical_shape(shape), 1, _fill_dtype("ones", shape, dtype))
    return _placed(out, out_sharding, "jnp.ones", device)


def empty(shape: Any, dtype: Any = None, *, device: Any = None, out_sharding: Any = None) -> Any:
    """Like `zeros` (arrays are immutable, so there is no uninitialized memory to expose).

    Args:
      shape: the shape.
      dtype: the dtype.
      device: the device (or `Sharding`) the result is committed to (see `zeros`), or None.
      out_sharding: how the result is sharded (see `zeros`), or None.

    Returns:
      The array.
    """
    out = _filled(canonical_shape(shape), 0, _fill_dtype("empty", shape, dtype))
    return _placed(out, out_sharding, "jnp.empty", device)


def full(
    shape: Any,
    fill_value: Any,
    dtype: Any = None,
    *,
    device: Any = None,
    out_sharding: Any = None,
) -> Any:
    """An array of `shape` filled with `fill_value` (its dtype unless `dtype` is given).

    Args:
      shape: the shape.
      fill_value: a scalar, or an array broadcast to `shape`.
      dtype: the dtype.
      device: the device (or `Sharding`) the result is committed to (see `zeros`), or None.
      out_sharding: how the result is sharded (see `zeros`), or None.

    Returns:
      The array.
    """
    return _placed(_full(shape, fill_value, dtype), out_sharding, "jnp.full", device)


def _full(shape: Any, fill_value: Any, dtype: Any) -> Any:
    check_arraylike("full", fill_value)
    if dtype is None:
        dt, weak = (
            dtypes.dtype_and_weak(fill_value)
            if not isinstance(fill_value, (list, tuple))
            else (dtypes.canonicalize_dtype(np.asarray(fill_value).dtype), False)
        )
    else:
        dt, weak = np_dtype(dtype, "full"), False
    keys = type(dt) is dtypes.KeyDType  # a key or a number fills keys (`full_keys`)
    if not keys and (isinstance(fill_value, Tracer) or np.ndim(fill_value)):
        fv = ensure_array(fill_value)
        if get_aval(fv).ndim:
            return broadcast_to(sh.convert_element_type(fv, dt), canonical_shape(shape))
    # A Python int outside int32 wraps, as JAX's lax.full converts it (jnp.full((2,), 2**33)
    # is [0, 0]); asarray would raise OverflowError.
    return _filled(canonical_shape(shape), fill_value, dt, weak)


def _like(a: Any, dtype: Any, shape: Any, name: str) -> tuple[tuple[int, ...], np.dtype, bool]:
    """The shape, dtype and weak type of an array made like `a`: an array or scalar (its
    dtype as it is: 64 bits made in an `enable_x64` block stay, as JAX's), or a duck-typed
    array (a `shape` and a `dtype`, no values: `jax.ShapeDtypeStruct`), whose result JAX
    makes strongly typed and canonical."""
    duck = not isinstance(a, (Array, Tracer, np.ndarray, np.generic)) and all(
        hasattr(a, attr) for attr in ("shape", "dtype")
    )
    if duck or _is_float0(a):
        dt0 = a.dtype if _is_float0(a) else dtypes.canonicalize_dtype(a.dtype)
        shp0, weak0 = tuple(a.shape), False
    else:
        aval = get_aval(ensure_array(a))
        shp0, dt0, weak0 = aval.shape, aval.dtype, aval.weak_type
    shp = shp0 if shape is None else canonical_shape(shape)
    if dtype is None:
        return shp, dt0, weak0
    return shp, np_dtype(dtype, name), False


def _is_float0(x: Any) -> bool:
    """Whether `x` is a numpy array of the tangent dtype `float0`."""
    return isinstance(x, np.ndarray) and x.dtype == dtypes.float0


def _placed_like(a: Any, out: Any, weak: bool, where: str, device: Any, out_sharding: Any) -> Any:
    """`out`, made like `a` by `where`, placed by `device`/`out_sharding`, else as JAX's
    `lax.full_like` places it: by `a`'s sharding unless `weak` (`like_sharding`)."""
    if _is_float0(out):
        return out
    if device is None and out_sharding is None:
        device = like_sharding(a, get_aval(out).shape, weak)
    return _placed(out, out_sharding, where, device)


def _filled(shape: tuple[int, ...], value: Any, dt: Any, weak: bool = False) -> Any:
    """`lax.full`: an array of `shape` filled with `value`, or keys if `dt` is a key dtype, or
    a numpy array of the tangent dtype `float0` (which has no values), as JAX's; `dt` as it
    is (canonical already, or the dtype of the array a `*_like` copies)."""
    if dt == dtypes.float0:
        return np.zeros(shape, dtypes.float0)
    if type(dt) is dtypes.KeyDType:
        return prng.full_keys(shape, value, dt)
    return sh.full(shape, value, dt, weak, exact_dtype=True)


def zeros_like(
    a: Any,
    dtype: Any = None,
    shape: Any = None,
    *,
    device: Any = None,
    out_sharding: Any = None,
) -> Any:
    """An array of zeros with `a`'s shape and dtype (weak if `a` is).

    Args:
      a: the array whose shape and dtype the result takes.
      dtype: overrides `a`'s dtype.
      shape: overrides `a`'s shape.
      device: the device (or `Sharding`) the result is committed to (see `zeros`), or None.
      out_sharding: how the result is sharded (see `zeros`), or None.

    Returns:
      The array.
    """
    check_arraylike("zeros_like", a)
    shp, dt, weak = _like(a, dtype, shape, "zeros_like")
    return _placed_like(a, _filled(shp, 0, dt, weak), weak, "jnp.zeros_like", device, out_sharding)


def ones_like(
    a: Any,
    dtype: Any = None,
    shape: Any = None,
    *,
    device: Any = None,
    out_sharding: Any = None,
) -> Any:
    """An array of ones with `a`'s shape and dtype (see `zeros_like`).

    Args:
      a, dtype, shape, device, out_sharding: as `zeros_like`'s.

    Returns:
      The array.
    """
    check_arraylike("ones_like", a)
    shp, dt, weak = _like(a, dtype, shape, "ones_like")
    return _placed_like(a, _filled(shp, 1, dt, weak), weak, "jnp.ones_like", device, out_sharding)


def empty_like(prototype: Any, dtype: Any = None, shape: Any = None, *, device: Any = None) -> Any:
    """Like `zeros_like` (arrays are immutable: there is no uninitialized memory to expose).

    Args:
      prototype: the array whose shape and dtype the result takes.
      dtype, shape, device: as `zeros_like`'s.

    Returns:
      The array.
    """
    check_arraylike("ones_like", prototype)  # JAX's name in the message
    return zeros_like(prototype, dtype, shape, device=device)


def full_like(
    a: Any,
    fill_value: Any,
    dtype: Any = None,
    shape: Any = None,
    *,
    device: Any = None,
    out_sharding: Any = None,
) -> Any:
    """An array with `a`'s shape and dtype filled with `fill_value` (see `zeros_like`).

    Args:
      a, dtype, shape, device, out_sharding: as `zeros_like`'s.
      fill_value: a scalar, or an array broadcast to the shape.

    Returns:
      The array.
    """
    check_arraylike("full_like", a, fill_value)
    fill_value = converted(fill_value)
    shp, dt, weak = _like(a, dtype, shape, "full_like")
    keys = type(dt) is dtypes.KeyDType  # a key or a number fills keys (`full_keys`)
    if not keys and (
        np.ndim(fill_value) or (isinstance(fill_value, Tracer) and get_aval(fill_value).ndim)
    ):
        out = broadcast_to(sh.convert_exact(ensure_array(fill_value), dt), shp)
    else:
        out = _filled(shp, fill_value, dt, weak and dtypes.is_weakly_typed(fill_value))
    return _placed_like(a, out, weak, "jnp.full_like", device, out_sharding)


def arange(
    start: Any,
    stop: Any = None,
    step: Any = None,
    dtype: Any = None,
    *,
    device: Any = None,
    out_sharding: Any = None,
) -> Any:
    """Evenly spaced values in [start, stop) (int32 for integer arguments, else float32).

    Args:
      start: the first value (the stop, when `stop` is None).
      stop: the end (excluded).
      step: the spacing (1 by default).
      dtype: the result's dtype.
      device: the device (or `Sharding`) the result is committed to (see `zeros`), or None.
      out_sharding: how the result is sharded (see `zeros`), or None.

    Returns:
      The values.
    """
    return _placed(_arange(start, stop, step, dtype), out_sharding, "jnp.arange", device)


def _known(v: Any) -> Any:
    """`v`, or its concrete value when it is a tracer that has one."""
    if isinstance(v, Tracer):
        c = v.to_concrete_value()
        return v if c is None else c
    return v


def _arange(start: Any, stop: Any, step: Any, dtype: Any) -> Any:
    # a tracer of a known value (under grad or jvp) is read as that value, as JAX's
    start, stop, step = (_known(v) for v in (start, stop, step))
    start_name = "stop" if stop is None and step is None else "start"
    for name, v in ((start_name, start), ("stop", stop), ("step", step)):
        if isinstance(v, Tracer):  # JAX's words, then the fix
            raise ConcretizationTypeError(
                traced_shape(v.aval),
                f"It arose in the jnp.arange argument '{name}'\nUnder jit, pass the "
                "start/stop/step as static arguments (static_argnames=...).",
            )
    for name, v in ((start_name, start), ("stop", stop), ("step", step)):
        if v is not None and np.ndim(v) != 0:
            raise ValueError(
                f"jax.numpy.arange: arguments must be scalars; got {name}={np.asarray(v)}"
            )
    if dtype is None:
        dt = dtypes.result_type(start, *(v for v in (stop, step) if v is not None))
    else:
        dt = dtypes.check_user_dtype(dtype, "arange")
    if any(v is not None and np.iscomplexobj(v) for v in (start, stop, step)):
        raise ValueError(
            "Passing complex start/stop/step to jnp.arange is no longer supported starting in "
            "JAX v0.10.0.\nPass real values (a complex `dtype` is still accepted)."
        )
    if dt == np.bool_:  # JAX's arange is an iota, which makes no booleans
        ew.reject_dtype("iota", dt, "iufc")
    start, stop, step = (None if v is None else np.asarray(v).item() for v in (start, stop, step))
    if stop is None:
        start, stop = 0, start
    # JAX's equations (staged under a trace, no constant): an iota of ceil((stop - start) /
    # step) elements, times `step` if given, plus `start` if not 0, in the result's dtype
    # (float32 for 16-bit floats, converted after)
    if step is None:
        out = sh.iota(dt, max(0, int(np.ceil(stop - start))))
        return out if start == 0 else ew.add(ew.full_like(out, start, shape=()), out)
    wd = np.dtype(np.float32) if dtypes.kind(dt) == "f" and dt.itemsize < 4 else dt
    it = sh.iota(wd, max(0, int(np.ceil((stop - start) / step))))
    scaled = ew.mul(ew.full_like(it, step, shape=()), it)
    vals = ew.add(ew.full_like(it, start, shape=()), scaled)
    return vals if wd == dt else sh.convert_element_type(vals, dt)


def linspace(
    start: Any,
    stop: Any,
    num: int = 50,
    endpoint: bool = True,
    retstep: bool = False,
    dtype: Any = None,
    axis: int = 0,
    *,
    device: Any = None,
) -> Any:
    """`num` evenly spaced samples from `start` to `stop` (`jnp.linspace`), computed by JAX's
    formula `start * (1 - t) + stop * t` for `t = i / div` in the computation dtype (float32
    by default; integer dtypes are floored from it), as XLA rewrites it (some values still
    differ from JAX's in the last bit).

    Args:
        start: the first value (a scalar or an array; arrays broadcast with `stop`).
        stop: the last value (excluded with `endpoint=False`).
        num: how many samples (static).
        endpoint: whether `stop` is the last sample.
        retstep: also return the step.
        dtype: the result's dtype (default: the inexact dtype of `start` and `stop`).
        axis: where the samples' axis goes, for array bounds.
        device: the device (or `Sharding`) the samples are committed to (see `zeros`), or
          None.

    Returns:
        The samples (and the step, in the computation dtype, with `retstep`).
    """
    if isinstance(num, Tracer):  # JAX's error: a traced sample count
        raise ConcretizationTypeError(traced_shape(num.aval), "'num' argument of jnp.linspace")
    num = operator.index(num)
    axis = operator.index(axis)
    return _linspace(start, stop, num, endpoint, retstep, dtype, axis, device=device)


@library_jit(static_argnames=("num", "endpoint", "retstep", "dtype", "axis", "device"))
def _linspace(
    start: Any,
    stop: Any,
    num: int = 50,
    endpoint: bool = True,
    retstep: bool = False,
    dtype: Any = None,
    axis: int = 0,
    *,
    device: Any = None,
) -> Any:
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    check_arraylike("linspace", start, stop)
    start, stop = ensure_array(start), ensure_array(stop)
    dt = np_dtype(dtype, "linspace") or _inexact_of(dtypes.result_type(start, stop))
    cdt = _inexact_of(dt)
    start = sh.convert_element_type(start, cdt)
    stop = sh.convert_element_type(stop, cdt)
    bounds = list(np.broadcast_shapes(get_aval(start).shape, get_aval(stop).shape))
    sizes = (get_aval(start).size, get_aval(stop).size)
    start, stop = broadcast_to(start, tuple(bounds)), broadcast_to(stop, tuple(bounds))
    axis = len(bounds) + axis + 1 if axis < 0 else axis
    shape = (*bounds[:axis], 1, *bounds[axis:])
    div = (num - 1) if endpoint else num
    if num > 1:
        if cdt == np.float32:  # XLA divides by the constant as a product by 1 / div
            recip = sh.full((), np.reciprocal(np.asarray(div, cdt)), cdt)
            delta = uf.multiply(uf.subtract(stop, start), recip)
        else:
            delta = uf.divide(uf.subtract(stop, start), sh.full((), div, cdt))
        rdt = uf.real(sh.full((), 0, cdt)).dtype
        i_ = sh.reshape(
            sh.iota(rdt, div), tuple(div if d == axis else 1 for d in range(len(shape)))
        )
        r = sh.full((), np.reciprocal(np.asarray(div, rdt)), rdt)
        lo, hi = sh.reshape(start, shape), sh.reshape(stop, shape)
        t = sh.convert_element_type(uf.multiply(i_, r), cdt)  # XLA: i / div is i * (1 / div)
        one_minus_t = sh.convert_element_type(
            uf.subtract(sh.full((), 1, rdt), uf.multiply(i_, r)), cdt
        )
        out = uf.add(uf.multiply(lo, one_minus_t), uf.multiply(hi, t))
        if dtypes.kind(cdt) == "f" and dtypes.finfo(cdt).bits >= 32:
            last = axis == len(bounds)
            fused = _linspace_fused(lo, hi, i_, r, t, one_minus_t, div, last, sizes, endpoint)
            # the fused values with the formula's derivatives (infinite values are the same)
            nudged = uf.add(out, ew.stop_gradient_prim(uf.subtract(fused, out)))
            out = where(uf.isfinite(out), nudged, out)
        if endpoint:
            out = ix.concatenate([out, hi], axis)
    elif num == 1:
        delta = sh.full((), np.nan, cdt) if endpoint else uf.subtract(stop, start)
        out = sh.reshape(start, shape)
    else:
        delta = sh.full((), np.nan, cdt)
        out = sh.full((*bounds[:axis], 0, *bounds[axis:]), 0, cdt)
    if dtypes.kind(dt) in "iu":  # floored (bool is not)
        out = uf.floor(out)
    out = sh.convert_element_type(out, dt)  # saturating, as JAX's
    out = _placed(out, None, "jnp.linspace", device)
    return (out, delta) if retstep else out


def _linspace_fused(
    lo: Any,
    hi: Any,
    i_: Any,
    r: Any,
    t: Any,
    one_minus_t: Any,
    div: int,
    last: bool,
    sizes: tuple[int, int],
    endpoint: bool,
) -> Any:
    """The values of JAX's `start * (1 - t) + stop * t` as XLA's CPU back end computes them in
    float32/float64, contracting one multiply and the add into a fused multiply-add. A scalar
    (one-element) `stop` (`sizes`: of `start` and `stop` as given) has `stop * t` rewritten to
    `i * (stop / div)`; the `stop` product is the fused one for scalar bounds, a scalar
    `start`, or samples along the `last` axis, else the `start` product is: `fma(i, stop / div,
    start * (1 - t))` for scalar bounds, with `i = 1` folded in the unrolled loops of up to 33
    steps (`fma(start, 1 - t, stop / div)`), `fma(start, 1 - t, i * (stop / div))` for an
    array `start`, `fma(stop, t, start * (1 - t))` or `fma(start, 1 - t, stop * t)` for an
    array `stop`. An array `start` and a scalar `stop` sampled along a leading axis without the
    endpoint (one loop, no concatenation) has `1 - t` fused too: `fma(-i, 1 / div, 1)`."""
    shape = np.broadcast_shapes(get_aval(lo).shape, get_aval(i_).shape)

    def fma(a: Any, b: Any, c: Any) -> Any:
        return prng.fma(broadcast_to(a, shape), broadcast_to(b, shape), broadcast_to(c, shape))

    scalar_start, scalar_stop = sizes[0] == 1, sizes[1] == 1
    dt = get_aval(hi).dtype
    if scalar_stop:
        x, y = sh.convert_element_type(i_, dt), uf.multiply(hi, sh.convert_element_type(r, dt))
    else:
        x, y = hi, t
    if not scalar_stop and not scalar_start and not last or scalar_stop and not scalar_start:
        if scalar_stop and not last and not endpoint:
            one = sh.full((), 1, get_aval(r).dtype)
            one_minus_t = sh.convert_element_type(fma(uf.negative(i_), r, one), dt)
        return fma(lo, one_minus_t, uf.multiply(x, y))
    fused = fma(x, y, uf.multiply(lo, one_minus_t))
    if not scalar_stop or div > 33:
        return fused
    return where(uf.equal(i_, 1), fma(lo, one_minus_t, y), fused)


def _inexact_of(dt: np.dtype) -> np.dtype:
    """The dtype JAX's linspace family computes an integer/bool `dt`'s values in."""
    return dt if dtypes.is_inexact(dt) else to_inexact(dt)


def eye(N: int, M: int | None = None, k: int = 0, dtype: Any = None, *, device: Any = None) -> Any:
    """A 2-D array with ones on the k-th diagonal.

    Args:
      N: the number of rows.
      M: the number of columns (N by default).
      k: the diagonal (positive: above the main one); a traced integer under a transformation.
      dtype: the dtype (float32 by default).
      device: the device (or `Sharding`) the result is committed to (see `zeros`), or None.

    Returns:
      The array.
    """
    n = _eye_dim(N, "N")
    m = n if M is None else _eye_dim(M, "M")
    if n < 0 or m < 0:
        raise ValueError(f"negative dimensions are not allowed, got {N} and {M}")
    dt = np_dtype(dtype, "eye") or dtypes.default_float()
    if isinstance(k, Tracer):  # a traced diagonal: JAX's `row + k == column` of iotas
        i32 = np.dtype(np.int32)
        rows = ew.add(sh.iota(i32, (n, m), 0), sh.broadcast_in_dim(k.astype(i32), (n, m), ()))
        return sh.convert_element_type(ew.eq(rows, sh.iota(i32, (n, m), 1)), dt)
    k = min(max(int(k), -n), m)  # (any diagonal outside the matrix gives the zeros)
    out = ew.eye(n, m, k, dt)  # staged under a trace as JAX's `lax._eye`, not a constant
    return out if isinstance(out, Tracer) else _placed(out, None, "jnp.eye", device)


def _eye_dim(v: Any, name: str) -> int:
    """JAX's `core.canonicalize_dim` of eye's `N`/`M`: an integer, else its TypeError."""
    try:
        return operator.index(v)
    except TypeError:
        raise TypeError(
            f"Shapes must be 1D sequences of concrete values of integer type, got ({v!r},). "
            f"argument of '{name}' jnp.eye()."
        ) from None


def identity(n: int, dtype: Any = None) -> Any:
    return eye(n, dtype=np_dtype(dtype, "identity"))


def tri(N: int, M: int | None = None, k: int = 0, dtype: Any = None) -> Any:
    """Ones at and below the k-th diagonal of an N-by-M matrix (numpy's `tri`).

    Args:
      N: the number of rows (a concrete integer).
      M: the number of columns (N by default).
      k: the diagonal (positive: above the main one); a traced integer under a transformation.
        A concrete one outside int32 without x64 is JAX's `OverflowError`.
      dtype: the dtype (float32 by default).

    Returns:
      The array.
    """
    dt = np_dtype(dtype, "tri") or dtypes.default_float()
    dims = (N, N if M is None else M)
    if any(isinstance(d, Tracer) for d in dims):
        raise TypeError(
            f"Shapes must be 1D sequences of concrete values of integer type, got {dims}."
        )
    shape = tuple(operator.index(d) for d in dims)
    if min(shape) < 0:
        raise TypeError(f"iota shape must have every element be nonnegative, got {shape}.")
    if isinstance(k, Tracer):  # JAX's `row + k >= column` of iotas
        kd = get_aval(k).dtype
        if kd.kind not in "iu":
            raise TypeError(f"offset must be an integer, got {k!r}")
        idt = np.dtype(np.int64 if kd in (np.int64, np.uint32, np.uint64) else np.int32)
        rows = ew.add(sh.iota(idt, shape, 0), sh.broadcast_in_dim(k.astype(idt), shape, ()))
        return sh.convert_element_type(ew.ge(rows, sh.iota(idt, shape, 1)), dt)
    k = operator.index(k)
    if not dtypes.x64_enabled() and not -(2**31) <= k < 2**31:
        raise OverflowError(f"Python int {k} too large to convert to int32")
    return Array(np.tri(shape[0], shape[1], k, dtype=dt))


def copy(a: Any, order: str | None = None) -> Any:
    """A copy of `a` (`jnp.copy`): an array with its own buffer, which deleting or donating
    `a` leaves readable.

    Args:
        a: an array-like value.
        order: ignored (JAX's arrays have no memory order).

    Returns:
        The copy (of a traced value JAX's `copy` equation, an identity under `jit`).
    """
    check_arraylike("copy", a)
    if isinstance(a, Tracer):
        return sh.copy_p.bind(a)
    return _own_buffer(a) if isinstance(a, Array) else asarray(a)


def _own_buffer(a: Array) -> Array:
    """A new `Array` of `a`'s values in a buffer of its own (JAX's `copy=True`), placed as `a`."""
    value = np.array(a, copy=True)  # waits for a pending value; raises if `a` was deleted
    sharding = getattr(a, "_sharding", None)
    if sharding is None:
        return Array(value, aval=a.aval)
    return Array._placed(value, a.aval, sharding)


def _triangle(name: str, m: Any, k: int, lower: bool) -> Any:
    """`m` with the entries outside its lower (or upper) triangle from diagonal `k` zeroed."""
    m = ensure_array(m)
    shape = get_aval(m).shape
    if len(shape) < 2:
        raise ValueError(f"Argument to jax.numpy.{name} must be at least 2D")
    n, cols = shape[-2:]
    mask = np.tri(n, cols, k, dtype=bool) if lower else ~np.tri(n, cols, k - 1, dtype=bool)
    return where(Array(mask), m, zeros_like(m))


@library_jit(static_argnames=("k",))
def tril(m: Any, k: int = 0) -> Any:
    """The lower triangle of the last two axes of `m` (elements above diagonal k zeroed)."""
    check_arraylike("tril", m)
    return _triangle("tril", m, k, True)


@library_jit(static_argnames=("k",))
def triu(m: Any, k: int = 0) -> Any:
    """The upper triangle of the last two axes of `m` (elements below diagonal k zeroed)."""
    check_arraylike("triu", m)
    return _triangle("triu", m, k, False)


def diag(v: Any, k: int = 0) -> Any:
    """The k-th diagonal of a 2-D array, or a 2-D array with the 1-D `v` on its k-th diagonal."""
    check_arraylike("diag", v)
    v = ensure_array(v)
    shape = get_aval(v).shape
    if len(shape) == 2:
        return diagonal(v, k)
    if len(shape) != 1:
        raise ValueError(
            f"diag input must be 1d or 2d\nGot shape {shape}; give a vector (to make a "
            "diagonal matrix) or a matrix (to take its diagonal)."
        )
    n = shape[0] + abs(k)
    rows = sh.broadcast_in_dim(v, (n, shape[0]), (1,))
    cols = _pad_last(rows, k, 0) if k >= 0 else _pad_last(rows, 0, -k)
    return where(Array(np.eye(n, k=k, dtype=bool)), cols, zeros_like(cols))


def _pad_last(x: Any, lo: int, hi: int) -> Any:
    aval = get_aval(x)
    nd = aval.ndim
    zero = sh.full((), 0, aval.dtype, aval.weak_type)  # a weak x stays weak (a pad of two weak)
    return ix.pad(x, zero, [(0, 0, 0)] * (nd - 1) + [(lo, hi, 0)])


def diagflat(v: Any, k: int = 0) -> Any:
    """A 2-D array with the flattened `v` on its `k`-th diagonal, zeros elsewhere.

    Args:
      v: the values, of any shape (a scalar gives a 1x1 array).
      k: the diagonal: 0 the main one, positive above it, negative below.

    Returns:
      A square array of side `v.size + abs(k)`, strongly typed as in JAX.
    """
    check_arraylike("diagflat", v)
    flat = ravel(v)
    return diag(sh.convert_element_type(flat, get_aval(flat).dtype), k)


def meshgrid(*xi: Any, copy: bool = True, sparse: bool = False, indexing: str = "xy") -> list:
    """Coordinate matrices from 1-D coordinate vectors ("xy" or "ij" indexing)."""
    check_arraylike("meshgrid", *xi)
    if indexing not in ("xy", "ij"):
        raise ValueError(f"Valid values for indexing are 'xy' and 'ij', got {indexing}")
    if not copy:
        raise ValueError("jax.numpy.meshgrid only supports copy=True")
    shapes = [get_aval(ensure_array(x)).shape for x in xi]
    if any(len(s) != 1 for s in shapes):
        raise ValueError(f"Arguments to jax.numpy.meshgrid must be 1D, got shapes {shapes}")
    args = [ensure_array(x) for x in xi]
    n = len(args)
    shape = [get_aval(a).shape[0] for a in args]
    if indexing == "xy" and n >= 2:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, a in enumerate(args):
        dim = i
        if indexing == "xy" and n >= 2 and i < 2:
            dim = 1 - i
        if sparse:
            s = [1] * n
            s[dim] = get_aval(a).shape[0]
            out.append(sh.reshape(a, tuple(s)))
        else:
            out.append(sh.broadcast_in_dim(a, tuple(shape), (dim,)))
    return out


def logspace(
    start: Any,
    stop: Any,
    num: int = 50,
    endpoint: bool = True,
    base: Any = 10.0,
    dtype: Any = None,
    axis: int = 0,
) -> Any:
    """`base ** linspace(start, stop)`, computed in the inexact dtype of `start` and `stop`
    (complex endpoints stay complex) and converted to `dtype`.

    Args:
        start: the first exponent (a scalar or an array; arrays broadcast with `stop`).
        stop: the last exponent (excluded with `endpoint=False`).
        num: how many samples (static).
        endpoint: whether `base ** stop` is the last sample.
        base: the base (a scalar, or an array broadcasting with the samples).
        dtype: the result's dtype (default: the inexact dtype of `start` and `stop`).
        axis: where the samples' axis goes, for array bounds.

    Returns:
        The samples.
    """
    check_arraylike("logspace", start, stop)
    dt = np_dtype(dtype, "logspace") or _inexact_of(dtypes.result_type(start, stop))
    cdt = _inexact_of(dt)
    start = sh.convert_element_type(ensure_array(start), cdt, False)
    stop = sh.convert_element_type(ensure_array(stop), cdt, False)
    lin = linspace(start, stop, num, endpoint=endpoint, axis=axis)
    return sh.convert_element_type(power(base, lin), dt, False)


def geomspace(
    start: Any, stop: Any, num: int = 50, endpoint: bool = True, dtype: Any = None, axis: int = 0
) -> Any:
    """Numbers spaced evenly on a log scale between `start` and `stop`, computed as JAX does:
    ``sign(start) * logspace(log10(start / sign), log10(stop / sign))`` in the inexact dtype
    (so a zero or a sign change gives NaNs instead of numpy's error, and integer results are
    the truncated float values).

    Args:
      start: the first value (a scalar or an array).
      stop: the last value (the end of the interval when `endpoint` is False).
      num: how many values.
      endpoint: whether `stop` is the last value.
      dtype: the result's dtype; by default the inexact dtype of `start` and `stop`.
      axis: where the new axis of values goes when `start`/`stop` are arrays.

    Returns:
      The `num` values along `axis`.
    """
    check_arraylike("geomspace", start, stop)
    num, axis = operator.index(num), operator.index(axis)
    dt = np_dtype(dtype, "geomspace") or _inexact_of(dtypes.result_type(start, stop))
    comp = _inexact_of(dt)
    start = sh.convert_element_type(ensure_array(start), comp)
    stop = sh.convert_element_type(ensure_array(stop), comp)
    sign = uf.sign(start)
    logs = [uf.log10(uf.divide(v, sign)) for v in (start, stop)]
    out = multiply(sign, logspace(*logs, num, endpoint=endpoint, base=10.0, dtype=comp))
    return sh.convert_element_type(moveaxis(out, 0, axis), dt)


def indices(dimensions: Any, dtype: Any = None, sparse: bool = False) -> Any:
    """An array (or tuple when sparse) of index grids for the given shape."""
    dims = tuple(int(d) for d in dimensions)
    if any(d < 0 for d in dims):  # JAX's first line (its iota's check)
        raise ShapeError(f"iota shape must have every element be nonnegative, got {dims}.")
    dt = np_dtype(dtype, "indices") or dtypes.default_int()
    grids = [sh.iota(dt, dims, i) for i in range(len(dims))]
    if sparse:
        return tuple(
            sh.reshape(sh.iota(dt, d), tuple(d if j == i else 1 for j in range(len(dims))))
            for i, d in enumerate(dims)
        )

    return stack(grids) if grids else Array(np.zeros((0,), dt))


def _index_arrays(arrs: Any) -> tuple[Any, ...]:
    return tuple(Array(a.astype(dtypes.default_int())) for a in arrs)


def tril_indices(n: int, k: int = 0, m: int | None = None) -> tuple[Any, Any]:
    return _index_arrays(np.tril_indices(n, k, m))


def triu_indices(n: int, k: int = 0, m: int | None = None) -> tuple[Any, Any]:
    return _index_arrays(np.triu_indices(n, k, m))


def _shape_2d(arr: Any) -> tuple[int, ...]:
    s = get_aval(ensure_array(arr)).shape
    if len(s) != 2:
        raise ValueError(f"Only 2-D inputs are accepted\nGot shape {s}.")
    return s


def tril_indices_from(arr: Any, k: int = 0) -> tuple[Any, Any]:
    check_arraylike("tril_indices_from", arr)
    s = _shape_2d(arr)
    return tril_indices(s[-2], k, s[-1])


def triu_indices_from(arr: Any, k: int = 0) -> tuple[Any, Any]:
    check_arraylike("triu_indices_from", arr)
    s = _shape_2d(arr)
    return triu_indices(s[-2], k, s[-1])


def diag_indices(n: int, ndim: int = 2) -> tuple[Any, ...]:
    return _index_arrays(np.diag_indices(n, ndim))


def unravel_index(indices: Any, shape: Any) -> tuple[Any, ...]:
    """Converts flat indices into a tuple of coordinate arrays, by JAX's steps: `divmod` by
    each dimension from the last, then indices past the end give the last coordinates and
    indices before `-size` the first (negative or zero dimensions follow the same steps).

    Args:
        indices: integer flat indices.
        shape: the array's shape (a sequence of integers, or one integer).

    Returns:
        One coordinate array per dimension, of the indices' dtype.
    """
    check_arraylike("unravel_index", indices)
    idx = ensure_array(indices)
    try:
        dims = list(shape)
    except TypeError:
        dims = [shape]
    if any(np.ndim(d) != 0 for d in dims):
        raise ValueError("unravel_index: shape should be a scalar or 1D sequence.")
    out: list[Any] = [0] * len(dims)
    for i in reversed(range(len(dims))):
        idx, out[i] = uf.divmod(idx, dims[i])
    past = uf.greater(idx, 0)
    before = (
        sh.full((), False, np.dtype(bool))
        if dtypes.kind(get_aval(idx).dtype) == "u"
        else uf.less(idx, -1)
    )
    return tuple(where(past, d - 1, where(before, 0, c)) for d, c in zip(dims, out))


def ravel_multi_index(
    multi_index: Any, dims: Any, mode: str = "raise", order: str = "C", *, dtype: Any = None
) -> Any:
    """Flat indices from a tuple of coordinate arrays (`jnp.ravel_multi_index`).

    Args:
      multi_index: one integer array per dimension.
      dims: the array's shape (static).
      mode: out-of-range coordinates: "raise" (a ValueError; needs concrete coordinates),
        "clip", "wrap" or "ignore".
      order: "C" (row-major) or "F" (column-major) strides.
      dtype: the result's integer dtype (default: the coordinates' dtype, promoted with int).

    Returns:
      The flat indices.

    Raises:
      ValueError: a coordinate out of range with mode "raise", a bad `mode` or `order`, or a
        `dtype` too narrow for the flat indices.
    """
    if len(multi_index) != len(dims):
        raise MultiIndexLengthError(len(multi_index), len(dims))
    check_arraylike("ravel_multi_index", *multi_index)
    dims = tuple(operator.index(d) for d in dims)
    coords = [ensure_array(c) for c in multi_index]
    if dtype is None:
        dt = dtypes.result_type(int, *coords)
    else:
        dt = dtypes.check_user_dtype(dtype, "ravel_multi_index")
    if dt.kind not in "iu":
        raise ValueError(f"dtype={dt!r} is not an integer type.")
    if int(np.prod(dims, dtype=np.int64)) - 1 > int(np.iinfo(dt).max):
        raise ValueError(
            f"jnp.ravel_multi_index: dtype={dt!r} not large enough to hold flattened index for "
            f"dims={dims}. Use the dtype argument to pass a suitable dtype (e.g. "
            "dtype=np.min_scalar_type(prod(dims)))."
        )
    for c in coords:
        if dtypes.kind(get_aval(c).dtype) not in "iu":
            raise TypeError("only int indices permitted")
    if mode == "raise":
        traced = [c for c in coords if isinstance(c, Tracer)]
        if traced:
            raise ConcretizationTypeError(  # JAX's class and first line, then the fix
                traced_shape(get_aval(traced[0])),
                "The error occurred because ravel_multi_index was jit-compiled with mode='raise'. "
                "Use mode='wrap' or mode='clip' instead.",
            )
        if any(np.any((np.asarray(c) < 0) | (np.asarray(c) >= d)) for c, d in zip(coords, dims)):
            raise ValueError("invalid entry in coordinates array")
    elif mode == "clip":
        coords = [clip(c, 0, d - 1) for c, d in zip(coords, dims)]
    elif mode == "wrap":
        coords = [remainder(c, d) for c, d in zip(coords, dims)]
    elif mode != "ignore":
        raise ValueError(f"invalid mode={mode!r}. Expected 'raise', 'wrap', 'clip', or 'ignore'.")
    if order == "F":
        strides = np.cumprod((1, *dims[:-1]))
    elif order == "C":
        strides = np.cumprod((1, *dims[1:][::-1]))[::-1]
    else:
        raise ValueError(f"invalid order={order!r}. Expected 'C' or 'F'")
    out = sh.full((), 0, dt)
    for c, stride in zip(coords, strides):
        out = add(out, multiply(sh.convert_element_type(c, dt), int(stride)))
    return out
