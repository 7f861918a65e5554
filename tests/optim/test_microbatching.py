"""`optim.microbatching` against values recorded from Optax 0.2.8 (`optax.microbatching`)."""

from __future__ import annotations

import numpy as np
import pytest

import core
import core.numpy as jnp
import optim
from optim import microbatching as mb

X = np.arange(24, dtype=np.float32).reshape(6, 4) / 10
W = np.array([0.5, -1.0, 2.0, 0.3], np.float32)


def loss(w, x):
    return jnp.sum((x @ w) ** 2)


def test_sum_equals_the_full_batch():
    out = optim.microbatch(loss, argnums=1, microbatch_size=2)(jnp.asarray(W), jnp.asarray(X))
    assert float(out) == pytest.approx(37.848602, rel=1e-6)
    assert float(out) == pytest.approx(float(loss(jnp.asarray(W), jnp.asarray(X))), rel=1e-6)


def test_concat_keeps_the_example_order():
    out = mb.microbatch(lambda x: x * 2.0, 0, 3, mb.AccumulationType.CONCAT)(jnp.asarray(X))
    np.testing.assert_allclose(out, X * 2.0, rtol=1e-6)


def test_tree_of_accumulators_and_mean():
    fn = mb.microbatch(
        lambda x: (jnp.mean(x), x[:, 0]),
        0,
        2,
        (mb.AccumulationType.RUNNING_MEAN, mb.AccumulationType.CONCAT),
    )
    mean, first = fn(jnp.asarray(X))
    assert float(mean) == pytest.approx(1.15, rel=1e-6)
    np.testing.assert_allclose(first, X[:, 0], rtol=1e-6)
    total = mb.microbatch(jnp.sum, 0, 3, mb.AccumulationType.MEAN)(jnp.asarray(X))
    assert float(total) == pytest.approx(13.8, rel=1e-6)


def test_reshape_batch_axis_is_fortran_order():
    out = mb.reshape_batch_axis(jnp.asarray(X), 2)
    np.testing.assert_allclose(out[:, :, 0], [[0.0, 1.2], [0.4, 1.6], [0.8, 2.0]], rtol=1e-6)


def test_micro_vmap_and_micro_grad():
    out = mb.micro_vmap(lambda x: jnp.sum(x**2), microbatch_size=2)(jnp.asarray(X))
    np.testing.assert_allclose(out, [0.14, 1.26, 3.66, 7.34, 12.3, 18.54], rtol=1e-6)
    grads, aux = mb.micro_grad(loss, microbatch_size=3)(jnp.asarray(W), jnp.asarray(X))
    np.testing.assert_allclose(grads, [36.36, 38.988, 41.616, 44.244], rtol=1e-6)
    np.testing.assert_allclose(
        np.ravel(aux.values), [0.1521, 1.2321, 3.3489, 6.5025, 10.6929, 15.920102], rtol=1e-5
    )


def test_errors():
    with pytest.raises(optim.errors.BatchAxisError, match="divisible"):
        optim.microbatch(jnp.sum, 0, 4)(jnp.asarray(X))
    with pytest.raises(optim.errors.BatchAxisError, match="equal-size"):
        optim.microbatch(lambda a, b: a, (0, 1), 2)(jnp.ones((4,)), jnp.ones((6,)))
    with pytest.raises(optim.errors.AccumulatorError, match="floating-point"):
        optim.microbatch(jnp.sum, 0, 2, mb.AccumulationType.MEAN)(jnp.arange(4))


def test_under_jit():
    fn = core.jit(optim.microbatch(loss, argnums=1, microbatch_size=3))
    assert float(fn(jnp.asarray(W), jnp.asarray(X))) == pytest.approx(37.848602, rel=1e-6)
