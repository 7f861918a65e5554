"""Line searches (`scale_by_backtracking_linesearch`, `scale_by_zoom_linesearch`) and
`value_and_grad_from_state`, following Optax's `_src/linesearch.py`.

A line search is the last link of a chain: it receives a direction `updates` and scales it by
a step size found by evaluating the objective along the line. Its `update` therefore needs
extra keyword arguments: `value` and `grad` at the current params and `value_fn`, plus any
keyword arguments of `value_fn` (e.g. a batch), which are routed to it by name::

    tx = optim.chain(optim.sgd(1.0), optim.scale_by_backtracking_linesearch(15))
    updates, state = tx.update(grad, state, params, value=v, grad=grad, value_fn=f)

The searches are `lax.while_loop`s, so they run under `core.jit`. With `verbose=True` a search
that fails prints Optax's diagnostics (its sentences, with `core.debug.print`).
"""

from __future__ import annotations

import functools
import inspect
import operator
from collections.abc import Callable
from typing import Any, NamedTuple

import core
import core.numpy as jnp
from core import lax, tree_util
from optim import tree
from optim.base import GradientTransformationExtraArgs
from optim.errors import OptimizerArgumentError, StateValueNotFoundError, UnusedExtraArgsError
from optim.numerics import safe_increment


def _extract_fns_kwargs(fns: tuple[Callable[..., Any], ...], kwargs: dict[str, Any]):
    """Splits `kwargs` into one dict per function (by parameter name) and the rest."""
    names = [list(inspect.signature(fn).parameters) for fn in fns]
    fns_kwargs = [{k: v for k, v in kwargs.items() if k in n} for n in names]
    all_names = functools.reduce(operator.add, names)
    return fns_kwargs, {k: v for k, v in kwargs.items() if k not in all_names}


def _check_no_remaining(name: str, remaining: dict[str, Any]) -> None:
    if remaining:
        raise UnusedExtraArgsError(
            f"Unexpected keyword arguments passed to `{name}.update`. These arguments were not "
            f"consumed by `value_fn`: {sorted(remaining)}. Ensure that all extra keyword "
            "arguments are accepted by `value_fn`."
        )


def _value_dtype(params: Any) -> Any:
    return jnp.real(jnp.zeros((), tree_util.tree_leaves(params)[0].dtype)).dtype


# Optax's sentences for a search that fails (printed with verbose=True).
FLAG_INTERVAL_NOT_FOUND = (
    "No interval satisfying curvature condition. "
    "Consider increasing maximal possible stepsize of the linesearch."
)
FLAG_INTERVAL_TOO_SMALL = "Length of searched interval has been reduced below threshold."
FLAG_CURVATURE_COND_NOT_SATISFIED = (
    "Returning stepsize with sufficient decrease but curvature condition not satisfied."
)
FLAG_NO_STEPSIZE_FOUND = "Linesearch failed, no stepsize satisfying sufficient decrease found."
FLAG_NOT_A_DESCENT_DIRECTION = (
    "The linesearch failed because the provided direction is not a descent direction. "
)


def _cond_print(condition: Any, message: str, **kwargs: Any) -> None:
    """Prints `message` formatted with `kwargs` (`core.debug.print`) where `condition` holds."""
    lax.cond(
        condition,
        lambda _: core.debug.print(message, **kwargs, ordered=True),
        lambda _: None,
        None,
    )


# ------------------------------------------------------------------ backtracking


class BacktrackingLinesearchInfo(NamedTuple):
    """Diagnostics of the last backtracking search.

    Attributes:
      num_linesearch_steps: number of steps taken.
      decrease_error: positive if no step with sufficient decrease was found.
    """

    num_linesearch_steps: Any
    decrease_error: Any


class ScaleByBacktrackingLinesearchState(NamedTuple):
    """State of `scale_by_backtracking_linesearch`.

    Attributes:
      learning_rate: the step size found by the last search.
      value: the objective at the accepted step (reuse it with `value_and_grad_from_state`).
      grad: the gradient there if `store_grad=True`, else `None`.
      info: `BacktrackingLinesearchInfo`.
    """

    learning_rate: Any
    value: Any
    grad: Any
    info: BacktrackingLinesearchInfo


