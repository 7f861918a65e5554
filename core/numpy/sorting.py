"""Sorting: sort, argsort (stable, descending), lexsort, partition, argpartition."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from core import dtypes
from core.jit.library import library_jit
from core.numpy._util import canonicalize_axis, check_arraylike, ensure_array, np_dtype
from core.prims import elementwise as ew
from core.prims import indexing as ix
from core.prims import reductions as red
from core.prims import shapes as sh
from core.prims import sorting as so
from core.prims.rev import rev
from core.trace import get_aval


def _flat_axis(a: Any, axis: int | None) -> tuple[Any, int]:
    a = ensure_array(a)
    if axis is None:
        return sh.reshape(a, (get_aval(a).size,)), 0
    return a, canonicalize_axis(axis, get_aval(a).ndim)


def _sort_operand(name: str, a: Any, axis: int | None, kind: Any, order: Any) -> tuple[Any, int]:
    """`_flat_axis` for `sort`/`argsort`, which refuse numpy's `kind` and `order`."""
    if kind is not None:
        raise TypeError(
            f"'kind' argument to {name} is not supported. Use stable=True or stable=False to "
            "specify sort stability."
        )
    if order is not None:
        raise TypeError(f"'order' argument to {name} is not supported.")
    return _flat_axis(a, axis)


@library_jit(static_argnames=("axis", "kind", "order", "stable", "descending"))
def sort(
    a: Any,
    axis: int | None = -1,
    *,
    kind: Any = None,
    order: Any = None,
    stable: bool = True,
    descending: bool = False,
) -> Any:
    """A sorted copy of `a` along `axis` (NaNs last; the flattened array when None)."""
    check_arraylike("sort", a)
    a, ax = _sort_operand("sort", a, axis, kind, order)
    if get_aval(a).ndim == 0:
        return a
    out = so.sort(a, ax, stable)
    return rev(out, (ax,)) if descending else out


@library_jit(static_argnames=("axis", "kind", "order", "stable", "descending", "dtype"))
def argsort(
    a: Any,
    axis: int | None = -1,
    *,
    kind: Any = None,
    order: Any = None,
    stable: bool = True,
    descending: bool = False,
    dtype: Any = None,
) -> Any:
    """The indices that sort `a` along `axis` (ties keep their order when stable).

    Args:
      a: the array.
      axis: the axis to sort along (None: the flattened array).
      kind, order: unsupported (must be None), as in JAX.
      stable: keep equal entries in their order.
      descending: sort from the largest.
      dtype: the indices' integer dtype (default int32, int64 with x64).

    Returns:
      The indices, of `a`'s shape (flattened for `axis=None`).
    """
    check_arraylike("argsort", a)
    a, ax = _sort_operand("argsort", a, axis, kind, order)
    shape = get_aval(a).shape
    idx_dtype = dtypes.default_int() if dtype is None else np_dtype(dtype, "argsort")
    iota = sh.iota(idx_dtype, shape, ax)
    if descending and stable:  # reverse first so that equal keys keep their original order
        a, iota = rev(a, (ax,)), rev(iota, (ax,))
    _, idx = so.sort_key_val(a, iota, ax, stable)
    return rev(idx, (ax,)) if descending else idx


@library_jit(static_argnames=("axis",))
def lexsort(keys: Any, axis: int = -1) -> Any:
    """Indices sorting by several keys, the LAST key being the primary one."""
    check_arraylike("lexsort", *keys)
    keys = [ensure_array(k) for k in keys]
    if not keys:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    shape = get_aval(keys[0]).shape
    if any(get_aval(k).shape != shape for k in keys):
        raise ValueError(
            "all keys need to be the same shape\n"
            f"Got shapes {[get_aval(k).shape for k in keys]}; broadcast them first."
        )
    if not shape:  # scalar keys (a 1-D array's entries, say): JAX's 0
        return sh.full((), 0, dtypes.default_int())
    ax = canonicalize_axis(axis, len(shape))
    iota = sh.iota(dtypes.default_int(), shape, ax)
    outs = so.sort([*keys[::-1], iota], ax, True, len(keys))
    return outs[-1]


