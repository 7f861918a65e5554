"""Attention functions, masks and multi-head modules against numpy references."""

import re
import warnings

import numpy as np
import pytest

import core
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


# Known answers from flax.linen (0.10, jax.random.key(0)): MultiHeadDotProductAttention(num_heads=2,
# qkv_features=6, out_features=3, decode=True) initialized on X_DECODE, then fed X_DECODE[:, i]
# one token per apply; the rows also equal a full pass with make_causal_mask (in Flax too).
X_DECODE = rand((2, 3, 4))
FLAX_DECODE_OUT = np.array(
    [
        [
            [0.31174368, -0.05861273, -0.42910552],
            [0.46097875, -0.05908342, -0.9097897],
            [0.02350294, -0.48067862, -0.10197825],
        ],
        [
            [-0.79058796, -0.54636884, 1.2795638],
            [-0.34283257, -0.6282275, 0.18370406],
            [-0.31873798, -0.26466668, 0.6413686],
        ],
    ],
    np.float32,
)
# cached_key[0, :, 0] after the three steps.
FLAX_CACHED_KEY_ROW = np.array(
    [
        [-0.24611567, 0.18103638, -0.25736025],
        [1.1403397, 0.31700492, -1.3544409],
        [0.15851909, 0.9046956, 0.18032159],
    ],
    np.float32,
)
DECODE_LAYERS = [nn.MultiHeadDotProductAttention, nn.SelfAttention]


def decode_layer(cls, decode=True):
    return cls(num_heads=2, qkv_features=6, out_features=3, decode=decode)


def run_decode(layer, variables, x, step=None):
    step = step or (lambda p, c, t: layer.apply({"params": p, "cache": c}, t, mutable=["cache"]))
    cache, outs = variables["cache"], []
    for i in range(x.shape[1]):
        y, state = step(variables["params"], cache, jnp.asarray(x[:, i : i + 1]))
        cache = state["cache"]
        outs.append(np.asarray(y))
    return np.concatenate(outs, 1), cache


@pytest.mark.parametrize("cls", DECODE_LAYERS, ids=lambda c: c.__name__)
def test_decode_init_creates_zero_cache_like_flax(cls):
    variables = decode_layer(cls).init(random.key(0), X_DECODE)
    tree = tree_util.tree_map(lambda a: (tuple(a.shape), str(a.dtype)), variables["cache"])
    assert tree == {
        "cache_index": ((), "int32"),
        "cached_key": ((2, 3, 2, 3), "float32"),
        "cached_value": ((2, 3, 2, 3), "float32"),
    }
    # The creating init call does not write the init input into the cache.
    assert not np.asarray(variables["cache"]["cached_key"]).any()
    assert not np.asarray(variables["cache"]["cached_value"]).any()
    assert int(variables["cache"]["cache_index"]) == 0
    assert variables["params"].keys() == {"query", "key", "value", "out"}


