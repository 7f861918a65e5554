"""Layer programs that `record_flax_layers.py` runs on Flax 0.12.8 / JAX 0.10.2 and
`test_flax_layers.py` runs on numbax: each case is a function of the three modules a Flax
program imports (`nn` = flax.linen or numbax's nn, `jax` = jax or core, `jnp`), returning a
pytree of arrays (variables from `init`, outputs and updated collections from `apply`).
They come from a differential run of about 670 cases over the linen layers; these are the ones
users lean on most, with the constructor options that take different code paths."""

from __future__ import annotations

import numpy as np


def data(jnp, *shape, seed=0):
    """Standard normal float32 inputs from numpy (the same on both sides)."""
    return jnp.asarray(np.random.RandomState(seed).standard_normal(shape).astype(np.float32))


def init_apply(nn, jax, module, *xs, rngs=None, mutable=False, **kwargs):
    """`init` with key 0, then `apply` of the result (with `rngs`, `mutable` and `kwargs`)."""
    variables = module.init(jax.random.key(0), *xs, **kwargs)
    extra = {} if rngs is None else {"rngs": rngs}
    return {"init": variables, "apply": module.apply(variables, *xs, mutable=mutable, **extra,
                                                     **kwargs)}  # fmt: skip


def _dense(nn, jax, jnp):
    x = data(jnp, 2, 5, 4)
    return {
        "dense": init_apply(nn, jax, nn.Dense(3), x),
        "dense_f16": init_apply(nn, jax, nn.Dense(3, dtype=jnp.float16, use_bias=False), x),
        "general": init_apply(nn, jax, nn.DenseGeneral((2, 3), axis=(-2, -1)), x),
        "batch": init_apply(nn, jax, nn.DenseGeneral(3, batch_dims=(0,)), x),
        "general_axis_order": init_apply(nn, jax, nn.DenseGeneral(3, axis=(2, 1)), x),
        "einsum": init_apply(nn, jax, nn.Einsum((4, 3), "abc,cd->abd"), x),
        "embed": init_apply(nn, jax, nn.Embed(6, 3), jnp.asarray([[0, 5], [2, 1]])),
    }


def _conv(nn, jax, jnp):
    x = data(jnp, 2, 7, 4)
    out = {}
    for padding in ["SAME", "VALID", "CIRCULAR", "CAUSAL", "REFLECT", ((1, 2),), 1]:
        out[str(padding)] = init_apply(nn, jax, nn.Conv(4, (3,), padding=padding), x)
    out["strided_dilated"] = init_apply(nn, jax, nn.Conv(4, (3,), strides=2, kernel_dilation=2), x)
    out["groups_unbatched"] = init_apply(nn, jax, nn.Conv(4, (3,), feature_group_count=2), x[0])
    out["2d"] = init_apply(nn, jax, nn.Conv(3, (3, 2), strides=(2, 1)), data(jnp, 1, 5, 4, 2))
    out["transpose"] = init_apply(nn, jax, nn.ConvTranspose(3, (3,), strides=2), x)
    out["transpose_circular"] = init_apply(
        nn, jax, nn.ConvTranspose(3, (4,), strides=2, padding="CIRCULAR"), x
    )
    flipped = nn.ConvTranspose(3, (3,), transpose_kernel=True)
    out["transpose_kernel"] = init_apply(nn, jax, flipped, x)
    out["local"] = init_apply(nn, jax, nn.ConvLocal(3, (3,)), x)
    return out


def _norms(nn, jax, jnp):
    x = data(jnp, 4, 3, 6) * 3 + 1
    mask = jnp.asarray(np.arange(72).reshape(4, 3, 6) % 5 > 0)
    return {
        "layer": init_apply(nn, jax, nn.LayerNorm(), x),
        "layer_axes": init_apply(nn, jax, nn.LayerNorm(reduction_axes=(1, 2), feature_axes=-1), x),
        "layer_mask": init_apply(nn, jax, nn.LayerNorm(use_fast_variance=False), x, mask=mask),
        "rms": init_apply(nn, jax, nn.RMSNorm(use_scale=False), x),
        "group": init_apply(nn, jax, nn.GroupNorm(num_groups=None, group_size=2), x),
        "instance": init_apply(nn, jax, nn.InstanceNorm(feature_axes=(1,)), x),
        "batch": init_apply(nn, jax, nn.BatchNorm(False, momentum=0.8), x, mutable=["batch_stats"]),
        "batch_axis": init_apply(nn, jax, nn.BatchNorm(False, axis=1), x, mutable=["batch_stats"]),
        "spectral": init_apply(
            nn, jax, nn.SpectralNorm(nn.Dense(3)), x, update_stats=True, mutable=["batch_stats"]
        ),  # fmt: skip
        "weight": init_apply(nn, jax, nn.WeightNorm(nn.Dense(3)), x),
    }


