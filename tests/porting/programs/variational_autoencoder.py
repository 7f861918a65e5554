"""A variational autoencoder on binary 8x8 images (ours). The encoder gives a mean and a
log-variance, the reparameterization draws from a `make_rng("noise")` stream, the decoder gives
Bernoulli logits. The ELBO's terms are per-example functions under `jax.vmap` (the likelihood
from `nn.log_sigmoid`, the Gaussian KL with `jnp.expm1`); training steps run eagerly (no `jit`)
with `jax.grad(has_aux=True)` on a `TrainState` with Adam; evaluation decodes latent draws
through `nn.apply` of a plain function of the module, and the reconstructions and samples are
tiled into uint8 image grids with `.at[].set`. Checks the losses, grids, parameters and paths."""

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax.training import train_state

SIDE = 8
LATENTS = 3


class Coder(nn.Module):
    """A one-hidden-layer perceptron with named output heads."""

    hidden: int
    heads: tuple

    @nn.compact
    def __call__(self, x):
        h = nn.relu(nn.Dense(self.hidden, name="hidden")(x))
        return tuple(nn.Dense(n, name=f"head{i}")(h) for i, n in enumerate(self.heads))


class VariationalAutoencoder(nn.Module):
    latents: int

    def setup(self):
        self.encoder = Coder(12, (self.latents, self.latents))
        self.decoder = Coder(12, (SIDE * SIDE,))

    def __call__(self, x):
        mean, logvar = self.encoder(x)
        noise = jax.random.normal(self.make_rng("noise"), mean.shape)
        (logits,) = self.decoder(mean + noise * jnp.exp(0.5 * logvar))
        return logits, mean, logvar

    def generate(self, z):
        (logits,) = self.decoder(z)
        return nn.sigmoid(logits)


@jax.vmap
def bernoulli_nll(logits, x):
    return -jnp.sum(x * nn.log_sigmoid(logits) + (1.0 - x) * nn.log_sigmoid(-logits))


@jax.vmap
def gaussian_kl(mean, logvar):
    return -0.5 * jnp.sum(logvar - jnp.square(mean) - jnp.expm1(logvar))


def elbo_terms(params, apply_fn, images, key):
    logits, mean, logvar = apply_fn({"params": params}, images, rngs={"noise": key})
    nll, kl = bernoulli_nll(logits, images).mean(), gaussian_kl(mean, logvar).mean()
    return nll + kl, (nll, kl, logits)


def tile(images, columns, gap=1):
    """Images (n, SIDE*SIDE) in [0, 1] as one uint8 grid with `gap` gray pixels between."""
    rows = -(-images.shape[0] // columns)
    step = SIDE + gap
    grid = jnp.full((rows * step + gap, columns * step + gap), 0.5, jnp.float32)
    for i, image in enumerate(images):
        r, c = divmod(i, columns)
        top, left = gap + r * step, gap + c * step
        grid = grid.at[top : top + SIDE, left : left + SIDE].set(image.reshape(SIDE, SIDE))
    return jnp.clip(jnp.round(grid * 255.0), 0, 255).astype(jnp.uint8)


def run():
    rs = np.random.RandomState(1)
    batches = [(rs.rand(6, SIDE * SIDE) < 0.4).astype(np.float32) for _ in range(4)]
    held_out = (rs.rand(4, SIDE * SIDE) < 0.4).astype(np.float32)
    model = VariationalAutoencoder(LATENTS)
    key, init_key, noise_key, z_key = jax.random.split(jax.random.key(7), 4)
    params = model.init({"params": init_key, "noise": noise_key}, batches[0])["params"]
    state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=optax.adam(3e-3))
    z = jax.random.normal(z_key, (5, LATENTS))
    generate = nn.apply(lambda vae, latents: vae.generate(latents), model)

    losses, grids = [], []
    for epoch in range(2):
        for batch in batches[2 * epoch : 2 * epoch + 2]:
            key, step_key = jax.random.split(key)
            grads, (nll, kl, _) = jax.grad(elbo_terms, has_aux=True)(
                state.params, state.apply_fn, batch, step_key
            )
            state = state.apply_gradients(grads=grads)
            losses.append([nll, kl])
        loss, (nll, kl, logits) = elbo_terms(state.params, model.apply, held_out, key)
        recon = jnp.concatenate([held_out, nn.sigmoid(logits)])
        samples = generate({"params": state.params}, z)
        grids.append([tile(recon, 4), tile(samples, 3)])
        losses.append([loss, nll, kl])
    flat = jax.tree_util.tree_flatten_with_path(state.params)[0]
    return dict(
        losses=losses,
        grids=grids,
        grid_dtype=str(grids[0][0].dtype),
        params=[leaf for _, leaf in flat],
        paths=[jax.tree_util.keystr(path) for path, _ in flat],
        step=state.step,
    )
