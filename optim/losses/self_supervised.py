"""Self-supervised (contrastive) losses: `ntxent` and `triplet_margin_loss`."""

from __future__ import annotations

from typing import Any

import core.numpy as jnp
from core import lax
from optim.errors import BatchAxisError
from optim.losses.checks import check_floating
from optim.losses.regression import cosine_similarity


def ntxent(embeddings: Any, labels: Any, temperature: Any = 0.07) -> Any:
    """Normalised temperature-scaled cross entropy (SimCLR's NT-Xent), a scalar.

    Pairs with equal labels are positives, the others negatives; each positive pair is a
    softmax over itself and all negatives of the anchor.

    Args:
      embeddings: `[batch, dim]` floating embeddings.
      labels: `[batch]` integer labels.
      temperature: the softmax temperature.

    Returns:
      The mean loss over positive pairs.

    Raises:
      BatchAxisError: if `labels` and `embeddings` disagree on the batch size (a `ValueError`).
    """
    check_floating("ntxent", "embeddings", embeddings)
    if labels.shape[0] != embeddings.shape[0]:
        raise BatchAxisError(
            "Labels and embeddings must have the same leading dimension, found "
            f"{labels.shape[0]} for labels and {embeddings.shape[0]} for embeddings."
        )
    eps = jnp.finfo(embeddings.dtype).eps
    xcs = (
        cosine_similarity(embeddings[None, :, :], embeddings[:, None, :], epsilon=eps) / temperature
    )
    same = jnp.expand_dims(labels, 1) == jnp.expand_dims(labels, 0)
    diffs = jnp.logical_not(same)
    matches = jnp.logical_and(same, jnp.logical_not(jnp.eye(same.shape[0], dtype=bool)))
    xcs_diffs = jnp.where(diffs, xcs, -jnp.inf)
    xcs_matches = jnp.where(matches, xcs, -jnp.inf)
    xcs_max = jnp.max(jnp.concatenate((xcs_diffs, xcs_matches), axis=-1), axis=1, keepdims=True)
    shift_diffs = xcs_diffs - lax.stop_gradient(xcs_max)
    shift_matches = xcs_matches - lax.stop_gradient(xcs_max)
    denom = jnp.sum(jnp.exp(shift_diffs), axis=1, keepdims=True) + jnp.exp(shift_matches)
    log_softm = shift_matches - jnp.log(denom)
    return -jnp.sum(jnp.where(matches, log_softm, 0.0)) / jnp.sum(matches)


def triplet_margin_loss(
    anchors: Any,
    positives: Any,
    negatives: Any,
    axis: int = -1,
    norm_degree: Any = 2,
    margin: Any = 1.0,
    eps: Any = 1e-6,
) -> Any:
    """Returns `max(d(a, p) - d(a, n) + margin, 0)` along `axis`.

    The distance is `d(x, y) = (sum((x - y)**norm_degree) + eps)**(1 / norm_degree)`.
    """
    for name, x in (("anchors", anchors), ("positives", positives), ("negatives", negatives)):
        check_floating("triplet_margin_loss", name, x)
    pos = jnp.power(
        jnp.sum(jnp.power(anchors - positives, norm_degree), axis) + eps, 1 / norm_degree
    )
    neg = jnp.power(
        jnp.sum(jnp.power(anchors - negatives, norm_degree), axis) + eps, 1 / norm_degree
    )
    return jnp.maximum(pos - neg + margin, 0)
