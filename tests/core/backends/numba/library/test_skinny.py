"""Products with few rows (core/backends/numba/library/skinny.py): `skinny_dot` against numpy
in both float dtypes, over tile edges (odd rows, columns past the last whole tile, short
sums), the same bits on one thread and on two, and the kernels that use it (`lib.skinny_dot`
for a product of few rows with a transposed operand, BLAS otherwise)."""

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


@pytest.mark.parametrize("rows", [SKINNY_ROWS, SKINNY_ROWS + 1])
def test_loops_use_it_for_few_rows_and_a_transposed_operand(rows):
    """Inside a loop (a scan's per-step product) few rows times a transposed operand take the
    skinny path; a product of the kernel's own stays one BLAS call whatever its rows, so a
    batch of 16 and one of 32 share their kernels."""
    x = rng.standard_normal((rows, 40)).astype(np.float32)
    w = rng.standard_normal((40, 40)).astype(np.float32)
    v = rng.standard_normal((40, 24)).astype(np.float32)

    def f(x, w, v):
        def body(h, _):
            return jnp.tanh(h @ w.T), ()  # w stored as rows of the product's columns

        h, _ = lax.scan(body, x, None, length=3)
        return h, x @ w.T, x @ v

    compare(f, x, w, v)
    source = "".join(src for src, _ in split_kernels(f, (x, w, v)))
    assert source.count("lib.skinny_dot__f4(") == (rows <= SKINNY_ROWS)
    assert source.count("lib.dot(") == 2 + (rows > SKINNY_ROWS)
