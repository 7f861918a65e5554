"""Learning-rate-free Adam: D-Adaptation (Defazio & Mishchenko, 2023) and Prodigy (Mishchenko &
Defazio, 2023).

Both estimate the distance to the solution `D` (`estim_lr`, starting at `estim_lr0`) from the
correlation of past gradients with the distance travelled, and scale an Adam step by it; the
`learning_rate` argument multiplies that estimate (keep it at 1, or use it as a schedule).
"""

from typing import Any, NamedTuple

import core.numpy as jnp
from core import tree_util
from optim import tree
from optim.base import GradientTransformationExtraArgs, ScalarOrSchedule
from optim.errors import MissingParamsError
from optim.numerics import safe_increment


class DAdaptAdamWState(NamedTuple):
    """State of `dadapt_adamw`."""

    exp_avg: Any
    exp_avg_sq: Any
    grad_sum: Any
    estim_lr: Any
    numerator_weighted: Any
    count: Any


def dadapt_adamw(
    learning_rate: ScalarOrSchedule = 1.0,
    betas: tuple[Any, Any] = (0.9, 0.999),
    eps: Any = 1e-8,
    estim_lr0: Any = 1e-6,
    weight_decay: Any = 0.0,
) -> GradientTransformationExtraArgs:
    """AdamW with D-Adaptation of the learning rate.

    Args:
      learning_rate: multiplier of the estimated learning rate (a float or schedule).
      betas: Adam's `(b1, b2)`.
      eps: added to the root of the second moment.
      estim_lr0: the initial distance estimate.
      weight_decay: decoupled weight decay.

    Returns:
      A `GradientTransformationExtraArgs` with state `DAdaptAdamWState`.
    """

    def init_fn(params):
        dtype = tree.dtype(params, "lowest")
        return DAdaptAdamWState(
            exp_avg=tree.zeros_like(params),
            exp_avg_sq=tree.zeros_like(params),
            grad_sum=tree.zeros_like(params),
            estim_lr=jnp.asarray(estim_lr0, dtype=dtype),
            numerator_weighted=jnp.zeros([], dtype=dtype),
            count=jnp.zeros([], jnp.int32),
        )

    def update_fn(updates, state, params=None, **extra_args):
        del extra_args
        if params is None:
            raise MissingParamsError("dadapt_adamw")
        beta1, beta2 = betas
        sb2 = beta2**0.5
        sched = learning_rate(state.count) if callable(learning_rate) else learning_rate
        count_inc = safe_increment(state.count)
        bc = (1 - beta2**count_inc) ** 0.5 / (1 - beta1**count_inc)
        dlr = (state.estim_lr * sched * bc).astype(state.numerator_weighted.dtype)
        s_weighted = tree_util.tree_map(
            lambda sk, eas: sk / (jnp.sqrt(eas) + eps), state.grad_sum, state.exp_avg_sq
        )
        numerator_acum = tree.vdot(updates, s_weighted)
        exp_avg = tree_util.tree_map(
            lambda ea, g: beta1 * ea + (1 - beta1) * dlr * g, state.exp_avg, updates
        )
        exp_avg_sq = tree_util.tree_map(
            lambda eas, g: beta2 * eas + (1 - beta2) * g * g, state.exp_avg_sq, updates
        )
        grad_sum = tree_util.tree_map(
            lambda sk, g: sb2 * sk + (1 - sb2) * dlr * g, state.grad_sum, updates
        )
        grad_sum_l1 = tree.sum(tree_util.tree_map(jnp.abs, grad_sum))
        numerator_weighted = sb2 * state.numerator_weighted + (1 - sb2) * dlr * numerator_acum
        d_estimate = numerator_weighted / ((1 - sb2) * grad_sum_l1)
        estim_lr = jnp.maximum(state.estim_lr, d_estimate)
        p_update = tree_util.tree_map(
            lambda ea, eas, p: -weight_decay * dlr * p - ea / (jnp.sqrt(eas) + eps),
            exp_avg,
            exp_avg_sq,
            params,
        )
        return p_update, DAdaptAdamWState(
            exp_avg, exp_avg_sq, grad_sum, estim_lr, numerator_weighted, count_inc
        )

    return GradientTransformationExtraArgs(init_fn, update_fn)


