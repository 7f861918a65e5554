"""Stateless and schedule-driven rescalings: `scale`, `scale_by_learning_rate`, trust ratios.

`scale_by_learning_rate` flips the sign (aliases return steps to *add*). A callable learning rate
becomes `scale_by_schedule`, which keeps its own `count`: the schedule is evaluated at 0 for the
first update, 1 for the second, and so on.

The second half holds rescalings driven by history or by extra inputs: Rprop's per-entry step
sizes, the optimistic gradient `(alpha + beta) g_t - beta g_{t-1}`, layer-wise DoG, Polyak step
sizes (which need `update(..., value=loss)`) and `normalize_by_update_norm`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import core.numpy as jnp
from core import tree_util
from optim import tree
from optim.base import (
    EmptyState,
    GradientTransformation,
    GradientTransformationExtraArgs,
    ScalarOrSchedule,
    Schedule,
    identity,
    init_empty_state,
)
from optim.errors import MissingParamsError, OptimizerArgumentError
from optim.numerics import safe_increment, safe_norm, safe_root_mean_squares

ScaleState = EmptyState
ScaleByTrustRatioState = EmptyState


class ScaleByScheduleState(NamedTuple):
    """State of `scale_by_schedule`."""

    count: Any  # shape=(), dtype=int32: number of updates so far.


def scale(step_size: Any) -> GradientTransformation:
    """Multiplies updates by a fixed `step_size`.

    Args:
      step_size: the factor (a float or scalar array).

    Returns:
      A stateless `GradientTransformation`.
    """

    def update_fn(updates, state, params=None):
        del params
        return tree_util.tree_map(lambda g: step_size * g, updates), state

    return GradientTransformation(init_empty_state, update_fn)


def _scaled_in_own_dtype(updates: Any, factor: Any) -> Any:
    """Every leaf times ``factor`` cast to the leaf's dtype."""
    return tree_util.tree_map(lambda leaf: jnp.asarray(factor, dtype=leaf.dtype) * leaf, updates)


def scale_by_schedule(step_size_fn: Schedule) -> GradientTransformation:
    """Multiplies updates by `step_size_fn(count)`, `count` = number of previous updates.

    Args:
      step_size_fn: a schedule `count -> factor`.

    Returns:
      A `GradientTransformation` with state `ScaleByScheduleState(count)`.
    """

    def init_fn(params):
        del params
        return ScaleByScheduleState(count=jnp.zeros([], jnp.int32))

    def update_fn(updates, state, params=None):
        del params
        # The factor takes each update's dtype, so low-precision updates stay low precision.
        scaled = _scaled_in_own_dtype(updates, step_size_fn(state.count))
        return scaled, ScaleByScheduleState(count=safe_increment(state.count))

    return GradientTransformation(init_fn, update_fn)


def scale_by_learning_rate(
    learning_rate: ScalarOrSchedule | None = None, *, flip_sign: bool = True
) -> GradientTransformation:
    """Multiplies updates by `-learning_rate` (or `+learning_rate` if `flip_sign=False`).

    Args:
      learning_rate: a float, scalar array or schedule; `None` means no scaling at all: the
        identity, without the sign flip (as in Optax, so `adadelta()` without a learning rate
        adds the raw step to the parameters; pass a learning rate to descend).
      flip_sign: negate, so that `apply_updates` performs descent.

    Returns:
      `scale(...)` for a constant, `scale_by_schedule(...)` for a schedule, `identity()` for
      None.
    """
    sign = -1 if flip_sign else 1
    if learning_rate is None:
        return identity()
    if callable(learning_rate):
        return scale_by_schedule(lambda count: sign * learning_rate(count))
    return scale(sign * learning_rate)


def scale_by_sign() -> GradientTransformation:
    """Replaces every update by its sign (signSGD).

    Returns:
      A stateless `GradientTransformation` (its state is ``EmptyState()``).
    """

    def update_fn(updates, state, params=None):
        del params
        return tree_util.tree_map(jnp.sign, updates), state

    return GradientTransformation(init_empty_state, update_fn)


