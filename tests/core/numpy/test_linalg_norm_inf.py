"""`jnp.linalg.norm(x, ord=inf)` of vectors is JAX's `max(abs(x), initial=0)`: the derivative
at a zero vector is shared with the initial 0 (1/6 each of three), empty vectors give 0."""

from __future__ import annotations

import numpy as np
import pytest

import core as jax
import core.numpy as jnp

# (x, gradient) as JAX 0.10.2 printed them
GRADS = [
    ([0.0, 0.0, 0.0], [0.16666667, 0.16666667, 0.16666667]),
    ([1.0, -1.0, 0.5], [0.5, -0.5, 0.0]),
]


@pytest.mark.parametrize("x, want", GRADS)
def test_grad(x, want):
    g = jax.grad(lambda v: jnp.linalg.norm(v, ord=jnp.inf))(jnp.array(x))
    np.testing.assert_allclose(np.asarray(g), want, rtol=1e-7)


# (shape, axis, value) as JAX 0.10.2 printed them
EMPTY = [((0,), None, 0.0), ((2, 0), 1, [0.0, 0.0])]


@pytest.mark.parametrize("shape, axis, want", EMPTY)
def test_empty(shape, axis, want):
    out = jnp.linalg.norm(jnp.zeros(shape), ord=jnp.inf, axis=axis)
    assert out.dtype == np.float32
    np.testing.assert_array_equal(np.asarray(out), want)
