"""Trajectory optimisation of a pendulum swing-up by iterative LQR (ours, in the style of the
iLQR/DDP examples written with JAX's automatic linearisation, e.g. trajax's `ilqr`).

The pendulum is integrated by RK4 steps. Each iLQR iteration linearises the dynamics along the
current trajectory with `jax.jacfwd` over (state, control), `vmap`ped over time, and takes the
quadratic expansion of the stage cost with `jax.grad` and `jax.hessian`; the backward pass is
a reverse `lax.scan` computing feedback gains by `jnp.linalg.solve` with Levenberg damping,
the forward pass a `lax.scan` rolling out the feedback policy. A line search evaluates several
step sizes at once by `vmap` and keeps the best with `jnp.argmin`. The total cost must not
increase; the final trajectory, gains and costs are compared, and the gradient of the
optimised cost wrt the target angle through the unrolled iterations."""

import jax
import jax.numpy as jnp

DT, HORIZON = 0.1, 25
ALPHAS = jnp.array([1.0, 0.5, 0.25, 0.1])


def pendulum(x, u):
    theta, omega = x
    return jnp.array([omega, -9.81 * jnp.sin(theta) - 0.1 * omega + u[0]])


def rk4(x, u):
    k1 = pendulum(x, u)
    k2 = pendulum(x + 0.5 * DT * k1, u)
    k3 = pendulum(x + 0.5 * DT * k2, u)
    k4 = pendulum(x + DT * k3, u)
    return x + DT / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def stage_cost(x, u, target):
    return 0.1 * (x[0] - target) ** 2 + 0.01 * x[1] ** 2 + 0.01 * jnp.sum(u**2)


def final_cost(x, target):
    return 10.0 * (x[0] - target) ** 2 + 1.0 * x[1] ** 2


def rollout(x0, us):
    def step(x, u):
        x_next = rk4(x, u)
        return x_next, x_next

    _, xs = jax.lax.scan(step, x0, us)
    return jnp.concatenate([x0[None], xs])


def total_cost(xs, us, target):
    stages = jax.vmap(stage_cost, in_axes=(0, 0, None))(xs[:-1], us, target)
    return stages.sum() + final_cost(xs[-1], target)


def backward_pass(xs, us, target, reg=1e-3):
    fx, fu = jax.vmap(jax.jacfwd(rk4, argnums=(0, 1)))(xs[:-1], us)
    lx, lu = jax.vmap(jax.grad(stage_cost, argnums=(0, 1)), in_axes=(0, 0, None))(
        xs[:-1], us, target
    )
    hess = jax.vmap(jax.hessian(stage_cost, argnums=(0, 1)), in_axes=(0, 0, None))(
        xs[:-1], us, target
    )
    lxx, lux, luu = hess[0][0], hess[1][0], hess[1][1]
    vx = jax.grad(final_cost)(xs[-1], target)
    vxx = jax.hessian(final_cost)(xs[-1], target)

    def step(carry, k):
        vx, vxx = carry
        A, B, qx0, qu0, qxx0, qux0, quu0 = k
        qx = qx0 + A.T @ vx
        qu = qu0 + B.T @ vx
        qxx = qxx0 + A.T @ vxx @ A
        qux = qux0 + B.T @ vxx @ A
        quu = quu0 + B.T @ vxx @ B + reg * jnp.eye(B.shape[1])
        K = -jnp.linalg.solve(quu, qux)
        kff = -jnp.linalg.solve(quu, qu)
        vx = qx + K.T @ quu @ kff + K.T @ qu + qux.T @ kff
        vxx = qxx + K.T @ quu @ K + K.T @ qux + qux.T @ K
        return (vx, 0.5 * (vxx + vxx.T)), (K, kff, qu @ kff)

    _, (Ks, ks, expected) = jax.lax.scan(
        step, (vx, vxx), (fx, fu, lx, lu, lxx, lux, luu), reverse=True
    )
    return Ks, ks, expected.sum()


def forward_pass(xs, us, Ks, ks, alpha):
    def step(x, inputs):
        x_ref, u_ref, K, k = inputs
        u = u_ref + alpha * k + K @ (x - x_ref)
        return rk4(x, u), (x, u)

    x_last, (new_xs, new_us) = jax.lax.scan(step, xs[0], (xs[:-1], us, Ks, ks))
    return jnp.concatenate([new_xs, x_last[None]]), new_us


def ilqr_iteration(xs, us, target):
    Ks, ks, expected = backward_pass(xs, us, target)
    cand_xs, cand_us = jax.vmap(forward_pass, in_axes=(None, None, None, None, 0))(
        xs, us, Ks, ks, ALPHAS
    )
    costs = jax.vmap(total_cost, in_axes=(0, 0, None))(cand_xs, cand_us, target)
    best = jnp.argmin(costs)
    return cand_xs[best], cand_us[best], costs[best], best, expected, Ks


def solve(x0, target, iterations=5):
    us = jnp.zeros((HORIZON, 1))
    xs = rollout(x0, us)
    history = [total_cost(xs, us, target)]
    steps = []
    for _ in range(iterations):
        xs, us, cost, best, expected, Ks = ilqr_iteration(xs, us, target)
        history.append(cost)
        steps.append(best)
    return xs, us, jnp.stack(history), jnp.stack(steps), Ks


def run():
    out = {}
    x0 = jnp.array([0.0, 0.0])
    out["rk4"] = [rk4(jnp.array([0.5, -0.2]), jnp.array([1.0])), rollout(x0, jnp.ones((4, 1)))]
    fx, fu = jax.jacfwd(rk4, argnums=(0, 1))(jnp.array([0.5, -0.2]), jnp.array([1.0]))
    out["linearisation"] = [fx, fu]

    xs, us, history, steps, Ks = solve(x0, jnp.pi / 2)
    out["ilqr"] = [
        history,
        bool(jnp.all(jnp.diff(history) <= 1e-4)),
        steps,
        xs[-1],
        us[:5, 0],
        Ks[0],
    ]

    def optimised_cost(target):
        xs, us = rollout(x0, jnp.zeros((HORIZON, 1))), jnp.zeros((HORIZON, 1))
        for _ in range(2):
            xs, us = ilqr_iteration(xs, us, target)[:2]
        return total_cost(xs, us, target)

    out["target_grad"] = jax.value_and_grad(optimised_cost)(1.0)
    return out
