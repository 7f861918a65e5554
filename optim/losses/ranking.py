"""Learning-to-rank losses (Optax's `losses/_ranking.py`): one value per list of items, with
`where` masking items out and `reduce_fn` (default `jnp.mean`) reducing over lists."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import core
import core.numpy as jnp
from optim.losses.checks import check_floating


def _safe_reduce(a: Any, where: Any = None, reduce_fn: Callable[..., Any] | None = None) -> Any:
    if reduce_fn is None:
        # Unreduced: a list without a valid item reads 0.
        return a if where is None else jnp.where(where, a, 0.0)
    reduced = reduce_fn(a, where=where)
    if reduce_fn is not jnp.mean:
        return reduced
    # A mean over no valid list is nan; it reads 0 unless the losses themselves held a nan.
    input_clean = jnp.logical_not(jnp.any(jnp.isnan(a)))
    return jnp.where(jnp.isnan(reduced) & input_clean, 0.0, reduced)


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
    list_has_items = None
    if where is not None:
        # Masked-out items get no label mass and no softmax mass (a logit of -inf).
        labels = jnp.where(where, labels, jnp.zeros_like(labels))
        logits = jnp.where(where, logits, -jnp.ones_like(logits) * jnp.inf)
        list_has_items = jnp.any(where, axis=-1)
    if weights is not None:
        labels = labels * weights
    log_p = core.nn.log_softmax(logits, axis=-1)
    per_list = -jnp.sum(labels * log_p, axis=-1, where=where)
    return _safe_reduce(per_list, where=list_has_items, reduce_fn=reduce_fn)
