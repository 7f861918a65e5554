"""A Bayesian neural network regressor sampled by Stein variational gradient descent and by
stochastic-gradient Langevin dynamics (ours, written as JAX Bayesian deep learning code is).

The network is a Flax MLP; a particle is its parameter pytree, and a set of particles is the
pytree stacked along a leading axis (`vmap` of `init` over split keys). The log posterior is a
Gaussian likelihood plus a Gaussian prior (`jax.scipy.stats.norm.logpdf`); its gradient for
every particle is `vmap(grad(...))`. SVGD flattens the particles (`vmap(ravel_pytree)`),
builds the RBF kernel with the median heuristic (`jnp.median` of pairwise squared distances),
takes the repulsive term as the gradient of the kernel's sum (`jax.grad` wrt the first
argument) and moves the particles with `optax.adagrad`. SGLD writes its step by hand,
`theta + eps/2 * grad + sqrt(eps) * noise` over a key split per leaf
(`jax.tree_util.tree_unflatten`), in a jitted `lax.scan` of a few steps, and
`optax.noisy_sgd` runs the annealed-noise variant. Checks the kernel, the SVGD direction,
the particles' spread, the predictive mean and standard deviation, the SGLD chain's log
posteriors, and the parameters."""

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from jax import lax
from jax.flatten_util import ravel_pytree
from jax.scipy.stats import norm


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.tanh(nn.Dense(12)(x))
        return nn.Dense(1)(x)[..., 0]


model = MLP()


def make_data(key, n=20):
    k1, k2 = jax.random.split(key)
    x = jax.random.uniform(k1, (n, 1), minval=-2.0, maxval=2.0)
    y = jnp.sin(2 * x[:, 0]) + 0.1 * jax.random.normal(k2, (n,))
    return x, y


def log_posterior(params, x, y, noise=0.1, prior=1.0):
    pred = model.apply({"params": params}, x)
    log_lik = jnp.sum(norm.logpdf(y, pred, noise))
    log_prior = sum(jnp.sum(norm.logpdf(p, 0.0, prior)) for p in jax.tree.leaves(params))
    return log_lik + log_prior


def rbf_kernel(a, b, bandwidth):
    return jnp.exp(-jnp.sum((a - b) ** 2) / bandwidth)


def svgd_direction(flat, scores):
    n = flat.shape[0]
    sq = jnp.sum((flat[:, None] - flat[None]) ** 2, -1)
    bandwidth = jnp.median(sq) / jnp.log(n + 1.0)
    kernel = jax.vmap(lambda a: jax.vmap(lambda b: rbf_kernel(a, b, bandwidth))(flat))(flat)

    def repulsion(target):
        # the sum over particles j of the kernel's gradient wrt particle j, at `target`
        total = lambda a: jnp.sum(jax.vmap(lambda aj: rbf_kernel(aj, target, bandwidth))(a))
        return jax.grad(total)(flat).sum(0)

    return (kernel @ scores + jax.vmap(repulsion)(flat)) / n, kernel, bandwidth


@jax.jit
def svgd_step(particles, opt_state, x, y):
    scores = jax.vmap(jax.grad(log_posterior), (0, None, None))(particles, x, y)
    flat = jax.vmap(lambda p: ravel_pytree(p)[0])(particles)
    unravel = ravel_pytree(jax.tree.map(lambda p: p[0], particles))[1]
    flat_scores = jax.vmap(lambda s: ravel_pytree(s)[0])(scores)
    phi, kernel, bandwidth = svgd_direction(flat, flat_scores)
    updates, opt_state = optax.adagrad(0.05).update(-phi, opt_state, flat)
    flat = optax.apply_updates(flat, updates)
    return jax.vmap(unravel)(flat), opt_state, kernel, bandwidth


def sgld_chain(params, key, x, y, eps=1e-4, steps=20):
    def step(params, key):
        grads = jax.grad(log_posterior)(params, x, y)
        leaves, treedef = jax.tree_util.tree_flatten(params)
        keys = jax.random.split(key, len(leaves))
        noise = jax.tree_util.tree_unflatten(
            treedef, [jax.random.normal(k, p.shape) for k, p in zip(keys, leaves)]
        )
        params = jax.tree.map(lambda p, g, n: p + eps / 2 * g + jnp.sqrt(eps) * n,
                              params, grads, noise)  # fmt: skip
        return params, log_posterior(params, x, y)

    return lax.scan(step, params, jax.random.split(key, steps))


def run():
    out = {}
    x, y = make_data(jax.random.PRNGKey(0))
    keys = jax.random.split(jax.random.PRNGKey(1), 6)
    particles = jax.vmap(lambda k: model.init(k, x)["params"])(keys)
    out["particle_shapes"] = jax.tree.map(lambda p: list(p.shape), particles)
    flat0 = jax.vmap(lambda p: ravel_pytree(p)[0])(particles)
    opt_state = optax.adagrad(0.05).init(flat0)
    for _ in range(10):
        particles, opt_state, kernel, bandwidth = svgd_step(particles, opt_state, x, y)
    out["kernel"] = kernel
    out["bandwidth"] = bandwidth
    out["particles"] = particles
    out["log_posteriors"] = jax.vmap(log_posterior, (0, None, None))(particles, x, y)

    grid = jnp.linspace(-2.5, 2.5, 9)[:, None]
    preds = jax.vmap(lambda p: model.apply({"params": p}, grid))(particles)
    out["predictive_mean"] = preds.mean(0)
    out["predictive_std"] = preds.std(0)

    start = jax.tree.map(lambda p: p[0], particles)
    chain_end, chain_logp = jax.jit(sgld_chain)(start, jax.random.PRNGKey(2), x, y)
    out["sgld_log_posterior"] = chain_logp
    out["sgld_params"] = chain_end

    # optax's annealed-noise SGD on the negative log posterior
    tx = optax.noisy_sgd(1e-4, eta=0.01, gamma=0.55, key=jax.random.key(3))
    params, state = start, tx.init(start)
    losses = []
    for _ in range(5):
        loss, grads = jax.value_and_grad(lambda p: -log_posterior(p, x, y))(params)
        updates, state = tx.update(grads, state, params)
        params = optax.apply_updates(params, updates)
        losses.append(loss)
    out["noisy_sgd_losses"] = jnp.stack(losses)
    out["noisy_sgd_params"] = params
    return out
