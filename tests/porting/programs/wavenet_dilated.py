"""A small WaveNet (ours): mu-law companding and quantisation to 16 levels (`jnp.log1p`,
`jnp.digitize`), `nn.Embed` of the levels, a stack of residual layers of dilated causal 1-D
convolutions (`nn.Conv(padding="CAUSAL", kernel_dilation=d)`, dilations 1, 2, 4 twice)
with gated tanh x sigmoid activations, a global conditioning vector (the waveform's class
through `nn.Embed`, added to every layer's pre-activations), residual and skip 1x1 convs,
and a ReLU / 1x1 output head. Training: next-level cross-entropy, `optax.chain` of
`clip_by_global_norm` and `adam` on an `exponential_decay` schedule with `staircase=True`.
Checks the receptive field (the non-zero pattern of `jax.jacrev` of one output step with
respect to the input embeddings: causal, 15 steps), losses, parameters, and autoregressive
generation by `lax.fori_loop` writing into a fixed-size buffer with
`jax.random.categorical` (a key folded per step), and the decoded waveform (`jnp.expm1`)."""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax.training import train_state

LEVELS = 16
MU = LEVELS - 1.0


def mu_law_encode(audio):
    squashed = jnp.sign(audio) * jnp.log1p(MU * jnp.abs(audio)) / jnp.log1p(MU)
    edges = jnp.linspace(-1.0, 1.0, LEVELS + 1)[1:-1]
    return jnp.digitize(squashed, edges).astype(jnp.int32)


def mu_law_decode(levels):
    squashed = (levels.astype(jnp.float32) + 0.5) / LEVELS * 2.0 - 1.0
    return jnp.sign(squashed) * jnp.expm1(jnp.abs(squashed) * jnp.log1p(MU)) / MU


class ResidualLayer(nn.Module):
    channels: int
    skip_channels: int
    dilation: int

    @nn.compact
    def __call__(self, x, condition):
        h = nn.Conv(2 * self.channels, (2,), kernel_dilation=(self.dilation,), padding="CAUSAL",
                    name="dilated")(x)  # fmt: skip
        h = h + nn.Dense(2 * self.channels, use_bias=False, name="condition")(condition)[:, None]
        filt, gate = jnp.split(h, 2, axis=-1)
        z = jnp.tanh(filt) * jax.nn.sigmoid(gate)
        skip = nn.Conv(self.skip_channels, (1,), name="skip")(z)
        return x + nn.Conv(self.channels, (1,), name="residual")(z), skip


class WaveNet(nn.Module):
    channels: int = 8
    skip_channels: int = 12
    dilations: tuple = (1, 2, 4, 1, 2, 4)
    classes: int = 2

    def setup(self):
        self.embed = nn.Embed(LEVELS, self.channels)
        self.speaker = nn.Embed(self.classes, 6)
        self.layers = [ResidualLayer(self.channels, self.skip_channels, d)
                       for d in self.dilations]  # fmt: skip
        self.post = nn.Conv(self.skip_channels, (1,))
        self.logits = nn.Conv(LEVELS, (1,))

    def __call__(self, levels, speaker):
        return self.from_embeddings(self.embed(levels), speaker)

    def from_embeddings(self, x, speaker):
        condition = self.speaker(speaker)
        skips = 0.0
        for layer in self.layers:
            x, skip = layer(x, condition)
            skips = skips + skip
        return self.logits(nn.relu(self.post(nn.relu(skips))))


def waves(rs, count, length):
    """Class 0 a sine, class 1 a square wave, random periods and phases, a little noise."""
    speaker = rs.randint(0, 2, count).astype(np.int32)
    t = np.arange(length)[None]
    period = rs.uniform(6, 12, (count, 1))
    phase = rs.uniform(0, 2 * np.pi, (count, 1))
    sine = np.sin(2 * np.pi * t / period + phase)
    audio = np.where(speaker[:, None] == 0, sine, 0.8 * np.sign(sine))
    return (0.9 * audio + 0.05 * rs.randn(count, length)).astype(np.float32), speaker


@functools.partial(jax.jit, donate_argnums=0)
def train_step(state, audio, speaker):
    levels = mu_law_encode(audio)

    def loss_fn(params):
        logits = state.apply_fn({"params": params}, levels[:, :-1], speaker)
        return optax.softmax_cross_entropy_with_integer_labels(logits, levels[:, 1:]).mean()

    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


@functools.partial(jax.jit, static_argnums=(3, 4))
def generate(params, first, speaker, length, model, key):
    buffer = jnp.zeros((first.shape[0], length), jnp.int32).at[:, 0].set(first)

    def body(t, buffer):
        logits = model.apply({"params": params}, buffer, speaker)
        step_logits = jax.lax.dynamic_index_in_dim(logits, t - 1, axis=1, keepdims=False)
        sample = jax.random.categorical(jax.random.fold_in(key, t), step_logits / 0.7)
        return buffer.at[:, t].set(sample)

    return jax.lax.fori_loop(1, length, body, buffer)


def run():
    rs = np.random.RandomState(11)
    model = WaveNet()
    audio, speaker = waves(rs, 6, 24)
    levels = mu_law_encode(audio)
    params = model.init(jax.random.key(0), levels, speaker)["params"]
    embedded = model.apply({"params": params}, levels[:1], method=lambda m, l: m.embed(l))

    def step_logits(x):
        out = model.apply({"params": params}, x, speaker[:1], method=WaveNet.from_embeddings)
        return out[0, 20]

    field = jnp.any(jax.jacrev(step_logits)(embedded)[:, 0] != 0, axis=(0, 2))
    schedule = optax.exponential_decay(4e-3, transition_steps=3, decay_rate=0.5, staircase=True)
    tx = optax.chain(optax.clip_by_global_norm(1.0), optax.adam(schedule))
    state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)
    out = {
        "levels": levels,
        "receptive_field": field,
        "receptive_size": jnp.sum(field),
        "losses": [],
    }
    for _ in range(8):
        audio, speaker = waves(rs, 6, 24)
        state, loss = train_step(state, audio, speaker)
        out["losses"].append(loss)
    out["params"] = state.params
    first = jnp.array([3, 12], jnp.int32)
    samples = generate(state.params, first, jnp.array([0, 1], jnp.int32), 12, model,
                       jax.random.key(5))  # fmt: skip
    out["samples"] = samples
    out["decoded"] = mu_law_decode(samples)
    return out
