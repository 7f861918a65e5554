"""Nonlinear least squares by Gauss-Newton and Levenberg-Marquardt with automatic Jacobians
(ours, in the style of the curve-fitting examples written with `jax.jacfwd` and of
jaxopt's `LevenbergMarquardt`/`GaussNewton` solvers, here by hand).

A two-exponential decay plus offset is fitted to noisy samples. Parameters live in a dict;
`jax.flatten_util.ravel_pytree` turns them into a vector for the solvers. Jacobians by
`jacfwd` and `jacrev` agree, and a column equals a `jax.jvp`. Gauss-Newton steps solve the
normal equations by `jnp.linalg.solve` and by `jnp.linalg.lstsq` on the Jacobian.
Levenberg-Marquardt runs in a jitted `lax.while_loop` (stopping on a step tolerance or an
iteration cap) that adapts the damping: a trial step by `cho_factor`/`cho_solve` of the
damped normal matrix (Marquardt's diagonal scaling), accepted or rejected with `lax.cond`.
The fit's covariance (`jnp.linalg.inv` of J^T J times the residual variance), standard
errors, and a weighted fit by `vmap` over per-point weights are reported, plus a robust
Cauchy-loss refit by iteratively reweighted Gauss-Newton in a `fori_loop`."""

import jax
import jax.numpy as jnp
from jax.flatten_util import ravel_pytree
from jax.scipy.linalg import cho_factor, cho_solve


def model(p, t):
    return p["a1"] * jnp.exp(-p["k1"] * t) + p["a2"] * jnp.exp(-p["k2"] * t) + p["c"]


def data(key):
    t = jnp.linspace(0.0, 4.0, 40)
    truth = {"a1": 2.0, "k1": 3.0, "a2": 1.0, "k2": 0.4, "c": 0.2}
    y = model(truth, t) + 0.02 * jax.random.normal(key, t.shape)
    y = y.at[7].add(0.3).at[23].add(-0.25)  # two outliers
    return t, y


def make_residual(t, y, unravel, w=None):
    def residual(theta):
        r = model(unravel(theta), t) - y
        return r if w is None else jnp.sqrt(w) * r

    return residual


def gauss_newton_step(residual, theta):
    r = residual(theta)
    J = jax.jacfwd(residual)(theta)
    by_normal = jnp.linalg.solve(J.T @ J, -J.T @ r)
    by_lstsq = jnp.linalg.lstsq(J, -r)[0]
    return by_normal, by_lstsq


def levenberg_marquardt(residual, theta0, max_iter=40, tol=1e-4):
    def cost(theta):
        return 0.5 * jnp.sum(residual(theta) ** 2)

    def cond(state):
        _, _, step_norm, i, _ = state
        return (step_norm > tol) & (i < max_iter)

    def body(state):
        theta, lam, _, i, rejected = state
        r = residual(theta)
        J = jax.jacfwd(residual)(theta)
        A = J.T @ J
        g = J.T @ r
        damped = A + lam * jnp.diag(jnp.diag(A))
        step = -cho_solve(cho_factor(damped), g)
        trial = theta + step
        better = cost(trial) < cost(theta)
        theta, lam, rejected = jax.lax.cond(
            better,
            lambda: (trial, lam / 3.0, rejected),
            lambda: (theta, lam * 2.0, rejected + 1),
        )
        return theta, lam, jnp.linalg.norm(step), i + 1, rejected

    init = (theta0, jnp.asarray(1e-2), jnp.asarray(jnp.inf), 0, 0)
    theta, lam, _, iters, rejected = jax.lax.while_loop(cond, body, init)
    return theta, lam, iters, rejected


def irls_cauchy(t, y, unravel, theta, scale=0.05, sweeps=6):
    def body(_, theta):
        r = model(unravel(theta), t) - y
        w = 1.0 / (1.0 + (r / scale) ** 2)
        residual = make_residual(t, y, unravel, w)
        return theta + gauss_newton_step(residual, theta)[0]

    return jax.lax.fori_loop(0, sweeps, body, theta)


def run():
    out = {}
    t, y = data(jax.random.PRNGKey(0))
    guess = {"a1": 1.5, "k1": 2.5, "a2": 1.2, "k2": 0.5, "c": 0.1}
    theta0, unravel = ravel_pytree(guess)
    out["layout"] = [theta0, list(unravel(theta0))]
    residual = make_residual(t, y, unravel)

    Jf = jax.jacfwd(residual)(theta0)
    Jr = jax.jacrev(residual)(theta0)
    column = jax.jvp(residual, (theta0,), (jnp.eye(5)[1],))[1]
    out["jacobian"] = [
        Jf[:3],
        jnp.abs(Jf - Jr).max() < 1e-5,
        jnp.abs(Jf[:, 1] - column).max() < 1e-6,
    ]

    by_normal, by_lstsq = gauss_newton_step(residual, theta0)
    out["gauss_newton"] = [by_normal, jnp.abs(by_normal - by_lstsq).max() < 1e-3]

    theta, lam, iters, rejected = jax.jit(levenberg_marquardt, static_argnums=0)(residual, theta0)
    fitted = unravel(theta)
    # the last iterations' accept/reject decisions compare costs at float32 round-off: the
    # iteration counts are not compared, only that the loop stopped on its tolerance
    out["lm"] = [fitted, iters < 40, rejected <= iters, 0.5 * jnp.sum(residual(theta) ** 2)]

    J = jax.jacfwd(residual)(theta)
    dof = t.shape[0] - theta.shape[0]
    sigma2 = jnp.sum(residual(theta) ** 2) / dof
    cov = jnp.linalg.inv(J.T @ J) * sigma2
    out["uncertainty"] = [jnp.sqrt(jnp.diag(cov)), jnp.allclose(cov, cov.T, rtol=1e-4, atol=1e-8)]

    weights = jnp.stack(
        [jnp.linspace(0.5, 1.5, 40), jnp.where(jnp.abs(jnp.arange(40) - 15) < 8, 4.0, 1.0)]
    )
    weighted_steps = jax.vmap(
        lambda w: gauss_newton_step(make_residual(t, y, unravel, w), theta)[0]
    )(weights)
    out["weighted_steps"] = weighted_steps

    robust = irls_cauchy(t, y, unravel, theta)
    out["robust"] = [unravel(robust), jnp.abs(model(unravel(robust), t) - y)[jnp.array([7, 23])]]
    return out
