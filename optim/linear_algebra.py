"""Linear algebra helpers of Optax: `power_iteration` and `matrix_inverse_pth_root`.

Both are `lax.while_loop` iterations (so they run under `core.jit`) that follow Optax's
`_src/linear_algebra.py` step for step: the dominant eigenpair by power iteration on a matrix
or a matrix-vector product over pytrees, and `A^(-1/p)` by the coupled Newton iteration used by
Shampoo (p in 1, 2, 4, 8).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import core.numpy as jnp
from core import lax, random
from optim import tree
from optim.errors import NnlsShapeError, OptimizerArgumentError


def _normalize_tree(x: Any) -> Any:
    return tree.scale(1.0 / tree.norm(x), x)


def power_iteration(
    matrix: Any | Callable[[Any], Any],
    *,
    v0: Any = None,
    num_iters: Any = 100,
    error_tolerance: Any = 1e-6,
    precision: Any = lax.Precision.HIGHEST,
    key: Any = None,
) -> tuple[Any, Any]:
    """Returns the dominant eigenvalue and its unit eigenvector.

    Args:
      matrix: a square matrix, or a function computing the matrix-vector product on a pytree.
      v0: the starting vector (required for a function); by default uniform in [-1, 1] drawn
        with `key` (default `random.PRNGKey(0)`, so the start equals Optax's).
      num_iters: the largest number of iterations.
      error_tolerance: stop when `||A v - lambda v|| / |lambda|` is below it.
      precision: matmul precision.
      key: the PRNG key for `v0`.

    Returns:
      `(eigenvalue, eigenvector)`.

    Raises:
      OptimizerArgumentError: if `matrix` is a function and `v0` is missing (a `ValueError`).
    """
    if callable(matrix):
        mvp = matrix
        if v0 is None:
            raise OptimizerArgumentError(
                "v0 must be provided when `matrix` is a callable (there is no shape to draw it)."
            )
    else:

        def mvp(v):
            return jnp.matmul(matrix, v, precision=precision)

        if v0 is None:
            key = random.PRNGKey(0) if key is None else key
            v0 = random.uniform(
                key, shape=matrix.shape[-1:], dtype=matrix.dtype, minval=-1.0, maxval=1.0
            )
    v0 = _normalize_tree(v0)

    def cond_fun(loop_vars):
        normalized, unnormalized, eig, iter_num = loop_vars
        residual_norm = tree.norm(tree.sub(unnormalized, tree.scale(eig, normalized)))
        converged = jnp.abs(residual_norm / eig) < error_tolerance
        return jnp.logical_and(jnp.logical_not(converged), iter_num < num_iters)

    def body_fun(loop_vars):
        _, z, _, iter_num = loop_vars
        eigvec = _normalize_tree(z)
        z = mvp(eigvec)
        return eigvec, z, jnp.asarray(tree.vdot(eigvec, z)), iter_num + 1

    init = (v0, mvp(v0), jnp.asarray(0.0, tree.ravel(v0)[0].dtype), jnp.asarray(0, jnp.int32))
    _, z, eig, _ = lax.while_loop(cond_fun, body_fun, init)
    return eig, _normalize_tree(z)


def matrix_inverse_pth_root(
    matrix: Any,
    p: Any,
    num_iters: Any = 100,
    ridge_epsilon: Any = 1e-6,
    error_tolerance: Any = 1e-6,
    precision: Any = lax.Precision.HIGHEST,
) -> tuple[Any, Any]:
    """Returns `(matrix + eps I)^(-1/p)` by the coupled Newton iteration, and its error.

    Args:
      matrix: a symmetric positive semi-definite matrix.
      p: the root (1, 2, 4 or 8).
      num_iters: the largest number of iterations.
      ridge_epsilon: the ridge, relative to the largest eigenvalue.
      error_tolerance: stop when `max |M - I|` is below it.
      precision: matmul precision.

    Returns:
      `(inverse_pth_root, error)`; if the iteration diverged, the last good iterate.
    """
    matmul = functools.partial(jnp.matmul, precision=precision)
    matrix_size = matrix.shape[0]
    alpha = jnp.asarray(-1.0 / p, jnp.float32)
    identity = jnp.eye(matrix_size, dtype=jnp.float32)
    max_ev, _ = power_iteration(matrix=matrix, num_iters=100, error_tolerance=1e-6)
    ridge_epsilon = ridge_epsilon * jnp.maximum(max_ev, 1e-16)

    def pow_1(m):
        return m

    def pow_2(m):
        return matmul(m, m)

    def pow_4(m):
        return pow_2(pow_2(m))

    def pow_8(m):
        return pow_2(pow_4(m))

    def mat_power(mat_m, p):
        exponent = jnp.round(jnp.log2(jnp.asarray(p, jnp.float32)))
        return lax.switch(jnp.asarray(exponent, jnp.int32), [pow_1, pow_2, pow_4, pow_8], mat_m)

    def cond(state):
        i, _, _, _, error, run_step = state
        return jnp.logical_and(i < num_iters, jnp.logical_and(error > error_tolerance, run_step))

    def body(state):
        i, mat_m, mat_h, _, error, _ = state
        mat_m_i = (1 - alpha) * identity + alpha * mat_m
        new_mat_m = matmul(mat_power(mat_m_i, p), mat_m)
        new_mat_h = matmul(mat_h, mat_m_i)
        new_error = jnp.max(jnp.abs(new_mat_m - identity))
        return i + 1, new_mat_m, new_mat_h, mat_h, new_error, new_error < error * 1.2

    if matrix_size == 1:
        return (matrix + ridge_epsilon) ** alpha, 0
    damped = matrix + ridge_epsilon * identity
    z = (1 + p) / (2 * jnp.linalg.norm(damped))
    mat_m_0 = damped * z
    error_0 = jnp.max(jnp.abs(mat_m_0 - identity))
    mat_h_0 = identity * jnp.power(z, 1.0 / p)
    init = (jnp.asarray(0, jnp.int32), mat_m_0, mat_h_0, mat_h_0, error_0, jnp.asarray(True))
    _, mat_m, mat_h, old_mat_h, _, convergence = lax.while_loop(cond, body, init)
    error = jnp.max(jnp.abs(mat_m - identity))
    converged = jnp.asarray(convergence, old_mat_h.dtype)
    result = converged * mat_h + (1 - converged) * old_mat_h
    return jnp.asarray(result, matrix.dtype), error


__all__ = ["matrix_inverse_pth_root", "power_iteration"]


def _spectral_radius_upper_bound(matrix: Any) -> Any:
    a = jnp.linalg.matrix_norm(matrix, ord="fro")
    b = jnp.linalg.matrix_norm(matrix, ord=1) if matrix.size != 0 else 0
    return jnp.minimum(a, b)


def nnls(A: Any, b: Any, iters: int, unroll: int | bool = 1, L: Any = None) -> Any:  # noqa: N803
    """Non-negative least squares: minimizes `||A x - b||_2` subject to `x >= 0`.

    Polyak's fast projected gradient method (2015): `iters` accelerated steps
    `x <- max(p - (A^T A p - A^T b) / L, 0)` with Nesterov's extrapolation `p`.

    Args:
      A: an `(M, N)` matrix.
      b: an `(M,)` vector or `(M, K)` matrix.
      iters: number of iterations.
      unroll: `lax.scan`'s unroll.
      L: an upper bound of the spectral radius of `A^T A` (default: min of its Frobenius and
        1-norms).

    Returns:
      The solution, `(N,)` or `(N, K)`.

    Raises:
      NnlsShapeError: `A` is not a matrix, or `b` does not match its rows (an
        `AssertionError`, as Optax's).
    """
    if A.ndim != 2 or b.ndim not in (1, 2) or b.shape[0] != A.shape[0]:
        raise NnlsShapeError(
            f"nnls needs A of shape (M, N) and b of shape (M,) or (M, K); got A {A.shape} and "
            f"b {b.shape}."
        )
    Q = A.mT @ A  # noqa: N806
    q = A.mT @ b
    if L is None:
        L = _spectral_radius_upper_bound(Q)  # noqa: N806
    L = jnp.where(L == 0, 1, L)  # noqa: N806

    def step(carry, _):
        x, p, c = carry
        cn = (1 + jnp.sqrt(1 + 4 * c**2)) / 2
        s = (c - 1) / cn
        xn = jnp.clip(p - (Q @ p - q) / L, 0)
        return (xn, xn + s * (xn - x), cn), None

    x = jnp.zeros_like(b, shape=A.shape[-1:] + b.shape[1:])
    (x, _, _), _ = lax.scan(step, (x, x, 0.0), length=iters, unroll=unroll)
    return x
