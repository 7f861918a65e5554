"""`core.random` under `jit` (numba: threefry2x32, bit casts, sorts) against the numpy backend
and against known JAX values: the same key gives the same bits on both backends."""

import numpy as np

from core import random
from tests.core.jit.backends import compare


def samplers(key, x):
    k1, k2, k3, k4, k5 = random.split(key, 5)
    return {
        "bits": random.bits(k1, (3, 2)),
        "uniform": random.uniform(k1, (4,)),
        "normal": random.normal(k2, (2, 3)),
        "randint": random.randint(k3, (5,), -3, 9),
        "bernoulli": random.bernoulli(k4, 0.3, (6,)),
        "permutation": random.permutation(k5, x),
        "fold_in": random.key_data(random.fold_in(key, 7)),
    }


def test_samplers_match_numpy_backend():
    compare(samplers, random.key(0), np.arange(6, dtype=np.float32), rtol=1e-6, atol=1e-6)


def test_known_jax_values():
    """`jax.random.uniform(jax.random.key(42), (3,))` and `jax.random.split(key(42))[1]`."""

    def f(key):
        return random.uniform(key, (3,), np.float32), random.key_data(random.split(key)[1])

    u, sub = compare(f, random.key(42))
    np.testing.assert_allclose(u, [0.48870957, 0.67979717, 0.6162715], rtol=1e-6)
    np.testing.assert_array_equal(sub, [64467757, 2916123636])
