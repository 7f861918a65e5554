"""Set operations on flattened arrays: union1d, intersect1d, setdiff1d, setxor1d and the
array-API `unique_*` functions.

Every function follows one plan: sort the candidate values, build a boolean mask of the ones
to keep (first occurrences, membership via `isin`), then compact them with
`nonzero(mask, size=...)` and a gather. The output length is the number of kept values, so it
depends on the data: concrete inputs may omit `size=` (it is counted first), traced inputs
(under `jit`/`vmap`) need a static `size=` and otherwise raise `ConcretizationTypeError`,
as in JAX. Padding follows JAX: `fill_value`, or by default the smallest result (0 for
`setdiff1d`, or when the result is empty).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from core import dtypes
from core.errors import ConcretizationTypeError, traced_shape
from core.numpy import creation as cr
from core.numpy import reductions as rd
from core.numpy import shapes as shp
from core.numpy import ufuncs as uf
from core.numpy._util import check_arraylike, ensure_array, promote_dtypes
from core.numpy.logic import isin
from core.numpy.lookup import searchsorted, take_filling
from core.numpy.nonzero import nonzero
from core.numpy.sorting import argsort
from core.numpy.where import where
from core.trace import Tracer, get_aval


# The results of unique_all, unique_counts and unique_inverse, named as JAX names them (their
# reprs print `_UniqueCountsResult(values=..., counts=...)`).
class _UniqueAllResult(NamedTuple):
    """The result of `unique_all`."""

    values: Any
    indices: Any
    inverse_indices: Any
    counts: Any


class _UniqueCountsResult(NamedTuple):
    """The result of `unique_counts`."""

    values: Any
    counts: Any


class _UniqueInverseResult(NamedTuple):
    """The result of `unique_inverse`."""

    values: Any
    inverse_indices: Any


def _len(x: Any) -> int:
    return get_aval(x).shape[0]


def _sorted(x: Any) -> tuple[Any, Any]:
    """`x` sorted (stable, NaNs last) and the permutation that sorts it; a complex number
    holding a NaN becomes `nan + 0j` first, as JAX's `unique` replaces them."""
    if dtypes.kind(get_aval(x).dtype) == "c":
        x = where(uf.isnan(x), cr.full_like(x, np.nan), x)
    perm = argsort(x)
    return x[perm], perm


def _first_mask(s: Any, equal_nan: bool = True) -> Any:
    """True at the first entry of every run of equal values of the sorted 1-D `s`."""
    n = _len(s)
    if n == 0:
        return cr.zeros((0,), dtypes.bool_)
    neq = uf.not_equal(s[1:], s[:-1])
    if equal_nan and dtypes.kind(get_aval(s).dtype) in "fc":
        neq = uf.logical_and(neq, uf.logical_not(uf.logical_and(uf.isnan(s[1:]), uf.isnan(s[:-1]))))
    return shp.concatenate([cr.ones((1,), dtypes.bool_), neq])


def _single_mask(s: Any) -> Any:
    """True at the entries of the sorted 1-D `s` equal to neither neighbour (`!=`, so every NaN
    counts once): the values `setxor1d(..., assume_unique=True)` keeps, as JAX's."""
    if _len(s) == 0:
        return cr.zeros((0,), dtypes.bool_)
    neq = uf.not_equal(s[1:], s[:-1])
    edge = cr.ones((1,), dtypes.bool_)
    return uf.logical_and(shp.concatenate([edge, neq]), shp.concatenate([neq, edge]))


def _check_concrete(name: str, size: int | None, *arrays: Any) -> None:
    """JAX's error for a set operation of traced arrays without `size=`: it names the first
    traced operand."""
    if size is None:
        for a in arrays:
            if isinstance(a, Tracer):
                raise ConcretizationTypeError(
                    traced_shape(get_aval(a)),
                    f"The error arose in {name}(): pass a static size= argument.",
                )


def _static_size(keep: Any, size: int | None, name: str) -> int:
    """`size`, or the concrete number of kept entries; traced masks need `size=`."""
    if size is not None:
        return operator.index(size)
    if isinstance(keep, Tracer):
        raise ConcretizationTypeError(  # JAX's class (not the boolean-index one)
            f"traced array with shape {get_aval(keep).str_short(short_dtypes=False)}",
            f"The error arose in {name}(): pass a static size= argument.",
        )
    return int(np.count_nonzero(np.asarray(keep)))


