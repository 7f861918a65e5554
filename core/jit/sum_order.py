"""Compiled float sums in XLA:CPU's order (the rule: `core/prims/sum_order.py`).

`in_xla_order` turns a float `reduce_sum` that XLA sums with its own loops (float32 and
float64 sums of fewer than 4096 elements, complex sums) into a `reduce_sum_in_order`, which
the loop nest adds in XLA's windows (`Reduce("sum_windows")`, `LoopNest._emit_windows` in
`core/jit/loops.py`): every reduced axis longer than 32 cut into windows of 32 padded as
`SAME` pads (the padding's zeros skipped by the loops' bounds), each window summed from 0,
again over the windows' sums while an axis has more than 32 of them, then the rest in
row-major order. It stays in the loop nest of its producers, as any reduction does. The
decision reads the program's shapes before a scan's rows are split into chunks
(`core/backends/numba/scan_rows.py`), so a sum's order never depends on the chunks.

The rewrite runs when `config.jit_xla_sum_order` is on (the default;
`NUMBAX_JIT_XLA_SUM_ORDER=0` turns it off).

A float32 or float64 sum of 4096 elements or more (YNNPACK's in XLA) compiles as before: its
order (vector lanes, a cascade of fours, Kahan's compensation) is not compiled yet, so its
last bits can differ from JAX's.
"""

from __future__ import annotations

import numpy as np

from core.ir import Eqn
from core.prims import reductions, sum_order

_KINDS = (np.float32, np.float64, np.complex64, np.complex128)


def in_xla_order(eqns: list[Eqn]) -> list[Eqn]:
    """`eqns` with every float `reduce_sum` that XLA:CPU sums with its own loops as a
    `reduce_sum_in_order` (module docstring); other equations unchanged."""
    return [
        Eqn(reductions.reduce_sum_in_order_p, e.inputs, _axes(e), e.outputs, e.source_info)
        if e.prim is reductions.reduce_sum_p and _own_loops(e)
        else e
        for e in eqns
    ]


def _own_loops(eqn: Eqn) -> bool:
    aval = eqn.inputs[0].aval
    if aval.dtype not in _KINDS or not eqn.params["axes"]:
        return False
    size = int(np.prod(aval.shape, dtype=np.int64))
    return aval.dtype.kind == "c" or size < sum_order.YNN_MIN_SIZE


def _axes(eqn: Eqn) -> dict:
    return {"axes": tuple(sorted(int(a) for a in eqn.params["axes"]))}
