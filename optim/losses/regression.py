"""Regression losses, elementwise: the caller reduces (usually with `.mean()`).

Trap: `l2_loss` is *half* the squared error (`0.5 * (p - t)**2`); `squared_error` is the plain
one, which is what `torch.nn.MSELoss(reduction="none")` computes.
"""

from __future__ import annotations

from typing import Any

import core.numpy as jnp
from optim.losses.checks import check_floating, check_same_shape


def squared_error(predictions: Any, targets: Any = None) -> Any:
    """Returns `(predictions - targets)**2` (targets default to 0).

    Args:
      predictions: the predictions.
      targets: the targets; None for zeros.

    Returns:
      The loss per example (no reduction).
    """
    check_floating("squared_error", "predictions", predictions)
    if targets is None:
        return predictions**2
    check_same_shape("squared_error", predictions, targets)
    return (predictions - targets) ** 2


def l2_loss(predictions: Any, targets: Any = None) -> Any:
    """Returns `0.5 * (predictions - targets)**2`.

    Args:
      predictions: the predictions.
      targets: the targets; None for zeros.

    Returns:
      The loss per example (no reduction).
    """
    return 0.5 * squared_error(jnp.asarray(predictions), targets)


def huber_loss(predictions: Any, targets: Any = None, *, delta: Any = 1.0) -> Any:
    """Returns the Huber loss: `0.5 e**2` for `|e| <= delta`, `delta (|e| - 0.5 delta)` beyond.

    Args:
      predictions: the predictions.
      targets: the targets; None for zeros.
      delta: where the loss turns from quadratic to linear.

    Returns:
      The loss per example (no reduction).
    """
    check_floating("huber_loss", "predictions", predictions)
    size = jnp.abs(predictions - targets if targets is not None else predictions)
    # Quadratic up to delta, linear (slope delta) beyond it.
    inside = jnp.minimum(size, delta)
    return 0.5 * inside**2 + delta * (size - inside)


def log_cosh(predictions: Any, targets: Any = None) -> Any:
    """Returns `log(cosh(predictions - targets))`, computed stably.

    Args:
      predictions: the predictions.
      targets: the targets; None for zeros.

    Returns:
      The loss per example (no reduction).
    """
    check_floating("log_cosh", "predictions", predictions)
    errors = predictions - targets if targets is not None else predictions
    return jnp.logaddexp(errors, -errors) - jnp.log(jnp.asarray(2.0, errors.dtype))


def cosine_similarity(
    predictions: Any, targets: Any, *, epsilon: Any = 0.0, axis: Any = -1, where: Any = None
) -> Any:
    """Returns `<a, b> / (max(||a||, sqrt(eps)) max(||b||, sqrt(eps)))` along `axis`.

    Args:
      predictions: the first vectors.
      targets: the second vectors.
      epsilon: a lower bound of the squared norms.
      axis: the axis of the vectors.
      where: a mask of the entries to use; None for all.

    Returns:
      The similarity along ``axis``.
    """
    check_floating("cosine_similarity", "predictions", predictions)
    check_floating("cosine_similarity", "targets", targets)
    kw = {} if where is None else {"where": where}

    def norm(v):
        return jnp.sqrt(jnp.clip(jnp.sum(jnp.square(v), axis=axis, keepdims=True, **kw), epsilon))

    return jnp.sum((predictions / norm(predictions)) * (targets / norm(targets)), axis=axis, **kw)


def cosine_distance(
    predictions: Any, targets: Any, *, epsilon: Any = 0.0, axis: Any = -1, where: Any = None
) -> Any:
    """Returns `1 - cosine_similarity(...)`.

    Args:
      predictions: the first vectors.
      targets: the second vectors.
      epsilon: a lower bound of the squared norms.
      axis: the axis of the vectors.
      where: a mask of the entries to use; None for all.

    Returns:
      ``1 - similarity`` along ``axis``.
    """
    return 1.0 - cosine_similarity(predictions, targets, epsilon=epsilon, axis=axis, where=where)
