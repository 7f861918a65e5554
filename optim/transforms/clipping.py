"""Clipping updates: elementwise, by global norm, and by per-leaf RMS.

`clip_by_global_norm(max_norm)` rescales the whole tree by `max_norm / ||g||` when
`||g|| >= max_norm`, the same rule as `torch.nn.utils.clip_grad_norm_` (without its epsilon).
`adaptive_grad_clip` (NFNets' AGC) clips each output unit relative to the parameter's norm. The
per-example functions (`per_example_global_norm_clip`, `per_example_layer_norm_clip`) are not
transformations: they take per-example gradients (batch on axis 0) and return clipped sums, the
building block of DP-SGD.
"""

from __future__ import annotations

from typing import Any

import core.numpy as jnp
from core import lax, tree_util
from optim import tree
from optim.base import EmptyState, GradientTransformation, init_empty_state
from optim.errors import BatchAxisError, MissingParamsError, OptimizerArgumentError
from optim.numerics import abs_sq

ClipState = EmptyState
ClipByGlobalNormState = EmptyState


def clip(max_delta: Any) -> GradientTransformation:
    """Clips every update entry to `[-max_delta, max_delta]`.

    Args:
      max_delta: the largest absolute value of an update entry.

    Returns:
      A stateless `GradientTransformation` (its state is ``EmptyState()``).
    """

    def update_fn(updates, state, params=None):
        del params
        return tree.clip(updates, -max_delta, max_delta), state

    return GradientTransformation(init_empty_state, update_fn)


def clip_by_global_norm(max_norm: Any) -> GradientTransformation:
    """Rescales all updates jointly so that their global norm is at most `max_norm`.

    Args:
      max_norm: the largest allowed Euclidean norm of the whole update tree.

    Returns:
      A stateless `GradientTransformation`.
    """

    def update_fn(updates, state, params=None):
        del params
        g_norm = tree.norm(updates)
        keep = jnp.squeeze(g_norm < max_norm)
        updates = tree_util.tree_map(
            lambda t: lax.select(keep, t, (t / g_norm.astype(t.dtype)) * max_norm), updates
        )
        return updates, state

    return GradientTransformation(init_empty_state, update_fn)


def clip_by_block_rms(threshold: Any) -> GradientTransformation:
    """Divides each leaf by `max(1, rms(leaf) / threshold)` (Adafactor's update clipping).

    Args:
      threshold: the largest root mean square of a leaf.

    Returns:
      A stateless `GradientTransformation` (its state is ``EmptyState()``).
    """

    def clip_leaf(u):
        return u / jnp.maximum(1.0, jnp.sqrt(jnp.mean(abs_sq(u))) / threshold)

    def update_fn(updates, state, params=None):
        del params
        return tree_util.tree_map(clip_leaf, updates), state

    return GradientTransformation(init_empty_state, update_fn)


AdaptiveGradClipState = EmptyState


def _check_batch_dim(name: str, grads: Any) -> None:
    leaves = tree_util.tree_leaves(grads)
    shapes = [jnp.shape(g) for g in leaves]
    if not leaves or any(len(s) < 1 or s[0] != shapes[0][0] for s in shapes):
        raise BatchAxisError(
            f"Unlike other transforms, `{name}` expects `grads` to have a batch dimension in the "
            f"0th axis; got shapes: {shapes}."
        )


def per_example_global_norm_clip(grads: Any, l2_norm_clip: Any) -> tuple[Any, Any]:
    """Clips each example's gradient to global norm `l2_norm_clip`, then sums over examples.

    Args:
      grads: a pytree whose leaves all have the batch on axis 0.
      l2_norm_clip: the largest norm of one example's gradient (over all leaves).

    Returns:
      `(clipped_sum, num_clipped)`: the summed clipped gradients (batch axis removed) and the
      number of examples that were clipped.

    Raises:
      BatchAxisError: if the leaves do not share a leading batch dimension (a `ValueError`).
    """
    _check_batch_dim("per_example_global_norm_clip", grads)
    leaves = tree_util.tree_leaves(grads)
    sq = [jnp.sum(abs_sq(jnp.reshape(g, (g.shape[0], -1))), axis=1) for g in leaves]
    norms = jnp.sqrt(sum(sq[1:], sq[0]))
    multipliers = jnp.nan_to_num(jnp.minimum(l2_norm_clip / norms, 1.0), nan=1.0)
    num_clipped = jnp.sum(multipliers < 1.0)
    clipped_sum = tree_util.tree_map(lambda g: jnp.tensordot(multipliers, g, axes=1), grads)
    return clipped_sum, num_clipped


