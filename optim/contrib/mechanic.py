"""Mechanic (Cutkosky et al., 2023): learns a scale for any base optimizer's updates.

`mechanize(base_optimizer)` treats the base optimizer's accumulated updates as a direction `delta`
from the initial parameters `x0` and learns the step `s` along it by online betting with
`num_betas` EMA horizons (`beta_i = 1 - 0.1**i`); the parameters become `x0 - sum(s) * delta`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import core.numpy as jnp
from core import lax, tree_util
from optim import tree
from optim.base import (
    GradientTransformation,
    GradientTransformationExtraArgs,
    with_extra_args_support,
)
from optim.errors import MissingParamsError
from optim.numerics import safe_increment


class MechanicState(NamedTuple):
    """State of `mechanize`."""

    base_optimizer_state: Any
    count: Any  # shape=(), dtype=int32.
    r: Any
    m: Any
    v: Any
    s: Any
    x0: Any


def mechanize(
    base_optimizer: GradientTransformation,
    weight_decay: Any = 1e-2,
    eps: Any = 1e-8,
    s_init: Any = 1e-6,
    num_betas: int = 6,
) -> GradientTransformationExtraArgs:
    """Wraps `base_optimizer` with Mechanic's learned scale.

    Args:
      base_optimizer: the optimizer whose updates give the direction.
      weight_decay: Mechanic's own weight decay (relative to the gradient norm).
      eps: small constant for the divisions.
      s_init: the initial scale (split over the betas).
      num_betas: number of EMA horizons.

    Returns:
      A `GradientTransformationExtraArgs` with state `MechanicState`.
    """
    base_optimizer = with_extra_args_support(base_optimizer)

    def init_fn(params):
        dtype = tree.dtype(params, "lowest")
        return MechanicState(
            base_optimizer_state=base_optimizer.init(params),
            count=jnp.zeros([], jnp.int32),
            r=jnp.zeros([num_betas], dtype=dtype),
            m=jnp.zeros([num_betas], dtype=dtype),
            v=jnp.zeros([num_betas], dtype=dtype),
            s=jnp.ones([num_betas], dtype=dtype) * s_init,
            x0=params,
        )

    def update_fn(updates, state, params=None, **extra_args):
        if params is None:
            raise MissingParamsError("mechanize")
        count_inc = safe_increment(state.count)
        new_neg_updates, base_state = base_optimizer.update(
            updates, state.base_optimizer_state, params, **extra_args
        )
        x0 = lax.cond(state.count == 0, lambda: params, lambda: state.x0)
        s_sum = jnp.sum(state.s)
        grad_norm = tree.norm(updates)
        param_norm = tree.norm(params)
        updates = tree_util.tree_map(
            lambda g, p: g + weight_decay * s_sum * grad_norm / (param_norm + eps) * p,
            updates,
            params,
        )
        delta_prev = tree_util.tree_map(lambda xt, x0i: (x0i - xt) / (s_sum + eps), params, x0)
        delta = tree_util.tree_map(lambda d, u: d - u, delta_prev, new_neg_updates)
        h = tree.vdot(updates, delta_prev)
        clipped_h = lax.clamp(-state.m, jnp.ones_like(state.m) * h, state.m)
        betas = jnp.array([1.0 - 0.1**i for i in range(1, num_betas + 1)], dtype=state.s.dtype)
        m = jnp.maximum(betas * state.m, jnp.abs(h) + eps)
        v = betas**2 * state.v + h**2
        r = betas * state.r + clipped_h * state.s
        wealth = s_init / jnp.size(betas) * m + jnp.maximum(0.0, r)
        s = wealth / (jnp.sqrt(v) + eps)
        new_params = tree_util.tree_map(lambda x0i, d: x0i - jnp.sum(s) * d, x0, delta)
        new_updates = tree_util.tree_map(lambda n, o: n - o, new_params, params)
        return new_updates, MechanicState(
            base_optimizer_state=base_state, count=count_inc, r=r, m=m, v=v, s=s, x0=x0
        )

    return GradientTransformationExtraArgs(init_fn, update_fn)
