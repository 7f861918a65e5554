"""L-BFGS preconditioning (`scale_by_lbfgs`), as in Optax.

The state keeps the last `memory_size` differences of parameters (`s_k`) and gradients (`y_k`)
in ring buffers (arrays with a leading `memory_size` axis) plus their weights
`rho_k = 1 / <y_k, s_k>`. The update is the two-loop recursion (Nocedal & Wright, Algorithm
7.4) applied to the incoming gradient, written with `lax.scan` so it runs under `core.jit`.
The initial inverse-Hessian scale is `<y, s> / ||y||**2`, and `min(1, 1 / ||g||)` on the first
step. Use it through `optim.lbfgs`, which adds a line search.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import core.numpy as jnp
from core import lax, tree_util
from optim import tree
from optim.base import GradientTransformation
from optim.errors import MissingParamsError, OptimizerArgumentError
from optim.numerics import safe_increment


class ScaleByLBFGSState(NamedTuple):
    """State of `scale_by_lbfgs`.

    Attributes:
      count: number of updates so far (int32).
      params: the parameters at the previous update.
      updates: the gradient at the previous update.
      diff_params_memory: the last `memory_size` parameter differences (leading axis).
      diff_updates_memory: the last `memory_size` gradient differences (leading axis).
      weights_memory: `1 / <y_k, s_k>` for each stored pair, shape `[memory_size]`.
    """

    count: Any
    params: Any
    updates: Any
    diff_params_memory: Any
    diff_updates_memory: Any
    weights_memory: Any


def _take(memory: Any, idx: Any) -> Any:
    return tree_util.tree_map(lambda x: x[idx], memory)


def _precondition_by_lbfgs(
    updates: Any,
    diff_params_memory: Any,
    diff_updates_memory: Any,
    weights_memory: Any,
    identity_scale: Any,
    memory_idx: Any,
) -> Any:
    """The two-loop recursion: returns `P_k @ updates`."""
    rhos = weights_memory
    memory_size = weights_memory.shape[0]
    indices = (memory_idx + jnp.arange(memory_size)) % memory_size

    def right_product(vec, idx):
        dwi, dui = _take(diff_params_memory, idx), _take(diff_updates_memory, idx)
        alpha = rhos[idx] * tree.real(tree.vdot(dwi, vec))
        return tree.cast_like(tree.add_scale(vec, -alpha, dui), vec), alpha

    precond, alphas = lax.scan(right_product, updates, indices, reverse=True)
    precond = tree.scale(identity_scale, precond)

    def left_product(vec, idx_alpha):
        idx, alpha = idx_alpha
        dwi, dui = _take(diff_params_memory, idx), _take(diff_updates_memory, idx)
        beta = rhos[idx] * tree.real(tree.vdot(dui, vec))
        return tree.cast_like(tree.add_scale(vec, alpha - beta, dwi), vec), beta

    precond, _ = lax.scan(left_product, precond, (indices, alphas))
    return precond


def scale_by_lbfgs(
    memory_size: int = 10, scale_init_precond: bool = True
) -> GradientTransformation:
    """Multiplies the updates by the L-BFGS approximation of the inverse Hessian.

    Args:
      memory_size: number of past (parameter, gradient) differences kept.
      scale_init_precond: scale the initial inverse Hessian by `<y, s> / ||y||**2` (and by
        `min(1, 1 / ||g||)` on the first step); otherwise use the identity.

    Returns:
      A `GradientTransformation` with state `ScaleByLBFGSState` (not negated: `lbfgs` flips
      the sign).

    Raises:
      OptimizerArgumentError: if `memory_size < 1` (a `ValueError`).
      MissingParamsError: if `update` is called without `params`.
    """
    if memory_size < 1:
        raise OptimizerArgumentError(f"memory_size must be >= 1, got {memory_size}.")

    def init_fn(params):
        stacked = tree_util.tree_map(
            lambda leaf: jnp.zeros((memory_size, *jnp.shape(leaf)), dtype=leaf.dtype), params
        )
        return ScaleByLBFGSState(
            count=jnp.asarray(0, dtype=jnp.int32),
            params=tree.zeros_like(params),
            updates=tree.zeros_like(params),
            diff_params_memory=stacked,
            diff_updates_memory=stacked,
            weights_memory=jnp.zeros(memory_size),
        )

    def update_fn(updates, state, params):
        if params is None:
            raise MissingParamsError("scale_by_lbfgs")
        memory_idx = state.count % memory_size
        prev_memory_idx = (state.count - 1) % memory_size

        diff_params = tree.sub(params, state.params)
        diff_updates = tree.sub(updates, state.updates)
        vdot_diff = tree.real(tree.vdot(diff_updates, diff_params))
        weight = jnp.where(vdot_diff == 0.0, 0.0, 1.0 / vdot_diff)
        diff_params, diff_updates, weight = tree_util.tree_map(
            lambda x: jnp.where(state.count > 0, x, jnp.zeros_like(x)),
            (diff_params, diff_updates, weight),
        )
        diff_params_memory, diff_updates_memory, weights_memory = tree_util.tree_map(
            lambda x, y: x.at[prev_memory_idx].set(y),
            (state.diff_params_memory, state.diff_updates_memory, state.weights_memory),
            (diff_params, diff_updates, weight),
        )

        if scale_init_precond:
            numerator = tree.real(tree.vdot(diff_updates, diff_params))
            denominator = tree.norm(diff_updates, squared=True)
            identity_scale = jnp.where(denominator > 0.0, numerator / denominator, 1.0)
            capped_inv_norm = jnp.minimum(1.0, 1.0 / tree.norm(lax.stop_gradient(updates)))
            identity_scale = jnp.where(state.count > 0, identity_scale, capped_inv_norm)
        else:
            identity_scale = 1.0

        precond_updates = _precondition_by_lbfgs(
            updates,
            diff_params_memory,
            diff_updates_memory,
            weights_memory,
            identity_scale,
            memory_idx,
        )
        return precond_updates, ScaleByLBFGSState(
            count=safe_increment(state.count),
            params=params,
            updates=updates,
            diff_params_memory=diff_params_memory,
            diff_updates_memory=diff_updates_memory,
            weights_memory=weights_memory,
        )

    return GradientTransformation(init_fn, update_fn)
