"""The order in which XLA:CPU (jaxlib 0.10.2) adds the elements of a floating-point sum.

A float sum's last bits depend on the order of its additions, so numbax adds in XLA:CPU's
order. Found by probing JAX 0.10.2 on the CPU (inputs of ones with one huge `M` and one `-M`:
the result counts the ones not absorbed before `M` and `-M` meet, which gives the size of the
smallest subtree holding both, for every pair) and confirmed on random inputs of many shapes.
XLA takes one of two routes:

**YNNPACK** (`ynn_sum`), for a float32 or float64 `reduce` of at least 4096 input elements
(XLA's `IsReduceOpOffloadedToYnn`; a reduce of a broadcast stays in XLA). The reduced axes are
sorted, innermost first, into: `k1`, the reduced axes contiguous with the last axis (the last
axis reduced, and reduced axes just outside it); else `k2`, the innermost reduced run of axes
whose elements are evenly spaced; the reduced axes outside those are loops. The kernel reduces
`k1` elements at a time when `k1 > 1`, else the `k2` elements of each kept element. Each
kernel call adds its result to the output (`out = out + call`, from 0), the calls in
row-major order of the looped reduced axes, `k2` innermost. Inside a call, with units, fours
(4 units summed in order from 0), chunks (4 fours, 16 units) and blocks (4 chunks, 64 units):

- with `k1 > 1` the units are vectors of 64 bytes along the run (16 float32 lanes; the last
  vector padded with zeros), summed lane by lane: each whole chunk's fours summed in order
  from 0, each block's chunks added in order; the fours after the last whole chunk (and the
  last, partial four) are added one by one to the last block's sum; the blocks' sums added
  in order with Kahan's compensation, starting from 0, with one more (empty) block when the
  chunks fill their blocks exactly. Then the lanes are summed by halves (lanes `i` and `i + 8`,
  then `i` and `i + 4`, `i` and `i + 2`, then lanes 0 and 1);
- with `k1 == 1` the units are the rows of `k2` (each kept element its own sum): fours
  (in order from 0), chunks of them, blocks of chunks, and the blocks' sums in order (no
  compensation); at most 4 rows are one four.

Checked against JAX on the CPU it ran on (AVX-512): float32 sums over the last axes (any
size, any number of rows) and over a leading axis of at most 200 rows of 512 columns give
JAX's bits. Not yet matched (the tests list them): a leading-axis sum of narrower (128
columns or fewer) or much longer arrays (YNNPACK then tiles the rows), float64 sums of 4096
elements or more, and sums over several axes that leave the last axis.

**XLA's own loops** (`window_sum`) for everything else (complex, float32 and float64 under
4096 elements; float16 and bfloat16 sum in float32 and round once). When a reduced axis is longer
than 32, XLA's `TreeReductionRewriter` first sums windows: every reduced axis gets a window of
`min(size, 32)` and the same stride, padded as `SAME` padding pads (`ceil(size / w)` windows,
the missing `total` elements split `total // 2` before and the rest after), each window summed
from 0 in row-major order of its elements; this repeats on the windows' sums while a reduced
axis is longer than 32. The last sums (and a reduction whose axes are all at most 32) add
from 0 in row-major order of the reduced elements. Checked against JAX for one reduced
axis (any size) and for several axes of rank-3 arrays. Not matched yet: some sums of a whole
2-D array whose rows are short (or of the 2-D grid of window sums of one), which XLA's code
adds across rows, as if LLVM vectorized the loop over rows once the loop over a row is
unrolled: row `i` in lane `i % L`, each row's elements added in order onto its lane, the
lanes summed by halves at the end. Probed (JAX 0.10.2, eager and jit alike): `(4, 4)` (L 2
or 4), `(8, 8)` (L 4 or 8), `(16, 5)` (L 8) and the `(2, 4)` grid of `(40, 100)` (L 2) add
so; `(3, 4)`, `(5, 5)`, `(9, 9)`, `(24, 24)`, `(32, 32)`, `(8, 32)`, `(7, 32)` add in order as
here. Also not matched: composites that JAX compiles differently under `jit` than eagerly
(`jnp.std`, `logsumexp`: JAX's own eager and jitted bits differ there).
"""

from __future__ import annotations

