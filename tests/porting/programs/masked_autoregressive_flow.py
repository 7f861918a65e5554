"""A masked autoregressive flow built from MADE blocks (ours, in the style of karpathy/pytorch-
made `made.py` and of the MAF examples written for Flax, e.g. the `MaskedDense` layers of
JAX normalizing-flow tutorials).

MADE's masks come from integer degrees (`numpy`, fixed orderings), a `MaskedDense` module
multiplies its `self.param` kernel by a constant mask; a block outputs a shift and a log-scale
per dimension (`jnp.split`), x -> u = (x - mu) * exp(-alpha) in one pass, log|det| =
-sum(alpha). The inverse runs dimension by dimension in a `lax.fori_loop` (`.at[].set`),
blocks alternate orders by `jnp.flip`. Blocks are a list of submodules in `setup`, the inverse
reached by `method=`. Checks the autoregressive structure (a strictly lower-triangular
`jax.jacfwd` of mu), log-determinants against `jnp.linalg.slogdet`, the round trip, the
log-likelihood under `norm.logpdf`, a few `optax.adam` steps and samples."""

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from jax.scipy.stats import norm


def made_masks(dim, hidden, seed):
    rng = np.random.RandomState(seed)
    degrees = [np.arange(1, dim + 1)]
    for h in hidden:
        degrees.append(rng.randint(1, dim, size=h))
    masks = [
        (d1[None, :] >= d0[:, None]).astype(np.float32) for d0, d1 in zip(degrees, degrees[1:])
    ]
    out = (degrees[0][None, :] > degrees[-1][:, None]).astype(np.float32)
    return masks, out


class MaskedDense(nn.Module):
    features: int
    mask: np.ndarray

    @nn.compact
    def __call__(self, x):
        kernel = self.param("kernel", nn.initializers.lecun_normal(), (x.shape[-1], self.features))
        bias = self.param("bias", nn.initializers.zeros, (self.features,))
        return x @ (kernel * self.mask) + bias


class MADE(nn.Module):
    dim: int
    hidden: tuple = (16, 16)
    seed: int = 0

    @nn.compact
    def __call__(self, x):
        masks, out_mask = made_masks(self.dim, self.hidden, self.seed)
        h = x
        for width, mask in zip(self.hidden, masks):
            h = nn.relu(MaskedDense(width, mask)(h))
        params = MaskedDense(2 * self.dim, np.concatenate([out_mask, out_mask], 1))(h)
        mu, alpha = jnp.split(params, 2, axis=-1)
        return mu, jnp.tanh(alpha)


class MAF(nn.Module):
    dim: int = 3
    blocks: int = 2

    def setup(self):
        self.made = [MADE(self.dim, seed=i) for i in range(self.blocks)]

    def __call__(self, x):
        log_det = jnp.zeros(x.shape[:-1])
        for i, made in enumerate(self.made):
            mu, alpha = made(x)
            x = (x - mu) * jnp.exp(-alpha)
            log_det = log_det - alpha.sum(-1)
            if i < self.blocks - 1:
                x = jnp.flip(x, axis=-1)
        return x, log_det

    def inverse(self, u):
        for i in reversed(range(self.blocks)):
            if i < self.blocks - 1:
                u = jnp.flip(u, axis=-1)
            made = self.made[i]

            def body(d, x, made=made, u=u):
                mu, alpha = made(x)
                return x.at[..., d].set(u[..., d] * jnp.exp(alpha[..., d]) + mu[..., d])

            u = jax.lax.fori_loop(0, self.dim, body, jnp.zeros_like(u))
        return u

    def log_prob(self, x):
        u, log_det = self(x)
        return norm.logpdf(u).sum(-1) + log_det


def make_data(key, n=64):
    k1, k2 = jax.random.split(key)
    a = jax.random.normal(k1, (n,))
    b = 0.5 * a**2 + 0.3 * jax.random.normal(k2, (n,))
    return jnp.stack([a, b, a - b], axis=1)


def run():
    out = {}
    data = make_data(jax.random.PRNGKey(0))
    model = MAF()
    params = model.init(jax.random.PRNGKey(1), data[:2])
    masks, out_mask = made_masks(3, (16, 16), 0)
    out["mask_sums"] = [int(m.sum()) for m in masks] + [int(out_mask.sum())]

    x0 = data[0]
    mu_jac = jax.jacfwd(lambda x: model.apply(params, x, method=lambda m, x: m.made[0](x)[0]))(x0)
    out["mu_jacobian"] = mu_jac
    out["autoregressive"] = bool(jnp.all(jnp.triu(mu_jac) == 0))
    forward = lambda x: model.apply(params, x)[0]  # noqa: E731
    sign, logabs = jnp.linalg.slogdet(jax.jacfwd(forward)(x0))
    out["log_det"] = model.apply(params, x0)[1]
    out["slogdet"] = jnp.stack([sign, logabs])
    u, _ = model.apply(params, data[:5])
    back = model.apply(params, u, method=MAF.inverse)
    out["round_trip_error"] = jnp.max(jnp.abs(back - data[:5])) < 1e-4
    out["log_prob_init"] = model.apply(params, data[:6], method=MAF.log_prob)

    tx = optax.adam(1e-2)
    opt_state = tx.init(params)

    @jax.jit
    def step(params, opt_state, batch):
        nll = lambda p: -jnp.mean(model.apply(p, batch, method=MAF.log_prob))  # noqa: E731
        loss, grads = jax.value_and_grad(nll)(params)
        updates, opt_state = tx.update(grads, opt_state)
        return optax.apply_updates(params, updates), opt_state, loss

    losses = []
    for i in range(5):
        params, opt_state, loss = step(params, opt_state, data[(i % 2) * 32 : (i % 2) * 32 + 32])
        losses.append(loss)
    out["losses"] = jnp.stack(losses)
    out["params"] = params
    z = jax.random.normal(jax.random.PRNGKey(2), (4, 3))
    out["samples"] = model.apply(params, z, method=MAF.inverse)
    return out
