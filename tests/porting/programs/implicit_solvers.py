"""Linear solves and fixed points as differentiable building blocks (ours): kernel ridge
regression solved matrix-free and the implicit gradients of what they give.

- Kernel ridge weights by `jax.scipy.sparse.linalg.cg` with a matvec function (also with a
  Jacobi preconditioner `M=` and a dict right-hand side), `gmres` (both `solve_method`s,
  `restart=`) and `bicgstab`, against `cho_factor`/`cho_solve` and `lu_factor`/`lu_solve`;
- the validation loss's gradient with respect to the log ridge penalty through `cg` (JAX
  differentiates the solve implicitly) against the same through `jnp.linalg.solve`;
- `lax.custom_linear_solve` with a Cholesky solve (`symmetric=True`) and its gradient;
- a deep-equilibrium layer: `lax.custom_root` finds z = tanh(W z + U x) by Newton iterations
  in a `lax.while_loop`, `tangent_solve` by `jnp.linalg.solve` of the Jacobian (`jax.jacfwd`),
  gradients with respect to W and x against those of an unrolled iteration, `vmap` over inputs;
- least squares by `jnp.linalg.lstsq` (`rcond=None`) against `pinv` and a reduced `qr`; a
  spectral filter by `eigh` of the Gram matrix (values and a projection, sign-free); linear
  gradient-flow predictions by `jax.scipy.linalg.expm`."""

import functools

import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl
import jax.scipy.sparse.linalg as jssl
import numpy as np
from jax import lax


def rbf(a, b, width=0.7):
    d2 = jnp.sum((a[:, None, :] - b[None, :, :]) ** 2, axis=-1)
    return jnp.exp(-0.5 * d2 / width**2)


def data(rs):
    x = rs.uniform(-2, 2, size=(12, 2)).astype(np.float32)
    y = (np.sin(x[:, 0]) + 0.5 * x[:, 1] ** 2 + 0.05 * rs.randn(12)).astype(np.float32)
    xv = rs.uniform(-2, 2, size=(5, 2)).astype(np.float32)
    yv = (np.sin(xv[:, 0]) + 0.5 * xv[:, 1] ** 2).astype(np.float32)
    return x, y, xv, yv


def ridge_solvers(x, y):
    gram = rbf(x, x)
    lam = 0.1
    matvec = lambda v: gram @ v + lam * v  # noqa: E731
    diag = jnp.diag(gram) + lam
    cg_plain, _ = jssl.cg(matvec, y, tol=1e-6)
    cg_jacobi, _ = jssl.cg(matvec, y, tol=1e-6, M=lambda v: v / diag)
    # a dict right-hand side: the operator acts on each leaf
    tree_rhs = {"a": y, "b": 2.0 * y}
    cg_tree, _ = jssl.cg(lambda t: jax.tree.map(matvec, t), tree_rhs, tol=1e-6)
    gm_batched, _ = jssl.gmres(matvec, y, tol=1e-6, restart=6, solve_method="batched")
    gm_incremental, _ = jssl.gmres(matvec, y, tol=1e-6, restart=6, solve_method="incremental")
    bicg, _ = jssl.bicgstab(matvec, y, tol=1e-6)
    system = gram + lam * jnp.eye(x.shape[0])
    chol = jsl.cho_solve(jsl.cho_factor(system, lower=True), y)
    lu = jsl.lu_solve(jsl.lu_factor(system), y)
    return dict(cg=cg_plain, cg_jacobi=cg_jacobi, cg_tree=cg_tree, gmres_batched=gm_batched,
                gmres_incremental=gm_incremental, bicgstab=bicg, cho=chol, lu=lu)  # fmt: skip


def validation_loss(log_lam, x, y, xv, yv, solve):
    gram = rbf(x, x)
    lam = jnp.exp(log_lam)
    alpha = solve(gram, lam, y)
    return jnp.mean((rbf(xv, x) @ alpha - yv) ** 2)