def _compact(keep: Any, cand: Any, size: int | None, name: str) -> tuple[Any, Any, Any]:
    """The kept candidates padded to `size` (`_static_size`) with 0s, their positions (padded
    with `len(cand)`), and how many are valid (the `valid` mask)."""
    size = _static_size(keep, size, name)
    n = _len(cand)
    idx = nonzero(keep, size=size, fill_value=n)[0]
    vals = take_filling(cand, idx, mode="fill", fill_value=0)
    count = rd.sum(keep, dtype=dtypes.default_int())
    valid = uf.less(cr.arange(size, dtype=dtypes.default_int()), count)
    return vals, idx, valid


def _fill(vals: Any, valid: Any, fill_value: Any, default: Any) -> Any:
    fill = default if fill_value is None else fill_value
    return where(valid, vals, fill).astype(get_aval(vals).dtype)


def _smallest(vals: Any, valid: Any) -> Any:
    """The default padding: the first (smallest) valid value, or 0 when there is none."""
    return where(valid[0], vals[0], 0) if _len(vals) else 0


def _empty_result(dt: np.dtype, size: int | None, fill_value: Any) -> Any:
    return cr.full((size or 0,), 0 if fill_value is None else fill_value, dt)


def _unique_of_both(
    name: str,
    ar1: Any,
    ar2: Any,
    size: int | None,
    fill_value: Any,
    select: Callable[[Any, Any, Any], Any] | None = None,
    first: Callable[[Any], Any] = _first_mask,
) -> Any:
    """The sorted unique values `s` of both arrays (flattened, promoted) where
    `select(s, a1, a2)` holds (all when None), padded as `union1d` pads; `first(s)` marks the
    candidates of the sorted values (the first of each run)."""
    a1, a2 = promote_dtypes(shp.ravel(ensure_array(ar1)), shp.ravel(ensure_array(ar2)))
    cand = shp.concatenate([a1, a2])
    if _len(cand) == 0:
        return _empty_result(get_aval(cand).dtype, size, fill_value)
    s, _ = _sorted(cand)
    keep = first(s)
    if select is not None:
        keep = uf.logical_and(keep, select(s, a1, a2))
    vals, _, valid = _compact(keep, s, size, name)
    return _fill(vals, valid, fill_value, _smallest(vals, valid))


def union1d(ar1: Any, ar2: Any, *, size: int | None = None, fill_value: Any = None) -> Any:
    """The sorted unique values found in either array.

    Args:
        ar1: first array (flattened).
        ar2: second array (flattened).
        size: static output length (required under `jit`); results are truncated or padded.
        fill_value: padding value (default: the smallest value of the union).

    Returns:
        A 1-D array in the promoted dtype.
    """
    check_arraylike("union1d", ar1, ar2)
    _check_concrete("union1d", size, ar1, ar2)
    return _unique_of_both("union1d", ar1, ar2, size, fill_value)


def intersect1d(
    ar1: Any,
    ar2: Any,
    assume_unique: bool = False,
    return_indices: bool = False,
    *,
    size: int | None = None,
    fill_value: Any = None,
) -> Any:
    """The sorted unique values found in both arrays.

    Args:
        ar1: first array (flattened).
        ar2: second array (flattened).
        assume_unique: skip de-duplication of the inputs (undefined if they have duplicates).
        return_indices: also return where each value first occurs in `ar1` and `ar2`.
        size: static output length (required under `jit`); results are truncated or padded.
        fill_value: padding value (default: the smallest value of the intersection).

    Returns:
        The intersection, or `(intersection, ar1_indices, ar2_indices)`; padded indices are
        out of bounds (`ar1.size`, `ar2.size`).
    """
    check_arraylike("intersect1d", ar1, ar2)
    a1, a2 = promote_dtypes(shp.ravel(ensure_array(ar1)), shp.ravel(ensure_array(ar2)))
    _check_concrete("intersect1d", size, a1, a2)  # (JAX's message shows the promoted arrays)
    n1, n2 = _len(a1), _len(a2)
    if n1 == 0 or n2 == 0:
        out = _empty_result(get_aval(a1).dtype, size, fill_value)
        if not return_indices:
            return out
        idt = dtypes.default_int()
        return out, cr.full((size or 0,), n1, idt), cr.full((size or 0,), n2, idt)
    s1, perm1 = _sorted(a1)
    first = cr.ones((n1,), dtypes.bool_) if assume_unique else _first_mask(s1)
    keep = uf.logical_and(first, isin(s1, a2))
    vals, idx, valid = _compact(keep, s1, size, "intersect1d")
    out = _fill(vals, valid, fill_value, _smallest(vals, valid))
    if not return_indices:
        return out
    i1 = where(valid, take_filling(perm1, idx, mode="clip"), n1)
    s2, perm2 = _sorted(a2)
    j = searchsorted(s2, vals, side="left")
    i2 = where(valid, take_filling(perm2, j, mode="clip"), n2)
    return out, i1, i2


