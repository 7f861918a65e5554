"""`reduce_on_plateau`: scales updates down by `factor` when a monitored value stops improving.

The value (a validation loss, or the training loss averaged over `accumulation_size` calls) is
passed to `update` as the keyword `value`; every `accumulation_size` calls its average is compared
with the best so far, and after `patience` comparisons without an improvement of
`rtol * |best| + atol` the scale is multiplied by `factor` (never below `min_scale`), followed by
`cooldown` comparisons during which nothing changes. As in Optax, the transformation only scales:
chain it after an optimizer (`chain(adam(lr), reduce_on_plateau())`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import core.numpy as jnp
from core import lax, tree_util
from optim import tree
from optim.base import GradientTransformationExtraArgs
from optim.errors import OptimizerArgumentError
from optim.numerics import safe_increment


class ReduceLROnPlateauState(NamedTuple):
    """State of `reduce_on_plateau`."""

    scale: Any
    best_value: Any
    plateau_count: Any  # shape=(), dtype=int32.
    cooldown_count: Any  # shape=(), dtype=int32.
    count: Any  # shape=(), dtype=int32.
    avg_value: Any


def _check(factor: float, rtol: float, atol: float) -> None:
    if factor <= 0.0 or factor >= 1.0:
        raise OptimizerArgumentError(
            f"Factor must be in the range (0, 1), got factor = {factor}.\nPass e.g. factor=0.1."
        )
    if rtol < 0.0 or atol < 0.0:
        raise OptimizerArgumentError(
            f"Both rtol and atol must be non-negative, got rtol = {rtol} and atol = {atol}."
        )
    if rtol == 0.0 and atol == 0.0:
        raise OptimizerArgumentError(
            f"At least one of rtol or atol must be positive, got rtol = {rtol} and atol = {atol}."
        )
    if rtol > 1.0:
        raise OptimizerArgumentError(f"rtol must be less than or equal to 1.0, got rtol = {rtol}.")


def reduce_on_plateau(
    factor: float = 0.1,
    patience: Any = 10,
    rtol: float = 1e-4,
    atol: float = 0.0,
    cooldown: Any = 0,
    accumulation_size: Any = 1,
    min_scale: Any = 0.0,
) -> GradientTransformationExtraArgs:
    """Reduces the scale of the updates when a metric has stopped improving.

    Args:
      factor: the scale is multiplied by it on a plateau, in (0, 1).
      patience: comparisons without improvement before the scale drops.
      rtol: relative tolerance of an improvement.
      atol: absolute tolerance of an improvement.
      cooldown: comparisons to wait after a drop before counting again.
      accumulation_size: values averaged into one comparison.
      min_scale: the scale never drops below it.

    Returns:
      A `GradientTransformationExtraArgs` whose `update` needs `value=`; state
      `ReduceLROnPlateauState`.

    Raises:
      OptimizerArgumentError: `factor` outside (0, 1), a negative or zero-sum tolerance, or
        `rtol > 1` (a `ValueError`, as in Optax).
    """
    _check(factor, rtol, atol)

    def init_fn(params):
        lowest = tree.dtype(params, "lowest")
        highest = tree.dtype(params, "highest")
        return ReduceLROnPlateauState(
            scale=jnp.asarray(1.0, dtype=lowest),
            best_value=jnp.asarray(float("inf"), dtype=highest),
            plateau_count=jnp.asarray(0, jnp.int32),
            cooldown_count=jnp.asarray(0, jnp.int32),
            count=jnp.asarray(0, jnp.int32),
            avg_value=jnp.asarray(0.0, highest),
        )

    def _update_scale(state):
        avg_value = state.avg_value
        improved = jnp.where(avg_value < (1 - rtol) * state.best_value - atol, 1, 0)
        best_value = jnp.where(improved, avg_value.astype(state.best_value.dtype), state.best_value)
        plateau_count = jnp.where(improved, 0, safe_increment(state.plateau_count))

        def in_cooldown():
            return jnp.asarray(0, jnp.int32), state.scale, state.cooldown_count - 1

        def not_in_cooldown():
            reached = plateau_count == patience
            new_scale = jnp.where(reached, state.scale * factor, state.scale)
            new_scale = jnp.maximum(new_scale, min_scale)
            return (
                jnp.where(reached, 0, plateau_count),
                new_scale,
                jnp.where(reached, cooldown, 0).astype(jnp.int32),
            )

        new_plateau, new_scale, new_cooldown = lax.cond(
            state.cooldown_count > 0, in_cooldown, not_in_cooldown
        )
        return ReduceLROnPlateauState(
            scale=new_scale,
            best_value=best_value.astype(state.best_value.dtype),
            plateau_count=new_plateau,
            cooldown_count=new_cooldown,
            count=jnp.asarray(0, dtype=jnp.int32),
            avg_value=jnp.asarray(0.0, avg_value.dtype),
        )

    def update_fn(updates, state, params=None, *, value, **extra_args):
        del params, extra_args
        new_count = safe_increment(state.count)
        avg = (state.count * state.avg_value + jnp.asarray(value).astype(state.avg_value.dtype)) / (
            new_count
        )
        state = state._replace(avg_value=avg.astype(state.avg_value.dtype), count=new_count)
        state = lax.cond(new_count == accumulation_size, _update_scale, lambda s: s, state)
        updates = tree_util.tree_map(lambda g: state.scale * g, updates)
        return updates, state

    return GradientTransformationExtraArgs(init_fn, update_fn)
