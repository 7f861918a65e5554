"""Classification losses, one value per example: the caller reduces (usually `.mean()`).

`where` masks (as in Optax) exclude entries from the softmax and the sums. Integer-label cross
entropy picks the label's logit with a one-hot comparison instead of a gather, which keeps the
computation elementwise (it fuses under `jit`) and gives the same value.
"""

from __future__ import annotations

import warnings
from typing import Any

import core
import core.numpy as jnp
from optim.losses.checks import check_floating, check_integer, check_same_shape
from optim.projections import projection_simplex


def _sum(x: Any, axis: Any, where: Any = None, keepdims: bool = False) -> Any:
    if where is None:
        return jnp.sum(x, axis=axis, keepdims=keepdims)
    return jnp.sum(x, axis=axis, where=where, keepdims=keepdims)


def _log_softmax(x: Any, axis: Any, where: Any = None) -> Any:
    if where is None:
        return core.nn.log_softmax(x, axis=axis)
    return core.nn.log_softmax(x, axis=axis, where=where)


def softmax_cross_entropy(logits: Any, labels: Any, axis: Any = -1, where: Any = None) -> Any:
    """Returns `-sum(labels * log_softmax(logits))` over `axis`.

    Args:
      logits: unnormalised log-probabilities, `[..., num_classes]`.
      labels: probabilities (one-hot or soft) of the same shape.
      axis: the class axis (or axes).
      where: optional boolean mask of the entries to include.

    Returns:
      The loss per example, shape `logits.shape` without `axis`.
    """
    check_floating("softmax_cross_entropy", "logits", logits)
    if where is not None and jnp.ndim(where) != jnp.ndim(logits):
        where = jnp.expand_dims(where, axis)
    log_probs = _log_softmax(logits, axis, where)
    if where is not None:  # masked entries are -inf; 0 * -inf would be nan before the mask
        log_probs = jnp.where(where, log_probs, 0.0)
    return -_sum(labels * log_probs, axis, where)


@core.custom_jvp
def _label_weighted_log_softmax(logits: Any, labels: Any) -> Any:
    """`labels * log_softmax(logits)` over the last axis, 0 where the label is 0 (so a `-inf`
    logit with label 0 contributes 0, not `0 * -inf`)."""
    log_probs = core.nn.log_softmax(logits, axis=-1)
    return jnp.where(labels != 0.0, labels * log_probs, jnp.zeros_like(log_probs))


@_label_weighted_log_softmax.defjvp
def _label_weighted_log_softmax_jvp(primals: Any, tangents: Any) -> Any:
    # d/dx [w * log_softmax(x)] . dx = w * (dx - <dx, softmax(x)>); the softmax of a -inf logit
    # is 0, so its tangent never meets an infinity.
    logits, labels = primals
    logits_dot, labels_dot = tangents
    log_probs = core.nn.log_softmax(logits, axis=-1)
    mean_dot = jnp.sum(logits_dot * core.nn.softmax(logits, axis=-1), axis=-1, keepdims=True)
    out = jnp.where(labels != 0.0, labels * log_probs, jnp.zeros_like(log_probs))
    return out, labels * (logits_dot - mean_dot) + labels_dot * log_probs


def safe_softmax_cross_entropy(logits: Any, labels: Any) -> Any:
    """`softmax_cross_entropy` that stays finite (value and gradient) with `-inf` logits whose
    label is 0, e.g. logits masked out by setting them to `-inf`.

    Args:
      logits: unnormalized log-probabilities, possibly ``-inf``.
      labels: probabilities over the last axis.

    Returns:
      The loss over the last axis (NaN where every logit is ``-inf``, as in Optax).
    """
    check_floating("safe_softmax_cross_entropy", "logits", logits)
    return -jnp.sum(_label_weighted_log_softmax(logits, labels), axis=-1)