class BacktrackingLineSearchState(NamedTuple):
    """Carry of the backtracking loop."""

    learning_rate: Any
    new_value: Any
    new_grad: Any
    decrease_error: Any
    iter_num: Any


def scale_by_backtracking_linesearch(
    max_backtracking_steps: int,
    slope_rtol: Any = 1e-4,
    decrease_factor: Any = 0.8,
    increase_factor: Any = 1.5,
    max_learning_rate: Any = 1.0,
    atol: Any = 0.0,
    rtol: Any = 0.0,
    store_grad: bool = False,
    verbose: bool = False,
) -> GradientTransformationExtraArgs:
    """Backtracking (Armijo) line search: shrink the step until
    `f(w + eta u) <= (1 + rtol) f(w) + eta * slope_rtol * <u, grad f(w)> + atol`.

    Each search starts from `min(increase_factor * previous_eta, max_learning_rate)`.

    Args:
      max_backtracking_steps: the largest number of shrinking steps.
      slope_rtol: the Armijo constant.
      decrease_factor: the factor by which the step shrinks.
      increase_factor: the factor by which the previous step grows before a new search.
      max_learning_rate: the largest step.
      atol: absolute tolerance of the decrease criterion.
      rtol: relative tolerance of the decrease criterion.
      store_grad: also compute and store the gradient at the accepted point.
      verbose: print why a search failed (no step with sufficient decrease).

    Returns:
      A `GradientTransformationExtraArgs` whose `update` takes `value=`, `grad=`, `value_fn=`
      and `value_fn`'s keyword arguments.
    """

    def init_fn(params):
        val_dtype = _value_dtype(params)
        return ScaleByBacktrackingLinesearchState(
            learning_rate=jnp.asarray(1.0, val_dtype),
            value=jnp.asarray(jnp.inf, val_dtype),
            grad=tree.zeros_like(params) if store_grad else None,
            info=BacktrackingLinesearchInfo(
                num_linesearch_steps=jnp.asarray(0),  # weakly typed, as Optax's
                decrease_error=jnp.asarray(jnp.inf, val_dtype),
            ),
        )

    def _decrease_error(stepsize, slope, value, new_value):
        err = new_value - (1.0 + rtol) * value - stepsize * slope_rtol * slope
        err = jnp.where(jnp.isnan(err), jnp.inf, err)
        return jnp.maximum(err, 0.0)

    def update_fn(updates, state, params, *, value, grad, value_fn, **extra_args):
        (fn_kwargs,), remaining = _extract_fns_kwargs((value_fn,), extra_args)
        _check_no_remaining("scale_by_backtracking_linesearch", remaining)
        value_fn_ = functools.partial(value_fn, **fn_kwargs)
        slope = tree.real(tree.vdot(updates, tree.conj(grad)))

        def cond_fn(s):
            return jnp.logical_and(
                jnp.logical_not(s.decrease_error <= atol), s.iter_num <= max_backtracking_steps
            )

        def body_fn(s):
            learning_rate = jnp.where(
                s.iter_num > 0, decrease_factor * s.learning_rate, s.learning_rate
            )
            new_params = tree.add_scale(params, learning_rate, updates)
            if store_grad:
                new_value, candidate_grad = core.value_and_grad(value_fn_)(new_params)
                decrease_error = _decrease_error(learning_rate, slope, value, new_value)
                accept = jnp.logical_or(
                    decrease_error <= atol, s.iter_num == max_backtracking_steps
                )
                new_grad = tree.where(accept, candidate_grad, s.new_grad)
            else:
                new_value = value_fn_(new_params)
                decrease_error = _decrease_error(learning_rate, slope, value, new_value)
                new_grad = s.new_grad
            new_s = BacktrackingLineSearchState(
                learning_rate, new_value, new_grad, decrease_error, s.iter_num + 1
            )
            return tree.cast_like(new_s, s)

        val_dtype = _value_dtype(params)
        search_state = BacktrackingLineSearchState(
            learning_rate=jnp.minimum(
                increase_factor * state.learning_rate, max_learning_rate
            ).astype(val_dtype),
            new_value=jnp.asarray(value, val_dtype),
            new_grad=tree.zeros_like(params),
            decrease_error=jnp.asarray(jnp.inf, val_dtype),
            iter_num=jnp.zeros((), dtype=int),
        )
        search_state = lax.while_loop(cond_fn, body_fn, search_state)
        new_learning_rate = jnp.where(
            jnp.isinf(search_state.decrease_error), 0.0, search_state.learning_rate
        )
        if verbose:
            _cond_print(
                search_state.decrease_error > atol,
                "INFO: optax.scale_by_backtracking_linesearch:\n"
                "Backtracking linesearch failed to find a stepsize ensuring sufficent decrease.\n"
                "Value at current params: {value},\n"
                "Slope along update direction: {slope}\n"
                "Stepsize: {stepsize}\n"
                "Decrease Error: {decrease_error}",
                stepsize=search_state.learning_rate,
                decrease_error=search_state.decrease_error,
                value=value,
                slope=slope,
            )
            _cond_print(
                jnp.isinf(search_state.decrease_error),
                "Using a stepsize of 0 to avoid infinite or nan values.",
            )
        new_state = ScaleByBacktrackingLinesearchState(
            learning_rate=new_learning_rate,
            value=search_state.new_value,
            grad=search_state.new_grad if store_grad else None,
            info=BacktrackingLinesearchInfo(
                num_linesearch_steps=search_state.iter_num,
                decrease_error=search_state.decrease_error,
            ),
        )
        return tree.scale(new_learning_rate, updates), tree.cast_like(new_state, state)

    return GradientTransformationExtraArgs(init_fn, update_fn)


