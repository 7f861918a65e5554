"""Piecewise interpolation between values, and the one-cycle schedules built on it."""

from __future__ import annotations

import math
from typing import Any

import core.numpy as jnp
from optim.base import Schedule
from optim.errors import ScheduleArgumentError


def _linear(start: Any, end: Any, pct: Any) -> Any:
    return (end - start) * pct + start


def _cosine(start: Any, end: Any, pct: Any) -> Any:
    return end + (start - end) / 2.0 * (jnp.cos(math.pi * pct) + 1)


def piecewise_interpolate_schedule(
    interpolate_type: str, init_value: Any, boundaries_and_scales: dict[int, float] | None = None
) -> Schedule:
    """Interpolates (linearly or by a half cosine) between cumulative scalings of `init_value`.

    Args:
      interpolate_type: "linear" or "cosine".
      init_value: the value at step 0.
      boundaries_and_scales: `{step: scale}`; the value reached at `step` is `init_value`
        times the product of the scales up to it.

    Returns:
      A schedule: a function of the step count returning the value.
    """
    interpolate = {"linear": _linear, "cosine": _cosine}.get(interpolate_type)
    if interpolate is None:
        raise ScheduleArgumentError(
            f"`interpolate_type` must be either 'cosine' or 'linear'\nGot {interpolate_type!r}."
        )
    items = sorted((boundaries_and_scales or {}).items())
    if any(scale < 0.0 for _, scale in items):
        raise ScheduleArgumentError(
            "`piecewise_interpolate_schedule` expects non-negative scale factors\n"
            f"Got {dict(items)}."
        )
    boundaries = tuple(b for b, _ in items)
    scales = tuple(scale for _, scale in items)

    def schedule(count):
        # Optax's arithmetic: the values are a float32 array (a strongly typed result whatever
        # the count's dtype), and a scalar count (an array count does not broadcast, as in
        # Optax) is compared with every interval at once
        edges = jnp.stack((0, *boundaries))
        starts, ends = edges[:-1], edges[1:]
        # The value reached at each edge: the running product of the scales.
        levels = jnp.cumprod(jnp.stack((init_value, *scales)))
        within = jnp.logical_and(starts <= count, count < ends)  # at most one interval
        # Progress through each interval (an empty one counts as one step long).
        progress = (count - starts) / jnp.maximum(ends - starts, 1)
        during = within.dot(interpolate(levels[:-1], levels[1:], progress))
        after = (edges[-1] <= count) * levels[-1]  # the last level holds past the last edge
        return during + after

    return schedule


def linear_onecycle_schedule(
    transition_steps: int,
    peak_value: Any,
    pct_start: float = 0.3,
    pct_final: float = 0.85,
    div_factor: float = 25.0,
    final_div_factor: float = 1e4,
) -> Schedule:
    """One-cycle (Smith, 2018) with linear pieces: up to `peak_value`, down, then annihilation.

    Args:
      transition_steps: the length of the cycle.
      peak_value: the largest value.
      pct_start: the fraction of the cycle spent going up.
      pct_final: the fraction of the cycle at which the annihilation phase starts.
      div_factor: the start value is ``peak_value / div_factor``.
      final_div_factor: the end value is ``peak_value / (div_factor * final_div_factor)``.

    Returns:
      A schedule: a function of the step count returning the value.
    """
    if transition_steps <= 0:
        raise ScheduleArgumentError(
            # Optax's first line (its cosine schedule's message says "linear" too)
            "A linear onecycle schedule was set with a non-positive `transition_steps`\n"
            f"linear_onecycle_schedule needs transition_steps > 0, got {transition_steps}."
        )
    return piecewise_interpolate_schedule(
        "linear",
        peak_value / div_factor,
        {
            int(pct_start * transition_steps): div_factor,
            int(pct_final * transition_steps): 1.0 / div_factor,
            transition_steps: 1.0 / final_div_factor,
        },
    )


def cosine_onecycle_schedule(
    transition_steps: int,
    peak_value: Any,
    pct_start: float = 0.3,
    div_factor: float = 25.0,
    final_div_factor: float = 1e4,
) -> Schedule:
    """One-cycle with cosine pieces (fastai's default): up to `peak_value`, then down.

    Args:
      transition_steps: the length of the cycle.
      peak_value: the largest value.
      pct_start: the fraction of the cycle spent going up.
      div_factor: the start value is ``peak_value / div_factor``.
      final_div_factor: the end value is ``peak_value / (div_factor * final_div_factor)``.

    Returns:
      A schedule: a function of the step count returning the value.
    """
    if transition_steps <= 0:
        raise ScheduleArgumentError(
            # Optax's first line (its cosine schedule's message says "linear" too)
            "A linear onecycle schedule was set with a non-positive `transition_steps`\n"
            f"cosine_onecycle_schedule needs transition_steps > 0, got {transition_steps}."
        )
    return piecewise_interpolate_schedule(
        "cosine",
        peak_value / div_factor,
        {
            int(pct_start * transition_steps): div_factor,
            int(transition_steps): 1.0 / (div_factor * final_div_factor),
        },
    )
