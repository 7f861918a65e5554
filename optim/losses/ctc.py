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
    batchsize, _, num_classes = jnp.shape(logits)
    maxlabellen = jnp.shape(labels)[1]

    logprobs = core.nn.log_softmax(logits)
    labellens = maxlabellen - jnp.sum(label_paddings, axis=1).astype(jnp.int32)
    repeat = (labels[:, :-1] == labels[:, 1:]).astype(jnp.float32)
    repeat = jnp.pad(repeat, ((0, 0), (0, 1)))

    logprobs_phi = jnp.transpose(logprobs[:, :, blank_id : blank_id + 1], (1, 0, 2))  # [T,B,1]
    one_hot = core.nn.one_hot(labels, num_classes)  # [B, N, K]
    logprobs_emit = jnp.transpose(jnp.einsum("btk,bnk->btn", logprobs, one_hot), (1, 0, 2))

    logalpha_phi_init = jnp.ones((batchsize, maxlabellen + 1)) * log_epsilon
    logalpha_phi_init = logalpha_phi_init.at[:, 0].set(0.0)
    logalpha_emit_init = jnp.ones((batchsize, maxlabellen)) * log_epsilon

    def update_phi_score(phi, added_score):
        return jnp.concatenate([phi[:, :1], jnp.logaddexp(phi[:, 1:], added_score)], axis=-1)

    def loop_body(prev, x):
        prev_phi, prev_emit = prev
        prev_phi_orig = prev_phi
        prev_phi = update_phi_score(prev_phi, prev_emit + log_epsilon * repeat)
        logprob_emit, logprob_phi, pad = x
        next_emit = jnp.logaddexp(prev_phi[:, :-1] + logprob_emit, prev_emit + logprob_emit)
        next_phi = prev_phi + logprob_phi
        next_phi = update_phi_score(
            next_phi, prev_emit + logprob_phi + log_epsilon * (1.0 - repeat)
        )
        pad = jnp.reshape(pad, (batchsize, 1))
        next_emit = pad * prev_emit + (1.0 - pad) * next_emit
        next_phi = pad * prev_phi_orig + (1.0 - pad) * next_phi
        return (next_phi, next_emit), (next_phi, next_emit)

    xs = (logprobs_emit, logprobs_phi, jnp.transpose(logit_paddings, (1, 0)))
    _, (logalpha_phi, logalpha_emit) = lax.scan(
        loop_body, (logalpha_phi_init, logalpha_emit_init), xs
    )
    logalpha_phi_last = update_phi_score(logalpha_phi[-1], logalpha_emit[-1])
    logalpha_phi = logalpha_phi.at[-1].set(logalpha_phi_last)
    one_hot_len = core.nn.one_hot(labellens, maxlabellen + 1)
    per_seq_loss = -jnp.einsum("bn,bn->b", logalpha_phi_last, one_hot_len)
    return per_seq_loss, logalpha_phi, logalpha_emit


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
