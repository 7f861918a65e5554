"""A VQ-VAE (ours): a strided conv encoder, a vector quantiser that picks each latent's nearest
codebook entry (squared distances expanded as |z|^2 - 2 z.e + |e|^2, `jnp.argmin`, the entry by
`jnp.take`), the straight-through estimator (`z + jax.lax.stop_gradient(q - z)`), codebook and
commitment losses with `stop_gradient` on either side, a `nn.ConvTranspose` decoder. Two
quantisers: one whose codebook is a parameter learned by the codebook loss, one whose codebook
is an exponential moving average of assigned latents kept in a `"vq_stats"` collection (counts
and sums updated through `mutable=`, Laplace-smoothed, skipped while `self.is_initializing()`).
Also the codebook's perplexity and usage (`jnp.bincount` with `length=`), and the gradient
passing straight through the quantiser (`jax.vjp` of the quantiser alone: the identity).
Training: `optax.adam` for both, the EMA state threaded as a `TrainState` field. Checks
codes, losses, perplexities, the EMA statistics and the parameters."""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax import traverse_util
from flax.training import train_state


def nearest(z, codebook):
    flat = z.reshape(-1, z.shape[-1])
    distances = (jnp.sum(flat**2, axis=1, keepdims=True) - 2 * flat @ codebook.T
                 + jnp.sum(codebook**2, axis=1)[None])  # fmt: skip
    codes = jnp.argmin(distances, axis=1)
    return codes.reshape(z.shape[:-1]), jnp.take(codebook, codes, axis=0).reshape(z.shape)


def perplexity(codes, size):
    usage = jnp.bincount(codes.ravel(), length=size) / codes.size
    return jnp.exp(-jnp.sum(usage * jnp.log(usage + 1e-10))), usage


class Quantizer(nn.Module):
    size: int
    beta: float = 0.25

    @nn.compact
    def __call__(self, z, train=True):
        init = nn.initializers.variance_scaling(1.0, "fan_in", "uniform")
        codebook = self.param("codebook", init, (self.size, z.shape[-1]))
        codes, q = nearest(z, codebook)
        codebook_loss = jnp.mean((jax.lax.stop_gradient(z) - q) ** 2)
        commitment = jnp.mean((z - jax.lax.stop_gradient(q)) ** 2)
        return z + jax.lax.stop_gradient(q - z), codes, codebook_loss + self.beta * commitment


class EMAQuantizer(nn.Module):
    size: int
    beta: float = 0.25
    decay: float = 0.9

    @nn.compact
    def __call__(self, z, train=True):
        dim = z.shape[-1]
        init = nn.initializers.variance_scaling(1.0, "fan_in", "uniform")
        key = self.make_rng("params") if self.is_initializing() else None
        start = init(key, (self.size, dim)) if key is not None else None
        counts = self.variable("vq_stats", "counts", jnp.ones, (self.size,))
        sums = self.variable("vq_stats", "sums", lambda: start)
        codebook = sums.value / counts.value[:, None]
        codes, q = nearest(z, codebook)
        if train and not self.is_initializing():
            onehot = jax.nn.one_hot(codes.ravel(), self.size)
            flat = jax.lax.stop_gradient(z).reshape(-1, dim)
            counts_now = self.decay * counts.value + (1 - self.decay) * onehot.sum(0)
            total = counts_now.sum()
            counts.value = (counts_now + 1e-5) / (total + self.size * 1e-5) * total
            sums.value = self.decay * sums.value + (1 - self.decay) * onehot.T @ flat
        commitment = jnp.mean((z - jax.lax.stop_gradient(q)) ** 2)
        return z + jax.lax.stop_gradient(q - z), codes, self.beta * commitment


class VQVAE(nn.Module):
    codes: int = 8
    latent: int = 4
    ema: bool = False

    @nn.compact
    def __call__(self, x, train=True):
        h = nn.relu(nn.Conv(8, (3, 3), strides=2, name="enc1")(x))
        z = nn.Conv(self.latent, (1, 1), name="enc2")(h)
        quantizer = (EMAQuantizer if self.ema else Quantizer)(self.codes, name="vq")
        q, codes, vq_loss = quantizer(z, train)
        h = nn.relu(nn.ConvTranspose(8, (3, 3), strides=(2, 2), name="dec1")(q))
        return nn.Conv(x.shape[-1], (3, 3), name="dec2")(h), codes, vq_loss


class TrainState(train_state.TrainState):
    stats: dict


def blobs(rs, count):
    """8x8x1 images with one or two bright squares."""
    images = rs.rand(count, 8, 8, 1).astype(np.float32) * 0.1
    for i in range(count):
        for _ in range(1 + i % 2):
            r, c = rs.randint(0, 6, 2)
            images[i, r : r + 2, c : c + 2] = 1.0
    return images


@functools.partial(jax.jit, donate_argnums=0)
def train_step(state, images):
    def loss_fn(params):
        variables = {"params": params, **state.stats}
        (recon, codes, vq_loss), stats = state.apply_fn(variables, images, mutable=["vq_stats"])
        mse = jnp.mean((recon - images) ** 2)
        return mse + vq_loss, (mse, codes, stats)

    (loss, (mse, codes, stats)), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    state = state.apply_gradients(grads=grads).replace(stats=stats)
    return state, loss, mse, perplexity(codes, 8)[0]


def run():
    rs = np.random.RandomState(2)
    images = blobs(rs, 8)
    out = {}
    for ema in (False, True):
        name = "ema" if ema else "learned"
        model = VQVAE(ema=ema)
        variables = model.init(jax.random.key(0), images)
        params = variables.pop("params")
        state = TrainState.create(apply_fn=model.apply, params=params, stats=dict(variables),
                                  tx=optax.adam(3e-3))  # fmt: skip
        result = {"collections": sorted(variables), "losses": [], "mse": [], "perplexity": []}
        for _ in range(6):
            images = blobs(rs, 8)
            state, loss, mse, ppl = train_step(state, images)
            result["losses"].append(loss)
            result["mse"].append(mse)
            result["perplexity"].append(ppl)
        _, codes, _ = model.apply({"params": state.params, **state.stats}, images, train=False)
        result["codes"] = codes
        result["usage"] = perplexity(codes, 8)[1]
        result["params"] = traverse_util.flatten_dict(state.params, sep="/")
        if ema:
            result["stats"] = traverse_util.flatten_dict(state.stats, sep="/")
        out[name] = result

    z = jnp.asarray(rs.randn(2, 3, 4).astype(np.float32))
    codebook = jnp.asarray(rs.randn(5, 4).astype(np.float32))

    def straight_through(z):
        return z + jax.lax.stop_gradient(nearest(z, codebook)[1] - z)

    value, vjp = jax.vjp(straight_through, z)
    cotangent = jnp.arange(z.size, dtype=jnp.float32).reshape(z.shape)
    out["straight_through"] = [value, vjp(cotangent)[0]]
    return out
