"""Vectorization: the batching interpreter behind `vmap`.

A `BatchTracer` holds a value with one extra axis, `batch_dim` (an int, or None when the value is
the same for every batch element). `BatchTrace.process_primitive` unboxes its own tracers, sends
operations with no batched input straight to the parent, and otherwise runs the primitive's
batch rule under the parent: `rule(args, dims, **params) -> (out, out_dim)`.

Named axes (`vmap(..., axis_name='i')`) make collectives like `psum(x, 'i')` reduce over the
batch axis of the trace with that name; their rules receive the trace as `axis_trace`.
Helpers at the bottom give rules to whole families (elementwise ops, ops with an `axes` param).
"""

from __future__ import annotations

from typing import Any

from core.avals import ShapedArray
from core.trace import Trace, Tracer, get_aval, set_current_trace

not_mapped = None


class BatchTracer(Tracer):
    __slots__ = ("val", "batch_dim")

    def __init__(self, trace: BatchTrace, val: Any, batch_dim: int | None):
        self._trace = trace
        self.val = val
        self.batch_dim = batch_dim

    @property
    def aval(self) -> ShapedArray:
        aval = get_aval(self.val)
        if self.batch_dim is None:
            return aval
        shape = list(aval.shape)
        del shape[self.batch_dim]
        return aval.update(shape=tuple(shape))


class BatchTrace(Trace):
    def __init__(self, parent: Trace, axis_size: int, axis_name: Any = None):
        self.parent = parent
        self.axis_size = axis_size
        self.axis_name = axis_name

    def to_val_dim(self, x: Any) -> tuple[Any, int | None]:
        if isinstance(x, BatchTracer) and x._trace is self:
            return x.val, x.batch_dim
        return x, None

    def process_primitive(self, prim, args: tuple, params: dict) -> Any:
        vals, dims = zip(*map(self.to_val_dim, args)) if args else ((), ())
        collective = getattr(prim, "collective", False)
        if collective and params.get("axis_name") is not None:
            names = params["axis_name"]
            names = names if isinstance(names, tuple) else (names,)
            if self.axis_name in names:
                with set_current_trace(self.parent):
                    out, out_dim = prim.batch(vals, dims, axis_trace=self, **params)
                return self.box(out, out_dim, prim.multiple_results)
        if all(d is None for d in dims):
            with set_current_trace(self.parent):
                return prim.bind(*vals, **params)
        extra = {"axis_trace": self} if prim.higher_order else {}
        with set_current_trace(self.parent):
            out, out_dim = prim.batch(vals, dims, **params, **extra)
        return self.box(out, out_dim, prim.multiple_results)

    def box(self, out: Any, out_dim: Any, multiple: bool) -> Any:
        if multiple:
            return [self._box1(o, d) for o, d in zip(out, out_dim, strict=True)]
        return self._box1(out, out_dim)

    def _box1(self, val: Any, dim: int | None) -> Any:
        return val if dim is None else BatchTracer(self, val, dim)


# ---------------------------------------------------------------------------------------------
# Helpers for rules


def moveaxis(x: Any, src: int | None, dst: int, size: int) -> Any:
    """Moves batch axis `src` of `x` to `dst`; an unbatched `x` is broadcast along a new axis."""
    from core.prims.shapes import broadcast_in_dim, transpose

    aval = get_aval(x)
    if src is None:
        shape = list(aval.shape)
        shape.insert(dst, size)
        dims = tuple(i for i in range(len(shape)) if i != dst)
        return broadcast_in_dim(x, tuple(shape), dims)
    if src == dst:
        return x
    perm = [i for i in range(aval.ndim) if i != src]
    perm.insert(dst, src)
    return transpose(x, tuple(perm))


def bdim_at_front(x: Any, dim: int | None, size: int) -> Any:
    return moveaxis(x, dim, 0, size)


def broadcast_batcher(prim):
    """Batch rule for elementwise primitives (all operands share one shape)."""

    def rule(args, dims, **params):
        size = next(get_aval(a).shape[d] for a, d in zip(args, dims) if d is not None)
        first = next(d for d in dims if d is not None)
        ndim = get_aval(args[dims.index(first)]).ndim
        if all(d == first for d in dims):
            return prim.bind(*args, **params), first
        moved = [moveaxis(a, d, first if first < ndim else 0, size) for a, d in zip(args, dims)]
        return prim.bind(*moved, **params), first

    prim.def_batch(rule)
    return rule
