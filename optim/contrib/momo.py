"""MoMo and MoMo-Adam (Schaipp et al., 2023): model-based momentum with Polyak-like step sizes.

The step size is `min(learning_rate, (f_bar - lb - gamma + <d, x>)_+ / ||d||^2)` from momentum
averages of the loss `f_bar`, the gradient `d` and `<g, x>` (`gamma`); `lower_bound` is a lower
bound of the loss (0 for most losses), optionally adapted online. `update` needs the loss:
`tx.update(grads, state, params, value=loss)`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

import core.numpy as jnp
from core import lax, tree_util
from optim import tree
from optim.base import GradientTransformationExtraArgs, ScalarOrSchedule
from optim.errors import MissingLossValueError, MissingParamsError
from optim.numerics import safe_increment

_EPS = float(np.finfo(float).eps)


def _check_value(value: Any, name: str) -> None:
    if value is None:
        raise MissingLossValueError(name)


class MomoState(NamedTuple):
    """State of `momo`."""

    exp_avg: Any
    barf: Any
    gamma: Any
    lb: Any
    count: Any


def momo(
    learning_rate: ScalarOrSchedule = 1.0,
    beta: Any = 0.9,
    lower_bound: Any = 0.0,
    weight_decay: Any = 0.0,
    adapt_lower_bound: bool = False,
) -> GradientTransformationExtraArgs:
    """MoMo: SGD with momentum and model-based adaptive step sizes.

    Args:
      learning_rate: the largest step size (a float or schedule).
      beta: momentum of the loss, gradient and inner-product averages.
      lower_bound: a lower bound of the loss.
      weight_decay: decoupled weight decay.
      adapt_lower_bound: estimate the lower bound online.

    Returns:
      A `GradientTransformationExtraArgs` whose `update` needs `value=`; state `MomoState`.
    """

    def init_fn(params):
        dtype = tree.dtype(params, "lowest")
        return MomoState(
            exp_avg=tree.zeros_like(params),
            barf=jnp.zeros([], dtype=dtype),
            gamma=jnp.zeros([], dtype=dtype),
            lb=jnp.array(lower_bound, dtype=dtype),
            count=jnp.zeros([], jnp.int32),
        )

    def update_fn(updates, state, params, *, value=None, **extra_args):
        del extra_args
        if params is None:
            raise MissingParamsError("momo")
        _check_value(value, "momo")
        count = state.count
        bt = jnp.where(count == 0, 0.0, beta)
        barf = bt * state.barf + (1 - bt) * jnp.asarray(value, dtype=state.barf.dtype)
        exp_avg = tree_util.tree_map(lambda ea, g: bt * ea + (1 - bt) * g, state.exp_avg, updates)
        gamma = bt * state.gamma + (1 - bt) * tree.vdot(updates, params)
        exp_avg_norm = tree.norm(exp_avg, squared=True)
        iprod = tree.vdot(exp_avg, params)
        alpha = learning_rate(count) if callable(learning_rate) else learning_rate
        decay = 1 + alpha * weight_decay
        if adapt_lower_bound:
            cap = decay * (barf - gamma) + iprod
            this_lb = lax.cond(
                cap < decay * state.lb,
                lambda: jnp.maximum(cap / (2 * decay), lower_bound),
                lambda: state.lb,
            )
        else:
            this_lb = state.lb
        t1 = jnp.maximum(decay * (barf - this_lb - gamma) + iprod, 0.0) / exp_avg_norm
        t1 = jnp.where(exp_avg_norm <= _EPS, 0.0, t1)
        tau = jnp.minimum(alpha, t1)
        p_update = tree_util.tree_map(
            lambda ea, p: -(alpha * weight_decay) / decay * p - tau * ea, exp_avg, params
        )
        if adapt_lower_bound:
            new_lb = jnp.maximum(barf + iprod - gamma - 1 / 2 * tau * exp_avg_norm, lower_bound)
        else:
            new_lb = state.lb
        return p_update, MomoState(exp_avg, barf, gamma, new_lb, safe_increment(count))

    return GradientTransformationExtraArgs(init_fn, update_fn)


class MomoAdamState(NamedTuple):
    """State of `momo_adam`."""

    exp_avg: Any
    exp_avg_sq: Any
    barf: Any
    gamma: Any
    lb: Any
    count: Any


def momo_adam(
    learning_rate: ScalarOrSchedule = 1e-2,
    b1: Any = 0.9,
    b2: Any = 0.999,
    eps: Any = 1e-8,
    lower_bound: Any = 0.0,
    weight_decay: Any = 0.0,
    adapt_lower_bound: bool = False,
) -> GradientTransformationExtraArgs:
    """MoMo-Adam: MoMo's step sizes with Adam's preconditioner.

    Args:
      learning_rate: the largest step size (a float or schedule).
      b1: momentum of the loss, gradient and inner-product averages.
      b2: decay of the second moment.
      eps: added to the root of the second moment.
      lower_bound: a lower bound of the loss.
      weight_decay: decoupled weight decay.
      adapt_lower_bound: estimate the lower bound online.

    Returns:
      A `GradientTransformationExtraArgs` whose `update` needs `value=`; state `MomoAdamState`.
    """

    def init_fn(params):
        dtype = tree.dtype(params, "lowest")
        return MomoAdamState(
            exp_avg=tree.zeros_like(params),
            exp_avg_sq=tree.zeros_like(params),
            barf=jnp.zeros([], dtype=dtype),
            gamma=jnp.zeros([], dtype=dtype),
            lb=jnp.array(lower_bound, dtype=dtype),
            count=jnp.zeros([], jnp.int32),
        )

    def update_fn(updates, state, params, *, value=None, **extra_args):
        del extra_args
        if params is None:
            raise MissingParamsError("momo_adam")
        _check_value(value, "momo_adam")
        count = state.count
        count_inc = safe_increment(count)
        barf = b1 * state.barf + (1 - b1) * jnp.asarray(value, dtype=state.barf.dtype)
        exp_avg = tree_util.tree_map(lambda ea, g: b1 * ea + (1 - b1) * g, state.exp_avg, updates)
        exp_avg_sq = tree_util.tree_map(
            lambda eas, g: b2 * eas + (1 - b2) * g * g, state.exp_avg_sq, updates
        )
        bc2 = jnp.asarray(1 - b2**count_inc, dtype=barf.dtype)
        precond = tree_util.tree_map(lambda eas: eps + jnp.sqrt(eas / bc2), exp_avg_sq)
        exp_avg_weighted = tree_util.tree_map(lambda ea, pr: ea / pr, exp_avg, precond)
        exp_avg_norm = tree.vdot(exp_avg, exp_avg_weighted)
        gamma = b1 * state.gamma + (1 - b1) * tree.vdot(updates, params)
        iprod = tree.vdot(exp_avg, params)
        alpha = learning_rate(count) if callable(learning_rate) else learning_rate
        bc1 = jnp.asarray(1 - b1**count_inc, dtype=barf.dtype)
        decay = 1 + alpha * weight_decay
        if adapt_lower_bound:
            cap = decay * (barf - gamma) + iprod
            this_lb = jnp.where(
                cap < decay * bc1 * state.lb,
                jnp.maximum(cap / (2 * bc1 * decay), lower_bound),
                state.lb,
            )
        else:
            this_lb = state.lb
        t1 = jnp.maximum(decay * (barf - bc1 * this_lb - gamma) + iprod, 0.0) / exp_avg_norm
        t1 = jnp.where(exp_avg_norm <= _EPS, 0.0, t1)
        tau = jnp.minimum(alpha / bc1, t1)
        p_update = tree_util.tree_map(
            lambda ea, pr, p: -(alpha * weight_decay) / decay * p - tau * ea / pr,
            exp_avg,
            precond,
            params,
        )
        if adapt_lower_bound:
            new_lb = (barf + iprod - gamma - 1 / 2 * tau * exp_avg_norm) / bc1
            new_lb = jnp.maximum(new_lb, lower_bound)
        else:
            new_lb = state.lb
        return p_update, MomoAdamState(exp_avg, exp_avg_sq, barf, gamma, new_lb, count_inc)

    return GradientTransformationExtraArgs(init_fn, update_fn)