def _attention(nn, jax, jnp):
    q, kv = data(jnp, 2, 3, 4), data(jnp, 2, 5, 4, seed=1)
    mask = jnp.asarray(np.random.RandomState(3).rand(2, 1, 3, 5) > 0.3)
    mha = nn.MultiHeadDotProductAttention
    out = {
        "cross": init_apply(nn, jax, mha(num_heads=2, qkv_features=8, out_features=3), q, kv),
        "masked": init_apply(nn, jax, mha(num_heads=2), q, kv, mask=mask),
        "normalize_qk": init_apply(nn, jax, mha(num_heads=1, normalize_qk=True), q),
        "dropout": init_apply(nn, jax, mha(num_heads=2, dropout_rate=0.5), q,
                              deterministic=False, rngs={"dropout": jax.random.key(3)}),
        "self_causal": init_apply(nn, jax, nn.SelfAttention(num_heads=2), q,
                                  mask=nn.make_causal_mask(jnp.ones((2, 3)))),
    }  # fmt: skip
    layer = nn.SelfAttention(num_heads=2, decode=True)
    variables = layer.init(jax.random.key(0), q)
    cache, steps = variables["cache"], []
    for t in range(3):
        y, updates = layer.apply({"params": variables["params"], "cache": cache}, q[:, t : t + 1],
                                 mutable=["cache"])  # fmt: skip
        cache = updates["cache"]
        steps.append(y)
    out["decode"] = {"steps": steps, "cache": cache}
    return out


def _dropout_pool(nn, jax, jnp):
    x = data(jnp, 3, 6, 4) + 2
    key = {"dropout": jax.random.key(7)}
    return {
        "dropout": nn.Dropout(0.3, deterministic=False).apply({}, x, rngs=key),
        "dropout_broadcast": nn.Dropout(0.5, broadcast_dims=(0,)).apply({}, x, deterministic=False,
                                                                        rngs=key),
        "avg_pool": nn.avg_pool(x, (3,), padding="SAME", count_include_pad=False),
        "max_pool": nn.max_pool(x, (2,), strides=(2,)),
        "prelu": init_apply(nn, jax, nn.PReLU(), x - 2),
    }  # fmt: skip


def _recurrent(nn, jax, jnp):
    x = data(jnp, 2, 5, 4)
    out = {}
    for name in ["LSTMCell", "OptimizedLSTMCell", "GRUCell", "MGUCell", "SimpleCell"]:
        cell = getattr(nn, name)(3)
        carry = cell.initialize_carry(jax.random.key(1), x[:, 0].shape)
        variables = cell.init(jax.random.key(0), carry, x[:, 0])
        out[name] = {"init": variables, "apply": cell.apply(variables, carry, x[:, 1])}
    cell = nn.ConvLSTMCell(3, (2,))
    carry = cell.initialize_carry(jax.random.key(1), x.shape)
    out["ConvLSTMCell"] = init_apply(nn, jax, cell, carry, x)
    lengths = jnp.asarray([3, 5])
    out["rnn"] = init_apply(nn, jax, nn.RNN(nn.LSTMCell(3), return_carry=True), x)
    out["rnn_reverse"] = init_apply(nn, jax, nn.RNN(nn.GRUCell(3), reverse=True, keep_order=True),
                                    x, seq_lengths=lengths)  # fmt: skip
    out["rnn_time_major"] = init_apply(nn, jax, nn.RNN(nn.SimpleCell(3), time_major=True), x)
    out["bidirectional"] = init_apply(
        nn, jax, nn.Bidirectional(nn.RNN(nn.LSTMCell(3)), nn.RNN(nn.GRUCell(3))), x,
        seq_lengths=lengths,
    )  # fmt: skip
    return out


def _transforms(nn, jax, jnp):
    x = data(jnp, 4, 2, 5)

    class Stacked(nn.Module):
        @nn.compact
        def __call__(self, x):
            dense = nn.vmap(nn.Dense, variable_axes={"params": 0}, split_rngs={"params": True})
            return dense(3)(x)

    class Block(nn.Module):
        @nn.compact
        def __call__(self, c, _):
            return nn.Dense(c.shape[-1])(c), None

    class Layers(nn.Module):
        @nn.compact
        def __call__(self, x):
            axes, rngs = {"params": 0}, {"params": True}
            scan = nn.scan(Block, variable_axes=axes, split_rngs=rngs, length=3)
            return scan()(x, None)[0]

    class Remat(nn.Module):
        @nn.compact
        def __call__(self, x):
            return nn.remat(nn.Dense)(3)(x) + nn.jit(nn.Dense)(3)(x)

    return {
        "vmap": init_apply(nn, jax, Stacked(), x),
        "scan": init_apply(nn, jax, Layers(), x[0]),
        "remat_jit": init_apply(nn, jax, Remat(), x[0]),
        "sequential": init_apply(nn, jax, nn.Sequential([nn.Dense(4), nn.relu, nn.Dense(2)]), x),
    }


CASES = {
    "dense": _dense,
    "conv": _conv,
    "norms": _norms,
    "attention": _attention,
    "dropout_pool": _dropout_pool,
    "recurrent": _recurrent,
    "transforms": _transforms,
}


def summary(tree, path=""):
    """`{path: [dtype, shape, values as float64]}` over a pytree of dicts, lists and arrays."""
    if hasattr(tree, "items"):
        return {k: v for key in tree for k, v in summary(tree[key], f"{path}/{key}").items()}
    if isinstance(tree, (list, tuple)):
        return {k: v for i, x in enumerate(tree) for k, v in summary(x, f"{path}[{i}]").items()}
    a = np.asarray(tree)
    return {path: [str(a.dtype), list(a.shape), np.asarray(a, np.float64).ravel().tolist()]}
