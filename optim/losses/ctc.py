"""Connectionist temporal classification (Graves et al., 2006), as Optax computes it.

The forward recursion runs over time with `lax.scan` on two log-alpha arrays: `phi` (the
alignment is in a blank after label `n`) and `emit` (it is emitting label `n`). Padded frames
carry the previous alphas forward; `log_epsilon` stands for log(0) so nothing becomes `-inf`.
"""

from __future__ import annotations

from typing import Any

import core
import core.numpy as jnp
from core import lax
from optim.errors import BatchAxisError
from optim.losses.checks import check_floating


def _check_shapes(logits: Any, logit_paddings: Any, labels: Any, label_paddings: Any) -> None:
    if jnp.ndim(logits) != 3 or jnp.ndim(labels) != 2:
        raise BatchAxisError(
            f"ctc_loss expects logits [B, T, K] and labels [B, N], got shapes "
            f"{jnp.shape(logits)} and {jnp.shape(labels)}."
        )
    if jnp.shape(labels) != jnp.shape(label_paddings):
        raise BatchAxisError(
            f"ctc_loss: labels {jnp.shape(labels)} and label_paddings "
            f"{jnp.shape(label_paddings)} must have the same shape."
        )
    if jnp.shape(logits)[:2] != jnp.shape(logit_paddings):
        raise BatchAxisError(
            f"Shape mismatch: got {jnp.shape(logits)[:2]} and {jnp.shape(logit_paddings)}.\n"
            "ctc_loss: logit_paddings must have logits' [B, T] shape."
        )
    if jnp.shape(labels)[0] != jnp.shape(logits)[0]:
        raise BatchAxisError(
            f"Expected `labels` to have batch size {jnp.shape(logits)[0]}, got "
            f"{jnp.shape(labels)[0]}."
        )


def _enter_blanks(blank: Any, arriving: Any) -> Any:
    """Log-adds `arriving[:, n]` into blank state `n + 1`; blank state 0 has no label before it."""
    first, rest = blank[:, :1], blank[:, 1:]
    return jnp.concatenate([first, jnp.logaddexp(rest, arriving)], axis=-1)


def _keep_where_padded(padded: Any, before: Any, after: Any) -> Any:
    """Blends per row: `before` on padded frames (`padded == 1`), `after` on real ones."""
    return padded * before + (1.0 - padded) * after


def _time_major(x: Any) -> Any:
    return jnp.swapaxes(x, 0, 1)


def ctc_loss_with_forward_probs(
    logits: Any,
    logit_paddings: Any,
    labels: Any,
    label_paddings: Any,
    *,
    blank_id: int = 0,
    log_epsilon: Any = -1e5,
) -> tuple[Any, Any, Any]:
    """Returns the CTC loss per sequence and the forward log-probabilities.

    Args:
      logits: `[B, T, K]` logits, `K` including the blank.
      logit_paddings: `[B, T]`, 1.0 for padded frames.
      labels: `[B, N]` integer labels, right-padded.
      label_paddings: `[B, N]`, 1.0 for padded labels.
      blank_id: the class index of the blank.
      log_epsilon: stands for log(0).

    Returns:
      `(loss [B], logalpha_blank [T, B, N+1], logalpha_nonblank [T, B, N])`.

    Raises:
      BatchAxisError: for inconsistent shapes (a `ValueError`).
    """
    check_floating("ctc_loss", "logits", logits)
    _check_shapes(logits, logit_paddings, labels, label_paddings)
    n_seq, _, n_classes = jnp.shape(logits)
    n_labels = jnp.shape(labels)[1]

    log_p = core.nn.log_softmax(logits)
    label_onehot = core.nn.one_hot(labels, n_classes)  # [B, N, K]
    # Time-major emissions: the blank's [T, B, 1] and each label position's [T, B, N].
    blank_lp = _time_major(log_p[:, :, blank_id : blank_id + 1])
    label_lp = _time_major(jnp.einsum("btk,bnk->btn", log_p, label_onehot))
    frame_pad = _time_major(logit_paddings)

    # same_next[:, n] is 1 where label n + 1 equals label n (the last position never repeats):
    # then label n cannot be left straight for label n + 1, only through the blank between.
    same_next = jnp.pad((labels[:, 1:] == labels[:, :-1]).astype(jnp.float32), ((0, 0), (0, 1)))
    n_real = n_labels - jnp.sum(label_paddings, axis=1).astype(jnp.int32)

    unreachable_blank = jnp.ones((n_seq, n_labels + 1)) * log_epsilon
    start_blank = unreachable_blank.at[:, 0].set(0.0)
    start_label = jnp.ones((n_seq, n_labels)) * log_epsilon

    def advance(alphas, frame):
        blank, label = alphas
        lp_label, lp_blank, padded = frame
        # Finishing a label that is not repeated lands in the blank after it at no cost.
        settled = _enter_blanks(blank, label + log_epsilon * same_next)
        new_label = jnp.logaddexp(settled[:, :-1] + lp_label, label + lp_label)
        # A repeated label reaches the blank after it only by emitting that blank.
        new_blank = _enter_blanks(
            settled + lp_blank, label + lp_blank + log_epsilon * (1.0 - same_next)
        )
        padded = jnp.reshape(padded, (n_seq, 1))
        new_label = _keep_where_padded(padded, label, new_label)
        new_blank = _keep_where_padded(padded, blank, new_blank)
        return (new_blank, new_label), (new_blank, new_label)

    _, (alpha_blank, alpha_label) = lax.scan(
        advance, (start_blank, start_label), (label_lp, blank_lp, frame_pad)
    )
    final_blank = _enter_blanks(alpha_blank[-1], alpha_label[-1])
    alpha_blank = alpha_blank.at[-1].set(final_blank)
    # The loss reads blank state n_real (every real label emitted) of the last frame.
    at_end = core.nn.one_hot(n_real, n_labels + 1)
    return -jnp.einsum("bs,bs->b", final_blank, at_end), alpha_blank, alpha_label


def ctc_loss(
    logits: Any,
    logit_paddings: Any,
    labels: Any,
    label_paddings: Any,
    *,
    blank_id: int = 0,
    log_epsilon: Any = -1e5,
) -> Any:
    """Returns the CTC loss per sequence, `[B]`; see `ctc_loss_with_forward_probs`.

    Args:
      logits: ``[B, T, K]`` logits, class ``blank_id`` the blank.
      logit_paddings: ``[B, T]``, 1.0 at padded time steps.
      labels: ``[B, N]`` integer labels.
      label_paddings: ``[B, N]``, 1.0 at padded label positions.
      blank_id: the class of the blank.
      log_epsilon: the log-probability used for impossible transitions.

    Returns:
      The loss per sequence, ``[B]``.
    """
    per_seq_loss, _, _ = ctc_loss_with_forward_probs(
        logits, logit_paddings, labels, label_paddings, blank_id=blank_id, log_epsilon=log_epsilon
    )
    return per_seq_loss
