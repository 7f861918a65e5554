"""The threaded matrix products of generated kernels: `lib.dot`'s bands on numba's pool, and
batched products (`gemm_batched`, core/jit/bgemm.py).

`lib.dot` (`products.py`) runs a large product as single-threaded BLAS calls on bands of rows
(or columns), taken dynamically by the caller's share of the pool (`run_parts`,
`core/jit/schedule.py`). That loop is a library function, compiled once per dtype, which
kernels call through its symbol: linked into each kernel as a numba function, its parallel
code (1,200 lines of LLVM IR) was optimized and compiled again for every kernel with a matrix
product (0.15 s of compile each; 0.6-1 s for the transformer's attention kernels).
"""

from __future__ import annotations

import numpy as np
from numba.extending import register_jitable

from core.backends.numba.library.entry import RUNNER, in_parts, register
from core.jit.bgemm import runs, strided_block
from core.jit.gemm import flat_block, flat_slab
from core.jit.schedule import parts

# A band is at least this many rows (or columns) wide: each band's BLAS call packs the other
# operand anew, which costs 10-25% of a 64-row band's product here (1024x128x512, 1024x512x128).
BAND = 128
# Over a contraction of at least `LONG_K`, the other operand packed anew costs more: a
# 256x1024x1024 product (an LSTM's weight gradient over 1024 steps and rows) took 8.2 ms of one
# core in 8 bands of 128 columns against 6.1 ms in one call, 6.2 ms in 2 bands; a 1024^3 one 25
# ms in bands of 128 rows, 22 ms in one call. Bands are then at least `WIDE_BAND` wide where
# that leaves two (narrower products keep their bands: two or more of `BAND`).
LONG_K = 1024
WIDE_BAND = 512
# ... where the operand each band packs anew has at least this many elements: an LSTM's input
# weight gradient (64x1024x1024) and input gradient (1024x1024x64) pack 64K elements a band,
# nothing against a band's 16M multiply-adds, and keep `schedule.parts`' four bands: next to
# a busy process a caller then waits for a quarter of the product that a preempted worker
# holds, not for half of it.
REPACKED = 1 << 17
# Over a shorter contraction a band may be `SHORT_BAND` rows (or columns) wide, so that a
# product of 128-255 rows has two: the MLP step's 128x784x128 `x @ W1` (12.8M multiply-adds,
# a third of the step's products) ran on one thread while the step's other core idled. Two
# 64-row bands cost 3-5% more than one call on one thread; on two the step takes 13% less
# when the VM's vCPUs share data quickly and 28% more when they do not (JAX's step then
# takes 1.9x as long; bench/README.md, 2026-12-05, session 37).
SHORT_BAND = 64
# A product too narrow and short for two bands over a contraction of `LONG_K` or more (an
# attention projection's weight gradient, 128x1024x128: it ran on one thread) is cut along its
# contraction instead, into slabs of at least this many (`slab_plan`): each slab's product into
# a buffer of its own, added in slab order (the same sums on any thread count). Slabs pack
# disjoint pieces of both operands, so they cost one call's packing, unlike bands. Shorter
# contractions stay one call: the MLP step's 128x784x128 product in two slabs took 1.5% more
# wall and 3.7% more CPU per step (hand-off and sum against half of a 12.8M product).
SLAB = 256


