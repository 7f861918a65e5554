"""BFGS (Nocedal & Wright, algorithm 6.1) as `jax.scipy.optimize` runs it: one
`lax.while_loop` whose state is JAX's `_BFGSResults`.

Each iteration steps along `p = -H g` by the strong-Wolfe `line_search`, then updates the
inverse-Hessian estimate with the step `s` and the gradient change `y`:
`H <- (I - rho s y^T) H (I - rho y s^T) + rho s s^T`, `rho = 1 / y.s`, keeping `H` when `rho`
is not finite. Everything is traced, so `jit` and `vmap` apply.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

import core.numpy as jnp
from core import api, lax
from core.scipy.optimize.line_search import line_search

_HIGHEST = lax.Precision.HIGHEST


class _BFGSResults(NamedTuple):
    """The BFGS loop state and result (JAX's `_BFGSResults`).

    Attributes:
        converged: True if `|g|_norm < gtol`.
        failed: True if the line search failed.
        k: the number of BFGS updates.
        nfev: the number of objective evaluations.
        ngev: the number of gradient evaluations.
        nhev: the number of Hessian evaluations (always 0).
        x_k: the last iterate.
        f_k: the objective at `x_k`.
        g_k: the gradient at `x_k`.
        H_k: the inverse-Hessian estimate.
        old_old_fval: the objective at the previous iterate.
        status: 0 converged, 1 maxiter reached, 2 + the line search's status on its failure,
            -1 undefined.
        line_search_status: the last line search's status.
    """

    converged: Any
    failed: Any
    k: Any
    nfev: Any
    ngev: Any
    nhev: Any
    x_k: Any
    f_k: Any
    g_k: Any
    H_k: Any
    old_old_fval: Any
    status: Any
    line_search_status: Any


def _updated_inverse_hessian(H: Any, step: Any, change: Any) -> Any:
    """The BFGS update of the inverse Hessian `H` by a step and its gradient change."""
    rho = jnp.reciprocal(jnp.dot(change, step, precision=_HIGHEST))
    w = jnp.eye(H.shape[0], dtype=rho.dtype) - rho * (step[:, None] * change[None, :])
    updated = jnp.einsum("ij,jk,lk->il", w, H, w, precision=_HIGHEST)
    updated = updated + rho * step[:, None] * step[None, :]
    return jnp.where(jnp.isfinite(rho), updated, H)


def minimize_bfgs(
    fun: Callable,
    x0: Any,
    maxiter: int | None = None,
    norm: float = np.inf,
    gtol: float = 1e-5,
    line_search_maxiter: int = 10,
) -> _BFGSResults:
    """Minimizes `fun` with BFGS (JAX's `minimize_bfgs`).

    Args:
        fun: `fun(x) -> scalar` on a 1-D array, differentiable.
        x0: the initial guess, shape `(n,)`.
        maxiter: the maximum number of iterations (default `200 * n`).
        norm: the order of the gradient norm tested against `gtol`.
        gtol: stop when `|grad|_norm < gtol`.
        line_search_maxiter: the maximum number of line search iterations.

    Returns:
        A `_BFGSResults`.
    """
    if maxiter is None:
        maxiter = np.size(x0) * 200

    def small(gradient: Any) -> Any:
        return jnp.linalg.norm(gradient, ord=norm) < gtol

    def going(s: _BFGSResults) -> Any:
        return ~s.converged & ~s.failed & (s.k < maxiter)

    def iterate(s: _BFGSResults) -> _BFGSResults:
        direction = -jnp.dot(s.H_k, s.g_k, precision=_HIGHEST)
        found = line_search(
            fun,
            s.x_k,
            direction,
            old_fval=s.f_k,
            old_old_fval=s.old_old_fval,
            gfk=s.g_k,
            maxiter=line_search_maxiter,
        )
        step = found.a_k * direction
        return s._replace(
            converged=small(found.g_k),
            failed=found.failed,
            k=s.k + 1,
            nfev=s.nfev + found.nfev,
            ngev=s.ngev + found.ngev,
            x_k=s.x_k + step,
            f_k=found.f_k,
            g_k=found.g_k,
            H_k=_updated_inverse_hessian(s.H_k, step, found.g_k - s.g_k),
            old_old_fval=s.f_k,
            line_search_status=found.status,
        )

    f0, g0 = api.value_and_grad(fun)(x0)
    start = _BFGSResults(
        converged=small(g0),
        failed=False,
        k=0,
        nfev=1,
        ngev=1,
        nhev=0,
        x_k=x0,
        f_k=f0,
        g_k=g0,
        H_k=jnp.eye(x0.shape[0], dtype=x0.dtype),
        old_old_fval=f0 + jnp.linalg.norm(g0) / 2,  # JAX's guess: sets the first step
        status=0,
        line_search_status=0,
    )
    end = lax.while_loop(going, iterate, start)
    failed_status = jnp.where(end.failed, 2 + end.line_search_status, -1)
    status = jnp.where(end.converged, 0, jnp.where(end.k == maxiter, 1, failed_status))
    return end._replace(status=status)
