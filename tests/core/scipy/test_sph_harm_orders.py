"""sph_harm_y is 0 where the order exceeds the degree (|m| > n), as scipy and JAX 0.10.2 give
(found by tools/jax_differential's scipy_more area); other orders keep scipy's values."""

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
]


@pytest.mark.parametrize("n, m, theta, phi", CASES)
def test_sph_harm_y_matches_scipy(n, m, theta, phi):
    got = special.sph_harm_y(
        jnp.array([n]), jnp.array([m]), jnp.array([theta]), jnp.array([phi]), n_max=3
    )
    np.testing.assert_allclose(
        np.asarray(got), [sp.sph_harm_y(n, m, theta, phi)], rtol=2e-5, atol=1e-6
    )
