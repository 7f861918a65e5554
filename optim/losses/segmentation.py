"""Segmentation losses: `dice_loss` (Tversky's generalization with `alpha`/`beta`),
`multiclass_generalized_dice_loss` (classes weighted by inverse squared frequency) and
`binary_dice_loss`, with Optax's formulas and defaults.

`dice_loss` reduces the spatial axes (all but the first and last by default) per class and
then the classes (`reduction`); predictions are logits unless `apply_softmax=False` (sigmoid
for a single channel).
"""

from __future__ import annotations

from typing import Any

import core
import core.numpy as jnp
from optim.errors import LossArgumentError


def _check_same_shape(a: Any, b: Any) -> None:
    if jnp.shape(a) != jnp.shape(b):
        raise LossArgumentError(f"Shape mismatch: got {jnp.shape(a)} and {jnp.shape(b)}.")


def _reduce(loss: Any, reduction: str, axis: int | None = None) -> Any:
    if reduction == "mean":
        return jnp.mean(loss, axis=axis)
    if reduction == "sum":
        return jnp.sum(loss, axis=axis)
    if reduction == "none":
        return loss
    raise LossArgumentError(f"Unsupported reduction: {reduction}")


def dice_loss(
    predictions: Any,
    targets: Any,
    *,
    class_weights: Any = None,
    smooth: Any = 1.0,
    alpha: Any = 0.5,
    beta: Any = 0.5,
    apply_softmax: bool = True,
    reduction: str = "mean",
    ignore_background: bool = False,
    axis: Any = None,
) -> Any:
    """The (Tversky) dice loss `1 - (I + smooth) / (I + alpha FP + beta FN + smooth)` per class.

    Args:
        predictions: logits (or probabilities with `apply_softmax=False`) `(batch, ...,
            classes)`; a missing class axis means one class.
        targets: one-hot (or soft) targets of the same shape.
        class_weights: per-class weights `(classes,)`.
        smooth: added to numerator and denominator.
        alpha: the false-positive weight (0.5 with `beta=0.5` is the dice loss).
        beta: the false-negative weight.
        apply_softmax: apply softmax (sigmoid for one class) to `predictions`.
        reduction: "mean", "sum" or "none" over the classes.
        ignore_background: drop class 0 (with more than one class).
        axis: the axes summed over (default: all but the first and last).

    Returns:
        Per-example losses `(batch,)` (or `(batch, classes)` with `reduction="none"`).
    """
    predictions, targets = _with_class_axis(jnp.asarray(predictions), jnp.asarray(targets))
    _check_same_shape(predictions, targets)
    probs = _class_probabilities(predictions, apply_softmax)
    if axis is None:  # every axis between the batch axis and the class axis
        axis = tuple(range(1, probs.ndim - 1))
    loss = 1.0 - _tversky_index(probs, targets, axis, smooth, alpha, beta)
    if class_weights is not None:
        if jnp.ndim(class_weights) != 1:
            raise LossArgumentError(
                f"Expected the input to have rank 1, got {jnp.ndim(class_weights)} instead"
            )
        loss = loss * class_weights
    if ignore_background and probs.shape[-1] > 1:  # class 0 is the background
        loss = loss[..., 1:]
    return _reduce(loss, reduction, axis=-1)


def _with_class_axis(predictions: Any, targets: Any) -> tuple[Any, Any]:
    """Both operands with a class axis: a binary operand given without one gets a size-1
    class axis when the other has it."""
    if predictions.ndim + 1 == targets.ndim:
        predictions = predictions[..., None]
    if targets.ndim + 1 == predictions.ndim:
        targets = targets[..., None]
    return predictions, targets


def _class_probabilities(predictions: Any, from_logits: bool) -> Any:
    """``predictions`` as class probabilities: the softmax of logits over the class axis (a
    sigmoid for a single class), or given probabilities checked to sum to one."""
    if from_logits:
        if predictions.shape[-1] == 1:
            return core.nn.sigmoid(predictions)
        return core.nn.softmax(predictions, axis=-1)
    totals = jnp.sum(predictions, axis=-1)
    if jnp.allclose(totals, 1.0, rtol=1e-05):
        return predictions
    raise LossArgumentError(
        "When apply_softmax=False, predictions must be valid probability distributions "
        "that sum to 1 along the class axis. Found sum range: "
        f"[{float(jnp.min(totals)):.6f}, {float(jnp.max(totals)):.6f}]"
    )


def _tversky_index(probs: Any, targets: Any, axis: Any, smooth: Any, alpha: Any, beta: Any) -> Any:
    """The smoothed overlap ``(tp + smooth) / (tp + alpha fp + beta fn + smooth)`` per class,
    summed over ``axis`` (alpha = beta = 1/2 is the Dice coefficient)."""
    overlap = jnp.sum(probs * targets, axis=axis)
    predicted, actual = jnp.sum(probs, axis=axis), jnp.sum(targets, axis=axis)
    # (The operations keep Optax's order, so that gradients round alike.)
    smoothed_overlap = overlap + smooth
    weighted_total = overlap + alpha * (predicted - overlap) + beta * (actual - overlap) + smooth
    return smoothed_overlap / weighted_total


def multiclass_generalized_dice_loss(
    predictions: Any,
    targets: Any,
    *,
    smooth: Any = 1.0,
    apply_softmax: bool = True,
    ignore_background: bool = False,
) -> Any:
    """The generalized dice loss: `dice_loss` with classes weighted by `1 / frequency^2`
    (normalized to sum to the number of classes), averaged over everything.

    Args:
        predictions: logits (or probabilities) `(batch, ..., classes)`.
        targets: one-hot targets of the same shape.
        smooth: added to numerator and denominator.
        apply_softmax: apply softmax to `predictions`.
        ignore_background: drop class 0.

    Returns:
        The scalar loss.
    """
    _check_same_shape(predictions, targets)
    targets = jnp.asarray(targets)
    frequencies = jnp.sum(targets, axis=tuple(range(targets.ndim - 1)))
    weights = 1.0 / (frequencies**2 + 1e-07)
    weights = weights / jnp.sum(weights) * len(weights)
    losses = dice_loss(
        predictions,
        targets,
        class_weights=weights,
        smooth=smooth,
        apply_softmax=apply_softmax,
        reduction="none",
        ignore_background=ignore_background,
    )
    return jnp.mean(losses)


def binary_dice_loss(
    predictions: Any, targets: Any, *, smooth: Any = 1.0, apply_sigmoid: bool = True
) -> Any:
    """The dice loss of one foreground class (sigmoid of the logits).

    Args:
        predictions: logits (or probabilities) `(batch, ...)` or `(batch, ..., 1)`.
        targets: binary targets of the same shape.
        smooth: added to numerator and denominator.
        apply_sigmoid: apply the sigmoid to `predictions`.

    Returns:
        Per-example losses `(batch,)`.
    """
    predictions, targets = jnp.asarray(predictions), jnp.asarray(targets)
    if predictions.ndim == targets.ndim and predictions.shape[-1] != 1:
        predictions, targets = predictions[..., None], targets[..., None]
    return dice_loss(
        predictions, targets, smooth=smooth, apply_softmax=apply_sigmoid, reduction="mean"
    )
