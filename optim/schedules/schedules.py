"""Learning-rate schedules: pure functions `count -> value`, traceable under `jit`.

Step-count convention (Optax): `count` is the number of updates already done, so the first
update sees `schedule(0)`. `inject_hyperparams` and `scale_by_schedule` both follow it. Unlike
PyTorch's `lr_scheduler` objects there is no `.step()`: the optimizer state holds the count.
"""

from __future__ import annotations

import math
from typing import Any

import core.numpy as jnp
from optim.base import Schedule
from optim.errors import ScheduleArgumentError
from optim.schedules.join import join_schedules


def constant_schedule(value: Any) -> Schedule:
    """Returns the schedule that is always `value`.

    Args:
      value: the value at every step.

    Returns:
      A schedule: a function of the step count returning the value.
    """
    return lambda count: value


def polynomial_schedule(
    init_value: Any, end_value: Any, power: Any, transition_steps: int, transition_begin: int = 0
) -> Schedule:
    """Polynomial decay from `init_value` to `end_value` over `transition_steps` steps.

    `c = clip(count - transition_begin, 0, transition_steps)`,
    `value = (init - end) * (1 - c / transition_steps)**power + end`.
    A non-positive `transition_steps` gives the constant `init_value`; a negative
    `transition_begin` is treated as 0 (both as in Optax).

    Args:
      init_value: the value before ``transition_begin``.
      end_value: the value after the transition.
      power: the exponent of the decay.
      transition_steps: the number of steps of the transition.
      transition_begin: the step the transition starts at.

    Returns:
      A schedule: a function of the step count returning the value.
    """
    if transition_steps <= 0:
        return lambda count: init_value
    start = max(transition_begin, 0)

    def schedule(count):
        # The part of the transition still ahead, from 1 at its start down to 0 at its end.
        ahead = 1 - jnp.clip(count - start, 0, transition_steps) / transition_steps
        return (init_value - end_value) * (ahead**power) + end_value

    return schedule


def linear_schedule(
    init_value: Any, end_value: Any, transition_steps: int, transition_begin: int = 0
) -> Schedule:
    """Linear interpolation from `init_value` to `end_value` (`polynomial_schedule`, power 1).

    Args:
      init_value: the value before ``transition_begin``.
      end_value: the value after the transition.
      transition_steps: the number of steps of the transition.
      transition_begin: the step the transition starts at.

    Returns:
      A schedule: a function of the step count returning the value.
    """
    return polynomial_schedule(init_value, end_value, 1, transition_steps, transition_begin)


def piecewise_constant_schedule(
    init_value: Any, boundaries_and_scales: dict[int, float] | None = None
) -> Schedule:
    """`init_value` multiplied by every `scale` whose `boundary <= count` (cumulatively).

    Raises:
      ScheduleArgumentError: if a scale is negative.

    Args:
      init_value: the value at step 0.
      boundaries_and_scales: a dict from step to the factor applied from that step on; None for
        none.

    Returns:
      A schedule: a function of the step count returning the value.
    """
    if boundaries_and_scales is not None and any(s < 0.0 for s in boundaries_and_scales.values()):
        raise ScheduleArgumentError(
            "`piecewise_constant_schedule` expects non-negative scale factors\n"
            f"Got {boundaries_and_scales}."
        )

    def schedule(count):
        value = init_value
        for boundary, factor in sorted((boundaries_and_scales or {}).items()):
            # 1 strictly before the boundary, 0 from it on, as arithmetic for traced counts.
            waiting = jnp.maximum(0.0, jnp.sign(boundary - count))
            value = value * waiting + (1 - waiting) * factor * value
        return value

    return schedule


def exponential_decay(
    init_value: Any,
    transition_steps: int,
    decay_rate: float,
    transition_begin: int = 0,
    staircase: bool = False,
    end_value: Any = None,
) -> Schedule:
    """`init * decay_rate**((count - begin) / transition_steps)`, `init` before `begin`.

    Args:
      init_value: the initial value.
      transition_steps: steps per factor of `decay_rate`.
      decay_rate: the decay factor (> 1 gives growth).
      transition_begin: steps of constant `init_value` first.
      staircase: use an integer exponent (step-wise decay).
      end_value: lower bound (upper bound when `decay_rate > 1`).

    Returns:
      A schedule: a function of the step count returning the value.
    """
    if transition_steps <= 0 or decay_rate == 0:
        return lambda count: init_value
    transition_begin = max(transition_begin, 0)
    clip_fn = jnp.maximum if decay_rate < 1.0 else jnp.minimum

    def schedule(count):
        decreased = count - transition_begin
        p = decreased / transition_steps
        if staircase:
            p = jnp.floor(p)
        value = jnp.where(decreased <= 0, init_value, init_value * jnp.power(decay_rate, p))
        return value if end_value is None else clip_fn(value, end_value)

    return schedule


