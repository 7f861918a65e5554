"""`jax.experimental.ode.odeint`: adaptive Dormand-Prince (RK45) integration of an ODE,
differentiable in reverse mode by the adjoint method, as JAX 0.10.2 computes it.

The solver is JAX's algorithm written with numbax's own operations (a `lax.scan` over the
output times around a `lax.while_loop` of accepted or rejected Runge-Kutta steps, a 4th-order
interpolating polynomial per step); its gradient is a `custom_vjp` that integrates the
augmented system backwards in time with the same solver. `func`'s closed-over traced values
are hoisted into arguments by `closure_convert` (so gradients reach them) and the state pytree
is raveled to one vector, as in JAX. Like JAX, forward mode (`jvp`, `jacfwd`) is refused by
the `custom_vjp`. JAX's `default_matmul_precision("highest")` around the solver has no
counterpart: numbax's CPU dots always run at full precision.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

import core.numpy as jnp
from core import lax
from core.api import vjp, vmap
from core.custom_derivatives import closure_convert, custom_vjp
from core.flatten_util import ravel_pytree
from core.jit.api import jit
from core.trace import Tracer
from core.tree_util import tree_leaves, tree_map

__all__ = ["odeint"]

# Dormand-Prince 5(4) tableau: the nodes, the stages' weights, the 5th-order solution's and
# the error estimate's weights, and the weights of the step's midpoint (for interpolation).
_ALPHA = [1 / 5, 3 / 10, 4 / 5, 8 / 9, 1.0, 1.0, 0]
_BETA = [
    [1 / 5, 0, 0, 0, 0, 0, 0],
    [3 / 40, 9 / 40, 0, 0, 0, 0, 0],
    [44 / 45, -56 / 15, 32 / 9, 0, 0, 0, 0],
    [19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729, 0, 0, 0],
    [9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656, 0, 0],
    [35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0],
]
_C_SOL = [35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0]
_C_ERROR = [
    35 / 384 - 1951 / 21600,
    0,
    500 / 1113 - 22642 / 50085,
    125 / 192 - 451 / 720,
    -2187 / 6784 - -12231 / 42400,
    11 / 84 - 649 / 6300,
    -1.0 / 60.0,
]
_C_MID = [
    6025192743 / 30085553152 / 2,
    0,
    51252292925 / 65400821598 / 2,
    -2691868925 / 45128329728 / 2,
    187940372067 / 1594534317056 / 2,
    -1776094331 / 19743644256 / 2,
    11237099 / 235043384 / 2,
]


def _interp_fit_dopri(y0, y1, k, dt):
    """The coefficients of the quartic through a step's ends, midpoint and end slopes."""
    y_mid = y0 + dt.astype(y0.dtype) * jnp.dot(jnp.array(_C_MID, dtype=y0.dtype), k)
    dt = dt.astype(y0.dtype)
    dy0, dy1 = k[0], k[-1]
    a = -2.0 * dt * dy0 + 2.0 * dt * dy1 - 8.0 * y0 - 8.0 * y1 + 16.0 * y_mid
    b = 5.0 * dt * dy0 - 3.0 * dt * dy1 + 18.0 * y0 + 14.0 * y1 - 32.0 * y_mid
    c = -4.0 * dt * dy0 + dt * dy1 - 11.0 * y0 - 5.0 * y1 + 16.0 * y_mid
    return jnp.asarray((a, b, c, dt * dy0, y0))


def _initial_step_size(fun, t0, y0, order, rtol, atol, f0):
    """Hairer, Norsett and Wanner's starting step (Solving ODEs I, Sec. II.4)."""
    dtype = jnp.result_type(y0, f0, float)
    y0, f0 = y0.astype(dtype), f0.astype(dtype)
    scale = (atol + jnp.abs(y0) * rtol).astype(dtype)
    d0 = jnp.linalg.norm(y0 / scale)
    d1 = jnp.linalg.norm(f0 / scale)
    h0 = jnp.where((d0 < 1e-5) | (d1 < 1e-5), 1e-6, 0.01 * d0 / d1)
    f1 = fun(y0 + h0.astype(dtype) * f0, t0 + h0)
    d2 = jnp.linalg.norm((f1 - f0) / scale) / h0
    h1 = jnp.where(
        (d1 <= 1e-15) & (d2 <= 1e-15),
        jnp.maximum(1e-6, h0 * 1e-3),
        (0.01 / jnp.maximum(d1, d2)) ** (1.0 / (order + 1.0)),
    )
    return jnp.minimum(100.0 * h0, h1)


