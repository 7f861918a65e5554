"""`core.scipy.sparse.linalg`: the Krylov solvers `cg`, `bicgstab` and `gmres` of
`jax.scipy.sparse.linalg`.

The operator `A` (and the preconditioner `M`) is a function of a pytree, or a square matrix; the
solvers treat pytrees of arrays as vectors (`_Space` below), so they never flatten them. Each
solver is a `lax.while_loop` over the textbook recurrences:

- `cg`: preconditioned conjugate gradients for Hermitian positive-definite `A`;
- `bicgstab`: van der Vorst's BiCGSTAB with right preconditioning, stopped by a breakdown
  (a zero `rho`, `alpha` or `omega`) or, half-way through a step, by a small residual;
- `gmres`: restarted GMRES. A restart builds an orthonormal Krylov basis by Arnoldi steps
  (one classical Gram-Schmidt pass each, as JAX's iterated Gram-Schmidt does at its default
  of two iterations) and solves the small least-squares problem at the end through its normal
  equations (`batched`), or triangularizes the Hessenberg matrix by Givens rotations as it
  grows and stops once the residual estimate is small (`incremental`).

Iterations stop when `|r| <= max(tol |b|, atol)` or after `maxiter` steps (restarts for
`gmres`; default ten times the size of `b`, as in scipy). Every solver runs inside
`lax.custom_linear_solve` with itself as the transpose solve, so derivatives solve again rather
than differentiate through the iterations, as in JAX. `info` is JAX's placeholder None, except
`gmres`'s: -1 when the solution is NaN, else 0.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

import core.numpy as jnp
from core import dtypes, lax
from core.array import Array
from core.scipy.errors import ModeError, NotAnOperatorError, ShapeMismatchError
from core.scipy.linalg import solve as _dense_solve
from core.scipy.linalg import solve_triangular
from core.tree_util import tree_leaves, tree_map, tree_structure

__all__ = ["bicgstab", "cg", "gmres"]

_HIGHEST = lax.Precision.HIGHEST


class _Space:
    """Vector-space operations on pytrees of arrays (all leaves together form one vector)."""

    @staticmethod
    def inner(x: Any, y: Any) -> Any:
        """The Hermitian inner product `x^H y`."""
        return sum(
            jnp.vdot(a, b, precision=_HIGHEST) for a, b in zip(tree_leaves(x), tree_leaves(y))
        )

    @staticmethod
    def inner_real(x: Any, y: Any) -> Any:
        """The real part of `x^H y` (real for `z^H M z` with `M` Hermitian)."""

        def leaf(a: Any, b: Any) -> Any:
            out = jnp.vdot(a.real, b.real, precision=_HIGHEST)
            if jnp.iscomplexobj(a) or jnp.iscomplexobj(b):
                out = out + jnp.vdot(a.imag, b.imag, precision=_HIGHEST)
            return out

        return sum(leaf(a, b) for a, b in zip(tree_leaves(x), tree_leaves(y)))

    @classmethod
    def norm(cls, x: Any) -> Any:
        return jnp.sqrt(cls.inner_real(x, x))

    @staticmethod
    def axpy(alpha: Any, x: Any, y: Any) -> Any:
        """`alpha x + y`."""
        return tree_map(lambda a, b: alpha * a + b, x, y)

    @staticmethod
    def minus(x: Any, y: Any) -> Any:
        return tree_map(lambda a, b: a - b, x, y)

    @staticmethod
    def select(flag: Any, x: Any, y: Any) -> Any:
        return tree_map(lambda a, b: jnp.where(flag, a, b), x, y)

    @staticmethod
    def dtype(x: Any) -> Any:
        return jnp.result_type(*tree_leaves(x))

    @staticmethod
    def size(x: Any) -> int:
        return sum(np.size(leaf) for leaf in tree_leaves(x))


def _as_operator(op: Any) -> Callable:
    """A function for `op`: itself if callable, else `op @ x` for a square matrix."""
    if callable(op):
        return op
    if isinstance(op, (np.ndarray, Array)) or hasattr(op, "__matmul__"):
        if len(op.shape) != 2 or op.shape[0] != op.shape[1]:
            raise ShapeMismatchError(
                f"linear operator must be a square matrix, but has shape: {op.shape}"
            )
        if isinstance(op, (np.ndarray, Array)):
            return partial(jnp.dot, op, precision=_HIGHEST)
        return op.__matmul__
    raise NotAnOperatorError(f"linear operator must be either a function or ndarray: {op}")


def _no_preconditioner(x: Any) -> Any:
    return x


def _check_start(x0: Any, b: Any) -> None:
    if tree_structure(x0) != tree_structure(b):
        raise ShapeMismatchError(
            "x0 and b must have matching tree structure: "
            f"{tree_structure(x0)} vs {tree_structure(b)}"
        )


def _residual_bound(b: Any, tol: float, atol: float) -> Any:
    """The squared residual norm at which `cg`/`bicgstab` stop."""
    return jnp.maximum(jnp.square(tol) * _Space.inner_real(b, b), jnp.square(atol))


# ---- conjugate gradients


def _cg_loop(A, b, x0, *, maxiter, tol, atol, M):
    """Preconditioned CG: `z = M r`, step along `p`, next `p = z + (r.z / r_old.z_old) p`."""
    bound = _residual_bound(b, tol, atol)
    r = _Space.minus(b, A(x0))
    z = M(r)
    dtype = _Space.dtype(z)
    rz = _Space.inner_real(r, z).astype(dtype)

    def going(state):
        _, r, _, _, k = state
        return (_Space.inner_real(r, r) > bound) & (k < maxiter)

    def step(state):
        x, r, p, rz, k = state
        Ap = A(p)
        alpha = rz / _Space.inner_real(p, Ap).astype(dtype)
        x = _Space.axpy(alpha, p, x)
        r = _Space.axpy(-alpha, Ap, r)
        z = M(r)
        rz_next = _Space.inner_real(r, z).astype(dtype)
        p = _Space.axpy(rz_next / rz, p, z)
        return x, r, p, rz_next, k + 1

    return lax.while_loop(going, step, (x0, r, z, rz, 0))[0]


# ---- BiCGSTAB

_RHO_BREAKDOWN, _ALPHA_OMEGA_BREAKDOWN = -10, -11  # negative counters end the loop


def _bicgstab_loop(A, b, x0, *, maxiter, tol, atol, M):
    """BiCGSTAB: a BiCG step along `p` to the half-way residual `s`, then a minimal-residual
    step along `M s`; stops half-way when `s` is small enough."""
    bound = _residual_bound(b, tol, atol)
    r = _Space.minus(b, A(x0))
    shadow = r  # the fixed shadow residual r^
    one = jnp.asarray(1, dtype=_Space.dtype(b))
    zero = tree_map(jnp.zeros_like, r)

    def going(state):
        _, r, *_, k = state
        return (_Space.inner_real(r, r) > bound) & (k < maxiter) & (k >= 0)

    def step(state):
        x, r, p, v, rho, alpha, omega, k = state
        rho_next = _Space.inner(shadow, r)
        beta = (rho_next / rho) * (alpha / omega)
        p = _Space.axpy(beta, _Space.axpy(-omega, v, p), r)
        p_hat = M(p)
        v = A(p_hat)
        alpha = rho_next / _Space.inner(shadow, v)
        s = _Space.axpy(-alpha, v, r)
        half_way = _Space.inner_real(s, s) < bound
        s_hat = M(s)
        t = A(s_hat)
        omega = _Space.inner(t, s) / _Space.inner(t, t)
        x_half = _Space.axpy(alpha, p_hat, x)
        x = _Space.select(half_way, x_half, _Space.axpy(omega, s_hat, x_half))
        r = _Space.select(half_way, s, _Space.axpy(-omega, t, s))
        k = jnp.where((omega == 0) | (alpha == 0), _ALPHA_OMEGA_BREAKDOWN, k + 1)
        k = jnp.where(rho_next == 0, _RHO_BREAKDOWN, k)
        return x, r, p, v, rho_next, alpha, omega, k

    return lax.while_loop(going, step, (x0, r, zero, zero, one, one, one, 0))[0]


def _krylov_solve(
    loop: Callable,
    A: Any,
    b: Any,
    x0: Any,
    *,
    tol: float,
    atol: float,
    maxiter: int | None,
    M: Any,
    hermitian: bool,
) -> tuple[Any, None]:
    """Runs `loop` as the solve (and transpose solve) of `lax.custom_linear_solve`."""
    if x0 is None:
        x0 = tree_map(jnp.zeros_like, b)
    if maxiter is None:
        maxiter = 10 * _Space.size(b)
    A = _as_operator(A)
    M = _no_preconditioner if M is None else _as_operator(M)
    _check_start(x0, b)
    shapes_x0 = [np.shape(leaf) for leaf in tree_leaves(x0)]
    shapes_b = [np.shape(leaf) for leaf in tree_leaves(b)]
    if shapes_x0 != shapes_b:
        raise ShapeMismatchError(
            f"arrays in x0 and b must have matching shapes: {shapes_x0} vs {shapes_b}"
        )

    def solve(A: Callable, b: Any) -> Any:
        return loop(A, b, x0, maxiter=maxiter, tol=tol, atol=atol, M=M)

    # a real Hermitian operator is symmetric, so its transpose solve is the solve itself
    symmetric = hermitian and not any(jnp.iscomplexobj(leaf) for leaf in tree_leaves(b))
    x = lax.custom_linear_solve(A, b, solve=solve, transpose_solve=solve, symmetric=symmetric)
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
    return _krylov_solve(
        _cg_loop, A, b, x0, tol=tol, atol=atol, maxiter=maxiter, M=M, hermitian=True
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
    return _krylov_solve(
        _bicgstab_loop, A, b, x0, tol=tol, atol=atol, maxiter=maxiter, M=M, hermitian=False
    )


# ---- GMRES


def _unit(x: Any, floor: Any = None) -> tuple[Any, Any]:
    """`(x / |x|, |x|)`, or zeros and 0 when `|x|` is at most `floor` (default the dtype's
    machine epsilon): a vector that small counts as no direction at all."""
    size = _Space.norm(x)
    dtype = _Space.dtype(x)
    if floor is None:
        floor = dtypes.finfo(size.dtype).eps
    keep = size > jnp.asarray(floor).astype(dtype).real
    divisor = size.astype(dtype)
    unit = tree_map(lambda leaf: jnp.where(keep, leaf / divisor, 0.0), x)
    return unit, jnp.where(keep, size, 0.0)


def _column(basis: Any, k: Any) -> Any:
    return tree_map(lambda leaf: leaf[..., k], basis)


def _arnoldi_step(A, M, basis, k):
    """The next Krylov direction `M A v_k`, made orthogonal to the basis by one classical
    Gram-Schmidt pass and stored as column `k + 1`. Returns the basis, the Hessenberg column
    (the overlaps and the new vector's norm, length `restart + 1`) and whether the new vector
    vanished (the Krylov space is invariant: the solution is in the basis already)."""
    dtype = _Space.dtype(basis)
    w = M(A(_column(basis, k)))
    _, w_size = _unit(w)
    overlaps = sum(
        jnp.einsum("...n,...->n", leaf.conj(), wl, precision=_HIGHEST)
        for leaf, wl in zip(tree_leaves(basis), tree_leaves(w))
    )
    w = tree_map(lambda leaf, wl: wl - jnp.dot(leaf, overlaps, precision=_HIGHEST), basis, w)
    direction, height = _unit(w, floor=dtypes.finfo(dtype).eps * w_size)
    basis = tree_map(lambda leaf, d: leaf.at[..., k + 1].set(d), basis, direction)
    return basis, overlaps.at[k + 1].set(height.astype(dtype)), height == 0.0


def _start_basis(direction: Any, restart: int) -> Any:
    """`restart + 1` basis columns: `direction` first, zeros after."""
    return tree_map(
        lambda leaf: jnp.pad(leaf[..., None], ((0, 0),) * leaf.ndim + ((0, restart),)), direction
    )


def _givens(a: Any, b: Any) -> tuple[Any, Any]:
    """`(c, s)` of the rotation taking `(a, b)` to `(r, 0)` (Golub and Van Loan's stable
    form: the ratio of the smaller to the larger entry, so nothing overflows)."""
    b_larger = abs(a) < abs(b)
    ratio = -jnp.where(b_larger, a, b) / jnp.where(b_larger, b, a)
    scale = lax.rsqrt(1 + abs(ratio) ** 2).astype(ratio.dtype)
    c = jnp.where(b_larger, scale * ratio, scale)
    s = jnp.where(b_larger, scale, scale * ratio)
    b_zero = abs(b) == 0
    return jnp.where(b_zero, 1, c), jnp.where(b_zero, 0, s)


def _rotate(v: Any, i: Any, c: Any, s: Any) -> Any:
    """Applies the rotation `(c, s)` to entries `i` and `i + 1` of `v`."""
    a, b = v[i], v[i + 1]
    return v.at[i].set(c.conj() * a - s.conj() * b).at[i + 1].set(s * a + c * b)


def _finish_restart(A, b, M, x, basis, y):
    """The new solution `x + V y` and its preconditioned residual, as a unit vector and norm."""
    x = tree_map(lambda xl, leaf: xl + jnp.dot(leaf[..., :-1], y, precision=_HIGHEST), x, basis)
    direction, size = _unit(M(_Space.minus(b, A(x))))
    return x, direction, size


def _restart_givens(A, b, M, x, direction, size, target, restart):
    """One restart triangularizing the Hessenberg matrix as it grows, by Givens rotations;
    it stops early once the rotated right-hand side's last entry (the residual) is small."""
    dtype = _Space.dtype(b)
    rows = jnp.eye(restart, restart + 1, dtype=dtype)  # the triangular factor, transposed
    rotations = jnp.zeros((restart, 2), dtype=dtype)
    rhs = jnp.zeros(restart + 1, dtype=dtype).at[0].set(size.astype(dtype))

    def going(state):
        k, residual, *_ = state
        return (k < restart) & (residual > target)

    def step(state):
        k, _, basis, rows, rhs, rotations = state
        basis, column, _ = _arnoldi_step(A, M, basis, k)
        column = lax.fori_loop(0, k, lambda i, v: _rotate(v, i, *rotations[i]), column)
        c, s = _givens(column[k], column[k + 1])
        rows = rows.at[k].set(_rotate(column, k, c, s))
        rotations = rotations.at[k].set(jnp.stack([c, s]))
        rhs = _rotate(rhs, k, c, s)
        return k + 1, abs(rhs[k + 1]), basis, rows, rhs, rotations

    start = (0, size, _start_basis(direction, restart), rows, rhs, rotations)
    _, _, basis, rows, rhs, _ = lax.while_loop(going, step, start)
    y = solve_triangular(rows[:, :-1].T, rhs[:-1])
    return _finish_restart(A, b, M, x, basis, y)


def _restart_batched(A, b, M, x, direction, size, target, restart):
    """One restart: all Arnoldi steps (until a breakdown), then the least-squares problem
    `min |H y - |r| e_1|` through its normal equations. Rows of `H^T` never reached stay the
    identity's, which keeps the normal equations regular after a breakdown."""
    del target
    dtype = _Space.dtype(b)

    def going(state):
        k, stop, _, _ = state
        return (k < restart) & ~stop

    def step(state):
        k, _, basis, hessenberg_t = state
        basis, column, stop = _arnoldi_step(A, M, basis, k)
        return k + 1, stop, basis, hessenberg_t.at[k].set(column)

    start = (0, False, _start_basis(direction, restart), jnp.eye(restart, restart + 1, dtype=dtype))
    _, _, basis, hessenberg_t = lax.while_loop(going, step, start)
    rhs = jnp.zeros(restart + 1, dtype=dtype).at[0].set(size.astype(dtype))
    h = hessenberg_t.T
    gram = jnp.dot(h.T.conj(), h, precision=_HIGHEST)
    y = _dense_solve(gram, jnp.dot(h.T.conj(), rhs, precision=_HIGHEST), assume_a="pos")
    return _finish_restart(A, b, M, x, basis, y)


_GMRES_RESTARTS = {"batched": _restart_batched, "incremental": _restart_givens}


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
    M = _no_preconditioner if M is None else _as_operator(M)
    A = _as_operator(A)
    size = _Space.size(b)
    if maxiter is None:
        maxiter = 10 * size
    restart = min(restart, size)
    _check_start(x0, b)
    b_size = _Space.norm(b)
    bound = jnp.maximum(tol * b_size, atol)
    # the in-restart target, on the preconditioned residual
    target = _Space.norm(M(b)) * jnp.minimum(1.0, bound / b_size)
    if solve_method not in _GMRES_RESTARTS:
        raise ModeError(
            f"invalid solve_method {solve_method}, must be either 'incremental' or 'batched'"
        )
    one_restart = _GMRES_RESTARTS[solve_method]

    def solve(A: Callable, b: Any) -> Any:
        direction, size = _unit(M(_Space.minus(b, A(x0))))

        def going(state):
            _, k, _, size = state
            return (k < maxiter) & (size > bound)

        def step(state):
            x, k, direction, size = state
            x, direction, size = one_restart(A, b, M, x, direction, size, target, restart)
            return x, k + 1, direction, size

        return lax.while_loop(going, step, (x0, 0, direction, size))[0]

    x = lax.custom_linear_solve(A, b, solve=solve, transpose_solve=solve)
    return x, jnp.where(jnp.isnan(_Space.norm(x)), -1, 0)