# ------------------------------------------------------------------ zoom (strong Wolfe)


class ZoomLinesearchState(NamedTuple):
    """Carry of the zoom line search (Optax's fields; see `zoom_linesearch`)."""

    count: Any
    params: Any
    updates: Any
    stepsize_guess: Any
    stepsize: Any
    value: Any
    grad: Any
    slope: Any
    value_init: Any
    slope_init: Any
    decrease_error: Any
    curvature_error: Any
    error: Any
    interval_found: Any
    done: Any
    failed: Any
    low: Any
    value_low: Any
    slope_low: Any
    high: Any
    value_high: Any
    slope_high: Any
    cubic_ref: Any
    value_cubic_ref: Any
    safe_stepsize: Any
    safe_value: Any
    safe_grad: Any


class ZoomLinesearchInfo(NamedTuple):
    """Diagnostics of the last zoom search (positive errors mean the criterion failed)."""

    num_linesearch_steps: Any
    decrease_error: Any
    curvature_error: Any


class ScaleByZoomLinesearchState(NamedTuple):
    """State of `scale_by_zoom_linesearch`.

    Attributes:
      learning_rate: the step size found by the last search.
      value: the objective at the accepted step.
      grad: the gradient at the accepted step.
      info: `ZoomLinesearchInfo`.
    """

    learning_rate: Any
    value: Any
    grad: Any
    info: ZoomLinesearchInfo


def _cubicmin(a, fa, fpa, b, fb, c, fc):
    """Minimiser of the cubic through (a, fa, fpa), (b, fb), (c, fc)."""
    cc = fpa
    db = b - a
    dc = c - a
    denom = (db * dc) ** 2 * (db - dc)
    r1 = fb - fa - cc * db
    r2 = fc - fa - cc * dc
    aa = (dc**2 * r1 - db**2 * r2) / denom
    bb = (-(dc**3) * r1 + db**3 * r2) / denom
    radical = bb * bb - 3.0 * aa * cc
    return a + (-bb + jnp.sqrt(radical)) / (3.0 * aa)


