"""Sharpness-aware minimization (Foret et al., 2021) as a transformation, and `normalize`.

`sam(optimizer, adv_optimizer, sync_period)` alternates `sync_period - 1` adversarial steps of
`adv_optimizer` (ascent: its updates are negated) with one outer step of `optimizer` from the
parameters cached at the start of the cycle, with the gradient taken at the adversarial point.
In the default "transparent" mode every call is one step of the cycle (the training loop does not
change); in `opaque_mode` one call does the whole cycle and needs `grad_fn(params, i)`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import core.numpy as jnp
from core import lax, tree_util
from optim import tree
from optim.base import (
    EmptyState,
    GradientTransformation,
    GradientTransformationExtraArgs,
)
from optim.errors import OptimizerArgumentError
from optim.update import apply_updates

NormalizeState = EmptyState


def normalize() -> GradientTransformation:
    """Divides the updates by their global L2 norm.

    Returns:
      A stateless `GradientTransformation` (state `NormalizeState`, i.e. `EmptyState`).
    """

    def update_fn(updates, state, params=None):
        del params
        length = tree.norm(updates)
        return tree_util.tree_map(lambda leaf: leaf / length, updates), state

    return GradientTransformation(lambda params: NormalizeState(), update_fn)


def _select(flag: Any, chosen: Any, otherwise: Any) -> Any:
    """`chosen` if the boolean scalar `flag` holds, else `otherwise`, leaf by leaf; computed as
    ``flag * chosen + (1 - flag) * otherwise`` so that it stays arithmetic under tracing."""
    return tree_util.tree_map(lambda a, b: flag * a + (1 - flag) * b, chosen, otherwise)


class SAMState(NamedTuple):
    """State of `sam`: the step within the cycle, both optimizers' states, the cached params."""

    steps_since_sync: Any
    opt_state: Any
    adv_state: Any
    cache: Any


def sam(
    optimizer: GradientTransformation,
    adv_optimizer: GradientTransformation,
    sync_period: int = 2,
    reset_state: bool = True,
    opaque_mode: bool = False,
    batch_axis_name: str | None = None,
) -> GradientTransformationExtraArgs:
    """Sharpness-aware minimization.

    Args:
      optimizer: the outer optimizer.
      adv_optimizer: the adversarial optimizer (e.g. `chain(normalize(), sgd(rho))`); its
        updates are applied as ascent.
      sync_period: steps per cycle (`sync_period - 1` adversarial steps, one outer step).
      reset_state: re-initialise `adv_optimizer`'s state at the end of each cycle.
      opaque_mode: do the whole cycle in one `update` (needs `grad_fn=`).
      batch_axis_name: in opaque mode, `pmean` the adversarial gradients over this axis.

    Returns:
      A `GradientTransformationExtraArgs` with state `SAMState`.

    Raises:
      OptimizerArgumentError: `sync_period < 1` (a `ValueError`, as in Optax).
    """
    if sync_period < 1:
        raise OptimizerArgumentError(
            f"Synchronization period must be >= 1.\nGot sync_period={sync_period}."
        )

    def init_fn(params):
        return SAMState(
            steps_since_sync=jnp.zeros(shape=(), dtype=jnp.int32),
            opt_state=optimizer.init(params),
            adv_state=adv_optimizer.init(params),
            cache=None if opaque_mode else params,
        )

    def transparent_update_fn(updates, state, params, *, grad_fn=None):
        del grad_fn
        phase = state.steps_since_sync
        starts_cycle = phase == 0
        ends_cycle = phase == sync_period - 1
        # Both candidate steps are computed; the phase decides which one is returned.
        ascent, stepped_adv = adv_optimizer.update(updates, state.adv_state, params)
        ascent = tree_util.tree_map(jnp.negative, ascent)
        outer, stepped_opt = optimizer.update(updates, state.opt_state, state.cache)
        # The outer step starts from the cached parameters, not from the adversarial ones.
        back_and_step = tree_util.tree_map(
            lambda start, now, step: start - now + step, state.cache, params, outer
        )
        adv_after_cycle = adv_optimizer.init(params) if reset_state else state.adv_state
        new_state = SAMState(
            steps_since_sync=(phase + 1) % sync_period,
            opt_state=_select(ends_cycle, stepped_opt, state.opt_state),
            adv_state=_select(ends_cycle, adv_after_cycle, stepped_adv),
            cache=_select(starts_cycle, params, state.cache),
        )
        return _select(ends_cycle, back_and_step, ascent), new_state

    def opaque_update_fn(
        updates, state, params, *, grad_fn: Callable[[Any, int], Any] | None = None
    ):
        if grad_fn is None:
            raise OptimizerArgumentError(
                "grad_fn must be provided when opaque_mode=True.\nCall "
                "tx.update(grads, state, params, grad_fn=lambda p, i: core.grad(loss)(p, batch))."
            )
        adv_params, adv_updates, adv_state = params, updates, state.adv_state
        for i in range(sync_period - 1):
            adv_updates, adv_state = adv_optimizer.update(adv_updates, adv_state, adv_params)
            adv_updates = tree_util.tree_map(lambda x: -x, adv_updates)
            adv_params = apply_updates(adv_params, adv_updates)
            adv_updates = grad_fn(adv_params, i)
            if batch_axis_name is not None:
                adv_updates = lax.pmean(adv_updates, axis_name=batch_axis_name)
        if reset_state:
            adv_state = adv_optimizer.init(params)
        updates, opt_state = optimizer.update(adv_updates, state.opt_state, params)
        return updates, SAMState(
            steps_since_sync=jnp.zeros(shape=(), dtype=jnp.int32),
            opt_state=opt_state,
            adv_state=adv_state,
            cache=None,
        )

    return GradientTransformationExtraArgs(
        init_fn, opaque_update_fn if opaque_mode else transparent_update_fn
    )
