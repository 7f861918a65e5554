"""Every layer gives the same output under ``core.jit`` as eagerly (the numba backend)."""

import numpy as np
import pytest

import core
import core.numpy as jnp
import nn
from core import random

LAYERS = [
    ("dense", nn.Dense(4), (2, 3), jnp.float32),
    ("dense_general", nn.DenseGeneral((2, 2), axis=(-2, -1)), (2, 3, 2), jnp.float32),
    ("einsum", nn.Einsum((3, 4), "ab,bc->ac"), (2, 3), jnp.float32),
    ("conv", nn.Conv(4, (3, 3)), (2, 6, 6, 3), jnp.float32),
    ("conv_transpose", nn.ConvTranspose(4, (3, 3), strides=(2, 2)), (2, 3, 3, 3), jnp.float32),
    ("embed", nn.Embed(5, 3), (2, 4), jnp.int32),
    ("layer_norm", nn.LayerNorm(), (2, 5), jnp.float32),
    ("rms_norm", nn.RMSNorm(), (2, 5), jnp.float32),
    ("group_norm", nn.GroupNorm(num_groups=2), (2, 4, 4), jnp.float32),
    ("batch_norm_eval", nn.BatchNorm(use_running_average=True), (4, 3), jnp.float32),
    ("self_attention", nn.SelfAttention(num_heads=2), (2, 3, 4), jnp.float32),
    ("rnn_lstm", nn.RNN(nn.LSTMCell(4)), (2, 5, 3), jnp.float32),
    ("rnn_gru_reverse", nn.RNN(nn.GRUCell(4), reverse=True), (2, 5, 3), jnp.float32),
]


@pytest.mark.parametrize("name, layer, shape, dtype", LAYERS, ids=[c[0] for c in LAYERS])
def test_layer_under_jit_matches_eager(name, layer, shape, dtype):
    rng = np.random.default_rng(0)
    if dtype == jnp.int32:
        x = jnp.asarray(rng.integers(0, 5, shape).astype(np.int32))
    else:
        x = jnp.asarray(rng.standard_normal(shape).astype(np.float32))
    variables = layer.init(random.key(0), x)
    want = layer.apply(variables, x)
    got = core.jit(layer.apply)(variables, x)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("pool", [nn.max_pool, nn.avg_pool, nn.pooling.min_pool])
def test_pooling_under_jit_matches_eager(pool):
    x = jnp.asarray(np.random.default_rng(0).standard_normal((2, 4, 4, 3)).astype(np.float32))
    f = lambda v: pool(v, (2, 2), (2, 2), "SAME")  # noqa: E731
    np.testing.assert_allclose(np.asarray(core.jit(f)(x)), np.asarray(f(x)), rtol=1e-6)


def test_dropout_under_jit_matches_eager():
    x = jnp.ones((4, 6))
    layer = nn.Dropout(0.5, deterministic=False)
    f = lambda v, k: layer.apply({}, v, rngs={"dropout": k})  # noqa: E731
    key = random.key(3)
    np.testing.assert_array_equal(np.asarray(core.jit(f)(x, key)), np.asarray(f(x, key)))