def cosine_decay_schedule(
    init_value: Any, decay_steps: int, alpha: Any = 0.0, exponent: Any = 1.0
) -> Schedule:
    """Cosine decay from `init_value` to `alpha * init_value` over `decay_steps` steps.

    `c = min(count, decay_steps)`,
    `value = init * ((1 - alpha) * (0.5 * (1 + cos(pi c / decay_steps)))**exponent + alpha)`.

    Raises:
      ScheduleArgumentError: if `decay_steps <= 0`.

    Args:
      init_value: the value at step 0.
      decay_steps: the number of steps of the decay (positive).
      alpha: the final value as a fraction of ``init_value``.
      exponent: power applied to the cosine factor.

    Returns:
      A schedule: a function of the step count returning the value.
    """
    if not decay_steps > 0:
        raise ScheduleArgumentError(
            "The cosine_decay_schedule requires positive decay_steps, got "
            f"decay_steps={decay_steps}."
        )

    # Python ints become floats (Optax's way) so that steps past int32 do not overflow
    steps = float(decay_steps) if isinstance(decay_steps, int) else decay_steps

    def schedule(count):
        count = float(count) if isinstance(count, int) else count
        count = jnp.minimum(count, steps)
        cosine = 0.5 * (1 + jnp.cos(math.pi * count / steps))
        return init_value * ((1 - alpha) * cosine**exponent + alpha)

    return schedule


def warmup_constant_schedule(init_value: Any, peak_value: Any, warmup_steps: int) -> Schedule:
    """Linear warmup from `init_value` to `peak_value`, then constant.

    Args:
      init_value: the value at step 0.
      peak_value: the value after the warmup.
      warmup_steps: the length of the warmup.

    Returns:
      A schedule: a function of the step count returning the value.
    """
    return linear_schedule(init_value, peak_value, warmup_steps)


def warmup_cosine_decay_schedule(
    init_value: Any,
    peak_value: Any,
    warmup_steps: int,
    decay_steps: int,
    end_value: Any = 0.0,
    exponent: Any = 1.0,
) -> Schedule:
    """Linear warmup to `peak_value`, then cosine decay to `end_value`.

    Trap: `decay_steps` is the *total* length including the warmup; the cosine part lasts
    `decay_steps - warmup_steps` steps.

    Args:
      init_value: the value at step 0.
      peak_value: the value at the end of the warmup.
      warmup_steps: the length of the linear warmup.
      decay_steps: the total length of warmup and decay.
      end_value: the value at the end of the decay.
      exponent: power applied to the cosine factor.

    Returns:
      A schedule: a function of the step count returning the value.
    """
    alpha = 0.0 if peak_value == 0.0 else end_value / peak_value
    return join_schedules(
        [
            linear_schedule(init_value, peak_value, warmup_steps),
            cosine_decay_schedule(peak_value, decay_steps - warmup_steps, alpha, exponent),
        ],
        [warmup_steps],
    )


def warmup_exponential_decay_schedule(
    init_value: Any,
    peak_value: Any,
    warmup_steps: int,
    transition_steps: int,
    decay_rate: Any,
    transition_begin: int = 0,
    staircase: bool = False,
    end_value: Any = None,
) -> Schedule:
    """Linear warmup to `peak_value`, then `exponential_decay` (counted from the warmup's end).

    Args:
      init_value: the value at step 0.
      peak_value: the value at the end of the warmup.
      warmup_steps: the length of the linear warmup.
      transition_steps: steps per factor of ``decay_rate``.
      decay_rate: the factor of the exponential decay.
      transition_begin: steps after the warmup before the decay starts.
      staircase: decay in whole steps of ``transition_steps``.
      end_value: a bound on the value (lower when decaying); None for none.

    Returns:
      A schedule: a function of the step count returning the value.
    """
    return join_schedules(
        [
            linear_schedule(init_value, peak_value, warmup_steps),
            exponential_decay(
                peak_value, transition_steps, decay_rate, transition_begin, staircase, end_value
            ),
        ],
        [warmup_steps],
    )


def sgdr_schedule(cosine_kwargs: list[dict[str, Any]]) -> Schedule:
    """Warm restarts: consecutive `warmup_cosine_decay_schedule(**kwargs)` cycles.

    Args:
      cosine_kwargs: one dict of `warmup_cosine_decay_schedule` arguments per cycle.

    Returns:
      A schedule: a function of the step count returning the value.
    """
    boundaries, schedules, step = [], [], 0
    for kwargs in cosine_kwargs:
        schedules.append(warmup_cosine_decay_schedule(**kwargs))
        step += kwargs["decay_steps"]
        boundaries.append(step)
    return join_schedules(schedules, boundaries[:-1])
