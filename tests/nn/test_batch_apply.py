"""BatchApply merges leading axes, applies the function, and splits them back."""

import numpy as np
import pytest

import core.numpy as jnp
import nn
from core import random
from nn import errors


@pytest.mark.parametrize("shape, num_dims", [((2, 3, 4), 2), ((2, 3, 2, 4), 3), ((5, 4), 1)])
def test_batch_apply_equals_applying_to_each_leading_index(shape, num_dims):
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    layer = nn.Dense(3)
    v = layer.init(random.key(0), jnp.ones((1, shape[-1])))
    w = jnp.ones((shape[-1],))  # rank 1 < num_dims for num_dims > 1: passed as is
    f = nn.BatchApply(lambda a, b: layer.apply(v, a * b), num_dims=num_dims)
    y = np.asarray(f(jnp.asarray(x), w))
    assert y.shape == shape[:-1] + (3,)
    flat = x.reshape((-1,) + shape[num_dims:])
    want = np.asarray(layer.apply(v, jnp.asarray(flat))).reshape(y.shape)
    np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-6)


def test_batch_apply_needs_a_mergeable_input():
    # Flax 0.12.8: ValueError, first line "BatchApply requires at least one input with ndim >= 3."
    with pytest.raises(
        ValueError, match=r"^BatchApply requires at least one input with ndim >= 3\.\n"
    ) as info:
        nn.BatchApply(lambda a: a, num_dims=3)(jnp.ones((2, 2)))
    assert isinstance(info.value, errors.BatchApplyRankError)
    assert "num_dims=3) got inputs of shapes [(2, 2)]" in str(info.value)
