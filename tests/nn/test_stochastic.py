"""Dropout: keep rates, scaling, determinism switches, RNG streams, Flax's mask for a key."""

import numpy as np
import pytest

import core.numpy as jnp
import nn
from core import random
from core.test_util import check_grads
from nn import errors


@pytest.mark.parametrize("rate", [0.0, 0.3, 0.5, 0.9, 1.0])
def test_dropout_rate_and_scaling(rate):
    x = np.full((100, 200), 3.0, np.float32)
    y = np.asarray(
        nn.Dropout(rate, deterministic=False).apply({}, x, rngs={"dropout": random.key(0)})
    )
    kept = y != 0
    if rate < 1.0:
        np.testing.assert_allclose(y[kept], 3.0 / (1 - rate), rtol=1e-6)
    n = x.size
    sigma = np.sqrt(rate * (1 - rate) / n)
    assert abs(kept.mean() - (1 - rate)) <= 4 * sigma + 1e-12


def test_dropout_mask_equals_flax_for_key():
    y = nn.Dropout(0.5).apply(
        {}, jnp.ones((2, 5)), deterministic=False, rngs={"dropout": random.key(1)}
    )
    np.testing.assert_array_equal(np.asarray(y), [[0, 0, 0, 0, 2], [0, 0, 2, 2, 2]])


@pytest.mark.parametrize(
    "field, call, identity",
    [(True, None, True), (False, None, False), (None, True, True), (None, False, False)],
)  # fmt: skip
def test_deterministic_at_construction_or_call(field, call, identity):
    x = jnp.ones((4, 4))
    y = nn.Dropout(0.5, deterministic=field).apply(
        {}, x, deterministic=call, rngs={"dropout": random.key(0)}
    )
    assert np.array_equal(np.asarray(y), np.asarray(x)) == identity


def test_dropout_errors_teach():
    # Flax 0.12.8's merge_param texts, for neither and for both
    rngs = {"dropout": random.key(0)}
    with pytest.raises(errors.ArgumentMissingError) as missing:
        nn.Dropout(0.5).apply({}, jnp.ones(3), rngs=rngs)
    assert str(missing.value) == (
        'Parameter "deterministic" must be passed to the constructor or at call time.'
    )
    with pytest.raises(errors.ArgumentTwiceError) as twice:
        nn.Dropout(0.5, deterministic=True).apply({}, jnp.ones(3), deterministic=False, rngs=rngs)
    assert str(twice.value) == (
        'Parameter "deterministic" was passed to the constructor and at call time. Should be '
        "passed just once."
    )
    with pytest.raises(errors.MissingRngError, match=r"rngs=\{'dropout': key\}"):
        nn.Dropout(0.5, deterministic=False).apply({}, jnp.ones(3))


def test_broadcast_dims_rng_override_and_custom_stream():
    x = jnp.ones((3, 50))
    y = np.asarray(
        nn.Dropout(0.5, broadcast_dims=(0,), deterministic=False).apply(
            {}, x, rngs={"dropout": random.key(0)}
        )
    )
    assert (y == y[0]).all()
    a = nn.Dropout(0.5, deterministic=False).apply({}, x, rng=random.key(5))
    b = nn.Dropout(0.5, deterministic=False).apply(
        {}, x, rng=random.key(5), rngs={"dropout": random.key(9)}
    )
    np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    c = nn.Dropout(0.5, deterministic=False, rng_collection="noise").apply(
        {}, x, rngs={"noise": random.key(0)}
    )
    assert c.shape == x.shape


def test_check_grads_through_dropout():
    x = jnp.asarray(np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32))
    f = lambda xx: nn.Dropout(0.5, deterministic=False).apply({}, xx, rng=random.key(2))  # noqa: E731
    check_grads(f, (x,), order=1, modes=["rev"])
