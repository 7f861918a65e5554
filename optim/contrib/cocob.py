"""COCOB-Backprop (Orabona & Tommasi, 2017): learning-rate-free coin-betting per coordinate.

Each coordinate bets a fraction of its accumulated "reward" on the sign of the sum of negative
gradients; `alpha` bounds the bet early on, `eps` is the initial gradient-scale estimate.
"""

from collections.abc import Callable
from typing import Any, NamedTuple

import core.numpy as jnp
from core import tree_util
from optim import tree
from optim.base import GradientTransformation, ScalarOrSchedule
from optim.combine import chain
from optim.errors import MissingParamsError
from optim.transforms import add_decayed_weights, scale_by_learning_rate


class COCOBState(NamedTuple):
    """State of `scale_by_cocob`."""

    init_particles: Any
    cumulative_gradients: Any
    scale: Any
    subgradients: Any
    reward: Any


def scale_by_cocob(alpha: Any = 100.0, eps: Any = 1e-8) -> GradientTransformation:
    """COCOB-Backprop's step (it replaces the learning rate).

    Args:
      alpha: bounds the bets of the first steps.
      eps: the initial estimate of the gradients' scale.

    Returns:
      A `GradientTransformation` with state `COCOBState`.
    """

    def init_fn(params):
        zeros = tree.zeros_like(params)
        return COCOBState(
            init_particles=params,
            cumulative_gradients=zeros,
            scale=tree.scale(eps, tree.ones_like(params)),
            subgradients=zeros,
            reward=zeros,
        )

    def update_fn(updates, state, params):
        if params is None:
            raise MissingParamsError("scale_by_cocob")
        p0 = state.init_particles
        scale = tree_util.tree_map(lambda s, c: jnp.maximum(s, jnp.abs(c)), state.scale, updates)
        subgradients = tree_util.tree_map(lambda g, c: g + jnp.abs(c), state.subgradients, updates)
        reward = tree_util.tree_map(
            lambda r, c, p, q: jnp.maximum(r - c * (p - q), 0), state.reward, updates, params, p0
        )
        cumulative = tree_util.tree_map(lambda s, c: s - c, state.cumulative_gradients, updates)
        new_updates = tree_util.tree_map(
            lambda p, q, c, s, g, r: -p + (q + c / (s * jnp.maximum(g + s, alpha * s)) * (s + r)),
            params,
            p0,
            cumulative,
            scale,
            subgradients,
            reward,
        )
        return new_updates, COCOBState(p0, cumulative, scale, subgradients, reward)

    return GradientTransformation(init_fn, update_fn)


def cocob(
    learning_rate: ScalarOrSchedule = 1.0,
    alpha: Any = 100.0,
    eps: Any = 1e-8,
    weight_decay: Any = 0.0,
    mask: Any | Callable[[Any], Any] | None = None,
) -> GradientTransformation:
    """COCOB-Backprop with weight decay.

    Args:
      learning_rate: multiplies the step (keep it at 1).
      alpha: bounds the bets of the first steps.
      eps: the initial estimate of the gradients' scale.
      weight_decay: L2 weight decay added to the gradient.
      mask: which parameters get weight decay (a tree of bools or a function of the params).

    Returns:
      A `GradientTransformation` (a `chain`).
    """
    return chain(
        add_decayed_weights(weight_decay, mask),
        scale_by_learning_rate(learning_rate, flip_sign=False),
        scale_by_cocob(alpha, eps),
    )
