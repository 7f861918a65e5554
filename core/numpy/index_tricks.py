"""Index tricks: `mgrid`, `ogrid`, `r_`, `c_`, `s_`, `index_exp`, `ix_`, `block` and friends.

The bracket objects (`mgrid[0:3, 0:2]`, `r_[1:4, [7, 8]]`) are instances whose `__getitem__`
turns static slices into `arange` (or `linspace`, for an imaginary step such as `5j`) and
builds the result with `meshgrid`/`concatenate`, as `jax.numpy` does. Slice bounds must be
concrete: they decide shapes. `s_` and `index_exp` are numpy's own (they only build index
tuples). `diag_indices_from` and `mask_indices` return arrays of the default index dtype
(int32, int64 with x64); `ix_` keeps the dtype of its inputs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from core import dtypes
from core.config import numpy_dtype_promotion
from core.errors import ConcretizationTypeError
from core.numpy._util import check_arraylike, ensure_array, promote_dtypes
from core.numpy.creation import arange, array, diag_indices, linspace, meshgrid, ones
from core.numpy.nonzero import nonzero
from core.numpy.shapes import concatenate, expand_dims, stack, transpose
from core.prims import shapes as sh
from core.trace import Tracer, get_aval

s_ = np.s_
index_exp = np.index_exp


def _concrete(v: Any, what: str) -> Any:
    if isinstance(v, Tracer):
        raise ConcretizationTypeError(
            what, "Slice bounds decide the output shape: pass Python numbers, not traced values."
        )
    return v


def _grid_from_slice(s: slice, op_name: str) -> Any:
    """`arange(start, stop, step)`, or `linspace(start, stop, n)` for an imaginary step `nj`."""
    start = _concrete(s.start, f"slice start of jnp.{op_name}") or 0
    stop = _concrete(s.stop, f"slice stop of jnp.{op_name}")
    step = _concrete(s.step, f"slice step of jnp.{op_name}") or 1
    if np.iscomplex(step):
        return linspace(start, stop, int(abs(step)))
    return arange(start, stop, step)


def _promoted_grids(key: tuple[slice, ...], op_name: str) -> list[Any]:
    """The 1-D grids of the slices in one dtype, promoted as under "standard" promotion
    whatever the config says (JAX's: `mgrid[0:2, 0:1:3j]` is float under "strict" too)."""
    grids = [_grid_from_slice(k, op_name) for k in key]
    with numpy_dtype_promotion("standard"):
        return promote_dtypes(*grids)


class _Mgrid:
    """`mgrid[a:b:s, ...]`: a dense grid, stacked along a new first axis (like `numpy.mgrid`).

    An imaginary step `nj` asks for `n` points including the end point.
    """

    def __getitem__(self, key: slice | tuple[slice, ...]) -> Any:
        if isinstance(key, slice):
            return _grid_from_slice(key, "mgrid")
        if not key:
            return arange(0)
        grids = _promoted_grids(key, "mgrid")
        return stack(meshgrid(*grids, indexing="ij", sparse=False), 0)


class _Ogrid:
    """`ogrid[a:b:s, ...]`: an open (sparse) grid, a list of broadcastable arrays."""

    def __getitem__(self, key: slice | tuple[slice, ...]) -> Any:
        if isinstance(key, slice):
            return _grid_from_slice(key, "ogrid")
        if not key:
            return []
        grids = _promoted_grids(key, "ogrid")
        return meshgrid(*grids, indexing="ij", sparse=True)


mgrid = _Mgrid()
ogrid = _Ogrid()


class _AxisConcat:
    """Concatenates slices, scalars and arrays along an axis (numpy's `r_`/`c_` grammar).

    A leading string directive `"axis,ndmin,trans1d"` (or `"r"`/`"c"` for a row/column matrix)
    overrides the defaults of the subclass.
    """

    axis: int
    ndmin: int
    trans1d: int
    op_name: str

    def __getitem__(self, key: Any) -> Any:
        items = key if isinstance(key, tuple) else (key,)
        if not items:  # JAX reads the first item unchecked
            raise IndexError(
                f"tuple index out of range\n{self.op_name}[()] has nothing to concatenate: give "
                "it at least one array, scalar or slice."
            )
        params = [self.axis, self.ndmin, self.trans1d, -1]
        if items and isinstance(items[0], str):
            directive, items = items[0], items[1:]
            if directive == "r":
                params[-1] = 0
            elif directive == "c":
                params[-1] = 1
            else:
                vec: list[Any] = directive.split(",")
                vec = vec + params[len(vec) :] if len(vec) < 4 else vec[:3] + [params[-1]]
                try:
                    params = [int(v) for v in vec]
                except ValueError as err:
                    raise ValueError(f"could not understand directive {directive!r}") from err
        axis, ndmin, trans1d, matrix = params
        parts = []
        for item in items:
            if isinstance(item, slice):
                obj, item_ndim = _grid_from_slice(item, self.op_name), 0
            elif isinstance(item, str):
                raise ValueError("string directive must be placed at the beginning")
            else:
                obj = array(item, copy=False)
                item_ndim = get_aval(obj).ndim
            obj = array(obj, copy=False, ndmin=ndmin)
            if trans1d != -1 and ndmin - item_ndim > 0:
                order = tuple(range(ndmin))
                shift = ndmin - abs(ndmin + trans1d + 1) % ndmin
                obj = transpose(obj, order[shift:] + order[:shift])
            parts.append(obj)
        out = concatenate(parts, axis=axis)
        if matrix != -1 and get_aval(out).ndim == 1:
            out = expand_dims(out, matrix)
        return out

    def __len__(self) -> int:
        return 0


class RClass(_AxisConcat):
    """`r_[...]`: concatenation along the first axis (1-D at least)."""

    axis, ndmin, trans1d, op_name = 0, 1, -1, "r_"


class CClass(_AxisConcat):
    """`c_[...]`: concatenation along the last axis, 1-D inputs becoming columns."""

    axis, ndmin, trans1d, op_name = -1, 2, 0, "c_"


r_ = RClass()
c_ = CClass()


def ix_(*args: Any) -> tuple[Any, ...]:
    """An open mesh from 1-D index sequences: `x[ix_(rows, cols)]` picks a sub-grid.

    Args:
      *args: 1-D integer arrays (boolean masks are not supported, as in JAX).

    Returns:
      A tuple of arrays, the i-th of shape `(1, ..., len(args[i]), ..., 1)`.
    """
    check_arraylike("ix", *args)
    n = len(args)
    out = []
    for i, a in enumerate(args):
        a = ensure_array(a)
        aval = get_aval(a)
        if aval.ndim != 1:
            raise ValueError(
                f"Arguments to jax.numpy.ix_ must be 1-dimensional, got shape {aval.shape}"
            )
        if aval.dtype == np.bool_:
            raise NotImplementedError("Boolean arguments to jax.numpy.ix_ are not implemented")
        shape = [1] * n
        shape[i] = aval.shape[0]
        if aval.size == 0:  # numpy uses the index dtype for empty sequences
            out.append(sh.full(tuple(shape), 0, dtypes.default_int()))
        else:
            out.append(sh.broadcast_in_dim(a, tuple(shape), (i,)))
    return tuple(out)


def diag_indices_from(arr: Any) -> tuple[Any, ...]:
    """The indices of the main diagonal of a square (hyper-cubic) array.

    Args:
      arr: an array of at least 2 dimensions, all of one length.

    Returns:
      `arr.ndim` int arrays of length `arr.shape[0]`.
    """
    check_arraylike("diag_indices_from", arr)
    shape = get_aval(ensure_array(arr)).shape
    if len(shape) < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(shape)) != 1:
        raise ValueError(f"All dimensions of input must be of equal length, got shape {shape}")
    return diag_indices(shape[0], ndim=len(shape))


