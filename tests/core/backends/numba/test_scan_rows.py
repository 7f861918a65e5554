"""core/backends/numba/scan_rows.py: which scans run as chunks of rows, the body re-typed for
a chunk, and the chunked kernels (numba's `prange` over chunks) against numpy and the
whole-batch loop."""

import numba
import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax
from core.backends.numba import scan_rows
from core.jit import codegen, simplify
from core.prims.control_flow.scan import scan_p
from tests.core.jit.backends import compare

rng = np.random.default_rng(0)
T, B, H, D = 5, 16, 8, 4
W = (rng.standard_normal((H, 4 * H)) * 0.4).astype(np.float32)
U = (rng.standard_normal((D, 4 * H)) * 0.4).astype(np.float32)
BIAS = (rng.standard_normal((4 * H,)) * 0.1).astype(np.float32)
X = rng.standard_normal((T, B, D)).astype(np.float32)


@pytest.fixture(autouse=True)
def small_loops_split(monkeypatch):
    """The tests' loops are tiny: let them split anyway. Every program's new code compiles in
    the quick tier first (`config.jit_quick_min_seconds`): the chunked kernels' first call runs
    quick code and the whole loop later the compile workers' optimized code, which compute the
    same bits (`core/backends/llvm/settle.py`; before, every cold-cache run of
    `test_chunked_kernels_match_numpy_and_the_whole_loop` failed, 210 of dW's 256 elements an
    ulp or so apart, and the tests compared one tier with itself)."""
    monkeypatch.setattr(scan_rows, "MIN_WORK", 0)
    with core.config.override("jit_quick_min_seconds", 0.0):
        yield


def lstm_loss(w, u, b, x):
    """An LSTM with merged gates and a bias, through `scan`."""

    def body(carry, xt):
        c, h = carry
        z = h @ w + xt @ u + b
        i, f, g, o = (z[:, k * H : (k + 1) * H] for k in range(4))
        c = core.nn.sigmoid(f) * c + core.nn.sigmoid(i) * jnp.tanh(g)
        h = core.nn.sigmoid(o) * jnp.tanh(c)
        return (c, h), h

    zeros = jnp.zeros((x.shape[1], H), jnp.float32)
    _, hs = lax.scan(body, (zeros, zeros), x)
    return jnp.sum(hs**2) + jnp.sum(hs[-1])


def scans_of(f, *args):
    """The split decisions of every scan of `f`'s program after `simplify` (which rewrites
    scans with `core/jit/scan_motion.py`)."""
    jaxpr = core.make_jaxpr(f)(*args).jaxpr
    eqns, _ = simplify.simplify(jaxpr.eqns, jaxpr.outvars)
    found = []
    for e in eqns:
        if e.prim is scan_p:
            p = e.params
            found.append(scan_rows.row_split(p["jaxpr"], p["num_consts"], p["num_carry"], T))
    return found


def test_chunk_rows():
    assert [scan_rows.chunk_rows(n) for n in (16, 32, 24, 20, 12, 10, 2)] == [
        8,
        8,
        8,
        10,
        6,
        2,
        2,
    ]


def test_lstm_loops_split_and_their_bodies_take_a_chunk():
    f = core.grad(lstm_loss, argnums=(0, 1, 2))
    fwd, bwd = scans_of(f, W, U, BIAS, X)
    for split in (fwd, bwd):
        assert (split.rows, split.chunk, split.parts) == (B, 8, 2)
        for v in [*split.body.invars, *split.body.outvars]:
            # rows, the weights and bias, or the bias as one row (computed before the loop)
            assert v.aval.shape[0] in (8, 4 * H, H, 1)
    assert all(v.aval.shape[0] == 8 for v in fwd.body.outvars)


@pytest.mark.parametrize(
    "body",
    [
        lambda h, xt: (h + jnp.sum(h, axis=0), h),  # a sum over rows
        lambda h, xt: (h @ (h.T @ h), h),  # a product of two row values
        lambda h, xt: (jnp.roll(h, 1, axis=0), h),  # rows exchanged
        lambda h, xt: (h * xt[:1], h),  # one row broadcast to all
    ],
)
def test_loops_that_mix_rows_stay_whole(body):
    jaxpr = core.make_jaxpr(lambda h, x: lax.scan(body, h, x))(np.ones((B, D), np.float32), X).jaxpr
    (e,) = [e for e in jaxpr.eqns if e.prim is scan_p]
    p = e.params
    assert scan_rows.row_split(p["jaxpr"], p["num_consts"], p["num_carry"], T) is None


def test_a_small_batch_runs_as_smaller_chunks():
    """10 rows have no even divisor of 8 rows or more leaving two chunks: the loop still takes
    the chunked form, in chunks of 2 rows, so that its kernels are those of the batch sizes
    that split at 8 (a second batch size of a model compiles nothing new)."""
    f = core.grad(lstm_loss, argnums=(0, 1, 2))
    for split in scans_of(f, W, U, BIAS, X[:, :10]):
        assert (split.rows, split.chunk, split.parts) == (10, 2, 5)


def test_small_loops_stay_whole(monkeypatch):
    f = core.grad(lstm_loss, argnums=(0, 1, 2))
    monkeypatch.setattr(scan_rows, "MIN_WORK", 1 << 30)
    assert scans_of(f, W, U, BIAS, X) == [None, None]


def test_chunked_kernels_match_numpy_and_the_whole_loop(monkeypatch):
    f = core.grad(lstm_loss, argnums=(0, 1, 2, 3))
    jaxpr = core.make_jaxpr(f)(W, U, BIAS, X).jaxpr
    _, source = codegen.compile_kernel(jaxpr)  # (the threaded form compiles)
    assert source.count("in prange(") == 2 and "lib.skinny_rows__f4(" in source
    got = compare(f, W, U, BIAS, X, rtol=1e-4, atol=1e-5)
    monkeypatch.setattr(scan_rows, "MIN_WORK", 1 << 30)
    whole = core.tree_util.tree_leaves(core.jit(lambda *a: f(*a))(W, U, BIAS, X))
    for g, w in zip(got, whole):
        # each row computed by the same code: the same bits as the whole batch's loop
        np.testing.assert_array_equal(g.astype(np.float32), np.asarray(w))


def test_one_thread_runs_the_chunks_as_one_with_the_same_bits():
    """A kernel with chunked scans carries the sizes of its whole-batch form too, which it reads
    on one thread (`codegen._whole_rows_sizes`): the same source, the same bits."""
    f = core.grad(lstm_loss, argnums=(0, 1, 2, 3))
    jaxpr = core.make_jaxpr(f)(W, U, BIAS, X).jaxpr
    source, arrays = codegen.generate_generic(jaxpr)
    assert source.count("in prange(") == 2 and "sz_at = " in source
    (sizes,) = [a for a in arrays if a.dtype == np.int64]
    chunked, whole = np.split(sizes, 2)
    assert chunked.tolist().count(B // 2) > whole.tolist().count(B // 2)
    step = core.jit(f)
    results = []
    for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
        before = numba.get_num_threads()
        numba.set_num_threads(threads)
        try:
            results.append([np.asarray(x) for x in core.tree_util.tree_leaves(step(W, U, BIAS, X))])
        finally:
            numba.set_num_threads(before)
    for got in results[1:]:
        for g, w in zip(got, results[0]):
            np.testing.assert_array_equal(g, w)
