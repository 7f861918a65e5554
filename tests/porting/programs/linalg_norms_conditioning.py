"""`jax.numpy.linalg` beyond the factorisations, as numerical code checks its problems (our
own program): norms, ranks, conditioning, least squares and the singular cases.

- `linalg.norm` over vectors and matrices for every `ord` (`None`, `fro`, `nuc`, `inf`,
  `-inf`, 1, -1, 2, -2, 0 and 3 for vectors) with `axis=` and `keepdims=`, `vector_norm` and
  `matrix_norm` (the array-API spellings), `svdvals`;
- `matrix_rank` (default and `rtol=`), `cond` (default, `'fro'`, `inf`), `pinv` (`rtol=`,
  `hermitian=True`) on a rank-deficient matrix, `lstsq`'s four results for an over- and an
  under-determined system;
- `det`/`slogdet` of singular, negative-determinant and batched matrices, `inv` and `solve`
  with batched right-hand sides, `matrix_power` (negative and zero), `eigvalsh` with `UPLO=`,
  `multi_dot`, `trace`/`diagonal` with offsets, `matrix_transpose`;
- gradients of `norm(ord=2)`, `nuc` and `slogdet`, and of a least-squares residual through
  `lstsq` and through `pinv`.
"""

import jax
import jax.numpy as jnp

LA = jnp.linalg


def matrices():
    k1, k2, k3 = jax.random.split(jax.random.key(21), 3)
    a = jax.random.normal(k1, (4, 3))
    low_rank = a @ jax.random.normal(k2, (3, 5)) * jnp.array([1.0, 1, 1, 0, 0])[:, None][:4]
    sym = a @ a.T + jnp.eye(4)
    batch = jax.random.normal(k3, (3, 3, 3))
    return a, low_rank, sym, batch


def norms(out, a):
    v = a[:, 0]
    out["vector_norms"] = jnp.stack(
        [LA.norm(v, ord=o) for o in (None, jnp.inf, -jnp.inf, 1, 2, 0, 3, -1)]
    )
    out["matrix_norms"] = jnp.stack(
        [LA.norm(a, ord=o) for o in (None, "fro", "nuc", jnp.inf, -jnp.inf, 1, -1, 2, -2)]
    )
    out["norm_axis_keepdims"] = LA.norm(a, axis=0, keepdims=True)
    out["norm_axis_pair"] = LA.norm(jnp.stack([a, 2 * a]), ord="nuc", axis=(1, 2))
    out["vector_norm"] = LA.vector_norm(a, ord=1, axis=1)
    out["vector_norm_all"] = LA.vector_norm(a)
    out["matrix_norm"] = LA.matrix_norm(a, ord=2)
    out["svdvals"] = LA.svdvals(a)


def conditioning(out, a, low_rank, sym):
    out["rank"] = [int(LA.matrix_rank(a)), int(LA.matrix_rank(low_rank)),
                   int(LA.matrix_rank(low_rank, rtol=0.5))]  # fmt: skip
    out["cond"] = jnp.stack([LA.cond(a), LA.cond(sym, "fro"), LA.cond(sym, jnp.inf)])
    p = LA.pinv(low_rank)
    out["pinv_identity"] = low_rank @ p @ low_rank - low_rank
    out["pinv_rtol"] = LA.pinv(sym, rtol=0.2)
    out["pinv_hermitian"] = LA.pinv(sym, hermitian=True)
    b = jnp.arange(4.0)
    x, res, rank, sv = LA.lstsq(a, b)
    out["lstsq_over"] = {"x": x, "residuals": res, "rank": rank, "sv": sv}
    x, res, rank, sv = LA.lstsq(a.T, jnp.arange(3.0))
    out["lstsq_under"] = {"x": x, "residuals": res, "rank": rank, "sv": sv}
    out["lstsq_rcond"] = LA.lstsq(low_rank, b, rcond=1e-3)[0]


def determinants(out, a, sym, batch):
    singular = jnp.array([[1.0, 2.0], [2.0, 4.0]])
    negative = jnp.array([[0.0, 1.0], [1.0, 0.0]])
    out["det"] = jnp.stack([LA.det(singular), LA.det(negative), LA.det(sym)])
    out["slogdet_singular"] = jnp.stack(LA.slogdet(singular))
    out["slogdet_negative"] = jnp.stack(LA.slogdet(negative))
    out["slogdet_batch"] = jnp.stack(LA.slogdet(batch))
    out["det_batch"] = LA.det(batch)
    out["inv_batch"] = LA.inv(batch)
    out["solve_batch"] = LA.solve(batch, jnp.ones((3, 3, 2)))
    out["solve_vector"] = LA.solve(sym, jnp.arange(4.0))
    out["matrix_power"] = jnp.stack(
        [LA.matrix_power(batch[0], k) for k in (-2, -1, 0, 1, 3)]
    )
    out["eigvalsh_lower"] = LA.eigvalsh(sym + jnp.triu(jnp.ones((4, 4)), 1))
    out["eigvalsh_upper"] = LA.eigvalsh(sym + jnp.triu(jnp.ones((4, 4)), 1), UPLO="U")
    out["multi_dot"] = LA.multi_dot([a.T, sym, a, jnp.ones((3, 2))])
    out["trace_offsets"] = jnp.stack([jnp.trace(sym, offset=k) for k in (-2, 0, 1)])
    out["diagonal"] = LA.diagonal(batch, offset=1)
    out["matrix_transpose"] = LA.matrix_transpose(batch)[0]


def gradients(out, a, sym):
    out["grad_spectral"] = jax.grad(lambda m: LA.norm(m, ord=2))(a)
    out["grad_nuclear"] = jax.grad(lambda m: LA.norm(m, ord="nuc"))(a)
    out["grad_slogdet"] = jax.grad(lambda m: LA.slogdet(m)[1])(sym)
    b = jnp.array([1.0, -1.0, 0.5, 2.0])
    out["grad_lstsq"] = jax.grad(lambda m: jnp.sum((m @ LA.lstsq(m, b)[0] - b) ** 2))(a)
    out["grad_pinv"] = jax.grad(lambda m: jnp.sum(LA.pinv(m) @ b))(a)


def run():
    out = {}
    a, low_rank, sym, batch = matrices()
    norms(out, a)
    conditioning(out, a, low_rank, sym)
    determinants(out, a, sym, batch)
    gradients(out, a, sym)
    return out
