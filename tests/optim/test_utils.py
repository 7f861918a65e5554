"""`optim.multi_normal` against values recorded from Optax 0.2.8 (same PRNG key, same draws)."""

from __future__ import annotations

import numpy as np

import core.numpy as jnp
import optim
from core import random


def test_multi_normal_sample_and_log_prob():
    dist = optim.multi_normal(jnp.asarray([[0.5, -1.0, 2.0]]), jnp.asarray([0.1, -0.3, 0.2]))
    sample = dist.sample((2,), random.PRNGKey(3))
    expected = [
        [[-1.098361, 0.140401, 2.467194]],
        [[2.677962, -1.435355, 2.255781]],
    ]
    np.testing.assert_allclose(sample, expected, rtol=1e-5)
    log_prob = dist.log_prob(jnp.asarray([[[0.0, 0.0, 1.0]], [[1.0, -1.0, 2.0]]]))
    np.testing.assert_allclose(log_prob, [-4.105376, -2.859157], rtol=1e-5)
    np.testing.assert_allclose(dist.log_scale, [0.1, -0.3, 0.2])
    assert len(dist.params) == 2
