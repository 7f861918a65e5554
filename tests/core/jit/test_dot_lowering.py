"""Batched `dot_general` under jit (core/backends/numba/rules/linalg.py, core/jit/bgemm.py)
against numpy: attention's products read the heads of (batch, seq, heads, dim) arrays in place,
operands no BLAS matrix describes are copied once, size-1 axes."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.config import config
from core.jit import codegen, loops, threads

rng = np.random.default_rng(0)
Q = rng.standard_normal((3, 7, 4, 5)).astype(np.float32)  # (batch, seq, heads, dim)
K = rng.standard_normal((3, 6, 4, 5)).astype(np.float32)
P = rng.standard_normal((3, 4, 7, 6)).astype(np.float32)  # (batch, heads, q, k)

CASES = [
    ("bqhd,bkhd->bhqk", Q, K),  # scores: both operands strided, k stored transposed
    ("bhqk,bkhd->bhqd", P, K),  # weights @ values
    ("bhqk,bqhd->bhkd", P, Q),  # a gradient: the first operand transposed
    ("bqhd,bhqk->bkhd", Q, P),  # output axes in another order (a transpose after the product)
    ("bhqk,bhkj->bhqj", P, np.swapaxes(P, 2, 3).copy()),
    ("bqhd,bkhd->bhqk", Q[:, :, :1], K[:, :, :1]),  # one head: size-1 axes
]


def _sources(f):
    return "\n".join(k.source for k in next(iter(f._cache().values())).exe.kernels)


@pytest.mark.parametrize("mode", ["many", "one"])
def test_batched_products_give_numpys_values(mode):
    def f(*args):
        return [jnp.einsum(spec, x, y) for (spec, _, _), x, y in zip(CASES, args[::2], args[1::2])]

    args = [a for _, x, y in CASES for a in (x, y)]
    with config.override("jit_kernels", mode), config.override("jit_compile_workers", 0):
        got = core.jit(f)(*args)
    for (spec, x, y), g in zip(CASES, got, strict=True):
        want = np.einsum(spec, x.astype(np.float64), y.astype(np.float64))
        assert np.asarray(g).dtype == np.float32
        np.testing.assert_allclose(np.asarray(g), want, rtol=1e-5, atol=1e-5)


def test_attention_products_copy_nothing():
    """q @ k.T per head of (batch, seq, heads, dim) arrays, and the transposed view of an
    input: the kernel computes offsets and calls the batched product, no copy loops."""
    f = core.jit(lambda q, k: jnp.einsum("bqhd,bkhd->bhqk", q, jnp.swapaxes(k, 1, 1)))
    with config.override("jit_kernels", "many"), config.override("jit_compile_workers", 0):
        np.testing.assert_allclose(
            np.asarray(f(Q, K)), np.einsum("bqhd,bkhd->bhqk", Q, K), rtol=1e-5, atol=1e-5
        )
    source = _sources(f)
    assert "lib.gemm_batched__f4(" in source and "for i" not in source


def test_operands_no_matrix_describes_are_copied_once():
    """Rows spread over two axes that the array does not store next to each other: one copy
    loop in the product's order, then the batched product."""

    def f(x, y):
        return jnp.einsum("bijk,bkl->bijl", jnp.transpose(x, (0, 2, 1, 3)), y)

    x = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)
    y = rng.standard_normal((2, 5, 6)).astype(np.float32)
    g = core.jit(f)
    with config.override("jit_kernels", "many"), config.override("jit_compile_workers", 0):
        got = np.asarray(g(x, y))
    np.testing.assert_allclose(got, np.einsum("bjik,bkl->bijl", x, y), rtol=1e-5, atol=1e-5)
    source = _sources(g)
    assert source.count("rt.st(o") == 1 and "ascontiguousarray" not in source


def test_a_copied_operand_is_copied_on_the_threads(monkeypatch):
    """Attention's heads put back together for the output projection (`bhsd,hde->bse`): the
    operand's transposing copy is a threaded loop where loops may use threads, though its kernel
    calls BLAS (it ran on one thread between the threaded products), and the values are
    numpy's."""
    if threads.num_threads() < 2:
        pytest.skip("loops run on one thread")
    monkeypatch.setattr(loops, "PARALLEL_SIZE", 24)  # the copy touches 2 arrays: 24 elements on
    x = rng.standard_normal((2, 4, 3, 5)).astype(np.float32)  # (batch, heads, seq, dim)
    w = rng.standard_normal((4, 5, 6)).astype(np.float32)
    g = core.jit(lambda x, w: jnp.einsum("bhsd,hde->bse", x, w))
    with config.override("jit_kernels", "many"), config.override("jit_compile_workers", 0):
        got = np.asarray(g(x, w))
    np.testing.assert_allclose(got, np.einsum("bhsd,hde->bse", x, w), rtol=1e-5, atol=1e-5)
    source = _sources(g)
    assert "lib.dot(" in source and codegen.threaded(source)


def test_a_copied_operand_reads_its_last_axis_innermost():
    """A weight gradient of time-major states, `h^T dy` contracting (T, B) with dy's (B, T):
    the copy of h is (B, T, H), which reads h's contiguous H innermost, and the product takes it
    transposed (not an (H, B * T) copy reading h down its columns)."""
    h = rng.standard_normal((6, 4, 5)).astype(np.float32)  # (T, B, H)
    dy = rng.standard_normal((4, 6, 3)).astype(np.float32)  # (B, T, V)
    g = core.jit(lambda h, dy: jnp.einsum("bth,btv->hv", jnp.transpose(h, (1, 0, 2)), dy))
    with config.override("jit_kernels", "many"), config.override("jit_compile_workers", 0):
        got = np.asarray(g(h, dy))
    np.testing.assert_allclose(got, np.einsum("tbh,btv->hv", h, dy), rtol=1e-5, atol=1e-5)
    source = _sources(g)
    assert "lib.dot(g" in source and ".T, " in source
