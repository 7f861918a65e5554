"""Sorting: sort, argsort (stable, descending), lexsort, partition, argpartition."""

from __future__ import annotations

from typing import Any

from core import dtypes
from core.numpy._util import canonicalize_axis, check_arraylike, ensure_array
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
    if kind is not None or order is not None:
        raise TypeError(f"{name}: 'kind' and 'order' are not supported; use stable=/descending=")
    return _flat_axis(a, axis)


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


def argsort(
    a: Any,
    axis: int | None = -1,
    *,
    kind: Any = None,
    order: Any = None,
    stable: bool = True,
    descending: bool = False,
) -> Any:
    """The indices that sort `a` along `axis` (int32; ties keep their order when stable)."""
    check_arraylike("argsort", a)
    a, ax = _sort_operand("argsort", a, axis, kind, order)
    shape = get_aval(a).shape
    iota = sh.iota(dtypes.default_int(), shape, ax)
    if descending and stable:  # reverse first so that equal keys keep their original order
        a, iota = rev(a, (ax,)), rev(iota, (ax,))
    _, idx = so.sort_key_val(a, iota, ax, stable)
    return rev(idx, (ax,)) if descending else idx


def lexsort(keys: Any, axis: int = -1) -> Any:
    """Indices sorting by several keys, the LAST key being the primary one."""
    check_arraylike("lexsort", *keys)
    keys = [ensure_array(k) for k in keys]
    if not keys:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    shape = get_aval(keys[0]).shape
    ax = canonicalize_axis(axis, len(shape))
    iota = sh.iota(dtypes.default_int(), shape, ax)
    outs = so.sort([*keys[::-1], iota], ax, True, len(keys))
    return outs[-1]


def partition(a: Any, kth: int, axis: int = -1) -> Any:
    """`a` with the element at `kth` in its sorted place (here: fully sorted, which satisfies
    the contract)."""
    check_arraylike("partition", a)
    return sort(a, axis)


def argpartition(a: Any, kth: int, axis: int = -1) -> Any:
    """Indices that partition `a` around `kth` (here: the full argsort)."""
    check_arraylike("partition", a)
    return argsort(a, axis)


def sort_complex(a: Any) -> Any:
    """`a` sorted along its last axis (real part first, then imaginary), as a complex array."""
    check_arraylike("sort_complex", a)
    a = ensure_array(a)
    out = sort(a, -1)
    return sh.convert_element_type(out, dtypes.result_type(get_aval(a).dtype, dtypes.complex64))