@pytest.mark.parametrize("cls", DECODE_LAYERS, ids=lambda c: c.__name__)
def test_decode_steps_match_flax_and_causal_full_pass(cls):
    layer = decode_layer(cls)
    variables = layer.init(random.key(0), X_DECODE)
    got, cache = run_decode(layer, variables, X_DECODE)
    full = decode_layer(cls, decode=False).apply(
        {"params": variables["params"]}, X_DECODE, mask=nn.make_causal_mask(jnp.ones((2, 3)))
    )
    np.testing.assert_allclose(got, np.asarray(full), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got, FLAX_DECODE_OUT, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(
        np.asarray(cache["cached_key"])[0, :, 0], FLAX_CACHED_KEY_ROW, rtol=1e-5, atol=1e-6
    )
    assert np.asarray(cache["cache_index"]).dtype == np.int32
    assert int(cache["cache_index"]) == 3


def test_decode_combines_user_mask_with_cache_mask():
    layer = decode_layer(nn.MultiHeadDotProductAttention)
    variables = layer.init(random.key(0), X_DECODE)
    pad = np.array([[1, 0, 1], [1, 1, 1]], bool)  # batch 0 may not attend to position 1
    step = lambda p, c, t: layer.apply(  # noqa: E731
        {"params": p, "cache": c}, t, mask=jnp.asarray(pad[:, None, None, :]), mutable=["cache"]
    )
    got, _ = run_decode(layer, variables, X_DECODE, step)
    mask = np.tril(np.ones((3, 3), bool))[None, None] & pad[:, None, None, :]
    full = decode_layer(nn.MultiHeadDotProductAttention, decode=False).apply(
        {"params": variables["params"]}, X_DECODE, mask=jnp.asarray(mask)
    )
    np.testing.assert_allclose(got, np.asarray(full), rtol=1e-5, atol=1e-6)


# Flax 0.12.8's AssertionError messages: (query, key, value) shapes, the message of
# dot_product_attention_weights(q, k) (None: no error) and of dot_product_attention(q, k, v).
SHAPE_ERRORS = [
    ((2, 3, 2, 4), (3, 2, 4), (3, 2, 4), "q, k must have same rank.",
     "q, k, v must have same rank."),
    ((2, 3, 2, 4), (1, 5, 2, 4), (1, 5, 2, 4), "q, k batch dims must match.",
     "q, k, v batch dims must match."),
    ((2, 3, 2, 4), (2, 5, 1, 4), (2, 5, 1, 4), "q, k num_heads must match.",
     "q, k, v num_heads must match."),
    ((2, 3, 2, 4), (2, 5, 2, 3), (2, 5, 2, 3), "q, k depths must match.",
     "q, k depths must match."),
    ((2, 3, 2, 4), (2, 5, 2, 4), (2, 6, 2, 4), None, "k, v lengths must match."),
    ((2, 3, 2, 4), (2, 5, 2, 4), (2, 5, 1, 4), None, "q, k, v num_heads must match."),
]  # fmt: skip


@pytest.mark.parametrize("q, k, v, weights_message, attention_message", SHAPE_ERRORS)
def test_operand_shapes_are_checked_with_flaxs_messages(
    q, k, v, weights_message, attention_message
):
    q, k, v = jnp.ones(q), jnp.ones(k), jnp.ones(v)
    calls = [(weights_message, lambda: nn.dot_product_attention_weights(q, k))]
    calls.append((attention_message, lambda: nn.dot_product_attention(q, k, v)))
    for message, call in calls:
        if message is None:
            call()
            continue
        with pytest.raises(AssertionError) as info:
            call()
        assert isinstance(info.value, errors.AttentionShapeError)
        assert str(info.value).startswith(message + " Got shapes")


def test_heads_that_do_not_divide_the_features_raise_flaxs_assertion():
    # Flax 0.12.8: AssertionError "Memory dimension (4) must be divisible by number of heads (3)."
    layer = nn.MultiHeadDotProductAttention(num_heads=3)
    with pytest.raises(AssertionError, match=r"^Memory dimension \(4\) must be divisible by "
                       r"number of heads \(3\)") as info:  # fmt: skip
        layer.init(random.key(0), rand((2, 5, 4)))
    assert isinstance(info.value, (errors.AttentionHeadsError, ValueError))
    assert str(info.value).split("\n")[0] == (
        "Memory dimension (4) must be divisible by number of heads (3)."
    )


@pytest.mark.parametrize("length", [2, 3])
def test_decode_multi_token_query_raises_flax_message(length):
    layer = decode_layer(nn.MultiHeadDotProductAttention)
    variables = layer.init(random.key(0), X_DECODE)
    with pytest.raises(ValueError, match=r"Autoregressive cache shape error") as info:
        layer.apply(variables, jnp.asarray(X_DECODE[:, :length]), mutable=["cache"])
    assert isinstance(info.value, errors.DecodeCacheShapeError)
    # Flax 0.12.8's whole first line (the hint is on the lines after it)
    assert str(info.value).split("\n")[0] == (
        f"Autoregressive cache shape error, expected query shape (2, 1, 2, 3) instead got "
        f"(2, {length}, 2, 3)."
    )


def test_decode_needs_mutable_cache():
    layer = decode_layer(nn.MultiHeadDotProductAttention)
    variables = layer.init(random.key(0), X_DECODE)
    with pytest.raises(errors.ImmutableCollectionError):
        layer.apply(variables, jnp.asarray(X_DECODE[:, :1]))


def test_decode_under_jit_compiles_once():
    layer = decode_layer(nn.MultiHeadDotProductAttention)
    variables = layer.init(random.key(0), X_DECODE)
    step = core.jit(lambda p, c, t: layer.apply({"params": p, "cache": c}, t, mutable=["cache"]))
    got, cache = run_decode(layer, variables, X_DECODE, step)
    np.testing.assert_allclose(got, FLAX_DECODE_OUT, rtol=1e-5, atol=1e-6)
    assert int(cache["cache_index"]) == 3
    assert step._cache_size() == 1


@pytest.mark.parametrize("wrap", [nn.with_logical_partitioning, nn.with_partitioning])
@pytest.mark.parametrize("names", [("embed", "heads"), ("embed", "heads", "kv")])
def test_kernel_init_with_partitioning_boxes_like_flax(wrap, names):
    # Flax 0.12.8 known answers: the boxed 2-D init is reshaped inside its box, names kept.
    m = nn.MultiHeadDotProductAttention(
        num_heads=2, qkv_features=4, kernel_init=wrap(nn.initializers.xavier_uniform(), names)
    )
    x = jnp.asarray(np.linspace(-1, 1, 24).reshape(2, 3, 4).astype(np.float32))
    v = m.init(random.PRNGKey(0), x)
    q = v["params"]["query"]["kernel"]
    assert isinstance(q, nn.meta.AxisMetadata) and tuple(q.names) == names
    assert q.value.shape == (4, 2, 2)
    assert tuple(v["params"]["out"]["kernel"].names) == names
    np.testing.assert_allclose(
        np.ravel(q.value)[:3], [0.5451542139053345, -0.2918614149093628, 0.32155025005340576], 1e-6
    )
    y = m.apply(v, x)
    np.testing.assert_allclose(
        np.ravel(y)[:3], [-0.21872638165950775, -0.5808086395263672, 0.3607766926288605], 1e-5
    )
    assert tuple(nn.get_partition_spec(v)["params"]["query"]["kernel"]) == names


@pytest.mark.parametrize(
    "call, message",
    [  # Flax 0.12.8's DeprecationWarnings (None: no warning)
        ("m.init(KEY, Q, inputs_kv=KV)", "^The inputs_kv arg will be deprecated soon"),
        (
            "m.init(KEY, Q, S, S)",
            r"^You are passing an array of shape \(1, 3, 3\) to the `inputs_v`",
        ),
        ("m.init(KEY, Q, KV, KV)", None),
        ("m.init(KEY, Q, inputs_k=KV)", None),
    ],
)
def test_old_call_signatures_warn_like_flax(call, message):
    scope = {
        "m": nn.MultiHeadDotProductAttention(num_heads=1),
        "KEY": random.key(0),
        "Q": jnp.ones((1, 2, 3)),
        "KV": jnp.ones((1, 4, 3)),
        "S": jnp.ones((1, 3, 3)),  # a square key/value: Flax guesses it is an old-style mask
    }
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        eval(call, scope)
    deprecations = [str(w.message) for w in caught if w.category is DeprecationWarning]
    if message is None:
        assert deprecations == []
    else:
        assert len(deprecations) == 1 and re.match(message, deprecations[0]), deprecations