def per_example_layer_norm_clip(
    grads: Any, global_l2_norm_clip: Any, uniform: bool = True
) -> tuple[Any, Any]:
    """Clips each example's gradient leaf by leaf, then sums over examples.

    Each leaf gets the clip norm `global_l2_norm_clip / sqrt(num_leaves)` (`uniform=True`) or
    `global_l2_norm_clip * sqrt(leaf_size / total_size)`, so the global norm stays bounded.

    Args:
      grads: a pytree whose leaves all have the batch on axis 0.
      global_l2_norm_clip: the overall clip norm.
      uniform: split the budget evenly across leaves instead of by size.

    Returns:
      `(clipped_sums, num_clipped)`: two pytrees shaped like `grads` (per leaf).

    Raises:
      BatchAxisError: if the leaves do not share a leading batch dimension (a `ValueError`).
    """
    _check_batch_dim("per_example_layer_norm_clip", grads)
    leaves, treedef = tree_util.tree_flatten(grads)
    if uniform:
        clips = [global_l2_norm_clip * (1.0 / len(leaves)) ** 0.5 for _ in leaves]
    else:
        total = sum(jnp.size(g) // g.shape[0] for g in leaves)
        clips = [global_l2_norm_clip * ((jnp.size(g) // g.shape[0]) / total) ** 0.5 for g in leaves]
    results = [per_example_global_norm_clip(g, c) for g, c in zip(leaves, clips)]
    return (
        tree_util.tree_unflatten(treedef, [r[0] for r in results]),
        tree_util.tree_unflatten(treedef, [r[1] for r in results]),
    )


def unitwise_norm(x: Any, axis: Any = None) -> Any:
    """Returns the norm of each output unit of `x`, broadcast to `x.shape` (NFNets' AGC).

    Vectors and scalars use the whole array, 2-D/3-D arrays reduce axis 0 (`[in, out]` kernels),
    4-D (HWIO) and 5-D (DHWIO) conv kernels all but the last axis; `axis` overrides this.

    Raises:
      OptimizerArgumentError: for other ranks without `axis` (a `ValueError`).
    """
    if axis is not None:
        sq = jnp.sum(abs_sq(x), axis=axis, keepdims=True)
    elif jnp.ndim(jnp.squeeze(x)) <= 1:
        sq = jnp.sum(abs_sq(x), keepdims=True)
    elif x.ndim in (2, 3):
        sq = jnp.sum(abs_sq(x), axis=0, keepdims=True)
    elif x.ndim in (4, 5):
        sq = jnp.sum(abs_sq(x), axis=tuple(range(x.ndim - 1)), keepdims=True)
    else:
        raise OptimizerArgumentError(
            f"Expected parameter with shape in {{1, 2, 3, 4, 5}}, got {x.shape}. "
            "Use axis parameter to specify reduction axes for other shapes."
        )
    return jnp.broadcast_to(jnp.sqrt(sq), x.shape)


def unitwise_clip(g_norm: Any, max_norm: Any, grad: Any, div_eps: Any = 1e-6) -> Any:
    """Returns `grad` rescaled to norm `max_norm` where `g_norm >= max_norm` (elementwise)."""
    clipped = grad * (max_norm / jnp.maximum(g_norm, div_eps))
    return jnp.where(g_norm < max_norm, grad, clipped)


def adaptive_grad_clip(clipping: Any, eps: Any = 1e-3, axis: Any = None) -> GradientTransformation:
    """Adaptive gradient clipping (Brock et al., 2021): unit norms of `g` capped at
    `clipping * max(unit norm of params, eps)`.

    Args:
      clipping: the largest allowed ratio of gradient to parameter unit norm.
      eps: lower bound of the parameter norms (so zero-initialised weights can move).
      axis: reduction axes of `unitwise_norm` (default: by rank).

    Returns:
      A stateless `GradientTransformation` (`AdaptiveGradClipState` is `EmptyState`).

    Raises:
      MissingParamsError: if `update` is called without `params`.
    """

    def update_fn(updates, state, params):
        if params is None:
            raise MissingParamsError("adaptive_grad_clip")
        g_norm = tree_util.tree_map(lambda x: unitwise_norm(x, axis=axis), updates)
        p_norm = tree_util.tree_map(lambda x: unitwise_norm(x, axis=axis), params)
        max_norm = tree_util.tree_map(lambda x: clipping * jnp.maximum(x, eps), p_norm)
        return tree_util.tree_map(unitwise_clip, g_norm, max_norm, updates), state

    return GradientTransformation(init_empty_state, update_fn)
