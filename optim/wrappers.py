"""Wrappers that change *where* or *whether* an inner transformation applies.

`masked(inner, mask)` runs `inner` only on the leaves where `mask` is True; the others pass
through unchanged. Masked-out leaves are replaced by `MaskedNode()` (an empty pytree) before the
inner transformation sees them, so its state holds nothing for them and the tree structure of
the state is stable. `apply_if_finite` drops updates containing inf/nan (the state is kept), but
lets them through after `max_consecutive_errors` bad steps in a row. As in Optax, the
step-skipping wrappers choose between the inner update and the rejection with `lax.cond`
(traceable under `jit`; the results take the rejecting branch's weak types, as JAX's do).

`conditionally_transform`/`conditionally_mask` apply the inner transformation only on the steps
a predicate selects; `flatten` runs it on one concatenated vector; `lookahead` keeps fast and
slow weights (`LookaheadParams`) and syncs them every `sync_period` steps.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

import core.numpy as jnp
from core import lax, tree_util
from optim import tree
from optim.base import (
    GradientTransformation,
    GradientTransformationExtraArgs,
    Params,
    with_extra_args_support,
)
from optim.errors import LookaheadParamsError, OptimizerArgumentError
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


# The type of `masked`'s `mask` (`optax.MaskOrFn`): a pytree of bools, a function of the
# params giving one, or None.
MaskOrFn = Any | Callable[[Params], Any] | None


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
        new_updates, inner_state = lax.cond(
            jnp.logical_or(isfinite, notfinite_count > max_consecutive_errors),
            lambda: inner.update(updates, state.inner_state, params, **extra_args),
            lambda: (tree.zeros_like(updates), state.inner_state),
        )
        return new_updates, ApplyIfFiniteState(
            notfinite_count=notfinite_count,
            last_finite=isfinite,
            total_notfinite=jnp.where(
                isfinite, state.total_notfinite, safe_increment(state.total_notfinite)
            ),
            inner_state=inner_state,
        )

    return GradientTransformationExtraArgs(init_fn, update_fn)


# ------------------------------------------------------------------ lookahead


class LookaheadState(NamedTuple):
    """State of `lookahead`.

    Attributes:
      fast_state: the fast optimizer's state.
      steps_since_sync: fast steps since the last synchronisation (int32).
    """

    fast_state: Any
    steps_since_sync: Any


class LookaheadParams(NamedTuple):
    """The parameters `lookahead` works on: the fast and the slow copy."""

    fast: Any
    slow: Any

    @classmethod
    def init_synced(cls, params: Any) -> LookaheadParams:
        """Returns `LookaheadParams(fast=params, slow=params)`."""
        return cls(slow=params, fast=params)


def _lookahead_step(
    params: LookaheadParams, inner_updates: Any, syncing: Any, slow_step_size: Any
) -> LookaheadParams:
    """Both copies' updates for one step, as one merged step (Optax's form).

    With ``gap = fast + inner_update - slow`` (where the fast copy would land, seen from the
    slow one), the slow copy moves ``slow_step_size * gap`` on a synchronising step and stays
    otherwise; on that step the fast copy lands on the slow copy's new value instead.
    """
    gap = tree_util.tree_map(
        lambda fast, step, slow: fast + step - slow, params.fast, inner_updates, params.slow
    )
    slow_moves = tree_util.tree_map(lambda g: slow_step_size * syncing * g, gap)
    fast_moves = tree_util.tree_map(
        lambda step, g: step - syncing * (1 - slow_step_size) * g, inner_updates, gap
    )
    return LookaheadParams(fast=fast_moves, slow=slow_moves)


def lookahead(
    fast_optimizer: GradientTransformation,
    sync_period: int,
    slow_step_size: Any,
    reset_state: bool = False,
) -> GradientTransformation:
    """Lookahead (Zhang et al., 2019): every `sync_period` fast steps, move the slow weights
    `slow_step_size` of the way to the fast ones and restart the fast weights from there.

    Parameters and updates are `LookaheadParams(fast, slow)`; evaluate the model at
    `params.slow`. The gradient passed to `update` is taken at `params.fast`.

    Args:
      fast_optimizer: the inner optimizer.
      sync_period: fast steps between synchronisations (>= 1).
      slow_step_size: interpolation factor of the slow weights.
      reset_state: reset the fast optimizer's state at each synchronisation.

    Returns:
      A `GradientTransformation` with state `LookaheadState`.

    Raises:
      OptimizerArgumentError: if `sync_period < 1` (a `ValueError`).
    """
    if sync_period < 1:
        raise OptimizerArgumentError(
            f"Synchronization period must be >= 1.\nGot sync_period={sync_period}."
        )

    def init_fn(params):
        fast_params = getattr(params, "fast", None)
        if fast_params is None:  # as Optax: allow init with the fast parameters only
            fast_params = params
        return LookaheadState(
            fast_state=fast_optimizer.init(fast_params),
            steps_since_sync=jnp.zeros([], jnp.int32),
        )

    def update_fn(updates, state, params):
        if not isinstance(params, LookaheadParams):
            raise LookaheadParamsError(
                f"'{type(params).__name__}' object has no attribute 'fast'\n"  # Optax's
                "lookahead's update needs params=LookaheadParams(fast=..., slow=...); build them "
                "with LookaheadParams.init_synced(params)."
            )
        inner_updates, fast_state = fast_optimizer.update(updates, state.fast_state, params.fast)
        syncing = state.steps_since_sync == (sync_period - 1)  # a bool scalar, used as 0/1
        merged = _lookahead_step(params, inner_updates, syncing, slow_step_size)
        if reset_state:  # a synchronised fast copy starts its optimizer afresh
            fresh = fast_optimizer.init(params.fast)
            fast_state = tree_util.tree_map(
                lambda now, start: (1 - syncing) * now + syncing * start, fast_state, fresh
            )
        counter = (state.steps_since_sync + 1) % sync_period
        return merged, LookaheadState(fast_state, counter)

    return GradientTransformation(init_fn, update_fn)


# ------------------------------------------------------------------ layouts


def flatten(inner: GradientTransformation) -> GradientTransformationExtraArgs:
    """Runs `inner` on one flat vector holding all leaves (fewer, larger array operations).

    Args:
      inner: the transformation to run on the concatenated, raveled leaves.

    Returns:
      A `GradientTransformationExtraArgs` whose state is `inner`'s state on the flat vector.
    """
    inner = with_extra_args_support(inner)

    def _flatten(tree_):
        return tree.ravel(tree_)[0]

    def _unflatten(like, flat):
        return tree.ravel(like)[1](flat)

    def init_fn(params):
        return inner.init(_flatten(params))

    def update_fn(updates, state, params=None, **extra_args):
        if params is not None:
            params = _flatten(params)
        flat, state = inner.update(_flatten(updates), state, params, **extra_args)
        return _unflatten(updates, flat), state

    return GradientTransformationExtraArgs(init_fn, update_fn)


# ------------------------------------------------------------------ conditional application


class ConditionallyTransformState(NamedTuple):
    """State of `conditionally_transform`."""

    inner_state: Any
    step: Any  # int32


class ConditionallyMaskState(NamedTuple):
    """State of `conditionally_mask`."""

    step: Any  # int32
    inner_state: Any


def _conditionally(inner, should_transform_fn, forward_extra_args, reject):
    """Shared body: `inner` where `should_transform_fn(step)`, else `reject(updates)`."""

    def update(updates, inner_state, step, params, extra_args):
        condition_kwargs = extra_args if forward_extra_args else {}
        return lax.cond(
            should_transform_fn(step, **condition_kwargs),
            lambda: inner.update(updates, inner_state, params, **extra_args),
            lambda: (reject(updates), inner_state),
        )

    return update


class ConditionFn(Protocol):
    """The type of `conditionally_transform`'s and `conditionally_mask`'s condition
    (`optax.transforms.ConditionFn`): `(step, **extra_args) -> bool scalar`."""

    def __call__(self, step: Any, **extra_args: Any) -> Any:
        """Whether to apply the inner transformation at `step` (an int32 scalar).

        Args:
          step: the update counter.
          **extra_args: the extra arguments `update` was given.

        Returns:
          A boolean scalar.
        """


def conditionally_transform(
    inner: GradientTransformation,
    should_transform_fn: Callable[..., Any],
    forward_extra_args: bool = False,
) -> GradientTransformationExtraArgs:
    """Applies `inner` only on steps where `should_transform_fn(step)` is True; other steps pass
    the updates through unchanged and keep `inner`'s state.

    Args:
      inner: the transformation.
      should_transform_fn: `(step, **extra_args) -> bool scalar`; `step` counts all updates.
      forward_extra_args: pass the update's extra args to `should_transform_fn`.

    Returns:
      A `GradientTransformationExtraArgs` with state `ConditionallyTransformState`.
    """
    inner = with_extra_args_support(inner)
    body = _conditionally(inner, should_transform_fn, forward_extra_args, lambda u: u)

    def init_fn(params):
        return ConditionallyTransformState(
            inner_state=inner.init(params), step=jnp.zeros([], jnp.int32)
        )

    def update_fn(updates, state, params=None, **extra_args):
        updates, inner_state = body(updates, state.inner_state, state.step, params, extra_args)
        return updates, ConditionallyTransformState(inner_state, safe_increment(state.step))

    return GradientTransformationExtraArgs(init_fn, update_fn)


def conditionally_mask(
    inner: GradientTransformation,
    should_transform_fn: Callable[..., Any],
    forward_extra_args: bool = False,
) -> GradientTransformationExtraArgs:
    """Like `conditionally_transform`, but rejected steps return zero updates.

    Args:
      inner: the transformation.
      should_transform_fn: `(step, **extra_args) -> bool scalar`.
      forward_extra_args: pass the update's extra args to `should_transform_fn`.

    Returns:
      A `GradientTransformationExtraArgs` with state `ConditionallyMaskState`.
    """
    inner = with_extra_args_support(inner)
    body = _conditionally(inner, should_transform_fn, forward_extra_args, tree.zeros_like)

    def init_fn(params):
        return ConditionallyMaskState(step=jnp.zeros([], jnp.int32), inner_state=inner.init(params))

    def update_fn(updates, state, params=None, **extra_args):
        updates, inner_state = body(updates, state.inner_state, state.step, params, extra_args)
        return updates, ConditionallyMaskState(safe_increment(state.step), inner_state)

    return GradientTransformationExtraArgs(init_fn, update_fn)
