"""Schedule-Free learning (Defazio et al., 2024): momentum replaced by interpolation and averaging.

`schedule_free(base_optimizer, learning_rate, b1)` keeps the base optimizer's iterate `z` in its
state and returns updates that move the parameters to `y = b1 * x + (1 - b1) * z`, where `x` is the
running average of the `z`s weighted by `max_lr ** weight_lr_power`. The parameters the
optimizer sees are `y`; evaluate the model at `x = schedule_free_eval_params(state, params)`.
Turn the base optimizer's own momentum off (`adam(lr, b1=0.0)`, `sgd(lr)`).
"""

from typing import Any, NamedTuple

import core.numpy as jnp
from core import tree_util
from optim import tree
from optim.aliases import sgd
from optim.base import (
    GradientTransformation,
    GradientTransformationExtraArgs,
    ScalarOrSchedule,
    with_extra_args_support,
)
from optim.combine import chain
from optim.errors import NotScheduleFreeStateError, OptimizerArgumentError
from optim.numerics import safe_increment
from optim.schedules import warmup_constant_schedule
from optim.transforms import add_decayed_weights, scale_by_learning_rate, scale_by_rms


class ScheduleFreeState(NamedTuple):
    """State of `schedule_free`."""

    b1: Any
    weight_sum: Any
    step_count: Any
    max_lr: Any
    base_optimizer_state: Any
    z: Any


def schedule_free_eval_params(state: Any, params: Any) -> Any:
    """The parameters to evaluate a model trained with `schedule_free` at: `x = (y - (1-b1) z)/b1`.

    Args:
      state: the `ScheduleFreeState` (or any state with `b1` and `z` attributes).
      params: the current (training) parameters `y`.

    Returns:
      The averaged parameters `x`.

    Raises:
      NotScheduleFreeStateError: `state` has no `b1` and `z` (an `AttributeError`, as in Optax).
      OptimizerArgumentError: its `b1` or `z` is None (a `ValueError`, as in Optax).
    """
    if not (hasattr(state, "b1") and hasattr(state, "z")):
        raise NotScheduleFreeStateError(
            f"{type(state).__name__!r} object has no attribute 'b1'\n"
            "schedule_free_eval_params requires a ScheduleFreeState: pass the state of the "
            "schedule_free transformation (e.g. opt_state, not opt_state.base_optimizer_state)."
        )
    b1, z = state.b1, state.z
    if b1 is None or z is None:
        raise OptimizerArgumentError(
            "schedule_free_eval_params requires a ScheduleFreeState as input; pass the state of "
            "the schedule_free transformation (e.g. opt_state, not opt_state.base_optimizer_state)."
        )
    return tree_util.tree_map(lambda yi, zi: (yi - (1.0 - b1) * zi) / b1, params, z)


