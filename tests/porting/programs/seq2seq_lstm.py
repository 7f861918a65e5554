"""An LSTM encoder-decoder that learns to reverse digit strings (ours): "407." gives "=704.".
The encoder is `nn.RNN(nn.LSTMCell, return_carry=True)` with `seq_lengths` (its carry stops at
the end marker); the decoder is `nn.RNN` of a custom `nn.RNNCellBase` that feeds back either
the teacher's character or its own sample (`jax.random.categorical` on a `make_rng("sample")`
key, split per step by `split_rngs={"params": False, "sample": True}`), started from an
`initial_carry`. A hashable character table is a static argument of the jitted decoder; training
is a jitted step (`value_and_grad(has_aux=True)`, Adam, per-step keys by `fold_in`) on a masked
cross-entropy. Checks the metrics, decoded strings, parameters and paths."""

import dataclasses
import functools
import random

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax.training import train_state


@dataclasses.dataclass(frozen=True)
class Characters:
    """One-hot codes of strings over `alphabet`, padded with spaces to fixed lengths."""

    alphabet: str = " 0123456789=."
    query_len: int = 5
    answer_len: int = 6

    @property
    def size(self):
        return len(self.alphabet)

    @property
    def end(self):
        return self.alphabet.index(".")

    def encode(self, texts, length):
        ids = [[self.alphabet.index(c) for c in t.ljust(length)] for t in texts]
        return np.eye(self.size, dtype=np.float32)[np.array(ids)]

    def decode(self, ids):
        text = "".join(self.alphabet[i] for i in ids)
        return text[: text.index(".") + 1] if "." in text else text

    def examples(self, rng, n):
        digits = [
            "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 3))) for _ in range(n)
        ]
        return (self.encode([d + "." for d in digits], self.query_len),
                self.encode(["=" + d[::-1] + "." for d in digits], self.answer_len))  # fmt: skip


class FeedbackCell(nn.RNNCellBase):
    features: int
    vocab: int
    teacher_force: bool

    @nn.compact
    def __call__(self, carry, x):
        lstm_carry, previous = carry
        lstm_carry, h = nn.LSTMCell(self.features)(
            lstm_carry, x if self.teacher_force else previous
        )
        logits = nn.Dense(self.vocab)(h)
        sample = jax.nn.one_hot(jax.random.categorical(self.make_rng("sample"), logits), self.vocab)
        return (lstm_carry, sample), (logits, sample)

    @property
    def num_feature_axes(self):
        return 1


class Reverser(nn.Module):
    hidden: int
    table: Characters
    teacher_force: bool = True

    @nn.compact
    def __call__(self, query, answer):
        lengths = jnp.argmax(jnp.argmax(query, -1) == self.table.end, -1)
        carry, _ = nn.RNN(nn.LSTMCell(self.hidden), return_carry=True, name="encoder")(
            query, seq_lengths=lengths
        )
        decoder = nn.RNN(
            FeedbackCell(self.hidden, self.table.size, self.teacher_force),
            split_rngs={"params": False, "sample": True}, name="decoder",
        )  # fmt: skip
        return decoder(answer[:, :-1], initial_carry=(carry, answer[:, 0]))


def answer_mask(answer, table):
    """1 up to and including the end marker of each target (the answer after '=')."""
    ends = jnp.argmax(jnp.argmax(answer[:, 1:], -1) == table.end, -1)
    return jnp.arange(answer.shape[1] - 1)[None, :] <= ends[:, None]


@functools.partial(jax.jit, static_argnums=4)
def train_step(state, query, answer, key, table):
    targets = answer[:, 1:]
    mask = answer_mask(answer, table)

    def loss_fn(params):
        logits, _ = state.apply_fn(
            {"params": params}, query, answer, rngs={"sample": jax.random.fold_in(key, state.step)}
        )
        losses = optax.softmax_cross_entropy(logits, targets)
        return jnp.sum(losses * mask) / jnp.sum(mask), logits

    (loss, logits), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    right = jnp.where(mask, jnp.argmax(logits, -1) == jnp.argmax(targets, -1), True)
    metrics = {"loss": loss, "accuracy": jnp.mean(jnp.all(right, -1))}
    return state.apply_gradients(grads=grads), metrics


@functools.partial(jax.jit, static_argnums=3)
def decode(params, query, key, table):
    start = jnp.tile(
        jnp.eye(table.size)[table.alphabet.index("=")], (query.shape[0], table.answer_len, 1)
    )
    model = Reverser(16, table, teacher_force=False)
    _, samples = model.apply({"params": params}, query, start, rngs={"sample": key})
    return jnp.argmax(samples, -1)


def run():
    table = Characters()
    rng = random.Random(12)
    model = Reverser(16, table)
    query, answer = table.examples(rng, 16)
    key = jax.random.key(13)
    params = model.init({"params": key, "sample": key}, query, answer)["params"]
    state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=optax.adam(0.02))
    metrics = []
    for _ in range(4):
        query, answer = table.examples(rng, 16)
        state, m = train_step(state, query, answer, key, table)
        metrics.append(m)
    query, _ = table.examples(rng, 4)
    ids = decode(state.params, query, jax.random.key(14), table)
    flat = jax.tree_util.tree_flatten_with_path(state.params)[0]
    return dict(
        metrics=metrics,
        ids=ids,
        decoded=[table.decode(row) for row in np.asarray(ids)],
        params=[leaf for _, leaf in flat],
        paths=[jax.tree_util.keystr(path) for path, _ in flat],
        step=state.step,
    )
