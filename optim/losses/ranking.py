"""Learning-to-rank losses (Optax's `losses/_ranking.py`): one value per list of items, with
`where` masking items out and `reduce_fn` (default `jnp.mean`) reducing over lists."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import core
import core.numpy as jnp
from optim.losses.checks import check_floating


def _safe_reduce(a: Any, where: Any = None, reduce_fn: Callable[..., Any] | None = None) -> Any:
    output = reduce_fn(a, where=where) if reduce_fn is not None else a
    if reduce_fn is jnp.mean:
        # The mean over no valid list is 0, not nan (unless the input had a nan).
        valid_input = jnp.logical_not(jnp.any(jnp.isnan(a)))
        output = jnp.where(jnp.isnan(output) & valid_input, 0.0, output)
    if reduce_fn is None and where is not None:
        output = jnp.where(where, output, 0.0)
    return output


def ranking_softmax_loss(
    logits: Any,
    labels: Any,
    *,
    where: Any = None,
    weights: Any = None,
    reduce_fn: Callable[..., Any] | None = jnp.mean,
) -> Any:
    """The listwise softmax loss: cross entropy between the labels and the softmax of the
    logits over each list (the last axis).

    Args:
      logits: `[..., list_size]` scores (floating).
      labels: relevance labels of the same shape (not normalised).
      where: which items take part (a boolean mask of the same shape).
      weights: per-item weights multiplying the labels.
      reduce_fn: reduces the per-list losses (None: no reduction).

    Returns:
      The reduced loss, or one value per list when `reduce_fn` is None.

    Raises:
      LossInputError: `logits` are not floating (a `TypeError`, as in Optax).
    """
    check_floating("ranking_softmax_loss", "logits", logits)
    labels = labels.astype(logits.dtype)
    if where is not None:
        labels = jnp.where(where, labels, jnp.zeros_like(labels))
        logits = jnp.where(where, logits, -jnp.ones_like(logits) * jnp.inf)
    if weights is not None:
        labels = labels * weights
    loss = -jnp.sum(labels * core.nn.log_softmax(logits, axis=-1), axis=-1, where=where)
    if where is not None:
        where = jnp.any(where, axis=-1)
    return _safe_reduce(loss, where=where, reduce_fn=reduce_fn)
