"""Monte Carlo samplers written in JAX (ours): conjugate Gibbs sampling, Hamiltonian Monte
Carlo and draws from `jax.random`'s distributions checked against `jax.scipy.stats`.

- A Gamma-Poisson hierarchy (counts per site, site rates, a shared rate prior) sampled by a
  Gibbs sweep of `random.gamma` draws divided by rates, in a `lax.scan` over split keys, three
  chains by `vmap`; posterior means and a split R-hat by hand;
- HMC for a Bayesian logistic regression: the log posterior from `stats.norm.logpdf` and
  `jax.nn.log_sigmoid`, its gradient by `jax.grad`, leapfrog steps in `lax.fori_loop`, the
  Metropolis test on `random.uniform`, a jitted `lax.scan` of transitions under `vmap` over
  chains (a step size traced, the leapfrog count static); acceptance rates and means;
- distributions: `random.beta` against `stats.beta.logpdf`, `random.dirichlet` with
  `stats.dirichlet.logpdf` and the expected log-probabilities by `digamma`, a Dirichlet-
  multinomial log-likelihood by `gammaln` and `xlogy`, `random.poisson` on small and large
  rates, `random.binomial`, `random.multivariate_normal` (Cholesky and eigen methods; means
  and covariances of the draws) with `stats.multivariate_normal.logpdf`,
  `random.truncated_normal`, `random.t`, `random.exponential`, `random.laplace`, the
  Gumbel-max trick against `random.categorical` (`shape=`), `random.choice` with `p=` and
  `replace=False`, `random.permutation` of an axis, `random.orthogonal` (Q^T Q) and
  `random.ball`."""

import functools

import jax
import jax.numpy as jnp
import jax.scipy.special as jsp
import jax.scipy.stats as stats
import numpy as np
from jax import lax, random

COUNTS = jnp.array([3.0, 7.0, 1.0, 0.0, 5.0, 9.0])
EXPOSURE = jnp.array([1.0, 2.0, 0.5, 0.5, 1.5, 2.5])
SHAPE, PRIOR_SHAPE, PRIOR_RATE = 2.0, 1.5, 1.0


def gibbs_sweep(beta, key):
    rate_key, beta_key = random.split(key)
    rates = random.gamma(rate_key, SHAPE + COUNTS) / (beta + EXPOSURE)
    beta = random.gamma(beta_key, PRIOR_SHAPE + SHAPE * COUNTS.size) / (PRIOR_RATE + rates.sum())
    return beta, (rates, beta)


def gibbs_chain(key, sweeps=60):
    init_key, run_key = random.split(key)
    beta0 = random.exponential(init_key)
    _, (rates, betas) = lax.scan(gibbs_sweep, beta0, random.split(run_key, sweeps))
    return rates, betas


def split_rhat(chains):
    """Gelman-Rubin's R-hat of (chains, draws) after splitting each chain in halves."""
    n = chains.shape[1] // 2
    halves = jnp.concatenate([chains[:, :n], chains[:, n : 2 * n]])
    within = halves.var(axis=1, ddof=1).mean()
    between = n * halves.mean(axis=1).var(ddof=1)
    return jnp.sqrt(((n - 1) / n * within + between / n) / within)


def log_posterior(w, x, y):
    prior = stats.norm.logpdf(w, 0.0, 2.0).sum()
    z = x @ w
    return prior + jnp.sum(y * jax.nn.log_sigmoid(z) + (1 - y) * jax.nn.log_sigmoid(-z))


def hmc_transition(state, key, x, y, step_size, leapfrogs):
    w, logp = state
    momentum_key, accept_key = random.split(key)
    p0 = random.normal(momentum_key, w.shape)
    grad_logp = jax.grad(log_posterior)

    def leapfrog(_, wp):
        w, p = wp
        p = p + 0.5 * step_size * grad_logp(w, x, y)
        w = w + step_size * p
        p = p + 0.5 * step_size * grad_logp(w, x, y)
        return w, p

    w_new, p_new = lax.fori_loop(0, leapfrogs, leapfrog, (w, p0))
    logp_new = log_posterior(w_new, x, y)
    log_ratio = logp_new - 0.5 * p_new @ p_new - (logp - 0.5 * p0 @ p0)
    accept = jnp.log(random.uniform(accept_key)) < log_ratio
    w = jnp.where(accept, w_new, w)
    logp = jnp.where(accept, logp_new, logp)
    return (w, logp), (w, accept)


@functools.partial(jax.jit, static_argnames="leapfrogs")
def hmc_chains(keys, x, y, step_size, leapfrogs=4):
    def chain(key):
        w0 = jnp.zeros(x.shape[1])
        step = functools.partial(hmc_transition, x=x, y=y, step_size=step_size,
                                 leapfrogs=leapfrogs)  # fmt: skip
        _, (ws, accepts) = lax.scan(step, (w0, log_posterior(w0, x, y)), random.split(key, 40))
        return ws, accepts

    return jax.vmap(chain)(keys)