def by_cg(gram, lam, y):
    return jssl.cg(lambda v: gram @ v + lam * v, y, tol=1e-7)[0]


def by_dense(gram, lam, y):
    return jnp.linalg.solve(gram + lam * jnp.eye(gram.shape[0]), y)


def by_custom(gram, lam, y):
    system = gram + lam * jnp.eye(gram.shape[0])

    def cholesky_solve(_, b):
        return jsl.cho_solve(jsl.cho_factor(system), b)

    return lax.custom_linear_solve(lambda v: system @ v, y, cholesky_solve, symmetric=True)


def fixed_point_layer(w, u, x):
    """z* with z* = tanh(W z* + U x), found by Newton's method through `lax.custom_root`."""

    def residual(z):
        return jnp.tanh(w @ z + u @ x) - z

    def newton(f, z0):
        def body(carry):
            z, _ = carry
            step = jnp.linalg.solve(jax.jacfwd(f)(z), f(z))
            return z - step, jnp.max(jnp.abs(step))

        z, _ = lax.while_loop(lambda c: c[1] > 1e-6, body, (z0, jnp.float32(1.0)))
        return z

    def tangent_solve(g, b):
        return jnp.linalg.solve(jax.jacfwd(g)(b), b)

    return lax.custom_root(residual, jnp.zeros(w.shape[0]), newton, tangent_solve)


def unrolled_layer(w, u, x, steps=60):
    return lax.fori_loop(0, steps, lambda _, z: jnp.tanh(w @ z + u @ x), jnp.zeros(w.shape[0]))


def run():
    rs = np.random.RandomState(11)
    x, y, xv, yv = data(rs)
    solved = ridge_solvers(x, y)

    grads = {
        name: jax.value_and_grad(validation_loss)(jnp.float32(np.log(0.1)), x, y, xv, yv, solve)
        for name, solve in [("cg", by_cg), ("dense", by_dense), ("custom", by_custom)]
    }

    w = jnp.asarray(0.4 * rs.randn(4, 4) / 2.0, jnp.float32)
    u = jnp.asarray(rs.randn(4, 3), jnp.float32)
    xs = jnp.asarray(rs.randn(3, 3), jnp.float32)

    def deq_loss(w, x, layer):
        return jnp.sum(layer(w, u, x) ** 2)

    deq = dict(
        z=jax.vmap(functools.partial(fixed_point_layer, w, u))(xs),
        z_unrolled=jax.vmap(functools.partial(unrolled_layer, w, u))(xs),
        grad_implicit=jax.grad(deq_loss, argnums=(0, 1))(w, xs[0], fixed_point_layer),
        grad_unrolled=jax.grad(deq_loss, argnums=(0, 1))(w, xs[0], unrolled_layer),
    )

    design = jnp.asarray(rs.randn(7, 3), jnp.float32)
    target = jnp.asarray(rs.randn(7), jnp.float32)
    coef, residuals, rank, singular = jnp.linalg.lstsq(design, target, rcond=None)
    q, r = jnp.linalg.qr(design)
    by_qr = jsl.solve_triangular(r, q.T @ target)
    least_squares = dict(coef=coef, residuals=residuals, rank=rank, singular=singular,
                         pinv=jnp.linalg.pinv(design) @ target, qr=by_qr,
                         qr_shapes=[list(q.shape), list(r.shape)])  # fmt: skip

    gram = rbf(x, x)
    values, vectors = jnp.linalg.eigh(gram)
    top = vectors[:, -3:]
    spectral = dict(values=values, projected=top @ (top.T @ y))
    times = jnp.array([0.5, 2.0, 10.0])
    flow = jax.vmap(lambda t: (jnp.eye(12) - jsl.expm(-t * gram)) @ y)(times)
    return dict(solved=solved, grads=grads, deq=deq, least_squares=least_squares,
                spectral=spectral, flow=flow)  # fmt: skip
