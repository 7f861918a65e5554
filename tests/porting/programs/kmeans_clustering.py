"""K-means clustering with k-means++ seeding, and a Gaussian mixture fitted by EM (ours, in the
style of the k-means examples written for JAX, e.g. the vectorised Lloyd iterations of
google-research `kmeans` notebooks and scikit-learn's k-means++ seeding ported to
`jax.random.choice(p=)`).

k-means++ picks each next centre by `jax.random.choice` with probabilities proportional to the
squared distance to the nearest chosen centre (a `lax.fori_loop` over centres with
`.at[].set`). Lloyd's iterations run in a `lax.while_loop` until the assignment stops changing:
distances by broadcasting, `argmin`, new centres by `jax.ops.segment_sum` of points and counts
(empty clusters keep their centre via `jnp.where`). Cluster sizes by `jnp.unique(size=,
return_counts=True)` and `jnp.bincount`; the inertia; `jax.vmap` over restarts with split keys
and the best by `argmin`. EM for a diagonal Gaussian mixture: responsibilities by
`jax.nn.softmax` of log-densities, M-step by weighted means, the log-likelihood by
`logsumexp`, in a `lax.scan`. Checks centres, labels, sizes, inertias and EM's trace."""

import jax
import jax.numpy as jnp
from jax.scipy.special import logsumexp

K = 3


def make_blobs(key, n_per=20):
    centres = jnp.array([[0.0, 0.0], [3.0, 3.0], [-3.0, 2.0]])
    noise = 0.6 * jax.random.normal(key, (3, n_per, 2))
    return (centres[:, None, :] + noise).reshape(-1, 2)


def sq_dists(x, c):
    return jnp.sum((x[:, None, :] - c[None, :, :]) ** 2, axis=-1)


def kmeans_plus_plus(key, x, k=K):
    keys = jax.random.split(key, k)
    first = x[jax.random.randint(keys[0], (), 0, x.shape[0])]
    centres = jnp.zeros((k, x.shape[1])).at[0].set(first)

    def body(i, centres):
        d = sq_dists(x, centres)
        d = jnp.where(jnp.arange(k)[None, :] < i, d, jnp.inf).min(axis=1)
        idx = jax.random.choice(keys[i], x.shape[0], p=d / d.sum())
        return centres.at[i].set(x[idx])

    return jax.lax.fori_loop(1, k, body, centres)


def lloyd(x, centres, max_iters=50):
    def assign(c):
        return jnp.argmin(sq_dists(x, c), axis=1)

    def cond(state):
        _, labels, prev, i = state
        return jnp.any(labels != prev) & (i < max_iters)

    def body(state):
        c, labels, _, i = state
        sums = jax.ops.segment_sum(x, labels, num_segments=K)
        counts = jax.ops.segment_sum(jnp.ones(x.shape[0]), labels, num_segments=K)
        c = jnp.where(counts[:, None] > 0, sums / jnp.maximum(counts, 1)[:, None], c)
        return c, assign(c), labels, i + 1

    labels = assign(centres)
    state = (centres, labels, jnp.full_like(labels, -1), 0)
    centres, labels, _, iters = jax.lax.while_loop(cond, body, state)
    inertia = jnp.sum(jnp.min(sq_dists(x, centres), axis=1))
    return centres, labels, iters, inertia


def em_step(params, x):
    means, log_vars, log_w = params
    var = jnp.exp(log_vars)
    log_pdf = -0.5 * jnp.sum((x[:, None] - means) ** 2 / var + log_vars + jnp.log(2 * jnp.pi), -1)
    joint = log_pdf + jax.nn.log_softmax(log_w)
    ll = jnp.sum(logsumexp(joint, axis=1))
    resp = jax.nn.softmax(joint, axis=1)
    nk = resp.sum(0)
    means = resp.T @ x / nk[:, None]
    var = resp.T @ (x**2) / nk[:, None] - means**2 + 1e-3
    return (means, jnp.log(var), jnp.log(nk / x.shape[0])), ll


def run():
    out = {}
    x = make_blobs(jax.random.PRNGKey(0))
    seeds = kmeans_plus_plus(jax.random.PRNGKey(1), x)
    out["seeds"] = seeds
    centres, labels, iters, inertia = lloyd(x, seeds)
    order = jnp.argsort(centres[:, 0])
    out["centres"] = centres[order]
    out["iterations"] = iters
    out["inertia"] = inertia
    values, counts = jnp.unique(labels, size=K, return_counts=True, fill_value=-1)
    out["sizes"] = jnp.sort(counts)
    out["unique_labels"] = values
    out["bincount_agrees"] = bool(
        jnp.all(jnp.sort(jnp.bincount(labels, length=K)) == jnp.sort(counts))
    )

    restart_keys = jax.random.split(jax.random.PRNGKey(2), 4)
    restart_seeds = jax.vmap(kmeans_plus_plus, in_axes=(0, None))(restart_keys, x)
    inertias = jnp.stack([lloyd(x, s)[3] for s in restart_seeds])
    out["restart_inertias"] = inertias
    out["best_restart"] = jnp.argmin(inertias)

    params = (centres, jnp.zeros((K, 2)), jnp.zeros(K))
    params, lls = jax.lax.scan(lambda p, _: em_step(p, x), params, None, length=6)
    out["em_loglik"] = lls
    out["em_weights"] = jnp.sort(jnp.exp(params[2]))
    out["em_means"] = params[0][jnp.argsort(params[0][:, 0])]
    return out
