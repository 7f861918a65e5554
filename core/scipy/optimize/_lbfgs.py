"""L-BFGS (Nocedal & Wright, algorithm 7.5; complex variables after Sorber et al. 2012), the
method of JAX's experimental `_minimize_lbfgs`.

Instead of a dense inverse Hessian the state keeps the last `maxcor` steps `s`, gradient changes
`y` and their `rho = 1 / y.s`, oldest first. The direction is the two-loop recursion's `-H g`
with the initial inverse Hessian `gamma I`, `gamma = y.s / y.y` of the newest pair; the step
comes from the strong-Wolfe `line_search` that BFGS uses. One `lax.while_loop` runs it, with
JAX's stopping tests and status codes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

import core.numpy as jnp
from core import api, lax
from core.scipy.optimize.line_search import line_search

_HIGHEST = lax.Precision.HIGHEST


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
    n, dtype = len(x0), jnp.result_type(x0)
    if maxiter is None and maxfun is None and maxgrad is None:
        maxiter = 200 * n
    unlimited = np.inf
    maxiter = unlimited if maxiter is None else maxiter
    maxfun = unlimited if maxfun is None else maxfun
    maxgrad = unlimited if maxgrad is None else maxgrad

    def going(s: LBFGSResults) -> Any:
        return ~s.converged & ~s.failed

    def iterate(s: LBFGSResults) -> LBFGSResults:
        direction = _two_loop_direction(s)
        found = line_search(fun, s.x_k, direction, old_fval=s.f_k, gfk=s.g_k, maxiter=maxls)
        step = jnp.asarray(found.a_k).astype(direction.dtype) * direction
        change = found.g_k - s.g_k
        curvature = jnp.real(jnp.dot(change, step, precision=_HIGHEST))
        # the reasons to stop, the ones later in the list taking precedence
        status = jnp.array(0)
        for code, reached in (
            (4, s.f_k - found.f_k < ftol),
            (3, s.ngev >= maxgrad),
            (2, s.nfev >= maxfun),
            (1, s.k >= maxiter),
            (5, found.failed),
        ):
            status = jnp.where(reached, code, status)
        converged = jnp.linalg.norm(found.g_k, ord=norm) < gtol
        change_norm2 = jnp.real(jnp.dot(jnp.conj(change), change, precision=_HIGHEST))
        return s._replace(
            converged=converged,
            failed=(status > 0) & ~converged,
            k=s.k + 1,
            nfev=s.nfev + found.nfev,
            ngev=s.ngev + found.ngev,
            x_k=(s.x_k + step).astype(s.x_k.dtype),
            f_k=found.f_k.astype(s.f_k.dtype),
            g_k=found.g_k.astype(s.g_k.dtype),
            s_history=_pushed(s.s_history, step),
            y_history=_pushed(s.y_history, change),
            rho_history=_pushed(s.rho_history, jnp.reciprocal(curvature).astype(change.dtype)),
            gamma=(curvature / change_norm2).astype(s.g_k.dtype),
            status=jnp.where(converged, 0, status),
            ls_status=found.status,
        )

    f0, g0 = api.value_and_grad(fun)(x0)
    start = LBFGSResults(
        converged=jnp.array(False),
        failed=jnp.array(False),
        k=0,
        nfev=1,
        ngev=1,
        x_k=x0,
        f_k=f0,
        g_k=g0,
        s_history=jnp.zeros((maxcor, n), dtype=dtype),
        y_history=jnp.zeros((maxcor, n), dtype=dtype),
        rho_history=jnp.zeros((maxcor,), dtype=dtype),
        gamma=1.0,
        status=0,
        ls_status=0,
    )
    return lax.while_loop(going, iterate, start)


def _two_loop_direction(s: LBFGSResults) -> Any:
    """`-H g` by the two-loop recursion over the `min(k, maxcor)` newest pairs: newest to
    oldest, project the pairs out of `g`; scale by `gamma`; oldest to newest, add them back."""
    dtype = s.rho_history.dtype
    size = len(s.rho_history)
    used = jnp.minimum(s.k, size)
    first = size - used  # the oldest pair in use

    def backward(j, carry):
        q, alphas = carry
        i = size - 1 - j
        alpha = s.rho_history[i] * jnp.dot(jnp.conj(s.s_history[i]), q, precision=_HIGHEST)
        alpha = alpha.real.astype(dtype)
        return q - alpha * jnp.conj(s.y_history[i]), alphas.at[i].set(alpha)

    q, alphas = lax.fori_loop(0, used, backward, (-jnp.conj(s.g_k), jnp.zeros_like(s.rho_history)))

    def forward(j, r):
        i = first + j
        beta = s.rho_history[i] * jnp.dot(s.y_history[i], r, precision=_HIGHEST).real.astype(dtype)
        return r + (alphas[i] - beta) * s.s_history[i]

    return lax.fori_loop(0, used, forward, s.gamma * q)


def _pushed(history: Any, newest: Any) -> Any:
    """`history` without its oldest entry, with `newest` appended."""
    return jnp.concatenate([history[1:], jnp.expand_dims(newest, 0)]).astype(history.dtype)
