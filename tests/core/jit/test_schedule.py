"""How parallel work is cut and handed to threads (core/jit/schedule.py): parts decided by the
sizes alone, numba's chunk size set for a loop and restored after it, every chunk run once
whichever thread takes it, and whole programs (products, convolutions and their gradients,
batched products, fused loops, chunked reductions) giving the same results bit for bit on one
thread and on the pool's threads. A third thread count runs in a subprocess
(tests/core/jit/test_threads.py: `test_results_on_one_and_several_threads`)."""

import numba
import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax
from core.jit import runtime as rt
from core.jit import schedule

rng = np.random.default_rng(0)
several = pytest.mark.skipif(
    numba.config.NUMBA_NUM_THREADS < 2, reason="numba's pool has one thread"
)


@pytest.mark.parametrize(
    ("work", "items", "least", "want"),
    [
        (schedule.PARALLEL_FLOPS - 1, 100, 1, 1),  # too little work to cut
        (schedule.PARALLEL_FLOPS, 100, 1, 2),  # at least two parts
        (5 * schedule.PART_FLOPS, 100, 1, 5),  # one per PART_FLOPS
        (1000 * schedule.PART_FLOPS, 100, 1, schedule.MAX_PARTS),
        (1000 * schedule.PART_FLOPS, 3, 1, 3),  # never more than the pieces
        (1000 * schedule.PART_FLOPS, 1000, 256, 3),  # parts of at least 256 pieces
        (1000 * schedule.PART_FLOPS, 200, 256, 1),
    ],
)
def test_parts_depend_on_the_sizes_only(work, items, least, want):
    assert schedule.parts(work, items, least) == want


@numba.njit
def _set_and_restore():
    before = rt.dynamic(7)
    seven = rt.dynamic(before)
    return before, seven


def test_dynamic_sets_the_chunk_size_and_returns_the_previous_one():
    before = numba.get_parallel_chunksize()
    assert _set_and_restore() == (before, 7)
    assert numba.get_parallel_chunksize() == before


@numba.njit(parallel=True)
def _count_chunks(counts, chunk):
    old = rt.dynamic(chunk)
    for i in numba.prange(counts.shape[0]):
        counts[i] += 1
    rt.dynamic(old)


@pytest.mark.parametrize("chunk", [1, 3, 1000])
def test_a_dynamic_loop_runs_every_iteration_once_on_any_thread_count(chunk):
    before = numba.get_num_threads()
    for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
        numba.set_num_threads(threads)
        try:
            counts = np.zeros(517, np.int64)
            _count_chunks(counts, chunk)
        finally:
            numba.set_num_threads(before)
        np.testing.assert_array_equal(counts, 1)
        assert numba.get_parallel_chunksize() == 0


def _step(x, w, v, q, k):
    """A small model's work, each part above the threading thresholds: a convolution and both
    its gradients (parts of the batch, partial sums of the kernel gradient), a product in bands,
    attention-like batched products, large fused loops and reductions over rows and columns."""

    def loss(x, w, v, q, k):
        y = lax.conv_general_dilated(
            x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")
        )
        h = jnp.tanh(y.reshape(-1, y.shape[-1]) @ v)  # (odd rows, 261) @ (261, 203)
        s = jnp.einsum("bqd,bkd->bqk", q, k)  # 37 products of 67x40x67
        cols = jnp.sum(jnp.sin(h), axis=0)  # a reduction over the rows, in chunks
        return jnp.mean(h * h) + jnp.mean(jnp.exp(-(s**2))) + jnp.mean(cols * cols) * 1e-4

    return core.value_and_grad(loss, argnums=(0, 1, 2, 3))(x, w, v, q, k)


@several
def test_a_program_gives_the_same_results_on_one_and_several_threads():
    f = core.jit(_step)
    args = (
        rng.standard_normal((9, 17, 19, 29)).astype(np.float32),
        (rng.standard_normal((3, 3, 29, 261)) * 0.1).astype(np.float32),
        (rng.standard_normal((261, 203)) * 0.1).astype(np.float32),
        rng.standard_normal((37, 67, 40)).astype(np.float32),
        rng.standard_normal((37, 67, 40)).astype(np.float32),
    )

    def run(threads):
        before = numba.get_num_threads()
        numba.set_num_threads(threads)
        try:
            return [np.asarray(leaf) for leaf in core.tree_util.tree_leaves(f(*args))]
        finally:
            numba.set_num_threads(before)

    want = [np.asarray(leaf) for leaf in core.tree_util.tree_leaves(_step(*args))]
    one, many = run(1), run(numba.config.NUMBA_NUM_THREADS)
    for a, b, c in zip(one, many, want, strict=True):
        np.testing.assert_array_equal(b, a)
        np.testing.assert_allclose(a, c, rtol=1e-3, atol=1e-3 * np.abs(c).max())
