"""Sophia (Liu et al., 2023): Adam-like steps preconditioned by a clipped diagonal Hessian.

The diagonal Hessian estimate comes from `hessian_diagonal_fn` (by default Hutchinson's
estimator `E[v * (H v)]` with Rademacher `v`, which needs the objective: pass `obj_fn=` to
`update`) every `update_interval` steps; the step `mu_hat / max(gamma * h, eps)` is clipped to
`[-clip_threshold, clip_threshold]`.
"""

from collections.abc import Callable
from typing import Any, NamedTuple

import core
import core.numpy as jnp
from core import dtypes, lax, random, tree_util
from optim import tree
from optim.base import (
    GradientTransformation,
    GradientTransformationExtraArgs,
    ScalarOrSchedule,
    with_extra_args_support,
)
from optim.combine import chain
from optim.errors import MissingParamsError, OptimizerArgumentError
from optim.numerics import safe_int32_increment
from optim.transforms import add_decayed_weights, scale_by_learning_rate


class HutchinsonState(NamedTuple):
    """State of `hutchinson_estimator_diag_hessian`: the key of the random signs."""

    key: Any


def hutchinson_estimator_diag_hessian(random_seed: Any = None) -> GradientTransformationExtraArgs:
    """Hutchinson's estimator of the Hessian's diagonal: `v * (H v)` for Rademacher `v`.

    Args:
      random_seed: the PRNG key of the signs (default `random.PRNGKey(0)`).

    Returns:
      A `GradientTransformationExtraArgs` whose `update` needs `params` and `obj_fn=`; its
      "updates" are the estimate.
    """

    def init_fn(params):
        del params
        return HutchinsonState(key=random_seed if random_seed is not None else random.PRNGKey(0))

    def update_fn(updates, state, params=None, obj_fn=None, **extra_args):
        del updates, extra_args
        if params is None:
            raise MissingParamsError("hutchinson_estimator_diag_hessian")
        if obj_fn is None:
            raise OptimizerArgumentError(
                "obj_fn must be provided to hutchinson update function.\nCall "
                "tx.update(grads, state, params, obj_fn=loss_of_params)."
            )
        key, subkey = random.split(state.key)
        signs = tree.random_like(subkey, params, random.rademacher, dtype=jnp.float32)
        signs = tree.cast(signs, tree.dtype(params, "lowest"))
        hvp = core.jvp(core.grad(obj_fn), (params,), (signs,))[1]
        return tree_util.tree_map(lambda h, r: h * r, hvp, signs), HutchinsonState(key=key)

    return GradientTransformationExtraArgs(init_fn, update_fn)


class SophiaState(NamedTuple):
    """State of `scale_by_sophia` (`nu` is the EMA of the Hessian diagonal)."""

    count: Any
    mu: Any
    nu: Any
    hessian_fn_state: Any


