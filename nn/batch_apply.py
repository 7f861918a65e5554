"""``BatchApply``: run a function on inputs whose leading dimensions are merged into one.

The first ``num_dims`` axes of every input leaf with at least that many dimensions are
flattened into one batch axis, ``f`` runs on the result, and the outputs' leading axis is
split back to the original leading shape (taken from the first such leaf), as Flax's
``nn.BatchApply``. Leaves of lower rank pass through unchanged.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import core.numpy as jnp
from core import tree_util
from nn import errors


def _merge(x: Any, num_dims: int) -> Any:
    if jnp.ndim(x) < num_dims:
        return x
    shape = jnp.shape(x)
    return jnp.reshape(x, (math.prod(shape[:num_dims]),) + tuple(shape[num_dims:]))


class BatchApply:
    """Merges the leading ``num_dims`` axes of the inputs, applies ``f``, splits them back.

    Args:
      f: the function (or bound module) to apply.
      num_dims: how many leading axes to merge.

    Example::

        >>> f = nn.BatchApply(lambda x: x.sum(-1, keepdims=True))
        >>> f(jnp.ones((2, 3, 4))).shape
        (2, 3, 1)
    """

    def __init__(self, f: Callable[..., Any], num_dims: int = 2):
        self._f = f
        self.num_dims = num_dims

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        leaves = tree_util.tree_leaves((args, kwargs))
        example = next((x for x in leaves if jnp.ndim(x) >= self.num_dims), None)
        if example is None:
            raise errors.BatchApplyRankError(self.num_dims, [jnp.shape(x) for x in leaves])
        lead = tuple(jnp.shape(example)[: self.num_dims])
        args, kwargs = tree_util.tree_map(lambda x: _merge(x, self.num_dims), (args, kwargs))
        outputs = self._f(*args, **kwargs)
        return tree_util.tree_map(lambda y: jnp.reshape(y, lead + tuple(jnp.shape(y)[1:])), outputs)
