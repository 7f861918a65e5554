"""Matrix factorisations at the `jax.lax.linalg` and `jax.scipy.linalg` level, as solver code
uses them to reuse a factorisation: a small least-squares and Gaussian-process workflow.

- `lax.linalg.lu` (pivots and permutation), `lu_pivots_to_permutation`, `jax.scipy.linalg.lu`
  (`permute_l=`), `lu_factor`/`lu_solve` with `trans=`; `lax.linalg.triangular_solve` with
  `left_side`, `lower`, `transpose_a`, `unit_diagonal`; `scipy.linalg.solve_triangular(trans=)`;
- `lax.linalg.qr` (`full_matrices=`), `jnp.linalg.qr(mode=)` (`reduced`, `complete`, `r`,
  `raw`), `scipy.linalg.qr(pivoting=True)`; `lax.linalg.cholesky` (`symmetrize_input=`),
  `scipy.linalg.cholesky(lower=)`, `cho_factor`/`cho_solve` on several right-hand sides;
- `lax.linalg.svd` (`full_matrices=`, `compute_uv=False`), `lax.linalg.eigh` (`lower=`,
  `sort_eigenvalues=`), signs made canonical before comparing;
- gradients of a GP's log marginal likelihood through `cholesky` and `triangular_solve`, and of
  `slogdet` through `lu`; `jax.custom_gradient` clipping a gradient, `lax.optimization_barrier`.
"""

import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl
from jax import lax


def canonical(v):
    """Columns signed to a positive product with a fixed vector (SVD/eigen signs; an argmax
    of magnitudes ties on vectors such as (1, -1, -1) / sqrt(3))."""
    ref = jnp.arange(1.0, v.shape[0] + 1) + 0.25
    return v * jnp.sign(ref @ v)


def lu_family(out):
    a = jnp.array(
        [[1.0, 2.0, 0.5, 3.0], [4.0, -1.0, 2.0, 0.0], [0.5, 0.3, 5.0, 1.0], [2.0, 2.0, 1.0, 6.0]]
    )
    lu, piv, perm = lax.linalg.lu(a)
    out["lu"] = [lu, piv, perm]
    out["pivots_to_perm"] = lax.linalg.lu_pivots_to_permutation(piv, 4)
    p, l, u = jsl.lu(a)
    out["scipy_lu"] = [p, l, u]
    pl, u2 = jsl.lu(a, permute_l=True)
    out["permute_l_ok"] = bool(jnp.allclose(pl @ u2, a, atol=1e-5))
    fac = jsl.lu_factor(a)
    b = jnp.arange(8.0).reshape(4, 2)
    out["lu_solve"] = [jsl.lu_solve(fac, b), jsl.lu_solve(fac, b, trans=1)]
    lower = jnp.tril(a) + 3 * jnp.eye(4)
    out["tri_left_lower"] = lax.linalg.triangular_solve(lower, b, left_side=True, lower=True)
    out["tri_right_transposed"] = lax.linalg.triangular_solve(
        lower, b.T, left_side=False, lower=True, transpose_a=True
    )
    out["tri_unit"] = lax.linalg.triangular_solve(
        lower, b, left_side=True, lower=True, unit_diagonal=True
    )
    out["solve_triangular_trans"] = jsl.solve_triangular(lower, b, lower=True, trans="T")


def qr_cholesky(out):
    m = jnp.array(
        [[2.0, -1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0], [1.0, 0.0, -2.0], [0.5, 0.5, 0.5]]
    )
    q, r = lax.linalg.qr(m, full_matrices=False)
    out["qr_reduced_shapes"] = [list(q.shape), list(r.shape)]
    out["qr_reconstructs"] = bool(jnp.allclose(q @ r, m, atol=1e-5))
    out["qr_r_abs"] = jnp.abs(r)
    qf, rf = jnp.linalg.qr(m, mode="complete")
    out["qr_complete_shapes"] = [list(qf.shape), list(rf.shape)]
    out["qr_r_only"] = jnp.abs(jnp.linalg.qr(m, mode="r"))
    h, tau = jnp.linalg.qr(m, mode="raw")
    out["qr_raw_shapes"] = [list(h.shape), list(tau.shape)]
    qp, rp, piv = jsl.qr(m, pivoting=True, mode="economic")
    out["qr_pivoting"] = [piv, bool(jnp.allclose(qp @ rp, m[:, piv], atol=1e-5))]
    spd = m.T @ m + jnp.eye(3)
    out["cholesky"] = lax.linalg.cholesky(spd)
    out["cholesky_symmetrize"] = lax.linalg.cholesky(
        jnp.triu(spd) + jnp.triu(spd, 1).T * 0 + jnp.tril(spd, -1), symmetrize_input=True
    )
    out["scipy_cholesky_upper"] = jsl.cholesky(spd)
    out["scipy_cholesky_lower"] = jsl.cholesky(spd, lower=True)
    c = jsl.cho_factor(spd)
    out["cho_solve"] = jsl.cho_solve(c, jnp.eye(3))


def spectral(out):
    m = jnp.array([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0], [1.0, 0.0, 1.0]])
    u, s, vt = lax.linalg.svd(m, full_matrices=False)
    out["svd_s"] = s
    out["svd_v"] = canonical(vt.T)
    out["svd_values_only"] = lax.linalg.svd(m, compute_uv=False)
    uf, _, _ = lax.linalg.svd(m, full_matrices=True)
    out["svd_full_u_shape"] = list(uf.shape)
    sym = m.T @ m
    v, w = lax.linalg.eigh(sym)
    out["eigh"] = [w, canonical(v)]
    v2, w2 = lax.linalg.eigh(jnp.tril(sym), lower=True, sort_eigenvalues=True)
    out["eigh_lower"] = w2


def gradients(out):
    xs = jnp.linspace(0.0, 2.0, 6)
    ys = jnp.sin(2 * xs)

    def nll(log_ls):
        k = jnp.exp(-0.5 * (xs[:, None] - xs[None, :]) ** 2 / jnp.exp(2 * log_ls)) + 0.1 * jnp.eye(
            6
        )
        chol = lax.linalg.cholesky(k)
        alpha = lax.linalg.triangular_solve(chol, ys[:, None], left_side=True, lower=True)
        return 0.5 * jnp.sum(alpha**2) + jnp.sum(jnp.log(jnp.diag(chol)))

    out["gp_nll"], out["gp_grad"] = jax.value_and_grad(nll)(jnp.float32(-0.3))
    a = jnp.array([[3.0, 1.0], [2.0, 4.0]])
    out["slogdet_grad"] = jax.grad(lambda a: jnp.linalg.slogdet(a)[1])(a)
    out["det_via_lu_grad"] = jax.grad(lambda a: jnp.prod(jnp.diag(lax.linalg.lu(a)[0])))(a)

    @jax.custom_gradient
    def clipped_square(x):
        return x**2, lambda g: (jnp.clip(g * 2 * x, -1.0, 1.0),)

    out["custom_gradient"] = jax.vmap(jax.grad(clipped_square))(jnp.array([-2.0, 0.2, 3.0]))
    out["optimization_barrier"] = lax.optimization_barrier((jnp.ones(2), 3.0))[0]


def run():
    out = {}
    lu_family(out)
    qr_cholesky(out)
    spectral(out)
    gradients(out)
    return out
