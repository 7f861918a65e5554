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

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from core import errors, ir
from core.ad_util import Zero, ops
from core.avals import ShapedArray, typed, vma_of
from core.interpreters import check_live
from core.primitive import RuleTable
from core.trace import Trace, Tracer, closes_over, current_trace, get_aval, set_current_trace

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
        out = aval.update(shape=tuple(shape))
        order = self._trace.vma_order
        if order is None:
            return out
        # a block of an eager `shard_map`: it varies along the mesh axis of this trace
        return typed(out, vma_of(aval) | {self._trace.axis_name}, order)

    def __repr__(self) -> str:  # as JAX 0.10 prints vmapped values
        shown = shown_blocks(self) if shown_blocks is not None else None
        if shown is not None:  # a block of an eager `shard_map` (`core/shard_map.py`)
            return shown
        return f"VmapTracer(aval={self.aval.str_long()}, batched={get_aval(self.val).str_long()})"


# Set by `core/shard_map.py`: a value of an eager `shard_map`'s blocks as JAX prints it (each
# device's block), or None for any other batched value.
shown_blocks: Callable[[BatchTracer], str | None] | None = None


class BatchTrace(Trace):
    # Whether results the same in every batch element stay tracers of this trace (an eager
    # `shard_map` prints every value as each device's block: `core/shard_map.py`).
    boxes_all = False
    # Whether the batch elements are a `shard_map`'s devices: there a `pure_callback` without
    # a `vmap_method` runs once per device, as in JAX's SPMD program (`core/shard_map.py`).
    per_device = False
    # The mesh's axis names when the batch elements are the devices of an eager
    # `shard_map(check_vma=True)`: a value batched here varies along this axis (its vma).
    vma_order: tuple | None = None

    def __init__(
        self, parent: Trace, axis_size: int, axis_name: Any = None, outer: BatchTrace | None = None
    ):
        """`outer`: the trace of the same `vmap` whose custom rules this one runs batched (at
        another level): its tracers, which those rules may close over, are this one's too."""
        self.parent = parent
        self.axis_size = axis_size
        self.axis_name = axis_name
        self.outer = outer

    def reads_axis(self, params: dict) -> bool:
        """Whether a collective on this trace's axis is in a jaxpr among `params`."""
        return self.axis_name is not None and any(
            _reads_axis(j, self.axis_name) for v in params.values() for j in ir.sub_jaxprs(v)
        )

    def to_val_dim(self, x: Any) -> tuple[Any, int | None]:
        if isinstance(x, BatchTracer) and (x._trace is self or x._trace is self.outer):
            return x.val, x.batch_dim
        check_live(x)
        return x, None

    def process_primitive(self, prim, args: tuple, params: dict) -> Any:
        vals, dims = zip(*map(self.to_val_dim, args)) if args else ((), ())
        collective = prim.collective
        if collective and params.get("axis_name") is not None:
            names = params["axis_name"]
            names = names if isinstance(names, tuple) else (names,)
            if self.axis_name in names:
                with set_current_trace(self.parent):
                    out, out_dim = prim.batch(vals, dims, axis_trace=self, **params)
                return self.box(out, out_dim, prim.multiple_results)
        if all(d is None for d in dims):
            if not (vals and prim.higher_order and self.reads_axis(params)):
                with set_current_trace(self.parent):
                    return prim.bind(*vals, **params)
            # a loop or call whose program reads this axis (`axis_index`, a `psum`) varies
            # along it: batched as if its first operand were (JAX's rule for these primitives)
            with set_current_trace(self.parent):
                vals = (moveaxis(vals[0], None, 0, self.axis_size), *vals[1:])
            dims = (0, *dims[1:])
        if prim.batch is None:
            raise errors.PrimitiveRuleError(prim.name, "batch")
        extra = {"axis_trace": self} if prim.higher_order else {}
        if self.per_device and "vmap_method" in params and params["vmap_method"] is None:
            params = dict(params, vmap_method="sequential")
        with set_current_trace(self.parent):
            out, out_dim = prim.batch(vals, dims, **params, **extra)
        return self.box(out, out_dim, prim.multiple_results)

    def process_custom_jvp(self, fun, jvp, args: tuple, symbolic_zeros: bool) -> Any:
        vals, dims = zip(*map(self.to_val_dim, args)) if args else ((), ())
        if all(d is None for d in dims) and not closes_over(self, (fun, jvp)):
            return self.parent.process_custom_jvp(fun, jvp, vals, symbolic_zeros)
        fun_b, jvp_b = batch_custom_jvp(fun, jvp, dims, self.axis_size, self.axis_name, self)
        outs = self.parent.process_custom_jvp(fun_b, jvp_b, vals, symbolic_zeros)
        return [BatchTracer(self, o, 0) for o in outs]

    def process_custom_vjp(self, fun, fwd, bwd, args: tuple) -> Any:
        vals, dims = zip(*map(self.to_val_dim, args)) if args else ((), ())
        if all(d is None for d in dims) and not closes_over(self, (fun, fwd, bwd)):
            return self.parent.process_custom_vjp(fun, fwd, bwd, vals)
        fun_b, fwd_b, bwd_b = batch_custom_vjp(
            fun, fwd, bwd, dims, self.axis_size, self.axis_name, self
        )
        outs = self.parent.process_custom_vjp(fun_b, fwd_b, bwd_b, vals)
        return [BatchTracer(self, o, 0) for o in outs]

    def box(self, out: Any, out_dim: Any, multiple: bool) -> Any:
        if multiple:
            return [self._box1(o, d) for o, d in zip(out, out_dim, strict=True)]
        return self._box1(out, out_dim)

    def _box1(self, val: Any, dim: int | None) -> Any:
        return val if dim is None and not self.boxes_all else BatchTracer(self, val, dim)


