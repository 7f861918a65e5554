"""Joining schedules end to end."""

from __future__ import annotations

from collections.abc import Sequence

import core.numpy as jnp
from optim.base import Schedule


def join_schedules(schedules: Sequence[Schedule], boundaries: Sequence[int]) -> Schedule:
    """Runs `schedules[i+1]` from step `boundaries[i]` on, restarting its count at 0.

    `out = s0(step)`; for each boundary `b` and next schedule `s`:
    `out = where(step < b, out, s(step - b))`.

    Args:
      schedules: the schedules, in order.
      boundaries: the steps at which the next schedule takes over (one fewer than ``schedules``).

    Returns:
      A schedule: a function of the step count returning the value.
    """

    def schedule(step):
        value = schedules[0](step)
        # Each later schedule takes over at its boundary, counting its own steps from there.
        for start, takes_over in zip(boundaries, schedules[1:]):
            value = jnp.where(step < start, value, takes_over(step - start))
        return value

    return schedule
