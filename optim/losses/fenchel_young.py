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
    per_vector_max = jnp.vectorize(max_fun, signature="(n)->()")
    per_vector_pairing = jnp.vectorize(jnp.vdot, signature="(n),(n)->()")

    def fenchel_young_loss(scores, targets, *args, **kwargs):
        # The conjugate side max_fun(scores) minus the pairing <targets, scores>, per vector.
        conjugate = per_vector_max(scores, *args, **kwargs)
        return conjugate - per_vector_pairing(targets, scores)

    return fenchel_young_loss
