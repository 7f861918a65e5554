"""ppermute (a composed primitive, `composed.py`) and pshuffle and pbroadcast written on it or
on all_gather, as in JAX.

Element `src` sends its value to `dst` for each `(src, dst)` pair; the transpose is the
inverse permutation, as JAX's.
"""

from __future__ import annotations

from typing import Any

from core import dtypes, tree_util
from core.prims import elementwise as ew
from core.prims import gather as gt
from core.prims import indexing as ix
from core.prims import shapes as sh
from core.prims.collectives.composed import _composed_collective
from core.prims.collectives.groups import _gather, _squeeze
from core.prims.collectives.names import _names, _one_name, axis_size
from core.prims.collectives.primitives import axis_index_p
from core.trace import as_value, get_aval


def _wrapped(perm: tuple, size: int) -> tuple:
    """`perm` with negative indices counted from the end of the axis, as JAX's lowering."""
    return tuple((src % size, dst % size) for src, dst in perm)


def _ppermute_composite(x: Any, *, axis_name: tuple, perm: tuple) -> Any:
    # Every element gathers the axis and keeps its source's value (zeros where none sends).
    # The source is chosen with scalar selects, not read from a table: `jit` inlines this
    # composition, which must not close over arrays.
    name = _one_name(axis_name)
    gathered = _gather(as_value(x), name, axis_size(name, "ppermute"))
    index = axis_index_p.bind(axis_name=name)
    src = sh.full((), -1, dtypes.int32)
    for s, d in _wrapped(perm, get_aval(gathered).shape[0]):
        here = ew.eq(index, sh.full((), d, dtypes.int32))
        src = ew.select_n(here, src, sh.full((), s, dtypes.int32))
    zero = sh.full((), 0, dtypes.int32)
    piece = _squeeze(gt.dynamic_slice_in_dim(gathered, ew.max(src, zero), 1, 0), 0)
    valid = sh.broadcast_in_dim(ew.ge(src, zero), get_aval(piece).shape, ())
    return ew.select_n(valid, sh.zeros_like(piece), piece)


ppermute_p = _composed_collective(
    "ppermute",
    _ppermute_composite,
    lambda x, *, axis_name, perm: x,
    lambda x, d, **params: (ppermute_p.bind(x, **params), d),
    lambda ct, x, *, axis_name, perm: [
        ppermute_p.bind(ct, axis_name=axis_name, perm=tuple((d, s) for s, d in perm))
    ],
    lambda x, d, size, *, axis_name, perm: _ppermute_named(x, d, size, perm),
)


def _ppermute_named(x: Any, d: int | None, size: int, perm: tuple) -> Any:
    """A full permutation of the batch axis (as JAX's batcher, which takes no other): the
    rows in their sources' order, one slice per row."""
    if len(perm) != size:
        return None
    if d is None:
        return x, None
    sources = dict((dst, src) for src, dst in _wrapped(perm, size))
    rows = [ix.slice_in_dim(x, sources[i], sources[i] + 1, axis=d) for i in range(size)]
    return ix.concatenate(rows, d), d


def ppermute(x: Any, axis_name: Any, perm: Any) -> Any:
    """Sends `x` (a pytree) from element `src` to element `dst` for each `(src, dst)` in `perm`.

    Args:
        x: the per-element value.
        axis_name: the name (or tuple of names) of the vmap or pmap axis.
        perm: pairs `(source_index, destination_index)`; no two share a source or a
            destination (JAX's error otherwise); negative indices count from the axis' end.

    Returns:
        At each destination the source's `x`; zeros at the elements no pair sends to.
    """
    names = _names(axis_name)
    size = axis_size(_one_name(names), "ppermute")
    perm = tuple((int(src), int(dst)) for src, dst in perm)
    if any(not -size <= i < size for pair in perm for i in pair):
        raise ValueError(
            f"ppermute: perm {perm} names an index outside the axis {axis_name!r} of size "
            f"{size}; use indices in [-{size}, {size})"
        )
    wrapped = _wrapped(perm, size)
    for k in range(2):
        if len({pair[k] for pair in wrapped}) < len(perm):
            raise ValueError(f"ppermute sources and destinations must be unique, got {perm}.")
    return tree_util.tree_map(lambda v: ppermute_p.bind(as_value(v), axis_name=names, perm=perm), x)


def pshuffle(x: Any, axis_name: Any, perm: Any) -> Any:
    """`ppermute` with `perm[i]` the source of element `i` (a full permutation of the axis)."""
    if set(perm) != set(range(len(perm))):
        raise ValueError(
            f"`perm` does not represent a permutation: {perm}\npshuffle's perm lists the "
            "source of each element: each index of the axis once."
        )
    return ppermute(x, axis_name, list(zip(perm, range(len(perm)))))


def pbroadcast(x: Any, axis_name: Any, source: int) -> Any:
    """Gives every element of the named axis the `x` (a pytree) of element `source`."""
    size = axis_size(axis_name, "pbroadcast")
    source = int(source)
    if not 0 <= source < size:
        raise ValueError(
            f"pbroadcast: source {source} is outside the axis {axis_name!r} of size {size}"
        )

    def one(v):
        gathered = _gather(as_value(v), axis_name, size)
        return _squeeze(ix.slice_in_dim(gathered, source, source + 1), 0)

    return tree_util.tree_map(one, x)
