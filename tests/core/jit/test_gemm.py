"""Matrix products of generated kernels (core/jit/gemm.py) against numpy: one BLAS call per
block of rows or columns, both operand layouts, every BLAS dtype, empty and k == 0 products,
and the same results whether a product runs on one thread or as blocks on several."""

import numba
import numpy as np
import pytest

import core
import core.numpy as jnp
from core.backends.numba.library import products
from core.jit import gemm
from core.jit import runtime as rt

_TOL = {np.float32: 1e-4, np.float64: 1e-12, np.complex64: 1e-4, np.complex128: 1e-12}


@numba.njit
def _block(a, b, out, r0, r1, c0, c1):
    gemm.gemm_block(a, b, out, r0, r1, c0, c1)


def _operands(m, k, n, dtype, layouts, seed=0):
    rng = np.random.default_rng(seed)
    a, b = (
        rng.standard_normal(s) + (1j * rng.standard_normal(s) if dtype().dtype.kind == "c" else 0)
        for s in ((m, k), (k, n))
    )
    a, b = a.astype(dtype), b.astype(dtype)
    return tuple(np.asfortranarray(x) if lay == "F" else x for x, lay in zip((a, b), layouts))


@pytest.mark.parametrize("dtype", list(_TOL))
@pytest.mark.parametrize("layouts", ["CC", "CF", "FC", "FF"])
def test_a_block_is_that_block_of_the_product(dtype, layouts):
    a, b = _operands(37, 19, 23, dtype, layouts)
    want = a.astype(np.complex128) @ b
    out = np.full((37, 23), 7, dtype)
    _block(a, b, out, 5, 30, 3, 17)
    np.testing.assert_allclose(
        out[5:30, 3:17], want[5:30, 3:17], rtol=_TOL[dtype], atol=_TOL[dtype]
    )
    untouched = np.ones(out.shape, bool)
    untouched[5:30, 3:17] = False
    assert (out[untouched] == 7).all()


@pytest.mark.parametrize("parts", [1, 2, 3, 8])
@pytest.mark.parametrize("by_rows", [True, False])
@pytest.mark.parametrize("layouts", ["CC", "FC", "CF"])
def test_blocks_cover_the_product(parts, by_rows, layouts):
    a, b = _operands(50, 31, 41, np.float64, layouts)
    out = np.full((50, 41), np.nan)
    products.blocks(a, b, out, parts, by_rows)
    np.testing.assert_allclose(out, a @ b, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(("m", "k", "n"), [(0, 3, 4), (3, 0, 4), (3, 4, 0), (1, 1, 1)])
def test_empty_products(m, k, n):
    a, b = _operands(m, k, n, np.float32, "CC")
    out = np.full((m, n), np.nan, np.float32)
    products.blocks(a, b, out, 2, True)
    np.testing.assert_array_equal(out, a @ b)


@pytest.mark.parametrize(
    ("m", "n", "k", "threads", "want"),
    [
        (128, 128, 128, 2, 1),  # 2.1M multiply-adds: one call
        (16, 1024, 256, 2, 1),  # 4.2M (an LSTM step's product): one call
        (256, 256, 256, 2, 2),  # 16.8M
        (256, 256, 256, 1, 1),
        (32, 2048, 256, 2, 2),  # wide: bands of columns
        (40, 40, 8192, 4, 1),  # no band of 32 rows or columns to give a second thread
        (1024, 512, 128, 8, 8),
    ],
)
def test_split(m, n, k, threads, want):
    assert gemm.split(m * n * k, max(m, n) // gemm.BAND, threads) == want


@pytest.mark.parametrize("shape", [(256, 300, 200), (32, 256, 2048)])
def test_jitted_products_agree_on_one_and_several_threads(shape):
    m, k, n = shape
    a, b = _operands(m, k, n, np.float32, "CC", seed=1)
    f = core.jit(lambda x, y: jnp.dot(x, y) * 0.5)
    want = (a.astype(np.float64) @ b) * 0.5
    several = np.asarray(f(a, b))
    numba.set_num_threads(1)
    try:
        one = np.asarray(f(a, b))
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    for got in (several, one):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-3)
    np.testing.assert_allclose(several, one, rtol=1e-5, atol=1e-5)


@numba.njit(parallel=True)
def _chunked_product(a, b, out, rows):
    """Library code's pattern: independent chunks of rows under `prange`, as many workers as
    `rt.workers` says, each chunk one `rt.gemm_block` call on the worker's thread."""
    m = a.shape[0]
    chunks = -(-m // rows)
    nw = rt.workers(m * b.shape[0] * b.shape[1], chunks)
    for w in numba.prange(nw):
        for c in range(w, chunks, nw):
            rt.gemm_block(a, b, out, c * rows, min(m, (c + 1) * rows), 0, out.shape[1])
    return nw


def test_library_code_runs_chunks_on_the_callers_share_of_the_pool():
    a, b = _operands(300, 200, 150, np.float64, "CC")
    out = np.full((300, 150), np.nan)
    assert _chunked_product(a, b, out, 64) == 2  # 9M multiply-adds, 5 chunks, 2 threads
    np.testing.assert_allclose(out, a @ b, rtol=1e-12, atol=1e-12)
    numba.set_num_threads(1)
    try:
        out[:] = np.nan
        assert _chunked_product(a, b, out, 64) == 1
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    np.testing.assert_allclose(out, a @ b, rtol=1e-12, atol=1e-12)
