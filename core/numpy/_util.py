"""Shared machinery of `core.numpy`: turning inputs into arrays, JAX type promotion, and
explicit numpy-style broadcasting down to the shape-exact primitives."""

from __future__ import annotations

import functools
import operator
import warnings
from typing import Any

import numpy as np

from core import dtypes
from core.array import Array, asarray_concrete
from core.config import config
from core.errors import (
    AxisError,
    ConcretizationTypeError,
    KeyArithmeticError,
    RankPromotionError,
    RankPromotionWarning,
    ShapeError,
    TypePromotionError,
    traced_shape,
)
from core.prims import elementwise as ew
from core.prims import indexing as ix
from core.prims import shapes as sh
from core.prng_key import PRNGKeyArray
from core.ref import AbstractRef, Ref
from core.trace import Tracer, current_trace, eval_trace, get_aval

# a Ref is read with ref[...] first, as in JAX; a dict or set is no array either (JAX 0.10.2)
_NOT_ARRAYLIKE = (list, tuple, type(None), Ref, dict, set, frozenset)


def check_arraylike(name: str, *args: Any) -> None:
    """Raises JAX's `TypeError` for an argument that is a list, a tuple, a dict, a set or
    None: `jnp` functions do not convert sequences, `jnp.array` does. Every public `jnp`
    function calls it on the arguments JAX checks, with JAX's name for the function (its
    message is part of the API, `tests/core/numpy/test_arraylike.py`); one `isinstance` per
    argument, eager or traced.
    """
    for x in args:
        if isinstance(x, _NOT_ARRAYLIKE):
            pos = next(i for i, y in enumerate(args) if isinstance(y, _NOT_ARRAYLIKE))
            raise TypeError(
                f"{name} requires ndarray or scalar arguments, got {type(args[pos])} at "
                f"position {pos}."
            )


def check_not_string(name: str, args: tuple, names: tuple) -> None:
    """JAX's TypeError for a string argument of its jitted `jnp` function `name` (its internal
    name where it has one, `_reduce_sum`; `names`: its parameters, the message's path)."""
    for arg, param in zip(args, names):
        if isinstance(arg, str):
            raise TypeError(
                f"Error interpreting argument to <function {name}> as an abstract array. The "
                f"problematic value is of type {type(arg)} and was passed to the function at "
                f"path {param}.\n{name.lstrip('_')} takes arrays or numbers; convert the string "
                "first."
            )


def check_arraylike_elements(name: str, seq: Any) -> None:
    """`check_arraylike` over the elements of a list or tuple argument (`concatenate`,
    `stack`, ...: the sequence itself is fine, a sequence as one of its arrays is not)."""
    if isinstance(seq, (list, tuple)):
        check_arraylike(name, *seq)


def canonical_shape(shape: Any, one: type = tuple) -> tuple[int, ...]:
    """JAX's canonical shape of a shape argument: a sequence of concrete integers, or one (an
    int or a 0-d integer array, wrapped in `one`: JAX's creation functions wrap it in a tuple,
    `reshape` in a list, which its error shows); a traced size is JAX's TypeError."""
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    if getattr(shape, "ndim", None) == 0 or isinstance(shape, (float, complex, np.inexact)):
        shape = one([shape])
    try:
        return tuple(operator.index(d) for d in shape)
    except TypeError as e:
        raise TypeError(
            f"Shapes must be 1D sequences of concrete values of integer type, got {shape!r}.\n"
            "If using `jit`, try using `static_argnums` or applying `jit` to smaller subfunctions."
        ) from e


def converted(x: Any) -> Any:
    """`x.__jax_array__()` for a value with JAX's conversion protocol (not an Array or a
    tracer), else `x` as it is: for the arguments `jnp` functions read as numbers or shapes."""
    if hasattr(x, "__jax_array__") and not isinstance(x, (Array, Tracer)):
        return x.__jax_array__()
    return x