# ---------------------------------------------------------------------------------------------
# Custom derivative rules under vmap: batched versions of the function and its rules, taking and
# returning values at the parent level (every output batched at axis 0), so the parent's own
# hook (a JVP trace, staging...) sees the custom rule instead of the function's primitives.


def _batched_call(
    fun: Callable,
    dims: Sequence[int | None],
    size: int,
    axis_name: Any,
    outer: BatchTrace | None = None,
):
    def run(*vals: Any) -> list[Any]:
        trace = BatchTrace(current_trace(), size, axis_name, outer)
        with set_current_trace(trace):
            outs = fun(*[_box(trace, v, d) for v, d in zip(vals, dims, strict=True)])
        return [_unbox_front(trace, o, size) for o in outs]

    return run


def scalar_call(fun: Callable, xs: Sequence[Any]) -> list[Any]:
    """`fun`, staged for scalars (a computation of `lax.reduce` or `reduce_window`, whose
    calls and broadcasts have scalar shapes), run elementwise over the arrays `xs`, all of
    one shape: batched over their flattened elements.

    Args:
      fun: takes one scalar per array of `xs`, returns a list of scalars.
      xs: arrays of one shape.

    Returns:
      `fun`'s outputs, each of the arrays' shape.
    """
    shape = get_aval(xs[0]).shape
    size = int(np.prod(shape, dtype=np.int64))
    run = _batched_call(fun, [0] * len(xs), size, None)
    outs = run(*[ops.reshape(x, (size,)) for x in xs])
    return [ops.reshape(o, shape) for o in outs]


def _box(trace: BatchTrace, val: Any, dim: int | None) -> Any:
    if type(val) is Zero:
        return Zero(unbatched_aval(val.aval, dim))
    return val if dim is None else BatchTracer(trace, val, dim)


def unbatched_aval(aval: ShapedArray, dim: int | None) -> ShapedArray:
    if dim is None:
        return aval
    return aval.update(shape=aval.shape[:dim] + aval.shape[dim + 1 :])