def softmax_cross_entropy_with_integer_labels(
    logits: Any, labels: Any, axis: Any = -1, where: Any = None
) -> Any:
    """Returns `logsumexp(logits) - logits[label]` along `axis`.

    Args:
      logits: unnormalised log-probabilities, `[..., num_classes]`.
      labels: integer class indices, shape `logits.shape` without `axis`.
      axis: the class axis, or a tuple of axes (flattened into one class axis).
      where: optional boolean mask of the classes to include.

    Returns:
      The loss per example (0 where `where` masks every class; NaN for a label outside
      `[-num_classes, num_classes)`, as in Optax).
    """
    check_floating("softmax_cross_entropy_with_integer_labels", "logits", logits)
    check_integer("softmax_cross_entropy_with_integer_labels", "labels", labels)
    ndim = jnp.ndim(logits)
    if where is not None and jnp.ndim(where) != ndim:
        where = jnp.expand_dims(where, axis)
    if isinstance(axis, tuple):
        class_axes = tuple(a % ndim for a in axis)
        batch_axes = tuple(a for a in range(ndim) if a not in class_axes)
        perm = batch_axes + class_axes
        new_shape = tuple(logits.shape[a] for a in batch_axes) + (-1,)
        logits = jnp.reshape(jnp.transpose(logits, perm), new_shape)
        if where is not None:
            where = jnp.reshape(jnp.transpose(where, perm), new_shape)
        axis = len(batch_axes)
    axis = axis % jnp.ndim(logits)
    # Optax's gather of the label's logit: negative labels count from the end and out-of-range
    # ones read NaN (so the loss is NaN there, the gradient the softmax)
    label_logits = jnp.take_along_axis(logits, jnp.expand_dims(labels, axis), axis=axis).take(
        0, axis=axis
    )
    log_normalizers = core.nn.logsumexp(logits, axis=axis, where=where)
    out = log_normalizers - label_logits
    if where is not None:
        out = jnp.where(jnp.any(where, axis=axis), out, 0.0)
    return out


def sigmoid_binary_cross_entropy(logits: Any, labels: Any) -> Any:
    """Returns `-labels log sigmoid(logits) - (1 - labels) log sigmoid(-logits)` elementwise.

    Args:
      logits: the logits of the positive class.
      labels: the targets in [0, 1], broadcastable to ``logits``.

    Returns:
      The loss per example (no reduction). (elementwise)
    """
    check_floating("sigmoid_binary_cross_entropy", "logits", logits)
    labels = jnp.asarray(labels).astype(jnp.result_type(logits))
    return -labels * core.nn.log_sigmoid(logits) - (1.0 - labels) * core.nn.log_sigmoid(-logits)


def hinge_loss(predictor_outputs: Any, targets: Any) -> Any:
    """Returns `max(0, 1 - outputs * targets)` for targets in {-1, 1}.

    Args:
      predictor_outputs: the scores.
      targets: the labels, -1 or 1.

    Returns:
      The loss per example (no reduction). (elementwise)
    """
    return jnp.maximum(0, 1 - predictor_outputs * targets)


def perceptron_loss(predictor_outputs: Any, targets: Any) -> Any:
    """Returns `max(0, -outputs * targets)` for targets in {-1, 1} (same shapes)."""
    check_same_shape("perceptron_loss", predictor_outputs, targets)
    return jnp.maximum(0, -predictor_outputs * targets)


def sparsemax_loss(logits: Any, labels: Any) -> Any:
    """Binary sparsemax loss: `sparse_plus(-logits)` where `labels` is 1, else `sparse_plus`.

    It is zero if and only if `sparse_sigmoid(logits) == labels` (Blondel et al., 2020).

    Args:
      logits: scores of the model.
      labels: 0/1 (or boolean) labels.

    Returns:
      The loss per entry.
    """
    return core.nn.sparse_plus(jnp.where(labels, -logits, logits))


def _label_score(scores: Any, labels: Any) -> tuple[Any, Any]:
    """The one-hot encoding of integer `labels` and the score of each label."""
    one_hot = core.nn.one_hot(labels, scores.shape[-1])
    return one_hot, jnp.sum(scores * one_hot, axis=-1)


