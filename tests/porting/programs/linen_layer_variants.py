"""Flax linen layers with the options the other programs leave at their defaults (our own
program): each layer initialised with one key, applied, and differentiated.

- recurrent: `RNN` over `OptimizedLSTMCell`, `SimpleCell`, `MGUCell`, `ConvLSTMCell`, a
  `Bidirectional` pair of `GRUCell`s, and `RNN(return_carry=True, reverse=True,
  keep_order=True)` with `seq_lengths`;
- attention: `MultiHeadDotProductAttention(normalize_qk=True)` and `MultiHeadAttention` with
  a separate key/value input and `out_features`;
- convolutions: `Conv` with `padding='CIRCULAR'` (strided), `'REFLECT'` (dilated) and
  `'CAUSAL'`, `ConvLocal`, `ConvTranspose` with circular padding and `transpose_kernel=True`;
- normalisation: `GroupNorm(use_fast_variance=False)`, `LayerNorm(use_scale=False,
  reduction_axes=...)`, `RMSNorm(reduction_axes=...)`, `InstanceNorm`, `WeightNorm(Dense)`;
- `Einsum`, `PReLU`, `Embed.attend`, `DenseGeneral` over two axes, `Dropout(broadcast_dims=)`,
  `Sequential` passing a tuple between layers, `max_pool`/`avg_pool(count_include_pad=False)`
  with `SAME` padding; and a missing `params` collection's error (Flax's class alone).

For each: the output's dtype, shape and values, the parameters' shapes and the gradient of a
squared output with respect to the parameters.
"""

import jax
import jax.numpy as jnp
from flax import linen as nn


class Pools(nn.Module):
    @nn.compact
    def __call__(self, x):
        a = nn.max_pool(x, (3, 3), strides=(2, 2), padding="SAME")
        b = nn.avg_pool(x, (3, 3), padding="SAME", count_include_pad=False)
        return a.sum() + b


class Attend(nn.Module):
    @nn.compact
    def __call__(self, x):
        embed = nn.Embed(7, 4)
        return embed.attend(x) + embed(jnp.array([[1, 6]])).sum()


def layers():
    return {
        "optimized_lstm": (nn.RNN(nn.OptimizedLSTMCell(6)), {}),
        "simple_cell": (nn.RNN(nn.SimpleCell(3)), {}),
        "mgu_cell": (nn.RNN(nn.MGUCell(3)), {}),
        "conv_lstm": (nn.RNN(nn.ConvLSTMCell(2, (3,))), {}),
        "bidirectional": (nn.Bidirectional(nn.RNN(nn.GRUCell(3)), nn.RNN(nn.GRUCell(3))), {}),
        "rnn_lengths": (
            nn.RNN(nn.LSTMCell(3), return_carry=True, reverse=True, keep_order=True),
            {"seq_lengths": jnp.array([3, 5])},
        ),
        "mha_normalize_qk": (
            nn.MultiHeadDotProductAttention(num_heads=2, qkv_features=4, normalize_qk=True),
            {},
        ),
        "conv_causal": (nn.Conv(3, (3,), padding="CAUSAL"), {}),
        "conv_reflect": (nn.Conv(3, (3,), padding="REFLECT", kernel_dilation=2), {}),
        "conv_transpose_kernel": (
            nn.ConvTranspose(2, (3,), strides=(2,), padding="VALID", transpose_kernel=True),
            {},
        ),
        "group_norm": (nn.GroupNorm(num_groups=2, use_fast_variance=False), {}),
        "layer_norm": (nn.LayerNorm(use_scale=False, reduction_axes=(-2, -1)), {}),
        "rms_norm": (nn.RMSNorm(reduction_axes=(1, 2)), {}),
        "dense_general": (nn.DenseGeneral((2, 3), axis=(-2, -1)), {}),
        "prelu": (nn.PReLU(negative_slope_init=0.2), {}),
        "einsum": (nn.Einsum((4, 3, 2), "abc,cde->abde"), {}),
        "attend": (Attend(), {}),
        "weight_norm": (nn.WeightNorm(nn.Dense(3)), {}),
        "sequential": (
            nn.Sequential([nn.Dense(3), nn.relu, lambda y: (y, y * 2), lambda a, b: a + b]),
            {},
        ),
    }


def image_layers():
    return {
        "conv_circular": nn.Conv(3, (3, 3), padding="CIRCULAR", strides=2),
        "conv_local": nn.ConvLocal(2, (3, 3)),
        "conv_transpose_circular": nn.ConvTranspose(2, (3, 3), strides=(2, 2), padding="CIRCULAR"),
        "instance_norm": nn.InstanceNorm(),
        "pools": Pools(),
    }


def check(out, name, layer, x, kwargs, key):
    variables = layer.init(key, x, **kwargs)
    params = variables.get("params", {})
    y = layer.apply(variables, x, **kwargs)
    out[name] = {
        "out": jax.tree.leaves(y),
        "param_shapes": jax.tree.map(lambda p: list(p.shape), params),
    }

    def loss(p):
        return sum(jnp.sum(o**2) for o in jax.tree.leaves(layer.apply({"params": p}, x, **kwargs)))

    if params:
        out[name]["grads"] = jax.tree.leaves(jax.grad(loss)(params))


def run():
    out = {}
    x = jax.random.normal(jax.random.key(1), (2, 5, 4))
    img = jax.random.normal(jax.random.key(2), (1, 6, 6, 3))
    for i, (name, (layer, kwargs)) in enumerate(layers().items()):
        check(out, name, layer, x, kwargs, jax.random.key(i))
    for i, (name, layer) in enumerate(image_layers().items()):
        check(out, name, layer, img, {}, jax.random.key(100 + i))
    mha = nn.MultiHeadAttention(num_heads=2, out_features=3, use_bias=False)
    variables = mha.init(jax.random.key(50), x, x[:, :3])
    out["mha_kv"] = mha.apply(variables, x, x[:, :3])
    drop = nn.Dropout(0.5, broadcast_dims=(1,), deterministic=False)
    out["dropout_broadcast"] = drop.apply({}, x, rngs={"dropout": jax.random.key(3)})
    try:  # BatchNorm's init with only its statistics mutable: no params collection to create
        nn.BatchNorm(use_running_average=False).init(jax.random.key(0), x, mutable=["batch_stats"])
        out["missing_params"] = "no error"
    except Exception as e:  # noqa: BLE001
        builtin = [c.__name__ for c in type(e).__mro__ if c.__module__ == "builtins"]
        out["missing_params"] = [builtin, str(e).splitlines()[0]]
    return out
