"""Variational inference by reparameterized Monte Carlo ELBOs: our own program over the APIs
of JAX's ADVI example and its autobatching notebook (`vmapped_log_probs`).

- A diagonal Gaussian fitted to an unnormalized 2-D "banana" density: `norm.logpdf` under
  `vmap` with three mapped arguments, keys from `random.key(step)` on a traced step inside
  `jit`, `random.split` into per-sample keys mapped by `vmap(in_axes=(0, None, None))`,
  `optimizers.momentum` steps under `jit`; both densities on a grid by a function jitted with
  `jit(static_argnums=...)` as a decorator factory (a callable, tuples and an int static;
  `linspace`, `meshgrid`, `stack`), samples of the fit.
- A Bayesian logistic regression on numpy data (float32 features, int32 labels drawn through
  `scipy.special.expit`): the unbatched log-joint's broadcasting `ValueError` on a batch of
  coefficients (its message as printed), the batch written by hand (`axis=-1`, transposes)
  against `vmap`, `jit(vmap(jit(f)))`, the ELBO's `value_and_grad(argnums=(0, 1))` under
  `jit`, a sampler jitted with a static shape, SGD steps and what they print, the dtypes
  (the new-style key's among them).
"""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
import scipy.special
from jax import random
from jax.example_libraries import optimizers
from jax.scipy.stats import norm

from tests.porting import printed


def banana_log_density(z):
    return norm.logpdf(z[0], 0.0, 1.5) + norm.logpdf(z[1], 0.4 * z[0] ** 2 - 1.0, 0.7)


def gaussian_draw(key, mean, log_sd):
    return mean + jnp.exp(log_sd) * random.normal(key, mean.shape)


def gaussian_log_density(z, mean, log_sd):
    return jnp.sum(jax.vmap(norm.logpdf)(z, mean, jnp.exp(log_sd)))


def mc_elbo(log_density, key, mean, log_sd, draws):
    keys = random.split(key, draws)

    def one(k, m, s):
        z = gaussian_draw(k, m, s)
        return log_density(z) - gaussian_log_density(z, m, s)

    return jnp.mean(jax.vmap(one, in_axes=(0, None, None))(keys, mean, log_sd))


@jax.jit(static_argnums=(0, 1, 2, 4))
def on_grid(density, x_range, y_range, params, ticks):
    gx, gy = jnp.meshgrid(jnp.linspace(*x_range, ticks), jnp.linspace(*y_range, ticks))
    points = jnp.stack([gx.ravel(), gy.ravel()], axis=1)
    values = jax.vmap(density, in_axes=(0, None))(points, params)
    return gx, values.reshape(gx.shape)


def fit_banana(out):
    draws = 16
    opt_init, opt_update, opt_params = optimizers.momentum(0.05, mass=0.8)

    @jax.jit
    def loss(params, step):
        return -mc_elbo(banana_log_density, random.key(step), *params, draws)

    @jax.jit
    def step_fn(step, state):
        return opt_update(step, jax.grad(loss)(opt_params(state), step), state)

    state = opt_init((jnp.zeros(2), jnp.zeros(2)))
    losses = []
    for step in range(6):
        state = step_fn(step, state)
        losses.append(loss(opt_params(state), step))
    params = opt_params(state)
    out["advi_losses"] = losses
    out["advi_params"] = params
    gx, target = on_grid(lambda z, _: jnp.exp(banana_log_density(z)), (-3, 3), (-2, 2), 0, 7)
    _, fitted = on_grid(
        lambda z, p: jnp.exp(gaussian_log_density(z, *p)), (-3, 3), (-2, 2), params, 7
    )
    out["advi_grid"] = [gx, target, fitted]
    keys = random.split(random.key(99), 5)
    out["advi_samples"] = jax.vmap(gaussian_draw, in_axes=(0, None, None))(keys, *params)


def logistic_regression(out):
    features, points = 5, 40
    rs = np.random.RandomState(2024)
    coef = rs.randn(features).astype(np.float32)
    x = rs.randn(points, features).astype(np.float32)
    y = (rs.rand(points) < scipy.special.expit(x @ coef)).astype(np.int32)
    signs = 2 * y - 1

    def log_joint(beta):
        prior = jnp.sum(norm.logpdf(beta, loc=0.0, scale=2.0))
        return prior + jnp.sum(jax.nn.log_sigmoid(signs * jnp.dot(x, beta)))

    out["log_joint"] = log_joint(rs.randn(features))
    try:
        log_joint(rs.randn(features, features))
    except ValueError as e:
        print("unbatched:", str(e).splitlines()[0])

    def log_joint_by_hand(betas):
        prior = jnp.sum(norm.logpdf(betas, loc=0.0, scale=2.0), axis=-1)
        return prior + jnp.sum(jax.nn.log_sigmoid(signs * jnp.dot(x, betas.T).T), axis=-1)

    betas = rs.randn(7, features)
    out["by_hand"] = log_joint_by_hand(betas)
    out["vmapped"] = jax.vmap(log_joint)(betas)

    batched = jax.jit(jax.vmap(jax.jit(log_joint)))

    @jax.jit
    def elbo(loc, log_scale, noise):
        samples = loc + jnp.exp(log_scale) * noise
        entropy = jnp.sum(log_scale + 0.5 * np.log(2 * np.pi * np.e))
        return jnp.mean(batched(samples)) + entropy

    elbo_and_grads = jax.jit(jax.value_and_grad(elbo, argnums=(0, 1)))

    @partial(jax.jit, static_argnums=1)
    def draw(key, shape):
        key, sub = random.split(key)
        return key, random.normal(sub, shape)

    key = random.key(5)
    loc = jnp.zeros(features)
    log_scale = jnp.full(features, -1.0)
    for i in range(60):
        key, noise = draw(key, (32, features))
        value, (g_loc, g_log_scale) = elbo_and_grads(loc, log_scale, noise)
        loc = loc + 0.02 * g_loc
        log_scale = log_scale + 0.02 * g_log_scale
        if i % 15 == 0:
            print(f"{i}\t{value}")
    out["posterior"] = [coef, loc, loc - 2 * jnp.exp(log_scale), loc + 2 * jnp.exp(log_scale)]
    print(value.dtype, loc.dtype, noise.dtype, key.dtype, y.dtype)


def run():
    out = {}
    fit_banana(out)
    with printed.Cells() as cells:
        logistic_regression(out)
    out["printed"] = printed.numbered(cells.take())
    return out
