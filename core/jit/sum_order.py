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

A float32 or float64 sum of a quarter of `loops.PARALLEL_SIZE` (32768) elements or more stays a
`reduce_sum` (`_threaded`: a loop nest touching several arrays runs threaded from there) unless
it sums over the leading axis with fewer than a thirty-second of that (1024) elements per index
of that axis: its loops run on both threads, in chunks of the outer dimension or by rows, so
its order is not YNNPACK's and its last bits can differ from JAX's. In YNNPACK's order it would
run on one thread, in a loop nest of its own: the Flax MNIST CNN's step took 40.3 ms against
28.5 (its convolutions' bias gradients sum 1.6-3.2M elements, 12544-25088 per example; two
threads, session 36). A sum over the leading axis (a batch's) is read apart so that halving a
batch of 64 or more does not cross the rule: a sum that the total alone sent to the threads at
one batch size and to YNNPACK's order at half of it had two loop nests, and the second batch
size's kernels compiled anew instead of being the first's shape-generic ones (the CNN's Dense
bias gradient, 128 x 256 = 32768 elements, 16384 at batch 64: its second batch's first call 52
-> 300-408 ms). So a sum over the batch of fewer elements per example (a Dense layer's bias
gradient, a 1-D array's sum) adds in YNNPACK's order at any size, on one thread (a sum of 1e6
float32 elements: 65-120 us against 52-145 us threaded, load 6); one of more than YNNPACK's 128
KB tile has a loop nest of its own (its tiles', `loops.LoopNest._emit_ynn`), so a 256-column
bias gradient still changes nests between batch 256 and 128. Sums that keep the leading axis
(rows of a softmax or a layer norm) are threaded by their total as before: their rows run on
both threads. Halving a smaller batch can still cross the rule: the ResNet-10's late BatchNorm
gradients (32 x 2 x 2 x 256, 1024 per example) are threaded at batch 32 and in YNNPACK's order
at 16 (four kernels compile for its second batch, 0.27 s of CPU); with 2048 per index here they
would add in YNNPACK's order at both, and its cold first call compiled those four kernels
instead (at batch 32 the threaded sums run in kernels the 32 x 4 x 4 x 128 BatchNorms' share,
shape-generic): 0.2 s more CPU (2.58 against 2.37 s, medians; bench/README.md). The work moves
between the calls; it does not go away. With `NUMBAX_JIT_THREADS=0` every loop runs one thread
and every sum adds in YNNPACK's order.

The rewrite runs when `config.jit_xla_sum_order` is on (the default;
`NUMBAX_JIT_XLA_SUM_ORDER=0` turns it off).
"""

from __future__ import annotations

import math

import numpy as np

from core.ir import Eqn
from core.jit import loops
from core.prims import reductions, sum_order

_KINDS = (np.float32, np.float64, np.complex64, np.complex128)


def in_xla_order(eqns: list[Eqn]) -> list[Eqn]:
    """`eqns` with every float `reduce_sum` as a sum in XLA:CPU's order (module docstring): a
    `reduce_sum_ynn` where XLA hands it to YNNPACK (but the large ones of `_threaded`, which
    stay `reduce_sum`), else a `reduce_sum_in_order`; other equations unchanged."""
    return [_in_order(e) if e.prim is reductions.reduce_sum_p else e for e in eqns]


def _in_order(eqn: Eqn) -> Eqn:
    aval = eqn.inputs[0].aval
    if aval.dtype not in _KINDS or not eqn.params["axes"]:
        return eqn
    axes = tuple(sorted(int(a) for a in eqn.params["axes"]))
    ynn = sum_order.uses_ynn(aval.dtype, aval.shape, axes)
    if ynn and _threaded(aval.shape, axes):  # threaded, in any order (module docstring)
        return eqn
    prim = reductions.reduce_sum_ynn_p if ynn else reductions.reduce_sum_in_order_p
    return Eqn(prim, eqn.inputs, {"axes": axes}, eqn.outputs, eqn.source_info)


def _threaded(shape: tuple[int, ...], axes: tuple[int, ...]) -> bool:
    """Whether a float sum over `axes` of an operand of `shape` that XLA hands to YNNPACK
    stays threaded: `_ynn_limit()` elements or more, and, if it sums over the leading axis, a
    thirty-second of that or more per index of that axis (so halving a leading extent of 64
    or more never crosses the rule)."""
    size = math.prod(shape)
    per_index = 0 not in axes or size >= shape[0] * (_ynn_limit() // 32)
    return size >= _ynn_limit() and per_index


def _ynn_limit() -> int:
    """The sum size from which `jit` keeps numbax's threaded order (with `_threaded`'s rule on
    the leading axis): a quarter of `loops.PARALLEL_SIZE`, where a loop nest touching several
    arrays runs threaded."""
    return loops.PARALLEL_SIZE // 4
