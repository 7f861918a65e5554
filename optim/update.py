"""Applying updates to parameters, and the global norm.

`apply_updates` casts each result back to its parameter's dtype: with bfloat16 params and
float32 updates the params stay bfloat16 (mixed precision), exactly as in Optax. `None` leaves
(parameters without gradients) pass through.
"""

from __future__ import annotations

from typing import Any

import core.numpy as jnp
from core import tree_util
from optim import tree
from optim.base import Params, Updates


def _is_none(x: Any) -> bool:
    return x is None


def apply_updates(params: Params, updates: Updates) -> Params:
    """Returns `params + updates` leafwise, cast back to each parameter's dtype.

    Args:
      params: the parameter tree (`None` leaves are kept as `None`).
      updates: a tree of the same structure, usually from `tx.update`.

    Returns:
      The new parameters.
    """
    return tree_util.tree_map(
        lambda p, u: None if p is None else jnp.asarray(p + u).astype(jnp.asarray(p).dtype),
        params,
        updates,
        is_leaf=_is_none,
    )


def incremental_update(new_tensors: Params, old_tensors: Params, step_size: Any) -> Params:
    """Returns the Polyak average `step_size * new + (1 - step_size) * old` (target networks).

    Args:
      new_tensors: the latest values (e.g. the online network's params).
      old_tensors: the running values (e.g. the target network's params).
      step_size: the weight of ``new_tensors`` (a scalar in [0, 1]).

    Returns:
      The pytree of averages.
    """
    return tree_util.tree_map(
        lambda new, old: None if new is None else step_size * new + (1.0 - step_size) * old,
        new_tensors,
        old_tensors,
        is_leaf=_is_none,
    )


def periodic_update(
    new_tensors: Params, old_tensors: Params, steps: Any, update_period: Any
) -> Params:
    """Returns `new_tensors` when `steps % update_period == 0`, else `old_tensors`.

    Args:
      new_tensors: the latest values.
      old_tensors: the values kept between updates.
      steps: the current step count.
      update_period: copy ``new_tensors`` every this many steps.

    Returns:
      ``new_tensors`` or ``old_tensors``.
    """
    return tree.where(jnp.mod(steps, update_period) == 0, new_tensors, old_tensors)


def global_norm(updates: Updates) -> Any:
    """Returns the Euclidean norm of all leaves seen as one vector (`optim.tree.norm`).

    Args:
      updates: a pytree of arrays.

    Returns:
      A scalar: ``sqrt(sum of squares of every entry)``.
    """
    return tree.norm(updates)