def _quadmin(a, fa, fpa, b, fb):
    """Minimiser of the quadratic through (a, fa, fpa), (b, fb)."""
    db = b - a
    bb = (fb - fa - fpa * db) / (db**2)
    return a - fpa / (2.0 * bb)


def _interval_fields(low: list, high: list, cubic_ref: list) -> dict[str, Any]:
    """The interval fields of a `ZoomLinesearchState`, from `low` and `high` given as
    `[stepsize, value, slope]` and `cubic_ref` as `[stepsize, value]`."""
    return {
        "low": low[0],
        "value_low": low[1],
        "slope_low": low[2],
        "high": high[0],
        "value_high": high[1],
        "slope_high": high[2],
        "cubic_ref": cubic_ref[0],
        "value_cubic_ref": cubic_ref[1],
    }


def zoom_linesearch(
    max_linesearch_steps: int,
    max_stepsize: Any = None,
    tol: Any = 0.0,
    increase_factor: Any = 2.0,
    slope_rtol: Any = 1e-4,
    curv_rtol: Any = 0.9,
    approx_dec_rtol: Any = 1e-6,
    interval_threshold: Any = 1e-5,
    verbose: bool = False,
) -> tuple[Callable[..., Any], Callable[..., Any], Callable[..., Any]]:
    """The zoom line search (Nocedal & Wright, Algorithms 3.5-3.6; Hager & Zhang's approximate
    Wolfe conditions) as three functions `(init_fn, step_fn, step_cond_fn)`.

    Phase 1 grows the step by `increase_factor` until an interval containing a point that
    satisfies the (approximate) sufficient-decrease and curvature conditions is found; phase 2
    shrinks it by cubic/quadratic interpolation or bisection.

    Returns:
      `init_fn(updates, params, *, value, grad, prev_stepsize=1.0,
      initial_guess_strategy="one")`, `step_fn(state, *, value_and_grad_fn, fn_kwargs)`,
      `step_cond_fn(state)`.
    """

    def _decrease_error(stepsize, value_step, slope_step, value_init, slope_init):
        err = value_step - value_init - slope_rtol * stepsize * slope_init
        if approx_dec_rtol is not None:
            approx = slope_step - (2 * slope_rtol - 1.0) * slope_init
            delta_values = value_step - value_init - approx_dec_rtol * jnp.abs(value_init)
            err = jnp.minimum(jnp.maximum(approx, delta_values), err)
        err = jnp.maximum(err, 0.0)
        return jnp.where(jnp.isnan(err), jnp.inf, err)

    def _curvature_error(slope_step, slope_init):
        err = jnp.maximum(jnp.abs(slope_step) - curv_rtol * jnp.abs(slope_init), 0.0)
        return jnp.where(jnp.isnan(err), jnp.inf, err)

    def _step_to(state, stepsize, value_and_grad_fn, fn_kwargs):
        """`state` one iteration on, at the trial `stepsize`: the value, gradient and slope at
        `params + stepsize * updates` and the errors there (decrease, curvature, their max)."""
        point = tree.add_scale(state.params, stepsize, state.updates)
        value, grad = value_and_grad_fn(point, **fn_kwargs)
        slope = tree.real(tree.vdot(tree.conj(grad), state.updates))
        decrease_error = _decrease_error(stepsize, value, slope, state.value_init, state.slope_init)
        curvature_error = _curvature_error(slope, state.slope_init)
        return state._replace(
            count=safe_increment(state.count),
            stepsize=stepsize,
            value=value,
            grad=grad,
            slope=slope,
            decrease_error=decrease_error,
            curvature_error=curvature_error,
            error=jnp.maximum(decrease_error, curvature_error),
        )

    def _with_safe_step(state, new, take_new):
        """`new` whose safe step (stepsize, value, grad) is its own where `take_new`, else
        `state`'s."""
        safe_stepsize, safe_value, safe_grad = tree.where(
            take_new,
            [new.stepsize, new.value, new.grad],
            [state.safe_stepsize, state.safe_value, state.safe_grad],
        )
        return new._replace(safe_stepsize=safe_stepsize, safe_value=safe_value, safe_grad=safe_grad)

    def _failure_diagnostic(state):
        """Prints why no step with sufficient decrease was found (Optax's sentences)."""
        core.debug.print(FLAG_NO_STEPSIZE_FOUND)
        slope_init = state.slope_init
        is_descent_dir = slope_init < 0.0
        _cond_print(
            jnp.logical_not(is_descent_dir),
            FLAG_NOT_A_DESCENT_DIRECTION
            + "The slope (={slope_init}) at stepsize=0 should be negative",
            slope_init=slope_init,
        )
        _cond_print(
            is_descent_dir, "Consider augmenting the maximal number of linesearch iterations."
        )
        eps = jnp.finfo(jnp.float32).eps
        _cond_print(
            (state.stepsize < eps) & is_descent_dir,
            "Computed stepsize (={stepsize}) is below machine precision (={eps}), consider "
            "passing to higher precision like x64, using "
            "jax.config.update('jax_enable_x64', True).",
            stepsize=state.stepsize,
            eps=eps,
        )
        abs_slope_init = jnp.abs(slope_init)
        _cond_print(
            (abs_slope_init > 1e16) & is_descent_dir,
            "Very large absolute slope at stepsize=0. (|slope|={abs_slope_init}). The objective "
            "is badly conditioned. Consider reparameterizing objective (e.g., normalizing "
            "parameters) or finding a better guess for the initial parameters for the solver.",
            abs_slope_init=abs_slope_init,
        )
        outside_domain = jnp.isinf(state.decrease_error)
        _cond_print(
            outside_domain,
            "Cannot even make a step without getting Inf or Nan. "
            "The linesearch won't make a step and the optimizer is stuck.",
        )
        _cond_print(
            jnp.logical_not(outside_domain),
            "Making an unsafe step, not decreasing enough the objective. Convergence of the "
            "solver is compromised as it does not reduce values.",
        )

    def _try_safe_step(state):
        outside_domain = jnp.isinf(state.decrease_error)
        final_stepsize, final_value, final_grad = tree.where(
            jnp.logical_or(state.safe_stepsize > 0.0, outside_domain),
            [state.safe_stepsize, state.safe_value, state.safe_grad],
            [state.stepsize, state.value, state.grad],
        )
        if verbose:
            core.debug.print(
                "INFO: optax.scale_by_zoom_linesearch:\n"
                "Value at current params: {value_init}\n"
                "Slope along update direction: {slope_init}\n"
                "Stepsize reached: {stepsize}\n"
                "Decrease Error: {decrease_error}\n"
                "Curvature Error: {curvature_error}",
                value_init=state.value_init,
                slope_init=state.slope_init,
                stepsize=state.stepsize,
                decrease_error=state.decrease_error,
                curvature_error=state.curvature_error,
                ordered=True,
            )
            interval_length = jnp.abs(state.low - state.high)
            _cond_print(
                interval_length <= interval_threshold,
                FLAG_INTERVAL_TOO_SMALL + " Interval length: {interval_length}.",
                interval_length=interval_length,
            )
            lax.cond(
                state.safe_stepsize > 0.0,
                lambda s: core.debug.print(
                    FLAG_CURVATURE_COND_NOT_SATISFIED
                    + " Stepsize ensuring sufficient decrease: {safe_stepsize}.",
                    safe_stepsize=s.safe_stepsize,
                ),
                _failure_diagnostic,
                state,
            )
        final = state._replace(stepsize=final_stepsize, grad=final_grad, value=final_value)
        return tree.cast_like(final, state)

    def _search_interval(state, value_and_grad_fn, fn_kwargs):
        iter_num = state.count
        prev = [state.stepsize, state.value, state.slope]
        new_stepsize = jnp.where(
            iter_num == 0, state.stepsize_guess, increase_factor * state.stepsize
        )
        if max_stepsize is not None:
            max_stepsize_reached = new_stepsize >= max_stepsize
            new_stepsize = jnp.minimum(new_stepsize, max_stepsize)
        else:
            max_stepsize_reached = jnp.asarray(False)
        new = _step_to(state, new_stepsize, value_and_grad_fn, fn_kwargs)
        new = _with_safe_step(state, new, new.decrease_error <= tol)
        set_high_to_new = jnp.logical_or(
            new.decrease_error > 0.0, jnp.logical_and(new.value >= state.value, iter_num > 0)
        )
        set_low_to_new = jnp.logical_and(new.slope >= 0.0, jnp.logical_not(set_high_to_new))
        new_point = [new.stepsize, new.value, new.slope]
        low, high = tree.where(set_low_to_new, [new_point, prev], [prev, new_point])
        interval_found = set_high_to_new | set_low_to_new | (new.error <= tol)
        done = (new.error <= tol) | (max_stepsize_reached & jnp.logical_not(interval_found))
        if verbose:  # Optax's message (its missing newline before the flag kept)
            _cond_print(
                max_stepsize_reached & jnp.logical_not(interval_found),
                "INFO: optax.scale_by_zoom_linesearch:\n"
                "Value at current params: {value_init}\n"
                "Slope along update direction: {slope_init}\n"
                "Stepsize reached: {stepsize}\n"
                "Decrease Error: {decrease_error}\n"
                "Curvature Error: {curvature_error}"
                + FLAG_INTERVAL_NOT_FOUND
                + "\n"
                + FLAG_CURVATURE_COND_NOT_SATISFIED,
                value_init=state.value_init,
                slope_init=state.slope_init,
                stepsize=new.stepsize,
                decrease_error=new.decrease_error,
                curvature_error=new.curvature_error,
            )
        failed = (iter_num + 1 >= max_linesearch_steps) & jnp.logical_not(done)
        new_state = new._replace(
            interval_found=jnp.asarray(interval_found),
            done=jnp.asarray(done),
            failed=jnp.asarray(failed),
            **_interval_fields(low, high, cubic_ref=low[:2]),
        )
        return tree.cast_like(new_state, state)

    def _zoom_into_interval(state, value_and_grad_fn, fn_kwargs):
        low, value_low, slope_low = state.low, state.value_low, state.slope_low
        high, value_high, slope_high = state.high, state.value_high, state.slope_high
        delta = jnp.abs(high - low)
        left = jnp.minimum(high, low)
        right = jnp.maximum(high, low)
        cubic_chk = 0.2 * delta
        quad_chk = 0.1 * delta
        too_small_int = delta <= interval_threshold

        middle_cubic = _cubicmin(
            low, value_low, slope_low, high, value_high, state.cubic_ref, state.value_cubic_ref
        )
        use_cubic = (middle_cubic > left + cubic_chk) & (middle_cubic < right - cubic_chk)
        middle_quad = _quadmin(low, value_low, slope_low, high, value_high)
        middle_quad_valid = (middle_quad > left + quad_chk) & (middle_quad < right - quad_chk)
        use_quad = jnp.logical_not(use_cubic) & middle_quad_valid
        use_bisection = jnp.logical_not(use_cubic) & jnp.logical_not(use_quad)
        middle = jnp.where(use_cubic, middle_cubic, state.cubic_ref)
        middle = jnp.where(use_quad, middle_quad, middle)
        middle = jnp.where(use_bisection, (low + high) / 2.0, middle)

        new = _step_to(state, middle, value_and_grad_fn, fn_kwargs)
        update_safe = (new.decrease_error <= tol) & (new.value < state.safe_value)
        new = _with_safe_step(state, new, update_safe)
        done = new.error <= tol
        set_high_to_middle = (new.decrease_error > 0.0) | (new.value >= value_low)
        set_high_to_low = (new.slope * (high - low) >= 0.0) & jnp.logical_not(set_high_to_middle)
        set_low_to_middle = jnp.logical_not(set_high_to_middle)
        new_point = [middle, new.value, new.slope]
        lows, highs = [low, value_low, slope_low], [high, value_high, slope_high]
        new_high = tree.where(set_high_to_middle, new_point, highs)
        new_high = tree.where(set_high_to_low, lows, new_high)
        new_low = tree.where(set_low_to_middle, new_point, lows)
        new_cubic_ref = tree.where(set_high_to_middle | set_high_to_low, highs[:2], lows[:2])
        presumably_failed = jnp.asarray((state.count + 1) >= max_linesearch_steps) | (
            too_small_int & (new.safe_stepsize > 0.0)
        )
        new_state = new._replace(
            done=done,
            failed=presumably_failed & jnp.logical_not(done),
            **_interval_fields(new_low, new_high, new_cubic_ref),
        )
        return tree.cast_like(new_state, state)

    def init_fn(updates, params, *, value, grad, prev_stepsize=1.0, initial_guess_strategy="one"):
        if initial_guess_strategy == "one":
            stepsize_guess = jnp.asarray(1.0)
        elif initial_guess_strategy == "keep":
            stepsize_guess = jnp.asarray(prev_stepsize)
        else:
            raise OptimizerArgumentError(
                f"Unknown initial guess strategy: {initial_guess_strategy!r}; use 'one' or 'keep'."
            )
        val_dtype = _value_dtype(params)
        value = jnp.asarray(value, val_dtype)
        slope = jnp.asarray(tree.real(tree.vdot(updates, grad)), val_dtype)
        zero = jnp.asarray(0.0, val_dtype)
        inf = jnp.asarray(jnp.inf, val_dtype)
        false = jnp.asarray(False)
        return ZoomLinesearchState(
            count=jnp.zeros((), dtype=int),
            params=params,
            updates=updates,
            stepsize_guess=stepsize_guess.astype(val_dtype),
            stepsize=zero,
            value=value,
            grad=grad,
            slope=slope,
            value_init=value,
            slope_init=slope,
            decrease_error=inf,
            curvature_error=inf,
            error=inf,
            interval_found=false,
            done=false,
            failed=false,
            **_interval_fields([zero, value, slope], [zero, value, slope], [zero, value]),
            safe_stepsize=zero,
            safe_value=value,
            safe_grad=grad,
        )

    def step_fn(state, *, value_and_grad_fn, fn_kwargs):
        new_state = lax.cond(
            state.interval_found,
            functools.partial(
                _zoom_into_interval, value_and_grad_fn=value_and_grad_fn, fn_kwargs=fn_kwargs
            ),
            functools.partial(
                _search_interval, value_and_grad_fn=value_and_grad_fn, fn_kwargs=fn_kwargs
            ),
            state,
        )
        new_state = lax.cond(new_state.failed, _try_safe_step, lambda x: x, new_state)
        return tree.cast_like(new_state, state)

    def step_cond_fn(state):
        return jnp.logical_not(jnp.logical_or(state.done, state.failed))

    return init_fn, step_fn, step_cond_fn


