"""Attention functions, masks and multi-head modules against numpy references."""

import numpy as np
import pytest

import core.numpy as jnp
import nn
from core import random, tree_util
from core.test_util import check_grads
from nn import errors


def rand(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def np_softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def np_attention(q, k, v, mask=None, bias=None):
    logits = np.einsum("...qhd,...khd->...hqk", q / np.sqrt(q.shape[-1]), k)
    if bias is not None:
        logits = logits + bias
    if mask is not None:
        logits = np.where(mask, logits, np.finfo(np.float32).min)
    return np.einsum("...hqk,...khd->...qhd", np_softmax(logits), v)


@pytest.mark.parametrize(
    "batch, q_len, kv_len, heads, depth",
    [((2,), 3, 4, 2, 5), ((), 2, 2, 1, 3), ((2, 2), 3, 3, 2, 2)],
)
@pytest.mark.parametrize("masked", [False, True])
def test_dot_product_attention_matches_numpy(batch, q_len, kv_len, heads, depth, masked):
    q = rand(batch + (q_len, heads, depth), 0)
    k = rand(batch + (kv_len, heads, depth), 1)
    v = rand(batch + (kv_len, heads, depth), 2)
    bias = rand(batch + (heads, q_len, kv_len), 3)
    mask = rand(batch + (1, q_len, kv_len), 4) > -0.5 if masked else None
    got = nn.dot_product_attention(q, k, v, bias=bias, mask=mask)
    np.testing.assert_allclose(
        np.asarray(got), np_attention(q, k, v, mask, bias), rtol=1e-4, atol=1e-5
    )


def test_masks():
    causal = np.asarray(nn.make_causal_mask(jnp.ones((2, 4))))
    assert causal.shape == (2, 1, 4, 4)
    np.testing.assert_array_equal(causal[0, 0], np.tril(np.ones((4, 4))))
    tokens = jnp.asarray([[3, 5, 0]])
    pad = np.asarray(nn.make_attention_mask(tokens > 0, tokens > 0))
    np.testing.assert_array_equal(pad[0, 0], [[1, 1, 0], [1, 1, 0], [0, 0, 0]])
    both = np.asarray(nn.combine_masks(jnp.asarray(pad), jnp.asarray(causal[:1, :, :3, :3])))
    np.testing.assert_array_equal(both[0, 0], [[1, 0, 0], [1, 1, 0], [0, 0, 0]])
    assert nn.combine_masks(None, None) is None
    extra = nn.make_attention_mask(jnp.ones((2, 3)), jnp.ones((2, 4)), extra_batch_dims=1)
    assert extra.shape == (1, 2, 1, 3, 4)


def np_mha(p, xq, xkv, heads, mask=None):
    proj = lambda name, x: np.einsum("...f,fhd->...hd", x, p[name]["kernel"]) + p[name]["bias"]  # noqa: E731
    o = np_attention(proj("query", xq), proj("key", xkv), proj("value", xkv), mask)
    return np.einsum("...hd,hdf->...f", o, p["out"]["kernel"]) + p["out"]["bias"]


@pytest.mark.parametrize("cross", [False, True])
def test_multi_head_attention_matches_numpy(cross):
    xq = rand((2, 3, 4))
    xkv = rand((2, 5, 4), 1) if cross else xq
    layer = nn.MultiHeadDotProductAttention(num_heads=2, qkv_features=6, out_features=3)
    variables = layer.init(random.key(0), xq, xkv)
    p = tree_util.tree_map(np.asarray, variables["params"])
    assert p["query"]["kernel"].shape == (4, 2, 3) and p["out"]["kernel"].shape == (2, 3, 3)
    mask = nn.make_attention_mask(jnp.ones((2, 3)), jnp.asarray(rand((2, xkv.shape[1]), 2) > 0))
    got = layer.apply(variables, xq, xkv, mask=mask)
    want = np_mha(p, xq, xkv, 2, np.asarray(mask).astype(bool))
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-4, atol=1e-5)


def test_mha_tree_equals_flax_and_self_attention_alias():
    x = jnp.ones((2, 5, 3))
    tree = tree_util.tree_map(
        lambda a: tuple(a.shape),
        nn.MultiHeadDotProductAttention(num_heads=2, qkv_features=4).init(random.key(0), x),
    )
    assert tree == {
        "params": {
            "key": {"bias": (2, 2), "kernel": (3, 2, 2)},
            "out": {"bias": (3,), "kernel": (2, 2, 3)},
            "query": {"bias": (2, 2), "kernel": (3, 2, 2)},
            "value": {"bias": (2, 2), "kernel": (3, 2, 2)},
        }
    }
    variables = nn.SelfAttention(num_heads=2, qkv_features=4).init(random.key(0), x)
    a = nn.SelfAttention(num_heads=2, qkv_features=4).apply(variables, x)
    b = nn.MultiHeadDotProductAttention(num_heads=2, qkv_features=4).apply(variables, x)
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-6)


def test_attention_dropout_and_sown_weights():
    x = jnp.asarray(rand((1, 4, 4)))
    layer = nn.MultiHeadDotProductAttention(num_heads=1, dropout_rate=0.5)
    variables = layer.init(random.key(0), x, deterministic=True)
    with pytest.raises(errors.ArgumentMissingError):
        layer.apply(variables, x)
    with pytest.raises(errors.MissingRngError):
        layer.apply(variables, x, deterministic=False)
    y1 = layer.apply(variables, x, deterministic=False, rngs={"dropout": random.key(1)})
    y0 = layer.apply(variables, x, deterministic=True)
    assert not np.allclose(np.asarray(y1), np.asarray(y0))
    _, state = layer.apply(
        variables, x, deterministic=True, sow_weights=True, mutable=["intermediates"]
    )
    (weights,) = state["intermediates"]["attention_weights"]
    np.testing.assert_allclose(np.asarray(weights).sum(-1), np.ones((1, 1, 4)), rtol=1e-5)


def test_check_grads_through_attention():
    x = jnp.asarray(rand((1, 3, 4)))
    layer = nn.SelfAttention(num_heads=2)
    params = layer.init(random.key(0), x)["params"]
    check_grads(lambda p, xx: layer.apply({"params": p}, xx), (params, x), order=1, modes=["rev"])
