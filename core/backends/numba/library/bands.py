"""The threaded matrix products of generated kernels: `lib.dot`'s bands on numba's pool, and
batched products (`gemm_batched`, core/jit/bgemm.py).

`lib.dot` (`products.py`) runs a large product as `parts` single-threaded BLAS calls on
bands of rows (or columns) under `prange`. That loop is a library function, compiled once per
dtype, which kernels call through its symbol: linked into each kernel as a numba function, its
parallel code (1,200 lines of LLVM IR) was optimized and compiled again for every kernel with a
matrix product (0.15 s of compile each; 0.6-1 s for the transformer's attention kernels).
"""

from __future__ import annotations

import numpy as np
from numba import prange
from numba.np.ufunc import parallel

from core.backends.numba.library.entry import register
from core.jit.bgemm import runs, strided_block
from core.jit.gemm import flat_block


@register("a a a p", parallel=True)
def gemm_bands(a, b, out, p):
    """`out = a @ b` as `p[5]` gemm calls on bands of rows (`p[6]` != 0) or of columns. `a`
    (m, k) and `b` (k, n) are flat buffers stored C- or F-contiguously (`p[3]`, `p[4]` != 0:
    Fortran order), `out` is a flat C-contiguous (m, n); `p[:3]` = (m, k, n)."""
    m, n = p[0], p[2]
    dims = (m, p[1], n)
    fortran = (np.int8(p[3]), np.int8(p[4]))
    parts, by_rows = p[5], p[6] != 0
    size = m if by_rows else n
    step = -(-size // parts)
    for t in prange(parts):
        lo = t * step
        hi = min(size, lo + step)
        if by_rows:
            flat_block(a, b, out, dims, fortran, lo, hi, 0, n)
        else:
            flat_block(a, b, out, dims, fortran, 0, m, lo, hi)


@register("a p a p a p", parallel=True)
def gemm_batched(x, xo, y, yo, out, p):
    """`out[i] = X_i @ Y_i` for the batch elements i < len(xo) (`bgemm.strided_block`: `xo`,
    `yo` the offsets of the matrices in flat `x`, `y`; p = (m, k, n, ldx, ldy, x transposed,
    y transposed)), in contiguous runs on the caller's share of numba's pool (`bgemm.runs`)."""
    nb = xo.shape[0]
    parts = runs(nb * p[0] * p[1] * p[2], nb, parallel._iget_num_threads())
    if parts == 1:
        for i in range(nb):
            strided_block(x, xo, y, yo, out, i, p)
        return
    step = -(-nb // parts)
    for t in prange(parts):
        for i in range(t * step, min(nb, (t + 1) * step)):
            strided_block(x, xo, y, yo, out, i, p)
