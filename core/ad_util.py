"""Symbolic zeros and the array operations the interpreters need (as JAX's `ad_util`).

`Zero(aval)` is a tangent or cotangent known to be zero; `add_any` adds tangents (a `Zero`
adds nothing) and `zeros_like_aval` materialises one. The interpreters also move and sum
batch axes. The operations for all of this (`add`, `full`, `broadcast_in_dim`, `transpose`,
`reduce_sum`, `reshape`) are primitives, which sit a layer above the interpreters
(core/README.md). So `core.prims` registers them here when it is imported (`register_ops`),
as JAX's `lax` registers `ad_util.aval_zeros_likers`, and the interpreters never import a
primitive.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from core import dtypes
from core.avals import ShapedArray
from core.trace import varying_like


class Zero:
    """A symbolic zero tangent or cotangent of a given abstract value."""

    __slots__ = ("aval",)

    def __init__(self, aval: ShapedArray):
        self.aval = aval

    def __repr__(self) -> str:  # JAX's
        return f"Zero({self.aval})"


class _Ops:
    """The primitive-level operations, registered by `core.prims` (see `register_ops`)."""

    add: Callable[[Any, Any], Any]
    add_any: Callable[[Any, Any], Any]
    full: Callable[..., Any]
    broadcast_in_dim: Callable[..., Any]
    transpose: Callable[..., Any]
    reduce_sum: Callable[..., Any]
    reshape: Callable[..., Any]


ops = _Ops()


def register_ops(**fns: Callable) -> None:
    """Supplies the operations of `_Ops` (called once, by `core/prims/__init__.py`)."""
    unknown = set(fns) - set(_Ops.__annotations__)
    if unknown:
        raise TypeError(f"ad_util.register_ops: unknown operations {sorted(unknown)}")
    for name, fn in fns.items():
        setattr(ops, name, fn)


def zeros_like_aval(aval: ShapedArray) -> Any:
    """An array of zeros of `aval`'s shape, dtype and weak type (and vma: `varying_like`); of
    a key (or float0) aval, a numpy float0 array of its shape (keys' tangents are float0, as
    JAX's)."""
    if type(aval.dtype) is dtypes.KeyDType or aval.dtype == dtypes.float0:
        return np.zeros(aval.shape, dtypes.float0)
    zeros = ops.full(aval.shape, 0, aval.dtype, aval.weak_type, exact_dtype=True)
    return varying_like(zeros, aval)


def instantiate(t: Any) -> Any:
    """Materialises a symbolic `Zero` (anything else passes through)."""
    return zeros_like_aval(t.aval) if type(t) is Zero else t


def add_any(a: Any, b: Any) -> Any:
    """The sum of two tangents (or cotangents), either of which may be a symbolic `Zero`."""
    if type(a) is Zero:
        return b
    if type(b) is Zero:
        return a
    return ops.add_any(a, b)