class ProdigyState(NamedTuple):
    """State of `prodigy` (`params0` are the initial parameters)."""

    exp_avg: Any
    exp_avg_sq: Any
    grad_sum: Any
    params0: Any
    estim_lr: Any
    numerator_weighted: Any
    count: Any


def prodigy(
    learning_rate: ScalarOrSchedule = 1.0,
    betas: tuple[Any, Any] = (0.9, 0.999),
    beta3: Any = None,
    eps: Any = 1e-8,
    estim_lr0: Any = 1e-6,
    estim_lr_coef: Any = 1.0,
    weight_decay: Any = 0.0,
    safeguard_warmup: bool = False,
) -> GradientTransformationExtraArgs:
    """Prodigy: D-Adaptation with a faster-growing distance estimate.

    Args:
      learning_rate: multiplier of the estimated learning rate (a float or schedule).
      betas: Adam's `(b1, b2)`.
      beta3: decay of the numerator and gradient sums (default `sqrt(b2)`).
      eps: added to the root of the second moment (times the estimate).
      estim_lr0: the initial distance estimate.
      estim_lr_coef: multiplier of the new estimate.
      weight_decay: decoupled weight decay.
      safeguard_warmup: leave the learning rate out of the gradient sum (for warmup schedules).

    Returns:
      A `GradientTransformationExtraArgs` with state `ProdigyState`.
    """
    beta1, beta2 = betas
    if beta3 is None:
        beta3 = beta2**0.5

    def init_fn(params):
        dtype = tree.dtype(params, "lowest")
        return ProdigyState(
            exp_avg=tree.zeros_like(params),
            exp_avg_sq=tree.zeros_like(params),
            grad_sum=tree.zeros_like(params),
            params0=params,
            estim_lr=jnp.asarray(estim_lr0, dtype=dtype),
            numerator_weighted=jnp.zeros((), dtype=dtype),
            count=jnp.zeros((), jnp.int32),
        )

    def update_fn(updates, state, params=None, **extra_args):
        del extra_args
        if params is None:
            raise MissingParamsError("prodigy")
        count_inc = safe_increment(state.count)
        sched = learning_rate(state.count) if callable(learning_rate) else learning_rate
        estim_lr = state.estim_lr
        bc = (1 - beta2**count_inc) ** 0.5 / (1 - beta1**count_inc)
        dlr = jnp.asarray(estim_lr * sched * bc, dtype=estim_lr.dtype)
        dg = tree_util.tree_map(lambda g: estim_lr * g, updates)
        param_diff = tree_util.tree_map(lambda p0, p: p0 - p, state.params0, params)
        numerator_acum = tree.vdot(updates, param_diff)
        exp_avg = tree_util.tree_map(lambda ea, d: beta1 * ea + (1 - beta1) * d, state.exp_avg, dg)
        exp_avg_sq = tree_util.tree_map(
            lambda eas, d: beta2 * eas + (1 - beta2) * d * d, state.exp_avg_sq, dg
        )
        step = estim_lr if safeguard_warmup else dlr
        grad_sum = tree_util.tree_map(
            lambda sk, d: beta3 * sk + step * d / estim_lr0, state.grad_sum, dg
        )
        numerator_weighted = beta3 * state.numerator_weighted
        numerator_weighted += estim_lr / estim_lr0 * dlr * numerator_acum
        denominator = tree.sum(tree_util.tree_map(jnp.abs, grad_sum))
        lr_estimate = estim_lr_coef * numerator_weighted / denominator
        new_estim_lr = jnp.maximum(state.estim_lr, lr_estimate)
        p_update = tree_util.tree_map(
            lambda ea, eas, p: (
                -weight_decay * dlr * p - dlr * ea / (jnp.sqrt(eas) + new_estim_lr * eps)
            ),
            exp_avg,
            exp_avg_sq,
            params,
        )
        return p_update, ProdigyState(
            exp_avg,
            exp_avg_sq,
            grad_sum,
            state.params0,
            new_estim_lr,
            numerator_weighted,
            count_inc,
        )

    return GradientTransformationExtraArgs(init_fn, update_fn)