def distributions(key):
    keys = iter(random.split(key, 20))
    out = {}
    a, b = 2.0, 5.0
    betas = random.beta(next(keys), a, b, shape=(200,))
    out["beta"] = [betas.mean(), stats.beta.logpdf(betas[:4], a, b)]
    alpha = jnp.array([1.0, 2.0, 4.0])
    probs = random.dirichlet(next(keys), alpha, shape=(100,))
    out["dirichlet"] = [probs.mean(axis=0), stats.dirichlet.logpdf(probs[0], alpha),
                        jsp.digamma(alpha) - jsp.digamma(alpha.sum())]  # fmt: skip
    counts = jnp.array([3.0, 0.0, 6.0])
    total = counts.sum()
    out["dirichlet_multinomial"] = (
        jsp.gammaln(total + 1) - jsp.gammaln(counts + 1).sum()
        + jsp.gammaln(alpha.sum()) - jsp.gammaln(total + alpha.sum())
        + jnp.sum(jsp.gammaln(counts + alpha) - jsp.gammaln(alpha))
    )  # fmt: skip
    out["xlogy"] = jsp.xlogy(counts, counts / total).sum()
    small = random.poisson(next(keys), 3.0, shape=(8,))
    large = random.poisson(next(keys), jnp.array([25.0, 40.0]), shape=(4, 2))
    out["poisson"] = [small, large, stats.poisson.logpmf(small, 3.0)]
    out["binomial"] = random.binomial(next(keys), 10.0, jnp.array([0.2, 0.7]), shape=(5, 2))
    mean = jnp.array([1.0, -1.0])
    cov = jnp.array([[1.0, 0.6], [0.6, 2.0]])
    for method in ("cholesky", "eigh"):
        draws = random.multivariate_normal(next(keys), mean, cov, shape=(400,), method=method)
        out[f"mvn_{method}"] = [draws[:3], draws.mean(axis=0), jnp.cov(draws.T)]
    out["mvn_logpdf"] = stats.multivariate_normal.logpdf(jnp.array([[0.5, 0.0], [2.0, -3.0]]),
                                                          mean, cov)  # fmt: skip
    out["truncated"] = random.truncated_normal(next(keys), -1.0, 0.5, shape=(6,))
    out["student_t"] = random.t(next(keys), 3.0, shape=(4,))
    out["exponential"] = random.exponential(next(keys), shape=(4,))
    out["laplace"] = random.laplace(next(keys), shape=(4,))
    logits = jnp.log(jnp.array([0.1, 0.6, 0.3]))
    gumbel_key = next(keys)
    gumbel_max = jnp.argmax(logits + random.gumbel(gumbel_key, (300, 3)), axis=-1)
    draws = random.categorical(gumbel_key, logits, shape=(300,))
    out["gumbel"] = [jnp.bincount(gumbel_max, length=3), jnp.bincount(draws, length=3)]
    out["choice"] = [
        random.choice(next(keys), 5, shape=(3,), replace=False, p=jnp.array([0.1, 0.2, 0.3, 0.2, 0.2])),
        random.choice(next(keys), jnp.arange(12.0).reshape(4, 3), shape=(2,), axis=1),
        random.permutation(next(keys), jnp.arange(12).reshape(3, 4), axis=1, independent=True),
    ]  # fmt: skip
    q = random.orthogonal(next(keys), 3)
    out["orthogonal"] = [q.T @ q, jnp.abs(jnp.linalg.det(q))]
    ball = random.ball(next(keys), 2, shape=(5,))
    out["ball"] = [ball, jnp.linalg.norm(ball, axis=-1) <= 1.0]
    return out


def run():
    key = random.key(2024)
    gibbs_key, hmc_key, dist_key = random.split(key, 3)
    rates, betas = jax.vmap(gibbs_chain)(random.split(gibbs_key, 3))
    gibbs = dict(rate_means=rates[:, 10:].mean(axis=(0, 1)), beta_mean=betas[:, 10:].mean(),
                 rhat=split_rhat(betas[:, 10:]), first=betas[:, :3])  # fmt: skip

    rs = np.random.RandomState(0)
    x = jnp.asarray(np.c_[np.ones(20), rs.randn(20, 2)], jnp.float32)
    y = jnp.asarray((x @ jnp.array([0.5, 2.0, -1.0]) + 0.3 * rs.randn(20) > 0), jnp.float32)
    ws, accepts = hmc_chains(random.split(hmc_key, 3), x, y, 0.4)
    hmc = dict(accept_rate=accepts.mean(axis=1), mean=ws[:, 10:].mean(axis=(0, 1)),
               last=ws[:, -1], accept_dtype=str(accepts.dtype),
               rhat=jax.vmap(split_rhat, in_axes=2)(ws[:, 10:]))  # fmt: skip
    return dict(gibbs=gibbs, hmc=hmc, distributions=distributions(dist_key))
