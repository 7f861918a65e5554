"""Stateless and schedule-driven rescalings: `scale`, `scale_by_learning_rate`, trust ratios.

`scale_by_learning_rate` flips the sign (aliases return steps to *add*). A callable learning rate
becomes `scale_by_schedule`, which keeps its own `count`: the schedule is evaluated at 0 for the
first update, 1 for the second, and so on.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import core.numpy as jnp
from core import tree_util
from optim.base import (
    EmptyState,
    GradientTransformation,
    ScalarOrSchedule,
    Schedule,
    identity,
    init_empty_state,
)
from optim.errors import MissingParamsError
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
        step_size = step_size_fn(state.count)
        updates = tree_util.tree_map(lambda g: jnp.asarray(step_size, dtype=g.dtype) * g, updates)
        return updates, ScaleByScheduleState(count=safe_increment(state.count))

    return GradientTransformation(init_fn, update_fn)


def scale_by_learning_rate(
    learning_rate: ScalarOrSchedule | None = None, *, flip_sign: bool = True
) -> GradientTransformation:
    """Multiplies updates by `-learning_rate` (or `+learning_rate` if `flip_sign=False`).

    Args:
      learning_rate: a float, scalar array or schedule; `None` means 1 (e.g. `adadelta()`).
      flip_sign: negate, so that `apply_updates` performs descent.

    Returns:
      `scale(...)` for a constant, `scale_by_schedule(...)` for a schedule.
    """
    sign = -1 if flip_sign else 1
    if learning_rate is None:
        # Optax returns identity() here, so `optax.adadelta()` ascends; we keep the sign flip.
        return scale(sign * 1.0) if flip_sign else identity()
    if callable(learning_rate):
        return scale_by_schedule(lambda count: sign * learning_rate(count))
    return scale(sign * learning_rate)


def scale_by_sign() -> GradientTransformation:
    """Replaces every update by its sign (signSGD)."""

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

    def update_fn(updates, state, params=None):
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
    """Scales each leaf by `max(||param||, min_scale)`."""

    def update_fn(updates, state, params=None):
        if params is None:
            raise MissingParamsError("scale_by_param_block_norm")
        return tree_util.tree_map(lambda u, p: u * safe_norm(p, min_scale), updates, params), state

    return GradientTransformation(init_empty_state, update_fn)


def scale_by_param_block_rms(min_scale: Any = 1e-3) -> GradientTransformation:
    """Scales each leaf by `max(rms(param), min_scale)` (Adafactor's parameter scale)."""

    def update_fn(updates, state, params=None):
        if params is None:
            raise MissingParamsError("scale_by_param_block_rms")
        updates = tree_util.tree_map(
            lambda u, p: u * safe_root_mean_squares(p, min_scale), updates, params
        )
        return updates, state

    return GradientTransformation(init_empty_state, update_fn)


def centralize() -> GradientTransformation:
    """Subtracts from each leaf of rank >= 2 its mean over all axes but the first."""

    def subtract_mean(g):
        if g.ndim > 1:
            return g - g.mean(axis=tuple(range(1, g.ndim)), keepdims=True)
        return g

    def update_fn(updates, state, params=None):
        del params
        return tree_util.tree_map(subtract_mean, updates), state

    return GradientTransformation(init_empty_state, update_fn)
