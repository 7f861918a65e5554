"""Whole-array comparisons and set-like tests: allclose, array_equal, isin, select, ...
plus the dtype predicates of `jax.numpy` (can_cast, isdtype, isscalar...)."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from core import dtypes
from core.array import Array
from core.errors import ConcretizationTypeError, traced_shape
from core.jit.library import library_jit
from core.named_sharding import takes_out_sharding
from core.numpy import _util
from core.numpy._util import check_arraylike, ensure_array
from core.numpy.creation import copy as copy_array
from core.numpy.reductions import all as _all
from core.numpy.reductions import any as _any
from core.numpy.reductions import max as _max
from core.numpy.scalar_types import ScalarType
from core.numpy.ufuncs import (
    equal,
    imag,
    isclose,
    isnan,
    logical_and,
    logical_not,
    logical_or,
    real,
)
from core.numpy.where import where
from core.prims import elementwise as ew
from core.prims import gather as gp
from core.prims import shapes as sh
from core.trace import Tracer, get_aval


@library_jit(static_argnames=("equal_nan",))
def allclose(a: Any, b: Any, rtol: Any = 1e-05, atol: Any = 1e-08, equal_nan: bool = False) -> Any:
    """Whether every element of `a` is close to `b` (a boolean scalar array)."""
    a, b = _util.promote_args("allclose", a, b, lax_shapes=True)
    return _all(isclose(a, b, rtol, atol, equal_nan))


def array_equal(a1: Any, a2: Any, equal_nan: bool = False) -> Any:
    """True when the shapes match and every element is equal (sequences convert, as in JAX)."""
    a1, a2 = ensure_array(a1), ensure_array(a2)
    if get_aval(a1).shape != get_aval(a2).shape:
        return Array(np.asarray(False))
    eq = equal(a1, a2)
    if equal_nan:
        eq = logical_or(eq, logical_and(isnan(a1), isnan(a2)))
    return _all(eq)


def array_equiv(a1: Any, a2: Any) -> Any:
    """True when the arrays are equal after broadcasting (sequences convert, as in JAX)."""
    try:
        return _all(equal(ensure_array(a1), ensure_array(a2)))
    except ValueError:
        return Array(np.asarray(False))


def isin(
    element: Any,
    test_elements: Any,
    assume_unique: bool = False,
    invert: bool = False,
    *,
    method: str = "auto",
) -> Any:
    """Whether each element of `element` is in `test_elements`.

    Args:
      element: the values to look up.
      test_elements: the values to look in (any shape).
      assume_unique: accepted (the answer does not depend on it).
      invert: return whether each element is not in `test_elements`.
      method: JAX's algorithm choice, "auto", "compare_all", "binary_search" or "sort"; all
        give the same answer, computed here by comparing every pair.

    Returns:
      Booleans of `element`'s shape.
    """
    if method not in ("auto", "compare_all", "binary_search", "sort"):
        raise ValueError(
            f"method={method!r} is not implemented; options are 'compare_all', "
            "'binary_search', 'sort', and 'auto'"
        )
    check_arraylike("isin", element, test_elements)
    e = ensure_array(element)
    t = ensure_array(test_elements)
    shape = get_aval(e).shape
    # both operands of `equal` get rank ndim + 1, so jax_numpy_rank_promotion='raise' passes
    t = sh.reshape(t, (*(1,) * len(shape), get_aval(t).size))
    e_ex = sh.reshape(e, (*shape, 1))
    out = _any(equal(e_ex, t), axis=-1)
    if invert:
        out = logical_not(out)
    return out


def select(condlist: Any, choicelist: Any, default: Any = 0) -> Any:
    """The choice of the first true condition, elementwise (`default` where none is)."""
    check_arraylike("select", *condlist, *choicelist, default)
    if len(condlist) != len(choicelist):
        raise ValueError(
            f"condlist must have length equal to choicelist ({len(condlist)} vs "
            f"{len(choicelist)})\nPass one choice per condition."
        )
    if len(condlist) == 0:
        raise ValueError("condlist must be non-empty\nPass at least one condition and choice.")
    # JAX broadcasts the conditions after a scalar False, then their index with the choices
    where_shape = _util.broadcast_shapes((), *(np.shape(c) for c in condlist))
    _util.broadcast_shapes(where_shape, np.shape(default), *(np.shape(v) for v in choicelist))
    out = default
    for c, v in zip(reversed(condlist), reversed(choicelist)):
        out = where(c, v, out)
    return ensure_array(out)


def astype(x: Any, dtype: Any, /, *, copy: bool = False, device: Any = None) -> Any:
    """`x` converted to `dtype`, as JAX's `jnp.astype`.

    Args:
      x: an array.
      dtype: the new dtype (None: the default float dtype).
      copy: return an array with a buffer of its own even when the dtype is unchanged.
      device: accepted for JAX's signature (numbax's arrays live on the host).

    Returns:
      The converted array. Complex to a real dtype keeps the real part and warns (JAX's
      `DeprecationWarning`: it will become an error); complex to bool is `x != 0`.
    """
    check_arraylike("astype", x)
    x = ensure_array(x)
    dt = dtypes.default_float() if dtype is None else dtypes.check_user_dtype(dtype, "astype")
    if dtypes.kind(get_aval(x).dtype) == "c" and dtypes.kind(dt) in "iuf":
        warnings.warn(
            "Casting from complex to real dtypes will soon raise a ValueError. Please first use "
            "jnp.real or jnp.imag to take the real/imaginary component of your input.",
            DeprecationWarning,
            stacklevel=2,
        )
        x = real(x)  # (what the conversion keeps, without numpy's ComplexWarning)
    out = _util.astype(x, dt)
    return copy_array(out) if copy else out


def can_cast(from_: Any, to: Any, casting: str = "safe") -> bool:
    """Whether numpy's casting rule allows the conversion."""
    if isinstance(from_, (Array, Tracer)):
        from_ = get_aval(from_).dtype
    return bool(np.can_cast(from_, to, casting=casting))


