"""DoG and DoWG (Ivgi et al., 2023; Khaled et al., 2023): distance-over-gradients step sizes.

DoG's step is `max_dist / sqrt(sum ||g||^2 + eps)`, where `max_dist` is the largest distance from
the initial parameters so far (started at `r_epsilon`, chosen by `init_step`); DoWG weights the
gradient norms by the squared distance estimate.
"""

from collections.abc import Callable
from typing import Any, Literal, NamedTuple

import core.numpy as jnp
from optim import tree
from optim.base import GradientTransformation, ScalarOrSchedule, identity
from optim.combine import chain
from optim.errors import MissingParamsError, OptimizerArgumentError
from optim.transforms import add_decayed_weights, scale_by_learning_rate

InitStep = tuple[Literal["distance", "learning_rate", "heuristic"], Any]


class DoGState(NamedTuple):
    """State of `scale_by_dog`."""

    is_init_step: Any
    init_params: Any
    max_dist: Any
    sum_sq_norm_grads: Any


def scale_by_dog(init_step: InitStep, eps: Any = 1e-8) -> GradientTransformation:
    """DoG's step size.

    Args:
      init_step: `("distance", r)`: the first distance estimate is r; `("heuristic", c)`:
        `c * (1 + ||params||)`; `("learning_rate", lr)`: the first step uses lr.
      eps: added under the root of the summed squared gradient norms.

    Returns:
      A `GradientTransformation` with state `DoGState`.

    Raises:
      OptimizerArgumentError: an unknown `init_step` kind (at `init`, a `ValueError`).
    """
    kind, value = init_step

    def init_fn(params):
        dtype = tree.dtype(params, "lowest")
        if kind == "distance":
            r_epsilon = value
        elif kind == "heuristic":
            r_epsilon = value * (1 + tree.norm(params))
        elif kind == "learning_rate":
            r_epsilon = 0.0
        else:
            raise OptimizerArgumentError(
                f"Invalid init_step specification for scale_by_dog: init_step_type={kind!r}; "
                "use 'distance', 'learning_rate' or 'heuristic'."
            )
        return DoGState(
            is_init_step=jnp.asarray(True),
            init_params=params,
            max_dist=jnp.asarray(r_epsilon, dtype=dtype),
            sum_sq_norm_grads=jnp.asarray(0.0, dtype=dtype),
        )

    def update_fn(updates, state, params=None):
        if params is None:
            raise MissingParamsError("scale_by_dog")
        dist = tree.norm(tree.sub(state.init_params, params))
        max_dist = jnp.maximum(state.max_dist, dist)
        sum_sq = state.sum_sq_norm_grads + tree.norm(updates, squared=True)
        learning_rate = max_dist / jnp.sqrt(sum_sq + eps)
        if kind == "learning_rate":
            learning_rate = jnp.where(state.is_init_step, value, learning_rate)
        return tree.scale(learning_rate, updates), DoGState(
            is_init_step=jnp.asarray(False),
            init_params=state.init_params,
            max_dist=max_dist,
            sum_sq_norm_grads=sum_sq,
        )

    return GradientTransformation(init_fn, update_fn)


def dog(
    learning_rate: ScalarOrSchedule = 1.0,
    init_step: InitStep = ("heuristic", 1e-6),
    eps: Any = 1e-8,
    weight_decay: Any = None,
    mask: Any | Callable[[Any], Any] | None = None,
) -> GradientTransformation:
    """Distance over Gradients.

    Args:
      learning_rate: multiplies DoG's step (keep it at 1).
      init_step: see `scale_by_dog`.
      eps: see `scale_by_dog`.
      weight_decay: L2 weight decay added to the gradient (None: none).
      mask: which parameters get weight decay.

    Returns:
      A `GradientTransformation` (a `chain`).
    """
    return chain(
        add_decayed_weights(weight_decay, mask) if weight_decay is not None else identity(),
        scale_by_dog(init_step, eps),
        scale_by_learning_rate(learning_rate),
    )


class DoWGState(NamedTuple):
    """State of `scale_by_dowg`."""

    init_params: Any
    weighted_sq_norm_grads: Any
    estim_sq_dist: Any


def scale_by_dowg(init_estim_sq_dist: Any = None, eps: Any = 1e-4) -> GradientTransformation:
    """DoWG's step size.

    Args:
      init_estim_sq_dist: the first squared-distance estimate (default `eps`).
      eps: added to the root of the weighted gradient norms.

    Returns:
      A `GradientTransformation` with state `DoWGState`.
    """

    def init_fn(params):
        dtype = tree.dtype(params, "lowest")
        first = eps if init_estim_sq_dist is None else init_estim_sq_dist
        return DoWGState(
            init_params=params,
            weighted_sq_norm_grads=jnp.asarray(0.0, dtype=dtype),
            estim_sq_dist=jnp.asarray(first, dtype=dtype),
        )

    def update_fn(updates, state, params=None):
        if params is None:
            raise MissingParamsError("scale_by_dowg")
        curr = tree.norm(tree.sub(state.init_params, params), squared=True)
        estim_sq_dist = jnp.maximum(state.estim_sq_dist, curr)
        weighted = estim_sq_dist * tree.norm(updates, squared=True) + state.weighted_sq_norm_grads
        learning_rate = estim_sq_dist / (jnp.sqrt(weighted) + eps)
        return tree.scale(learning_rate, updates), state._replace(
            estim_sq_dist=estim_sq_dist, weighted_sq_norm_grads=weighted
        )

    return GradientTransformation(init_fn, update_fn)


def dowg(
    learning_rate: ScalarOrSchedule = 1.0,
    init_estim_sq_dist: Any = None,
    eps: Any = 1e-4,
    weight_decay: Any = None,
    mask: Any | Callable[[Any], Any] | None = None,
) -> GradientTransformation:
    """Distance over Weighted Gradients.

    Args:
      learning_rate: multiplies DoWG's step (keep it at 1).
      init_estim_sq_dist: see `scale_by_dowg`.
      eps: see `scale_by_dowg`.
      weight_decay: L2 weight decay added to the gradient (None: none).
      mask: which parameters get weight decay.

    Returns:
      A `GradientTransformation` (a `chain`).
    """
    return chain(
        add_decayed_weights(weight_decay, mask) if weight_decay is not None else identity(),
        scale_by_dowg(init_estim_sq_dist, eps),
        scale_by_learning_rate(learning_rate),
    )