def scale_by_zoom_linesearch(
    max_linesearch_steps: int,
    max_learning_rate: Any = None,
    tol: Any = 0.0,
    increase_factor: Any = 2.0,
    slope_rtol: Any = 1e-4,
    curv_rtol: Any = 0.9,
    approx_dec_rtol: Any = 1e-6,
    stepsize_precision: Any = 1e-5,
    initial_guess_strategy: str = "keep",
    verbose: bool = False,
) -> GradientTransformationExtraArgs:
    """Line search for a step satisfying the (approximate) strong Wolfe conditions.

    Args:
      max_linesearch_steps: the largest number of search iterations.
      max_learning_rate: the largest step (`None`: unbounded).
      tol: tolerance on the criteria.
      increase_factor: growth of the step while looking for an interval.
      slope_rtol: the sufficient-decrease (Armijo) constant.
      curv_rtol: the curvature constant.
      approx_dec_rtol: relative tolerance of Hager-Zhang's approximate decrease (`None`: off).
      stepsize_precision: interval length below which the safe step is accepted.
      initial_guess_strategy: "keep" (start from the last step) or "one".
      verbose: print why a search failed (Optax's diagnostics: the values, slope and errors
        reached, and what to try).

    Returns:
      A `GradientTransformationExtraArgs` whose `update` takes `value=`, `grad=`, `value_fn=`
      and `value_fn`'s keyword arguments.
    """
    init_ls, step_ls, cond_ls = zoom_linesearch(
        max_linesearch_steps=max_linesearch_steps,
        max_stepsize=max_learning_rate,
        tol=tol,
        increase_factor=increase_factor,
        slope_rtol=slope_rtol,
        curv_rtol=curv_rtol,
        approx_dec_rtol=approx_dec_rtol,
        interval_threshold=stepsize_precision,
        verbose=verbose,
    )

    def init_fn(params):
        val_dtype = _value_dtype(params)
        return ScaleByZoomLinesearchState(
            learning_rate=jnp.asarray(1.0, val_dtype),
            value=jnp.asarray(jnp.inf, val_dtype),
            grad=tree.zeros_like(params),
            info=ZoomLinesearchInfo(
                # weakly typed, and the errors float32 whatever `val_dtype`, as Optax's
                num_linesearch_steps=jnp.asarray(0),
                decrease_error=jnp.asarray(jnp.inf),
                curvature_error=jnp.asarray(jnp.inf),
            ),
        )

    def update_fn(updates, state, params, *, value, grad, value_fn, **extra_args):
        (fn_kwargs,), remaining = _extract_fns_kwargs((value_fn,), extra_args)
        _check_no_remaining("scale_by_zoom_linesearch", remaining)
        value_and_grad_fn = core.value_and_grad(value_fn)
        init_state = init_ls(
            updates,
            params,
            value=value,
            grad=grad,
            prev_stepsize=state.learning_rate,
            initial_guess_strategy=initial_guess_strategy,
        )
        final = lax.while_loop(
            cond_ls,
            functools.partial(step_ls, value_and_grad_fn=value_and_grad_fn, fn_kwargs=fn_kwargs),
            init_state,
        )
        new_state = ScaleByZoomLinesearchState(
            learning_rate=final.stepsize,
            value=final.value,
            grad=final.grad,
            info=ZoomLinesearchInfo(
                num_linesearch_steps=final.count,
                decrease_error=final.decrease_error,
                curvature_error=final.curvature_error,
            ),
        )
        return tree.scale(final.stepsize, updates), tree.cast_like(new_state, state)

    return GradientTransformationExtraArgs(init_fn, update_fn)


