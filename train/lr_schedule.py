"""``flax.training.lr_schedule``: Flax's older learning-rate schedules (constant, stepped and
half-cosine, each with an optional linear warm-up counted in epochs), functions of the step.

Flax keeps them for old programs and logs that Optax's schedules replace them; so does numbax
(a warning on the ``flax.training.lr_schedule`` logger). New code: ``optim.schedules``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import core.numpy as jnp

__all__ = [
    "create_constant_learning_rate_schedule",
    "create_cosine_learning_rate_schedule",
    "create_stepped_learning_rate_schedule",
]

_log = logging.getLogger("flax.training.lr_schedule")
_DEPRECATED = (
    "Learning rate schedules in ``flax.training`` are effectively deprecated in favor of Optax "
    "schedules. Please refer to https://optax.readthedocs.io/en/latest/api.html#optimizer-schedules"
    " for alternatives."
)


def _with_warmup(
    rate: Callable[[Any], Any], steps_per_epoch: int, warmup_length: float
) -> Callable[[Any], Any]:
    """`rate` scaled by min(1, step / (warmup_length epochs)) when there is a warm-up."""
    _log.warning(_DEPRECATED)
    if warmup_length <= 0.0:
        return rate

    def warmed(step):
        return rate(step) * jnp.minimum(1.0, step / float(warmup_length) / steps_per_epoch)

    return warmed


def create_constant_learning_rate_schedule(
    base_learning_rate: float, steps_per_epoch: int, warmup_length: float = 0.0
) -> Callable[[Any], Any]:
    """A constant rate after an optional linear warm-up.

    Args:
      base_learning_rate: the rate.
      steps_per_epoch: steps in an epoch (the warm-up is counted in epochs).
      warmup_length: epochs of linear warm-up from 0 (0 for none).

    Returns:
      A function of the step giving the rate.
    """
    return _with_warmup(lambda step: base_learning_rate, steps_per_epoch, warmup_length)


def create_stepped_learning_rate_schedule(
    base_learning_rate: float,
    steps_per_epoch: int,
    lr_sched_steps: Sequence[Sequence[float]],
    warmup_length: float = 0.0,
) -> Callable[[Any], Any]:
    """A piecewise-constant rate: ``base * factor`` from each ``[epoch, factor]`` of
    `lr_sched_steps` on (the epoch rounded to a step), after an optional warm-up.

    Args:
      base_learning_rate: the rate before the first change.
      steps_per_epoch: steps in an epoch.
      lr_sched_steps: ``[[epoch, factor], ...]`` in increasing epochs.
      warmup_length: epochs of linear warm-up from 0 (0 for none).

    Returns:
      A function of the step giving the rate.
    """
    starts = np.round(np.array([s[0] for s in lr_sched_steps]) * steps_per_epoch).astype(int)
    rates = base_learning_rate * np.array([1.0] + [s[1] for s in lr_sched_steps])

    def stepped(step):
        return jnp.take(rates, jnp.sum(starts < step))

    return _with_warmup(stepped, steps_per_epoch, warmup_length)


def create_cosine_learning_rate_schedule(
    base_learning_rate: float,
    steps_per_epoch: int,
    halfcos_epochs: float,
    warmup_length: float = 0.0,
) -> Callable[[Any], Any]:
    """A half-cosine from `base_learning_rate` down to 0 over `halfcos_epochs` epochs, after an
    optional warm-up.

    Args:
      base_learning_rate: the rate at step 0 (before the warm-up's factor).
      steps_per_epoch: steps in an epoch.
      halfcos_epochs: epochs from the full rate to 0.
      warmup_length: epochs of linear warm-up from 0 (0 for none).

    Returns:
      A function of the step giving the rate.
    """
    half_period = halfcos_epochs * steps_per_epoch

    def cosine(step):
        return base_learning_rate * (0.5 * jnp.cos(step * jnp.pi / half_period) + 0.5)

    return _with_warmup(cosine, steps_per_epoch, warmup_length)