def _partition_operand(
    name: str, a: Any, kth: int, axis: int, complex_name: str = "partition"
) -> tuple[Any, int, int, Any]:
    """`a`, `axis` and `kth` made non-negative, and `a` mapped so that its `kth + 1` smallest
    entries are the largest (`-a`; `~a` for unsigned ints, whose 0 has no negative)."""
    check_arraylike(name, a)
    a = ensure_array(a)
    dt = get_aval(a).dtype
    if dtypes.kind(dt) == "c":
        raise NotImplementedError(f"jnp.{complex_name} for complex dtype is not implemented.")
    axis = canonicalize_axis(operator.index(axis), get_aval(a).ndim)
    kth = canonicalize_axis(operator.index(kth), get_aval(a).shape[axis])
    flipped = ew.bitwise_not(a) if dtypes.kind(dt) == "u" else ew.neg(a)
    return a, axis, kth, flipped


@library_jit(static_argnames=("kth", "axis"))
def partition(a: Any, kth: int, axis: int = -1) -> Any:
    """A partially sorted copy of `a` (`jnp.partition`), as JAX computes it: along `axis`, the
    `kth + 1` smallest entries in ascending order, then the others in descending order.

    Args:
        a: the array (not complex).
        kth: the position whose entry is in its sorted place (static).
        axis: the axis to partition.

    Returns:
        An array of `a`'s shape and dtype.
    """
    a, axis, kth, flipped = _partition_operand("partition", a, kth, axis)
    bottom = so.top_k(flipped, kth + 1, axis=axis)[0]
    bottom = ew.bitwise_not(bottom) if dtypes.kind(get_aval(a).dtype) == "u" else ew.neg(bottom)
    top = so.top_k(a, get_aval(a).shape[axis] - kth - 1, axis=axis)[0]
    return ix.concatenate([bottom, top], axis)


@library_jit(static_argnames=("kth", "axis"))
def argpartition(a: Any, kth: int, axis: int = -1) -> Any:
    """Indices that partially sort `a` (`jnp.argpartition`), as JAX computes them: along
    `axis`, those of the `kth + 1` smallest entries in ascending order of value, then the
    others' in ascending order of index.

    Args:
        a: the array (not complex).
        kth: the position whose entry's index is in its sorted place (static).
        axis: the axis to partition.

    Returns:
        An int32 array of `a`'s shape.
    """
    a, axis, kth, flipped = _partition_operand("partition", a, kth, axis, "argpartition")
    bottom = so.top_k(flipped, kth + 1, axis=axis)[1]
    shape = get_aval(a).shape
    # the other indices: where no bottom index equals the position (top_k keeps ties in order)
    pairs = (*shape[:axis], kth + 1, *shape[axis:])  # (bottom index, position)
    dims = tuple(d for d in range(len(pairs)) if d != axis + 1)
    hit = ew.eq(sh.iota(np.int32, pairs, axis + 1), sh.broadcast_in_dim(bottom, pairs, dims))
    chosen = red.reduce_or(hit, (axis,))
    rest = so.top_k(ew.bitwise_not(chosen), shape[axis] - kth - 1, axis=axis)[1]
    return ix.concatenate([bottom, rest], axis)


@library_jit
def sort_complex(a: Any) -> Any:
    """`a` sorted along its last axis (real part first, then imaginary), as a complex array."""
    check_arraylike("sort_complex", a)
    a = ensure_array(a)
    out = sort(a, -1)
    # JAX's `to_complex_dtype`, no promotion (which strict promotion would refuse for ints):
    # complex128 for the 64-bit types, complex64 for the rest
    wide = get_aval(a).dtype in (np.float64, np.complex128, np.int64, np.uint64)
    return sh.convert_element_type(out, np.dtype(np.complex128 if wide else np.complex64))
