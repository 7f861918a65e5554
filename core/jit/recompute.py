"""Cheap values recomputed where they are read instead of stored between kernels.

A loop group stores every value that another group reads (`core/jit/fusion.py`), so a value
that autodiff keeps for the backward pass is written by the forward kernel and read back by
the backward one even when it is one multiplication of broadcast operands: a layer norm's
`rstd * scale` broadcast to the rows (a 512 KB array per transformer layer norm), its centered
input `x - mean`, the `2 * x` of `square`'s derivative. `recomputed` gives each later reader of
such a value a copy of its equation, placed just before it, so that the reader's loop computes
it from the small operands (and at most one full-size one, which is then stored in its place:
never more bytes). The copy computes the same operation on the same operands, so the values
are the same bits; a product that the reader's loop now adds into a sum may contract into one
FMA there (`core/backends/llvm/settle.py`), within one rounding.
"""

from __future__ import annotations

import math

from core.ir import Eqn, Literal, Var
from core.prims import elementwise, reductions, shapes

# Operations whose copy costs about what a load of their result would.
CHEAP = {
    elementwise.add_p,
    elementwise.sub_p,
    elementwise.mul_p,
    elementwise.neg_p,
    elementwise.max_p,
    elementwise.min_p,
}
# Reductions whose loop reads its operand as elementwise equations do (a sink of a loop group).
_SINKS = {
    reductions.reduce_sum_p,
    reductions.reduce_max_p,
    reductions.reduce_min_p,
    reductions.reduce_sum_ynn_p,
    reductions.reduce_sum_in_order_p,
}


def recomputed(eqns: list[Eqn], outvars: list) -> list[Eqn]:
    """`eqns` with each cheap broadcast value (`CHEAP` on broadcasts of smaller arrays or
    literals and at most one other operand of its shape) copied before each of its readers
    after the first that loops over its shape (an elementwise equation or a reduction of it);
    other readers, and `outvars`, keep the original."""
    producer = {v: e for e in eqns for v in e.outputs}

    def broadcast(x, size: int) -> bool:
        if isinstance(x, Literal):
            return True
        e = producer.get(x)
        return (
            e is not None
            and e.prim is shapes.broadcast_in_dim_p
            and math.prod(getattr(e.inputs[0].aval, "shape", ())) < size
        )

    readers: dict[Var, list[Eqn]] = {}
    for e in eqns:
        for x in dict.fromkeys(e.inputs):
            if isinstance(x, Var):
                readers.setdefault(x, []).append(e)
    cheap: dict[Var, Eqn] = {}
    for e in eqns:
        if e.prim not in CHEAP or len(e.outputs) != 1 or not e.outputs[0].aval.shape:
            continue
        (y,) = e.outputs
        size = math.prod(y.aval.shape)
        full = [x for x in e.inputs if not broadcast(x, size)]
        if len(full) == len(e.inputs) or y in outvars:
            continue
        # a full operand read by `e` alone is not stored now, and would be: no gain
        if any(x in producer and len(readers[x]) < 2 for x in full) or len(full) > 1:
            continue
        # every reader loops over it, so no other kernel reads the original once copied
        if all(_loops_over(r, y) for r in readers.get(y, ())):
            cheap[y] = e
    if not cheap:
        return eqns
    read: set[Var] = set()
    out = []
    for e in eqns:
        inputs = list(e.inputs)
        for k, x in enumerate(inputs):
            if not isinstance(x, Var) or x not in cheap or not _loops_over(e, x):
                continue
            if x not in read:  # the first reader keeps the original
                read.add(x)
                continue
            orig = cheap[x]
            copy = Var(x.aval)
            out.append(Eqn(orig.prim, orig.inputs, orig.params, [copy], orig.source_info))
            inputs[k] = copy
        out.append(
            e
            if inputs == list(e.inputs)
            else Eqn(e.prim, inputs, e.params, e.outputs, e.source_info)
        )
    return out


def _loops_over(e: Eqn, x: Var) -> bool:
    """Whether `e` reads `x` inside a loop over `x`'s shape (so a copy joins that loop)."""
    if e.prim in _SINKS:
        return e.inputs[0] is x
    return e.prim.elementwise and all(v.aval.shape == x.aval.shape for v in e.outputs)
