"""Known answers recorded from Flax (linen) for the cases a differential run against Flax found
different: dataclass field order of the recurrent cells, the ``promote_dtype`` field of the
linear layers and ``force_fp32_for_softmax`` in attention."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import core
import core.numpy as jnp
import nn

CELL_FIELDS = {
    nn.LSTMCell: ["features", "gate_fn", "activation_fn", "kernel_init",
                  "recurrent_kernel_init", "bias_init", "dtype", "param_dtype", "carry_init"],
    nn.OptimizedLSTMCell: ["features", "gate_fn", "activation_fn", "kernel_init",
                           "recurrent_kernel_init", "bias_init", "dtype", "param_dtype",
                           "carry_init"],
    nn.GRUCell: ["features", "gate_fn", "activation_fn", "kernel_init",
                 "recurrent_kernel_init", "bias_init", "dtype", "param_dtype", "carry_init"],
    nn.MGUCell: ["features", "gate_fn", "activation_fn", "kernel_init", "recurrent_kernel_init",
                 "forget_bias_init", "activation_bias_init", "dtype", "param_dtype",
                 "carry_init", "reset_gate"],
    nn.SimpleCell: ["features", "activation_fn", "kernel_init", "recurrent_kernel_init",
                    "bias_init", "dtype", "param_dtype", "carry_init", "residual"],
    nn.ConvLSTMCell: ["features", "kernel_size", "strides", "padding", "use_bias", "dtype",
                      "param_dtype", "carry_init"],
}  # fmt: skip


@pytest.mark.parametrize("cls", list(CELL_FIELDS), ids=lambda c: c.__name__)
def test_field_order_ends_with_parent_and_name(cls):
    assert [f.name for f in dataclasses.fields(cls)] == CELL_FIELDS[cls] + ["parent", "name"]


@pytest.mark.parametrize(
    "cls, kwargs, after",
    [
        (nn.Dense, {"features": 2}, "bias_init"),
        (nn.DenseGeneral, {"features": 2}, "precision"),
        (nn.Conv, {"features": 2, "kernel_size": (2,)}, "bias_init"),
        (nn.ConvLocal, {"features": 2, "kernel_size": (2,)}, "bias_init"),
        (nn.ConvTranspose, {"features": 2, "kernel_size": (2,)}, "transpose_kernel"),
        (nn.Einsum, {"shape": (4, 2), "einsum_str": "...a,ab->...b"}, "bias_init"),
        (nn.Embed, {"num_embeddings": 3, "features": 4}, "embedding_init"),
    ],
)
def test_promote_dtype_field_is_used(cls, kwargs, after):
    names = [f.name for f in dataclasses.fields(cls)]
    assert names[names.index(after) + 1] == "promote_dtype"

    def to_f16(*arrays, dtype=None, inexact=True):
        return [None if a is None else jnp.asarray(a, jnp.float16) for a in arrays]

    x = jnp.ones((1, 3, 4)) if cls is not nn.Embed else jnp.asarray([0, 2])
    module = cls(**kwargs, promote_dtype=to_f16)
    variables = module.init(core.random.key(0), x)
    out = module.apply(variables, x)
    assert out.dtype == jnp.float16  # Flax: float16 too.
    assert core.tree_util.tree_leaves(variables)[0].dtype == jnp.float32


Q = np.linspace(-1, 1, 2 * 3 * 1 * 4).reshape(2, 3, 1, 4)
K = np.linspace(1, -0.5, 2 * 2 * 1 * 4).reshape(2, 2, 1, 4)
FP32_WEIGHTS = [0.33274388, 0.66725606, 0.39717826, 0.60282171, 0.46529636, 0.53470361,
                0.5347454, 0.4652546, 0.6028583, 0.39714175, 0.66721541, 0.33278453]  # fmt: skip


@pytest.mark.parametrize("force, dtype", [(True, jnp.float32), (False, jnp.float16)])
def test_force_fp32_for_softmax(force, dtype):
    q, k = jnp.asarray(Q, jnp.float16), jnp.asarray(K, jnp.float16)
    w = nn.dot_product_attention_weights(q, k, force_fp32_for_softmax=force)
    assert w.dtype == dtype
    np.testing.assert_allclose(np.asarray(w, np.float64).ravel(), FP32_WEIGHTS, atol=2e-3)
    out = nn.dot_product_attention(q, k, k, force_fp32_for_softmax=force)
    assert out.dtype == dtype


def test_attention_module_forwards_force_fp32_for_softmax():
    module = nn.MultiHeadDotProductAttention(
        num_heads=1, dtype=jnp.float16, force_fp32_for_softmax=True
    )
    x = jnp.asarray(np.linspace(-1, 1, 2 * 3 * 4).reshape(2, 3, 4), jnp.float32)
    y = module.apply(module.init(core.random.key(0), x), x)
    assert y.dtype == jnp.float16
    want = [-0.32617188, -0.52685547, 0.31225586, -0.10424805, -0.32519531, -0.52539062]
    np.testing.assert_allclose(np.asarray(y, np.float64).ravel()[:6], want, atol=2e-3)