def ensure_array(x: Any) -> Any:
    """Arrays, key arrays and tracers pass through; a value with `__jax_array__` is what it
    returns; anything else becomes a concrete Array."""
    if isinstance(x, (Array, Tracer, PRNGKeyArray)):
        return x
    if isinstance(x, (list, tuple)) and any(isinstance(e, Tracer) for e in _iter_nested(x)):
        return stack_leading([ensure_array(e) for e in x])
    if hasattr(x, "__jax_array__"):  # a value that converts itself, as JAX takes it
        return ensure_array(x.__jax_array__())
    return asarray_concrete(x)


def astype(x: Any, dtype: np.dtype, weak_type: bool = False) -> Any:
    """`x` converted to `dtype` as `jnp`'s casts do: complex to bool is `x != 0` (a nonzero
    imaginary part counts, as JAX's `astype`/`logical_*`; `lax.convert_element_type` keeps the
    real part only)."""
    if dtype == dtypes.bool_ and dtypes.kind(get_aval(x).dtype) == "c":
        return sh.convert_element_type(ew.ne(x, ew.full_like(x, 0)), dtype, weak_type)
    return sh.convert_element_type(x, dtype, weak_type)


def stack_leading(parts: list[Any], dtype: Any = None) -> Any:
    """Arrays of one shape converted to one dtype and stacked along a new first axis: how a
    (nested) list holding tracers becomes an array, here and in `jnp.array`. As in JAX, each
    part is converted (to a dtype that is not weak), given its new axis by `broadcast_in_dim`,
    and the parts are concatenated.

    Args:
      parts: a non-empty list of arrays or tracers of one shape (else JAX's TypeError).
      dtype: the dtype of the result; by default the parts' promoted dtype.

    Returns:
      The stacked array, of shape `(len(parts), *shape)`.
    """
    dt = dtypes.result_type(*parts) if dtype is None else dtypes.canonicalize_dtype(dtype)

    def leading(p: Any) -> Any:
        p = sh.convert_element_type(ensure_array(p), dt)
        shape = get_aval(p).shape
        return sh.broadcast_in_dim(p, (1, *shape), tuple(range(1, len(shape) + 1)))

    # parts of different shapes: the concatenation raises JAX's TypeError naming them
    return ix.concatenate([leading(p) for p in parts], 0)


def _iter_nested(x):
    for e in x:
        if isinstance(e, (list, tuple)):
            yield from _iter_nested(e)
        else:
            yield e


def broadcast_shapes(*shapes: Any) -> tuple[int, ...]:
    """The numpy broadcast of `shapes` (an int is a 1-d shape); as in JAX's
    `jnp.broadcast_shapes`, a mismatch names every shape, and a size that is not a
    non-negative integer is a TypeError."""
    shapes = tuple(canonical_shape(s) for s in shapes)
    for s in shapes:
        if any(d < 0 for d in s):
            raise TypeError(
                "Only non-negative indices are allowed when broadcasting static shapes, but "
                f"got shape {s!r}."
            )
    ndim = max((len(s) for s in shapes), default=0)
    out = []
    for i in range(ndim):
        dims = {s[i - ndim + len(s)] for s in shapes if i - ndim + len(s) >= 0} - {1}
        if len(dims) > 1:
            raise ShapeError(
                f"Incompatible shapes for broadcasting: shapes={[tuple(s) for s in shapes]}"
            )
        out.append(dims.pop() if dims else 1)
    return tuple(out)


def broadcast_to(x: Any, shape: tuple[int, ...]) -> Any:
    x = ensure_array(x)
    aval = get_aval(x)
    if aval.shape == tuple(shape):
        return x
    nlead = len(shape) - aval.ndim
    if nlead < 0:  # JAX's lax._broadcast_to messages
        raise ShapeError(
            "Cannot broadcast to shape with fewer dimensions: "
            f"arr_shape={aval.shape} shape={tuple(shape)}"
        )
    if any(d not in (1, shape[nlead + i]) for i, d in enumerate(aval.shape)):

        def typ(s: tuple) -> str:
            return f"{aval.dtype.name}[{','.join(map(str, s))}]"

        raise ShapeError(
            f"Incompatible types for broadcasting: input type={typ(aval.shape)} and requested "
            f"type={typ(tuple(shape))}\nIncompatible shapes for broadcasting: {aval.shape} and "
            f"requested shape {tuple(shape)}"
        )
    return sh.broadcast_in_dim(x, tuple(shape), tuple(range(nlead, len(shape))))


