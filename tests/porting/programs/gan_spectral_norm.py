"""A small GAN on 2-D points (ours): a generator MLP with `nn.BatchNorm` and a discriminator
whose `Dense` layers are wrapped in `nn.SpectralNorm` (power iteration state in the
'batch_stats' collection, updated with `update_stats=True` while training), one `TrainState`
each with its own optimizer (Adam with b1=0.5; RMSProp), the non-saturating losses with
`optax.sigmoid_binary_cross_entropy`, `jax.lax.stop_gradient` on the fakes in the
discriminator's step, both steps in one `jit` that returns the updated states and metrics. A
`nn.WeightNorm`-wrapped `Dense` is applied too. Checks losses, parameters, the spectral norm's
state (u vectors, sigma) and its effect (the largest singular value of the normalized kernel)."""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax.training import train_state


class Generator(nn.Module):
    @nn.compact
    def __call__(self, z, train):
        x = nn.Dense(16, use_bias=False)(z)  # BatchNorm follows
        x = nn.BatchNorm(use_running_average=not train, momentum=0.9)(x)
        x = nn.leaky_relu(x, 0.2)
        return nn.Dense(2)(x)


class Discriminator(nn.Module):
    @nn.compact
    def __call__(self, x, update_stats):
        for width in (16, 16):
            x = nn.SpectralNorm(nn.Dense(width), n_steps=1)(x, update_stats=update_stats)
            x = nn.leaky_relu(x, 0.2)
        return nn.SpectralNorm(nn.Dense(1))(x, update_stats=update_stats)[:, 0]


class GANState(train_state.TrainState):
    batch_stats: dict


def ring(rs, count):
    angles = rs.uniform(0, 2 * np.pi, count)
    return np.stack([np.cos(angles), np.sin(angles)], 1).astype(np.float32) * 2.0


@functools.partial(jax.jit, donate_argnums=(0, 1))
def train_step(gen, disc, real, key):
    z = jax.random.normal(key, (real.shape[0], 4))

    def generate(params):
        fake, changed = gen.apply_fn({"params": params, "batch_stats": gen.batch_stats}, z, True,
                                     mutable=["batch_stats"])  # fmt: skip
        return fake, changed["batch_stats"]

    fake, gen_stats = generate(gen.params)
    fake = jax.lax.stop_gradient(fake)

    def disc_loss(params):
        both = jnp.concatenate([real, fake])
        logits, changed = disc.apply_fn({"params": params, "batch_stats": disc.batch_stats},
                                        both, True, mutable=["batch_stats"])  # fmt: skip
        labels = jnp.concatenate([jnp.ones(real.shape[0]), jnp.zeros(fake.shape[0])])
        return optax.sigmoid_binary_cross_entropy(logits, labels).mean(), changed["batch_stats"]

    (d_loss, disc_stats), d_grads = jax.value_and_grad(disc_loss, has_aux=True)(disc.params)
    disc = disc.apply_gradients(grads=d_grads, batch_stats=disc_stats)

    def gen_loss(params):
        fake, stats = generate(params)
        logits = disc.apply_fn({"params": disc.params, "batch_stats": disc.batch_stats}, fake,
                               False)  # fmt: skip
        return optax.sigmoid_binary_cross_entropy(logits, jnp.ones_like(logits)).mean(), stats

    (g_loss, gen_stats), g_grads = jax.value_and_grad(gen_loss, has_aux=True)(gen.params)
    gen = gen.apply_gradients(grads=g_grads, batch_stats=gen_stats)
    return gen, disc, {"generator": g_loss, "discriminator": d_loss}


def run():
    rs = np.random.RandomState(4)
    key = jax.random.key(0)
    g_key, d_key, key = jax.random.split(key, 3)
    generator, discriminator = Generator(), Discriminator()
    g_vars = generator.init(g_key, jnp.zeros((2, 4)), False)
    d_vars = discriminator.init(d_key, jnp.zeros((2, 2)), False)
    out = {
        "collections": [sorted(g_vars), sorted(d_vars)],
        "stats_paths": [
            "/".join(str(getattr(k, "key", k)) for k in path)
            for path, _ in jax.tree_util.tree_flatten_with_path(d_vars["batch_stats"])[0]
        ],
        "initial_sigma": [np.asarray(x) for x in jax.tree.leaves(d_vars["batch_stats"])],
    }
    gen = GANState.create(apply_fn=generator.apply, params=g_vars["params"],
                          tx=optax.adam(2e-3, b1=0.5), batch_stats=g_vars["batch_stats"])  # fmt: skip
    disc = GANState.create(apply_fn=discriminator.apply, params=d_vars["params"],
                           tx=optax.rmsprop(1e-3), batch_stats=d_vars["batch_stats"])  # fmt: skip
    out["metrics"] = []
    for _ in range(4):
        key, sub = jax.random.split(key)
        gen, disc, metrics = train_step(gen, disc, ring(rs, 16), sub)
        out["metrics"].append(metrics)
    out["generator"] = jax.tree.leaves(gen.params)
    out["discriminator"] = jax.tree.leaves(disc.params)
    out["spectral_state"] = jax.tree.leaves(disc.batch_stats)
    out["running"] = jax.tree.leaves(gen.batch_stats)
    layer = nn.SpectralNorm(nn.Dense(3), n_steps=20)
    x = jnp.asarray(rs.randn(5, 4).astype(np.float32))
    v = layer.init(jax.random.key(1), x, update_stats=True)
    y, changed = layer.apply(v, x, update_stats=True, mutable=["batch_stats"])
    kernel = v["params"]["layer_instance"]["kernel"]
    sigma = jax.tree.leaves(changed["batch_stats"])[-1]
    out["normalized"] = [y, jnp.linalg.svd(kernel / sigma, compute_uv=False)]
    weight_norm = nn.WeightNorm(nn.Dense(3))
    wv = weight_norm.init(jax.random.key(2), x)
    out["weight_norm"] = [weight_norm.apply(wv, x), jax.tree.leaves(wv)]
    return out
