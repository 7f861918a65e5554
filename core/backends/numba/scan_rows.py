"""Scans whose iterations keep the rows of their carries apart, run as chunks of rows on threads.

An RNN's loop runs a batch of sequences at once: every carry and every xs slice has the batch
as its leading axis, and nothing in the body (once `core/jit/scan_motion.py` has moved the
weight and bias gradients, the sums over the batch, out of the loop) combines two rows. Row b
of every result then depends on row b of the inputs alone, so the loop can run as independent
loops over chunks of rows, one chunk per task of numba's pool: a single hand-off for the whole
scan instead of one per iteration for a product shared between the threads, and the
elementwise work of each iteration (the LSTM cell's gates) runs on every thread too.

`row_split` decides it and gives the body re-typed for a chunk's rows. A value of the body is
a *row* value (its axis 0 is the batch: the carries, the xs slices and what is computed from
them) or a *free* one (the consts and what is computed from them alone). Each equation that
reads a row value must keep the rows apart, by its primitive:

* elementwise: every non-scalar operand is a row value;
* reductions, transposes: axis 0 is neither reduced nor moved;
* slices, pads, reshapes, squeezes: axis 0 is kept whole;
* `broadcast_in_dim`: axis 0 comes from the operand's axis 0, or a free operand is
  broadcast along a new axis 0 of the batch's size (a bias added to every row);
* `concatenate`, `stack`: along another axis, of row values only;
* `dot_general`: a row value times a free one (the weights), contracting neither axis 0 nor
  batching over it.

Anything else that reads a row value (a gather, a nested loop, a callback, a product of two row
values, which sums over rows) and any effect in the body keep the loop whole.

The chunks are cut by the sizes alone (`CHUNK_ROWS`: the smallest even divisor of the batch of
at least that many rows, else a smaller even one, so that the batch sizes run the same
kernels: their sizes are run-time arguments), so each row is computed by the same code
whatever the number of threads (`core/jit/schedule.py`'s promise); a product of a chunk's
rows in the loop runs on its task's thread (`lib.skinny_rows`, or `lib.skinny_columns` in the
same 2-row tiles as the whole batch's product), each element by the same code as in the whole
batch's product. A loop takes the split from `MIN_WORK` elements written over all its
iterations (a hand-off to a sleeping worker costs 40-130 us here): a batch size far smaller than
the first one's may fall under it and compile the whole loop's kernels.

On one thread the chunks would only cost: each chunk's products read the weights again. So a
kernel with chunked scans also carries the sizes of its source generated with every such scan as
one chunk of all its rows (`whole`), which it reads when it runs on one thread
(`core/jit/codegen.py`): the same compiled code, one task, the same bits.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from core.backends.numba.registry import Reduce, Scalar, lowering_rule
from core.ir import Eqn, Jaxpr, Var, typecheck
from core.prims import indexing, linalg, shapes

# Rows per chunk: at least this many (and even, so that 2-row product tiles pair the same rows).
CHUNK_ROWS = 8
# Elements the loop's equations write over all iterations from which it runs as chunks.
MIN_WORK = 1 << 20


@dataclass(frozen=True)
class RowSplit:
    """How a scan runs as chunks: `rows` (the batch), `chunk` rows per chunk, and `body`, the
    loop's body for `chunk` rows (same variables order as the scan's body)."""

    rows: int
    chunk: int
    body: Jaxpr

    @property
    def parts(self) -> int:
        return self.rows // self.chunk


class _NotSeparable(Exception):
    """An equation of the body combines rows (see the module docstring)."""


def chunk_rows(rows: int) -> int:
    """The rows of a chunk for a batch of `rows`: the smallest even divisor of at least
    `CHUNK_ROWS` that leaves two chunks or more, else the largest even one that does, else all
    of them. A small batch still runs as two chunks or more where it can, so that its loop's
    kernels are those of the larger batch sizes (a chunk count of 1 is a different kernel:
    sizes of 1 broadcast) and a second batch size compiles nothing new."""
    for r in range(CHUNK_ROWS, rows // 2 + 1):
        if r % 2 == 0 and rows % r == 0:
            return r
    smaller = [r for r in range(2, rows // 2 + 1, 2) if rows % r == 0]
    return smaller[-1] if smaller else rows


def row_split(jaxpr: Jaxpr, num_consts: int, num_carry: int, length: int) -> RowSplit | None:
    """The chunked form of a scan whose body is `jaxpr` (consts, carries, xs slices in; carries,
    ys out), or None when its rows cannot, or need not, run apart (see the module docstring).

    Args:
      jaxpr: the scan's body.
      num_consts: how many of its inputs are consts.
      num_carry: how many are carries (the first outputs too).
      length: the scan's number of iterations.
    """
    varying = jaxpr.invars[num_consts:]
    if not varying or any(not v.aval.shape for v in varying):
        return None
    rows = varying[0].aval.shape[0]
    chunk = chunk_rows(rows)
    if any(v.aval.shape[0] != rows for v in varying):
        return None
    work = sum(v.aval.size for e in jaxpr.eqns for v in e.outputs) * length
    if work < MIN_WORK:
        return None
    try:
        body = _retyped(jaxpr, num_consts, rows, chunk)
    except _NotSeparable:
        return None
    return RowSplit(rows, chunk, body)


def whole(split: RowSplit, jaxpr: Jaxpr, num_consts: int) -> RowSplit:
    """`split` as one chunk of all its rows (`jaxpr` and `num_consts` as for `row_split`): the
    sizes of the same kernel for one thread, which then reads each weight once per iteration
    for all the rows (`core/jit/codegen.py`)."""
    return RowSplit(split.rows, split.rows, _retyped(jaxpr, num_consts, split.rows, split.rows))


def _retyped(jaxpr: Jaxpr, num_consts: int, rows: int, chunk: int) -> Jaxpr:
    """`jaxpr` for `chunk` rows instead of `rows`; raises `_NotSeparable`."""
    env: dict[Var, Var] = {}
    row: set[Var] = set()  # variables of the new body whose axis 0 is the chunk's rows

    def new_var(v: Var, is_row: bool) -> Var:
        shape = (chunk, *v.aval.shape[1:]) if is_row else v.aval.shape
        env[v] = Var(v.aval.update(shape=shape))
        if is_row:
            row.add(env[v])
        return env[v]

    invars = [new_var(v, k >= num_consts) for k, v in enumerate(jaxpr.invars)]
    eqns = []
    for e in jaxpr.eqns:
        if e.prim.effectful or e.prim.higher_order:
            raise _NotSeparable
        ins = [env.get(x, x) if isinstance(x, Var) else x for x in e.inputs]
        is_row = [isinstance(x, Var) and x in row for x in ins]
        params = _params(e, ins, is_row, rows, chunk)
        out_row = params is not None
        params = e.params if params is None else params
        outs = [new_var(v, out_row) for v in e.outputs]
        try:
            avals = e.prim.abstract_eval(*[x.aval for x in ins], **params)
        except Exception as err:
            raise _NotSeparable from err
        avals = avals if e.prim.multiple_results else [avals]
        if [a.shape for a in avals] != [v.aval.shape for v in outs]:
            raise _NotSeparable
        eqns.append(Eqn(e.prim, ins, params, outs, e.source_info))
    carried = [env.get(v) if isinstance(v, Var) else None for v in jaxpr.outvars]
    if any(v is None or v not in row for v in carried):
        raise _NotSeparable  # a literal or a free value as a carry or a y
    body = Jaxpr([], invars, eqns, carried)
    typecheck(body)
    return body


def _params(e: Eqn, ins: list, is_row: list[bool], rows: int, chunk: int) -> dict | None:
    """The parameters of `e` for `chunk` rows when its outputs are row values, None when they
    are free; raises `_NotSeparable` (see the module docstring)."""
    p, prim = e.params, e.prim
    if prim is shapes.broadcast_in_dim_p:
        dims, shape = p["broadcast_dimensions"], p["shape"]
        operand = ins[0].aval.shape
        new_axis = 0 not in dims or operand[dims.index(0)] == 1  # a size-1 axis counts as new
        fresh = not is_row[0] and shape and shape[0] == rows and new_axis
        if fresh or (is_row[0] and dims and dims[0] == 0):
            return dict(p, shape=(chunk, *shape[1:]))
        if is_row[0]:
            raise _NotSeparable
        return None
    if not any(is_row):
        return None
    rule = lowering_rule(prim)
    if isinstance(rule, Scalar):
        if all(r or (not isinstance(x, Var) or not x.aval.shape) for x, r in zip(ins, is_row)):
            return dict(p)
        raise _NotSeparable
    if isinstance(rule, Reduce) and 0 not in p["axes"]:
        return dict(p)
    if prim is shapes.transpose_p and p["permutation"][0] == 0:
        return dict(p)
    if prim is indexing.slice_p:
        strides = p.get("strides") or (1,) * len(p["start_indices"])
        if p["start_indices"][0] == 0 and p["limit_indices"][0] == rows and strides[0] == 1:
            return dict(p, limit_indices=(chunk, *p["limit_indices"][1:]))
    if prim is shapes.reshape_p:
        new, old = p["new_sizes"], e.inputs[0].aval.shape
        if new and new[0] == rows and math.prod(new[1:]) == math.prod(old[1:]):
            return dict(p, new_sizes=(chunk, *new[1:]))
    if prim is shapes.squeeze_p and 0 not in p["dimensions"]:
        return dict(p)
    if prim is indexing.pad_p and not is_row[1] and tuple(p["padding_config"][0]) == (0, 0, 0):
        return dict(p)
    if prim is indexing.concatenate_p and p["dimension"] != 0 and all(is_row):
        return dict(p)
    if prim is indexing.stack_p and p["axis"] != 0 and all(is_row):
        return dict(p)
    if prim is linalg.dot_general_p and is_row[0] and not is_row[1]:
        (xc, _), (xb, _) = p["dimension_numbers"]
        if 0 not in xc and not xb:
            return dict(p)
    raise _NotSeparable