def schedule_free(
    base_optimizer: GradientTransformation,
    learning_rate: ScalarOrSchedule,
    b1: Any = 0.9,
    weight_lr_power: Any = 2.0,
    state_dtype: Any = None,
) -> GradientTransformationExtraArgs:
    """Makes `base_optimizer` schedule-free.

    Args:
      base_optimizer: the optimizer whose updates move `z` (without momentum).
      learning_rate: its learning rate or schedule (warmup, no decay), used for the weights.
      b1: the interpolation weight of `x` in `y` (strictly positive).
      weight_lr_power: the averaging weight of a step is `max_lr ** weight_lr_power`.
      state_dtype: dtype of `z` (default: the params').

    Returns:
      A `GradientTransformationExtraArgs` with state `ScheduleFreeState`.
    """
    base_optimizer = with_extra_args_support(base_optimizer)

    def init_fn(params):
        dtype = tree.dtype(params, "lowest")
        z = tree.cast(params, state_dtype) if state_dtype is not None else params
        z = tree_util.tree_map(lambda t: jnp.array(t, copy=True), z)
        return ScheduleFreeState(
            b1=jnp.asarray(b1, dtype=dtype),
            weight_sum=jnp.zeros([], dtype=dtype),
            step_count=jnp.ones([], dtype=jnp.int32),
            max_lr=jnp.zeros([], dtype=dtype),
            base_optimizer_state=base_optimizer.init(params),
            z=z,
        )

    def update_fn(grads, state, params=None, **extra_args):
        lr = learning_rate
        if callable(learning_rate):
            lr = jnp.asarray(learning_rate(state.step_count), dtype=state.max_lr.dtype)
        max_lr = jnp.maximum(state.max_lr, lr)
        weight = max_lr**weight_lr_power
        total = state.weight_sum + weight
        ck = jnp.where(
            jnp.logical_or(jnp.isnan(weight), jnp.isnan(total)),
            jnp.full(weight.shape, jnp.nan),
            jnp.nan_to_num(weight / total, nan=0.0, posinf=jnp.inf),
        )
        base_updates, base_state = base_optimizer.update(
            grads, state.base_optimizer_state, params, **extra_args
        )
        z = tree_util.tree_map(
            lambda zi, ui: jnp.asarray(zi + ui).astype(jnp.asarray(zi).dtype), state.z, base_updates
        )
        prev_x = tree_util.tree_map(lambda yi, zi: (yi - (1.0 - b1) * zi) / b1, params, state.z)
        x = tree_util.tree_map(lambda xi, zi: (1.0 - ck) * xi + ck * zi, prev_x, z)
        new_params = tree_util.tree_map(lambda xi, zi: b1 * xi + (1.0 - b1) * zi, x, z)
        updates = tree_util.tree_map(lambda n, p: n - p, new_params, params)
        return updates, ScheduleFreeState(
            b1=state.b1,
            weight_sum=total,
            step_count=safe_increment(state.step_count),
            max_lr=max_lr,
            base_optimizer_state=base_state,
            z=z,
        )

    return GradientTransformationExtraArgs(init_fn, update_fn)


def _warmup(learning_rate: Any, warmup_steps: int | None) -> Any:
    if warmup_steps is None:
        return learning_rate
    return warmup_constant_schedule(
        init_value=0, peak_value=learning_rate, warmup_steps=warmup_steps
    )


def schedule_free_sgd(
    learning_rate: Any = 1.0,
    warmup_steps: int | None = None,
    b1: Any = 0.9,
    weight_decay: Any = None,
    weight_lr_power: Any = 2.0,
    state_dtype: Any = None,
) -> GradientTransformationExtraArgs:
    """Schedule-free SGD.

    Args:
      learning_rate: the SGD learning rate.
      warmup_steps: length of a linear warmup from 0 (None: none).
      b1: the interpolation weight (strictly positive).
      weight_decay: decoupled weight decay, multiplied by the learning rate (None: none).
      weight_lr_power: see `schedule_free`.
      state_dtype: dtype of `z`.

    Returns:
      A `GradientTransformationExtraArgs` with state `ScheduleFreeState`.
    """
    learning_rate = _warmup(learning_rate, warmup_steps)
    optimizer = sgd(learning_rate)
    if weight_decay is not None:
        optimizer = chain(add_decayed_weights(weight_decay), optimizer)
    return schedule_free(optimizer, learning_rate, b1, weight_lr_power, state_dtype)


def schedule_free_adamw(
    learning_rate: Any = 0.0025,
    warmup_steps: int | None = None,
    b1: Any = 0.9,
    b2: Any = 0.999,
    eps: Any = 1e-8,
    weight_decay: Any = 0.0,
    weight_lr_power: Any = 2.0,
    state_dtype: Any = None,
) -> GradientTransformationExtraArgs:
    """Schedule-free AdamW (Adam without first moment: `scale_by_rms` with bias correction).

    Args:
      learning_rate: the AdamW learning rate.
      warmup_steps: length of a linear warmup from 0 (None: none).
      b1: the interpolation weight (strictly positive).
      b2: decay of the second moment.
      eps: added to the root of the second moment.
      weight_decay: decoupled weight decay.
      weight_lr_power: see `schedule_free`.
      state_dtype: dtype of `z`.

    Returns:
      A `GradientTransformationExtraArgs` with state `ScheduleFreeState`.
    """
    learning_rate = _warmup(learning_rate, warmup_steps)
    optimizer = chain(
        scale_by_rms(decay=b2, eps=eps, eps_in_sqrt=False, bias_correction=True),
        add_decayed_weights(weight_decay),
        scale_by_learning_rate(learning_rate),
    )
    return schedule_free(optimizer, learning_rate, b1, weight_lr_power, state_dtype)