def static_axes(axis: Any) -> int | tuple[int, ...] | None:
    """An axis argument as a hashable static value (JAX's `_ensure_optional_axes`): None, an
    int, or a tuple of ints."""
    if axis is None:
        return None
    try:
        return operator.index(axis)
    except TypeError:
        return tuple(operator.index(a) for a in axis)


def promote_dtypes(*args: Any) -> list[Any]:
    """Converts every argument to arrays of the JAX-promoted common dtype (and weak type)."""
    a0 = getattr(args[0], "aval", None) if args else None
    if a0 is not None and all(
        (av := getattr(a, "aval", None)) is not None
        and av.dtype == a0.dtype
        and av.weak_type == a0.weak_type
        for a in args[1:]
    ):
        return list(args)  # fast path: arrays of one dtype and weak type
    dt, weak = dtypes.result_type_and_weak(*args)
    return [sh.convert_element_type(ensure_array(a), dt, weak) for a in args]


def promote_dtypes_inexact(*args: Any) -> list[Any]:
    dt, weak = dtypes.result_type_and_weak(*args)
    if type(dt) is dtypes.KeyDType:  # keys have no inexact dtype (JAX asks numpy for one)
        _raise_for_keys("", args)
    if dtypes.kind(dt) not in "fc":
        dt = to_inexact(dt)
    return [sh.convert_element_type(ensure_array(a), dt, weak) for a in args]


def to_inexact(dt: Any) -> np.dtype:
    """JAX's `to_inexact_dtype` of a bool or integer dtype: float32 for those of up to 32 bits
    (also with x64 enabled), the default float (float64 under x64) for 64-bit ones."""
    return dtypes.default_float() if np.dtype(dt).itemsize == 8 else np.dtype(np.float32)


def _same_avals(args: tuple) -> bool:
    """Fast path: every argument is an array with one shape, dtype and weak type."""
    a0 = getattr(args[0], "aval", None)
    if a0 is None or type(a0) is AbstractRef:
        return False
    for a in args[1:]:
        av = getattr(a, "aval", None)
        if av is None or av != a0:
            return False
    return True


@functools.cache
def _largest(dt: np.dtype) -> float:
    return float(dtypes.finfo(dt).max)


def _filled_scalar(args: tuple, kinds: str) -> list[Any] | None:
    """Eager `x * 2.0`: a concrete Array of a strong dtype of `kinds` and a Python int or float
    it absorbs (JAX's weak typing: the Array's dtype), outside any transformation, become the
    Array and an Array of its shape filled with the scalar, without the conversion and
    broadcast primitives (x * 2.0 on 10 floats: 54 -> 12 us). None where the general path
    decides (a transformation, a weak or bool Array, an int the dtype or the default int
    cannot hold, a float meeting an int dtype, a float beyond the dtype's range, inf or nan)."""
    if len(args) != 2 or current_trace() is not eval_trace:
        return None
    a, b = args
    first = type(a) is Array
    arr, s = (a, b) if first else (b, a)
    if type(arr) is not Array or type(s) not in (int, float):
        return None
    aval = arr.aval
    dt = aval.dtype
    if aval.weak_type or dt.kind not in kinds:
        return None
    if type(s) is int:
        # beyond the default int, JAX raises OverflowError whatever the Array's dtype
        info = np.iinfo(dtypes.default_int() if dt.kind not in "iu" else dt)
        if not info.min <= s <= info.max:
            return None
    elif dt.kind in "iu" or not abs(s) <= _largest(dt):
        return None  # a float meeting ints, beyond the dtype (numpy's warning), inf or nan
    filled = Array(np.full(aval.shape, s, dt), aval=aval)
    return [arr, filled] if first else [filled, arr]