def multiclass_hinge_loss(scores: Any, labels: Any) -> Any:
    """Returns `max_k(scores_k + 1 - [k == label]) - scores_label` (Crammer-Singer hinge).

    Args:
      scores: `[..., num_classes]` scores.
      labels: integer labels, `[...]`.

    Returns:
      The loss per example, shape `[...]`.
    """
    one_hot, label_score = _label_score(scores, labels)
    return jnp.max(scores + 1.0 - one_hot, axis=-1) - label_score


def multiclass_perceptron_loss(scores: Any, labels: Any) -> Any:
    """Returns `max_k scores_k - scores_label` (Collins, 2002).

    Args:
      scores: `[..., num_classes]` scores.
      labels: integer labels, `[...]`.

    Returns:
      The loss per example, shape `[...]`.
    """
    _, label_score = _label_score(scores, labels)
    return jnp.max(scores, axis=-1) - label_score


def poly_loss_cross_entropy(
    logits: Any, labels: Any, *, epsilon: Any = 2.0, axis: Any = -1, where: Any = None
) -> Any:
    """Poly-1 loss (Leng et al., 2022): `softmax_cross_entropy + epsilon * sum(labels * (1-p))`.

    Args:
      logits: unnormalised log-probabilities, `[..., num_classes]`.
      labels: probabilities of the same shape.
      epsilon: coefficient of the first polynomial term (2.0 for ImageNet in the paper).
      axis: the class axis (or axes).
      where: optional boolean mask of the entries to include.

    Returns:
      The loss per example.
    """
    check_floating("poly_loss_cross_entropy", "logits", logits)
    check_floating("poly_loss_cross_entropy", "labels", labels)
    p = (
        core.nn.softmax(logits, axis=axis)
        if where is None
        else core.nn.softmax(logits, axis=axis, where=where)
    )
    one_minus_pt = _sum(labels * (1 - p), axis, where)
    return softmax_cross_entropy(logits, labels, axis=axis, where=where) + epsilon * one_minus_pt


def kl_divergence(log_predictions: Any, targets: Any, axis: Any = -1, where: Any = None) -> Any:
    """Returns `KL(targets || predictions) = sum(t (log t - log p))`, with `0 log 0 = 0`.

    Args:
      log_predictions: log-probabilities of the model.
      targets: probabilities of the target distribution.
      axis: the distribution axis.
      where: optional boolean mask.

    Returns:
      The divergence along ``axis``.
    """
    check_floating("kl_divergence", "log_predictions", log_predictions)
    check_floating("kl_divergence", "targets", targets)
    safe_targets = jnp.where(targets == 0, 1.0, targets)
    loss = targets * (jnp.where(targets == 0, 0.0, jnp.log(safe_targets)) - log_predictions)
    return _sum(loss, axis, where)


def smooth_labels(labels: Any, alpha: Any, *, axis: Any = -1, where: Any = None) -> Any:
    """Returns `(1 - alpha) * labels + alpha / num_categories` (label smoothing).

    Args:
      labels: one-hot (or probability) labels.
      alpha: the smoothing weight.
      axis: the class axis.
      where: a mask of the classes counted; None for all.

    Returns:
      The smoothed labels.
    """
    check_floating("smooth_labels", "labels", labels)
    if where is None:
        if axis is None:
            axes = range(jnp.ndim(labels))
        else:
            axes = (axis,) if isinstance(axis, int) else axis
        num_categories = 1
        for a in axes:
            num_categories *= jnp.shape(labels)[a]
    else:
        num_categories = jnp.sum(where, axis=axis, keepdims=True)
    return (1.0 - alpha) * labels + alpha / num_categories


def kl_divergence_with_log_targets(
    log_predictions: Any, log_targets: Any, axis: Any = -1, where: Any = None
) -> Any:
    """Returns `sum(exp(log_t) (log_t - log_p))`: `kl_divergence` with targets in log space."""
    check_floating("kl_divergence_with_log_targets", "log_predictions", log_predictions)
    check_floating("kl_divergence_with_log_targets", "log_targets", log_targets)
    return _sum(jnp.exp(log_targets) * (log_targets - log_predictions), axis, where)