def _batched_aval(aval: ShapedArray, dim: int, size: int) -> ShapedArray:
    return aval.update(shape=(*aval.shape[:dim], size, *aval.shape[dim:]))


def _unbox_front(trace: BatchTrace, out: Any, size: int) -> Any:
    if type(out) is Zero:
        return Zero(_batched_aval(out.aval, 0, size))
    val, dim = trace.to_val_dim(out)
    return moveaxis(val, dim, 0, size)


def batch_custom_jvp(fun, jvp, dims, size, axis_name, outer=None):
    """(fun_b, jvp_b): `fun` and its custom jvp rule, batched along `dims` (`outer`: the batch
    trace whose tracers they may close over)."""
    fun_b = _batched_call(fun, dims, size, axis_name, outer)
    fun_b.__name__ = getattr(fun, "__name__", "<lambda>")  # the staged call's name

    def jvp_b(primals, tangents):
        trace = BatchTrace(current_trace(), size, axis_name, outer)
        with set_current_trace(trace):
            outs, t_outs = jvp(
                [_box(trace, p, d) for p, d in zip(primals, dims, strict=True)],
                [_box(trace, t, d) for t, d in zip(tangents, dims, strict=True)],
            )
        return (
            [_unbox_front(trace, o, size) for o in outs],
            [_unbox_front(trace, t, size) for t in t_outs],
        )

    jvp_b.__name__ = getattr(jvp, "__name__", "jvp")
    return fun_b, jvp_b


def batch_custom_vjp(fun, fwd, bwd, dims, size, axis_name, outer=None):
    """(fun_b, fwd_b, bwd_b): `fun` and its custom vjp rules, batched along `dims` (`outer`:
    the batch trace whose tracers they may close over).

    Outputs and residuals come out batched at axis 0; the batched `bwd` returns each input's
    cotangent batched like that input (summed over the batch for unbatched inputs).
    """
    fun_b = _batched_call(fun, dims, size, axis_name, outer)
    fun_b.__name__ = getattr(fun, "__name__", "<lambda>")  # the staged call's name

    def fwd_b(*vals, perturbed):
        trace = BatchTrace(current_trace(), size, axis_name, outer)
        with set_current_trace(trace):
            boxed = [_box(trace, v, d) for v, d in zip(vals, dims, strict=True)]
            outs, res = fwd(*boxed, perturbed=perturbed)
        return (
            [_unbox_front(trace, o, size) for o in outs],
            [_unbox_front(trace, r, size) for r in res],
        )

    def bwd_b(res, cts):
        trace = BatchTrace(current_trace(), size, axis_name, outer)
        with set_current_trace(trace):
            cts_in = bwd([_box(trace, r, 0) for r in res], [_box(trace, c, 0) for c in cts])
        out = []
        for ct, d in zip(cts_in, dims, strict=True):
            if type(ct) is Zero:
                out.append(ct if d is None else Zero(_batched_aval(ct.aval, d, size)))
                continue
            ct = _unbox_front(trace, ct, size)
            out.append(ops.reduce_sum(ct, (0,)) if d is None else moveaxis(ct, 0, d, size))
        return out

    fwd_b.__name__ = getattr(fwd, "__name__", "fwd")
    bwd_b.__name__ = getattr(bwd, "__name__", "bwd")
    return fun_b, fwd_b, bwd_b


# ---------------------------------------------------------------------------------------------
# Helpers for rules


def _reads_axis(jaxpr: ir.Jaxpr, name: Any) -> bool:
    for eqn in jaxpr.eqns:
        if eqn.prim.collective:
            names = eqn.params.get("axis_name")
            if name in (names if isinstance(names, (tuple, list)) else (names,)):
                return True
        if any(_reads_axis(j, name) for v in eqn.params.values() for j in ir.sub_jaxprs(v)):
            return True
    return False


