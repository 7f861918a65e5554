"""A small Vision Transformer (ours): patches embedded by a strided `nn.Conv`, a learned class
token and position embeddings (`self.param` with `nn.initializers.normal(stddev=0.02)`), pre-norm
encoder blocks of `nn.MultiHeadDotProductAttention` (self-attention with `deterministic` passed
at call time) and an MLP with `nn.Dropout`, stochastic depth by `jax.random.bernoulli` with
`self.make_rng('dropout')`, the class token's output to a `Dense` head. A `train` flag flows
through `__call__`; dropout keys are split per step. Training: label-smoothed cross-entropy
(`optax.smooth_labels`), `optax.adamw` behind `optax.MultiSteps` (gradient
accumulation over two micro-batches), accuracy metrics in a `flax.struct.dataclass`. Also the
model with `dtype=jnp.float16` activations' dtypes, and `nn.Module.tabulate`-free parameter
counts per top-level module. Checks losses, logits in both modes, metrics and parameters
(but the attention's key biases, whose gradient is zero)."""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax import struct, traverse_util
from flax.training import train_state


class EncoderBlock(nn.Module):
    heads: int
    mlp: int
    rate: float
    drop_path: float
    dtype: jnp.dtype = jnp.float32

    @nn.compact
    def __call__(self, x, train):
        h = nn.LayerNorm(dtype=self.dtype)(x)
        h = nn.MultiHeadDotProductAttention(num_heads=self.heads, dtype=self.dtype,
                                            dropout_rate=self.rate)(h, h, deterministic=not train)  # fmt: skip
        x = x + self._drop_path(h, train)
        h = nn.LayerNorm(dtype=self.dtype)(x)
        h = nn.Dense(self.mlp, dtype=self.dtype)(h)
        h = nn.Dropout(self.rate)(nn.gelu(h), deterministic=not train)
        h = nn.Dense(x.shape[-1], dtype=self.dtype)(h)
        return x + self._drop_path(h, train)

    def _drop_path(self, h, train):
        if not train or self.drop_path == 0.0:
            return h
        keep = 1.0 - self.drop_path
        mask = jax.random.bernoulli(self.make_rng("dropout"), keep, (h.shape[0], 1, 1))
        return jnp.where(mask, h / keep, 0.0)


class ViT(nn.Module):
    classes: int = 5
    patch: int = 4
    width: int = 16
    depth: int = 2
    heads: int = 2
    dtype: jnp.dtype = jnp.float32

    @nn.compact
    def __call__(self, images, train=False):
        x = nn.Conv(self.width, (self.patch, self.patch), strides=self.patch, padding="VALID",
                    dtype=self.dtype, name="patches")(images)  # fmt: skip
        n, h, w, c = x.shape
        x = x.reshape(n, h * w, c)
        cls = self.param("cls", nn.initializers.zeros, (1, 1, c))
        x = jnp.concatenate([jnp.tile(cls, (n, 1, 1)).astype(x.dtype), x], axis=1)
        positions = self.param("positions", nn.initializers.normal(stddev=0.02), x.shape[1:])
        x = nn.Dropout(0.1)(x + positions, deterministic=not train)
        for i in range(self.depth):
            x = EncoderBlock(self.heads, 2 * self.width, 0.1, 0.1 * (i + 1) / self.depth,
                             self.dtype, name=f"block{i}")(x, train)  # fmt: skip
        x = nn.LayerNorm(name="final_norm", dtype=self.dtype)(x)
        return nn.Dense(self.classes, name="head", dtype=jnp.float32)(x[:, 0])


@struct.dataclass
class Metrics:
    loss: jnp.ndarray
    correct: jnp.ndarray
    count: jnp.ndarray

    def merge(self, other):
        return jax.tree.map(jnp.add, self, other)

    def accuracy(self):
        return self.correct / self.count


@functools.partial(jax.jit, donate_argnums=0)
def train_step(state, images, labels, key):
    dropout_key = jax.random.fold_in(key, state.step)

    def loss_fn(params):
        logits = state.apply_fn({"params": params}, images, train=True,
                                rngs={"dropout": dropout_key})  # fmt: skip
        soft = optax.smooth_labels(jax.nn.one_hot(labels, logits.shape[-1]), 0.1)
        return optax.softmax_cross_entropy(logits, soft).mean(), logits

    (loss, logits), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    metrics = Metrics(loss=loss, correct=jnp.sum(jnp.argmax(logits, -1) == labels),
                      count=jnp.array(labels.shape[0]))  # fmt: skip
    return state.apply_gradients(grads=grads), metrics


def shapes(rs, count):
    """8x8 RGB images: class c is a bright stripe in row pair c."""
    labels = rs.randint(0, 5, count)
    images = rs.rand(count, 8, 8, 3).astype(np.float32) * 0.2
    for i, c in enumerate(labels):
        images[i, c : c + 2, :, i % 3] += 1.0
    return images, labels.astype(np.int32)


def run():
    rs = np.random.RandomState(9)
    model = ViT()
    images, labels = shapes(rs, 8)
    params = model.init(jax.random.key(0), images[:1])["params"]
    tx = optax.MultiSteps(optax.adamw(3e-3, weight_decay=0.05), every_k_schedule=2)
    state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)
    out = {
        "counts": {name: sum(x.size for x in jax.tree.leaves(sub)) for name, sub in params.items()},
        "eval_logits": model.apply({"params": params}, images),
        "train_logits": model.apply({"params": params}, images, train=True,
                                    rngs={"dropout": jax.random.key(1)}),
        "metrics": [],
    }  # fmt: skip
    key = jax.random.key(2)
    total = None
    for _ in range(4):
        images, labels = shapes(rs, 8)
        state, metrics = train_step(state, images, labels, key)
        total = metrics if total is None else total.merge(metrics)
        out["metrics"].append([metrics.loss, metrics.correct, metrics.count])
    out["accuracy"] = total.accuracy()
    out["mini_step"] = state.opt_state.mini_step
    out["gradient_step"] = state.opt_state.gradient_step
    # the attention's key bias has a zero gradient (softmax ignores a shift shared by all keys):
    # Adam turns its round-off into steps, which are not compared
    flat = traverse_util.flatten_dict(state.params, sep="/")
    out["params"] = {k: v for k, v in flat.items() if not k.endswith("key/bias")}
    half = ViT(dtype=jnp.float16)
    logits, inter = half.apply({"params": state.params}, images, capture_intermediates=True,
                               mutable=["intermediates"])  # fmt: skip
    out["half"] = [str(logits.dtype),
                   str(inter["intermediates"]["block0"]["__call__"][0].dtype)]  # fmt: skip
    return out
