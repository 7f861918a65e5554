"""Entropic optimal transport by Sinkhorn's algorithm, differentiated three ways (ours, in the
style of ott-jax/ott's `sinkhorn.py` log-domain solver and of the Sinkhorn examples written
for JAX in PythonOT/POT's JAX backend).

Log-domain Sinkhorn updates of the dual potentials f, g use `logsumexp` of (f + g - C)/eps
along either axis (`b=` weights for the marginals' masses); the solver runs a fixed number of
iterations in `lax.fori_loop`, or until the marginal error is below a tolerance in a
`lax.while_loop`. The regularised cost's gradient with respect to the points is taken by
unrolling (reverse-mode through `lax.scan`), by the envelope theorem (potentials under
`stop_gradient`), and by a `jax.custom_vjp` whose backward pass returns the plan's
contraction, all compared. The Sinkhorn divergence moves a point cloud toward a target by
`optax.sgd` steps (a Wasserstein gradient flow). Checks plans, potentials, iteration counts,
gradients and the flow's points."""

import functools

import jax
import jax.numpy as jnp
import optax
from jax.scipy.special import logsumexp


def cost_matrix(x, y):
    return jnp.sum((x[:, None, :] - y[None, :, :]) ** 2, axis=-1)


def sinkhorn_step(f, g, cost, a, b, eps):
    f = -eps * logsumexp((g[None, :] - cost) / eps, axis=1, b=b[None, :])
    g = -eps * logsumexp((f[:, None] - cost) / eps, axis=0, b=a[:, None])
    return f, g


def plan(f, g, cost, a, b, eps):
    return a[:, None] * b[None, :] * jnp.exp((f[:, None] + g[None, :] - cost) / eps)


def sinkhorn_fixed(cost, a, b, eps=0.5, iters=40):
    body = lambda _, fg: sinkhorn_step(*fg, cost, a, b, eps)  # noqa: E731
    return jax.lax.fori_loop(0, iters, body, (jnp.zeros_like(a), jnp.zeros_like(b)))


def sinkhorn_tol(cost, a, b, eps=0.5, tol=1e-4, max_iters=500):
    def cond(state):
        _, _, err, i = state
        return (err > tol) & (i < max_iters)

    def body(state):
        f, g, _, i = state
        f, g = sinkhorn_step(f, g, cost, a, b, eps)
        err = jnp.sum(jnp.abs(plan(f, g, cost, a, b, eps).sum(1) - a))
        return f, g, err, i + 1

    init = (jnp.zeros_like(a), jnp.zeros_like(b), jnp.inf, 0)
    f, g, err, iters = jax.lax.while_loop(cond, body, init)
    return f, g, err, iters


def ot_cost_unrolled(x, y, a, b, eps=0.5, iters=40):
    cost = cost_matrix(x, y)

    def body(fg, _):
        return sinkhorn_step(*fg, cost, a, b, eps), None

    (f, g), _ = jax.lax.scan(body, (jnp.zeros_like(a), jnp.zeros_like(b)), None, length=iters)
    return jnp.dot(f, a) + jnp.dot(g, b)


def ot_cost_envelope(x, y, a, b, eps=0.5, iters=40):
    f, g = jax.lax.stop_gradient(sinkhorn_fixed(cost_matrix(x, y), a, b, eps, iters))
    cost = cost_matrix(x, y)
    p = plan(f, g, cost, a, b, eps)
    return jnp.dot(f, a) + jnp.dot(g, b) - eps * (p.sum() - 1.0)


@functools.partial(jax.custom_vjp, nondiff_argnums=(4,))
def ot_cost_custom(x, y, a, b, eps):
    f, g = sinkhorn_fixed(cost_matrix(x, y), a, b, eps)
    return jnp.dot(f, a) + jnp.dot(g, b)


def _ot_fwd(x, y, a, b, eps):
    cost = cost_matrix(x, y)
    f, g = sinkhorn_fixed(cost, a, b, eps)
    return jnp.dot(f, a) + jnp.dot(g, b), (x, y, a, b, f, g, cost)


def _ot_bwd(eps, residuals, ct):
    x, y, a, b, f, g, cost = residuals
    p = plan(f, g, cost, a, b, eps)
    grad_x = 2 * (p.sum(1)[:, None] * x - p @ y)
    grad_y = 2 * (p.sum(0)[:, None] * y - p.T @ x)
    return ct * grad_x, ct * grad_y, ct * f, ct * g


ot_cost_custom.defvjp(_ot_fwd, _ot_bwd)


def sinkhorn_divergence(x, y, eps=0.5):
    a = jnp.full(x.shape[0], 1.0 / x.shape[0])
    b = jnp.full(y.shape[0], 1.0 / y.shape[0])
    xy = ot_cost_custom(x, y, a, b, eps)
    return xy - 0.5 * (ot_cost_custom(x, x, a, a, eps) + ot_cost_custom(y, y, b, b, eps))


def run():
    out = {}
    kx, ky = jax.random.split(jax.random.PRNGKey(0))
    x = jax.random.normal(kx, (6, 2))
    y = jax.random.normal(ky, (5, 2)) * 0.5 + jnp.array([1.5, -0.5])
    a = jnp.full(6, 1 / 6)
    b = jax.nn.softmax(jnp.arange(5.0) / 4)

    cost = cost_matrix(x, y)
    f, g = sinkhorn_fixed(cost, a, b)
    p = plan(f, g, cost, a, b, 0.5)
    out["plan"] = p
    out["marginals"] = [p.sum(1), p.sum(0)]
    out["potentials"] = [f, g]
    f2, g2, err, iters = sinkhorn_tol(cost, a, b)
    out["tol_iterations"] = iters
    out["tol_error_small"] = bool(err <= 1e-4)
    out["tol_plan"] = plan(f2, g2, cost, a, b, 0.5)

    out["costs"] = jnp.stack([ot_cost_unrolled(x, y, a, b), ot_cost_envelope(x, y, a, b),
                              ot_cost_custom(x, y, a, b, 0.5)])  # fmt: skip
    g_unrolled = jax.grad(ot_cost_unrolled)(x, y, a, b)
    g_envelope = jax.grad(ot_cost_envelope)(x, y, a, b)
    g_custom = jax.grad(ot_cost_custom)(x, y, a, b, 0.5)
    out["grad_x"] = {"unrolled": g_unrolled, "envelope": g_envelope, "custom": g_custom}
    out["grads_agree"] = bool(jnp.allclose(g_unrolled, g_custom, atol=1e-3))
    out["grad_weights"] = jax.grad(ot_cost_custom, argnums=(2, 3))(x, y, a, b, 0.5)

    tx = optax.sgd(0.5)
    points = x
    opt_state = tx.init(points)
    flow_step = jax.jit(lambda p, s: _flow(tx, p, s, y))
    divergences = []
    for _ in range(5):
        points, opt_state, div = flow_step(points, opt_state)
        divergences.append(div)
    out["divergences"] = jnp.stack(divergences)
    out["flowed_points"] = points
    return out


def _flow(tx, points, opt_state, target):
    div, grads = jax.value_and_grad(sinkhorn_divergence)(points, target)
    updates, opt_state = tx.update(grads, opt_state)
    return optax.apply_updates(points, updates), opt_state, div
