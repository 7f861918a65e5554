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
from core.prims import conv, elementwise, linalg, reductions, shapes

# Operations whose copy costs about what a load of their result would.
CHEAP = {
    elementwise.add_p,
    elementwise.sub_p,
    elementwise.mul_p,
    elementwise.neg_p,
    elementwise.max_p,
    elementwise.min_p,
    elementwise.select_n_p,
}
# Equations that run as kernels of their own between the loops of the passes around them.
_PRODUCTS = {linalg.dot_general_p, conv.conv_general_dilated_p}
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
    literals and at most one other operand of its shape, stored anyway: `_stored`), all of
    whose readers loop over its shape (elementwise equations, reductions of it) and none of
    which is a program output, copied for its readers after a product or convolution (`_PRODUCTS`:
    kernels apart), once per stretch between products, just before its first reader there."""
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
        # a full operand that only `e`'s loop reads is not stored now, and would be: no gain
        if len(full) > 1 or any(not _stored(x, producer, readers) for x in full):
            continue
        # every reader loops over it, so no other kernel reads the original once copied
        if all(_loops_over(r, y) for r in readers.get(y, ())):
            cheap[y] = e
    if not cheap:
        return eqns
    # readers up to the next product or convolution share the original's loop (or may); later
    # ones, one copy per stretch between products (a layer's backward pass), and so do readers
    # that also read a result of it through a reduction or a view (a softmax's `x - max(x)`:
    # a loop of their own)
    apart = _apart(eqns, cheap)
    products, defined, copies = 0, {}, {}
    out = []
    for e in eqns:
        inputs = list(e.inputs)
        for k, x in enumerate(inputs):
            if not isinstance(x, Var) or x not in cheap:
                continue
            if defined[x] == products and x not in apart.get(id(e), ()):
                continue
            if (x, products) not in copies:
                orig = cheap[x]
                copies[x, products] = copy = Var(x.aval)
                out.append(Eqn(orig.prim, orig.inputs, orig.params, [copy], orig.source_info))
            inputs[k] = copies[x, products]
        products += e.prim in _PRODUCTS
        defined.update((y, products) for y in e.outputs if y in cheap)
        out.append(
            e
            if inputs == list(e.inputs)
            else Eqn(e.prim, inputs, e.params, e.outputs, e.source_info)
        )
    return out


def _apart(eqns: list[Eqn], cheap: dict) -> dict[int, set[Var]]:
    """For each equation (by id), the values of `cheap` it reads that it also reads through an
    equation outside loops (a reduction, a view, a product): it cannot share their loop."""
    through: dict[Var, set[Var]] = {}  # value -> the cheap values it depends on through one
    depends: dict[Var, set[Var]] = {}  # value -> the cheap values it depends on
    apart: dict[int, set[Var]] = {}
    for e in eqns:
        deps = set().union(*(depends.get(x, ()) for x in e.inputs if isinstance(x, Var)))
        sep = set().union(*(through.get(x, ()) for x in e.inputs if isinstance(x, Var)))
        mine = {x for x in e.inputs if isinstance(x, Var) and x in cheap}
        if mine & sep:
            apart[id(e)] = mine & sep
        deps |= mine
        if not e.prim.elementwise:  # a reduction, a view, a product: a loop boundary
            sep |= deps
        for y in e.outputs:
            if deps:
                depends[y] = deps
            if sep:
                through[y] = sep
    return apart


def _stored(x: Var, producer: dict, readers: dict) -> bool:
    """Whether `x` is (very likely) an array in memory whatever reads it: a program input, the
    result of an equation outside loop groups (a product, a gather, a view of a stored value),
    or a value that several equations read."""
    e = producer.get(x)
    return e is None or not e.prim.elementwise or len(readers[x]) > 1


def _loops_over(e: Eqn, x: Var) -> bool:
    """Whether `e` reads `x` inside a loop over `x`'s shape (so a copy joins that loop)."""
    if e.prim in _SINKS:
        return e.inputs[0] is x
    return e.prim.elementwise and all(v.aval.shape == x.aval.shape for v in e.outputs)
