"""Compiled float sums in XLA:CPU's order (the rule: `core/prims/sum_order.py`).

`in_xla_order` turns every float `reduce_sum` into a sum in XLA's order. A float32 or float64
sum of 4096 elements or more (YNNPACK's in XLA) becomes a `reduce_sum_ynn`, which the loop
nest adds in YNNPACK's order (`Reduce("sum_ynn")`, `LoopNest._emit_ynn` in
`core/jit/loops.py`): a run of the last axes in vectors of 64 bytes, or rows of kept
elements, summed four units at a time into a tree of accumulators driven by YNNPACK's clock,
Kahan's compensation at its top, in the tiles of `sum_order.tiling` (a layout whose run or
rows the loop nest cannot walk as one dimension adds in any order, as before). Any other
float sum (under 4096 elements, complex) becomes a `reduce_sum_in_order`, which the loop nest
adds in XLA's windows (`Reduce("sum_windows")`, `LoopNest._emit_windows`): every reduced
axis longer than 32 cut into windows of 32 padded as `SAME` pads (the padding's zeros
skipped by the loops' bounds), each window summed from 0, again over the windows' sums while
an axis has more than 32 of them, then the rest in row-major order. Either stays in the loop
nest of its producers, as any reduction does, one thread (large sums excepted: below). The
decision reads the program's shapes before a scan's rows are split into chunks
(`core/backends/numba/scan_rows.py`), so a sum's order never depends on the chunks.

A float32 or float64 sum of a quarter of `loops.PARALLEL_SIZE` (32768) elements or more
stays a `reduce_sum` (`_ynn_limit`: a loop nest touching several arrays runs threaded from
there): its loops run on both threads, in chunks of the outer dimension, so its order is not
YNNPACK's and its last bits can differ from JAX's. In YNNPACK's order it would run on one
thread, in a loop nest of its own: the Flax MNIST CNN's step took 40.3 ms against 28.5 (its
bias gradients sum 1.6-3.2M elements; two threads, session 36), and with the limit at
131072 the ResNet-10's BatchNorm gradients (32x4x4x128 elements) cost 0.3 ms more on one
thread and 1-2 ms on two. With `NUMBAX_JIT_THREADS=0` every loop runs one thread and these
sums too add in YNNPACK's order.

The rewrite runs when `config.jit_xla_sum_order` is on (the default;
`NUMBAX_JIT_XLA_SUM_ORDER=0` turns it off).
"""

from __future__ import annotations

import numpy as np

from core.ir import Eqn
from core.jit import loops
from core.prims import reductions, sum_order

_KINDS = (np.float32, np.float64, np.complex64, np.complex128)


def in_xla_order(eqns: list[Eqn]) -> list[Eqn]:
    """`eqns` with every float `reduce_sum` as a sum in XLA:CPU's order (module docstring): a
    `reduce_sum_ynn` where XLA hands it to YNNPACK (under `_ynn_limit` elements; larger ones
    stay `reduce_sum`, threaded), else a `reduce_sum_in_order`; other equations unchanged."""
    return [_in_order(e) if e.prim is reductions.reduce_sum_p else e for e in eqns]


def _in_order(eqn: Eqn) -> Eqn:
    aval = eqn.inputs[0].aval
    if aval.dtype not in _KINDS or not eqn.params["axes"]:
        return eqn
    axes = tuple(sorted(int(a) for a in eqn.params["axes"]))
    ynn = sum_order.uses_ynn(aval.dtype, aval.shape, axes)
    if ynn and aval.size >= _ynn_limit():  # threaded, in any order (module docstring)
        return eqn
    prim = reductions.reduce_sum_ynn_p if ynn else reductions.reduce_sum_in_order_p
    return Eqn(prim, eqn.inputs, {"axes": axes}, eqn.outputs, eqn.source_info)


def _ynn_limit() -> int:
    """The sum size from which `jit` keeps numbax's threaded order: a quarter of
    `loops.PARALLEL_SIZE`, where a loop nest touching several arrays runs threaded."""
    return loops.PARALLEL_SIZE // 4
