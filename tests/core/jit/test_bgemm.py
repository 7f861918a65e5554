"""Batched products of generated kernels (core/jit/bgemm.py, the library function
`gemm_batched`) against numpy: strided operands read in place (offsets, leading dimensions,
transposed storage), every BLAS dtype, and the same results whether the batch runs on one
thread or is shared between the pool's threads."""

import numba
import numpy as np
import pytest

from core.backends.numba.library import entry
from core.jit import bgemm

_TOL = {np.float32: 1e-4, np.float64: 1e-12, np.complex64: 1e-4, np.complex128: 1e-12}


def _batched(x, xo, ldx, tx, y, yo, ldy, ty, k, out):
    """`out[b] = X_b @ Y_b` through the library function, as a kernel calls it."""
    code = out.dtype.str[1:]
    p = np.array([out.shape[1], k, out.shape[2], ldx, ldy, tx, ty], np.int64)
    flat = [a.reshape(-1) for a in (x, y, out)]
    entry.dispatcher(f"gemm_batched__{code}")(flat[0], xo, flat[1], yo, flat[2], p)


def _rand(shape, dtype, rng):
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


@pytest.mark.parametrize("dtype", list(_TOL))
def test_heads_of_a_batch_seq_heads_dim_array_are_read_in_place(dtype):
    """Attention's scores: out[b, h] = q[b, :, h, :] @ k[b, :, h, :].T, without copies."""
    rng = np.random.default_rng(0)
    q, kk = _rand((3, 7, 4, 5), dtype, rng), _rand((3, 6, 4, 5), dtype, rng)
    b, s, h, d = q.shape
    xo = np.array([i * s * h * d + j * d for i in range(b) for j in range(h)], np.int64)
    yo = np.array([i * 6 * h * d + j * d for i in range(b) for j in range(h)], np.int64)
    out = np.full((b * h, s, 6), np.nan, dtype)
    _batched(q, xo, h * d, 0, kk, yo, h * d, 1, d, out)
    want = np.einsum("bqhd,bkhd->bhqk", q, kk).reshape(b * h, s, 6)
    np.testing.assert_allclose(out, want, rtol=_TOL[dtype], atol=_TOL[dtype])


@pytest.mark.parametrize(("nb", "runs"), [(1, 1), (2, 1), (3, 1), (64, 3), (67, 3), (203, 11)])
def test_threaded_batches_cover_every_product(nb, runs):
    """Enough multiply-adds (`PARALLEL_FLOPS`) cut the batch into runs (by the sizes) that the
    threads take dynamically: every product is computed, once, and equals the one-thread result
    bit for bit (one BLAS call each)."""
    rng = np.random.default_rng(1)
    a = _rand((nb, 40, 36), np.float64, rng)
    c = _rand((nb, 36, 40), np.float64, rng)
    offs_a = np.arange(nb, dtype=np.int64) * 40 * 36
    assert bgemm.runs(nb * 40 * 36 * 40, nb) == runs
    out = np.full((nb, 40, 40), np.nan)
    _batched(a, offs_a, 36, 0, c, offs_a, 40, 0, 36, out)
    np.testing.assert_allclose(out, a @ c, rtol=1e-12, atol=1e-12)
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        one = np.empty_like(out)
        _batched(a, offs_a, 36, 0, c, offs_a, 40, 0, 36, one)
    finally:
        numba.set_num_threads(before)
    np.testing.assert_array_equal(out, one)


def test_transposed_storage_of_both_operands():
    """X_b stored column-major (x[b].T) and Y_b too: out[b] = x[b].T @ y[b].T."""
    rng = np.random.default_rng(2)
    x, y = _rand((5, 4, 3), np.float32, rng), _rand((5, 6, 4), np.float32, rng)
    out = np.empty((5, 3, 6), np.float32)
    xo, yo = np.arange(5, dtype=np.int64) * 12, np.arange(5, dtype=np.int64) * 24
    _batched(x, xo, 3, 1, y, yo, 4, 1, 4, out)
    want = np.swapaxes(x, 1, 2) @ np.swapaxes(y, 1, 2)
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-5)