def setdiff1d(
    ar1: Any,
    ar2: Any,
    assume_unique: bool = False,
    *,
    size: int | None = None,
    fill_value: Any = None,
) -> Any:
    """The unique values of `ar1` that are not in `ar2`.

    Args:
        ar1: array of values (flattened).
        ar2: values to remove (flattened).
        assume_unique: `ar1` has no duplicates: skip sorting (the result keeps `ar1`'s order).
        size: static output length (required under `jit`); results are truncated or padded.
        fill_value: padding value (default 0, as in JAX).

    Returns:
        A 1-D array with the dtype of `ar1`, sorted unless `assume_unique`.
    """
    check_arraylike("setdiff1d", ar1, ar2)
    _check_concrete("setdiff1d", size, ar1, ar2)
    a1, a2 = shp.ravel(ensure_array(ar1)), shp.ravel(ensure_array(ar2))
    if _len(a1) == 0:
        return _empty_result(get_aval(a1).dtype, size, fill_value)
    if assume_unique:
        cand, first = a1, cr.ones((_len(a1),), dtypes.bool_)
    else:
        cand, _ = _sorted(a1)
        first = _first_mask(cand)
    keep = uf.logical_and(first, isin(cand, a2, invert=True))
    vals, _, valid = _compact(keep, cand, size, "setdiff1d")
    return _fill(vals, valid, fill_value, 0)


def setxor1d(
    ar1: Any,
    ar2: Any,
    assume_unique: bool = False,
    *,
    size: int | None = None,
    fill_value: Any = None,
) -> Any:
    """The sorted unique values found in exactly one of the arrays.

    Args:
        ar1: first array (flattened).
        ar2: second array (flattened).
        assume_unique: the arrays hold no repeats; then, as in JAX and numpy, the values
            occurring exactly once in both together are returned (a repeat is dropped).
        size: static output length (required under `jit`); results are truncated or padded.
        fill_value: padding value (default: the smallest value of the result).

    Returns:
        A 1-D array in the promoted dtype.
    """
    check_arraylike("setxor1d", ar1, ar2)
    flat = (shp.ravel(ensure_array(ar1)), shp.ravel(ensure_array(ar2)))
    _check_concrete("setxor1d", size, *promote_dtypes(*flat))  # (as promoted, as JAX's)
    if assume_unique:
        return _unique_of_both("setxor1d", ar1, ar2, size, fill_value, first=_single_mask)
    out = _unique_of_both(
        "setxor1d",
        ar1,
        ar2,
        size,
        fill_value,
        lambda s, a1, a2: uf.not_equal(isin(s, a1), isin(s, a2)),
    )
    if size is not None or dtypes.kind(get_aval(out).dtype) not in "fc":
        return out
    # as JAX's: a NaN of each array (its unique values') is unequal to the other's, so kept
    nans = [True for a in (ar1, ar2) if bool(rd.any(uf.isnan(ensure_array(a))))]
    if not nans:
        return out
    return shp.concatenate([out, cr.full((len(nans),), np.nan, get_aval(out).dtype)])


def check_padding(name: str, n: int, size: int | None, fill_value: Any) -> None:
    """JAX's check of `jnp.unique` and `unique_*`: padding an empty input to `size` entries
    needs a `fill_value` (there is no smallest value to pad with)."""
    if n == 0 and size and fill_value is None:
        raise ValueError(
            f"jnp.{name}: for zero-sized input with nonzero size argument, fill_value must be "
            "specified"
        )


