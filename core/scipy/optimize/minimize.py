"""`minimize`: JAX's scipy-like front end over `minimize_bfgs` and the experimental L-BFGS.

It binds `args` into the objective, runs the chosen loop and repackages its state as
`OptimizeResults`, as `jax.scipy.optimize.minimize` does (including that `tol` is accepted and
ignored: the solvers take `gtol` through `options`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import core.numpy as jnp
from core.scipy.errors import ArgsNotTupleError, ModeError
from core.scipy.optimize._lbfgs import _minimize_lbfgs
from core.scipy.optimize.bfgs import minimize_bfgs

_LBFGS = "l-bfgs-experimental-do-not-rely-on-this"


class OptimizeResults(NamedTuple):
    """The result of `minimize` (JAX's `OptimizeResults`).

    Attributes:
        x: the final solution.
        success: True if the optimization succeeded.
        status: the solver's return code: 0 converged, 1 maximum iterations reached, 3 zoom
            failed, 4 saddle point reached, 5 maximum line search iterations reached, -1
            undefined (BFGS); L-BFGS's codes are `LBFGSResults.status`.
        fun: the final function value.
        jac: the final gradient.
        hess_inv: the final inverse-Hessian estimate (None for L-BFGS).
        nfev: the number of function evaluations.
        njev: the number of gradient evaluations.
        nit: the number of iterations.
    """

    x: Any
    success: Any
    status: Any
    fun: Any
    jac: Any
    hess_inv: Any
    nfev: Any
    njev: Any
    nit: Any


def minimize(
    fun: Callable,
    x0: Any,
    args: tuple = (),
    *,
    method: str,
    tol: float | None = None,
    options: Mapping[str, Any] | None = None,
) -> OptimizeResults:
    """Minimizes a scalar function of a 1-D array (`jax.scipy.optimize.minimize`).

    Args:
        fun: the objective, `fun(x, *args) -> scalar`, differentiable in `x` of shape `(n,)`.
        x0: the initial guess, a real array of shape `(n,)`.
        args: extra arguments passed to `fun`, a tuple.
        method: `"BFGS"` or `"l-bfgs-experimental-do-not-rely-on-this"` (case-insensitive).
        tol: accepted and ignored, as in JAX (pass `gtol` in `options`).
        options: solver options: `maxiter`, `norm`, `gtol`, `line_search_maxiter` (BFGS);
            `maxiter`, `norm`, `maxcor`, `ftol`, `gtol`, `maxfun`, `maxgrad`, `maxls` (L-BFGS).

    Returns:
        An `OptimizeResults`.
    """
    if options is None:
        options = {}
    if not isinstance(args, tuple):
        raise ArgsNotTupleError(args)

    def fun_with_args(x):
        return fun(x, *args)

    if method.lower() == "bfgs":
        results = minimize_bfgs(fun_with_args, x0, **options)
        hess_inv = results.H_k
    elif method.lower() == _LBFGS:
        results = _minimize_lbfgs(fun_with_args, x0, **options)
        hess_inv = None
    else:
        raise ModeError(f"Method {method} not recognized; use 'BFGS' or '{_LBFGS}'.")
    return OptimizeResults(
        x=results.x_k,
        success=results.converged & jnp.logical_not(results.failed),
        status=results.status,
        fun=results.f_k,
        jac=results.g_k,
        hess_inv=hess_inv,
        nfev=results.nfev,
        njev=results.ngev,
        nit=results.k,
    )
