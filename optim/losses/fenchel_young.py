"""Fenchel-Young losses (Blondel et al., 2020): `L(scores, y) = max_fun(scores) - <y, scores>`.

`make_fenchel_young_loss(max_fun)` turns a convex "max" function of a score vector (e.g.
`core.scipy.special.logsumexp`, which gives the softmax cross-entropy) into a loss over the last
axis; the leading axes are batch axes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import core.numpy as jnp


class MaxFun(Protocol):
    """A convex function of a score vector (its gradient is the prediction)."""

    def __call__(self, scores: Any, *args: Any, **kwargs: Any) -> Any: ...


def make_fenchel_young_loss(max_fun: MaxFun) -> Callable[..., Any]:
    """Builds the Fenchel-Young loss of `max_fun`.

    Args:
      max_fun: a function from a score vector (and extra arguments) to a scalar.

    Returns:
      `fenchel_young_loss(scores, targets, *args, **kwargs)`: one value per score vector (the
      last axis is the class axis; extra arguments go to `max_fun`).
    """
    vdot_last_dim = jnp.vectorize(jnp.vdot, signature="(n),(n)->()")
    max_fun_last_dim = jnp.vectorize(max_fun, signature="(n)->()")

    def fenchel_young_loss(scores, targets, *args, **kwargs):
        return max_fun_last_dim(scores, *args, **kwargs) - vdot_last_dim(targets, scores)

    return fenchel_young_loss
