"""Products with few rows, `out = a @ bt.T` as dot products of contiguous rows, without BLAS.

A recurrent network's step multiplies a small batch of states by a large weight matrix: the
LSTM benchmark's (16, 256) x (256, 256) per gate and step. OpenBLAS packs the whole weight
matrix into its panel layout for each call, work that 16 rows of output cannot amortize: it ran
these products at about 50 GFLOP/s on this machine (one core), against 70-95 for a loop that
reads the weights in place, as rows of `bt` (the weights transposed, `(n, k)`), and keeps a
tile of 2 x 4 outputs in registers: each of the 8 sums is a vector accumulator over the
contiguous `k` axis (`_mul_add`: reassociable, so LLVM vectorizes the sum, and contractible,
so each step is one fused multiply-add), and each loaded vector feeds 2 or 4 of them.

`skinny_dot` shares the columns between the caller's share of numba's pool once the product
has `SPLIT_FLOPS` multiply-adds, in chunks of whole tiles: each output element is computed by
the same code, in the same order, whatever the number of threads, so the result does not
depend on it. Below that, or with one thread, it runs on the calling thread. The lowering of
`dot_general` uses it for products with at most `SKINNY_ROWS` rows whose second operand is
stored as `bt` (`core/backends/numba/rules/linalg.py`); scans transpose their weights once
before the loop to get there (`core/jit/scan_motion.py`).
"""

from __future__ import annotations

import numpy as np
from numba.extending import intrinsic

from core.backends.numba.library.entry import RUNNER, callee, dispatcher, in_parts, register
from core.jit import runtime as rt

# Real products with at most this many rows whose second operand is stored transposed run here
# instead of BLAS (the lowering of `dot_general`; scans transpose their weights for it).
SKINNY_ROWS = 16
# Products of at least this many multiply-adds (about 10 us on one core here) share their
# columns between threads: a hand-off to a woken TBB worker costs 1-2 us.
SPLIT_FLOPS = 1 << 19
# Each thread's chunk of columns is at least this wide (a multiple of the tile's 4 columns).
MIN_COLUMNS = 32


@intrinsic
def _mul_add(typingctx, acc, x, y):
    """`acc + x * y`, reassociable (so a sum of them vectorizes) and contractible (one fused
    multiply-add: `vm.radd(acc, x * y)` compiled to a multiply and an add, half the rate)."""

    def codegen(context, builder, signature, args):
        product = builder.fmul(args[1], args[2], flags=("reassoc", "contract"))
        return builder.fadd(args[0], product, flags=("reassoc", "contract"))

    return acc(acc, x, y), codegen


@register("a a a p", calls=("skinny_columns", "skinny_part", RUNNER))
def skinny_dot(a, bt, out, p):
    """`out = a @ bt.T` with a (m, k), bt (n, k) and out (m, n) flat C-contiguous arrays,
    p = (m, k, n): the columns split between the caller's share of the pool (whole 4-column
    tiles per thread, at least `MIN_COLUMNS`) from `SPLIT_FLOPS` multiply-adds on."""
    m, k, n = p[0], p[1], p[2]
    tiles = (n + 3) // 4
    parts = min(rt.threads(), max(1, n // MIN_COLUMNS))
    if parts < 2 or m * k * n < SPLIT_FLOPS:
        _columns(a, bt, out, p, 0, n)
        return
    _in_parts(parts, a, bt, out, p, -(-tiles // parts) * 4)


@register("a a a p i i", calls=("skinny_columns",))
def skinny_part(a, bt, out, p, width, t):
    """`skinny_dot`'s part t: columns t * width.. (t + 1) * width (`skinny_columns`)."""
    _columns(a, bt, out, p, t * width, min(p[2], (t + 1) * width))


@register("a a a p i i", optimized=True)  # quick code ran the LSTM step 15x slower
def skinny_columns(a, bt, out, p, lo, hi):
    """`out[:, lo:hi] = a @ bt[lo:hi].T` (see `skinny_dot`; scans' chunks of rows call it too,
    `core/backends/numba/scan_rows.py`): tiles of 2 rows x 4 columns, then the odd row, then
    the columns past the last whole tile one at a time."""
    m, k, n = p[0], p[1], p[2]
    zero = a.dtype.type(0)
    j = lo
    while j + 4 <= hi:
        b0, b1, b2, b3 = j * k, (j + 1) * k, (j + 2) * k, (j + 3) * k
        i = 0
        while i + 2 <= m:
            r0, r1 = i * k, (i + 1) * k
            s00 = s01 = s02 = s03 = s10 = s11 = s12 = s13 = zero
            for q in range(k):
                x0, x1 = rt.ld(a, r0 + q), rt.ld(a, r1 + q)
                y0, y1 = rt.ld(bt, b0 + q), rt.ld(bt, b1 + q)
                y2, y3 = rt.ld(bt, b2 + q), rt.ld(bt, b3 + q)
                s00, s01 = _mul_add(s00, x0, y0), _mul_add(s01, x0, y1)
                s02, s03 = _mul_add(s02, x0, y2), _mul_add(s03, x0, y3)
                s10, s11 = _mul_add(s10, x1, y0), _mul_add(s11, x1, y1)
                s12, s13 = _mul_add(s12, x1, y2), _mul_add(s13, x1, y3)
            o0, o1 = i * n + j, (i + 1) * n + j
            rt.st(out, o0, s00)
            rt.st(out, o0 + 1, s01)
            rt.st(out, o0 + 2, s02)
            rt.st(out, o0 + 3, s03)
            rt.st(out, o1, s10)
            rt.st(out, o1 + 1, s11)
            rt.st(out, o1 + 2, s12)
            rt.st(out, o1 + 3, s13)
            i += 2
        if i < m:
            r0 = i * k
            s00 = s01 = s02 = s03 = zero
            for q in range(k):
                x0 = rt.ld(a, r0 + q)
                s00 = _mul_add(s00, x0, rt.ld(bt, b0 + q))
                s01 = _mul_add(s01, x0, rt.ld(bt, b1 + q))
                s02 = _mul_add(s02, x0, rt.ld(bt, b2 + q))
                s03 = _mul_add(s03, x0, rt.ld(bt, b3 + q))
            o0 = i * n + j
            rt.st(out, o0, s00)
            rt.st(out, o0 + 1, s01)
            rt.st(out, o0 + 2, s02)
            rt.st(out, o0 + 3, s03)
        j += 4
    for jj in range(j, hi):
        for i in range(m):
            s = zero
            for q in range(k):
                s = _mul_add(s, rt.ld(a, i * k + q), rt.ld(bt, jj * k + q))
            rt.st(out, i * n + jj, s)


_columns = callee("skinny_columns")
_in_parts = in_parts("skinny_part")


def dot_nt(a: np.ndarray, bt: np.ndarray, out: np.ndarray) -> None:
    """`out[...] = a @ bt.T` by `skinny_dot`, from Python (tests and benchmarks).

    Args:
      a: an (m, k) C-contiguous float matrix.
      bt: an (n, k) C-contiguous matrix of the same dtype.
      out: the (m, n) C-contiguous result, written in place.
    """
    p = np.array([a.shape[0], a.shape[1], bt.shape[0]], np.int64)
    dispatcher(f"skinny_dot__{out.dtype.str[1:]}")(a.ravel(), bt.ravel(), out.reshape(-1), p)
