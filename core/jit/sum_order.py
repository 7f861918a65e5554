"""Compiled float sums in XLA:CPU's order (the rule: `core/prims/sum_order.py`).

`in_xla_order` rewrites a float `reduce_sum` that XLA sums with its own loops (float32 and
float64 sums of fewer than 4096 elements, complex sums) into XLA's windows: the operand
padded with zeros as XLA's `SAME` padding pads (a zero adds nothing), reshaped so that each
reduced axis is (windows, window), summed over the window axes, again while a reduced axis
has more than 32 windows, then over the windows. Every sum is a `reduce_sum_in_order`, which
the loop nest adds one element after the other in row-major order (`Reduce("sum_in_order")`,
plain adds where a float `reduce_sum` folds reassociably into vector lanes), so it fuses with
its producers as any reduction does.

The rewrite runs when `config.jit_xla_sum_order` is on (`NUMBAX_JIT_XLA_SUM_ORDER=1`); it is
off by default until the kernel structures it changes (a reduction's chunks and threads,
`scan_rows`' chunked loops, the sums that `scan_motion` moves out of scans) are adapted to it.

A float32 or float64 sum of 4096 elements or more (YNNPACK's in XLA) compiles as before: its
order (vector lanes, a cascade of fours, Kahan's compensation) is not compiled yet, so its
last bits can differ from JAX's.
"""

from __future__ import annotations

import numpy as np

from core.avals import ShapedArray
from core.ir import Eqn, Literal, Var
from core.prims import indexing, reductions, shapes, sum_order

_KINDS = (np.float32, np.float64, np.complex64, np.complex128)


def in_xla_order(eqns: list[Eqn]) -> list[Eqn]:
    """`eqns` with every float `reduce_sum` that XLA:CPU sums with its own loops as XLA's
    windows of in-order sums (module docstring); other equations unchanged."""
    out: list[Eqn] = []
    for eqn in eqns:
        if eqn.prim is reductions.reduce_sum_p and _own_loops(eqn):
            out += _windows(eqn)
        else:
            out.append(eqn)
    return out


def _own_loops(eqn: Eqn) -> bool:
    aval = eqn.inputs[0].aval
    if aval.dtype not in _KINDS or not eqn.params["axes"]:
        return False
    size = int(np.prod(aval.shape, dtype=np.int64))
    return aval.dtype.kind == "c" or size < sum_order.YNN_MIN_SIZE


def _windows(eqn: Eqn) -> list[Eqn]:
    x, src = eqn.inputs[0], eqn.source_info
    axes = tuple(sorted(int(a) for a in eqn.params["axes"]))
    dtype, weak = x.aval.dtype, x.aval.weak_type
    out: list[Eqn] = []
    while any(x.aval.shape[a] > sum_order.WINDOW for a in axes):
        config, padded, split, inner = [], [], [], []
        for i, n in enumerate(x.aval.shape):
            if i not in axes:
                config.append((0, 0, 0))
                padded.append(n)
                split.append(n)
                continue
            w = min(n, sum_order.WINDOW)
            count = -(-n // w)
            total = count * w - n
            config.append((total // 2, total - total // 2, 0))
            padded.append(count * w)
            split += [count, w]
            inner.append(len(split) - 1)
        if any(c[:2] != (0, 0) for c in config):
            zero = Literal(np.zeros((), dtype), ShapedArray((), dtype, weak))
            y = Var(ShapedArray(tuple(padded), dtype, weak))
            params = {"padding_config": tuple(config)}
            out.append(Eqn(indexing.pad_p, [x, zero], params, [y], src))
            x = y
        y = Var(ShapedArray(tuple(split), dtype, weak))
        out.append(Eqn(shapes.reshape_p, [x], {"new_sizes": tuple(split)}, [y], src))
        kept = tuple(n for i, n in enumerate(split) if i not in inner)
        x = Var(ShapedArray(kept, dtype, weak))
        out += _in_order(y, tuple(inner), x, src)
    return out + _in_order(x, axes, eqn.outputs[0], src)


def _in_order(x, axes: tuple[int, ...], out: Var, src) -> list[Eqn]:
    """`out = reduce_sum_in_order(x, axes)`, the reduced axes moved to the front first (a
    transposed view) when others follow them: the loop nest then adds each element's terms
    in order into the kept elements' accumulators, its inner loop over the kept elements
    (independent sums side by side, rather than one chain of dependent adds at a time)."""
    kept = [i for i in range(x.aval.ndim) if i not in axes]
    if kept and kept[-1] > axes[-1] or not kept or axes == tuple(range(len(axes))):
        return [Eqn(reductions.reduce_sum_in_order_p, [x], {"axes": axes}, [out], src)]
    perm = (*axes, *kept)
    aval = x.aval
    y = Var(ShapedArray(tuple(aval.shape[i] for i in perm), aval.dtype, aval.weak_type))
    front = tuple(range(len(axes)))
    return [
        Eqn(shapes.transpose_p, [x], {"permutation": perm}, [y], src),
        Eqn(reductions.reduce_sum_in_order_p, [y], {"axes": front}, [out], src),
    ]
