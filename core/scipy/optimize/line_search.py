"""The strong-Wolfe line search of `jax.scipy.optimize` (Nocedal & Wright, algorithms 3.5 and
3.6).

Along a descent direction `p` from `x`, `phi(a) = f(x + a p)`. The search tries steps (the
first from the previous decrease when it is known, then doubling) until one satisfies both
Wolfe conditions: sufficient decrease (`phi(a) <= phi(0) + c1 a phi'(0)`) and curvature
(`|phi'(a)| <= c2 |phi'(0)|`). A step that overshoots, or one where `phi` turns upward,
brackets an acceptable step, which `_zoom` finds by interpolating inside the bracket (a cubic
through three points, else a quadratic, else bisection, each kept away from the bracket's ends).

Both loops are `lax.while_loop`s that choose with `where`, so the search traces under
`jit`/`vmap`. Its constants are JAX's (the zoom's margins 0.2 and 0.1, its 30 steps, its floors
on the bracket's width, the float32 floor of the returned step), so it takes JAX's steps.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import core.numpy as jnp
from core import api, dtypes, lax
from core.numpy._util import promote_dtypes_inexact
from core.tree_util import tree_map

_HIGHEST = lax.Precision.HIGHEST
_CUBIC_MARGIN, _QUADRATIC_MARGIN = 0.2, 0.1  # fractions of the bracket kept clear of its ends
_ZOOM_STEPS = 30  # JAX's cap (scipy's is 10)


class _Trial(NamedTuple):
    """A step `a` and `phi(a)`, `phi'(a)`."""

    a: Any
    phi: Any
    dphi: Any


class _Found(NamedTuple):
    """The accepted step so far, with the gradient at it."""

    a: Any
    phi: Any
    dphi: Any
    g: Any


def _choose(flag: Any, new: Any, old: Any) -> Any:
    """`new` where `flag`, else `old`, field by field."""
    return tree_map(lambda n, o: jnp.where(flag, n, o), new, old)


def _cubic_minimizer(a, fa, fpa, b, fb, c, fc):
    """The minimizer of the cubic `fa + fpa t + B t^2 + A t^3` (`t = x - a`) through `(b, fb)`
    and `(c, fc)`; NaN when it has none (the caller then falls back)."""
    db, dc = b - a, c - a
    excess = jnp.stack([fb - fa - fpa * db, fc - fa - fpa * dc])
    # the inverse of the 2 x 2 system for (A, B), times its determinant
    adjugate = jnp.stack([jnp.stack([dc**2, -(db**2)]), jnp.stack([-(dc**3), db**3])])
    A, B = jnp.dot(adjugate, excess, precision=_HIGHEST) / ((db * dc) ** 2 * (db - dc))
    return a + (-B + jnp.sqrt(B * B - 3.0 * A * fpa)) / (3.0 * A)


def _quadratic_minimizer(a, fa, fpa, b, fb):
    """The minimizer of the quadratic through `(a, fa)` with slope `fpa` and through `(b, fb)`."""
    db = b - a
    curvature = (fb - fa - fpa * db) / (db**2)
    return a - fpa / (2.0 * curvature)


class _Zoom(NamedTuple):
    done: Any
    failed: Any
    j: Any
    lo: _Trial  # the bracket's end with the lower phi
    hi: _Trial
    prev_a: Any  # the end replaced last: the cubic's third point
    prev_phi: Any
    found: _Found
    evals: Any


def _zoom(probe, decrease_fails, curvature_holds, lo, hi, g0, skip) -> _Zoom:
    """Finds a strong-Wolfe step between `lo.a` and `hi.a` (algorithm 3.6). Nothing runs where
    `skip` is true: the caller traces both of its zooms and keeps the one it needs."""

    def going(z: _Zoom) -> Any:
        return ~z.done & ~skip & ~z.failed

    def step(z: _Zoom) -> _Zoom:
        width = z.hi.a - z.lo.a
        left, right = jnp.minimum(z.hi.a, z.lo.a), jnp.maximum(z.hi.a, z.lo.a)
        too_narrow = jnp.where(dtypes.finfo(width.dtype).bits < 64, 1e-5, 1e-10)
        failed = z.failed | (width <= too_narrow)

        def clear_of_ends(t, margin):
            return (t > left + margin * width) & (t < right - margin * width)

        # (the cubic is NaN at times; then it fails the test and the next choice is taken)
        cubic = _cubic_minimizer(
            z.lo.a, z.lo.phi, z.lo.dphi, z.hi.a, z.hi.phi, z.prev_a, z.prev_phi
        )
        quadratic = _quadratic_minimizer(z.lo.a, z.lo.phi, z.lo.dphi, z.hi.a, z.hi.phi)
        use_cubic = (z.j > 0) & clear_of_ends(cubic, _CUBIC_MARGIN)
        use_quadratic = ~use_cubic & clear_of_ends(quadratic, _QUADRATIC_MARGIN)
        a = jnp.where(
            use_cubic, cubic, jnp.where(use_quadratic, quadratic, (z.lo.a + z.hi.a) / 2.0)
        )

        phi, dphi, g = probe(a)
        trial = _Trial(a, phi.astype(z.lo.phi.dtype), dphi.astype(z.lo.dphi.dtype))
        g = g.astype(z.found.g.dtype)
        # the trial replaces hi (no sufficient decrease), is accepted, or replaces lo (then
        # the old lo becomes hi if the slope at the trial points towards hi)
        becomes_hi = decrease_fails(a, trial.phi) | (trial.phi >= z.lo.phi)
        accepted = curvature_holds(trial.dphi) & ~becomes_hi
        becomes_lo = ~becomes_hi & ~accepted
        lo_becomes_hi = becomes_lo & (trial.dphi * (z.hi.a - z.lo.a) >= 0.0)

        replaced = _choose(becomes_hi | lo_becomes_hi, z.hi, z.lo)
        prev_a, prev_phi = _choose(
            becomes_hi | becomes_lo, (replaced.a, replaced.phi), (z.prev_a, z.prev_phi)
        )
        j = z.j + 1
        return _Zoom(
            done=z.done | accepted,
            failed=failed | (j >= _ZOOM_STEPS),
            j=j,
            lo=_choose(becomes_lo, trial, z.lo),
            hi=_choose(becomes_hi, trial, _choose(lo_becomes_hi, z.lo, z.hi)),
            prev_a=prev_a,
            prev_phi=prev_phi,
            found=_choose(accepted, _Found(a, trial.phi, trial.dphi, g), z.found),
            evals=z.evals + 1,
        )

    start = _Zoom(
        done=False,
        failed=False,
        j=0,
        lo=lo,
        hi=hi,
        prev_a=(lo.a + hi.a) / 2.0,
        prev_phi=(lo.phi + hi.phi) / 2.0,
        found=_Found(1.0, lo.phi, lo.dphi, g0),
        evals=0,
    )
    return lax.while_loop(going, step, start)


class _Search(NamedTuple):
    done: Any
    failed: Any
    i: Any
    last: _Trial  # the previous step tried
    evals: Any
    found: _Found


class _LineSearchResults(NamedTuple):
    """Results of `line_search` (JAX's `_LineSearchResults`).

    Attributes:
        failed: True if no step satisfying the strong Wolfe conditions was found.
        nit: number of iterations.
        nfev: number of function evaluations.
        ngev: number of gradient evaluations.
        k: the final iteration counter (`nit + 1`).
        a_k: the step size.
        f_k: the function value at the step.
        g_k: the gradient at the step.
        status: 0 passed, 1 zoom failed, 3 maximum iterations reached.
    """

    failed: Any
    nit: Any
    nfev: Any
    ngev: Any
    k: Any
    a_k: Any
    f_k: Any
    g_k: Any
    status: Any


def line_search(
    f: Callable,
    xk: Any,
    pk: Any,
    old_fval: Any = None,
    old_old_fval: Any = None,
    gfk: Any = None,
    c1: float = 1e-4,
    c2: float = 0.9,
    maxiter: int = 20,
) -> _LineSearchResults:
    """Inexact line search satisfying the strong Wolfe conditions (JAX's `line_search`).

    Args:
        f: the objective, `f(x) -> scalar`, differentiable.
        xk: the start point (1-D).
        pk: the search direction, assumed a descent direction.
        old_fval: `f(xk)`, if known (with `gfk`).
        old_old_fval: the previous iterate's value, which sets the first step as in JAX.
        gfk: the gradient at `xk`, if known (with `old_fval`).
        c1: the sufficient-decrease constant.
        c2: the curvature constant.
        maxiter: the maximum number of (doubling) iterations.

    Returns:
        A `_LineSearchResults`.
    """
    xk, pk = promote_dtypes_inexact(xk, pk)

    def probe(a):
        """`phi(a)`, `phi'(a)` and the gradient at `xk + a pk`."""
        value, grad = api.value_and_grad(f)(xk + jnp.array(a, dtype=pk.dtype) * pk)
        return value, jnp.real(jnp.dot(grad, pk, precision=_HIGHEST)), grad

    known = old_fval is not None and gfk is not None
    if known:
        phi0, dphi0 = old_fval, jnp.real(jnp.dot(gfk, pk, precision=_HIGHEST))
    else:
        phi0, dphi0, gfk = probe(0)
    # the first step: the one that repeats the previous decrease on a quadratic, at most 1
    if old_old_fval is None:
        first = 1
    else:
        guess = 2.02 * (phi0 - old_old_fval) / dphi0
        first = jnp.where(guess > 1, 1.0, guess)

    def decrease_fails(a, phi):
        return phi > phi0 + c1 * a * dphi0

    def curvature_holds(dphi):
        return jnp.abs(dphi) <= -c2 * dphi0

    def going(s: _Search) -> Any:
        return ~s.done & (s.i <= maxiter) & ~s.failed

    def step(s: _Search) -> _Search:
        a = jnp.where(s.i == 1, first, s.last.a * 2.0)  # no upper bound: the step doubles
        phi, dphi, g = probe(a)
        trial = _Trial(a, phi, dphi)
        overshot = decrease_fails(a, phi) | ((phi >= s.last.phi) & (s.i > 1))
        accepted = curvature_holds(dphi) & ~overshot
        uphill = (dphi >= 0.0) & ~overshot & ~accepted
        zoom_back = _zoom(probe, decrease_fails, curvature_holds, s.last, trial, gfk, ~overshot)
        zoom_ahead = _zoom(probe, decrease_fails, curvature_holds, trial, s.last, gfk, ~uphill)
        found = _choose(overshot, zoom_back.found, s.found)
        found = _choose(accepted, _Found(a, phi, dphi, g), found)
        found = _choose(uphill, zoom_ahead.found, found)
        return _Search(
            done=s.done | overshot | accepted | uphill,
            failed=s.failed | (overshot & zoom_back.failed) | (uphill & zoom_ahead.failed),
            i=s.i + 1,
            last=trial,
            evals=s.evals + 1 + zoom_back.evals + zoom_ahead.evals,
            found=found,
        )

    start = _Search(
        done=jnp.array(False),
        failed=jnp.array(False),
        i=1,  # Nocedal and Wright count from 1 (scipy from 0, scipy/scipy#12157)
        last=_Trial(0.0, phi0, dphi0),
        evals=0 if known else 1,
        found=_Found(0.0, phi0, dphi0, gfk),
    )
    s = lax.while_loop(going, step, start)
    status = jnp.where(s.failed, jnp.array(1), jnp.where(s.i > maxiter, jnp.array(3), jnp.array(0)))
    # below 64 bits a vanishing step would leave the optimizer stuck: keep it at 1e-8
    a_k = jnp.asarray(s.found.a)
    if dtypes.finfo(a_k.dtype).bits != 64:
        a_k = jnp.where(jnp.abs(a_k) < 1e-8, jnp.sign(a_k) * 1e-8, a_k)
    return _LineSearchResults(
        failed=s.failed | ~s.done,
        nit=s.i - 1,
        nfev=s.evals,
        ngev=s.evals,
        k=s.i,
        a_k=a_k,
        f_k=s.found.phi,
        g_k=s.found.g,
        status=status,
    )
