"""sph_harm_y is 0 where the order exceeds the degree (|m| > n), as scipy and JAX 0.10.2 give
(found by tools/jax_differential's scipy_more area); other orders keep scipy's values. lpmn and
lpmn_values give JAX's tables (recorded from JAX 0.10.2) and its errors."""

import numpy as np
import pytest
import scipy.special as sp

import core.numpy as jnp
from core.scipy import special

# (n, m, theta, phi)
CASES = [
    (1, 3, 0.5, 0.25),
    (2, -3, 0.5, 0.25),
    (0, 1, 1.2, 2.0),
    (2, 1, 0.5, 0.25),
    (3, -2, 1.1, 0.7),
    # outside [0, pi], odd orders: scipy's and JAX's P_n^m take |sin(theta)|
    (1, 1, -0.5, 0.7),
    (3, -3, -0.5, 0.7),
    (2, -1, 4.0, 0.7),
]


@pytest.mark.parametrize("n, m, theta, phi", CASES)
def test_sph_harm_y_matches_scipy(n, m, theta, phi):
    got = special.sph_harm_y(
        jnp.array([n]), jnp.array([m]), jnp.array([theta]), jnp.array([phi]), n_max=3
    )
    np.testing.assert_allclose(
        np.asarray(got), [sp.sph_harm_y(n, m, theta, phi)], rtol=2e-5, atol=1e-6
    )


Z = np.array([0.2, -0.5, 0.0, 0.9], np.float32)


def test_lpmn_values_and_derivatives_are_jaxs():
    # JAX 0.10.2's lpmn(2, 2, Z), indexed [order, degree, point] (recorded)
    want_v = [[[1.0, 1.0, 1.0, 1.0], [0.2, -0.5, 0.0, 0.9], [-0.44, -0.125, -0.5, 0.715]],
              [[0.0] * 4, [-0.9798, -0.86603, -1.0, -0.43589], [-0.58788, 1.29904, 0.0, -1.1769]],
              [[0.0] * 4, [0.0] * 4, [2.88, 2.25, 3.0, 0.57]]]  # fmt: skip
    want_d = [[[0.0] * 4, [1.0] * 4, [0.6, -1.5, 0.0, 2.7]],
              [[0.0] * 4, [0.20412, -0.57735, 0.0, 2.06474], [-2.81691, -1.73205, -3.0, 4.26713]],
              [[0.0] * 4, [0.0] * 4, [-1.2, 3.0, 0.0, -5.4]]]  # fmt: skip
    v, d = special.lpmn(2, 2, jnp.asarray(Z))
    np.testing.assert_allclose(np.asarray(v), want_v, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(np.asarray(d), want_d, rtol=1e-4, atol=1e-5)
    normalized = special.lpmn_values(2, 2, jnp.asarray(Z), True)
    np.testing.assert_allclose(
        np.asarray(normalized)[:, 2], [[-0.27754, -0.07885, -0.31539, 0.45101],
                                       [-0.15139, 0.33452, 0.0, -0.30307],
                                       [0.37082, 0.28971, 0.38627, 0.07339]],
        rtol=1e-4, atol=1e-5)  # fmt: skip


@pytest.mark.parametrize(
    "call, cls, first",
    [
        (lambda: special.lpmn(2, 3, jnp.asarray(Z)), NotImplementedError,
         "Computations for m!=n are not yet supported."),
        (lambda: special.lpmn_values(2, 3, jnp.asarray(Z), True), NotImplementedError,
         "Computations for m!=n are not yet supported."),
        (lambda: special.lpmn(2, 2, jnp.ones((1, 1))), ValueError, "z must be a 1D array."),
    ],
)  # fmt: skip
def test_lpmn_errors_are_jaxs(call, cls, first):
    with pytest.raises(cls) as info:
        call()
    assert str(info.value).splitlines()[0] == first
