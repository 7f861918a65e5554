"""Clipping updates: elementwise, by global norm, and by per-leaf RMS.

`clip_by_global_norm(max_norm)` rescales the whole tree by `max_norm / ||g||` when
`||g|| >= max_norm`, the same rule as `torch.nn.utils.clip_grad_norm_` (without its epsilon).
"""

from __future__ import annotations

from typing import Any

import core.numpy as jnp
from core import tree_util
from optim import tree
from optim.base import EmptyState, GradientTransformation, init_empty_state
from optim.numerics import abs_sq

ClipState = EmptyState
ClipByGlobalNormState = EmptyState


def clip(max_delta: Any) -> GradientTransformation:
    """Clips every update entry to `[-max_delta, max_delta]`."""

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
        keep = g_norm < max_norm
        updates = tree_util.tree_map(
            lambda t: jnp.where(keep, t, (t / g_norm.astype(t.dtype)) * max_norm), updates
        )
        return updates, state

    return GradientTransformation(init_empty_state, update_fn)


def clip_by_block_rms(threshold: Any) -> GradientTransformation:
    """Divides each leaf by `max(1, rms(leaf) / threshold)` (Adafactor's update clipping)."""

    def clip_leaf(u):
        return u / jnp.maximum(1.0, jnp.sqrt(jnp.mean(abs_sq(u))) / threshold)

    def update_fn(updates, state, params=None):
        del params
        return tree_util.tree_map(clip_leaf, updates), state

    return GradientTransformation(init_empty_state, update_fn)