def mask_indices(
    n: int, mask_func: Callable[[Any, int], Any], k: int = 0, *, size: int | None = None
) -> tuple[Any, Any]:
    """The (row, column) indices where `mask_func(ones((n, n)), k)` is non-zero.

    Args:
      n: the size of the square mask.
      mask_func: a function like `jnp.triu` or `jnp.tril` taking `(array, k)`.
      k: the diagonal offset passed to `mask_func`.
      size: a static number of indices to return (padded with 0), needed under `jit`.

    Returns:
      A tuple `(rows, cols)` of int arrays.
    """
    rows, cols = nonzero(mask_func(ones((n, n)), k), size=size)
    return rows, cols


def _atleast_nd(x: Any, n: int) -> Any:
    nd = get_aval(x).ndim
    return x if nd >= n else sh.reshape(x, (1,) * (n - nd) + get_aval(x).shape)


def _block(xs: Any) -> tuple[Any, int]:
    if isinstance(xs, tuple):
        raise ValueError(f"jax.numpy.block does not allow tuples, got {xs}")
    if isinstance(xs, list):
        if not xs:
            raise ValueError("jax.numpy.block does not allow empty list arguments")
        parts, depths = zip(*(_block(x) for x in xs))
        if any(d != depths[0] for d in depths[1:]):
            raise ValueError(f"Mismatched list depths in jax.numpy.block: {list(depths)}")
        rank = max(depths[0], *(get_aval(p).ndim for p in parts))
        return concatenate([_atleast_nd(p, rank) for p in parts], axis=-depths[0]), depths[0] + 1
    return ensure_array(xs), 1


def block(arrays: Any) -> Any:
    """Assembles an array from nested lists of blocks (like `numpy.block`).

    The innermost lists are joined along the last axis, the next level along the one before,
    and so on; blocks are first given leading unit axes up to a common rank.

    Args:
      arrays: an array, or nested lists (not tuples) of arrays/scalars of one nesting depth.

    Returns:
      The assembled array.
    """
    out, _ = _block(arrays)
    return out