def check_rank_promotion(name: str, shapes: list[tuple[int, ...]]) -> None:
    """JAX's `jax_numpy_rank_promotion` check of `jnp` function `name` broadcasting operands of
    `shapes`: with operands of two or more ranks besides scalars, 'warn' warns and 'raise'
    raises, in JAX's words; 'allow' (the default) lets numpy's broadcasting promote ranks.
    An empty `name` checks nothing (the functions JAX broadcasts without the check)."""
    if not name or config._rank_promotion == "allow" or len({len(s) for s in shapes if s}) < 2:
        return
    if config._rank_promotion == "raise":
        raise RankPromotionError(name, shapes)
    warnings.warn(
        f"Following NumPy automatic rank promotion for {name} on shapes "
        f"{' '.join(map(str, shapes))}. Set the jax_numpy_rank_promotion config option to "
        "'allow' to disable this warning; for more information, see "
        "https://docs.jax.dev/en/latest/rank_promotion_warning.html.",
        RankPromotionWarning,
        stacklevel=4,
    )


def promote_shapes(name: str, arrs: list[Any], lax_shapes: bool) -> list[Any]:
    """The arrays broadcast to their common shape, or with `lax_shapes` as JAX's jnp hands
    them to a broadcasting lax primitive (`Primitive.broadcasting`): unchanged when they have
    one rank or all but one rank are scalars, else given size-1 leading axes up to the
    result's rank (`jnp.add(x, 1.0)` stages `add a 1.0:f32[]`). Rank promotion is checked
    (`check_rank_promotion`) under `name`, JAX's name of the `jnp` function."""
    shapes = [get_aval(a).shape for a in arrs]
    check_rank_promotion(name, shapes)
    if lax_shapes and len({len(s) for s in shapes if s}) < 2:
        return arrs
    shape = broadcast_shapes(*shapes)
    if not lax_shapes:
        return [broadcast_to(a, shape) for a in arrs]
    return [broadcast_to(a, (1,) * (len(shape) - len(s)) + s) for a, s in zip(arrs, shapes)]


def promote_args(
    name: str, *args: Any, lax_shapes: bool = False, rank_name: str | None = None
) -> list[Any]:
    """Promote dtypes, then broadcast shapes (`promote_shapes`): the preamble of every binary
    jnp function. `rank_name` is the name JAX's rank promotion check reports, when not `name`
    (the function whose check it is inside JAX's composition; '': no check)."""
    if _same_avals(args):
        return list(args)
    if (filled := _filled_scalar(args, "iufc")) is not None:
        return filled
    check_arraylike(name, *args)
    try:
        promoted = promote_dtypes(*args)
    except TypePromotionError:  # a key array's dtype meeting another?
        _raise_for_keys(name, args)
        raise
    return promote_shapes(name if rank_name is None else rank_name, promoted, lax_shapes)


def _raise_for_keys(name: str, args: tuple) -> None:
    """JAX's error for arithmetic between key arrays and numbers (`key + 1`), or on key arrays
    alone where JAX asks numpy for their dtype (`key / key`), if a key array is among `args`."""
    found = [dtypes.dtype_and_weak(a)[0] for a in args]
    if all(isinstance(d, dtypes.KeyDType) for d in found):
        raise KeyArithmeticError(f"Cannot interpret '{found[0]}' as a data type") from None
    if any(isinstance(d, dtypes.KeyDType) for d in found):
        raise KeyArithmeticError(
            f"{name} does not accept dtypes {', '.join(map(str, found))}."
        ) from None


def check_no_keys(name: str, *args: Any) -> None:
    """Raises JAX's error of jnp function `name` on key arrays (`_raise_for_keys`)."""
    if any(type(getattr(a, "dtype", None)) is dtypes.KeyDType for a in args):
        _raise_for_keys(name, args)