def value_and_grad_from_state(
    value_fn: Callable[..., Any],
) -> Callable[..., tuple[Any, Any]]:
    """Like `core.value_and_grad(value_fn)`, but reuses the value and gradient a line search
    stored in the optimizer state (when the stored value is finite).

    Call it as `value_and_grad(params, *args, state=opt_state, **kwargs)`.

    Raises:
      StateValueNotFoundError: if the state holds no `value` or no `grad` (a `ValueError`).

    Args:
      value_fn: the objective, ``value_fn(params, *args, **kwargs) -> scalar``.

    Returns:
      A function ``(params, *args, state=opt_state, **kwargs) -> (value, grad)``.
    """

    def _value_and_grad(params, *fn_args, state, **fn_kwargs):
        value = tree.get(state, "value")
        grad = tree.get(state, "grad")
        if value is None or grad is None:
            raise StateValueNotFoundError(
                "Value or gradient not found in the state. Make sure that these values are "
                "stored in the state by the optimizer.\nUse an optimizer that stores them, "
                "e.g. lbfgs or a linesearch with store_grad=True."
            )
        finite = jnp.logical_not(jnp.logical_or(jnp.isinf(value), jnp.isnan(value)))

        def recompute(p, a, kwa):
            new_value, new_grad = core.value_and_grad(value_fn)(p, *a, **kwa)
            # a Python float value (a constant function) becomes an array before the cast
            return tree.cast_like((jnp.asarray(new_value), new_grad), (value, grad))

        return lax.cond(finite, lambda *_: (value, grad), recompute, params, fn_args, fn_kwargs)

    return _value_and_grad
