"""The Optax contract: a gradient transformation is a pair of pure functions over pytrees.

`init(params) -> state` builds the state; `update(updates, state, params=None) -> (updates,
new_state)` transforms gradients into updates. States are NamedTuples, hence pytrees with field
names (`opt_state[0].mu`), so they pass through `jit`, `tree_map` and checkpoints unchanged.
Transformations compose with `chain`; aliases such as `adam` are nothing but such chains.

Sign convention (as in Optax): aliases return the *negative* step, so `apply_updates` adds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, Protocol, runtime_checkable

import core.numpy as jnp
from core import tree_util

PyTree = Any
ArrayTree = Any  # Optax's annotation names (optax._src.base)
PRNGKey = Any
Shape = Sequence[int]
Params = Any
Updates = Any
OptState = Any
Schedule = Callable[[Any], Any]
ScalarOrSchedule = float | Any | Schedule


ScheduleState = Any

# Optax's text, which the errors of transformations that need `params` start with
NO_PARAMS_MSG = (
    "You are using a transformation that requires the current value of parameters, but you are "
    "not passing `params` when calling `update`."
)


@runtime_checkable
class StatefulSchedule(Protocol):
    """A schedule with its own state: `init() -> state`, `update(state, **extra_args) -> state`,
    `__call__(state, **extra_args) -> value` (used by `inject_stateful_hyperparams`)."""

    def init(self) -> ScheduleState: ...

    def update(self, state: ScheduleState, **extra_args: Any) -> ScheduleState: ...

    def __call__(self, state: ScheduleState, **extra_args: Any) -> Any: ...


class TransformInitFn(Protocol):
    """`init(params) -> state`."""

    def __call__(self, params: Params) -> OptState: ...


class TransformUpdateFn(Protocol):
    """`update(updates, state, params=None) -> (updates, new_state)`."""

    def __call__(
        self, updates: Updates, state: OptState, params: Params | None = None
    ) -> tuple[Updates, OptState]: ...


class TransformUpdateExtraArgsFn(Protocol):
    """`update(updates, state, params=None, **extra_args) -> (updates, new_state)`."""

    def __call__(
        self, updates: Updates, state: OptState, params: Params | None = None, **extra_args: Any
    ) -> tuple[Updates, OptState]: ...


class GradientTransformation(NamedTuple):
    """A pair of pure functions `(init, update)`; see the module docstring."""

    init: TransformInitFn
    update: TransformUpdateFn


class GradientTransformationExtraArgs(GradientTransformation):
    """A `GradientTransformation` whose `update` also accepts `**extra_args` (e.g. `value=`)."""

    update: TransformUpdateExtraArgsFn


class EmptyState(NamedTuple):
    """The state of a stateless transformation: an empty pytree."""


def init_empty_state(params: Params) -> EmptyState:
    """The `init` of stateless transformations.

    Args:
      params: the params (unused).

    Returns:
      ``EmptyState()``.
    """
    del params
    return EmptyState()


def identity() -> GradientTransformation:
    """Returns the transformation that leaves updates unchanged.

    Returns:
      A stateless `GradientTransformation` (its state is ``EmptyState()``).
    """

    def update_fn(updates, state, params=None):
        del params
        return updates, state

    return GradientTransformation(init_empty_state, update_fn)


def set_to_zero() -> GradientTransformation:
    """Returns the transformation that replaces every update by zeros (used to freeze).

    Returns:
      A stateless `GradientTransformation` (its state is ``EmptyState()``).
    """

    def update_fn(updates, state, params=None):
        del params
        return tree_util.tree_map(jnp.zeros_like, updates), state

    return GradientTransformation(init_empty_state, update_fn)


def stateless(f: Callable[[Updates, Params | None], Updates]) -> GradientTransformation:
    """Builds a stateless transformation from `f(updates, params) -> updates`.

    Args:
      f: a function of the whole updates tree and the params tree (or `None`).

    Returns:
      A `GradientTransformation` with `EmptyState`.
    """

    def update_fn(updates, state, params=None):
        del state
        return f(updates, params), EmptyState()

    return GradientTransformation(init_empty_state, update_fn)


def _without_param(f: Callable[[Any, Any], Any]) -> Callable[[Any], Any]:
    """``f`` of one update leaf, with ``None`` as its param."""
    return lambda update: f(update, None)


def stateless_with_tree_map(f: Callable[[Any, Any], Any]) -> GradientTransformation:
    """Builds a stateless transformation from a leafwise `f(update, param) -> update`.

    Args:
      f: applied to every (update, param) leaf pair; `param` is `None` when no params are given.

    Returns:
      A `GradientTransformation` with `EmptyState`.
    """

    def update_fn(updates, state, params=None):
        del state
        # Without parameters `f` sees None in their place, leaf by leaf.
        trees = (updates,) if params is None else (updates, params)
        leaf_fn = _without_param(f) if params is None else f
        return tree_util.tree_map(leaf_fn, *trees), EmptyState()

    return GradientTransformation(init_empty_state, update_fn)


def with_extra_args_support(tx: GradientTransformation) -> GradientTransformationExtraArgs:
    """Wraps `tx` so that its `update` accepts and ignores `**extra_args`.

    Args:
      tx: a `GradientTransformation`.

    Returns:
      A `GradientTransformationExtraArgs`; ``tx`` itself when it already is one.
    """
    if isinstance(tx, GradientTransformationExtraArgs):
        return tx
    return GradientTransformationExtraArgs(tx.init, _discarding_extra_args(tx.update))


def _discarding_extra_args(inner: TransformUpdateFn) -> TransformUpdateExtraArgsFn:
    """`inner` behind a signature that also takes keyword arguments, which it drops."""

    def update(updates, state, params=None, **ignored):
        del ignored
        return inner(updates, state, params)

    return update