def scale_by_trust_ratio(
    min_norm: Any = 0.0, trust_coefficient: Any = 1.0, eps: Any = 0.0
) -> GradientTransformation:
    """Scales each leaf by `trust_coefficient * ||param|| / (||update|| + eps)` (LARS/LAMB).

    Where either norm is zero the ratio is 1.

    Args:
      min_norm: lower bound of both norms.
      trust_coefficient: multiplies the ratio.
      eps: added to the update norm.

    Returns:
      A stateless `GradientTransformation` that needs `params`.
    """

    def update_fn(updates, state, params):
        if params is None:
            raise MissingParamsError("scale_by_trust_ratio")

        def scale_leaf(update, param):
            param_norm = safe_norm(param, min_norm)
            update_norm = safe_norm(update, min_norm)
            ratio = trust_coefficient * param_norm / (update_norm + eps)
            zero_norm = jnp.logical_or(param_norm == 0.0, update_norm == 0.0)
            return update * jnp.where(zero_norm, jnp.asarray(1.0, dtype=param.dtype), ratio)

        return tree_util.tree_map(scale_leaf, updates, params), state

    return GradientTransformation(init_empty_state, update_fn)


def scale_by_param_block_norm(min_scale: Any = 1e-3) -> GradientTransformation:
    """Scales each leaf by `max(||param||, min_scale)`.

    Args:
      min_scale: the smallest factor (for leaves with a small norm).

    Returns:
      A stateless `GradientTransformation` (its state is ``EmptyState()``). Its ``update`` needs
      ``params``.
    """

    def update_fn(updates, state, params):
        if params is None:
            raise MissingParamsError("scale_by_param_block_norm")
        return tree_util.tree_map(lambda u, p: u * safe_norm(p, min_scale), updates, params), state

    return GradientTransformation(init_empty_state, update_fn)


def scale_by_param_block_rms(min_scale: Any = 1e-3) -> GradientTransformation:
    """Scales each leaf by `max(rms(param), min_scale)` (Adafactor's parameter scale).

    Args:
      min_scale: the smallest factor (for leaves with a small root mean square).

    Returns:
      A stateless `GradientTransformation` (its state is ``EmptyState()``). Its ``update`` needs
      ``params``.
    """

    def by_block_rms(update: Any, param: Any) -> Any:
        return update * safe_root_mean_squares(param, min_scale)

    def update_fn(updates, state, params):
        if params is not None:
            return tree_util.tree_map(by_block_rms, updates, params), state
        raise MissingParamsError("scale_by_param_block_rms")

    return GradientTransformation(init_empty_state, update_fn)


def centralize() -> GradientTransformation:
    """Subtracts from each leaf of rank >= 2 its mean over all axes but the first.

    Returns:
      A stateless `GradientTransformation` (its state is ``EmptyState()``).
    """

    def subtract_mean(g):
        if g.ndim > 1:
            return g - g.mean(axis=tuple(range(1, g.ndim)), keepdims=True)
        return g

    def update_fn(updates, state, params=None):
        del params
        return tree_util.tree_map(subtract_mean, updates), state

    return GradientTransformation(init_empty_state, update_fn)


# ------------------------------------------------------------------ sign- and history-based


class ScaleByRpropState(NamedTuple):
    """State of `scale_by_rprop`: one step size per entry and the previous (signed) step."""

    step_sizes: Any
    prev_updates: Any