def _runge_kutta_step(func, y0, f0, t0, dt):
    """One Dormand-Prince step: the new state and slope, the error estimate and the stages."""
    alpha = jnp.array(_ALPHA, dtype=dt.dtype)
    beta = jnp.array(_BETA, dtype=f0.dtype)
    dt_y = dt.astype(f0.dtype)

    def body_fun(i, k):
        yi = y0 + dt_y * jnp.dot(beta[i - 1, :], k)
        return k.at[i, :].set(func(yi, t0 + dt * alpha[i - 1]))

    k = jnp.zeros((7, f0.shape[0]), f0.dtype).at[0, :].set(f0)
    k = lax.fori_loop(1, 7, body_fun, k)
    y1 = dt_y * jnp.dot(jnp.array(_C_SOL, dtype=f0.dtype), k) + y0
    y1_error = dt_y * jnp.dot(jnp.array(_C_ERROR, dtype=f0.dtype), k)
    return y1, k[-1], y1_error, k


def _mean_error_ratio(error_estimate, rtol, atol, y0, y1):
    err_tol = atol + rtol * jnp.maximum(jnp.abs(y0), jnp.abs(y1))
    ratio = error_estimate / err_tol.astype(error_estimate.dtype)
    squared = ratio.real**2 + ratio.imag**2 if jnp.iscomplexobj(ratio) else ratio**2
    return jnp.sqrt(jnp.mean(squared))


def _optimal_step_size(
    last_step, mean_error_ratio, safety=0.9, ifactor=10.0, dfactor=0.2, order=5.0
):
    dfactor = jnp.where(mean_error_ratio < 1, 1.0, dfactor)
    factor = jnp.minimum(ifactor, jnp.maximum(mean_error_ratio ** (-1.0 / order) * safety, dfactor))
    return jnp.where(mean_error_ratio == 0, last_step * ifactor, last_step * factor)


def odeint(
    func: Callable,
    y0: Any,
    t: Any,
    *args: Any,
    rtol: float = 1.4e-8,
    atol: float = 1.4e-8,
    mxstep: float = jnp.inf,
    hmax: float = jnp.inf,
) -> Any:
    """Adaptive stepsize (Dormand-Prince) Runge-Kutta odeint implementation.

    Args:
      func: the time derivative of the solution `y` at time `t`, `func(y, t, *args)`, with the
        structure of `y0`.
      y0: array or pytree of arrays, the initial state.
      t: array of float times at which to evaluate the solution, strictly increasing.
      *args: further arguments of `func`: arrays, scalars or pytrees of them.
      rtol: relative local error tolerance.
      atol: absolute local error tolerance.
      mxstep: maximum number of steps per time point.
      hmax: maximum step size.

    Returns:
      The solution at each time of `t`: `y0`'s structure with a leading axis of `len(t)`.

    Raises:
      TypeError: an argument of `*args` is not an array or scalar, or `t` is not floating.
    """
    for arg in tree_leaves(args):
        if not isinstance(arg, Tracer) and np.asarray(arg).dtype.kind not in "biufcV":
            raise TypeError(
                f"The contents of odeint *args must be arrays or scalars, but got {arg}."
            )
    if not jnp.issubdtype(t.dtype, jnp.floating):
        raise TypeError(f"t must be an array of floats, but got {t}.")
    converted, consts = closure_convert(func, y0, t[0], *args)
    return _odeint_wrapper(converted, rtol, atol, mxstep, hmax, y0, t, *args, *consts)


@partial(jit, static_argnums=(0, 1, 2, 3, 4))
def _odeint_wrapper(func, rtol, atol, mxstep, hmax, y0, ts, *args):
    y0, unravel = ravel_pytree(y0)

    def flat_func(y_flat, *rest):
        return ravel_pytree(func(unravel(y_flat), *rest))[0]

    out = _odeint(flat_func, rtol, atol, mxstep, hmax, y0, ts, *args)
    return vmap(unravel)(out)


