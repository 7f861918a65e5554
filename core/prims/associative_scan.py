"""`lax.associative_scan`: JAX's odd/even parallel prefix algorithm, on primitives.

It lives with the primitives (re-exported by `core.lax`) because the jvp rules of the
cumulative primitives (`core/prims/sorting.py`) differentiate it, as JAX's do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core import tree_util
from core.prims import elementwise as ew
from core.prims import shapes
from core.prims.indexing import concatenate, pad, slice_in_dim
from core.prims.rev import rev
from core.trace import get_aval


def _unit_axis(x: Any, axis: int) -> Any:
    """`x` with a new size-1 axis at position `axis`."""
    shape = list(get_aval(x).shape)
    shape.insert(axis, 1)
    return shapes.reshape(x, tuple(shape))


def _interleave(a: Any, b: Any, axis: int) -> Any:
    """`[a0, b0, a1, b1, ...]` along `axis` (a has as many or one more elements than b)."""
    na, nb = get_aval(a).shape[axis], get_aval(b).shape[axis]
    if na == nb + 1:
        b = pad(b, ew.full_like(shapes.full((), 0, get_aval(b).dtype), 0), _pad_axis(b, axis))
    shape = get_aval(a).shape
    pair = concatenate([_unit_axis(a, axis + 1), _unit_axis(b, axis + 1)], axis + 1)
    merged = list(shape)
    merged[axis] = 2 * shape[axis]
    out = shapes.reshape(pair, tuple(merged))
    out = slice_in_dim(out, 0, na + nb, 1, axis) if na != nb else out
    # JAX interleaves by padding with strongly typed zeros: the result is strongly typed
    aval = get_aval(out)
    return shapes.convert_element_type(out, aval.dtype, False) if aval.weak_type else out


def _pad_axis(x: Any, axis: int) -> list[tuple[int, int, int]]:
    cfg = [(0, 0, 0)] * get_aval(x).ndim
    cfg[axis] = (0, 1, 0)
    return cfg


def associative_scan(fn: Callable, elems: Any, reverse: bool = False, axis: int = 0) -> Any:
    """`lax.associative_scan`: all prefix combinations `fn(...fn(fn(e0, e1), e2)..., ek)`.

    Uses the parallel odd/even algorithm (O(log n) applications of `fn` on whole arrays), so
    `fn` must be associative and work elementwise on arrays (and pytrees) sliced along `axis`.

    Args:
      fn: the associative combination, on pytrees of the structure of `elems`.
      elems: an array or pytree of arrays sharing the size of `axis`.
      reverse: scan from the end.
      axis: the scanned axis.

    Returns:
      The pytree of prefix results, shaped like `elems`.
    """
    if not callable(fn):  # JAX's check and text
        raise TypeError("lax.associative_scan: fn argument should be callable.")
    flat, tree = tree_util.tree_flatten(elems)
    if not flat:
        return elems
    ndim = get_aval(flat[0]).ndim
    if not -ndim <= axis < ndim:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    axis = axis % ndim
    n = get_aval(flat[0]).shape[axis]
    for x in flat:
        if get_aval(x).shape[axis] != n:
            raise ValueError(  # JAX's text (it names the first dimension for any axis)
                "Array inputs to associative_scan must have the same first dimension. "
                f"(saw: {[get_aval(y).shape for y in flat]})"
            )
    if reverse:
        flat = [rev(x, (axis,)) for x in flat]

    def combine(a, b):
        out = fn(tree_util.tree_unflatten(tree, a), tree_util.tree_unflatten(tree, b))
        out_flat, out_tree = tree_util.tree_flatten(out)
        if out_tree != tree:
            raise TypeError(
                f"associative_scan: fn must return the structure of elems {tree}, got {out_tree}"
            )
        return out_flat

    def sl(x, start, stop, stride=1):
        return slice_in_dim(x, start, stop, stride, axis)

    def scan(xs):
        k = get_aval(xs[0]).shape[axis]
        if k < 2:
            return xs
        reduced = combine([sl(x, 0, k - 1, 2) for x in xs], [sl(x, 1, k, 2) for x in xs])
        odd = scan(reduced)
        if k == 2:  # no even-position element after the first (avoids empty slices)
            even = [sl(x, 0, 1) for x in xs]
        else:
            if k % 2 == 0:
                even = combine([sl(o, 0, k // 2 - 1) for o in odd], [sl(x, 2, k, 2) for x in xs])
            else:
                even = combine(odd, [sl(x, 2, k, 2) for x in xs])
            even = [concatenate([sl(x, 0, 1), e], axis) for x, e in zip(xs, even)]
        return [_interleave(e, o, axis) for e, o in zip(even, odd)]

    out = scan(list(flat))
    if reverse:
        out = [rev(x, (axis,)) for x in out]
    return tree_util.tree_unflatten(tree, out)
