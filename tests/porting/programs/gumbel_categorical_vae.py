"""A categorical VAE trained through the Gumbel-softmax relaxation (ours, in the style of the
Categorical VAE notebook of ericjang/gumbel-softmax and of the straight-through sampler
`gumbel_softmax_st` in uoe-agents/revisiting-maddpg `utils.py`, written in Flax Linen).

An encoder gives logits for four 5-way latent variables; a relaxed one-hot sample is
`softmax((logits + jax.random.gumbel(...)) / tau)`, or its straight-through hard version
(`one_hot(argmax) - stop_gradient(soft) + soft`); a decoder reconstructs binarised images
(`jax.random.bernoulli`) scored by `optax.sigmoid_binary_cross_entropy`, plus the KL to a
uniform prior. The temperature anneals as `max(tau0 * exp(-rate * step), tau_min)` and is a
traced argument of the jitted step; the sampler's key is `fold_in(key, step)` passed through
`rngs=`. Checks the losses, the temperature, that the hard sample's gradient is the soft one's,
that Gumbel-max samples follow `softmax(logits)` (against `jax.random.categorical`), samples
decoded from the prior by `method=`, and the parameters."""

import functools

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from flax.training import train_state

LATENTS, CLASSES = 4, 5


def gumbel_softmax(key, logits, tau, hard=False):
    noise = jax.random.gumbel(key, logits.shape, logits.dtype)
    soft = jax.nn.softmax((logits + noise) / tau, axis=-1)
    if not hard:
        return soft
    onehot = jax.nn.one_hot(jnp.argmax(soft, axis=-1), logits.shape[-1], dtype=soft.dtype)
    return onehot - jax.lax.stop_gradient(soft) + soft


class Encoder(nn.Module):
    hidden: int = 32

    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Dense(self.hidden)(x))
        x = nn.Dense(LATENTS * CLASSES)(x)
        return x.reshape(*x.shape[:-1], LATENTS, CLASSES)


class Decoder(nn.Module):
    features: int
    hidden: int = 32

    @nn.compact
    def __call__(self, z):
        z = z.reshape(*z.shape[:-2], LATENTS * CLASSES)
        return nn.Dense(self.features)(nn.relu(nn.Dense(self.hidden)(z)))


class CategoricalVAE(nn.Module):
    features: int = 16

    def setup(self):
        self.encoder = Encoder()
        self.decoder = Decoder(self.features)

    def __call__(self, x, tau, hard=False):
        logits = self.encoder(x)
        z = gumbel_softmax(self.make_rng("gumbel"), logits, tau, hard)
        return self.decoder(z), logits

    def generate(self, key, n):
        codes = jax.random.randint(key, (n, LATENTS), 0, CLASSES)
        return nn.sigmoid(self.decoder(jax.nn.one_hot(codes, CLASSES)))


def kl_uniform(logits):
    log_q = jax.nn.log_softmax(logits, axis=-1)
    return jnp.sum(jnp.exp(log_q) * (log_q + jnp.log(CLASSES)), axis=(-2, -1))


def temperature(step, tau0=1.0, rate=0.1, tau_min=0.5):
    return jnp.maximum(tau0 * jnp.exp(-rate * step), tau_min)


def elbo_loss(params, apply_fn, batch, key, tau, hard=False):
    recon, logits = apply_fn({"params": params}, batch, tau, hard, rngs={"gumbel": key})
    nll = optax.sigmoid_binary_cross_entropy(recon, batch).sum(-1)
    kl = kl_uniform(logits)
    return jnp.mean(nll + kl), (jnp.mean(nll), jnp.mean(kl))


@functools.partial(jax.jit, static_argnames="hard")
def train_step(state, batch, key, hard=False):
    tau = temperature(state.step)
    key = jax.random.fold_in(key, state.step)
    grad_fn = jax.value_and_grad(elbo_loss, has_aux=True)
    (loss, (nll, kl)), grads = grad_fn(state.params, state.apply_fn, batch, key, tau, hard)
    return state.apply_gradients(grads=grads), {"loss": loss, "nll": nll, "kl": kl, "tau": tau}


def make_data(key, n=32, features=16):
    prototypes = jax.random.uniform(jax.random.PRNGKey(7), (4, features))
    which = jax.random.randint(key, (n,), 0, 4)
    return jax.random.bernoulli(jax.random.fold_in(key, 1), prototypes[which]).astype(jnp.float32)


def run():
    out = {}
    data = make_data(jax.random.PRNGKey(0))
    model = CategoricalVAE()
    init_rngs = {"params": jax.random.PRNGKey(1), "gumbel": jax.random.PRNGKey(2)}
    params = model.init(init_rngs, data[:2], 1.0)["params"]
    state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=optax.adam(3e-3))
    key = jax.random.PRNGKey(3)
    history = []
    for _ in range(6):
        state, metrics = train_step(state, data, key)
        history.append(metrics)
    out["history"] = jax.tree.map(lambda *xs: jnp.stack(xs), *history)
    out["params"] = state.params

    # the straight-through sample: the forward value is one-hot, the gradient the soft one's
    logits = jax.random.normal(jax.random.PRNGKey(4), (3, CLASSES))
    hard = gumbel_softmax(jax.random.PRNGKey(5), logits, 0.7, hard=True)
    soft_jac = jax.jacrev(lambda lg: gumbel_softmax(jax.random.PRNGKey(5), lg, 0.7))(logits)
    hard_jac = jax.jacrev(lambda lg: gumbel_softmax(jax.random.PRNGKey(5), lg, 0.7, True))(logits)
    out["hard_sample"] = hard
    out["st_jacobian"] = hard_jac
    out["st_matches_soft"] = bool(jnp.allclose(soft_jac, hard_jac, atol=1e-6))
    (loss_hard, _), grads_hard = jax.value_and_grad(elbo_loss, has_aux=True)(
        state.params, model.apply, data[:8], jax.random.PRNGKey(6), 0.5, True
    )
    out["hard_loss"] = loss_hard
    out["hard_grad_norm"] = optax.global_norm(grads_hard)

    # Gumbel-max samples follow softmax(logits), as jax.random.categorical's do
    row = jnp.array([1.0, 0.0, -1.0, 0.5, 2.0])
    keys = jax.random.split(jax.random.PRNGKey(8), 2000)
    gumbel_max = jax.vmap(lambda k: jnp.argmax(row + jax.random.gumbel(k, row.shape)))(keys)
    categorical = jax.random.categorical(jax.random.PRNGKey(9), row, shape=(2000,))
    out["gumbel_max_freq"] = jnp.bincount(gumbel_max, length=CLASSES) / 2000
    out["categorical_freq"] = jnp.bincount(categorical, length=CLASSES) / 2000
    out["softmax"] = jax.nn.softmax(row)

    samples = model.apply({"params": state.params}, jax.random.PRNGKey(10), 3,
                          method=CategoricalVAE.generate)  # fmt: skip
    out["samples"] = samples
    return out