def _unique_parts(x: Any, size: int | None, fill_value: Any, name: str) -> tuple[Any, ...]:
    """values, first indices, inverse indices (shaped like `x`) and counts of the unique
    values of `x` (NaNs are all distinct, as in the array API)."""
    x = ensure_array(x)
    shape = get_aval(x).shape
    flat = shp.ravel(x)
    n = _len(flat)
    idt = dtypes.default_int()
    if n == 0:
        check_padding(name, n, size, fill_value)
        empty = cr.zeros((size or 0,), idt)
        vals = _empty_result(get_aval(flat).dtype, size, fill_value)
        return vals, empty, cr.zeros(shape, idt), empty
    _check_concrete(name, size, x)  # (JAX's message shows `x`, not the mask)
    s, perm = _sorted(flat)
    first = _first_mask(s, equal_nan=False)
    size = _static_size(first, size, name)
    pos = nonzero(first, size=size, fill_value=0)[0]
    vals = s[pos]
    count = rd.sum(first, dtype=idt)
    valid = uf.less(cr.arange(size, dtype=idt), count)
    if fill_value is not None:
        vals = _fill(vals, valid, fill_value, None)
    indices = perm[pos]
    group = uf.subtract(rd.cumsum(first.astype(idt)), 1)
    inverse = shp.reshape(cr.zeros((n,), idt).at[perm].set(group), shape)
    starts = nonzero(first, size=size + 1, fill_value=0)[0]
    ends = where(uf.not_equal(starts[1:], 0), starts[1:], n)
    counts = where(valid, uf.subtract(ends, starts[:-1]), 0)
    return vals, indices, inverse, counts


def unique_all(x: Any, /, *, size: int | None = None, fill_value: Any = None) -> _UniqueAllResult:
    """The unique values of `x` with their first indices, inverse indices and counts.

    Args:
        x: input array (flattened).
        size: static number of values (required under `jit`); results are truncated or
            padded (indices with the index of the smallest value, counts with 0).
        fill_value: padding value (default: the smallest value).

    Returns:
        `_UniqueAllResult(values, indices, inverse_indices, counts)`; `inverse_indices` has the
        shape of `x`.
    """
    check_arraylike("unique_all", x)
    return _UniqueAllResult(*_unique_parts(x, size, fill_value, "unique_all"))


def unique_counts(
    x: Any, /, *, size: int | None = None, fill_value: Any = None
) -> _UniqueCountsResult:
    """The unique values of `x` and how often each occurs.

    Args:
        x: input array (flattened).
        size: static number of values (required under `jit`); counts are padded with 0.
        fill_value: padding value (default: the smallest value).

    Returns:
        `_UniqueCountsResult(values, counts)`.
    """
    check_arraylike("unique_counts", x)
    vals, _, _, counts = _unique_parts(x, size, fill_value, "unique_counts")
    return _UniqueCountsResult(vals, counts)


def unique_inverse(
    x: Any, /, *, size: int | None = None, fill_value: Any = None
) -> _UniqueInverseResult:
    """The unique values of `x` and, for each element of `x`, the index of its value.

    Args:
        x: input array (flattened).
        size: static number of values (required under `jit`).
        fill_value: padding value (default: the smallest value).

    Returns:
        `_UniqueInverseResult(values, inverse_indices)`, `inverse_indices` shaped like `x`.
    """
    check_arraylike("unique_inverse", x)
    vals, _, inverse, _ = _unique_parts(x, size, fill_value, "unique_inverse")
    return _UniqueInverseResult(vals, inverse)


def unique_values(x: Any, /, *, size: int | None = None, fill_value: Any = None) -> Any:
    """The sorted unique values of `x` (NaNs are all distinct, as in the array API).

    Args:
        x: input array (flattened).
        size: static number of values (required under `jit`).
        fill_value: padding value (default: the smallest value).

    Returns:
        A 1-D array with the dtype of `x`.
    """
    check_arraylike("unique_values", x)
    return _unique_parts(x, size, fill_value, "unique_values")[0]
