"""Constraints on the updates: keep parameters non-negative, replace NaNs by zeros."""

from __future__ import annotations

from typing import Any, NamedTuple

import core.numpy as jnp
from core import tree_util
from optim.base import EmptyState, GradientTransformation, init_empty_state
from optim.errors import MissingParamsError

NonNegativeParamsState = EmptyState


class ZeroNansState(NamedTuple):
    """State of `zero_nans`: per leaf, whether the last updates contained a NaN."""

    found_nan: Any


def keep_params_nonnegative() -> GradientTransformation:
    """Modifies updates so that `params + updates >= 0` (the update becomes `-param` there).

    Returns:
      A stateless `GradientTransformation` that needs `params`.
    """

    def update_fn(updates, state, params):
        if params is None:
            raise MissingParamsError("keep_params_nonnegative")
        updates = tree_util.tree_map(
            lambda p, u: None if p is None else jnp.where((p + u) < 0.0, -p, u),
            params,
            updates,
            is_leaf=lambda x: x is None,
        )
        return updates, state

    return GradientTransformation(init_empty_state, update_fn)


def zero_nans() -> GradientTransformation:
    """Replaces NaN entries of the updates by zeros and records where NaNs were found.

    Returns:
      A `GradientTransformation` with state `ZeroNansState(found_nan)`.
    """

    def init_fn(params):
        return ZeroNansState(
            found_nan=tree_util.tree_map(lambda p: jnp.asarray(False, dtype=jnp.bool_), params)
        )

    def update_fn(updates, state, params=None):
        del state, params
        found_nan = tree_util.tree_map(lambda u: jnp.any(jnp.isnan(u)), updates)
        updates = tree_util.tree_map(
            lambda u: jnp.where(jnp.isnan(u), jnp.zeros_like(u), u), updates
        )
        return updates, ZeroNansState(found_nan=found_nan)

    return GradientTransformation(init_fn, update_fn)
