"""Cutting programs into kernels (core/jit/partition.py): a matrix product's tail joins the
product's kernel and writes into its array; a product read by several kernels, or a tail that
reads a later kernel's result, stays; results do not change."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.config import config
from core.jit import partition, program

rng = np.random.default_rng(0)
X = rng.standard_normal((6, 8)).astype(np.float32)
W = rng.standard_normal((8, 8)).astype(np.float32) * 0.3
B = rng.standard_normal(8).astype(np.float32)


@pytest.fixture
def many():
    with config.override("jit_kernels", "many"), config.override("jit_compile_workers", 0):
        yield


def _tails(x, w, b):
    h = x.reshape(2, 3, 8) @ w + b  # a bias added: joins its product
    g = jnp.tanh(x @ w.T)  # joins
    s = jnp.sum(x @ (w * 2.0), axis=0)  # a reduction: joins
    both = x @ (w + 1.0)
    return h * 0.5, g, s, both - 1.0, both * both  # `both` read by two kernels: stays


def _prims(kernel) -> set[str]:
    return {e.prim.name for e in kernel.eqns}


def test_a_products_tail_joins_its_kernel_and_writes_into_its_array(many):
    jaxpr = core.make_jaxpr(_tails)(X, W, B).jaxpr
    cut = partition.partition(jaxpr)
    joined = partition.join_tails(cut)
    assert len(joined.kernels) == len(cut.kernels) - 3
    for tail in ("add", "tanh", "reduce_sum_in_order"):  # the sum in XLA's order (sum_order)
        assert len([k for k in joined.kernels if {"dot_general", tail} <= _prims(k)]) == 1
    (product,) = [k for k in joined.kernels if {"dot_general", "add"} <= _prims(k)]
    source = program.compile_jaxpr(product, "tail").source
    assert source.count("rt.empty") == 1  # the product's array, which the tail's loop reuses
    got = program.compile_program(program.split(jaxpr), "tails")(X, W, B)
    want = core.jit(_tails, backend="python")(X, W, B)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, np.asarray(w), rtol=1e-5, atol=1e-6)


def test_a_tail_that_reads_a_later_kernels_result_stays(many):
    def f(x, w):
        product = x @ w
        later = jnp.sum(jnp.sin(x), axis=0)  # a kernel after the product's
        return product + later

    jaxpr = core.make_jaxpr(f)(X, W).jaxpr
    cut = partition.partition(jaxpr)
    assert [_prims(k) for k in cut.kernels][0] == {"dot_general"}
    assert partition.join_tails(cut) is cut
    got = program.compile_program(program.split(jaxpr), "later")(X, W)[0]
    np.testing.assert_allclose(got, X @ W + np.sin(X).sum(0), rtol=1e-5, atol=1e-5)
