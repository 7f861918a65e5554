"""Layout helpers kept for numpy compatibility: `resize` (repeat the flat data into a new
shape) and `rollaxis` (the older spelling of `moveaxis`). Both are static-shape compositions of
`tile`, slicing, `reshape` and `moveaxis`."""

from __future__ import annotations

import math
import operator
from typing import Any

from core.numpy._util import canonical_shape, canonicalize_axis, check_arraylike, ensure_array
from core.numpy.creation import zeros_like
from core.numpy.shapes import moveaxis, ravel, reshape, tile
from core.trace import get_aval


def resize(a: Any, new_shape: Any) -> Any:
    """`a`'s flattened values repeated (or cut) to fill `new_shape`.

    Args:
      a: the input array.
      new_shape: the output shape (non-negative sizes).

    Returns:
      An array of `new_shape` and `a`'s dtype; zeros when `a` or the new shape is empty.
    """
    check_arraylike("resize", a)
    new_shape = canonical_shape(new_shape)
    if any(d < 0 for d in new_shape):
        raise ValueError(f"all elements of `new_shape` must be non-negative, got {new_shape}")
    arr = ravel(ensure_array(a))
    size, new_size = get_aval(arr).size, math.prod(new_shape)
    if size == 0 or new_size == 0:
        return zeros_like(arr, shape=new_shape)
    arr = tile(arr, -(-new_size // size))[:new_size]
    return reshape(arr, new_shape)


def rollaxis(a: Any, axis: int, start: int = 0) -> Any:
    """Moves `axis` so that it comes before position `start` (numpy's `rollaxis`).

    Args:
      a: the input array.
      axis: the axis to move.
      start: the position before which it lands, in `[-ndim, ndim]`.

    Returns:
      The transposed array.
    """
    check_arraylike("rollaxis", a)
    a = ensure_array(a)
    nd = get_aval(a).ndim
    axis = canonicalize_axis(axis, nd)
    start = operator.index(start)
    if not -nd <= start <= nd:
        raise ValueError(f"start={start} must satisfy {-nd}<=start<={nd}")
    if start < 0:
        start += nd
    if start > axis:
        start -= 1
    return moveaxis(a, axis, start)
