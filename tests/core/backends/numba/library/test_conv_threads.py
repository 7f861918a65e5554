"""The convolution library's threads (`core/backends/numba/library/conv.py`): a kernel
gradient cut into parts by its sizes (over the batch with per-part partial sums, or over the
output columns) gives numpy's values, and the same ones bit for bit on one thread and on the
pool's threads, which take the parts dynamically; in floats and integers. A forward
convolution of many items runs as `ITEM_PARTS` parts on numbax's pool, the same bits as on one
thread."""

import numba
import numpy as np
import pytest

from core.backends.llvm import pool
from core.backends.numba import library
from core.backends.numba.library import conv

_rng = np.random.default_rng(1)


def _reference(x, g, pad):
    """Kernel gradient (HWIO) of a stride-1 NHWC conv with 3x3 kernel: one product per tap."""
    n, h, w, c = x.shape
    q = g.shape[1]
    xp = np.pad(x, ((0, 0), pad, pad, (0, 0)))
    gm = g.reshape(-1, g.shape[-1])
    taps = [[xp[:, i : i + q, j : j + q].reshape(-1, c).T @ gm for j in range(3)] for i in range(3)]
    return np.array(taps)


def _kernel_gradient(code, threads, x, g, pad):
    """`conv_kernel_gradient` of x (batch, s, s, c) and cotangent g (batch, q, q, o) on
    `threads` threads of numba's pool: the lhs is x read as (C, S.., N) with the batch as C."""
    n, s, _, c = x.shape
    q, o = g.shape[1], g.shape[-1]
    # nsp, n (= c), c (= batch), o, sizes, taps (this conv's outputs), cotangent positions,
    # strides (the forward's dilation), dilations (the forward's strides), lhs dilation, low pads
    params = [2, c, n, o, s, s, 3, 3, q, q, 1, 1, 1, 1, 1, 1, pad[0], pad[0]]
    out = np.zeros(9 * c * o, x.dtype)
    before = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        fn = library.entry.dispatcher(f"conv_kernel_gradient__{code}")
        fn(x.ravel(), g.ravel(), out, np.array(params, np.int64))
    finally:
        numba.set_num_threads(before)
    return out.reshape(3, 3, c, o)


two_threads = pytest.mark.skipif(
    numba.config.NUMBA_NUM_THREADS < 2, reason="numba's pool has one thread"
)


@two_threads
def test_kernel_gradient_split_over_the_batch_equals_one_thread_and_numpy():
    """9 items of 16x16 positions, 16 -> 32 channels (10.6M multiply-adds, above
    `rt.parts`' threshold; many positions per weight): 5 + 4 items, each part's own partial
    sum, added in part order whichever thread ran it."""
    x = _rng.standard_normal((9, 16, 16, 16), dtype=np.float32)
    g = _rng.standard_normal((9, 16, 16, 32), dtype=np.float32)
    one, two = (_kernel_gradient("f4", t, x, g, (1, 1)) for t in (1, 2))
    np.testing.assert_array_equal(two, one)
    np.testing.assert_allclose(two, _reference(x, g, (1, 1)), rtol=1e-4, atol=1e-3)


@two_threads
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_kernel_gradient_split_over_the_columns_equals_one_thread_and_numpy(dtype):
    """2x2 outputs, 256 -> 256 channels, batch 8 (18.9M multiply-adds; fewer positions than
    output channels, as a ResNet's last layers): two bands of 128 columns, each filling the
    patches of the whole batch. Integers run the library's product loop."""
    x = _rng.integers(-3, 4, (8, 2, 2, 256)).astype(dtype)
    g = _rng.integers(-3, 4, (8, 2, 2, 256)).astype(dtype)
    code = np.dtype(dtype).str[1:]
    one, two = (_kernel_gradient(code, t, x, g, (1, 1)) for t in (1, 2))
    np.testing.assert_array_equal(two, one)
    np.testing.assert_array_equal(two, _reference(x, g, (1, 1)))


def _forward(threads, x, w):
    """`conv_forward` of x (batch, s, s, c) and 3x3 weights w (3, 3, c, o), stride 1, 'SAME',
    on `threads` threads (the calling thread's numba count)."""
    n, size, _, c = x.shape
    o = w.shape[-1]
    axes = [size, size, size, size, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1]  # sizes, outs, kernel, .., lo
    out = np.zeros(n * size * size * o, x.dtype)
    before = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        fn = library.entry.dispatcher("conv_forward__f4")
        fn(x.ravel(), w.ravel(), out, np.array([2, n, c, c, o, 1, 0, 0, *axes], np.int64))
    finally:
        numba.set_num_threads(before)
    return out.reshape(n, size, size, o)


@two_threads
def test_forward_of_many_items_runs_as_item_parts_on_the_pool():
    """The MNIST CNN's second convolution (128 items of 14x14, 3x3x32 -> 64: 462M
    multiply-adds) is cut into `ITEM_PARTS` parts of 8 items, one job of as many pieces on the
    pool; its values are one thread's bit for bit, and numpy's."""
    rng = np.random.default_rng(15)
    x = rng.standard_normal((128, 14, 14, 32), dtype=np.float32)
    w = rng.standard_normal((3, 3, 32, 64), dtype=np.float32) / 10
    with pool.using(True) as p:
        if not p.threads:
            pytest.skip("the pool has no worker")
        p.state[pool.JOB_PERIOD] = 1
        before = int(p.state[pool.JOB_PIECES])
        try:
            two = _forward(2, x, w)
        finally:
            p.state[pool.JOB_PERIOD] = 0
        assert int(p.state[pool.JOB_PIECES]) - before == conv.ITEM_PARTS
    np.testing.assert_array_equal(two, _forward(1, x, w))
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    taps = [xp[:, i : i + 14, j : j + 14] @ w[i, j] for i in range(3) for j in range(3)]
    np.testing.assert_allclose(two, sum(taps), rtol=1e-4, atol=1e-4)
