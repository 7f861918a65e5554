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
        output = schedules[0](step)
        for boundary, sched in zip(boundaries, schedules[1:]):
            output = jnp.where(step < boundary, output, sched(step - boundary))
        return output

    return schedule
