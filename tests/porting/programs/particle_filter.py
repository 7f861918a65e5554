"""A bootstrap particle filter for a nonlinear state-space model, with three resampling
schemes and adaptive resampling (ours, in the style of the sequential Monte Carlo examples
written with `lax.scan` and `jax.random` for JAX, e.g. blackjax's `smc.resampling`).

The classic univariate growth model is simulated in a `lax.scan`. Each filter step propagates
256 particles, weights them with `jax.scipy.stats.norm.logpdf`, accumulates the log marginal
likelihood by `logsumexp`, and resamples: multinomially by `jax.random.categorical(shape=)`,
systematically by `jnp.searchsorted` of stratified points in the weights' `cumsum`, or
residually (`jnp.floor` copies by `jnp.repeat(total_repeat_length=)`, the rest by
`random.choice(p=)`). Adaptive resampling runs `lax.cond` on the effective sample size.
Filters for several seeds run under `vmap`; `jnp.searchsorted`'s `side=` and `method=`
variants give the same indices; the offspring counts of a fixed weight vector come from
`jnp.bincount(length=)`."""

import jax
import jax.numpy as jnp
from jax.scipy.special import logsumexp
from jax.scipy.stats import norm

N_PARTICLES, STEPS = 256, 15
Q, R = 1.0, 1.0


def transition_mean(x, t):
    return 0.5 * x + 25 * x / (1 + x**2) + 8 * jnp.cos(1.2 * t)


def simulate(key):
    def step(x, inputs):
        t, k = inputs
        k1, k2 = jax.random.split(k)
        x = transition_mean(x, t) + jnp.sqrt(Q) * jax.random.normal(k1)
        y = x**2 / 20 + jnp.sqrt(R) * jax.random.normal(k2)
        return x, (x, y)

    _, (xs, ys) = jax.lax.scan(
        step, 0.1, (jnp.arange(1.0, STEPS + 1), jax.random.split(key, STEPS))
    )
    return xs, ys


def multinomial(key, log_w):
    return jax.random.categorical(key, log_w, shape=(log_w.shape[0],))


def systematic(key, log_w):
    n = log_w.shape[0]
    u = (jax.random.uniform(key) + jnp.arange(n)) / n
    cdf = jnp.cumsum(jax.nn.softmax(log_w))
    return jnp.minimum(jnp.searchsorted(cdf, u), n - 1)


def residual(key, log_w):
    n = log_w.shape[0]
    w = jax.nn.softmax(log_w)
    copies = jnp.floor(n * w).astype(jnp.int32)
    deterministic = jnp.repeat(jnp.arange(n), copies, total_repeat_length=n)
    rest = n * w - copies
    n_det = copies.sum()
    sampled = jax.random.choice(key, n, (n,), p=rest / rest.sum())
    return jnp.where(jnp.arange(n) < n_det, deterministic, sampled)


def ess(log_w):
    w = jax.nn.softmax(log_w)
    return 1.0 / jnp.sum(w**2)


def particle_filter(key, ys, resample, adaptive=False):
    k0, key = jax.random.split(key)
    x0 = 0.1 + jnp.sqrt(2.0) * jax.random.normal(k0, (N_PARTICLES,))

    def step(carry, inputs):
        x, log_w, log_z = carry
        t, y, k = inputs
        k_move, k_res = jax.random.split(k)
        x = transition_mean(x, t) + jnp.sqrt(Q) * jax.random.normal(k_move, x.shape)
        previous = logsumexp(log_w)
        log_w = log_w + norm.logpdf(y, x**2 / 20, jnp.sqrt(R))
        log_z = log_z + logsumexp(log_w) - previous
        mean = jnp.sum(jax.nn.softmax(log_w) * x)
        n_eff = ess(log_w)

        def do_resample(args):
            x, log_w = args
            idx = resample(k_res, log_w)
            return x[idx], jnp.full_like(log_w, -jnp.log(N_PARTICLES))

        if adaptive:
            x, log_w = jax.lax.cond(n_eff < N_PARTICLES / 2, do_resample, lambda a: a, (x, log_w))
        else:
            x, log_w = do_resample((x, log_w))
        return (x, log_w, log_z), (mean, n_eff)

    init = (x0, jnp.full(N_PARTICLES, -jnp.log(N_PARTICLES)), 0.0)
    inputs = (jnp.arange(1.0, STEPS + 1), ys, jax.random.split(key, STEPS))
    (_, _, log_z), (means, n_effs) = jax.lax.scan(step, init, inputs)
    return log_z, means, n_effs


def run():
    out = {}
    xs, ys = simulate(jax.random.PRNGKey(0))
    out["simulated"] = [xs, ys]
    key = jax.random.PRNGKey(1)
    for name, scheme in [
        ("multinomial", multinomial),
        ("systematic", systematic),
        ("residual", residual),
    ]:
        log_z, means, n_effs = particle_filter(key, ys, scheme)
        out[name] = [log_z, means, n_effs.min()]
    log_z, means, n_effs = particle_filter(key, ys, systematic, adaptive=True)
    out["adaptive"] = [log_z, means[:5], jnp.sum(n_effs < N_PARTICLES / 2)]
    keys = jax.random.split(jax.random.PRNGKey(2), 3)
    batch_z = jax.vmap(lambda k: particle_filter(k, ys, systematic)[0])(keys)
    out["seeds"] = [batch_z, batch_z.std()]

    log_w = jnp.log(jnp.array([0.05, 0.4, 0.05, 0.3, 0.2]))
    cdf = jnp.cumsum(jax.nn.softmax(log_w))
    u = jnp.concatenate([jnp.zeros(1), cdf[:3], jnp.array([0.2, 0.99])])
    out["searchsorted"] = [jnp.searchsorted(cdf, u), jnp.searchsorted(cdf, u, side="right"),
                           jnp.searchsorted(cdf, u, method="sort"), jnp.searchsorted(cdf, u, method="compare_all"),
                           jnp.searchsorted(cdf, u, method="scan_unrolled", side="right")]  # fmt: skip
    k = jax.random.PRNGKey(3)
    out["offspring"] = [
        jnp.bincount(f(k, log_w), length=5) for f in (multinomial, systematic, residual)
    ]
    return out
