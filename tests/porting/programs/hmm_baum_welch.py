"""A discrete hidden Markov model: sampling, the forward-backward algorithm in log space,
Viterbi decoding and Baum-Welch re-estimation (ours, in the style of the HMM tutorials and
libraries written with `lax.scan` for JAX, e.g. dynamax's `hidden_markov_model/inference`).

Three hidden states, four symbols. Sequences are sampled by `jax.random.categorical` inside a
`lax.scan` over split keys, a batch of them under `vmap`. The forward pass is a `lax.scan` of
`jax.scipy.special.logsumexp` over the previous state, the backward pass a `lax.scan` with
`reverse=True`; a scaled (probability-space) filter gives the same log-likelihood. Viterbi
keeps `argmax` back-pointers and backtracks with a second reverse scan. Baum-Welch's
expected counts come from the two-slice marginals (`einsum`) and `jax.nn.one_hot` emissions,
summed over a batch; each EM step is jitted and the log-likelihood must not decrease. The
log-likelihood's gradient wrt the transition logits is checked against the expected counts
(Fisher's identity)."""

import jax
import jax.numpy as jnp
from jax.scipy.special import logsumexp

N_STATES, N_SYMBOLS = 3, 4


def true_model():
    A = jnp.array([[0.8, 0.15, 0.05], [0.1, 0.7, 0.2], [0.2, 0.1, 0.7]])
    B = jnp.array([[0.6, 0.2, 0.1, 0.1], [0.1, 0.6, 0.2, 0.1], [0.05, 0.05, 0.3, 0.6]])
    pi = jnp.array([0.5, 0.3, 0.2])
    return pi, A, B


def sample(key, pi, A, B, length):
    k0, key = jax.random.split(key)
    z0 = jax.random.categorical(k0, jnp.log(pi))

    def step(z, k):
        kz, kx = jax.random.split(k)
        x = jax.random.categorical(kx, jnp.log(B[z]))
        z_next = jax.random.categorical(kz, jnp.log(A[z]))
        return z_next, (z, x)

    _, (zs, xs) = jax.lax.scan(step, z0, jax.random.split(key, length))
    return zs, xs


def forward(log_pi, log_A, log_B, xs):
    def step(log_alpha, x):
        log_alpha = logsumexp(log_alpha[:, None] + log_A, axis=0) + log_B[:, x]
        return log_alpha, log_alpha

    first = log_pi + log_B[:, xs[0]]
    last, rest = jax.lax.scan(step, first, xs[1:])
    return logsumexp(last), jnp.concatenate([first[None], rest])


def backward(log_A, log_B, xs):
    def step(log_beta, x_next):
        log_beta = logsumexp(log_A + (log_B[:, x_next] + log_beta)[None, :], axis=1)
        return log_beta, log_beta

    _, betas = jax.lax.scan(step, jnp.zeros(N_STATES), xs[1:], reverse=True)
    return jnp.concatenate([betas, jnp.zeros((1, N_STATES))])


def scaled_filter(pi, A, B, xs):
    def step(alpha, x):
        alpha = (alpha @ A) * B[:, x]
        c = alpha.sum()
        return alpha / c, jnp.log(c)

    alpha0 = pi * B[:, xs[0]]
    _, logs = jax.lax.scan(step, alpha0 / alpha0.sum(), xs[1:])
    return jnp.log(alpha0.sum()) + logs.sum()


def posteriors(pi, A, B, xs):
    log_pi, log_A, log_B = jnp.log(pi), jnp.log(A), jnp.log(B)
    ll, log_alpha = forward(log_pi, log_A, log_B, xs)
    log_beta = backward(log_A, log_B, xs)
    gamma = jnp.exp(log_alpha + log_beta - ll)
    log_xi = log_alpha[:-1, :, None] + log_A[None] + (log_B[:, xs[1:]].T + log_beta[1:])[:, None, :]
    xi = jnp.exp(log_xi - ll)
    return ll, gamma, xi


def viterbi(pi, A, B, xs):
    log_A, log_B = jnp.log(A), jnp.log(B)

    def step(delta, x):
        scores = delta[:, None] + log_A
        return scores.max(axis=0) + log_B[:, x], scores.argmax(axis=0)

    last, pointers = jax.lax.scan(step, jnp.log(pi) + log_B[:, xs[0]], xs[1:])
    best_last = jnp.argmax(last)

    def back(z, ptr):
        prev = ptr[z]
        return prev, prev

    _, path = jax.lax.scan(back, best_last, pointers, reverse=True)
    return jnp.append(path, best_last), last.max()


@jax.jit
def em_step(params, batch):
    pi, A, B = params
    ll, gamma, xi = jax.vmap(posteriors, in_axes=(None, None, None, 0))(pi, A, B, batch)
    pi_new = gamma[:, 0].mean(axis=0)
    trans = xi.sum(axis=(0, 1))
    A_new = trans / trans.sum(axis=1, keepdims=True)
    emit = jnp.einsum("bts,btk->sk", gamma, jax.nn.one_hot(batch, N_SYMBOLS))
    B_new = emit / emit.sum(axis=1, keepdims=True)
    return (pi_new, A_new, B_new), ll.sum()


def run():
    out = {}
    pi, A, B = true_model()
    zs, xs = sample(jax.random.PRNGKey(3), pi, A, B, 24)
    out["sample"] = [zs, xs, str(xs.dtype)]
    batch = jax.vmap(lambda k: sample(k, pi, A, B, 20)[1])(
        jax.random.split(jax.random.PRNGKey(4), 6)
    )
    out["batch_counts"] = jnp.bincount(batch.ravel(), length=N_SYMBOLS)

    ll, gamma, xi = posteriors(pi, A, B, xs)
    out["log_likelihood"] = [ll, scaled_filter(pi, A, B, xs)]
    out["gamma"] = gamma
    out["xi_consistent"] = bool(jnp.allclose(xi.sum(axis=2), gamma[:-1], atol=1e-5))
    path, best = viterbi(pi, A, B, xs)
    out["viterbi"] = [path, best, (path == zs).mean(), (gamma.argmax(axis=1) == zs).mean()]

    # Fisher's identity: d ll / d logits(A) = expected transitions - expected visits * A
    logits = jnp.log(A)
    grad = jax.grad(
        lambda lg: forward(jnp.log(pi), jax.nn.log_softmax(lg, axis=1), jnp.log(B), xs)[0]
    )(logits)
    counts = xi.sum(axis=0)
    out["fisher_grad"] = [
        grad,
        jnp.abs(grad - (counts - counts.sum(1, keepdims=True) * A)).max() < 1e-4,
    ]

    key = jax.random.PRNGKey(7)
    ka, kb = jax.random.split(key)
    params = (jnp.ones(N_STATES) / N_STATES,
              jax.random.dirichlet(ka, jnp.ones(N_STATES), (N_STATES,)),
              jax.random.dirichlet(kb, jnp.ones(N_SYMBOLS), (N_STATES,)))  # fmt: skip
    history = []
    for _ in range(6):
        params, total = em_step(params, batch)
        history.append(total)
    history = jnp.stack(history)
    out["em"] = [history, bool(jnp.all(jnp.diff(history) > -1e-3)), *params]
    return out