import math

import numpy as np

# XLA:CPU's `TreeReductionRewriter` window (and stride) for every reduced axis
WINDOW = 32
# float32 and float64 reduces of at least this many input elements go to YNNPACK
YNN_MIN_SIZE = 4096
# YNNPACK's vector along a contiguous reduced run: 64 bytes (16 float32 or 8 float64 lanes)
VECTOR_BYTES = 64
# the fan-in of YNNPACK's cascade of accumulators
FAN = 4


def in_order(x: np.ndarray, axis: int = -1) -> np.ndarray:
    """`x` summed along `axis` one element after the other, from 0 (numpy's `cumsum` adds in
    order; adding 0 at the end makes a sum of negative zeros 0, as a sum from 0 gives)."""
    if x.shape[axis] == 0:
        return np.zeros(np.delete(x.shape, axis), x.dtype)
    last = np.take(np.cumsum(x, axis=axis), -1, axis=axis)
    return np.asarray(last + x.dtype.type(0), x.dtype)


def fold_axes_last(x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    """`x` with `axes` moved to the end (in order) and flattened into one."""
    kept = [i for i in range(x.ndim) if i not in axes]
    moved = np.transpose(x, kept + list(axes))
    return moved.reshape([x.shape[i] for i in kept] + [-1])


def window_sum(x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    """`x` summed over `axes` in the order of XLA:CPU's own loops (module docstring)."""
    axes = tuple(sorted(axes))
    while any(x.shape[a] > WINDOW for a in axes):
        pads, shape, inner = [], [], []
        for i, n in enumerate(x.shape):
            if i not in axes:
                pads.append((0, 0))
                shape.append(n)
                continue
            w = min(n, WINDOW)
            count = -(-n // w)
            total = count * w - n
            pads.append((total // 2, total - total // 2))
            shape += [count, w]
            inner.append(len(shape) - 1)
        x = np.pad(x, pads).reshape(shape)
        x = in_order(fold_axes_last(x, tuple(inner)))
        # the window axes are gone: the reduced axes keep their places, now window counts
    return in_order(fold_axes_last(x, axes))


def _fours(x: np.ndarray) -> np.ndarray:
    """Consecutive groups of 4 along axis 0 (the last one padded with zeros), each summed in
    order from 0."""
    pad = -x.shape[0] % FAN
    x = np.concatenate([x, np.zeros((pad,) + x.shape[1:], x.dtype)]) if pad else x
    groups = x.reshape((-1, FAN) + x.shape[1:])
    total = groups[:, 0] + x.dtype.type(0)
    for j in range(1, FAN):
        total = total + groups[:, j]
    return total


def _kahan(blocks: list) -> np.ndarray:
    """The `blocks` added one after the other from 0 with Kahan's compensation."""
    acc = np.zeros_like(blocks[0])
    err = np.zeros_like(acc)
    for b in blocks:
        y = b - err
        t = acc + y
        err = (t - acc) - y
        acc = t
    return acc


def _in_order_list(items: list, start: np.ndarray | None = None) -> np.ndarray:
    """The arrays `items` added one after the other, from `start` (else from 0)."""
    acc = np.zeros_like(items[0]) if start is None else start
    for item in items:
        acc = acc + item
    return acc


def _cascade(x: np.ndarray, rows: bool) -> np.ndarray:
    """`x` summed along axis 0 as YNNPACK's float sum kernels sum their units (module
    docstring): vectors along a contiguous run (`rows=False`), or rows (`rows=True`)."""
    m = x.shape[0]
    if rows and m <= FAN:
        return _fours(x)[0]
    partials = _fours(x)  # fours of units, in order from 0
    per_chunk = FAN  # partials per chunk of 16 units
    chunks = m // (FAN * per_chunk)
    if not rows:  # whole chunks only; the partials after them go one by one (below)
        sums = _fours(partials[: chunks * per_chunk]) if chunks else partials[:0]
        tail = list(partials[chunks * per_chunk :])
    else:  # every partial in a chunk; the last chunk's partials summed as one chunk
        sums, tail = _fours(partials), []
    # 4 chunks (64 units) to a block, each summed in order from 0, then Kahan
    blocks = list(_fours(sums)) if len(sums) else []
    if not blocks or len(sums) % FAN == 0:
        blocks.append(np.zeros(x.shape[1:], x.dtype))  # the flush at the end
    blocks[-1] = _in_order_list(tail, blocks[-1])
    return in_order(np.stack(blocks), axis=0) if rows else _kahan(blocks)


def _halves(x: np.ndarray) -> np.ndarray:
    """The lanes on axis 0 summed by halves (lane i with lane i + half)."""
    while x.shape[0] > 1:
        half = x.shape[0] // 2
        x = x[:half] + x[half:]
    return x[0]


def _ynn_layout(shape: tuple[int, ...], axes: tuple[int, ...]):
    """YNNPACK's split of the reduced `axes` of a C-contiguous `shape` (size-1 axes dropped):
    `(k1_axes, k2_axes, loop_axes)`, each in row-major order."""
    k1, k2, loops = [], [], []
    k1_size, k2_size, k2_stride = 1, 1, 0
    stride = 1
    for i in reversed(range(len(shape))):
        n = shape[i]
        if i in axes and n != 1:
            if k1_size == stride:
                k1.insert(0, i)
                k1_size *= n
            elif k2 and k2_stride * k2_size == stride:
                k2.insert(0, i)
                k2_size *= n
            elif not k2:
                k2.insert(0, i)
                k2_size, k2_stride = n, stride
            else:
                loops.insert(0, i)
        stride *= n
    return k1, k2, loops


def ynn_sum(x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    """`x` (float32, C order) summed over `axes` in YNNPACK's order (module docstring)."""
    ones = [a for a in axes if x.shape[a] == 1]
    if ones:  # reduced axes of size 1 add nothing: drop them before the layout
        keep = [i for i in range(x.ndim) if i not in ones]
        x = x.reshape([x.shape[i] for i in keep])
        axes = tuple(keep.index(a) for a in axes if a not in ones)
    k1, k2, loops = _ynn_layout(x.shape, tuple(axes))
    kept = [i for i in range(x.ndim) if i not in axes]
    out_shape = [x.shape[i] for i in kept]
    # kept axes first, then the looped reduced axes, then k2, then k1
    order = kept + loops + k2 + k1
    sizes = [math.prod(x.shape[i] for i in group) for group in (loops, k2, k1)]
    y = np.transpose(x, order).reshape([math.prod(out_shape), *sizes])
    calls = y.reshape(y.shape[0], sizes[0] * sizes[1], sizes[2])  # (out, call, k1)
    if sizes[2] > 1:
        lanes = VECTOR_BYTES // x.itemsize
        pad = -sizes[2] % lanes
        v = np.pad(calls, ((0, 0), (0, 0), (0, pad)))
        v = v.reshape(v.shape[0], v.shape[1], -1, lanes)  # (out, call, vector, lane)
        per_call = _halves(np.moveaxis(_cascade(np.moveaxis(v, 2, 0), False), -1, 0))
    else:  # k1 == 1: one call per loop index, each summing k2 by the cascade
        y = y.reshape(y.shape[0], sizes[0], sizes[1])
        per_call = _cascade(np.moveaxis(y, 2, 0), True)
    return in_order(per_call, axis=1).reshape(out_shape)


def uses_ynn(x: np.ndarray, axes: tuple[int, ...]) -> bool:
    """Whether XLA:CPU hands this sum to YNNPACK (float32, at least `YNN_MIN_SIZE` elements,
    at least one reduced axis longer than 1)."""
    return (
        x.dtype in (np.float32, np.float64)
        and x.size >= YNN_MIN_SIZE
        and any(x.shape[a] != 1 for a in axes)
    )


def xla_sum(x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    """`x` (float or complex, in its accumulation dtype) summed over `axes` in XLA:CPU's order:
    YNNPACK's for large float32 sums, XLA's windows otherwise (module docstring)."""
    axes = tuple(sorted(int(a) for a in axes))
    if not axes:
        return np.asarray(x + x.dtype.type(0))
    if x.size == 0:
        return np.zeros([n for i, n in enumerate(x.shape) if i not in axes], x.dtype)
    if uses_ynn(x, axes):
        return ynn_sum(np.ascontiguousarray(x), axes)
    return window_sum(x, axes)
