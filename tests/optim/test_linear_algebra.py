"""`power_iteration` and `matrix_inverse_pth_root` against values recorded from Optax 0.2.8."""

from __future__ import annotations

import numpy as np
import pytest

import core
import core.numpy as jnp
import optim

M = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]], np.float32)


def test_power_iteration_on_a_matrix():
    # The default start vector is drawn with PRNGKey(0), as in Optax.
    eig, vec = optim.power_iteration(jnp.asarray(M))
    assert float(eig) == pytest.approx(4.7215695, rel=1e-6)
    np.testing.assert_allclose(vec, [0.838864, 0.509522, 0.191557], rtol=1e-5)


def test_power_iteration_on_a_tree_function():
    eig, vec = optim.power_iteration(
        lambda t: {"x": jnp.asarray(M) @ t["x"]},
        v0={"x": jnp.asarray([1.0, 0.0, 0.0])},
        num_iters=5,
    )
    assert float(eig) == pytest.approx(4.7206678, rel=1e-6)
    np.testing.assert_allclose(vec["x"], [0.843884, 0.500957, 0.192101], rtol=1e-5)
    with pytest.raises(ValueError, match="v0"):
        optim.power_iteration(lambda v: v)


ROOTS = {
    1: [[0.279943, -0.089244, -0.061061], [-0.089243, 0.36402, -0.014091],
        [-0.061061, -0.014091, 0.516673]],
    2: [[0.52053, -0.08042, -0.050241], [-0.08042, 0.597798, -0.013791],
        [-0.050241, -0.013791, 0.716909]],
    4: [[0.718708, -0.054186, -0.032441], [-0.054186, 0.771213, -0.009615],
        [-0.032441, -0.009615, 0.846029]],
}  # fmt: skip


@pytest.mark.parametrize("p", sorted(ROOTS))
def test_matrix_inverse_pth_root(p):
    root, error = optim.matrix_inverse_pth_root(jnp.asarray(M), p)
    np.testing.assert_allclose(root, ROOTS[p], rtol=1e-5, atol=1e-6)
    assert float(error) < 2e-6
    # The defining property, independently of Optax.
    np.testing.assert_allclose(
        np.linalg.matrix_power(np.linalg.inv(np.asarray(root, np.float64)), p), M, rtol=1e-3
    )


def test_matrix_inverse_pth_root_under_jit():
    root, _ = core.jit(lambda m: optim.matrix_inverse_pth_root(m, 2))(jnp.asarray(M))
    np.testing.assert_allclose(root, ROOTS[2], rtol=1e-5, atol=1e-6)


def test_nnls_shape_mismatch_is_optax_assertion_error():
    """Optax 0.2.8 asserts `b.shape[0] == A.shape[0]` (a bare `AssertionError`)."""
    with pytest.raises(optim.errors.NnlsShapeError, match=r"got A \(3, 2\) and b \(2,\)") as info:
        optim.nnls(jnp.ones((3, 2)), jnp.ones(2), iters=10)
    assert isinstance(info.value, AssertionError)
