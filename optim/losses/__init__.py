"""Losses with Optax's names and conventions: per-example values, the caller reduces."""

from optim.losses.classification import (
    hinge_loss,
    kl_divergence,
    safe_softmax_cross_entropy,
    sigmoid_binary_cross_entropy,
    smooth_labels,
    softmax_cross_entropy,
    softmax_cross_entropy_with_integer_labels,
)
from optim.losses.regression import (
    cosine_distance,
    cosine_similarity,
    huber_loss,
    l2_loss,
    log_cosh,
    squared_error,
)

__all__ = [
    "cosine_distance",
    "cosine_similarity",
    "hinge_loss",
    "huber_loss",
    "kl_divergence",
    "l2_loss",
    "log_cosh",
    "safe_softmax_cross_entropy",
    "sigmoid_binary_cross_entropy",
    "smooth_labels",
    "softmax_cross_entropy",
    "softmax_cross_entropy_with_integer_labels",
    "squared_error",
]