# The array API's kind names and the scalar classes they stand for (JAX's extended dtypes
# included: bfloat16 and float8 are real floating, int4/uint2 integral).
_KINDS = {
    "bool": (np.bool_,),
    "signed integer": (np.signedinteger,),
    "unsigned integer": (np.unsignedinteger,),
    "integral": (np.integer,),
    "real floating": (np.floating,),
    "complex floating": (np.complexfloating,),
    "numeric": (np.integer, np.floating, np.complexfloating),
}


def isdtype(dtype: Any, kind: Any) -> bool:
    """The array-API dtype predicate, as JAX's.

    Args:
      dtype: a dtype (or anything `jnp.dtype` takes).
      kind: a dtype, a kind name ('bool', 'signed integer', 'unsigned integer', 'integral',
        'real floating', 'complex floating', 'numeric') or a tuple of them.

    Returns:
      Whether `dtype` is one of `kind`.
    """
    dt = np.dtype(dtype)
    kinds = kind if isinstance(kind, tuple) else (kind,)
    for k in kinds:
        if isinstance(k, str) and k in _KINDS:
            if any(dtypes.issubdtype(dt, c) for c in _KINDS[k]):
                return True
        elif _kind_dtype(k) == dt:
            return True
    return False


def _kind_dtype(kind: Any) -> np.dtype:
    """A dtype `kind` of `isdtype`, with JAX's errors for the others."""
    try:
        if not isinstance(kind, (list, dict, set)):
            return np.dtype(kind)
    except TypeError:
        if isinstance(kind, str):
            raise ValueError(
                f"Unrecognized kind={kind!r} expected one of {list(_KINDS)}, or a compatible "
                "input for jnp.dtype()"
            ) from None
    raise TypeError(f"Expected kind to be a dtype, string, or tuple; got kind={kind!r}")


def iscomplexobj(x: Any) -> bool:
    """Whether `x` is of a complex type, as JAX decides: Python and numpy scalars by their
    type (a string is not complex), objects with a ``dtype`` (arrays, scalar types such as
    ``jnp.complex64``) by it, anything else by the dtype it converts to.

    Args:
      x: any value.

    Returns:
      A Python bool.
    """
    if isinstance(x, (complex, np.complexfloating)):
        return True
    if x is None or isinstance(x, (bool, int, float, str, np.generic)):
        return False
    dt = getattr(x, "dtype", None)
    if dt is None:
        # a list may hold tracers (under jit): JAX reads the dtype of `asarray(x)`
        listed = isinstance(x, (list, tuple))
        dt = get_aval(ensure_array(x)).dtype if listed else dtypes.dtype_and_weak(x)[0]
    return np.dtype(dt).kind == "c"


