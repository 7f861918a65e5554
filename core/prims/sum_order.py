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
row-major order of the looped reduced axes, `k2` innermost. Inside a call (`tree`, YNNPACK's
`sum_float_k1`/`sum_float_kn_tile` kernels, as in google/XNNPACK's `ynnpack/kernels/reduce/
sum.h` of mid-2026), the units are, with `k1 > 1`, vectors of 64 bytes along the run (16
float32 or 8 float64 lanes; the last vector padded with zeros), summed lane by lane, and
with `k1 == 1` the rows of `k2` (each kept element its own sum). Four units at a time are
summed in order from 0 (a four; the last one partial, padded with zeros) and added to
accumulator 0. A clock counts `tick` per four (the lanes of a vector, or 4 for rows): while
whole chunks (4 fours) remain they are taken 4 fours at a time, the clock then advancing
4 ticks; whenever the clock is a multiple of 16, accumulator 0 is added to accumulator 1 and
cleared, and when it is a multiple of 256 accumulator 1 is added to the result with Kahan's
compensation (a compensation that is not finite is dropped) and cleared. At the end
accumulator 0 goes into 1 and 1 into the result so. So a float32 run's blocks are 4 chunks
(64 vectors), a float64 run's 8 (128 vectors), rows' 16 chunks (256 rows); the fours after
the last whole chunk move into accumulator 1 one by one (float32), two by two (float64) or
with the partial four (rows). A run's lanes are then summed by halves (lanes `i` and
`i + L/2`, ..., lanes 0 and 1).

More than `TILE_BYTES` (128 KB) of a call's input are cut into tiles (`tiling`): a tile takes
whole axes innermost first (a row's kept columns first) while they fit, then as many rows
of the next axis as fit; each tile is summed alone, and the tiles' sums (one per tile, or a
row of kept elements per tile), in row-major order, are summed again by the same kernel.

Checked against JAX on the CPU it ran on (AVX-512), float32 and float64 (the tests list the
cases): whole 1-D sums of any size, sums over the last axes, over leading axes (BatchNorm's
statistics), several axes, size-1 axes, tiled or not. Not yet matched: sums that YNNPACK
tiles across the calls of looped reduced axes or across outer kept axes (`(400, 3, 100)`
over axes 0 and 2, float64 `(4, 300, 128)` over axis 1) or whose kept row is wider than a
tile (`(8, 40000)` over axis 0): numbax tiles each call's run or rows alone.

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
# YNNPACK's clock period (`tree_shape`)
TICK = 16
# a contiguous run longer than this many bytes is summed in tiles (`run_sum`)
TILE_BYTES = 1 << 17


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


def _fours(x: np.ndarray, size: int = FAN) -> np.ndarray:
    """Consecutive groups of `size` (4 unless told) along axis 0 (the last one padded with
    zeros, which add nothing), each summed in order from 0."""
    pad = -x.shape[0] % size
    x = np.concatenate([x, np.zeros((pad,) + x.shape[1:], x.dtype)]) if pad else x
    groups = x.reshape((-1, size) + x.shape[1:])
    total = groups[:, 0] + x.dtype.type(0)
    for j in range(1, size):
        total = total + groups[:, j]
    return total


def _kahan(blocks: list) -> np.ndarray:
    """The `blocks` added one after the other from 0 with Kahan's compensation (a compensation
    that is not finite is dropped, as YNNPACK drops it)."""
    acc = np.zeros_like(blocks[0])
    err = np.zeros_like(acc)
    for b in blocks:
        y = b - err
        t = acc + y
        err = (t - acc) - y
        err = np.where(np.isfinite(err), err, 0).astype(acc.dtype)
        acc = t
    return acc


def _in_order_list(items: list, start: np.ndarray | None = None) -> np.ndarray:
    """The arrays `items` added one after the other, from `start` (else from 0)."""
    acc = np.zeros_like(items[0]) if start is None else start
    for item in items:
        acc = acc + item
    return acc


def tree(units: np.ndarray, whole: int, tick: int) -> np.ndarray:
    """The units on axis 0 (vectors or rows, padded with zeros to a multiple of 4) summed in
    the order of YNNPACK's float sum kernels (module docstring): `whole` whole fours (4 units
    summed in order from 0), the last four partial if the units go beyond them; each four
    adds `tick` to the kernel's clock. The fours' sums add into the chunk level while the
    clock is not a multiple of `TICK` (4 fours at a time in the first loop, over whole chunks),
    the chunk level into the block level when it is, the blocks into the result with Kahan's
    compensation when it is a multiple of `TICK**2`; at the end every level is flushed."""
    per_block = TICK * TICK // (FAN * tick)  # chunks per block
    per_group = max(1, TICK // tick)  # the fours after the whole chunks, moved so many at once
    fours = _fours(units)
    chunks = whole // FAN
    sums = _fours(fours[: chunks * FAN]) if chunks else fours[:0]
    blocks = list(_fours(sums, per_block))
    if len(sums) % per_block == 0:  # the chunks filled their blocks: the flush adds a new one
        blocks.append(np.zeros(units.shape[1:], units.dtype))
    rest = whole - chunks * FAN
    groups = list(_fours(fours[chunks * FAN : whole], per_group))
    if rest % per_group == 0:  # the last group was moved: the flush moves an empty one
        groups.append(np.zeros(units.shape[1:], units.dtype))
    if fours.shape[0] > whole:  # the partial four joins the last group
        groups[-1] = groups[-1] + fours[-1]
    blocks[-1] = _in_order_list(groups, blocks[-1])
    return _kahan(blocks)


def _halves(x: np.ndarray) -> np.ndarray:
    """The lanes on axis 0 summed by halves (lane i with lane i + half)."""
    while x.shape[0] > 1:
        half = x.shape[0] // 2
        x = x[:half] + x[half:]
    return x[0]


def tiling(sizes: list[int], itemsize: int) -> tuple[int, int]:
    """YNNPACK's tiles of a reduction over the row-major axes `sizes` (the last may be kept
    contiguous elements): `(segment, tile)`, the elements cut into segments of `segment`,
    each segment into tiles of `tile` (the last one shorter). A tile takes whole axes,
    innermost first, while they fit in `TILE_BYTES`, then as many rows of the next axis as
    fit (at least one); elements that fit are one tile."""
    room = TILE_BYTES // itemsize
    tile = 1
    for i in reversed(range(len(sizes))):
        if tile * sizes[i] > room:
            return math.prod(sizes[i:]), tile * max(1, room // tile)
        tile *= sizes[i]
    return tile, tile


def _tiled(x: np.ndarray, sizes: list[int], inner: int, one) -> np.ndarray:
    """`x` summed along axis 0, a reduction over the axes `sizes` (row-major) of `inner`
    contiguous elements each, by `one` (YNNPACK's kernel along axis 0) in YNNPACK's tiles
    (`tiling`; tiles of whole units of axis 0 only), whose sums, in row-major order, are
    summed by `one` again (untiled)."""
    segment, tile = tiling([*sizes, inner], x.itemsize)
    if tile == segment == x.shape[0] * inner or tile % inner:
        return one(x)
    segment, tile = segment // inner, tile // inner  # in units of axis 0
    seg = x.reshape(-1, segment, *x.shape[1:])
    whole = segment // tile * tile
    t = seg[:, :whole].reshape(seg.shape[0], -1, tile, *x.shape[1:])
    partials = [one(np.moveaxis(t, 2, 0))]
    if whole < segment:
        partials.append(one(np.moveaxis(seg[:, whole:], 1, 0))[:, None])
    partials = np.concatenate(partials, axis=1).reshape(-1, *x.shape[1:])
    return one(partials)


def rows_sum(x: np.ndarray, sizes: list[int], columns: int) -> np.ndarray:
    """`x` (rows, ...) summed along axis 0 as YNNPACK sums a reduction over evenly spaced
    axes (`sizes`, each row `columns` contiguous kept elements): fours of rows, each ticking
    4 (`tree`), in tiles (`_tiled`)."""
    return _tiled(x, sizes, columns, lambda y: tree(y, y.shape[0] // FAN, FAN))


def run_sum(x: np.ndarray, sizes: list[int]) -> np.ndarray:
    """`x` (elements, ...) summed along axis 0, a contiguous run of the axes `sizes`, as
    YNNPACK sums it (module docstring): vectors of `VECTOR_BYTES` (the last one padded with
    zeros), each four ticking its lanes (`tree`), the lanes summed by halves, in tiles
    (`_tiled`)."""
    lanes = VECTOR_BYTES // x.itemsize

    def one(y: np.ndarray) -> np.ndarray:
        v = np.pad(y, [(0, -y.shape[0] % lanes)] + [(0, 0)] * (y.ndim - 1))
        v = v.reshape(-1, lanes, *y.shape[1:])
        return _halves(tree(v, y.shape[0] // (FAN * lanes), lanes))

    return _tiled(x, sizes, 1, one)


def ynn_layout(shape: tuple[int, ...], axes: tuple[int, ...]):
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
    """`x` (float32 or float64, C order) summed over `axes` in YNNPACK's order (module
    docstring)."""
    ones = [a for a in axes if x.shape[a] == 1]
    if ones:  # reduced axes of size 1 add nothing: drop them before the layout
        keep = [i for i in range(x.ndim) if i not in ones]
        x = x.reshape([x.shape[i] for i in keep])
        axes = tuple(keep.index(a) for a in axes if a not in ones)
    k1, k2, loops = ynn_layout(x.shape, tuple(axes))
    kept = [i for i in range(x.ndim) if i not in axes]
    out_shape = [x.shape[i] for i in kept]
    # kept axes first, then the looped reduced axes, then k2, then k1
    order = kept + loops + k2 + k1
    sizes = [math.prod(x.shape[i] for i in group) for group in (loops, k2, k1)]
    y = np.transpose(x, order).reshape([math.prod(out_shape), *sizes])
    calls = y.reshape(y.shape[0], sizes[0] * sizes[1], sizes[2])  # (out, call, k1)
    if sizes[2] > 1:
        per_call = run_sum(np.moveaxis(calls, 2, 0), [x.shape[i] for i in k1])
    else:  # k1 == 1: one call per loop index, each summing k2 by the cascade
        y = y.reshape(y.shape[0], sizes[0], sizes[1])
        columns = math.prod(x.shape[k2[-1] + 1 :]) if k2 else 1
        per_call = rows_sum(np.moveaxis(y, 2, 0), [x.shape[i] for i in k2], columns)
    return in_order(per_call, axis=1).reshape(out_shape)


def uses_ynn(dtype: np.dtype, shape: tuple[int, ...], axes: tuple[int, ...]) -> bool:
    """Whether XLA:CPU hands the sum over `axes` of an array of `dtype` and `shape` to YNNPACK
    (float32 or float64, at least `YNN_MIN_SIZE` elements, a reduced axis longer than 1)."""
    return (
        dtype in (np.float32, np.float64)
        and math.prod(shape) >= YNN_MIN_SIZE
        and any(shape[a] != 1 for a in axes)
    )


def xla_sum(x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    """`x` (float or complex, in its accumulation dtype) summed over `axes` in XLA:CPU's order:
    YNNPACK's for large float32 and float64 sums, XLA's windows otherwise (module docstring)."""
    axes = tuple(sorted(int(a) for a in axes))
    if not axes:
        return np.asarray(x + x.dtype.type(0))
    if x.size == 0:
        return np.zeros([n for i, n in enumerate(x.shape) if i not in axes], x.dtype)
    if uses_ynn(x.dtype, x.shape, axes):
        return ynn_sum(np.ascontiguousarray(x), axes)
    return window_sum(x, axes)
