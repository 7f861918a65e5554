"""A Perceiver (ours): padded sets of 2-D points with Fourier position features
(`jnp.linspace` frequencies, sin and cos), a learned latent array (`self.param`, broadcast over
the batch) that cross-attends to the inputs with `nn.MultiHeadDotProductAttention(inputs_q,
inputs_k)` under a padding mask from `nn.make_attention_mask` (queries all valid, keys by
length), a latent self-attention stack whose weights are shared between two repeats (one
submodule called twice), and a Perceiver IO style decoder whose per-point queries cross-attend
back to the latents. Attention weights captured by `sow_weights=True` (the `intermediates`
collection): a padded point gets no weight. Tasks: count the valid points above the diagonal
(a regression from the pooled latents) and classify each point (per-point logits, the loss
masked by `jnp.where` and `optax.softmax_cross_entropy_with_integer_labels`). Training:
`optax.lamb` on a `polynomial_schedule`, gradients clipped by `optax.adaptive_grad_clip`.
Checks the masks, attention weights, outputs, losses and parameters (but the key biases);
also that padding never changes the outputs (the same sets padded to a longer length)."""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax import traverse_util
from flax.training import train_state


def fourier_features(points, bands=4):
    frequencies = jnp.linspace(1.0, 4.0, bands)
    angles = jnp.pi * points[..., None] * frequencies
    features = jnp.concatenate([jnp.sin(angles), jnp.cos(angles)], axis=-1)
    return jnp.concatenate([points, features.reshape(*points.shape[:-1], -1)], axis=-1)


class Attend(nn.Module):
    heads: int
    width: int

    @nn.compact
    def __call__(self, queries, keys, mask=None, sow=False):
        q = nn.LayerNorm(name="query_norm")(queries)
        k = nn.LayerNorm(name="key_norm")(keys)
        h = nn.MultiHeadDotProductAttention(num_heads=self.heads, qkv_features=self.width,
                                            out_features=queries.shape[-1], name="attention")(
            q, k, mask=mask, sow_weights=sow)  # fmt: skip
        x = queries + h
        h = nn.Dense(2 * x.shape[-1], name="up")(nn.LayerNorm(name="mlp_norm")(x))
        return x + nn.Dense(x.shape[-1], name="down")(nn.gelu(h))


class Perceiver(nn.Module):
    latents: int = 4
    width: int = 16
    classes: int = 3
    repeats: int = 2

    @nn.compact
    def __call__(self, points, valid):
        batch = points.shape[0]
        inputs = nn.Dense(self.width, name="embed")(fourier_features(points))
        latent = self.param("latent", nn.initializers.truncated_normal(0.5),
                            (self.latents, self.width))  # fmt: skip
        x = jnp.broadcast_to(latent, (batch, *latent.shape))
        mask = nn.make_attention_mask(jnp.ones((batch, self.latents), bool), valid)
        x = Attend(1, self.width, name="encode")(x, inputs, mask, sow=True)
        process = Attend(2, self.width, name="process")
        for _ in range(self.repeats):
            x = process(x, x)
        count = nn.Dense(1, name="count")(x.mean(axis=1))[:, 0]
        decoded = Attend(1, self.width, name="decode")(inputs, x)
        return count, nn.Dense(self.classes, name="classify")(decoded)


def point_sets(rs, count, length):
    """Points in [-1, 1]^2, 3..length valid per set; classes: which third of the angle."""
    sizes = rs.randint(3, length + 1, count)
    points = rs.uniform(-1, 1, (count, length, 2)).astype(np.float32)
    valid = np.arange(length)[None] < sizes[:, None]
    points = np.where(valid[..., None], points, 0.0).astype(np.float32)
    angle = np.arctan2(points[..., 1], points[..., 0]) + np.pi
    labels = np.minimum((angle / (2 * np.pi / 3)).astype(np.int32), 2)
    above = np.sum((points[..., 1] > points[..., 0]) & valid, axis=1).astype(np.float32)
    return points, valid, labels, above


@functools.partial(jax.jit, donate_argnums=0)
def train_step(state, points, valid, labels, above):
    def loss_fn(params):
        count, logits = state.apply_fn({"params": params}, points, valid)
        per_point = optax.softmax_cross_entropy_with_integer_labels(logits, labels)
        classify = jnp.sum(jnp.where(valid, per_point, 0.0)) / jnp.sum(valid)
        regress = jnp.mean((count - above) ** 2)
        return classify + 0.1 * regress, (classify, regress)

    (loss, parts), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    return state.apply_gradients(grads=grads), loss, parts


def run():
    rs = np.random.RandomState(8)
    model = Perceiver()
    points, valid, labels, above = point_sets(rs, 4, 6)
    params = model.init(jax.random.key(0), points, valid)["params"]
    (count, logits), inter = model.apply({"params": params}, points, valid,
                                         mutable=["intermediates"])  # fmt: skip
    weights = inter["intermediates"]["encode"]["attention"]["attention_weights"][0]
    padded = (np.pad(points, ((0, 0), (0, 3), (0, 0))), np.pad(valid, ((0, 0), (0, 3))))
    count_padded, logits_padded = model.apply({"params": params}, *padded)
    out = {
        "mask": nn.make_attention_mask(jnp.ones((4, 2), bool), valid),
        "weights": weights,
        "padded_weight": jnp.sum(jnp.where(valid[:, None, None, :], 0.0, weights)),
        "count": count,
        "logits": logits,
        "padding_invariant": [bool(jnp.allclose(count, count_padded, atol=1e-5)),
                              bool(jnp.allclose(logits, logits_padded[:, :6], atol=1e-5))],
        "shared": sorted(params["process"]),
    }  # fmt: skip
    schedule = optax.polynomial_schedule(5e-3, 1e-3, power=2, transition_steps=8,
                                         transition_begin=2)  # fmt: skip
    tx = optax.chain(optax.adaptive_grad_clip(0.1), optax.lamb(schedule, weight_decay=1e-3))
    state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)
    out["losses"] = []
    for _ in range(8):
        points, valid, labels, above = point_sets(rs, 4, 6)
        state, loss, parts = train_step(state, points, valid, labels, above)
        out["losses"].append([loss, *parts])
    # an attention's key bias has a zero gradient (softmax ignores a shift shared by all keys):
    # LAMB turns its round-off into steps, which are not compared
    flat = traverse_util.flatten_dict(state.params, sep="/")
    out["params"] = {k: v for k, v in flat.items() if not k.endswith("key/bias")}
    out["trained_count"] = model.apply({"params": state.params}, points, valid)[0]
    return out