def isrealobj(x: Any) -> bool:
    """Whether `x` is not of a complex type (`iscomplexobj`'s negation, as in JAX).

    Args:
      x: any value.

    Returns:
      A Python bool.
    """
    return not iscomplexobj(x)


def isscalar(element: Any) -> bool:
    """True for Python/numpy scalars and 0-d arrays (as `jnp.isscalar`)."""
    if isinstance(element, (Array, Tracer)):
        return get_aval(element).ndim == 0
    return np.isscalar(element) or (isinstance(element, np.ndarray) and element.ndim == 0)


@library_jit
def iscomplex(x: Any) -> Any:
    """Elementwise: a nonzero imaginary part (False for real dtypes)."""
    check_arraylike("imag", x)
    x = ensure_array(x)
    if get_aval(x).dtype.kind != "c":
        return sh.full(get_aval(x).shape, False, dtypes.bool_, get_aval(x).weak_type)
    im = imag(x)
    return ew.ne(im, ew.full_like(im, 0))


@library_jit
def isreal(x: Any) -> Any:
    """Elementwise: a zero imaginary part (True for real dtypes)."""
    check_arraylike("imag", x)
    return ew.bitwise_not(iscomplex(x))


@takes_out_sharding
def bincount(x: Any, weights: Any = None, minlength: int = 0, *, length: int | None = None) -> Any:
    """Counts of each integer in `x`, negative ones counted in bin 0 and ones past `length`
    dropped, as in JAX (a traced `x` needs a static `length`)."""
    check_arraylike("bincount", x)
    x = ensure_array(x)
    if get_aval(x).dtype.kind not in "iub":  # JAX's checks, its messages
        raise TypeError(
            f"x argument to bincount must have an integer type; got {get_aval(x).dtype}"
        )
    if get_aval(x).ndim != 1:
        raise ValueError("only 1-dimensional input supported.")
    if length is None:
        if isinstance(x, Tracer):
            raise ConcretizationTypeError(  # JAX's first line, then the fix
                traced_shape(get_aval(x)), "jnp.bincount of a traced array: pass a static length="
            )
        length = max(int(minlength), int(_max(x)) + 1 if get_aval(x).size else 0)
    n = get_aval(x).size
    flat = sh.convert_element_type(x, dtypes.default_int())
    flat = sh.reshape(ew.max(flat, ew.full_like(flat, 0)), (n, 1))
    if weights is None:
        vals = sh.full((n,), 1, dtypes.default_int())
    else:
        vals = sh.reshape(ensure_array(weights), (n,))
    init = sh.full((length,), 0, get_aval(vals).dtype)
    return gp.scatter(init, flat, vals, (0,), "add", "drop")


def _unwrap_dtype(x: Any) -> Any:
    return x.dtype if isinstance(x, ScalarType) else x


def result_type(*args: Any) -> np.dtype:
    """The dtype JAX's promotion gives for combining `args` (arrays, scalars or dtypes)."""
    return dtypes.result_type(*map(_unwrap_dtype, args))


def promote_types(a: Any, b: Any) -> np.dtype:
    """The promoted dtype of two dtypes, as JAX's: not canonicalized (`promote_types('int32',
    'uint32')` is int64 even without x64); the Python types `int`, `float` and `complex` are
    weakly typed (`promote_types('uint8', int)` is uint8, `promote_types(int, int)` int64)."""

    def node(t: Any) -> tuple[np.dtype, bool]:
        # identity, not ==: numpy dtypes compare equal to Python types (float64 == float)
        weak = any(t is p for p in (int, float, complex))
        return np.dtype(t if weak else _unwrap_dtype(t)), weak

    (a_dt, a_weak), (b_dt, b_weak) = node(a), node(b)
    return dtypes.join(a_dt, b_dt, a_weak, b_weak)
