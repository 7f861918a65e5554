"""`jax.lax` functions that are short compositions of primitives (no rules of their own)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from core import dtypes
from core.prims import elementwise as ew
from core.prims import gather as gt
from core.prims import shapes
from core.prims.indexing import slice_in_dim
from core.prims.linalg import dot_general
from core.trace import get_aval


def clamp(min: Any, x: Any, max: Any) -> Any:  # noqa: A002
    """`lax.clamp`: `x` limited to `[min, max]` elementwise (scalar bounds broadcast)."""
    shape = get_aval(x).shape

    def like(b):
        if isinstance(b, (int, float, bool)):
            return ew.full_like(x, b)
        return shapes.broadcast_in_dim(b, shape, ()) if get_aval(b).shape != shape else b

    return ew.min(ew.max(x, like(min)), like(max))


def square(x: Any) -> Any:
    """`lax.square`: `x * x`."""
    return ew.integer_pow(x, 2)


def reciprocal(x: Any) -> Any:
    """`lax.reciprocal`: `1 / x`."""
    return ew.integer_pow(x, -1)


def dot(lhs: Any, rhs: Any, precision: Any = None, preferred_element_type: Any = None) -> Any:
    """`lax.dot`: vector/matrix products (contracts lhs's last axis with rhs's first)."""
    nl, nr = get_aval(lhs).ndim, get_aval(rhs).ndim
    if nl not in (1, 2) or nr not in (1, 2):
        raise TypeError(
            f"lax.dot expects rank-1 or rank-2 operands, got ranks {nl} and {nr}; "
            "use lax.dot_general for batched contractions"
        )
    return dot_general(
        lhs, rhs, (((nl - 1,), (0,)), ((), ())), preferred_element_type=preferred_element_type
    )


def iota(dtype: Any, size: int) -> Any:
    """`lax.iota`: `[0, 1, ..., size - 1]`."""
    return shapes.iota(dtype, (int(size),), 0)


def broadcasted_iota(dtype: Any, shape: Sequence[int], dimension: int) -> Any:
    """`lax.broadcasted_iota`: indices along `dimension` of an array of `shape`."""
    return shapes.iota(dtype, tuple(shape), dimension)


def full(shape: Sequence[int], fill_value: Any, dtype: Any = None) -> Any:
    """`lax.full`: an array of `shape` filled with `fill_value`."""
    if dtype is None:
        dt, weak = (
            dtypes.dtype_and_weak(fill_value)
            if not hasattr(fill_value, "aval")
            else (get_aval(fill_value).dtype, get_aval(fill_value).weak_type)
        )
        return shapes.full(shape, fill_value, dt, weak)
    return shapes.full(shape, fill_value, dtype)


def zeros_like_array(x: Any) -> Any:
    """`lax.zeros_like_array`."""
    return shapes.zeros_like(x)


def reshape(operand: Any, new_sizes: Sequence[int], dimensions: Sequence[int] | None = None):
    """`lax.reshape`: row-major reshape, after transposing by `dimensions` when given."""
    if dimensions is not None:
        operand = shapes.transpose(operand, tuple(int(d) for d in dimensions))
    return shapes.reshape(operand, tuple(new_sizes))


def broadcast(operand: Any, sizes: Sequence[int]) -> Any:
    """`lax.broadcast`: adds leading dimensions of the given sizes."""
    shape = get_aval(operand).shape
    sizes = tuple(int(s) for s in sizes)
    return shapes.broadcast_in_dim(
        operand, sizes + shape, tuple(range(len(sizes), len(sizes) + len(shape)))
    )


def expand_dims(array: Any, dimensions: Sequence[int]) -> Any:
    """`lax.expand_dims`: inserts unit dimensions at the given output positions."""
    shape = list(get_aval(array).shape)
    nd = len(shape) + len(dimensions)
    for d in sorted(int(d) % nd for d in dimensions):
        shape.insert(d, 1)
    return shapes.reshape(array, tuple(shape))


def squeeze(array: Any, dimensions: Sequence[int]) -> Any:
    """`lax.squeeze`: removes the given unit dimensions."""
    shape = get_aval(array).shape
    dims = {int(d) % len(shape) for d in dimensions}
    if any(shape[d] != 1 for d in dims):
        raise ValueError(f"squeeze: dimensions {sorted(dims)} of shape {shape} are not all 1")
    return shapes.reshape(array, tuple(s for i, s in enumerate(shape) if i not in dims))


def collapse(operand: Any, start_dimension: int, stop_dimension: int | None = None) -> Any:
    """`lax.collapse`: merges dimensions `[start, stop)` into one."""
    shape = get_aval(operand).shape
    stop = len(shape) if stop_dimension is None else stop_dimension
    size = int(np.prod(shape[start_dimension:stop], dtype=np.int64))
    return shapes.reshape(operand, shape[:start_dimension] + (size,) + shape[stop:])


def index_in_dim(operand: Any, index: int, axis: int = 0, keepdims: bool = True) -> Any:
    """`lax.index_in_dim`: the static slice `index` along `axis`."""
    size = get_aval(operand).shape[axis]
    index = int(index) + size if int(index) < 0 else int(index)
    out = slice_in_dim(operand, index, index + 1, 1, axis)
    return out if keepdims else squeeze(out, (axis,))


def _scatter_kind(kind: str):
    def fn(
        operand: Any, indices: Any, updates: Any, axes: tuple[int, ...], mode: str = "drop"
    ) -> Any:
        return gt.scatter(operand, indices, updates, axes, kind=kind, mode=mode)

    fn.__name__ = f"scatter_{kind}"
    fn.__doc__ = (
        f"`scatter` combining with `{kind}` (this core's index form: `indices[..., j]` "
        "addresses `axes[j]`)."
    )
    return fn


scatter_add = _scatter_kind("add")
scatter_mul = _scatter_kind("mul")
scatter_min = _scatter_kind("min")
scatter_max = _scatter_kind("max")