@register_jitable
def band_plan(m, k, n):
    """How `gemm_bands` cuts an (m, k) @ (k, n) product: `(bands, width, by_rows)`, bands of
    `width` rows when the output is at least as tall as wide, else of columns
    (`schedule.parts` of at least `BAND`, `SHORT_BAND` over a contraction shorter than
    `LONG_K`; of `WIDE_BAND` over a contraction of `LONG_K` when two such bands fit and each
    packs `REPACKED` elements or more; the last band may be narrower). The sizes decide, not
    the thread count."""
    by_rows = m >= n
    size = m if by_rows else n
    count = parts(m * k * n, size, BAND if k >= LONG_K else SHORT_BAND)
    repacked = k * n if by_rows else m * k
    if k >= LONG_K and size >= 2 * WIDE_BAND and repacked >= REPACKED:
        count = min(count, size // WIDE_BAND)
    width = -(-size // count)
    return -(-size // width), width, by_rows


@register_jitable
def slab_plan(m, k, n):
    """How `gemm_bands` cuts a product that `band_plan` leaves whole along its contraction:
    `(slabs, depth)`, slabs of `depth` (`schedule.parts` of at least `SLAB`; the last may be
    shallower), one slab where it cuts bands or the contraction is shorter than `LONG_K`."""
    if k < LONG_K or band_plan(m, k, n)[0] > 1:
        return 1, k
    depth = -(-k // parts(m * k * n, k, SLAB))
    return -(-k // depth), depth


@register("a a a p", calls=("gemm_band", "gemm_slab", RUNNER))
def gemm_bands(a, b, out, p):
    """`out = a @ b` as one gemm call per band (`band_plan`), the bands taken dynamically by
    the caller's share of numba's pool (`gemm_band` each). `a` (m, k) and `b` (k, n) are flat
    buffers stored C- or F-contiguously (`p[3]`, `p[4]` != 0: Fortran order), `out` is a flat
    C-contiguous (m, n); `p[:3]` = (m, k, n). A product that is one band runs as slabs of
    its contraction (`slab_plan`) instead where it has them."""
    slabs = slab_plan(p[0], p[1], p[2])[0]
    if slabs < 2:
        _bands(band_plan(p[0], p[1], p[2])[0], a, b, out, p)
        return
    size = p[0] * p[2]
    partial = np.empty((slabs - 1) * size, out.dtype)
    _slabs(slabs, a, b, out, partial, p)
    for t in range(slabs - 1):
        for i in range(size):
            out[i] += partial[t * size + i]


@register("a a a p i")
def gemm_band(a, b, out, p, t):
    """Band t of `gemm_bands`' product (`band_plan`): one gemm call."""
    dims = (p[0], p[1], p[2])
    fortran = (np.int8(p[3]), np.int8(p[4]))
    _, width, by_rows = band_plan(p[0], p[1], p[2])
    lo = t * width
    if by_rows:
        flat_block(a, b, out, dims, fortran, lo, min(p[0], lo + width), 0, p[2])
    else:
        flat_block(a, b, out, dims, fortran, 0, p[0], lo, min(p[2], lo + width))


_bands = in_parts("gemm_band")


@register("a a a a p i")
def gemm_slab(a, b, out, partial, p, t):
    """Slab t of `gemm_bands`' product (`slab_plan`): one gemm call into `out` (slab 0) or
    into its piece of `partial` (the others)."""
    dims = (p[0], p[1], p[2])
    fortran = (np.int8(p[3]), np.int8(p[4]))
    depth = slab_plan(p[0], p[1], p[2])[1]
    size = p[0] * p[2]
    target = out if t == 0 else partial[(t - 1) * size : t * size]
    flat_slab(a, b, target, dims, fortran, t * depth, min(p[1], (t + 1) * depth))


_slabs = in_parts("gemm_slab")


@register("a p a p a p", calls=("gemm_batched_run", RUNNER))
def gemm_batched(x, xo, y, yo, out, p):
    """`out[i] = X_i @ Y_i` for the batch elements i < len(xo) (`bgemm.strided_block`: `xo`,
    `yo` the offsets of the matrices in flat `x`, `y`; p = (m, k, n, ldx, ldy, x transposed,
    y transposed)), in contiguous runs (`bgemm.runs`, `gemm_batched_run` each) taken
    dynamically by the caller's share of numba's pool."""
    _runs(runs(xo.shape[0] * p[0] * p[1] * p[2], xo.shape[0]), x, xo, y, yo, out, p)


@register("a p a p a p i")
def gemm_batched_run(x, xo, y, yo, out, p, t):
    """Run t of `gemm_batched`'s batch elements (`bgemm.runs`): one BLAS call each."""
    nb = xo.shape[0]
    step = -(-nb // runs(nb * p[0] * p[1] * p[2], nb))
    for i in range(t * step, min(nb, (t + 1) * step)):
        strided_block(x, xo, y, yo, out, i, p)


_runs = in_parts("gemm_batched_run")
