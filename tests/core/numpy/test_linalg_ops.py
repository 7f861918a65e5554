"""jnp.diagonal (one strided slice of the flattened planes): values against numpy for every
offset and axis pair, and its gradient against JAX's (recorded)."""

import numpy as np
import pytest

import core
import core.numpy as jnp

X = np.arange(24.0).reshape(2, 3, 4)


@pytest.mark.parametrize("axes", [(0, 1), (1, 2), (2, 0), (-1, -2)])
@pytest.mark.parametrize("offset", range(-4, 6))
def test_diagonal_matches_numpy(offset, axes):
    got = jnp.diagonal(X, offset, *axes)
    want = np.diagonal(X, offset, *axes)
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def test_diagonal_gradient_and_jit():
    # jax.grad(lambda v: jnp.diagonal(v, -1, 0, 2).sum())(jnp.ones((3, 2, 4)))
    want = np.zeros((3, 2, 4))
    want[1, :, 0] = want[2, :, 1] = 1.0
    got = core.grad(lambda v: jnp.diagonal(v, -1, 0, 2).sum())(jnp.ones((3, 2, 4)))
    np.testing.assert_array_equal(got, want)
    jitted = core.jit(lambda v: jnp.diagonal(v, 1, 1, 2), backend="python")
    np.testing.assert_array_equal(jitted(X), np.diagonal(X, 1, 1, 2))


def test_diagonal_rejects_equal_axes():
    with pytest.raises(ValueError, match="axis1 and axis2 must be different"):
        jnp.diagonal(X, 0, 1, -2)
