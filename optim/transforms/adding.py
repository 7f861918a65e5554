"""Adding to the updates: decoupled weight decay and annealed Gaussian noise.

`add_decayed_weights(wd, mask)` adds `wd * param`; placed before `scale_by_learning_rate` (as in
`adamw`) the decay is multiplied by the learning rate, like PyTorch's AdamW. `mask` (a pytree of
bools or a function `params -> pytree of bools`) selects which parameters decay, typically not
biases and norm scales.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import core.numpy as jnp
from core import random, tree_util
from optim import tree
from optim.base import EmptyState, GradientTransformation, ScalarOrSchedule
from optim.errors import MissingParamsError
from optim.numerics import safe_increment
from optim.utils import canonicalize_key, key_or_seed
from optim.wrappers import masked

AddDecayedWeightsState = EmptyState


class WeightDecaySchedule(NamedTuple):
    """State of `add_decayed_weights` when the decay is a schedule."""

    count: Any  # shape=(), dtype=int32.


class AddNoiseState(NamedTuple):
    """State of `add_noise`."""

    count: Any  # shape=(), dtype=int32.
    rng_key: Any


def add_decayed_weights(
    weight_decay: ScalarOrSchedule = 0.0, mask: Any | Callable[[Any], Any] | None = None
) -> GradientTransformation:
    """Adds `weight_decay * param` to each update.

    Args:
      weight_decay: the coefficient, or a schedule of the update count.
      mask: pytree of bools (or a function of the params returning one); `True` = decay.

    Returns:
      A `GradientTransformation` that needs `params`.
    """

    scheduled = callable(weight_decay)
    # A literal zero coefficient adds nothing: the updates pass through untouched.
    adds_nothing = isinstance(weight_decay, (int, float)) and weight_decay == 0.0

    def init_fn(params):
        del params
        return WeightDecaySchedule(count=jnp.zeros([], jnp.int32)) if scheduled else EmptyState()

    def update_fn(updates, state, params):
        if params is None:
            raise MissingParamsError("add_decayed_weights")
        next_state = WeightDecaySchedule(count=safe_increment(state.count)) if scheduled else state
        if adds_nothing:
            return updates, next_state
        rate = weight_decay(state.count) if scheduled else weight_decay

        def decayed(g, p):
            # Updates that are None (frozen leaves) stay None.
            return None if g is None else g + rate * p

        return tree_util.tree_map(decayed, updates, params, is_leaf=_is_none), next_state

    tx = GradientTransformation(init_fn, update_fn)
    return tx if mask is None else masked(tx, mask)


def _is_none(x: Any) -> bool:
    return x is None


def add_noise(
    eta: Any, gamma: Any, key: Any = None, *, seed: int | None = None
) -> GradientTransformation:
    """Adds Gaussian noise of variance `eta / (1 + t)**gamma` (Neelakantan et al., 2015).

    Args:
      eta: the initial variance.
      gamma: the decay exponent of the variance.
      key: a typed PRNG key or an integer seed (default 0, with a warning as in Optax).
      seed: deprecated alias of `key` (warns).

    Returns:
      A `GradientTransformation` with state `AddNoiseState(count, rng_key)`.

    Raises:
      OptimizerArgumentError: both `key` and `seed` given (a `ValueError`).
    """
    key = key_or_seed(key, seed)

    def init_fn(params):
        del params
        return AddNoiseState(count=jnp.zeros([], jnp.int32), rng_key=canonicalize_key(key))

    def update_fn(updates, state, params=None):
        del params
        count_inc = safe_increment(state.count)
        stddev = jnp.sqrt(eta / count_inc**gamma)
        rng_key, sample_key = random.split(state.rng_key)
        noise = tree.random_like(sample_key, updates, sampler=random.normal)
        updates = tree.add_scale(updates, stddev, noise)
        return updates, AddNoiseState(count=count_inc, rng_key=rng_key)

    return GradientTransformation(init_fn, update_fn)
