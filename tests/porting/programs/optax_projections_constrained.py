"""Constrained optimisation by projected gradient descent with `optax.projections` (our own
program): each constraint set is a problem a user would pose.

- a long-only portfolio (minimum variance minus return) on the probability simplex
  (`projection_simplex`, also with `scale=` and on a dict of two blocks);
- sparse regression in an l1 ball (`projection_l1_ball` and `l1_sphere`), ridge-like
  regression in an l2 ball and sphere, a robust fit in an l-infinity ball;
- box and hypercube constraints (`projection_box` with per-leaf bounds, `projection_hypercube`),
  non-negative least squares by `projection_non_negative` against `optax.nnls`;
- a hyperplane and a halfspace (`projection_hyperplane`, `projection_halfspace`) and the
  vector projection `projection_vector`, on single vectors and under `vmap`;
- gradients through a projection (`jax.grad` of a loss of `projection_simplex(x)`), the
  projections' dtypes for float32 and bfloat16 inputs, ties and points already inside.
The loops are `lax.fori_loop`s of `sgd`/`adam` updates followed by the projection, jitted.
"""

import jax
import jax.numpy as jnp
import optax
from optax import projections as proj


def descend(loss, x0, project, tx, steps):
    def body(_, carry):
        x, state = carry
        g = jax.grad(loss)(x)
        updates, state = tx.update(g, state, x)
        return project(optax.apply_updates(x, updates)), state

    return jax.lax.fori_loop(0, steps, body, (project(x0), tx.init(x0)))[0]


def projected(loss, x0, project, tx, steps=60):
    x = jax.jit(lambda x0: descend(loss, x0, project, tx, steps))(x0)
    return x, loss(x)


def data():
    k1, k2, k3 = jax.random.split(jax.random.key(11), 3)
    a = jax.random.normal(k1, (12, 6))
    w_true = jnp.array([1.5, 0.0, -2.0, 0.0, 0.0, 0.5])
    y = a @ w_true + 0.05 * jax.random.normal(k2, (12,))
    returns = jax.random.normal(k3, (30, 5)) * 0.1 + jnp.linspace(0.0, 0.05, 5)
    return a, y, returns


def portfolio(out, returns):
    cov = jnp.cov(returns.T)
    mean = returns.mean(0)

    def loss(w):
        return w @ cov @ w - 0.5 * mean @ w

    w, value = projected(loss, jnp.full(5, 0.2), proj.projection_simplex, optax.sgd(0.5))
    out["portfolio"] = w
    out["portfolio_loss"] = value
    w2, _ = projected(
        loss, jnp.ones(5), lambda x: proj.projection_simplex(x, scale=2.0), optax.sgd(0.5)
    )
    out["portfolio_scaled_sum"] = w2.sum()
    blocks = {"a": jnp.array([0.3, -0.2, 1.4]), "b": jnp.array([[0.5, 0.1], [2.0, -1.0]])}
    out["simplex_tree"] = proj.projection_simplex(blocks)


def regressions(out, a, y):
    def loss(w):
        return 0.5 * jnp.mean((a @ w - y) ** 2)

    x0 = jnp.full(6, 0.1)  # not 0: the l2 sphere of 0 is undefined
    sets = {
        "l1_ball": lambda w: proj.projection_l1_ball(w, scale=2.5),
        "l1_sphere": lambda w: proj.projection_l1_sphere(w, scale=2.5),
        "l2_ball": lambda w: proj.projection_l2_ball(w, scale=1.5),
        "l2_sphere": lambda w: proj.projection_l2_sphere(w, scale=1.5),
        "linf_ball": lambda w: proj.projection_linf_ball(w, scale=1.0),
        "box": lambda w: proj.projection_box(w, -0.5, jnp.array([2.0, 1, 1, 1, 1, 0.2])),
        "hypercube": lambda w: proj.projection_hypercube(w, scale=0.8),
        "non_negative": proj.projection_non_negative,
    }

    @jax.jit  # one program for the eight problems
    def fits(x0):
        return {n: descend(loss, x0, f, optax.adam(0.1), 120) for n, f in sets.items()}

    for name, w in fits(x0).items():
        out[f"fit_{name}"] = w
        out[f"loss_{name}"] = loss(w)
    out["nnls"] = optax.nnls(a, y, iters=200)


def flat_sets(out):
    x = jnp.array([[1.0, 2.0, -1.0], [0.5, -0.5, 3.0], [0.1, 0.1, 0.1]])
    a = jnp.array([1.0, -1.0, 2.0])
    out["hyperplane"] = jax.vmap(lambda v: proj.projection_hyperplane(v, a, 1.0))(x)
    out["halfspace"] = jax.vmap(lambda v: proj.projection_halfspace(v, a, 1.0))(x)
    out["vector"] = jax.vmap(lambda v: proj.projection_vector(v, a))(x)
    out["on_plane"] = jax.vmap(lambda v: proj.projection_hyperplane(v, a, 1.0) @ a)(x)


def corners(out):
    def loss(x):
        p = proj.projection_simplex(x)
        return jnp.sum(p * jnp.array([1.0, 2.0, 3.0, 4.0])) + jnp.sum(p**2)

    x = jnp.array([0.4, 0.3, 0.2, -0.5])
    out["simplex_grad"] = jax.grad(loss)(x)
    out["l1_grad"] = jax.grad(lambda v: jnp.sum(proj.projection_l1_ball(v) ** 3))(
        jnp.array([0.9, -0.6, 0.2])
    )
    out["ties"] = proj.projection_simplex(jnp.array([0.5, 0.5, 0.5, 0.5]))
    out["inside"] = proj.projection_l1_ball(jnp.array([0.2, -0.3]))
    out["inside_l2"] = proj.projection_l2_ball(jnp.array([0.2, -0.3]))
    bf = jnp.array([0.7, -0.2, 1.3], jnp.bfloat16)

    def dtype_or_error(f):
        try:
            return str(f(bf).dtype)
        except TypeError as e:  # Optax 0.2.8's l1 ball: its cond's branches differ in dtype
            return str(e).splitlines()[0]

    out["dtypes"] = {
        name: dtype_or_error(f)
        for name, f in {
            "simplex": proj.projection_simplex,
            "l1_ball": proj.projection_l1_ball,
            "l2_ball": proj.projection_l2_ball,
            "linf_ball": proj.projection_linf_ball,
            "box": lambda v: proj.projection_box(v, 0.0, 1.0),
            "non_negative": proj.projection_non_negative,
        }.items()
    }
    out["simplex_bf16"] = proj.projection_simplex(bf).astype(jnp.float32)


def run():
    out = {}
    a, y, returns = data()
    portfolio(out, returns)
    regressions(out, a, y)
    flat_sets(out)
    corners(out)
    return out
