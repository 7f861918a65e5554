"""Shape manipulation: reshape, transpose, expand_dims, squeeze, concatenate, stack, ..."""

from __future__ import annotations

import operator
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from core import dtypes
from core.errors import (
    AxisError,
    ConcretizationTypeError,
    ShapeError,
    ZeroSizeReshapeError,
    traced_shape,
)
from core.jit.library import library_jit
from core.named_sharding import resharded, takes_out_sharding
from core.numpy._util import (
    broadcast_shapes,
    canonical_shape,
    canonicalize_axis,
    check_arraylike,
    check_arraylike_elements,
    converted,
    ensure_array,
    promote_dtypes,
    static_axes,
)
from core.numpy._util import (
    broadcast_to as _broadcast_to,
)
from core.numpy.lookup import searchsorted, take
from core.numpy.ufuncs import remainder, subtract
from core.prims import indexing as ix
from core.prims import shapes as sh
from core.prims.rev import rev
from core.prims.sorting import cumsum
from core.sharding_exemptions import unchecked
from core.trace import Tracer, get_aval


def _resolve_shape(shape: Any, size: int, old: tuple[int, ...]) -> tuple[int, ...]:
    given = shape  # JAX's messages show the shape as it was given (`5`, `[5]`, `(5,)`)
    shape = canonical_shape(shape, list)
    if shape.count(-1) > 1:
        raise TypeError(
            f"can only specify one unknown axis size with a `-1` value, got {tuple(shape)}"
        )
    if -1 in shape:
        known = int(np.prod([d for d in shape if d != -1], dtype=np.int64))
        if known == 0:
            raise ZeroSizeReshapeError(old, tuple(shape))
        if size % known:
            raise ShapeError(
                f"cannot reshape array of shape {old} (size {size}) into shape {given} "
                f"because the product of specified axis sizes ({known}) does not evenly divide "
                f"{size}"
            )
        shape = tuple(size // known if d == -1 else d for d in shape)
    if int(np.prod(shape, dtype=np.int64)) != size:
        raise ShapeError(
            f"cannot reshape array of shape {old} (size {size}) into shape {given} "
            f"(size {int(np.prod(shape, dtype=np.int64))})"
        )
    return shape


def reshape(
    a: Any,
    shape: Any = None,
    order: str = "C",
    *,
    newshape: Any = None,
    copy: bool | None = None,
    out_sharding: Any = None,
) -> Any:
    """Gives `a` a new shape (one dimension may be -1).

    Args:
      a: the array.
      shape: the new shape (an int or a tuple of ints).
      order: "C" reads and writes the elements in row-major order, "F" in column-major order
        (as JAX, `order="A"` raises NotImplementedError).
      newshape: the deprecated numpy name of `shape`.
      copy: unused, as in JAX (arrays are immutable: a reshape never exposes shared memory).
      out_sharding: how the result is sharded (a `PartitionSpec` over the current mesh or a
        `NamedSharding`); over `Explicit` mesh axes, what a reshape the type rule finds
        ambiguous needs (`core/sharding_reshape.py`). None: as the rule gives.

    Returns:
      The reshaped array.
    """
    if out_sharding is not None:
        with unchecked():
            out = reshape(a, shape, order, newshape=newshape)
        return resharded(out, out_sharding, "reshape")
    check_arraylike("reshape", a)
    a = ensure_array(a)
    aval = get_aval(a)
    shape = _resolve_shape(newshape if shape is None else shape, aval.size, aval.shape)
    if order == "C":
        return sh.reshape(a, shape)
    if order == "F":  # column-major: reverse the axes, reshape to the reversed shape, reverse
        flipped = sh.reshape(sh.transpose(a, tuple(range(aval.ndim))[::-1]), shape[::-1])
        return sh.transpose(flipped, tuple(range(len(shape)))[::-1])
    if order == "A":
        raise NotImplementedError("np.reshape order=A is not implemented.")
    raise ValueError(f"Unexpected value for 'order' argument: {order}.")


def ravel(a: Any, order: str = "C", *, out_sharding: Any = None) -> Any:
    """The elements of `a` in one dimension, read in `order` ("C" or "F", as `reshape`).

    Args:
      a: the array.
      order: "C" (row-major) or "F" (column-major).
      out_sharding: how the result is sharded (as `reshape`'s), or None.

    Returns:
      The flattened array.
    """
    check_arraylike("ravel", a)
    if order == "K":
        raise NotImplementedError("Ravel not implemented for order='K'.")
    a = ensure_array(a)
    return reshape(a, (get_aval(a).size,), order, out_sharding=out_sharding)


def transpose(a: Any, axes: Any = None) -> Any:
    """Permutes axes (reverses them by default)."""
    check_arraylike("transpose", a)
    a = ensure_array(a)
    nd = get_aval(a).ndim
    perm = tuple(range(nd))[::-1] if axes is None else tuple(canonicalize_axis(x, nd) for x in axes)
    return sh.transpose(a, perm)


def permute_dims(a: Any, /, axes: Any) -> Any:
    """`lax.transpose` under the array API's name: `axes` is taken as given, so negative axes
    are JAX's TypeError (a permutation of `range(a.ndim)` is required), unlike `transpose`."""
    check_arraylike("permute_dims", a)
    return sh.transpose(ensure_array(a), tuple(operator.index(x) for x in axes))


def matrix_transpose(x: Any, /) -> Any:
    """Swaps the last two axes."""
    check_arraylike("matrix_transpose", x)
    x = ensure_array(x)
    nd = get_aval(x).ndim
    if nd < 2:
        raise ValueError(f"x must be at least two-dimensional for matrix_transpose; got ndim={nd}")
    return sh.transpose(x, (*range(nd - 2), nd - 1, nd - 2))


def swapaxes(a: Any, axis1: int, axis2: int) -> Any:
    check_arraylike("swapaxes", a)
    a = ensure_array(a)
    nd = get_aval(a).ndim
    perm = list(range(nd))
    for axis in (axis1, axis2):  # JAX's first line: its numpy permutation indexed by the axis
        if not -nd <= axis < nd:
            raise AxisError(
                f"index {axis} is out of bounds for axis 0 with size {nd}\nswapaxes takes axes "
                f"in [-{nd}, {nd})."
            )
    i, j = canonicalize_axis(axis1, nd), canonicalize_axis(axis2, nd)
    perm[i], perm[j] = perm[j], perm[i]
    return sh.transpose(a, tuple(perm))


def moveaxis(a: Any, source: Any, destination: Any) -> Any:
    check_arraylike("moveaxis", a)
    a = ensure_array(a)
    nd = get_aval(a).ndim
    src = [canonicalize_axis(s, nd) for s in np.atleast_1d(source)]
    dst = [canonicalize_axis(d, nd) for d in np.atleast_1d(destination)]
    if len(src) != len(dst):
        raise ValueError(f"Inconsistent number of elements: {len(src)} vs {len(dst)}")
    order = [i for i in range(nd) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return sh.transpose(a, tuple(order))


def expand_dims(a: Any, axis: Any) -> Any:
    check_arraylike("expand_dims", a)
    a = ensure_array(a)
    aval = get_aval(a)
    axes = (operator.index(axis),) if np.ndim(axis) == 0 else tuple(axis)  # (a 0-d array too)
    nd = aval.ndim + len(axes)
    return sh.expand_dims(a, tuple(canonicalize_axis(x, nd) for x in axes))


def squeeze(a: Any, axis: Any = None) -> Any:
    check_arraylike("squeeze", a)
    a = ensure_array(a)
    aval = get_aval(a)
    if axis is None:
        axes = [i for i, d in enumerate(aval.shape) if d == 1]
    else:
        given = [operator.index(x) for x in np.atleast_1d(axis)]
        if not aval.ndim and given:  # a scalar has no axis (`canonicalize_axis` allows 0)
            raise AxisError(f"axis {given[0]} is out of bounds for array of dimension 0")
        axes = [canonicalize_axis(x, aval.ndim) for x in given]
        for ax in axes:
            if aval.shape[ax] != 1:
                raise ValueError(
                    f"cannot select an axis to squeeze out which has size not equal to one, got "
                    f"shape={aval.shape} and dimensions={tuple(axes)}"
                )
    return sh.squeeze(a, tuple(axes))


def concatenate(arrays: Any, axis: int | None = 0, dtype: Any = None) -> Any:
    """Joins arrays along an existing axis (`axis=None` flattens them first)."""
    check_arraylike_elements("concatenate", arrays)
    arrays = [ensure_array(a) for a in arrays]
    if not arrays:
        raise ValueError("Need at least one array to concatenate.")
    if axis is None:
        arrays = [ravel(a) for a in arrays]
        axis = 0
    if get_aval(arrays[0]).ndim == 0:  # (a later scalar: lax.concatenate's TypeError, as JAX)
        raise ValueError("Zero-dimensional arrays cannot be concatenated.")
    arrays = (
        promote_dtypes(*arrays)
        if dtype is None
        else [sh.convert_element_type(a, dtype) for a in arrays]
    )
    # lax.concatenate's shape rule checks the shapes with JAX's messages.
    return ix.concatenate(arrays, canonicalize_axis(axis, get_aval(arrays[0]).ndim))


def concat(arrays: Any, /, *, axis: int | None = 0) -> Any:
    """`concatenate` under the array API's name."""
    check_arraylike_elements("concat", arrays)
    return concatenate(arrays, axis)


def stack(arrays: Any, axis: int = 0, out: Any = None, dtype: Any = None) -> Any:
    """Joins arrays along a new axis."""
    check_arraylike_elements("stack", arrays)
    arrays = [ensure_array(a) for a in arrays]
    if not arrays:
        raise ValueError("Need at least one array to stack.")
    shapes = [get_aval(a).shape for a in arrays]
    if len(set(shapes)) > 1:  # JAX's stack primitive's messages
        what = (
            "Cannot stack arrays with different numbers of dimensions: got"
            if len({len(s) for s in shapes}) > 1
            else "All input arrays must have the same shape. Got"
        )
        raise ValueError(f"{what} {', '.join(str(s) for s in shapes)}.")
    ax = canonicalize_axis(axis, get_aval(arrays[0]).ndim + 1)
    arrays = (
        promote_dtypes(*arrays)
        if dtype is None
        else [sh.convert_element_type(a, dtype) for a in arrays]
    )
    return ix.stack(arrays, ax)


@takes_out_sharding
def broadcast_to(array: Any, shape: Any) -> Any:
    """`array` broadcast to `shape` (numpy's rules: new axes on the left, size-1 axes grow).

    Args:
      array: an array or scalar.
      shape: the target shape (an int or a sequence of ints).

    Returns:
      The broadcast array.
    """
    check_arraylike("broadcast_to", array)
    return _broadcast_to(array, (shape,) if isinstance(shape, int) else tuple(shape))


def broadcast_arrays(*args: Any) -> list[Any]:
    check_arraylike("broadcast_arrays", *args)
    arrs = [ensure_array(a) for a in args]
    shape = broadcast_shapes(*(get_aval(a).shape for a in arrs))
    return [_broadcast_to(a, shape) for a in arrs]


@library_jit
def atleast_1d(*arys: Any) -> Any:
    check_arraylike("atleast_1d", *arys)
    out = [a if get_aval(a).ndim >= 1 else reshape(a, (1,)) for a in map(ensure_array, arys)]
    return out[0] if len(out) == 1 else out


@library_jit
def atleast_2d(*arys: Any) -> Any:
    check_arraylike("atleast_2d", *arys)
    out = []
    for a in map(ensure_array, arys):
        nd = get_aval(a).ndim
        out.append(a if nd >= 2 else sh.expand_dims(a, tuple(range(2 - nd))))
    return out[0] if len(out) == 1 else out


def _shape_of(a: Any, name: str) -> tuple[int, ...]:
    """`a`'s shape: its `shape` attribute when it has one (arrays, tracers, duck-typed arrays
    such as `jax.ShapeDtypeStruct`, as JAX reads it), numpy's for anything else; JAX 0.10.2
    warns (a `DeprecationWarning` naming function `name`) for what is neither an array nor a
    numpy scalar: a list, a tuple, None, any other object."""
    if hasattr(a, "shape"):
        return tuple(a.shape)
    if isinstance(a, (str, bytes)):  # a numpy scalar to JAX's check: no warning, shape ()
        return ()
    if _warned_not_array(a, name, stacklevel=4):
        return np.shape(a)
    return get_aval(ensure_array(a)).shape


def _warned_not_array(a: Any, name: str, stacklevel: int) -> bool:
    """Whether `a` is neither an array nor a numpy scalar, after JAX 0.10.2's
    `DeprecationWarning` for it naming function `name` (`stacklevel` counted from here)."""
    if hasattr(a, "shape") or np.isscalar(a) or hasattr(a, "__jax_array__"):
        return False
    warnings.warn(
        f"{name} requires ndarray or scalar arguments, got {type(a)} at position 0. In a "
        "future JAX release this will be an error.",
        DeprecationWarning,
        stacklevel=stacklevel,
    )
    return True


def shape(a: Any) -> tuple[int, ...]:
    """The shape of `a` (an array, a scalar, anything with a `shape`; a nested list with
    JAX's deprecation warning)."""
    return _shape_of(a, "shape")


def ndim(a: Any) -> int:
    """The number of dimensions of `a` (an array, a scalar, anything with a `shape`; a nested
    list with JAX's deprecation warning)."""
    return len(_shape_of(a, "ndim"))


def size(a: Any, axis: int | Sequence[int] | None = None) -> int:
    """The number of elements of `a`, or along `axis` (an int or a tuple of axes)."""
    _warned_not_array(a, "size", stacklevel=3)  # JAX's, then its shape's
    shp = _shape_of(a, "shape")
    if axis is None:
        return int(np.prod(shp, dtype=int))
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    axes = tuple(canonicalize_axis(ax, len(shp)) for ax in axes)
    if len(set(axes)) != len(axes):
        raise ValueError(f"repeated axis: {axes}")
    return int(np.prod([shp[ax] for ax in axes], dtype=int))


@library_jit
def atleast_3d(*arys: Any) -> Any:
    check_arraylike("atleast_3d", *arys)
    out = []
    for a in map(ensure_array, arys):
        s = get_aval(a).shape
        if len(s) < 3:
            a = sh.expand_dims(a, ((0, 1, 2), (0, 2), (2,))[len(s)])
        out.append(a)
    return out[0] if len(out) == 1 else out


# ---------------------------------------------------------------------------------------------
# Splitting and stacking


def _split_concrete(v: Any) -> Any:
    """A split point or section count as a concrete value (a tracer's under `grad`/`jvp`), else
    JAX's `ConcretizationTypeError`."""
    if not isinstance(v, Tracer):
        return v
    c = v.to_concrete_value()
    if c is None:
        raise ConcretizationTypeError(traced_shape(v.aval), "in jax.numpy.split argument 1")
    return c


def _split_points(n: int, indices_or_sections: Any, even: bool) -> list[int]:
    if isinstance(indices_or_sections, (list, tuple)):
        indices_or_sections = [_split_concrete(v) for v in indices_or_sections]
    else:
        indices_or_sections = _split_concrete(indices_or_sections)
    if np.ndim(indices_or_sections) == 0 and not isinstance(indices_or_sections, list):
        k = int(indices_or_sections)  # a count of sections (a 0-d array or a float too, as JAX)
        if k == 0:  # JAX's class: its size computation divides by the count
            raise ZeroDivisionError(
                "integer division or modulo by zero\nthe number of sections is 0: split into "
                "at least one section"
            )
        if k < 0:
            raise ValueError("number sections must be larger than 0.")
        if even and n % k:
            raise ValueError(
                f"array split does not result in an equal division: rest is {n % k}\n"
                f"{n} is not divisible by {k}: use jnp.array_split for unequal parts."
            )
        q, r = divmod(n, k)
        sizes = [q + 1] * r + [q] * (k - r)
        return list(np.cumsum([0, *sizes]))
    pts = [int(i) for i in np.asarray(indices_or_sections).ravel()]
    return [0, *pts, n]


def _split(ary: Any, indices_or_sections: Any, axis: int, even: bool) -> list[Any]:
    ary = ensure_array(ary)
    shape = get_aval(ary).shape
    ax = canonicalize_axis(axis, len(shape))
    pts = _split_points(shape[ax], indices_or_sections, even)
    # JAX's pieces: the indices taken as given (no wrapping of negative ones, no clipping),
    # their differences the sizes, numpy ints as JAX's; unordered or out-of-range indices give
    # a negative size, JAX's ValueError (numpy would return empty pieces)
    sizes = [np.int64(hi - lo) for lo, hi in zip(pts[:-1], pts[1:])]
    if any(d < 0 for d in sizes):
        raise ValueError(
            f"Sizes passed to split must be nonnegative, got {sizes}\n"
            f"The split indices must be increasing and within 0..{shape[ax]} (the axis' size)."
        )
    return ix.split(ary, sizes, ax)


def split(ary: Any, indices_or_sections: Any, axis: int = 0) -> list[Any]:
    """Splits into equal sections (an int) or at the given indices along `axis`."""
    check_arraylike("split", ary)
    return _split(ary, indices_or_sections, axis, even=True)


def array_split(ary: Any, indices_or_sections: Any, axis: int = 0) -> list[Any]:
    """Like `split`, but sections may differ in size by one."""
    check_arraylike("array_split", ary)
    return _split(ary, indices_or_sections, axis, even=False)


def hsplit(ary: Any, indices_or_sections: Any) -> list[Any]:
    check_arraylike("hsplit", ary)
    return split(ary, indices_or_sections, 0 if get_aval(ensure_array(ary)).ndim == 1 else 1)


def vsplit(ary: Any, indices_or_sections: Any) -> list[Any]:
    check_arraylike("vsplit", ary)
    return split(ary, indices_or_sections, 0)


def dsplit(ary: Any, indices_or_sections: Any) -> list[Any]:
    check_arraylike("dsplit", ary)
    return split(ary, indices_or_sections, 2)


def unstack(x: Any, /, *, axis: int = 0) -> tuple[Any, ...]:
    """The slices of `x` along `axis`, as a tuple."""
    check_arraylike("unstack", x)
    x = ensure_array(x)
    return tuple(ix.unstack(x, canonicalize_axis(axis, get_aval(x).ndim)))


def hstack(tup: Any, dtype: Any = None) -> Any:
    check_arraylike_elements("hstack", tup)
    arrs = [atleast_1d(a) for a in tup]
    return concatenate(arrs, axis=0 if get_aval(arrs[0]).ndim == 1 else 1, dtype=dtype)


def vstack(tup: Any, dtype: Any = None) -> Any:
    check_arraylike_elements("vstack", tup)
    return concatenate([atleast_2d(a) for a in tup], axis=0, dtype=dtype)


def dstack(tup: Any, dtype: Any = None) -> Any:
    check_arraylike_elements("dstack", tup)
    return concatenate([atleast_3d(a) for a in tup], axis=2, dtype=dtype)


def column_stack(tup: Any) -> Any:
    check_arraylike_elements("column_stack", tup)
    arrs = []
    for a in map(ensure_array, tup):
        arrs.append(reshape(a, (-1, 1)) if get_aval(a).ndim < 2 else a)
    return concatenate(arrs, axis=1)


@library_jit(static_argnames=("axis",))
def append(arr: Any, values: Any, axis: int | None = None) -> Any:
    check_arraylike("ravel", arr)
    check_arraylike("ravel", values)
    if axis is None:
        return concatenate([ravel(arr), ravel(values)], 0)
    return concatenate([arr, values], axis)


# ---------------------------------------------------------------------------------------------
# Repetition, flips, rolls, padding


def tile(A: Any, reps: Any) -> Any:
    """Repeats the whole of `A` `reps` times along each axis."""
    check_arraylike("tile", A)
    A = ensure_array(A)
    reps = (int(reps),) if isinstance(reps, (int, np.integer)) else tuple(int(r) for r in reps)
    ndim = get_aval(A).ndim
    reps = (1,) * (ndim - len(reps)) + reps
    if len(reps) > ndim:  # JAX's: new leading axes, then lax.tile
        A = sh.expand_dims(A, tuple(range(len(reps) - ndim)))
    return ix.tile(A, reps)


@takes_out_sharding
def repeat(
    a: Any, repeats: Any, axis: int | None = None, *, total_repeat_length: int | None = None
) -> Any:
    """Repeats each element `repeats` times along `axis` (the flattened array when None).

    `repeats` may be an int or a per-element array; a traced array needs a static
    `total_repeat_length`."""
    check_arraylike("repeat", a, repeats)
    a = ensure_array(a)
    if axis is None:
        a = ravel(a)
        axis = 0
    shape = get_aval(a).shape
    ax = canonicalize_axis(axis, len(shape))
    n = shape[ax]
    scalar = isinstance(repeats, (int, np.integer)) or (
        not isinstance(repeats, Tracer) and np.ndim(repeats) == 0
    )
    if scalar and total_repeat_length in (None, n * int(repeats)):
        r = int(repeats)
        expanded = (*shape[: ax + 1], r, *shape[ax + 1 :])
        out = sh.broadcast_in_dim(a, expanded, (*range(ax + 1), *range(ax + 2, len(shape) + 1)))
        return sh.reshape(out, (*shape[:ax], n * r, *shape[ax + 1 :]))
    if not isinstance(repeats, Tracer):
        reps = np.broadcast_to(np.asarray(repeats), (n,))
        if total_repeat_length is None:
            idx = np.repeat(np.arange(n), reps)
        else:  # JAX's: cut at the length, or the last started block repeated up to it
            ends = np.cumsum(reps)
            idx = np.searchsorted(ends, np.arange(total_repeat_length), side="right")
            idx = np.minimum(idx, max(n - 1, 0))
        return take(a, idx.astype(np.int32), axis=ax, mode="clip")
    if total_repeat_length is None:
        raise ConcretizationTypeError(
            traced_shape(get_aval(repeats)),
            "jnp.repeat with traced repeats: pass a static total_repeat_length=.",
        )
    counts = sh.convert_element_type(_broadcast_to(repeats, (n,)), dtypes.default_int())
    ends = cumsum(counts, 0)
    idx = searchsorted(ends, sh.iota(np.int32, total_repeat_length), side="right")
    return take(a, idx, axis=ax, mode="clip")


def flip(m: Any, axis: Any = None) -> Any:
    """Reverses the order of elements along `axis` (all axes when None)."""
    check_arraylike("flip", m)
    return _flip(ensure_array(m), static_axes(axis))


@library_jit(static_argnames="axis")
def _flip(m: Any, axis: int | tuple[int, ...] | None = None) -> Any:
    nd = get_aval(m).ndim
    axes = range(nd) if axis is None else [int(a) for a in np.atleast_1d(axis)]
    for a in axes:  # a 0-d array has no axis 0 to flip (JAX's check)
        if not -nd <= a < nd:
            raise AxisError(f"axis {a} is out of bounds for array of dimension {nd}")
    return rev(m, tuple(a % nd for a in axes))


def fliplr(m: Any) -> Any:
    check_arraylike("fliplr", m)
    return flip(m, 1)


def flipud(m: Any) -> Any:
    check_arraylike("flipud", m)
    return flip(m, 0)


@library_jit(static_argnames=("k", "axes"))
def rot90(m: Any, k: int = 1, axes: tuple[int, int] = (0, 1)) -> Any:
    """Rotates by 90 degrees `k` times in the plane of `axes`."""
    check_arraylike("rot90", m)
    m = ensure_array(m)
    if len(axes) != 2:
        raise ValueError(
            f"not enough values to unpack (expected 2, got {len(axes)})\n"
            "rot90's axes must be a pair of distinct axes."
        )
    nd = get_aval(m).ndim
    if nd < 2:
        raise ValueError(
            "rot90 requires its first argument to have ndim at least two, but got first "
            f"argument of shape {get_aval(m).shape}, which has ndim {nd}"
        )
    a0, a1 = canonicalize_axis(axes[0], nd), canonicalize_axis(axes[1], nd)
    if a0 == a1:
        raise ValueError("Axes must be different")
    k %= 4
    if k == 0:
        return m
    if k == 2:
        return flip(flip(m, a0), a1)
    if k == 1:
        return swapaxes(flip(m, a1), a0, a1)
    return flip(swapaxes(m, a0, a1), a1)


def roll(a: Any, shift: Any, axis: Any = None) -> Any:
    """Shifts elements cyclically by `shift` along `axis` (the flattened array when None)."""
    check_arraylike("roll", a)
    a, shift = ensure_array(a), converted(shift)
    if axis is None:
        shape = get_aval(a).shape
        return reshape(roll(ravel(a), shift, 0), shape)
    nd = get_aval(a).ndim
    if isinstance(shift, Tracer):
        # JAX's: the shifts and the axes broadcast to one 1-D shape, a shift per axis
        ax = np.atleast_1d(np.asarray(axis))
        n_b = broadcast_shapes(get_aval(shift).shape, ax.shape, (1,))
        if len(n_b) != 1:
            raise ValueError("'shift' and 'axis' arguments to roll must be scalars or 1D arrays")
        axes = tuple(canonicalize_axis(int(a_), nd) for a_ in np.broadcast_to(ax, n_b))
        shift_b = _broadcast_to(shift, n_b)
        shifts = [sh.reshape(ix.slice_in_dim(shift_b, i, i + 1, axis=0), ()) for i in range(n_b[0])]
    else:
        # JAX broadcasts the axes against the shifts (a repeated axis rolls once per entry).
        ax_b, sh_b = np.broadcast_arrays(np.atleast_1d(axis), np.atleast_1d(shift))
        axes = tuple(canonicalize_axis(int(ax), nd) for ax in ax_b)
        return _roll_static(a, tuple(int(v) for v in sh_b), axes)
    for s, ax in zip(shifts, axes):
        n = get_aval(a).shape[ax]
        if n:
            idx = remainder(subtract(sh.iota(np.int32, n), s), n)
            a = take(a, idx, axis=ax, mode="clip")
    return a


@library_jit(static_argnums=(1, 2))
def _roll_static(a: Any, shift: tuple[int, ...], axis: tuple[int, ...]) -> Any:
    for s, ax in zip(shift, axis):
        n = get_aval(a).shape[ax]
        if n:
            i = -s % n
            a = ix.concatenate(
                [ix.slice_in_dim(a, i, n, axis=ax), ix.slice_in_dim(a, 0, i, axis=ax)], ax
            )
    return a
