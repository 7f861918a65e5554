"""`jax.experimental.ode.odeint`: adaptive Dormand-Prince (RK45) integration of an ODE,
differentiable in reverse mode by the adjoint method, the method JAX 0.10.2 uses.

Forward: the state pytree is raveled to one vector. For each output time a `lax.while_loop`
takes Dormand-Prince 5(4) steps (rejecting those whose error estimate is above the tolerance,
resizing every step by the usual controller), then reads the output off the last step's
quartic interpolant (its ends, end slopes and a 4th-order midpoint); a `lax.scan` runs over the
output times. The first step size is Hairer, Norsett and Wanner's estimate.

Reverse: a `custom_vjp` integrates the adjoint system (the state, its cotangent and the
cotangents of the times and arguments) backwards from each output time to the one before,
with the same solver. `func`'s closed-over traced values become arguments by
`closure_convert`, so gradients reach them. Like JAX, forward mode (`jvp`, `jacfwd`) is refused
by the `custom_vjp`. JAX's `default_matmul_precision("highest")` around the solver has no
counterpart: numbax's CPU dots always run at full precision.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, NamedTuple

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


class _Tableau(NamedTuple):
    """A Runge-Kutta pair's Butcher tableau, with weights for the step's midpoint."""

    nodes: list  # c_2 .. c_7
    stages: list  # row i: the weights of slopes 1 .. i for stage i + 1
    solution: list  # the 5th-order solution's weights (also stage 7's: first same as last)
    error: list  # 5th-order minus 4th-order weights
    midpoint: list  # the weights giving y(t + h / 2) to 4th order


_FIFTH = [35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0]
# JAX's embedded 4th-order solution (not Dormand and Prince's own b*), whose difference from
# the 5th-order one is the error estimate
_FOURTH = [1951 / 21600, 0, 22642 / 50085, 451 / 720, -12231 / 42400, 649 / 6300, 1 / 60]
_DOPRI = _Tableau(
    nodes=[1 / 5, 3 / 10, 4 / 5, 8 / 9, 1.0, 1.0],
    stages=[
        [1 / 5],
        [3 / 40, 9 / 40],
        [44 / 45, -56 / 15, 32 / 9],
        [19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729],
        [9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656],
        _FIFTH[:6],
    ],
    solution=_FIFTH,
    error=[fifth - fourth for fifth, fourth in zip(_FIFTH, _FOURTH)],
    midpoint=[
        w / 2
        for w in (
            6025192743 / 30085553152,
            0,
            51252292925 / 65400821598,
            -2691868925 / 45128329728,
            187940372067 / 1594534317056,
            -1776094331 / 19743644256,
            11237099 / 235043384,
        )
    ],
)


def _weights(row: list, dtype: Any) -> Any:
    """A tableau row padded to the 7 slopes."""
    return jnp.array(list(row) + [0.0] * (7 - len(row)), dtype=dtype)


def _dopri_step(rhs: Callable, y: Any, slope: Any, t: Any, h: Any) -> tuple:
    """One Dormand-Prince step of size `h` from `(t, y)` with `slope = rhs(y, t)`: the new
    state, its slope, the local error estimate and the seven slopes."""
    h_y = h.astype(slope.dtype)
    stage_weights = jnp.stack([_weights(row, slope.dtype) for row in _DOPRI.stages])
    nodes = jnp.array(_DOPRI.nodes, dtype=h.dtype)

    def stage(i, slopes):  # slope i from the slopes before it
        stage_y = y + h_y * jnp.dot(stage_weights[i - 1], slopes)
        return slopes.at[i].set(rhs(stage_y, t + h * nodes[i - 1]))

    # one loop, not six traced stages: the right-hand side is traced (and compiled) once
    slopes = jnp.zeros((7, slope.shape[0]), slope.dtype).at[0].set(slope)
    slopes = lax.fori_loop(1, 7, stage, slopes)
    y_next = h_y * jnp.dot(_weights(_DOPRI.solution, slope.dtype), slopes) + y
    error = h_y * jnp.dot(_weights(_DOPRI.error, slope.dtype), slopes)
    return y_next, slopes[-1], error, slopes


def _interpolant(y0: Any, y1: Any, slopes: Any, h: Any) -> Any:
    """The coefficients (highest power first, in the step's fraction `s` in [0, 1]) of the
    quartic matching `y0`, `y1`, the end slopes and the 4th-order midpoint."""
    h = h.astype(y0.dtype)
    mid = y0 + h * jnp.dot(_weights(_DOPRI.midpoint, y0.dtype), slopes)
    d0, d1 = h * slopes[0], h * slopes[-1]
    s4 = -2.0 * d0 + 2.0 * d1 - 8.0 * y0 - 8.0 * y1 + 16.0 * mid
    s3 = 5.0 * d0 - 3.0 * d1 + 18.0 * y0 + 14.0 * y1 - 32.0 * mid
    s2 = -4.0 * d0 + d1 - 11.0 * y0 - 5.0 * y1 + 16.0 * mid
    return jnp.asarray((s4, s3, s2, d0, y0))


def _error_ratio(error: Any, rtol: float, atol: float, y0: Any, y1: Any) -> Any:
    """The RMS of the error estimate over the tolerance (accept the step when <= 1)."""
    tolerance = atol + rtol * jnp.maximum(jnp.abs(y0), jnp.abs(y1))
    ratio = error / tolerance.astype(error.dtype)
    squares = ratio.real**2 + ratio.imag**2 if jnp.iscomplexobj(ratio) else ratio**2
    return jnp.sqrt(jnp.mean(squares))


def _resized(h: Any, ratio: Any, hmax: float) -> Any:
    """The next step size: `0.9 ratio^(-1/5)` times `h`, within [0.2, 10] times it (no
    shrinking after an accepted step), ten times it for an exact step, at most `hmax`."""
    shrink_limit = jnp.where(ratio < 1, 1.0, 0.2)
    factor = jnp.minimum(10.0, jnp.maximum(ratio ** (-1.0 / 5.0) * 0.9, shrink_limit))
    return jnp.clip(jnp.where(ratio == 0, h * 10.0, h * factor), min=0.0, max=hmax)


def _first_step(rhs: Callable, t0: Any, y0: Any, slope0: Any, rtol: float, atol: float) -> Any:
    """Hairer, Norsett and Wanner's starting step for a 4th-order error estimate (Solving
    ODEs I, Sec. II.4): from the sizes of `y0`, its slope and the slope's change."""
    dtype = jnp.result_type(y0, slope0, float)
    y0, slope0 = y0.astype(dtype), slope0.astype(dtype)
    scale = (atol + jnp.abs(y0) * rtol).astype(dtype)
    size_y = jnp.linalg.norm(y0 / scale)
    size_slope = jnp.linalg.norm(slope0 / scale)
    trial = jnp.where((size_y < 1e-5) | (size_slope < 1e-5), 1e-6, 0.01 * size_y / size_slope)
    slope1 = rhs(y0 + trial.astype(dtype) * slope0, t0 + trial)
    size_change = jnp.linalg.norm((slope1 - slope0) / scale) / trial
    largest = jnp.maximum(size_slope, size_change)
    step = jnp.where(
        (size_slope <= 1e-15) & (size_change <= 1e-15),
        jnp.maximum(1e-6, trial * 1e-3),
        (0.01 / largest) ** (1.0 / 5.0),
    )
    return jnp.minimum(100.0 * trial, step)


