"""`core.scipy.sparse.linalg`: JAX's iterative solvers `cg`, `bicgstab` and `gmres`.

`A` is a function (or a square matrix) applied to pytrees of arrays. `cg` and `bicgstab` are
one `lax.while_loop` each, stopping at `|r|^2 <= max(tol^2 |b|^2, atol^2)` or after `maxiter`
steps (default 10 times the size of `b`, as scipy). `gmres` restarts: each restart builds a
`restart`-dimensional Krylov basis by Arnoldi with iterated classical Gram-Schmidt and solves
the small least-squares problem, either at the end (`batched`: normal equations) or during the
process by Givens rotations (`incremental`). Every solver runs inside `lax.custom_linear_solve`
with itself as the transpose solve, so derivatives solve again instead of differentiating
through the iterations, exactly as in JAX. `info` is None (`gmres`: -1 if the result is NaN).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

import core.numpy as jnp
from core import dtypes, lax
from core.array import Array
from core.scipy.errors import ModeError, NotAnOperatorError, ShapeMismatchError
from core.scipy.linalg import solve as _solve_dense
from core.scipy.linalg import solve_triangular
from core.tree_util import tree_leaves, tree_map, tree_reduce, tree_structure

__all__ = ["bicgstab", "cg", "gmres"]

_dot = partial(jnp.dot, precision=lax.Precision.HIGHEST)
_vdot = partial(jnp.vdot, precision=lax.Precision.HIGHEST)
_einsum = partial(jnp.einsum, precision=lax.Precision.HIGHEST)


def _vdot_real_part(x: Any, y: Any) -> Any:
    # Used for z^H M z with M Hermitian positive definite, which is real.
    result = _vdot(x.real, y.real)
    if jnp.iscomplexobj(x) or jnp.iscomplexobj(y):
        result += _vdot(x.imag, y.imag)
    return result


def _vdot_real_tree(x: Any, y: Any) -> Any:
    return sum(tree_leaves(tree_map(_vdot_real_part, x, y)))


def _vdot_tree(x: Any, y: Any) -> Any:
    return sum(tree_leaves(tree_map(_vdot, x, y)))


def _norm(x: Any) -> Any:
    xs = tree_leaves(x)
    return jnp.sqrt(sum(map(_vdot_real_part, xs, xs)))


def _mul(scalar: Any, tree: Any) -> Any:
    return tree_map(partial(operator.mul, scalar), tree)


_add = partial(tree_map, operator.add)
_sub = partial(tree_map, operator.sub)


def _identity(x: Any) -> Any:
    return x


def _normalize_matvec(f: Any) -> Callable:
    """A function for `f`: itself if callable, else `f @ x` for a square matrix."""
    if callable(f):
        return f
    if isinstance(f, (np.ndarray, Array)) or hasattr(f, "__matmul__"):
        if len(f.shape) != 2 or f.shape[0] != f.shape[1]:
            raise ShapeMismatchError(
                f"linear operator must be a square matrix, but has shape: {f.shape}"
            )
        return partial(_dot, f) if isinstance(f, (np.ndarray, Array)) else f.__matmul__
    raise NotAnOperatorError(f"linear operator must be either a function or ndarray: {f}")


def _cg_solve(A, b, x0=None, *, maxiter, tol=1e-5, atol=0.0, M=_identity):
    bs = _vdot_real_tree(b, b)
    atol2 = jnp.maximum(jnp.square(tol) * bs, jnp.square(atol))

    def cond_fun(value):
        _, r, gamma, _, k = value
        rs = gamma.real if M is _identity else _vdot_real_tree(r, r)
        return (rs > atol2) & (k < maxiter)

    def body_fun(value):
        x, r, gamma, p, k = value
        Ap = A(p)
        alpha = gamma / _vdot_real_tree(p, Ap).astype(dtype)
        x_ = _add(x, _mul(alpha, p))
        r_ = _sub(r, _mul(alpha, Ap))
        z_ = M(r_)
        gamma_ = _vdot_real_tree(r_, z_).astype(dtype)
        p_ = _add(z_, _mul(gamma_ / gamma, p))
        return x_, r_, gamma_, p_, k + 1

    r0 = _sub(b, A(x0))
    p0 = z0 = M(r0)
    dtype = jnp.result_type(*tree_leaves(p0))
    gamma0 = _vdot_real_tree(r0, z0).astype(dtype)
    x_final, *_ = lax.while_loop(cond_fun, body_fun, (x0, r0, gamma0, p0, 0))
    return x_final


def _bicgstab_solve(A, b, x0=None, *, maxiter, tol=1e-5, atol=0.0, M=_identity):
    bs = _vdot_real_tree(b, b)
    atol2 = jnp.maximum(jnp.square(tol) * bs, jnp.square(atol))

    def cond_fun(value):
        _, r, *_, k = value
        # k < 0 marks a breakdown
        return (_vdot_real_tree(r, r) > atol2) & (k < maxiter) & (k >= 0)

    def body_fun(value):
        x, r, rhat, alpha, omega, rho, p, q, k = value
        rho_ = _vdot_tree(rhat, r)
        beta = rho_ / rho * alpha / omega
        p_ = _add(r, _mul(beta, _sub(p, _mul(omega, q))))
        phat = M(p_)
        q_ = A(phat)
        alpha_ = rho_ / _vdot_tree(rhat, q_)
        s = _sub(r, _mul(alpha_, q_))
        exit_early = _vdot_real_tree(s, s) < atol2
        shat = M(s)
        t = A(shat)
        omega_ = _vdot_tree(t, s) / _vdot_tree(t, t)
        x_ = tree_map(
            partial(jnp.where, exit_early),
            _add(x, _mul(alpha_, phat)),
            _add(x, _add(_mul(alpha_, phat), _mul(omega_, shat))),
        )
        r_ = tree_map(partial(jnp.where, exit_early), s, _sub(s, _mul(omega_, t)))
        k_ = jnp.where((omega_ == 0) | (alpha_ == 0), -11, k + 1)
        k_ = jnp.where(rho_ == 0, -10, k_)
        return x_, r_, rhat, alpha_, omega_, rho_, p_, q_, k_

    r0 = _sub(b, A(x0))
    one = jnp.asarray(1, dtype=jnp.result_type(*tree_leaves(b)))
    initial = (x0, r0, r0, one, one, one, r0, r0, 0)
    x_final, *_ = lax.while_loop(cond_fun, body_fun, initial)
    return x_final


def _shapes(pytree: Any) -> list[tuple[int, ...]]:
    return [np.shape(leaf) for leaf in tree_leaves(pytree)]


def _isolve(
    solve: Callable,
    A: Any,
    b: Any,
    x0: Any = None,
    *,
    tol: float = 1e-5,
    atol: float = 0.0,
    maxiter: int | None = None,
    M: Any = None,
    check_symmetric: bool = False,
) -> tuple[Any, None]:
    if x0 is None:
        x0 = tree_map(jnp.zeros_like, b)
    if maxiter is None:
        maxiter = 10 * sum(np.size(leaf) for leaf in tree_leaves(b))  # as scipy
    A = _normalize_matvec(A)
    M = _identity if M is None else _normalize_matvec(M)
    if tree_structure(x0) != tree_structure(b):
        raise ShapeMismatchError(
            "x0 and b must have matching tree structure: "
            f"{tree_structure(x0)} vs {tree_structure(b)}"
        )
    if _shapes(x0) != _shapes(b):
        raise ShapeMismatchError(
            f"arrays in x0 and b must have matching shapes: {_shapes(x0)} vs {_shapes(b)}"
        )
    isolve_solve = partial(solve, x0=x0, tol=tol, atol=atol, maxiter=maxiter, M=M)
    # A real positive-definite operator is symmetric.
    symmetric = check_symmetric and all(not jnp.iscomplexobj(leaf) for leaf in tree_leaves(b))
    x = lax.custom_linear_solve(
        A, b, solve=isolve_solve, transpose_solve=isolve_solve, symmetric=symmetric
    )
    return x, None


def cg(
    A: Any,
    b: Any,
    x0: Any = None,
    *,
    tol: float = 1e-5,
    atol: float = 0.0,
    maxiter: int | None = None,
    M: Any = None,
) -> tuple[Any, None]:
    """Solves `A x = b` by (preconditioned) conjugate gradients (`jax.scipy.sparse.linalg.cg`).

    Args:
        A: a Hermitian positive-definite operator: a function of a pytree like `b`, or a
            square matrix.
        b: the right-hand side, an array or pytree of arrays.
        x0: the starting guess, structured like `b` (default zeros).
        tol: the relative tolerance on `|r|` (against `|b|`).
        atol: the absolute tolerance on `|r|`.
        maxiter: the maximum number of iterations (default 10 times the size of `b`).
        M: a preconditioner approximating `A^-1` (function or matrix).

    Returns:
        `(x, None)`: the solution, structured like `b`, and JAX's placeholder `info`.
    """
    return _isolve(
        _cg_solve, A=A, b=b, x0=x0, tol=tol, atol=atol, maxiter=maxiter, M=M, check_symmetric=True
    )


def bicgstab(
    A: Any,
    b: Any,
    x0: Any = None,
    *,
    tol: float = 1e-5,
    atol: float = 0.0,
    maxiter: int | None = None,
    M: Any = None,
) -> tuple[Any, None]:
    """Solves `A x = b` by BiCGSTAB (`jax.scipy.sparse.linalg.bicgstab`), for general `A`.

    Args:
        A: the operator: a function of a pytree like `b`, or a square matrix.
        b: the right-hand side, an array or pytree of arrays.
        x0: the starting guess, structured like `b` (default zeros).
        tol: the relative tolerance on `|r|` (against `|b|`).
        atol: the absolute tolerance on `|r|`.
        maxiter: the maximum number of iterations (default 10 times the size of `b`).
        M: a preconditioner approximating `A^-1` (function or matrix).

    Returns:
        `(x, None)`: the solution, structured like `b`, and JAX's placeholder `info`.
    """
    return _isolve(_bicgstab_solve, A=A, b=b, x0=x0, tol=tol, atol=atol, maxiter=maxiter, M=M)


def _safe_normalize(x: Any, thresh: Any = None) -> tuple[Any, Any]:
    """`x / |x|` and `|x|`, or zeros and 0 where `|x| <= thresh` (default the dtype's eps)."""
    norm = _norm(x)
    dtype = jnp.result_type(*tree_leaves(x))
    if thresh is None:
        thresh = dtypes.finfo(norm.dtype).eps
    thresh = jnp.asarray(thresh).astype(dtype).real
    use_norm = norm > thresh
    norm_cast = norm.astype(dtype)
    normalized_x = tree_map(lambda y: jnp.where(use_norm, y / norm_cast, 0.0), x)
    return normalized_x, jnp.where(use_norm, norm, 0.0)


def _project_on_columns(A: Any, v: Any) -> Any:
    """`A^H v` over the leaves."""
    v_proj = tree_map(lambda X, y: _einsum("...n,...->n", X.conj(), y), A, v)
    return tree_reduce(operator.add, v_proj)


def _iterative_classical_gram_schmidt(Q, x, xnorm, max_iterations=2):
    """Orthogonalizes `x` against the orthonormal columns of `Q`, repeating (up to
    `max_iterations`) while the overlaps `r` stay below `|q| / sqrt(2)`; returns `(q, r)`."""
    Q0 = tree_leaves(Q)[0]
    r = jnp.zeros(Q0.shape[-1], dtype=Q0.dtype)
    xnorm_scaled = xnorm / jnp.sqrt(2.0)

    def body_function(carry):
        k, q, r, qnorm_scaled = carry
        h = _project_on_columns(Q, q)
        q = _sub(q, tree_map(lambda X: _dot(X, h), Q))
        r = _add(r, h)

        def qnorm_cond(carry):
            k, not_done, _, _ = carry
            return jnp.logical_and(not_done, k < (max_iterations - 1))

        def qnorm(carry):
            k, _, q, qnorm_scaled = carry
            _, qnorm = _safe_normalize(q)
            return (k, False, q, qnorm / jnp.sqrt(2.0))

        _, _, q, qnorm_scaled = lax.while_loop(qnorm_cond, qnorm, (k, True, q, qnorm_scaled))
        return (k + 1, q, r, qnorm_scaled)

    def cond_function(carry):
        k, _, r, qnorm_scaled = carry
        _, rnorm = _safe_normalize(r)
        return jnp.logical_and(k < (max_iterations - 1), rnorm < qnorm_scaled)

    carry = body_function((0, x, r, xnorm_scaled))
    _, q, r, _ = lax.while_loop(cond_function, body_function, carry)
    return q, r


def _kth_arnoldi_iteration(k, A, M, V, H):
    """Adds the orthonormalized Krylov vector `M(A(V[:, k]))` as `V[:, k+1]` and its overlaps
    as `H[k, :]`; a vector below `eps |v|` marks an invariant subspace (breakdown)."""
    dtype = jnp.result_type(*tree_leaves(V))
    eps = dtypes.finfo(dtype).eps
    v = M(A(tree_map(lambda x: x[..., k], V)))
    _, v_norm_0 = _safe_normalize(v)
    v, h = _iterative_classical_gram_schmidt(V, v, v_norm_0, max_iterations=2)
    unit_v, v_norm_1 = _safe_normalize(v, thresh=eps * v_norm_0)
    V = tree_map(lambda X, y: X.at[..., k + 1].set(y), V, unit_v)
    h = h.at[k + 1].set(v_norm_1.astype(dtype))
    return V, H.at[k, :].set(h), v_norm_1 == 0.0


def _rotate_vectors(H, i, cs, sn):
    x1, y1 = H[i], H[i + 1]
    H = H.at[i].set(cs.conj() * x1 - sn.conj() * y1)
    return H.at[i + 1].set(sn * x1 + cs * y1)


def _givens_rotation(a, b):
    b_zero = abs(b) == 0
    a_lt_b = abs(a) < abs(b)
    t = -jnp.where(a_lt_b, a, b) / jnp.where(a_lt_b, b, a)
    r = lax.rsqrt(1 + abs(t) ** 2).astype(t.dtype)
    cs = jnp.where(b_zero, 1, jnp.where(a_lt_b, r * t, r))
    sn = jnp.where(b_zero, 0, jnp.where(a_lt_b, r, r * t))
    return cs, sn


def _apply_givens_rotations(H_row, givens, k):
    """Applies the stored rotations to `H_row`, then a new one zeroing its element `k + 1`."""
    R_row = lax.fori_loop(0, k, lambda i, row: _rotate_vectors(row, i, *givens[i, :]), H_row)
    factors = _givens_rotation(R_row[k], R_row[k + 1])
    return _rotate_vectors(R_row, k, *factors), givens.at[k, :].set(factors)


def _krylov_basis(unit_residual, restart):
    return tree_map(
        lambda x: jnp.pad(x[..., None], ((0, 0),) * x.ndim + ((0, restart),)), unit_residual
    )


def _restart_end(A, b, x0, V, y, M):
    x = _add(x0, tree_map(lambda X: _dot(X[..., :-1], y), V))
    unit_residual, residual_norm = _safe_normalize(M(_sub(b, A(x))))
    return x, unit_residual, residual_norm


def _gmres_incremental(A, b, x0, unit_residual, residual_norm, ptol, restart, M):
    """One restart, with the QR factorization of the Hessenberg matrix built as it grows."""
    V = _krylov_basis(unit_residual, restart)
    dtype = jnp.result_type(*tree_leaves(b))
    R = jnp.eye(restart, restart + 1, dtype=dtype)
    givens = jnp.zeros((restart, 2), dtype=dtype)
    beta_vec = jnp.zeros((restart + 1), dtype=dtype).at[0].set(residual_norm.astype(dtype))

    def loop_cond(carry):
        k, err, _, _, _, _ = carry
        return jnp.logical_and(k < restart, err > ptol)

    def arnoldi_qr_step(carry):
        k, _, V, R, beta_vec, givens = carry
        V, H, _ = _kth_arnoldi_iteration(k, A, M, V, R)
        R_row, givens = _apply_givens_rotations(H[k, :], givens, k)
        R = R.at[k, :].set(R_row)
        beta_vec = _rotate_vectors(beta_vec, k, *givens[k, :])
        return k + 1, abs(beta_vec[k + 1]), V, R, beta_vec, givens

    carry = lax.while_loop(loop_cond, arnoldi_qr_step, (0, residual_norm, V, R, beta_vec, givens))
    _, _, V, R, beta_vec, _ = carry
    y = solve_triangular(R[:, :-1].T, beta_vec[:-1])
    return _restart_end(A, b, x0, V, y, M)


def _lstsq(a, b):
    return _solve_dense(_dot(a.T.conj(), a), _dot(a.T.conj(), b), assume_a="pos")


def _gmres_batched(A, b, x0, unit_residual, residual_norm, ptol, restart, M):
    """One restart: the whole Arnoldi process, then the least-squares solve."""
    del ptol
    V = _krylov_basis(unit_residual, restart)
    dtype = jnp.result_type(*tree_leaves(b))
    H = jnp.eye(restart, restart + 1, dtype=dtype)

    def loop_cond(carry):
        _, _, breakdown, k = carry
        return jnp.logical_and(k < restart, jnp.logical_not(breakdown))

    def arnoldi_process(carry):
        V, H, _, k = carry
        V, H, breakdown = _kth_arnoldi_iteration(k, A, M, V, H)
        return V, H, breakdown, k + 1

    V, H, _, _ = lax.while_loop(loop_cond, arnoldi_process, (V, H, False, 0))
    beta_vec = jnp.zeros((restart + 1,), dtype=H.dtype).at[0].set(residual_norm.astype(dtype))
    return _restart_end(A, b, x0, V, _lstsq(H.T, beta_vec), M)


def _gmres_solve(A, b, x0, atol, ptol, restart, maxiter, M, gmres_func):
    """Restarts `gmres_func` from the last solution until `|M(b - A x)| <= atol` or `maxiter`."""
    unit_residual, residual_norm = _safe_normalize(M(_sub(b, A(x0))))

    def cond_fun(value):
        _, k, _, residual_norm = value
        return jnp.logical_and(k < maxiter, residual_norm > atol)

    def body_fun(value):
        x, k, unit_residual, residual_norm = value
        x, unit_residual, residual_norm = gmres_func(
            A, b, x, unit_residual, residual_norm, ptol, restart, M
        )
        return x, k + 1, unit_residual, residual_norm

    x_final, *_ = lax.while_loop(cond_fun, body_fun, (x0, 0, unit_residual, residual_norm))
    return x_final


def gmres(
    A: Any,
    b: Any,
    x0: Any = None,
    *,
    tol: float = 1e-5,
    atol: float = 0.0,
    restart: int = 20,
    maxiter: int | None = None,
    M: Any = None,
    solve_method: str = "batched",
) -> tuple[Any, Any]:
    """Solves `A x = b` by restarted GMRES (`jax.scipy.sparse.linalg.gmres`).

    Args:
        A: the operator: a function of a pytree like `b`, or a square matrix.
        b: the right-hand side, an array or pytree of arrays.
        x0: the starting guess, structured like `b` (default zeros).
        tol: the relative tolerance on `|r|` (against `|b|`).
        atol: the absolute tolerance on `|r|`.
        restart: the Krylov dimension per restart (at most the size of `b`).
        maxiter: the maximum number of restarts (default 10 times the size of `b`).
        M: a preconditioner approximating `A^-1` (function or matrix).
        solve_method: "batched" (least squares after each restart) or "incremental" (Givens
            rotations during it, stopping early within a restart).

    Returns:
        `(x, info)`: the solution, structured like `b`, and int32 `info` (-1 if `x` is NaN,
        else 0).
    """
    if x0 is None:
        x0 = tree_map(jnp.zeros_like, b)
    M = _identity if M is None else _normalize_matvec(M)
    A = _normalize_matvec(A)
    size = sum(np.size(leaf) for leaf in tree_leaves(b))
    if maxiter is None:
        maxiter = 10 * size  # as scipy
    restart = min(restart, size)
    if tree_structure(x0) != tree_structure(b):
        raise ShapeMismatchError(
            "x0 and b must have matching tree structure: "
            f"{tree_structure(x0)} vs {tree_structure(b)}"
        )
    b_norm = _norm(b)
    atol = jnp.maximum(tol * b_norm, atol)
    ptol = _norm(M(b)) * jnp.minimum(1.0, atol / b_norm)
    if solve_method == "incremental":
        gmres_func = _gmres_incremental
    elif solve_method == "batched":
        gmres_func = _gmres_batched
    else:
        raise ModeError(
            f"invalid solve_method {solve_method}, must be either 'incremental' or 'batched'"
        )

    def _solve(A, b):
        return _gmres_solve(A, b, x0, atol, ptol, restart, maxiter, M, gmres_func)

    x = lax.custom_linear_solve(A, b, solve=_solve, transpose_solve=_solve)
    return x, jnp.where(jnp.isnan(_norm(x)), -1, 0)
