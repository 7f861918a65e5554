"""core.nn.dot_product_attention against a numpy reference and values recorded from jax.nn."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import nn
from core.test_util import check_grads


def _inputs(b=2, t=3, s=5, n=4, k=2, h=2, dtype=np.float32):
    q = (np.arange(b * t * n * h, dtype=dtype).reshape(b, t, n, h) % 7 - 3) / 4
    key = (np.arange(b * s * k * h, dtype=dtype).reshape(b, s, k, h) % 5 - 2) / 3
    v = np.arange(b * s * k * h, dtype=dtype).reshape(b, s, k, h) % 3 - 1.0
    return q.astype(dtype), key.astype(dtype), v.astype(dtype)


def _reference(
    q, k, v, bias=None, mask=None, scale=None, causal=False, q_len=None, kv_len=None, window=None
):
    """Per-head loops in float64 (GQA: query head j uses key head j // (N // K))."""
    b, t, n, h = q.shape
    s, nk = k.shape[1], k.shape[2]
    g = n // nk
    scale = 1 / np.sqrt(h) if scale is None else scale
    out = np.zeros((b, t, n, h))
    big = -0.7 * np.finfo(np.float32).max
    for bi in range(b):
        for j in range(n):
            logits = q[bi, :, j].astype(np.float64) @ k[bi, :, j // g].T.astype(np.float64) * scale
            if bias is not None:
                logits = logits + np.broadcast_to(bias, (b, n, t, s))[bi, j]
            keep = np.ones((t, s), bool)
            if mask is not None:
                keep &= np.broadcast_to(mask, (b, n, t, s))[bi, j]
            ti, si = np.arange(t)[:, None], np.arange(s)[None, :]
            if causal:
                keep &= ti >= si
            if window is not None:
                keep &= (ti <= si + window[0]) & (ti >= si - window[1])
            if kv_len is not None:
                keep &= si < kv_len[bi]
            if q_len is not None:
                keep &= ti < q_len[bi]
            logits = np.where(keep, logits, big)
            p = np.exp(logits - logits.max(-1, keepdims=True))
            p /= p.sum(-1, keepdims=True)
            out[bi, :, j] = p @ v[bi, :, j // g]
            if q_len is not None:
                out[bi, q_len[bi] :, j] = 0
    return out


RNG = np.random.default_rng(0)
BIAS = RNG.normal(size=(1, 4, 3, 5)).astype(np.float32)
MASK = RNG.random((2, 1, 3, 5)) > 0.3
MASK[..., 0] = True

CASES = [
    ("plain", {}),
    ("scale", {"scale": 0.3}),
    ("bias", {"bias": BIAS}),
    ("mask", {"mask": MASK}),
    ("causal", {"is_causal": True}),
    ("window", {"local_window_size": (1, 0)}),
    ("window_int", {"local_window_size": 1}),
    ("kv_len", {"key_value_seq_lengths": np.array([4, 2], np.int32)}),
    ("q_len", {"query_seq_lengths": np.array([2, 3], np.int32)}),
    (
        "all",
        {
            "bias": BIAS,
            "mask": MASK,
            "is_causal": True,
            "key_value_seq_lengths": np.array([5, 3], np.int32),
        },
    ),
]


def _ref_kwargs(kw):
    win = kw.get("local_window_size")
    return {
        "bias": kw.get("bias"),
        "mask": kw.get("mask"),
        "scale": kw.get("scale"),
        "causal": kw.get("is_causal", False),
        "q_len": kw.get("query_seq_lengths"),
        "kv_len": kw.get("key_value_seq_lengths"),
        "window": (win, win) if isinstance(win, int) else win,
    }


@pytest.mark.parametrize("name,kw", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("heads", [(4, 4), (4, 2), (4, 1)], ids=["mha", "gqa", "mqa"])
def test_against_reference(name, kw, heads):
    n, k = heads
    q, key, v = _inputs(n=n, k=k)
    out = nn.dot_product_attention(q, key, v, **kw)
    assert out.shape == q.shape and out.dtype == np.float32
    np.testing.assert_allclose(out, _reference(q, key, v, **_ref_kwargs(kw)), rtol=1e-5, atol=1e-6)


def test_known_values_from_jax():
    q, k, v = _inputs()
    out = nn.dot_product_attention(
        q,
        k,
        v,
        is_causal=True,
        key_value_seq_lengths=np.array([4, 2], np.int32),
        local_window_size=(1, 0),
    )
    # jax.nn.dot_product_attention (JAX 0.10.2) on the same inputs.
    want = [
        -1.0,
        0.0,
        -1.0,
        0.0,
        1.0,
        -1.0,
        1.0,
        -1.0,
        -0.6016821,
        0.39831784,
        -0.5147271,
        0.48527285,
        0.14625746,
        -0.57312876,
        -0.14625746,
        -0.4268713,
        0.5147271,
        -0.02945426,
        0.6016821,
        -0.20336428,
        -0.5,
        0.5,
        -0.45592052,
        0.5440794,
    ]
    np.testing.assert_allclose(np.asarray(out).ravel()[:24], want, rtol=1e-5, atol=1e-6)
    out, res = nn.dot_product_attention(
        q, k, v, query_seq_lengths=np.array([2, 3], np.int32), return_residual=True, scale=0.7
    )
    want0 = [
        -0.347924,
        0.27079397,
        -0.23528048,
        0.20063952,
        -0.0527499,
        -0.24014446,
        0.21861269,
        -0.37489015,
        -0.29289436,
        0.24014446,
        -0.1753346,
        0.15270726,
        -0.07712999,
        -0.27079397,
        -0.01457621,
        -0.03538781,
    ] + [0.0] * 8
    np.testing.assert_allclose(np.asarray(out)[0].ravel(), want0, rtol=1e-5, atol=1e-6)
    assert res.shape == (2, 3, 4)
    np.testing.assert_allclose(
        np.asarray(res)[0, :2].ravel(),
        [1.6544948, 1.6128381, 1.6267881, 1.6811222, 1.6267881, 1.6128381, 1.6544948, 1.6544949],
        rtol=1e-5,
    )
    np.testing.assert_allclose(np.asarray(res)[0, 2], -2.3819763e38, rtol=1e-5)


def test_unbatched_rank3_inputs():
    q, k, v = _inputs(b=1)
    out = nn.dot_product_attention(q[0], k[0], v[0], is_causal=True)
    assert out.shape == q.shape[1:]
    np.testing.assert_allclose(out, nn.dot_product_attention(q, k, v, is_causal=True)[0], rtol=1e-6)


@pytest.mark.parametrize(
    "bad,match",
    [
        ({"implementation": "cudnn"}, "implementation"),
        ({"mask": np.ones((1, 1, 3, 5), np.float32)}, "mask dtype"),
        ({"key_value_seq_lengths": np.array([1, 2, 3], np.int32)}, "key_value_seq_lengths"),
    ],
)
def test_errors(bad, match):
    q, k, v = _inputs()
    with pytest.raises(ValueError, match=match):
        nn.dot_product_attention(q, k, v, **bad)


def test_head_count_must_divide():
    q, k, v = _inputs(n=3, k=2)
    with pytest.raises(ValueError, match="multiple of key/value heads"):
        nn.dot_product_attention(q, k, v)


def test_gradients_float64():
    with core.enable_x64():
        q, k, v = _inputs(b=1, t=2, s=3, n=2, k=1, dtype=np.float64)
        check_grads(
            lambda q, k, v: nn.dot_product_attention(q, k, v, is_causal=True), (q, k, v), order=1
        )


def test_jit_and_vmap():
    q, k, v = _inputs(b=1, t=2, s=3, n=2, k=1)
    f = core.jit(lambda q, k, v: nn.dot_product_attention(q, k, v, is_causal=True))
    want = nn.dot_product_attention(q, k, v, is_causal=True)
    np.testing.assert_allclose(f(q, k, v), want, rtol=1e-5, atol=1e-6)
    batched = core.vmap(lambda q: nn.dot_product_attention(q, k, v, is_causal=True))(
        jnp.stack([q, 2 * q])
    )
    np.testing.assert_allclose(
        batched[1], nn.dot_product_attention(2 * q, k, v, is_causal=True), rtol=1e-5, atol=1e-6
    )
