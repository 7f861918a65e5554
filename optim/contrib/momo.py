"""MoMo and MoMo-Adam (Schaipp et al., 2023): model-based momentum with Polyak-like step sizes.

The step size is `min(learning_rate, (f_bar - lb - gamma + <d, x>)_+ / ||d||^2)` from momentum
averages of the loss `f_bar`, the gradient `d` and `<g, x>` (`gamma`); `lower_bound` is a lower
bound of the loss (0 for most losses), optionally adapted online. `update` needs the loss:
`tx.update(grads, state, params, value=loss)`.
"""

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


def _model_step(decay: Any, loss_avg: Any, bound: Any, gamma: Any, iprod: Any, sq_norm: Any) -> Any:
    """The step size at which the momentum model of the loss meets `bound`, clipped at 0; 0 when
    the model's slope `sq_norm` vanishes."""
    gap = decay * (loss_avg - bound - gamma) + iprod
    step = jnp.maximum(gap, 0.0) / sq_norm
    return jnp.where(sq_norm <= _EPS, 0.0, step)


def _learning_rate_at(learning_rate: ScalarOrSchedule, count: Any) -> Any:
    return learning_rate(count) if callable(learning_rate) else learning_rate


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
        # The averages start at the first observations: no momentum on step 0.
        b = jnp.where(state.count == 0, 0.0, beta)

        def average(old, new):
            return b * old + (1 - b) * new

        loss_avg = average(state.barf, jnp.asarray(value, dtype=state.barf.dtype))
        direction = tree_util.tree_map(average, state.exp_avg, updates)
        # <g, x> averaged like the loss: the model's offset.
        gamma = b * state.gamma + (1 - b) * tree.vdot(updates, params)
        sq_norm = tree.norm(direction, squared=True)
        iprod = tree.vdot(direction, params)
        lr = _learning_rate_at(learning_rate, state.count)
        decay = 1 + lr * weight_decay
        bound = state.lb
        if adapt_lower_bound:
            reachable = decay * (loss_avg - gamma) + iprod
            bound = lax.cond(
                reachable < decay * state.lb,
                lambda: jnp.maximum(reachable / (2 * decay), lower_bound),
                lambda: state.lb,
            )
        tau = jnp.minimum(lr, _model_step(decay, loss_avg, bound, gamma, iprod, sq_norm))
        shrink = -(lr * weight_decay) / decay
        step = tree_util.tree_map(lambda d, p: shrink * p - tau * d, direction, params)
        next_lb = state.lb
        if adapt_lower_bound:
            next_lb = jnp.maximum(loss_avg + iprod - gamma - 0.5 * tau * sq_norm, lower_bound)
        new_state = MomoState(direction, loss_avg, gamma, next_lb, safe_increment(state.count))
        return step, new_state

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

        def average(old, new):
            return b1 * old + (1 - b1) * new

        barf = average(state.barf, jnp.asarray(value, dtype=state.barf.dtype))
        exp_avg = tree_util.tree_map(average, state.exp_avg, updates)
        exp_avg_sq = tree_util.tree_map(
            lambda eas, g: b2 * eas + (1 - b2) * g * g, state.exp_avg_sq, updates
        )
        bc2 = jnp.asarray(1 - b2**count_inc, dtype=barf.dtype)
        precond = tree_util.tree_map(lambda eas: eps + jnp.sqrt(eas / bc2), exp_avg_sq)
        exp_avg_weighted = tree_util.tree_map(lambda ea, pr: ea / pr, exp_avg, precond)
        exp_avg_norm = tree.vdot(exp_avg, exp_avg_weighted)
        gamma = b1 * state.gamma + (1 - b1) * tree.vdot(updates, params)
        iprod = tree.vdot(exp_avg, params)
        alpha = _learning_rate_at(learning_rate, count)
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
        t1 = _model_step(decay, barf, bc1 * this_lb, gamma, iprod, exp_avg_norm)
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