@partial(custom_vjp, nondiff_argnums=(0, 1, 2, 3, 4))
def _odeint(func, rtol, atol, mxstep, hmax, y0, ts, *args):
    def func_(y, t):
        return func(y, t, *args)

    def scan_fun(carry, target_t):
        def cond_fun(state):
            i, _, _, t, dt, _, _ = state
            return (t < target_t) & (i < mxstep) & (dt > 0)

        def body_fun(state):
            i, y, f, t, dt, last_t, interp_coeff = state
            next_y, next_f, next_y_error, k = _runge_kutta_step(func_, y, f, t, dt)
            next_t = t + dt
            error_ratio = _mean_error_ratio(next_y_error, rtol, atol, y, next_y)
            new_interp_coeff = _interp_fit_dopri(y, next_y, k, dt)
            dt = jnp.clip(_optimal_step_size(dt, error_ratio), min=0.0, max=hmax)
            new = [i + 1, next_y, next_f, next_t, dt, t, new_interp_coeff]
            old = [i + 1, y, f, t, dt, last_t, interp_coeff]
            return [jnp.where(error_ratio <= 1.0, n, o) for n, o in zip(new, old)]

        _, *carry = lax.while_loop(cond_fun, body_fun, [0, *carry])
        _, _, t, _, last_t, interp_coeff = carry
        relative_output_time = (target_t - last_t) / (t - last_t)
        y_target = jnp.polyval(interp_coeff, relative_output_time.astype(interp_coeff.dtype))
        return carry, y_target

    f0 = func_(y0, ts[0])
    dt = jnp.clip(_initial_step_size(func_, ts[0], y0, 4, rtol, atol, f0), min=0.0, max=hmax)
    interp_coeff = jnp.array([y0] * 5)
    _, ys = lax.scan(scan_fun, [y0, f0, ts[0], dt, ts[0], interp_coeff], ts[1:])
    return jnp.concatenate((y0[None], ys))


def _odeint_fwd(func, rtol, atol, mxstep, hmax, y0, ts, *args):
    ys = _odeint(func, rtol, atol, mxstep, hmax, y0, ts, *args)
    return ys, (ys, ts, args)


def _odeint_rev(func, rtol, atol, mxstep, hmax, res, g):
    ys, ts, args = res

    def aug_dynamics(augmented_state, t, *args):
        """The system augmented with the cotangents of y, t and args, in negated time."""
        y, y_bar, *_ = augmented_state
        y_dot, vjpfun = vjp(func, y, -t, *args)
        return (-y_dot, *vjpfun(y_bar))

    def scan_fun(carry, i):
        y_bar, t0_bar, args_bar = carry
        # The effect of moving the measurement time (real: it is a time).
        t_bar = jnp.dot(func(ys[i], ts[i], *args), g[i]).real
        t0_bar = t0_bar - t_bar
        # The augmented system run backwards to the previous observation.
        _, y_bar, t0_bar, args_bar = odeint(
            aug_dynamics,
            (ys[i], y_bar, t0_bar, args_bar),
            jnp.array([-ts[i], -ts[i - 1]]),
            *args,
            rtol=rtol,
            atol=atol,
            mxstep=mxstep,
            hmax=hmax,
        )
        y_bar, t0_bar, args_bar = tree_map(operator.itemgetter(1), (y_bar, t0_bar, args_bar))
        return (y_bar + g[i - 1], t0_bar, args_bar), t_bar

    init_carry = (g[-1], 0.0, tree_map(jnp.zeros_like, args))
    (y_bar, t0_bar, args_bar), rev_ts_bar = lax.scan(
        scan_fun, init_carry, jnp.arange(len(ts) - 1, 0, -1)
    )
    ts_bar = jnp.concatenate([jnp.array([t0_bar]), rev_ts_bar[::-1]])
    return (y_bar, ts_bar, *args_bar)


_odeint.defvjp(_odeint_fwd, _odeint_rev)
