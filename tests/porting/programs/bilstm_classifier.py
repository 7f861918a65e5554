"""A bidirectional LSTM sentence classifier (ours). The embedder replaces words by an unknown
token with `jax.random.bernoulli` (word dropout), resolves its `deterministic` flag with
`nn.module.merge_param`, keeps its table fixed by `lax.stop_gradient` and applies `Dropout`.
Each direction is an `nn.OptimizedLSTMCell` under `nn.transforms.scan` (`variable_broadcast=
"params"`, `split_rngs={"params": False}`, time on axis 1) from `initialize_carry`; the
backward direction runs on each sentence reversed within its length (`jnp.flip` and a traced
`jnp.roll` under `jax.vmap`). A masked softmax attention pools the states (`-jnp.inf` outside
the sentence) before a `tanh` layer and a logit. Training and evaluation steps are jitted,
with SGD with momentum after `add_decayed_weights` in an `optax.chain`; per-batch metrics are
an `flax.struct.PyTreeNode` summed on the host after `jax.device_get`. Checks two epochs'
metrics, the parameters and their paths."""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax import struct
from flax.training import train_state

UNKNOWN = 1


class Embedder(nn.Module):
    vocab: int
    features: int
    word_dropout: float = 0.2
    deterministic: bool | None = None

    @nn.compact
    def __call__(self, tokens, deterministic=None):
        deterministic = nn.module.merge_param("deterministic", self.deterministic, deterministic)
        if not deterministic:
            keep = jax.random.bernoulli(
                self.make_rng("dropout"), 1 - self.word_dropout, tokens.shape
            )
            tokens = jnp.where(keep, tokens, UNKNOWN)
        table = self.param("table", nn.initializers.normal(0.3), (self.vocab, self.features))
        embedded = jax.lax.stop_gradient(table[tokens])
        return nn.Dropout(0.25)(embedded, deterministic=deterministic)


class ScannedLSTM(nn.Module):
    hidden: int

    @functools.partial(
        nn.transforms.scan, variable_broadcast="params", in_axes=1, out_axes=1,
        split_rngs={"params": False},
    )  # fmt: skip
    @nn.compact
    def __call__(self, carry, x):
        return nn.OptimizedLSTMCell(self.hidden)(carry, x)

    def start(self, batch, features):
        return nn.OptimizedLSTMCell(self.hidden, parent=None).initialize_carry(
            jax.random.key(0), (batch, features)
        )


@jax.vmap
def reverse_within(x, length):
    """x (T, ...) with its first `length` steps reversed and the rest after them."""
    return jnp.roll(jnp.flip(x, 0), length - x.shape[0], axis=0)


class SentenceClassifier(nn.Module):
    vocab: int
    hidden: int = 6

    @nn.compact
    def __call__(self, tokens, lengths, deterministic: bool):
        x = Embedder(self.vocab, 8)(tokens, deterministic=deterministic)
        forward, backward = ScannedLSTM(self.hidden), ScannedLSTM(self.hidden)
        _, ahead = forward(forward.start(x.shape[0], x.shape[-1]), x)
        _, behind = backward(backward.start(x.shape[0], x.shape[-1]), reverse_within(x, lengths))
        states = jnp.concatenate([ahead, reverse_within(behind, lengths)], -1)
        scores = nn.Dense(1, use_bias=False)(nn.tanh(nn.Dense(8)(states)))[..., 0]
        inside = jnp.arange(tokens.shape[1])[None, :] < lengths[:, None]
        weights = nn.softmax(jnp.where(inside, scores, -jnp.inf), axis=-1)
        pooled = jnp.sum(weights[..., None] * states, axis=1)
        hidden = nn.Dropout(0.25)(nn.tanh(nn.Dense(8)(pooled)), deterministic=deterministic)
        return nn.Dense(1)(hidden)[:, 0]


class Metrics(struct.PyTreeNode):
    loss: float
    correct: float
    count: int

    def __add__(self, other):
        return jax.tree_util.tree_map(lambda a, b: a + b, self, other)


def batch_metrics(logits, labels):
    losses = optax.sigmoid_binary_cross_entropy(logits, labels)
    correct = jnp.sum((logits > 0) == (labels > 0.5))
    return Metrics(loss=jnp.sum(losses), correct=correct, count=labels.shape[0])


@jax.jit
def train_step(state, batch, key):
    def loss_fn(params):
        logits = state.apply_fn(
            {"params": params}, batch["tokens"], batch["lengths"], deterministic=False,
            rngs={"dropout": jax.random.fold_in(key, state.step)},
        )  # fmt: skip
        return optax.sigmoid_binary_cross_entropy(logits, batch["label"]).mean(), logits

    (_, logits), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    return state.apply_gradients(grads=grads), batch_metrics(logits, batch["label"])


@jax.jit
def eval_step(state, batch):
    logits = state.apply_fn(
        {"params": state.params}, batch["tokens"], batch["lengths"], deterministic=True
    )
    return batch_metrics(logits, batch["label"])


def summarize(metrics):
    total = sum(jax.device_get(metrics[1:]), jax.device_get(metrics[0]))
    return [total.loss / total.count, total.correct / total.count]


def run():
    rs = np.random.RandomState(15)
    batches = []
    for _ in range(3):
        lengths = rs.randint(2, 7, 4).astype(np.int32)
        tokens = rs.randint(2, 11, (4, 6)).astype(np.int32) * (np.arange(6) < lengths[:, None])
        batches.append({"tokens": tokens, "lengths": lengths,
                        "label": (tokens[:, 0] % 2).astype(np.float32)})  # fmt: skip
    model = SentenceClassifier(vocab=11)
    key, init_key = jax.random.split(jax.random.key(16))
    params = model.init(init_key, batches[0]["tokens"], batches[0]["lengths"], True)["params"]
    tx = optax.chain(optax.add_decayed_weights(1e-3), optax.sgd(0.2, momentum=0.9))
    state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)
    out = {}
    for epoch in range(2):
        train = []
        for batch in batches:
            state, m = train_step(state, batch, key)
            train.append(m)
        out[f"epoch{epoch}"] = [
            summarize(train),
            summarize([eval_step(state, b) for b in batches[:2]]),
        ]
    flat = jax.tree_util.tree_flatten_with_path(state.params)[0]
    out["params"] = [leaf for _, leaf in flat]
    out["paths"] = [jax.tree_util.keystr(path) for path, _ in flat]
    out["step"] = state.step
    return out