def batch_size(args: Sequence[Any], dims: Sequence[int | None]) -> int:
    """The size of the batch axis of a batch rule's operands `args`: that of the first batched
    one (`dims[k]` not None; a rule runs only when one is)."""
    return next(get_aval(a).shape[d] for a, d in zip(args, dims) if d is not None)


def moveaxis(x: Any, src: int | None, dst: int, size: int) -> Any:
    """Moves batch axis `src` of `x` to `dst`; an unbatched `x` is broadcast along a new axis."""
    aval = get_aval(x)
    if src is None:
        shape = list(aval.shape)
        shape.insert(dst, size)
        dims = tuple(np.delete(np.arange(len(shape)), dst))  # numpy ints, as JAX's (printed)
        return ops.broadcast_in_dim(x, tuple(shape), dims)
    if src == dst:
        return x
    perm = [i for i in range(aval.ndim) if i != src]
    perm.insert(dst, src)
    return ops.transpose(x, tuple(perm))


def batched_first(args: Sequence[Any], dims: Sequence[int | None], size: int) -> list[Any]:
    """The batched operands of a batch rule with their batch axis (of `size`) moved to the
    front; the unbatched ones as they are."""
    return [a if d is None else moveaxis(a, d, 0, size) for a, d in zip(args, dims)]


def bdim_at_front(x: Any, dim: int | None, size: int) -> Any:
    return moveaxis(x, dim, 0, size)


def defvectorized(prim) -> None:
    """Batch rule for primitives that apply to each element of their one operand
    (`jax.interpreters.batching.defvectorized`): the batch axis stays where it is."""
    prim.def_batch(lambda args, dims, **params: (prim.bind(*args, **params), dims[0]))


# JAX's table of batch rules (`batching.primitive_batchers[p] = rule`), a view of `p.batch`
primitive_batchers = RuleTable("batch")


def broadcast_batcher(prim):
    """Batch rule for elementwise primitives (all operands share one shape)."""

    def rule(args, dims, **params):
        size = batch_size(args, dims)
        first = next(d for d in dims if d is not None)
        ndim = get_aval(args[dims.index(first)]).ndim
        if all(d == first for d in dims):
            return prim.bind(*args, **params), first
        moved = [moveaxis(a, d, first if first < ndim else 0, size) for a, d in zip(args, dims)]
        return prim.bind(*moved, **params), first

    prim.def_batch(rule)
    return rule


def broadcasting_batcher(prim):
    """Batch rule for the elementwise primitives that broadcast rank-0 operands and size-1
    axes (`Primitive.broadcasting`), as JAX's: operands batched along one axis, or rank-0,
    pass as they are; otherwise batched operands move their axis to the front and get size-1
    axes up to the others' rank, unbatched ones (but rank-0 ones) a size-1 axis in front, and
    the primitive broadcasts the rest."""

    def rule(args, dims, **params):
        avals = [get_aval(a) for a in args]
        first = next(d for d in dims if d is not None)
        shape = next(av.shape for av, d in zip(avals, dims) if d is not None)
        if all(av.shape == shape and d == first for av, d in zip(avals, dims) if av.ndim):
            return prim.bind(*args, **params), first
        moved = [moveaxis(a, d, 0, 1) if av.ndim else a for a, av, d in zip(args, avals, dims)]
        ndim = max(get_aval(a).ndim for a in moved)
        out = []
        for a, d in zip(moved, dims):
            aval = get_aval(a)
            if d is not None and aval.ndim < ndim:  # a batched scalar beside arrays
                shape = aval.shape + (1,) * (ndim - aval.ndim)
                a = ops.broadcast_in_dim(a, shape, tuple(range(aval.ndim)))
            out.append(a)
        return prim.bind(*out, **params), 0

    prim.def_batch(rule)
    return rule


defbroadcasting = broadcasting_batcher  # JAX's name
