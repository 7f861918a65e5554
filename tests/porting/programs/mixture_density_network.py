"""A mixture density network on Bishop's inverted sine problem (ours, in the style of the MDN
tutorials written for JAX, e.g. `ln_gmm_density` in adrn/SnailTime `schnecke/jax_helpers.py`
and the Flax heads of AnandShegde/bnn-zoo `models/gmlp.py`).

Targets y are multi-valued in x (x = y + 0.3 sin(2 pi y) + noise, inverted), so a network
predicts a mixture of K Gaussians per x: logits, means and scales (`nn.softplus` + a floor).
The negative log-likelihood is `logsumexp(log_softmax(logits) + norm.logpdf(y, mu, sigma))`,
also computed as `logsumexp(..., b=weights)` and against `jax.scipy.stats.norm.pdf` summed by
hand. Trained by `optax.chain(clip_by_global_norm, adamw)` on an `optax.warmup_cosine_decay_
schedule`; sampled by `jax.random.categorical` over components then a Gaussian draw under
`vmap` over split keys; the modes compared by `jnp.histogram` counts. Checks losses, mixture
parameters, samples, histogram counts and the parameters."""

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from jax.scipy.special import logsumexp
from jax.scipy.stats import norm

K = 3


class MDN(nn.Module):
    hidden: int = 24
    components: int = K

    @nn.compact
    def __call__(self, x):
        h = nn.tanh(nn.Dense(self.hidden)(x))
        h = nn.tanh(nn.Dense(self.hidden)(h))
        logits = nn.Dense(self.components, name="logits")(h)
        mu = nn.Dense(self.components, name="mu")(h)
        sigma = nn.softplus(nn.Dense(self.components, name="sigma")(h)) + 1e-3
        return logits, mu, sigma


def mdn_nll(logits, mu, sigma, y):
    log_pi = jax.nn.log_softmax(logits, axis=-1)
    return -logsumexp(log_pi + norm.logpdf(y, mu, sigma), axis=-1)


def mdn_nll_weighted(logits, mu, sigma, y):
    weights = jax.nn.softmax(logits, axis=-1)
    return -logsumexp(norm.logpdf(y, mu, sigma), axis=-1, b=weights)


def mdn_nll_naive(logits, mu, sigma, y):
    weights = jax.nn.softmax(logits, axis=-1)
    return -jnp.log(jnp.sum(weights * norm.pdf(y, loc=mu, scale=sigma), axis=-1))


def sample(key, logits, mu, sigma):
    k1, k2 = jax.random.split(key)
    component = jax.random.categorical(k1, logits)
    eps = jax.random.normal(k2)
    return mu[component] + sigma[component] * eps, component


def make_data(n=96, seed=0):
    rng = np.random.RandomState(seed)
    y = rng.uniform(0.0, 1.0, (n, 1)).astype(np.float32)
    x = y + 0.3 * np.sin(2 * np.pi * y) + rng.uniform(-0.05, 0.05, (n, 1)).astype(np.float32)
    return jnp.asarray(x), jnp.asarray(y)


def run():
    out = {}
    x, y = make_data()
    model = MDN()
    params = model.init(jax.random.PRNGKey(0), x[:1])
    schedule = optax.warmup_cosine_decay_schedule(0.0, 1e-2, 2, 8, end_value=1e-3)
    tx = optax.chain(optax.clip_by_global_norm(1.0), optax.adamw(schedule, weight_decay=1e-4))
    opt_state = tx.init(params)

    def loss_fn(params, x, y):
        logits, mu, sigma = model.apply(params, x)
        return jnp.mean(mdn_nll(logits, mu, sigma, y))

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss, optax.global_norm(grads)

    losses, norms = [], []
    for _ in range(8):
        params, opt_state, loss, gnorm = step(params, opt_state, x, y)
        losses.append(loss)
        norms.append(gnorm)
    out["losses"] = jnp.stack(losses)
    out["grad_norms"] = jnp.stack(norms)
    out["params"] = params
    out["learning_rates"] = jnp.array([schedule(i) for i in range(10)])

    grid = jnp.linspace(0.0, 1.3, 5)[:, None]
    logits, mu, sigma = model.apply(params, grid)
    out["mixture"] = {"weights": jax.nn.softmax(logits), "mu": mu, "sigma": sigma}
    targets = jnp.full((5, 1), 0.4)
    out["nll_forms"] = jnp.stack([mdn_nll(logits, mu, sigma, targets),
                                  mdn_nll_weighted(logits, mu, sigma, targets),
                                  mdn_nll_naive(logits, mu, sigma, targets)])  # fmt: skip

    keys = jax.random.split(jax.random.PRNGKey(1), 400)
    xs = jnp.repeat(grid[2:3], 400, axis=0)
    logits, mu, sigma = model.apply(params, xs)
    draws, components = jax.vmap(sample)(keys, logits, mu, sigma)
    out["draws_head"] = draws[:8]
    out["component_counts"] = jnp.bincount(components, length=K)
    counts, edges = jnp.histogram(draws, bins=6, range=(-0.5, 1.5))
    out["histogram"] = {"counts": counts, "edges": edges}
    out["draw_mean_std"] = jnp.stack([draws.mean(), draws.std()])
    return out