def promote_args_numeric(name: str, *args: Any, lax_shapes: bool = False) -> list[Any]:
    """`promote_args`, with bool promoted to the default int (JAX's arithmetic on bools)."""
    check_arraylike(name, *args)
    check_no_keys(name, *args)
    dt, weak = dtypes.result_type_and_weak(*args)
    if dt == np.bool_:
        dt = dtypes.default_int()
    return promote_shapes(
        name, [sh.convert_element_type(ensure_array(a), dt, weak) for a in args], lax_shapes
    )


def promote_args_inexact(
    name: str, *args: Any, lax_shapes: bool = False, rank_name: str | None = None
) -> list[Any]:
    """`promote_args` with integers and bools promoted to the default float."""
    if _same_avals(args) and dtypes.kind(args[0].aval.dtype) in "fc":
        return list(args)
    if (filled := _filled_scalar(args, "fc")) is not None:
        return filled
    check_arraylike(name, *args)
    rank_name = name if rank_name is None else rank_name
    try:
        promoted = promote_dtypes_inexact(*args)
    except TypePromotionError:  # a key array's dtype meeting another?
        _raise_for_keys(name, args)
        raise
    return promote_shapes(rank_name, promoted, lax_shapes)


def canonicalize_axis(axis: int, ndim: int) -> int:
    if not -ndim <= axis < max(ndim, 1):
        raise AxisError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    return axis % max(ndim, 1)


def reduction_axes(axis: Any, ndim: int, *, iterable: bool = True) -> tuple[int, ...]:
    """A reduction's axes, canonical; a traced axis is a `ConcretizationTypeError` (JAX's).
    A non-integer axis is JAX's error of iterating it, or with `iterable=False` (quantiles,
    which take `operator.index` of it) of indexing it; an axis given twice is JAX's
    "duplicate value in 'axis'", or for quantiles its "repeated axis"."""
    if axis is None:
        return tuple(range(ndim))
    traced = [
        a for a in (axis if isinstance(axis, (tuple, list)) else [axis]) if isinstance(a, Tracer)
    ]
    if traced:
        raise ConcretizationTypeError(
            traced_shape(traced[0].aval),
            "The axis argument must be known statically. Fix: pass the axis as a Python int "
            "(static_argnums= under jit).",
        )
    if isinstance(axis, (tuple, list)):
        axes = tuple(_reduction_axis(operator.index(a), ndim) for a in axis)
        if len(set(axes)) != len(axes):
            raise ValueError(f"duplicate value in 'axis': {axis}" if iterable else "repeated axis")
        return axes
    if not iterable:
        return (_reduction_axis(operator.index(axis), ndim),)
    try:
        index = operator.index(axis)
    except TypeError:  # JAX iterates a non-integer axis as a sequence of axes
        raise TypeError(f"'{type(axis).__name__}' object is not iterable") from None
    return (_reduction_axis(index, ndim),)


def _reduction_axis(axis: int, ndim: int) -> int:
    """One reduction axis, canonical: an array of rank 0 has none (unlike `canonicalize_axis`,
    which takes axis 0 of a scalar as numpy's concatenation does)."""
    if not -ndim <= axis < ndim:
        raise AxisError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    return axis % ndim


def np_dtype(dtype: Any, name: str) -> np.dtype | None:
    """The dtype argument of jnp function `name` (None stays None), warning as JAX does when a
    64-bit dtype is truncated (`dtypes.check_user_dtype`). `float0` (the tangent dtype of
    integers, which makes numpy arrays only) stays itself."""
    if dtype is None:
        return None
    if isinstance(dtype, np.dtype) and dtype == dtypes.float0:
        return dtypes.float0
    return dtypes.check_user_dtype(dtype, name)


def alias(fn: Any, name: str) -> Any:
    """`fn` under JAX's name of an alias: JAX's aliases are functions of their own
    (`jnp.absolute.__name__` is 'absolute', `jnp.abs.__name__` 'abs'), which programs and
    JAX's tests read.

    Args:
      fn: the function.
      name: the alias's name.

    Returns:
      A function calling `fn`, named `name`.
    """

    @functools.wraps(fn)
    def named(*args: Any, **kwargs: Any) -> Any:
        return fn(*args, **kwargs)

    named.__name__ = named.__qualname__ = name
    return named
