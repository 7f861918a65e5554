"""The threaded matrix products of generated kernels: `lib.dot`'s bands on numba's pool, and
batched products (`gemm_batched`, core/jit/bgemm.py).

`lib.dot` (`products.py`) runs a large product as single-threaded BLAS calls on bands of rows
(or columns) under `prange`, taken dynamically by the caller's share of the pool
(`core/jit/schedule.py`). That loop is a library function, compiled once per dtype, which
kernels call through its symbol: linked into each kernel as a numba function, its parallel
code (1,200 lines of LLVM IR) was optimized and compiled again for every kernel with a matrix
product (0.15 s of compile each; 0.6-1 s for the transformer's attention kernels).
"""

from __future__ import annotations

import numpy as np
from numba import prange
from numba.extending import register_jitable
from numba.np.ufunc import parallel

from core.backends.numba.library.entry import register
from core.jit.bgemm import runs, strided_block
from core.jit.gemm import flat_block
from core.jit.schedule import dynamic, parts

# A band is at least this many rows (or columns) wide: each band's BLAS call packs the other
# operand anew, which costs 10-25% of a 64-row band's product here (1024x128x512, 1024x512x128).
BAND = 128


@register_jitable
def band_plan(m, k, n):
    """How `gemm_bands` cuts an (m, k) @ (k, n) product: `(bands, width, by_rows)`, bands of
    `width` rows when the output is at least as tall as wide, else of columns
    (`schedule.parts` of at least `BAND`; the last band may be narrower). The sizes decide, not
    the thread count."""
    by_rows = m >= n
    size = m if by_rows else n
    width = -(-size // parts(m * k * n, size, BAND))
    return -(-size // width), width, by_rows


@register_jitable
def _band(a, b, out, dims, fortran, by_rows, lo, hi):
    if by_rows:
        flat_block(a, b, out, dims, fortran, lo, hi, 0, dims[2])
    else:
        flat_block(a, b, out, dims, fortran, 0, dims[0], lo, hi)


@register("a a a p", parallel=True)
def gemm_bands(a, b, out, p):
    """`out = a @ b` as one gemm call per band (`band_plan`), the bands taken dynamically by
    the caller's share of numba's pool. `a` (m, k) and `b` (k, n) are flat buffers stored C- or
    F-contiguously (`p[3]`, `p[4]` != 0: Fortran order), `out` is a flat C-contiguous (m, n);
    `p[:3]` = (m, k, n)."""
    dims = (p[0], p[1], p[2])
    fortran = (np.int8(p[3]), np.int8(p[4]))
    nb, width, by_rows = band_plan(p[0], p[1], p[2])
    size = p[0] if by_rows else p[2]
    if nb == 1 or parallel._iget_num_threads() == 1:  # no parallel region for one thread
        for t in range(nb):
            _band(a, b, out, dims, fortran, by_rows, t * width, min(size, (t + 1) * width))
        return
    old = dynamic(1)
    for t in prange(nb):
        _band(a, b, out, dims, fortran, by_rows, t * width, min(size, (t + 1) * width))
    dynamic(old)


@register("a p a p a p", parallel=True)
def gemm_batched(x, xo, y, yo, out, p):
    """`out[i] = X_i @ Y_i` for the batch elements i < len(xo) (`bgemm.strided_block`: `xo`,
    `yo` the offsets of the matrices in flat `x`, `y`; p = (m, k, n, ldx, ldy, x transposed,
    y transposed)), in contiguous runs (`bgemm.runs`) taken dynamically by the caller's share
    of numba's pool."""
    nb = xo.shape[0]
    nr = runs(nb * p[0] * p[1] * p[2], nb)
    if nr == 1 or parallel._iget_num_threads() == 1:
        for i in range(nb):
            strided_block(x, xo, y, yo, out, i, p)
        return
    step = -(-nb // nr)
    old = dynamic(1)
    for t in prange(nr):
        for i in range(t * step, min(nb, (t + 1) * step)):
            strided_block(x, xo, y, yo, out, i, p)
    dynamic(old)