class _Progress(NamedTuple):
    """The solver between steps."""

    y: Any
    slope: Any
    t: Any
    h: Any
    t_before: Any  # where the last accepted step started
    interpolant: Any  # that step's quartic


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
    for leaf in tree_leaves(args):
        if not _is_numeric(leaf):
            raise TypeError(
                f"The contents of odeint *args must be arrays or scalars, but got {leaf}."
            )
    if not jnp.issubdtype(t.dtype, jnp.floating):
        raise TypeError(f"t must be an array of floats, but got {t}.")
    # The solver and its adjoint take every array `func` closes over as an explicit argument.
    dynamics, captured = closure_convert(func, y0, t[0], *args)
    return _odeint_raveled(dynamics, rtol, atol, mxstep, hmax, y0, t, *args, *captured)


def _is_numeric(leaf: Any) -> bool:
    """Whether an ``*args`` leaf is an array or scalar of a numeric dtype (``V``: bfloat16 and
    the float8 types, which numpy sees as raw bytes), or a tracer of one."""
    return isinstance(leaf, Tracer) or np.asarray(leaf).dtype.kind in "biufcV"


@partial(jit, static_argnums=(0, 1, 2, 3, 4))
def _odeint_raveled(func, rtol, atol, mxstep, hmax, y0, ts, *args):
    """`_solve` on the state raveled to one vector; the outputs unraveled per time."""
    flat_y0, unravel = ravel_pytree(y0)

    def flat_func(y, *rest):
        return ravel_pytree(func(unravel(y), *rest))[0]

    return vmap(unravel)(_solve(flat_func, rtol, atol, mxstep, hmax, flat_y0, ts, *args))


