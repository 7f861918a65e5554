"""Products with few rows (core/backends/numba/library/skinny.py): `skinny_dot` and
`skinny_nn` against numpy in both float dtypes, over tile edges (odd rows, columns past the
last whole tile, short sums), the same bits on one thread and on two and for any split of the
rows, and the kernels that use them (in loops, `lib.skinny_nn` for few rows times an operand
stored untransposed, `lib.skinny_dot` for one stored transposed; anywhere `lib.skinny_nn` for
a short contraction; BLAS otherwise)."""

import numba
import numpy as np
import pytest

import core.numpy as jnp
from core import lax
from core.backends.numba.library import skinny
from core.backends.numba.library.skinny import SKINNY_ROWS
from tests.core.jit.backends import compare, split_kernels

rng = np.random.default_rng(0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("m, k, n", [(16, 256, 256), (5, 3, 7), (1, 33, 4), (16, 64, 1030)])
def test_skinny_dot_matches_numpy(dtype, m, k, n):
    a = rng.standard_normal((m, k)).astype(dtype)
    bt = rng.standard_normal((n, k)).astype(dtype)
    out = np.full((m, n), np.nan, dtype)
    skinny.dot_nt(a, bt, out)
    tol = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(out, a @ bt.T, rtol=tol, atol=tol * np.sqrt(k))


def test_skinny_dot_does_not_depend_on_the_thread_count():
    """The columns are shared out in whole tiles, each element computed by the same code."""
    a = rng.standard_normal((16, 256)).astype(np.float32)
    bt = rng.standard_normal((1030, 256)).astype(np.float32)
    outs = []
    before = numba.get_num_threads()
    try:
        for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
            numba.set_num_threads(threads)
            out = np.empty((16, 1030), np.float32)
            skinny.dot_nt(a, bt, out)
            outs.append(out)
    finally:
        numba.set_num_threads(before)
    np.testing.assert_array_equal(outs[0], outs[-1])


# (m, k, n): whole tiles of 8 rows and 2 vectors; each smaller row tile (4, 2, 1); one vector
# and single columns past the last wide tile; a contraction of 1; the LSTM's two products
ROWS_FORM = [
    (16, 256, 1024),
    (15, 7, 64),
    (3, 33, 17),
    (1, 1, 1),
    (9, 5, 47),
    (13, 1, 100),
    (8, 1024, 256),
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("m, k, n", ROWS_FORM)
def test_skinny_nn_matches_numpy(dtype, m, k, n):
    a = rng.standard_normal((m, k)).astype(dtype)
    b = rng.standard_normal((k, n)).astype(dtype)
    out = np.full((m, n), np.nan, dtype)
    skinny.dot_nn(a, b, out)
    tol = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(out, a @ b, rtol=tol, atol=tol * np.sqrt(k))


@pytest.mark.parametrize("m, k, n", [(16, 256, 1030), (15, 40, 77)])
def test_skinny_nn_does_not_depend_on_threads_or_row_splits(m, k, n):
    """Every element is one chain of fused multiply-adds in the contraction's order: the same
    bits whichever threads take the columns and whichever tiles take the rows (a scan's chunks
    of rows against its whole batch)."""
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    outs = []
    before = numba.get_num_threads()
    try:
        for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
            numba.set_num_threads(threads)
            out = np.empty((m, n), np.float32)
            skinny.dot_nn(a, b, out)
            outs.append(out)
    finally:
        numba.set_num_threads(before)
    for rows in (1, 2, 3, 5, 8):
        out = np.empty((m, n), np.float32)
        for lo in range(0, m, rows):
            part = np.empty((min(m, lo + rows) - lo, n), np.float32)
            skinny.dot_nn(np.ascontiguousarray(a[lo : lo + rows]), b, part)
            out[lo : lo + rows] = part
        outs.append(out)
    for out in outs[1:]:
        np.testing.assert_array_equal(outs[0], out)


@pytest.mark.parametrize("rows", [SKINNY_ROWS, SKINNY_ROWS + 1])
def test_loops_use_them_for_few_rows(rows):
    """Inside a loop (a scan's per-step product) few rows times a weight run as `lib.skinny_nn`
    (a const the product contracts over its second axis is transposed once before the loop to
    be one, `core/jit/scan_motion.py`), times a carried operand used transposed as
    `lib.skinny_dot`;
    a product of the kernel's own stays one BLAS call whatever its rows, so a batch of 16 and
    one of 32 share their kernels."""
    x = rng.standard_normal((rows, 40)).astype(np.float32)
    w = (rng.standard_normal((40, 40)) * 0.2).astype(np.float32)
    v = rng.standard_normal((40, 24)).astype(np.float32)

    def f(x, w, v):
        def body(carry, _):
            h, m = carry
            return (jnp.tanh(h @ w) + jnp.tanh(h @ m.T), m * 0.5), ()

        (h, _), _ = lax.scan(body, (x, w), None, length=3)
        return h, x @ w.T, x @ v

    compare(f, x, w, v)
    source = "".join(src for src, _ in split_kernels(f, (x, w, v)))
    assert source.count("lib.skinny_nn__f4(") == (rows <= SKINNY_ROWS)
    assert source.count("lib.skinny_dot__f4(") == (rows <= SKINNY_ROWS)
    assert source.count("lib.dot(") == 2 + 2 * (rows > SKINNY_ROWS)


# (k, n, y transposed, expected): a short contraction into whole vectors of columns takes the
# register tiles at the kernel's own level, whatever its rows; longer ones, ragged or narrow
# columns and a transposed operand stay BLAS
SHORT = [
    (64, 128, False, "lib.skinny_nn__f4("),
    (16, 48, False, "lib.skinny_nn__f4("),
    (65, 128, False, "lib.dot("),
    (64, 100, False, "lib.dot("),
    (64, 8, False, "lib.dot("),
    (64, 128, True, "lib.dot("),
]


@pytest.mark.parametrize("k, n, transposed, call", SHORT)
def test_short_contractions_use_register_tiles(k, n, transposed, call):
    x = rng.standard_normal((40, k)).astype(np.float32)
    w = rng.standard_normal((n, k) if transposed else (k, n)).astype(np.float32)

    def f(x, w):
        return jnp.tanh((x @ w.T if transposed else x @ w) * 0.1)

    compare(f, x, w)
    source = "".join(src for src, _ in split_kernels(f, (x, w)))
    assert call in source