def generalized_kl_divergence(
    log_predictions: Any, targets: Any, axis: Any = -1, where: Any = None
) -> Any:
    """Returns `KL(t || p) + sum(p - t)`, the KL divergence of unnormalised distributions.

    Args:
      log_predictions: log of the (unnormalised) predicted distribution.
      targets: the (unnormalised) target distribution.
      axis: the distribution axis.
      where: optional boolean mask.

    Returns:
      The divergence along ``axis``.
    """
    x = kl_divergence(log_predictions, targets, axis=axis, where=where)
    return x + _sum(jnp.exp(log_predictions) - targets, axis, where)


def convex_kl_divergence(log_predictions: Any, targets: Any, axis: Any = -1, where: Any = None):
    """Deprecated name of `generalized_kl_divergence` (warns, as in Optax).

    Args:
      log_predictions: log-probabilities of the predictions.
      targets: the target values.
      axis: the class axis.
      where: a mask of the entries to use; None for all.

    Returns:
      The divergence along ``axis``.
    """
    warnings.warn(
        "convex_kl_divergence is deprecated, use generalized_kl_divergence instead.",
        DeprecationWarning,
        stacklevel=2,
    )
    return generalized_kl_divergence(log_predictions, targets, axis=axis, where=where)


def sigmoid_focal_loss(logits: Any, labels: Any, *, alpha: Any = None, gamma: Any = 2.0) -> Any:
    """Focal loss (Lin et al., 2017): `alpha_t (1 - p_t)**gamma * BCE(logits, labels)`.

    `(1 - p_t)**gamma` is computed in log space, `exp(gamma * log(1 - p_t))`, as in Optax.

    Args:
      logits: unnormalised log-probabilities, any shape.
      labels: binary or soft labels broadcastable to `logits`.
      alpha: optional weight of the positive class (`1 - alpha` for the negative one).
      gamma: the focusing exponent.

    Returns:
      The loss per element, shaped like `logits`.
    """
    check_floating("sigmoid_focal_loss", "logits", logits)
    labels = jnp.asarray(labels).astype(jnp.result_type(logits))
    ce_loss = sigmoid_binary_cross_entropy(logits, labels)
    log_p = core.nn.log_sigmoid(logits)
    log_q = core.nn.log_sigmoid(-logits)
    # log(1 - p_t) = logsumexp([log p, log q], b=[1 - y, y]): its gradient and Hessian stay
    # finite at extreme logits with hard labels (the max is held constant, as Optax's)
    log_one_minus_p_t = core.scipy.special.logsumexp(
        jnp.stack([log_p, log_q], axis=-1), axis=-1, b=jnp.stack([1 - labels, labels], axis=-1)
    )
    loss = ce_loss * jnp.exp(gamma * log_one_minus_p_t)
    if alpha is None:
        return loss
    return (alpha * labels + (1.0 - alpha) * (1.0 - labels)) * loss


def _multiclass_sparsemax_loss(scores: Any, label: Any) -> Any:
    proba = projection_simplex(scores)
    # The Gini negentropy's conjugate at the scores shifted so the label's score is 0.
    scores = (scores - scores[label]).at[label].set(0.0)
    return jnp.dot(proba, jnp.where(proba, scores, 0.0)) + 0.5 * (1.0 - jnp.dot(proba, proba))


def multiclass_sparsemax_loss(scores: Any, labels: Any) -> Any:
    """Multiclass sparsemax loss (Martins & Astudillo, 2016): the Fenchel-Young loss of the
    Gini negentropy, zero exactly when `sparsemax(scores)` is the one-hot label.

    Args:
      scores: `[batch, num_classes]` scores.
      labels: `[batch]` integer labels.

    Returns:
      The loss per example, shape `[batch]`.
    """
    return core.vmap(_multiclass_sparsemax_loss)(jnp.asarray(scores), labels)