def scale_by_sophia(
    b1: Any = 0.965,
    b2: Any = 0.99,
    eps: Any = 1e-8,
    gamma: Any = 0.01,
    clip_threshold: Any = 1.0,
    update_interval: Any = 10,
    hessian_diagonal_fn: GradientTransformation | None = None,
    mu_dtype: Any = None,
    verbose: bool = False,
    print_win_rate_every_n_steps: Any = 0,
) -> GradientTransformationExtraArgs:
    """Sophia's rescaling.

    Args:
      b1: decay of the first moment.
      b2: decay of the Hessian-diagonal EMA.
      eps: the smallest denominator.
      gamma: scales the Hessian diagonal.
      clip_threshold: the step's elementwise bound (None: no clipping).
      update_interval: steps between Hessian estimates.
      hessian_diagonal_fn: the estimator (default `hutchinson_estimator_diag_hessian()`).
      mu_dtype: dtype of the first moment.
      verbose: print the fraction of unclipped coordinates.
      print_win_rate_every_n_steps: how often to print it.

    Returns:
      A `GradientTransformationExtraArgs` with state `SophiaState`.
    """
    mu_dtype = None if mu_dtype is None else dtypes.canonicalize_dtype(mu_dtype)
    if hessian_diagonal_fn is None:
        hessian_diagonal_fn = hutchinson_estimator_diag_hessian()
    hessian_diagonal_fn = with_extra_args_support(hessian_diagonal_fn)

    def init_fn(params):
        return SophiaState(
            count=jnp.zeros([], jnp.int32),
            mu=tree.zeros_like(params, dtype=mu_dtype),
            nu=tree.zeros_like(params),
            hessian_fn_state=hessian_diagonal_fn.init(params),
        )

    def update_fn(updates, state, params=None, **hess_fn_kwargs):
        if params is None:
            raise MissingParamsError(
                "scale_by_sophia", "params must be provided to sophia's update function."
            )
        count_inc = safe_int32_increment(state.count)
        grads = updates
        mu = tree.update_moment(updates, state.mu, b1, 1)
        mu_hat = tree.bias_correction(mu, b1, count_inc)
        updates = tree_util.tree_map(lambda m, h: m / jnp.maximum(gamma * h, eps), mu_hat, state.nu)
        if clip_threshold is not None:
            if verbose:
                unclipped = sum(
                    jnp.sum(jnp.abs(u) < clip_threshold) for u in tree_util.tree_leaves(updates)
                )
                win_rate = unclipped / tree.size(updates)
                lax.cond(
                    count_inc % print_win_rate_every_n_steps == 0,
                    lambda: core.debug.print("Sophia optimizer win rate: {}", win_rate),
                    lambda: None,
                )
            updates = tree_util.tree_map(
                lambda u: jnp.clip(u, -clip_threshold, clip_threshold), updates
            )

        def update_hessian_diag(hess_state, nu):
            diag, hess_state = hessian_diagonal_fn.update(
                grads, hess_state, params=params, **hess_fn_kwargs
            )
            return hess_state, tree.update_moment(diag, nu, b2, 1)

        hess_state, nu = lax.cond(
            jnp.equal(state.count % update_interval, 0),
            update_hessian_diag,
            lambda h, n: (h, n),
            state.hessian_fn_state,
            state.nu,
        )
        return updates, SophiaState(
            count=count_inc, mu=tree.cast(mu, mu_dtype), nu=nu, hessian_fn_state=hess_state
        )

    return GradientTransformationExtraArgs(init_fn, update_fn)


def sophia(
    learning_rate: ScalarOrSchedule,
    b1: Any = 0.965,
    b2: Any = 0.99,
    eps: Any = 1e-8,
    weight_decay: Any = 1e-4,
    weight_decay_mask: Any | Callable[[Any], Any] | None = None,
    gamma: Any = 0.01,
    clip_threshold: Any = 1.0,
    update_interval: Any = 10,
    hessian_diagonal_fn: GradientTransformation | None = None,
    mu_dtype: Any = None,
    verbose: bool = False,
    print_win_rate_every_n_steps: Any = 0,
) -> GradientTransformationExtraArgs:
    """The Sophia optimizer (its `update` needs `obj_fn=` with the default estimator).

    Args:
      learning_rate: a float or schedule.
      b1: see `scale_by_sophia`.
      b2: see `scale_by_sophia`.
      eps: see `scale_by_sophia`.
      weight_decay: decoupled weight decay.
      weight_decay_mask: which parameters get weight decay.
      gamma: see `scale_by_sophia`.
      clip_threshold: see `scale_by_sophia`.
      update_interval: see `scale_by_sophia`.
      hessian_diagonal_fn: see `scale_by_sophia`.
      mu_dtype: see `scale_by_sophia`.
      verbose: see `scale_by_sophia`.
      print_win_rate_every_n_steps: see `scale_by_sophia`.

    Returns:
      A `GradientTransformationExtraArgs` (a `chain`).
    """
    return chain(
        scale_by_sophia(
            b1=b1,
            b2=b2,
            eps=eps,
            gamma=gamma,
            clip_threshold=clip_threshold,
            update_interval=update_interval,
            hessian_diagonal_fn=hessian_diagonal_fn,
            mu_dtype=mu_dtype,
            verbose=verbose,
            print_win_rate_every_n_steps=print_win_rate_every_n_steps,
        ),
        add_decayed_weights(weight_decay, mask=weight_decay_mask),
        scale_by_learning_rate(learning_rate),
    )