def scale_by_rprop(
    learning_rate: Any,
    eta_minus: Any = 0.5,
    eta_plus: Any = 1.2,
    min_step_size: Any = 1e-6,
    max_step_size: Any = 50.0,
) -> GradientTransformation:
    """Rprop (Riedmiller & Braun, 1993) as Optax writes it (iRprop- style backtracking).

    Each entry's step grows by `eta_plus` while its gradient keeps its sign and shrinks by
    `eta_minus` when the sign flips (then that step is skipped). The returned updates are
    `step_size * sign(g)` of the previous update (not negated: `rprop` chains `scale(-1.0)`);
    this one-step lag, including a zero first update, is Optax's behaviour.

    Args:
      learning_rate: the initial step size.
      eta_minus: factor applied on a sign change.
      eta_plus: factor applied when the sign is kept.
      min_step_size: lower clip of the step sizes.
      max_step_size: upper clip of the step sizes.

    Returns:
      A `GradientTransformation` with state `ScaleByRpropState`.
    """

    def init_fn(params):
        return ScaleByRpropState(
            step_sizes=tree_util.tree_map(lambda p: jnp.full_like(p, learning_rate), params),
            prev_updates=tree_util.tree_map(jnp.zeros_like, params),
        )

    def update_fn(updates, state, params=None):
        del params
        sign = tree_util.tree_map(lambda g, prev: g * prev, updates, state.prev_updates)
        step_sizes = tree_util.tree_map(
            lambda s, step: jnp.where(
                s == 0,
                step,
                jnp.clip(
                    step * jnp.where(s > 0, eta_plus, eta_minus), min_step_size, max_step_size
                ),
            ),
            sign,
            state.step_sizes,
        )
        prev_updates = tree_util.tree_map(
            lambda s, g, step: jnp.where(s < 0, jnp.zeros_like(g), step * jnp.sign(g)),
            sign,
            updates,
            step_sizes,
        )
        # As in Optax, the step returned is the one stored at the *previous* update (zero on
        # a sign flip), so the first update is zero and the steps lag one update behind.
        updates = tree_util.tree_map(
            lambda s, prev: jnp.where(s < 0, jnp.zeros_like(prev), prev),
            sign,
            state.prev_updates,
        )
        return updates, ScaleByRpropState(step_sizes, prev_updates)

    return GradientTransformation(init_fn, update_fn)


class ScaleByOptimisticGradientState(NamedTuple):
    """State of `scale_by_optimistic_gradient`."""

    is_initial_step: Any  # bool scalar
    previous_gradient: Any


def scale_by_optimistic_gradient(alpha: Any = 1.0, beta: Any = 1.0) -> GradientTransformation:
    """Generalised optimistic gradient: `(alpha + beta) * g_t - beta * g_{t-1}`.

    On the first step `g_{t-1}` is taken to be `g_t` (Optax issue #1082).

    Args:
      alpha: coefficient of the current gradient.
      beta: coefficient of the negative momentum.

    Returns:
      A `GradientTransformation` with state `ScaleByOptimisticGradientState`.
    """

    def init_fn(params):
        return ScaleByOptimisticGradientState(
            is_initial_step=jnp.asarray(True),
            previous_gradient=tree_util.tree_map(jnp.zeros_like, params),
        )

    def update_fn(updates, state, params=None):
        del params

        def f(g, prev):
            prev = jnp.where(state.is_initial_step, g, prev)
            return (alpha + beta) * g - beta * prev

        new_updates = tree_util.tree_map(f, updates, state.previous_gradient)
        return new_updates, ScaleByOptimisticGradientState(
            is_initial_step=jnp.asarray(False), previous_gradient=updates
        )

    return GradientTransformation(init_fn, update_fn)


class ScaleByDistanceOverGradientsState(NamedTuple):
    """State of `scale_by_distance_over_gradients` (layer-wise DoG)."""

    max_dist: Any
    grad_sum_of_squares: Any
    init_params: Any


