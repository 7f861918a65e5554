"""`optim.multi_normal` against values recorded from Optax 0.2.8 (same PRNG key, same draws)."""

from __future__ import annotations

import numpy as np
import pytest

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


def test_add_noise_reads_its_key_as_optax_does():
    # an integer array seed is a seed; Optax 0.2.8 printed this first noise sample for seed 3
    tx = optim.add_noise(1.0, 0.0, key=jnp.int32(3))
    updates, _ = tx.update({"a": jnp.zeros(3)}, tx.init({"a": jnp.zeros(3)}))
    np.testing.assert_allclose(
        np.asarray(updates["a"]),
        [-1.2685635089874268, 0.13898268342018127, -0.3950211703777313],
        rtol=1e-6,
    )
    typed = random.key(3)
    assert optim.utils.canonicalize_key(typed) is typed


def test_add_noise_key_errors_are_optaxs():
    # Optax 0.2.8: a raw uint32 key goes to random.key, which rejects it
    with pytest.raises(TypeError, match="key accepts a scalar seed"):
        optim.add_noise(1.0, 0.0, key=random.PRNGKey(3)).init({"a": jnp.zeros(3)})
    with pytest.raises(ValueError) as info:
        optim.add_noise(1.0, 0.0, key=3, seed=3)
    assert str(info.value).split("\n")[0] == "Only one of seed or key can be specified."
