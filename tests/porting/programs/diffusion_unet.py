"""A small denoising diffusion model (ours): a UNet of `nn.GroupNorm` + `swish` residual blocks
conditioned on sinusoidal time embeddings (an MLP adds them per channel), a strided `nn.Conv`
down, `nn.ConvTranspose` and `jax.image.resize` up, skip connections joined by concatenation,
`avg_pool` in the middle. Training: the DDPM noise-prediction loss on a linear beta schedule
(`jnp.cumprod`), times and noise drawn with keys split per step, Adam with `optax.ema` kept
beside it in a `TrainState` subclass with an extra field (the averaged parameters, updated
with `optax.incremental_update` too, and compared). Sampling: the ancestral DDPM loop as a
`lax.fori_loop` inside `jit` (a key folded in per step), from the averaged parameters.
Checks losses, both averages, samples, the schedule's tables, the parameter count and XLA's
error when the averaged parameters share the parameters' buffers (both donated)."""

import functools
import math

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax.training import train_state

STEPS = 20


def time_embedding(t, dim):
    half = dim // 2
    freqs = jnp.exp(-math.log(10000.0) * jnp.arange(half) / (half - 1))
    angles = t.astype(jnp.float32)[:, None] * freqs[None, :]
    return jnp.concatenate([jnp.sin(angles), jnp.cos(angles)], axis=-1)


class ResBlock(nn.Module):
    channels: int
    groups: int = 4

    @nn.compact
    def __call__(self, x, emb):
        h = nn.Conv(self.channels, (3, 3))(nn.swish(nn.GroupNorm(self.groups)(x)))
        h = h + nn.Dense(self.channels)(nn.swish(emb))[:, None, None, :]
        h = nn.Conv(self.channels, (3, 3))(nn.swish(nn.GroupNorm(self.groups)(h)))
        if x.shape[-1] != self.channels:
            x = nn.Conv(self.channels, (1, 1), name="skip")(x)
        return x + h


class UNet(nn.Module):
    base: int = 8

    @nn.compact
    def __call__(self, x, t):
        emb = time_embedding(t, 16)
        emb = nn.Dense(32)(nn.gelu(nn.Dense(32)(emb)))
        h0 = nn.Conv(self.base, (3, 3), name="stem")(x)
        h1 = ResBlock(self.base)(h0, emb)
        h2 = nn.Conv(2 * self.base, (3, 3), strides=(2, 2), name="down")(h1)
        h2 = ResBlock(2 * self.base)(h2, emb)
        mid = nn.avg_pool(h2, (2, 2), strides=(2, 2))
        mid = ResBlock(2 * self.base)(mid, emb)
        n, hh, ww, c = mid.shape
        up = jax.image.resize(mid, (n, 2 * hh, 2 * ww, c), method="nearest")
        up = ResBlock(2 * self.base)(jnp.concatenate([up, h2], axis=-1), emb)
        up = nn.ConvTranspose(self.base, (2, 2), strides=(2, 2), name="up")(up)
        up = ResBlock(self.base)(jnp.concatenate([up, h1], axis=-1), emb)
        return nn.Conv(x.shape[-1], (3, 3), name="head")(nn.swish(nn.GroupNorm(4)(up)))


def schedule():
    betas = jnp.linspace(1e-4, 0.2, STEPS, dtype=jnp.float32)
    alphas = 1.0 - betas
    return betas, alphas, jnp.cumprod(alphas)


class DiffusionState(train_state.TrainState):
    ema_params: dict
    ema_state: optax.OptState


def loss_fn(params, apply_fn, images, key):
    t_key, noise_key = jax.random.split(key)
    t = jax.random.randint(t_key, (images.shape[0],), 0, STEPS)
    noise = jax.random.normal(noise_key, images.shape)
    _, _, bars = schedule()
    bar = bars[t][:, None, None, None]
    noisy = jnp.sqrt(bar) * images + jnp.sqrt(1.0 - bar) * noise
    return jnp.mean((apply_fn({"params": params}, noisy, t) - noise) ** 2)


@functools.partial(jax.jit, donate_argnums=0)
def train_step(state, images, key):
    loss, grads = jax.value_and_grad(loss_fn)(state.params, state.apply_fn, images, key)
    state = state.apply_gradients(grads=grads)
    averaged, ema_state = optax.ema(0.8).update(state.params, state.ema_state)
    by_hand = optax.incremental_update(state.params, state.ema_params, step_size=0.2)
    return state.replace(ema_params=by_hand, ema_state=ema_state), loss, averaged


@functools.partial(jax.jit, static_argnums=(0, 3))
def sample(apply_fn, params, key, shape):
    betas, alphas, bars = schedule()
    key, start = jax.random.split(key)

    def step(i, x):
        t = STEPS - 1 - i
        eps = apply_fn({"params": params}, x, jnp.full((shape[0],), t))
        mean = (x - betas[t] / jnp.sqrt(1.0 - bars[t]) * eps) / jnp.sqrt(alphas[t])
        noise = jax.random.normal(jax.random.fold_in(key, i), x.shape)
        return jnp.where(t > 0, mean + jnp.sqrt(betas[t]) * noise, mean)

    return jax.lax.fori_loop(0, STEPS, step, jax.random.normal(start, shape))


def blobs(rs, count):
    """8x8 two-channel images of a bright square at a random place."""
    images = np.full((count, 8, 8, 2), -1.0, np.float32)
    for i, (r, c) in enumerate(rs.randint(0, 5, (count, 2))):
        images[i, r : r + 3, c : c + 3, i % 2] = 1.0
    return images


def run():
    rs = np.random.RandomState(11)
    model = UNet()
    key = jax.random.key(7)
    key, init_key = jax.random.split(key)
    params = model.init(init_key, jnp.zeros((1, 8, 8, 2)), jnp.zeros((1,), jnp.int32))["params"]
    state = DiffusionState.create(
        apply_fn=model.apply, params=params, tx=optax.adam(2e-3),
        ema_params=jax.tree.map(jnp.copy, params), ema_state=optax.ema(0.8).init(params),
    )  # fmt: skip
    shared = state.replace(ema_params=params)  # the same buffers, donated twice
    try:
        train_step(shared, blobs(rs, 8), key)
    except jax.errors.JaxRuntimeError as e:
        shared_error = str(e).splitlines()[0]
    out = {
        "shared_error": shared_error,
        "count": sum(p.size for p in jax.tree_util.tree_leaves(params)),
        "schedule": schedule(),
        "embedding": time_embedding(jnp.array([0, 5, 19]), 16),
        "losses": [],
        "shapes": jax.tree.map(lambda p: list(p.shape), params["ResBlock_2"]),
    }
    for _ in range(4):
        key, step_key = jax.random.split(key)
        state, loss, averaged = train_step(state, blobs(rs, 8), step_key)
        out["losses"].append(loss)
    out["ema"] = jax.tree_util.tree_leaves(averaged)[:6]
    out["by_hand"] = jax.tree_util.tree_leaves(state.ema_params)[:6]
    out["ema_count"] = state.ema_state.count
    out["samples"] = sample(model.apply, state.ema_params, jax.random.key(3), (2, 8, 8, 2))
    out["resized"] = jax.image.resize(jnp.arange(8.0).reshape(1, 2, 2, 2), (1, 4, 3, 2), "linear")
    return out
