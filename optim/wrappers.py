"""Wrappers that change *where* or *whether* an inner transformation applies.

`masked(inner, mask)` runs `inner` only on the leaves where `mask` is True; the others pass
through unchanged. Masked-out leaves are replaced by `MaskedNode()` (an empty pytree) before the
inner transformation sees them, so its state holds nothing for them and the tree structure of
the state is stable. `apply_if_finite` drops updates containing inf/nan (the state is kept), but
lets them through after `max_consecutive_errors` bad steps in a row. Branches use `jnp.where`,
so both wrappers are traceable under `jit`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, NamedTuple

import core.numpy as jnp
from core import tree_util
from optim import tree
from optim.base import (
    GradientTransformation,
    GradientTransformationExtraArgs,
    with_extra_args_support,
)
from optim.numerics import safe_increment


class MaskedState(NamedTuple):
    """State of `masked`: the inner state, computed on the masked parameters."""

    inner_state: Any


class MaskedNode(NamedTuple):
    """Stands in for a masked-out leaf: an empty pytree, so it holds no state."""


class ApplyIfFiniteState(NamedTuple):
    """State of `apply_if_finite`.

    Attributes:
      notfinite_count: number of consecutive non-finite updates.
      last_finite: whether the last update was finite.
      total_notfinite: total number of non-finite updates.
      inner_state: the wrapped transformation's state.
    """

    notfinite_count: Any
    last_finite: Any
    total_notfinite: Any
    inner_state: Any


def _is_callable_mask(mask: Any) -> bool:
    leaves = tree_util.tree_leaves(tree_util.tree_map(callable, mask))
    return len(leaves) > 0 and all(leaves)


def masked(
    inner: GradientTransformation,
    mask: Any | Callable[[Any], Any],
    *,
    mask_compatible_extra_args: bool = False,
) -> GradientTransformationExtraArgs:
    """Applies `inner` only where `mask` is True.

    Args:
      inner: the transformation to apply to the selected leaves.
      mask: a pytree of bools that is a prefix of the params (one bool may cover a whole
        subtree), or a function `params -> such a pytree`.
      mask_compatible_extra_args: also mask extra arguments shaped like the updates.

    Returns:
      A `GradientTransformationExtraArgs` with state `MaskedState(inner_state)`.
    """
    inner = with_extra_args_support(inner)

    def mask_pytree(pytree, mask_tree):
        return tree_util.tree_map(lambda m, p: p if m else MaskedNode(), mask_tree, pytree)

    def init_fn(params):
        if isinstance(params, tree._ParamsPlaceholder):
            return MaskedState(inner_state=inner.init(params))
        mask_tree = mask(params) if _is_callable_mask(mask) else mask
        return MaskedState(inner_state=inner.init(mask_pytree(params, mask_tree)))

    def update_fn(updates, state, params=None, **extra_args):
        mask_tree = mask(updates) if _is_callable_mask(mask) else mask
        if mask_compatible_extra_args:
            structure = tree_util.tree_structure(updates)
            extra_args = {
                k: mask_pytree(v, mask_tree) if tree_util.tree_structure(v) == structure else v
                for k, v in extra_args.items()
            }
        masked_updates = mask_pytree(updates, mask_tree)
        masked_params = None if params is None else mask_pytree(params, mask_tree)
        new_masked_updates, new_inner_state = inner.update(
            masked_updates, state.inner_state, masked_params, **extra_args
        )
        new_updates = tree_util.tree_map(
            lambda m, new_u, old_u: new_u if m else old_u, mask_tree, new_masked_updates, updates
        )
        return new_updates, MaskedState(inner_state=new_inner_state)

    return GradientTransformationExtraArgs(init_fn, update_fn)


def apply_if_finite(
    inner: GradientTransformation, max_consecutive_errors: int
) -> GradientTransformationExtraArgs:
    """Skips updates containing inf or nan, unless that happened too often in a row.

    A skipped step returns zero updates and keeps the inner state. After more than
    `max_consecutive_errors` consecutive bad steps the update is applied anyway.

    Args:
      inner: the transformation to protect.
      max_consecutive_errors: bad steps in a row tolerated before applying anyway.

    Returns:
      A `GradientTransformationExtraArgs` with state `ApplyIfFiniteState`.
    """
    inner = with_extra_args_support(inner)

    def init_fn(params):
        return ApplyIfFiniteState(
            notfinite_count=jnp.zeros([], jnp.int32),
            last_finite=jnp.asarray(True, jnp.bool_),
            total_notfinite=jnp.zeros([], jnp.int32),
            inner_state=inner.init(params),
        )

    def update_fn(updates, state, params=None, **extra_args):
        finite = [jnp.all(jnp.isfinite(u)) for u in tree_util.tree_leaves(updates)]
        isfinite = functools.reduce(jnp.logical_and, finite, jnp.asarray(True))
        notfinite_count = jnp.where(
            isfinite, jnp.zeros([], jnp.int32), safe_increment(state.notfinite_count)
        )
        new_updates, new_inner_state = inner.update(
            updates, state.inner_state, params, **extra_args
        )
        apply = jnp.logical_or(isfinite, notfinite_count > max_consecutive_errors)
        new_updates = tree.where(apply, new_updates, tree.zeros_like(new_updates))
        inner_state = tree.where(apply, new_inner_state, state.inner_state)
        return new_updates, ApplyIfFiniteState(
            notfinite_count=notfinite_count,
            last_finite=isfinite,
            total_notfinite=jnp.where(
                isfinite, state.total_notfinite, safe_increment(state.total_notfinite)
            ),
            inner_state=inner_state,
        )

    return GradientTransformationExtraArgs(init_fn, update_fn)