@partial(custom_vjp, nondiff_argnums=(0, 1, 2, 3, 4))
def _solve(func, rtol, atol, mxstep, hmax, y0, ts, *args):
    """The solution at each of `ts` (a vector state)."""

    def rhs(y, t):
        return func(y, t, *args)

    def advance(progress: _Progress, target: Any) -> tuple[_Progress, Any]:
        """Steps until the target time is passed; interpolates the output there."""

        def going(state):
            count, p = state
            return (p.t < target) & (count < mxstep) & (p.h > 0)

        def attempt(state):
            count, p = state
            y, slope, error, slopes = _dopri_step(rhs, p.y, p.slope, p.t, p.h)
            ratio = _error_ratio(error, rtol, atol, p.y, y)
            h_next = _resized(p.h, ratio, hmax)
            accepted = _Progress(
                y, slope, p.t + p.h, h_next, p.t, _interpolant(p.y, y, slopes, p.h)
            )
            rejected = p._replace(h=h_next)
            chosen = tree_map(lambda a, r: jnp.where(ratio <= 1.0, a, r), accepted, rejected)
            return count + 1, chosen

        _, progress = lax.while_loop(going, attempt, (0, progress))
        fraction = (target - progress.t_before) / (progress.t - progress.t_before)
        coefficients = progress.interpolant
        return progress, jnp.polyval(coefficients, fraction.astype(coefficients.dtype))

    slope0 = rhs(y0, ts[0])
    h0 = jnp.clip(_first_step(rhs, ts[0], y0, slope0, rtol, atol), min=0.0, max=hmax)
    start = _Progress(y0, slope0, ts[0], h0, ts[0], jnp.stack([y0] * 5))
    _, ys = lax.scan(advance, start, ts[1:])
    return jnp.concatenate((y0[None], ys))


def _solve_fwd(func, rtol, atol, mxstep, hmax, y0, ts, *args):
    ys = _solve(func, rtol, atol, mxstep, hmax, y0, ts, *args)
    return ys, (ys, ts, args)


def _solve_bwd(func, rtol, atol, mxstep, hmax, residuals, ys_bar):
    """The adjoint method: between consecutive output times, integrate backwards (in negated
    time) the state together with the cotangents of the state, of the first time and of the
    arguments; each output time's own cotangent is its slope against the output's."""
    ys, ts, args = residuals

    def adjoint_rhs(augmented, minus_t, *args):
        y, y_bar, *_ = augmented
        slope, pullback = vjp(func, y, -minus_t, *args)
        return (-slope, *pullback(y_bar))

    def interval(carry, i):
        y_bar, t0_bar, args_bar = carry
        t_bar = jnp.dot(func(ys[i], ts[i], *args), ys_bar[i]).real
        back = odeint(
            adjoint_rhs,
            (ys[i], y_bar, t0_bar - t_bar, args_bar),
            jnp.array([-ts[i], -ts[i - 1]]),
            *args,
            rtol=rtol,
            atol=atol,
            mxstep=mxstep,
            hmax=hmax,
        )
        _, y_bar, t0_bar, args_bar = tree_map(lambda leaf: leaf[1], back)
        return (y_bar + ys_bar[i - 1], t0_bar, args_bar), t_bar

    start = (ys_bar[-1], 0.0, tree_map(jnp.zeros_like, args))
    (y_bar, t0_bar, args_bar), ts_bar_reversed = lax.scan(
        interval, start, jnp.arange(len(ts) - 1, 0, -1)
    )
    ts_bar = jnp.concatenate([jnp.array([t0_bar]), ts_bar_reversed[::-1]])
    return (y_bar, ts_bar, *args_bar)


_solve.defvjp(_solve_fwd, _solve_bwd)