def scale_by_distance_over_gradients(
    reps_rel: Any = 1e-6, eps: Any = 1e-8, param_dtype: Any = jnp.float32, global_scale: Any = 1.0
) -> GradientTransformation:
    """Distance-over-gradients (Ivgi et al., 2023), per leaf ("layer-wise DoG").

    The step of each leaf is `global_scale * max_dist / sqrt(sum_t ||g_t||**2 + eps)`, where
    `max_dist` is the largest distance of the leaf from its initial value so far (initially
    `reps_rel * (1 + ||x_0||)`).

    Args:
      reps_rel: relative size of the first step.
      eps: added under the root.
      param_dtype: dtype in which the initial parameters are stored.
      global_scale: overall factor, usually 1.0 or -1.0.

    Returns:
      A `GradientTransformation` with state `ScaleByDistanceOverGradientsState`.

    Raises:
      MissingParamsError: if `update` is called without `params`.
    """

    def _l2(x, y=0.0):
        return jnp.sqrt(jnp.sum(jnp.square(x - y)))

    def init_fn(params):
        return ScaleByDistanceOverGradientsState(
            tree_util.tree_map(lambda x: reps_rel * (1 + _l2(x)), params),
            tree_util.tree_map(lambda x: jnp.zeros(1), params),
            tree_util.tree_map(lambda x: x.astype(param_dtype), params),
        )

    def update_fn(updates, state, params):
        if params is None:
            raise MissingParamsError("scale_by_distance_over_gradients")
        max_dist = tree_util.tree_map(
            lambda d, x, y: jnp.maximum(d, _l2(x, y)), state.max_dist, params, state.init_params
        )
        g_sos = tree_util.tree_map(
            lambda s, g: s + jnp.sum(jnp.square(g)), state.grad_sum_of_squares, updates
        )
        updates = tree_util.tree_map(
            lambda g, d, s: global_scale * (d / jnp.sqrt(s + eps)) * g, updates, max_dist, g_sos
        )
        return updates, ScaleByDistanceOverGradientsState(max_dist, g_sos, state.init_params)

    return GradientTransformation(init_fn, update_fn)


_FLOAT64_EPS = 2.220446049250313e-16  # jnp.finfo(float).eps, the threshold Optax uses


def scale_by_polyak(
    f_min: Any = 0.0,
    max_learning_rate: Any = 1.0,
    eps: Any = 0.0,
    variant: str = "sps",
) -> GradientTransformationExtraArgs:
    """Scales the updates by Polyak's step size `min((f - f_min) / (||g||**2 + eps), max_lr)`.

    `update` needs the keyword `value=` (the loss at the current parameters). The step is 0 when
    `||g||**2 + eps` is below float64's machine epsilon.

    Args:
      f_min: a lower bound on the objective.
      max_learning_rate: the largest step size.
      eps: added to the squared gradient norm.
      variant: "sps", or "sps+" to use only the positive part of the gap.

    Returns:
      A `GradientTransformationExtraArgs` whose `update` takes `value=`.

    Raises:
      OptimizerArgumentError: for an unknown `variant` (at the first `update`, as in Optax).
    """

    def update_fn(updates, state, params=None, *, value, **extra_args):
        del params, extra_args
        grad_sq_norm = tree.norm(updates, squared=True)
        gap = jnp.asarray(value - f_min).astype(grad_sq_norm.dtype)
        if variant == "sps+":
            gap = jnp.maximum(gap, 0.0)
        elif variant != "sps":
            raise OptimizerArgumentError(
                f"Invalid argument value for Polyak SGD: variant={variant!r}; use 'sps' or 'sps+'."
            )
        step = jnp.where(
            grad_sq_norm + eps <= _FLOAT64_EPS,
            jnp.asarray(0.0),
            jnp.minimum(gap / (grad_sq_norm + eps), max_learning_rate),
        )
        return tree.scale(step, updates), state

    return GradientTransformationExtraArgs(init_empty_state, update_fn)


def normalize_by_update_norm(scale_factor: Any = 1.0, eps: Any = 1e-6) -> GradientTransformation:
    """Divides the updates by their global norm: `scale_factor * g / (||g|| + eps)`.

    Args:
      scale_factor: the factor applied after normalising (e.g. `-lr` for descent).
      eps: added to the norm.

    Returns:
      A stateless `GradientTransformation`.
    """

    def update_fn(updates, state, params=None):
        del params
        g_norm = (tree.norm(updates) + eps) / scale_factor
        return tree_util.tree_map(lambda g: g / g_norm, updates), state

    return GradientTransformation(init_empty_state, update_fn)
