"""BFGS (Nocedal & Wright, algorithm 6.1) as JAX writes it: one `lax.while_loop`.

Each iteration steps along `p = -H g` with the strong-Wolfe `line_search` and updates the
inverse-Hessian estimate `H <- (I - rho s y^T) H (I - rho y s^T) + rho s s^T` (skipped when
`rho = 1 / y.s` is not finite). The loop state is JAX's `_BFGSResults`, so `minimize` reads
its counters and status from it unchanged; everything is traced, so `jit` and `vmap` apply.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, NamedTuple

import numpy as np

import core.numpy as jnp
from core import api, lax
from core.scipy.optimize.line_search import line_search

_dot = partial(jnp.dot, precision=lax.Precision.HIGHEST)
_einsum = partial(jnp.einsum, precision=lax.Precision.HIGHEST)


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
    d = x0.shape[0]
    initial_H = jnp.eye(d, dtype=x0.dtype)
    f_0, g_0 = api.value_and_grad(fun)(x0)
    state = _BFGSResults(
        converged=jnp.linalg.norm(g_0, ord=norm) < gtol,
        failed=False,
        k=0,
        nfev=1,
        ngev=1,
        nhev=0,
        x_k=x0,
        f_k=f_0,
        g_k=g_0,
        H_k=initial_H,
        old_old_fval=f_0 + jnp.linalg.norm(g_0) / 2,
        status=0,
        line_search_status=0,
    )

    def cond_fun(state: _BFGSResults):
        return (
            jnp.logical_not(state.converged) & jnp.logical_not(state.failed) & (state.k < maxiter)
        )

    def body_fun(state: _BFGSResults) -> _BFGSResults:
        p_k = -_dot(state.H_k, state.g_k)
        ls = line_search(
            fun,
            state.x_k,
            p_k,
            old_fval=state.f_k,
            old_old_fval=state.old_old_fval,
            gfk=state.g_k,
            maxiter=line_search_maxiter,
        )
        state = state._replace(
            nfev=state.nfev + ls.nfev,
            ngev=state.ngev + ls.ngev,
            failed=ls.failed,
            line_search_status=ls.status,
        )
        s_k = ls.a_k * p_k
        x_kp1 = state.x_k + s_k
        y_k = ls.g_k - state.g_k
        rho_k = jnp.reciprocal(_dot(y_k, s_k))
        sy_k = s_k[:, np.newaxis] * y_k[np.newaxis, :]
        w = jnp.eye(d, dtype=rho_k.dtype) - rho_k * sy_k
        H_kp1 = (
            _einsum("ij,jk,lk", w, state.H_k, w) + rho_k * s_k[:, np.newaxis] * s_k[np.newaxis, :]
        )
        H_kp1 = jnp.where(jnp.isfinite(rho_k), H_kp1, state.H_k)
        return state._replace(
            converged=jnp.linalg.norm(ls.g_k, ord=norm) < gtol,
            k=state.k + 1,
            x_k=x_kp1,
            f_k=ls.f_k,
            g_k=ls.g_k,
            H_k=H_kp1,
            old_old_fval=state.f_k,
        )

    state = lax.while_loop(cond_fun, body_fun, state)
    status = jnp.where(
        state.converged,
        0,
        jnp.where(
            state.k == maxiter,
            1,
            jnp.where(state.failed, 2 + state.line_search_status, -1),
        ),
    )
    return state._replace(status=status)
