"""A linear-Gaussian state-space model: Kalman filter, RTS smoother and maximum-likelihood
fitting of its noise scales by gradients through the filter (ours, in the style of
probml/dynamax `linear_gaussian_ssm/inference.py` and the Kalman filter examples written
with `lax.scan` for JAX).

A constant-velocity model (2-D state, 1-D observations) is simulated with `jax.random`; the
filter is a `lax.scan` of predict/update steps (`jnp.linalg.solve` for the gain, the marginal
log-likelihood from `jax.scipy.stats.multivariate_normal.logpdf`), the smoother a reverse
`lax.scan` (`reverse=True`) using `jax.scipy.linalg.cho_factor`/`cho_solve`. The process
and observation noise scales are `softplus` of unconstrained parameters, fitted by
`optax.adam` on the negative log-likelihood in a jitted step. Checks filtered and smoothed
means and covariances, log-likelihoods, gradients and the fitted scales."""

import jax
import jax.numpy as jnp
import optax
from jax.scipy.linalg import cho_factor, cho_solve
from jax.scipy.stats import multivariate_normal

DT = 0.5
F = jnp.array([[1.0, DT], [0.0, 1.0]])
H = jnp.array([[1.0, 0.0]])


def noise_covariances(raw):
    q, r = jax.nn.softplus(raw["q"]), jax.nn.softplus(raw["r"])
    Q = q * jnp.array([[DT**3 / 3, DT**2 / 2], [DT**2 / 2, DT]])
    return Q, r * jnp.eye(1)


def simulate(key, steps, q=0.3, r=0.5):
    Q = q * jnp.array([[DT**3 / 3, DT**2 / 2], [DT**2 / 2, DT]])

    def step(x, k):
        k1, k2 = jax.random.split(k)
        x = F @ x + jax.random.multivariate_normal(k1, jnp.zeros(2), Q)
        y = H @ x + jnp.sqrt(r) * jax.random.normal(k2, (1,))
        return x, (x, y)

    _, (xs, ys) = jax.lax.scan(step, jnp.array([0.0, 1.0]), jax.random.split(key, steps))
    return xs, ys


def kalman_filter(raw, ys, m0=jnp.zeros(2), P0=jnp.eye(2)):
    Q, R = noise_covariances(raw)

    def step(carry, y):
        m, P, ll = carry
        m_pred, P_pred = F @ m, F @ P @ F.T + Q
        S = H @ P_pred @ H.T + R
        ll = ll + multivariate_normal.logpdf(y, H @ m_pred, S)
        K = jnp.linalg.solve(S, H @ P_pred).T
        m = m_pred + K @ (y - H @ m_pred)
        P = (jnp.eye(2) - K @ H) @ P_pred
        return (m, P, ll), (m, P, m_pred, P_pred)

    (_, _, ll), outs = jax.lax.scan(step, (m0, P0, 0.0), ys)
    return ll, outs


def rts_smoother(raw, filtered):
    ms, Ps, m_preds, P_preds = filtered

    def step(carry, inputs):
        m_next, P_next = carry
        m, P, m_pred, P_pred = inputs
        gain = cho_solve(cho_factor(P_pred), F @ P).T
        m_s = m + gain @ (m_next - m_pred)
        P_s = P + gain @ (P_next - P_pred) @ gain.T
        return (m_s, P_s), (m_s, P_s)

    inputs = (ms[:-1], Ps[:-1], m_preds[1:], P_preds[1:])
    _, (m_s, P_s) = jax.lax.scan(step, (ms[-1], Ps[-1]), inputs, reverse=True)
    return jnp.concatenate([m_s, ms[-1:]]), jnp.concatenate([P_s, Ps[-1:]])


def run():
    out = {}
    xs, ys = simulate(jax.random.PRNGKey(0), 12)
    out["simulated"] = [xs, ys]
    raw = {"q": jnp.array(0.0), "r": jnp.array(0.0)}
    ll, filtered = kalman_filter(raw, ys)
    out["log_likelihood"] = ll
    out["filtered"] = [filtered[0], filtered[1][-1]]
    smoothed_m, smoothed_P = rts_smoother(raw, filtered)
    out["smoothed"] = [smoothed_m, smoothed_P[0]]
    out["smoother_reduces_variance"] = bool(
        jnp.all(smoothed_P[:, 0, 0] <= filtered[1][:, 0, 0] + 1e-6)
    )
    out["ll_grad"] = jax.grad(lambda p: kalman_filter(p, ys)[0])(raw)

    tx = optax.adam(0.1)
    opt_state = tx.init(raw)

    @jax.jit
    def step(raw, opt_state):
        nll, grads = jax.value_and_grad(lambda p: -kalman_filter(p, ys)[0])(raw)
        updates, opt_state = tx.update(grads, opt_state)
        return optax.apply_updates(raw, updates), opt_state, nll

    history = []
    for _ in range(5):
        raw, opt_state, nll = step(raw, opt_state)
        history.append(nll)
    out["nll"] = jnp.stack(history)
    out["scales"] = jax.tree.map(jax.nn.softplus, raw)
    return out
