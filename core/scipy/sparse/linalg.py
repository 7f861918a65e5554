"""`core.scipy.sparse.linalg`: JAX's iterative solvers `cg` and `bicgstab` (no `gmres` yet).

`A` is a function (or a square matrix) applied to pytrees of arrays; each solver is one
`lax.while_loop` stopping at `|r|^2 <= max(tol^2 |b|^2, atol^2)` or after `maxiter` steps
(default 10 times the size of `b`, as scipy). The loop runs inside `lax.custom_linear_solve`
with itself as the transpose solve, so derivatives solve again instead of differentiating
through the iterations, exactly as in JAX. `info` is None, as in JAX.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

import core.numpy as jnp
from core import lax
from core.array import Array
from core.scipy.errors import NotAnOperatorError, ShapeMismatchError
from core.tree_util import tree_leaves, tree_map, tree_structure

__all__ = ["bicgstab", "cg"]

_dot = partial(jnp.dot, precision=lax.Precision.HIGHEST)
_vdot = partial(jnp.vdot, precision=lax.Precision.HIGHEST)


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
