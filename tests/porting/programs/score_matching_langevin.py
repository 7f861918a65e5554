"""Score-based generative modelling on a 2-D mixture (ours), without a diffusion library.

A noise-conditional score network (the noise level's index through `nn.Embed`, an MLP of
`nn.swish` layers whose output is divided by the level's sigma) is trained by denoising score
matching over a geometric ladder of sigmas (`jnp.geomspace`; levels drawn by
`random.randint`, the loss weighted by sigma squared), in jitted steps of `optax.chain(clip,
adamax)`. An unconditional score network is trained by sliced score matching: the projected
Jacobian v^T J v by `jax.jvp` along Rademacher directions (`random.rademacher`, cast), the
divergence's Hutchinson estimate against the exact trace of `jax.jacfwd` under `vmap`.
Sampling is annealed Langevin dynamics: a `lax.scan` over the levels with a `lax.fori_loop` of
steps inside, keys by `random.fold_in`, step sizes proportional to sigma squared, jitted. Checks
losses, the divergences, the samples' moments and the parameters."""

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from jax import lax, random

SIGMAS = jnp.geomspace(1.0, 0.05, 5)


class ScoreNet(nn.Module):
    hidden: int = 32
    conditional: bool = True

    @nn.compact
    def __call__(self, x, level=None):
        h = nn.Dense(self.hidden)(x)
        if self.conditional:
            h = h + nn.Embed(SIGMAS.shape[0], self.hidden)(level)
        h = nn.swish(h)
        h = nn.swish(nn.Dense(self.hidden)(h))
        out = nn.Dense(x.shape[-1])(h)
        if self.conditional:
            out = out / SIGMAS[level][..., None]
        return out


def mixture(rs, n):
    centers = np.array([[-1.5, 0.0], [1.5, 0.5], [0.0, 1.8]])
    which = rs.randint(0, 3, size=n)
    return (centers[which] + 0.25 * rs.randn(n, 2)).astype(np.float32)


def dsm_loss(params, model, x, key):
    level_key, noise_key = random.split(key)
    levels = random.randint(level_key, (x.shape[0],), 0, SIGMAS.shape[0])
    sigma = SIGMAS[levels][:, None]
    noise = random.normal(noise_key, x.shape)
    score = model.apply({"params": params}, x + sigma * noise, levels)
    return jnp.mean(jnp.sum((sigma * score + noise) ** 2, axis=-1))


def ssm_loss(params, model, x, key):
    v = random.rademacher(key, x.shape).astype(jnp.float32)

    def score(y):
        return model.apply({"params": params}, y)

    s, jv = jax.jvp(score, (x,), (v,))
    return jnp.mean(jnp.sum(v * jv, axis=-1) + 0.5 * jnp.sum(s * v, axis=-1) ** 2)


def make_step(model, loss_fn, tx):
    @jax.jit
    def step(params, opt_state, x, key):
        loss, grads = jax.value_and_grad(loss_fn)(params, model, x, key)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step


def train(model, loss_fn, data, key, steps=6):
    params = model.init(random.key(0), data[:2], jnp.zeros(2, jnp.int32))["params"]
    tx = optax.chain(optax.clip(1.0), optax.adamax(1e-2))
    opt_state = tx.init(params)
    step = make_step(model, loss_fn, tx)
    losses = []
    for i in range(steps):
        batch = data[(i % 2) * 16 : (i % 2) * 16 + 16]
        params, opt_state, loss = step(params, opt_state, batch, random.fold_in(key, i))
        losses.append(loss)
    return params, losses


def divergences(model, params, x, key, probes=64):
    def score(y):
        return model.apply({"params": params}, y)

    exact = jax.vmap(lambda y: jnp.trace(jax.jacfwd(score)(y)))(x)
    vs = random.rademacher(key, (probes, *x.shape)).astype(jnp.float32)
    estimates = jax.vmap(lambda v: jnp.sum(v * jax.jvp(score, (x,), (v,))[1], axis=-1))(vs)
    return exact, estimates.mean(axis=0)


def langevin(model, params, key, n=64, steps=8, eps=2e-4):
    init_key, run_key = random.split(key)
    x0 = random.uniform(init_key, (n, 2), minval=-2.5, maxval=2.5)

    def level(x, inputs):
        index, sigma = inputs
        alpha = eps * (sigma / SIGMAS[-1]) ** 2

        def body(t, x):
            z = random.normal(random.fold_in(random.fold_in(run_key, index), t), x.shape)
            s = model.apply({"params": params}, x, jnp.full((n,), index))
            return x + alpha * s + jnp.sqrt(2 * alpha) * z

        x = lax.fori_loop(0, steps, body, x)
        return x, x.mean(axis=0)

    return lax.scan(level, x0, (jnp.arange(SIGMAS.shape[0]), SIGMAS))


def run():
    rs = np.random.RandomState(12)
    data = jnp.asarray(mixture(rs, 32))
    key = random.key(5)
    ncsn = ScoreNet()
    params, dsm_losses = train(ncsn, dsm_loss, data, random.fold_in(key, 1))
    samples, level_means = jax.jit(langevin, static_argnums=0)(ncsn, params, random.key(9))

    plain = ScoreNet(conditional=False)
    ssm_params, ssm_losses = train(plain, ssm_loss, data, random.fold_in(key, 2))
    exact, hutchinson = divergences(plain, ssm_params, data[:6], random.key(3))
    return dict(
        sigmas=SIGMAS,
        dsm_losses=dsm_losses,
        ssm_losses=ssm_losses,
        level_means=level_means,
        sample_mean=samples.mean(axis=0),
        sample_cov=jnp.cov(samples.T),
        divergence=[exact, hutchinson],
        params=jax.tree.leaves(params),
        ssm_params=jax.tree.leaves(ssm_params),
    )
