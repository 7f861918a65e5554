"""L-BFGS (Nocedal & Wright, algorithm 7.5; complex variables after Sorber et al. 2012) as JAX's
experimental `_minimize_lbfgs` writes it.

Instead of a dense inverse Hessian the state keeps the last `maxcor` steps `s`, gradient changes
`y` and `rho = 1 / y.s` (rolled, newest last); the direction comes from the two-loop recursion
(two `fori_loop`s) scaled by `gamma = y.s / y.y`, and the step from the same strong-Wolfe
`line_search` as BFGS. The loop is one `lax.while_loop` with JAX's stopping rules and statuses.
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


class LBFGSResults(NamedTuple):
    """The L-BFGS loop state and result (JAX's `LBFGSResults`).

    Attributes:
        converged: True if `|g|_norm < gtol`.
        failed: True if the status is not 0 and not converged.
        k: the number of iterations.
        nfev: the number of objective evaluations.
        ngev: the number of gradient evaluations.
        x_k: the last iterate.
        f_k: the objective at `x_k`.
        g_k: the gradient at `x_k`.
        s_history: the last `maxcor` steps, newest last.
        y_history: the last `maxcor` gradient changes, newest last.
        rho_history: their `1 / y.s`.
        gamma: the scale of the initial inverse Hessian.
        status: 0 nominal, 1 maxiter, 2 maxfun, 3 maxgrad, 4 insufficient progress (ftol),
            5 line search failed.
        ls_status: the last line search's status.
    """

    converged: Any
    failed: Any
    k: Any
    nfev: Any
    ngev: Any
    x_k: Any
    f_k: Any
    g_k: Any
    s_history: Any
    y_history: Any
    rho_history: Any
    gamma: Any
    status: Any
    ls_status: Any


def _minimize_lbfgs(
    fun: Callable,
    x0: Any,
    maxiter: float | None = None,
    norm: float = np.inf,
    maxcor: int = 10,
    ftol: float = 2.220446049250313e-09,
    gtol: float = 1e-05,
    maxfun: float | None = None,
    maxgrad: float | None = None,
    maxls: int = 20,
) -> LBFGSResults:
    """Minimizes `fun` with L-BFGS (JAX's experimental `_minimize_lbfgs`).

    Args:
        fun: `fun(x) -> real scalar` on a 1-D array, differentiable.
        x0: the initial guess, shape `(n,)`.
        maxiter: the maximum number of iterations (`200 * n` if no limit is given).
        norm: the order of the gradient norm tested against `gtol`.
        maxcor: the number of corrections kept (the history size).
        ftol: stop when the decrease `f_k - f_{k+1}` is below it.
        gtol: stop when `|grad|_norm < gtol`.
        maxfun: the maximum number of function evaluations.
        maxgrad: the maximum number of gradient evaluations.
        maxls: the maximum number of line search steps per iteration.

    Returns:
        An `LBFGSResults`.
    """
    d = len(x0)
    dtype = jnp.result_type(x0)
    if maxiter is None and maxfun is None and maxgrad is None:
        maxiter = d * 200
    maxiter = np.inf if maxiter is None else maxiter
    maxfun = np.inf if maxfun is None else maxfun
    maxgrad = np.inf if maxgrad is None else maxgrad

    f_0, g_0 = api.value_and_grad(fun)(x0)
    state_initial = LBFGSResults(
        converged=jnp.array(False, dtype=bool),
        failed=jnp.array(False, dtype=bool),
        k=0,
        nfev=1,
        ngev=1,
        x_k=x0,
        f_k=f_0,
        g_k=g_0,
        s_history=jnp.zeros((maxcor, d), dtype=dtype),
        y_history=jnp.zeros((maxcor, d), dtype=dtype),
        rho_history=jnp.zeros((maxcor,), dtype=dtype),
        gamma=1.0,
        status=0,
        ls_status=0,
    )

    def cond_fun(state: LBFGSResults):
        return (~state.converged) & (~state.failed)

    def body_fun(state: LBFGSResults) -> LBFGSResults:
        p_k = _two_loop_recursion(state)
        ls = line_search(
            f=fun, xk=state.x_k, pk=p_k, old_fval=state.f_k, gfk=state.g_k, maxiter=maxls
        )
        s_k = jnp.asarray(ls.a_k).astype(p_k.dtype) * p_k
        x_kp1 = state.x_k + s_k
        f_kp1 = ls.f_k
        g_kp1 = ls.g_k
        y_k = g_kp1 - state.g_k
        rho_k_inv = jnp.real(_dot(y_k, s_k))
        rho_k = jnp.reciprocal(rho_k_inv).astype(y_k.dtype)
        gamma = rho_k_inv / jnp.real(_dot(jnp.conj(y_k), y_k))

        status = jnp.array(0)
        status = jnp.where(state.f_k - f_kp1 < ftol, 4, status)
        status = jnp.where(state.ngev >= maxgrad, 3, status)
        status = jnp.where(state.nfev >= maxfun, 2, status)
        status = jnp.where(state.k >= maxiter, 1, status)
        status = jnp.where(ls.failed, 5, status)
        converged = jnp.linalg.norm(g_kp1, ord=norm) < gtol
        return state._replace(
            converged=converged,
            failed=(status > 0) & (~converged),
            k=state.k + 1,
            nfev=state.nfev + ls.nfev,
            ngev=state.ngev + ls.ngev,
            x_k=x_kp1.astype(state.x_k.dtype),
            f_k=f_kp1.astype(state.f_k.dtype),
            g_k=g_kp1.astype(state.g_k.dtype),
            s_history=_update_history_vectors(state.s_history, s_k),
            y_history=_update_history_vectors(state.y_history, y_k),
            rho_history=_update_history_scalars(state.rho_history, rho_k),
            gamma=gamma.astype(state.g_k.dtype),
            status=jnp.where(converged, 0, status),
            ls_status=ls.status,
        )

    return lax.while_loop(cond_fun, body_fun, state_initial)


def _two_loop_recursion(state: LBFGSResults):
    """The L-BFGS direction `-H g` from the stored history."""
    dtype = state.rho_history.dtype
    his_size = len(state.rho_history)
    curr_size = jnp.where(state.k < his_size, state.k, his_size)
    q = -jnp.conj(state.g_k)
    a_his = jnp.zeros_like(state.rho_history)

    def body_fun1(j, carry):
        i = his_size - 1 - j
        _q, _a_his = carry
        a_i = state.rho_history[i] * _dot(jnp.conj(state.s_history[i]), _q).real.astype(dtype)
        _a_his = _a_his.at[i].set(a_i)
        _q = _q - a_i * jnp.conj(state.y_history[i])
        return _q, _a_his

    q, a_his = lax.fori_loop(0, curr_size, body_fun1, (q, a_his))
    q = state.gamma * q

    def body_fun2(j, _q):
        i = his_size - curr_size + j
        b_i = state.rho_history[i] * _dot(state.y_history[i], _q).real.astype(dtype)
        return _q + (a_his[i] - b_i) * state.s_history[i]

    return lax.fori_loop(0, curr_size, body_fun2, q)


def _update_history_vectors(history, new):
    return jnp.roll(history, -1, axis=0).at[-1, :].set(new)


def _update_history_scalars(history, new):
    return jnp.roll(history, -1, axis=0).at[-1].set(new)
