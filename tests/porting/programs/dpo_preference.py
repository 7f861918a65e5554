"""A small causal language model fine-tuned on preference pairs by direct preference
optimisation (ours, written in Flax Linen as today's preference-tuning scripts write one).

The policy and a frozen reference start from the same supervised-tuned parameters (a few
steps of next-token training first). A batch holds a shared prompt and a chosen and a rejected
completion, right-padded; a loss mask keeps the completion tokens. Sequence log-probabilities
are the sums of `jnp.take_along_axis` of `jax.nn.log_softmax` at the next tokens under the
mask; the DPO loss is `-log_sigmoid(beta * (policy margin - reference margin))` with the
reference's log-probabilities under `lax.stop_gradient`, and the implicit rewards, accuracy and
margins are the usual metrics; IPO's squared loss and a label-smoothed (conservative) DPO are
computed on the same margins. The policy trains with `optax.adamw` after
`optax.clip_by_global_norm` in a jitted step that also returns the per-token KL to the
reference. Checks the SFT losses, the log-probabilities, the DPO metrics over the steps, the
other losses and the parameters."""

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from jax import lax

VOCAB, LENGTH = 20, 10
PAD = 0


class TinyLM(nn.Module):
    width: int = 16

    @nn.compact
    def __call__(self, tokens):
        x = nn.Embed(VOCAB, self.width)(tokens)
        x = x + self.param("pos", nn.initializers.normal(0.02), (LENGTH, self.width))
        mask = nn.make_causal_mask(tokens)
        h = nn.MultiHeadDotProductAttention(num_heads=2, use_bias=False)(nn.RMSNorm()(x),
                                                                         mask=mask)  # fmt: skip
        x = x + h
        x = x + nn.Dense(self.width)(nn.silu(nn.Dense(32)(nn.RMSNorm()(x))))
        return nn.Dense(VOCAB)(nn.RMSNorm()(x))


model = TinyLM()


def token_logprobs(params, tokens):
    logits = model.apply({"params": params}, tokens)[:, :-1]
    logp = jax.nn.log_softmax(logits, axis=-1)
    return jnp.take_along_axis(logp, tokens[:, 1:, None], axis=-1)[..., 0], logits


def sequence_logprob(params, tokens, loss_mask):
    per_token, _ = token_logprobs(params, tokens)
    return jnp.sum(per_token * loss_mask[:, 1:], axis=-1)


def make_pairs(key, n=6, prompt_len=3):
    """Chosen completions count upward from the prompt's last token, rejected ones repeat it."""
    k1, k2 = jax.random.split(key)
    prompts = jax.random.randint(k1, (n, prompt_len), 1, VOCAB // 2)
    lengths = jax.random.randint(k2, (n,), 3, LENGTH - prompt_len + 1)
    steps = jnp.arange(1, LENGTH - prompt_len + 1)
    chosen_tail = (prompts[:, -1:] + steps) % (VOCAB - 1) + 1
    rejected_tail = jnp.broadcast_to(prompts[:, -1:], chosen_tail.shape)
    valid = steps[None] <= lengths[:, None]
    chosen = jnp.concatenate([prompts, jnp.where(valid, chosen_tail, PAD)], 1)
    rejected = jnp.concatenate([prompts, jnp.where(valid, rejected_tail, PAD)], 1)
    positions = jnp.arange(LENGTH)
    loss_mask = (positions >= prompt_len) & (positions < prompt_len + lengths[:, None])
    return chosen, rejected, loss_mask.astype(jnp.float32)


def sft_loss(params, tokens, loss_mask):
    per_token, _ = token_logprobs(params, tokens)
    return -jnp.sum(per_token * loss_mask[:, 1:]) / jnp.sum(loss_mask[:, 1:])


def preference_margins(params, ref_params, chosen, rejected, loss_mask):
    policy_chosen = sequence_logprob(params, chosen, loss_mask)
    policy_rejected = sequence_logprob(params, rejected, loss_mask)
    ref_chosen = lax.stop_gradient(sequence_logprob(ref_params, chosen, loss_mask))
    ref_rejected = lax.stop_gradient(sequence_logprob(ref_params, rejected, loss_mask))
    return policy_chosen - ref_chosen, policy_rejected - ref_rejected


def dpo_loss(params, ref_params, chosen, rejected, loss_mask, beta=0.5, smoothing=0.0):
    chosen_ratio, rejected_ratio = preference_margins(params, ref_params, chosen, rejected,
                                                      loss_mask)  # fmt: skip
    logits = beta * (chosen_ratio - rejected_ratio)
    losses = (-(1 - smoothing) * jax.nn.log_sigmoid(logits)
              - smoothing * jax.nn.log_sigmoid(-logits))  # fmt: skip
    metrics = {
        "chosen_reward": beta * chosen_ratio.mean(),
        "rejected_reward": beta * rejected_ratio.mean(),
        "accuracy": jnp.mean(chosen_ratio > rejected_ratio),
        "margin": logits.mean(),
    }
    return losses.mean(), metrics


def ipo_loss(params, ref_params, chosen, rejected, loss_mask, tau=0.1):
    chosen_ratio, rejected_ratio = preference_margins(params, ref_params, chosen, rejected,
                                                      loss_mask)  # fmt: skip
    return jnp.mean((chosen_ratio - rejected_ratio - 1 / (2 * tau)) ** 2)


tx = optax.chain(optax.clip_by_global_norm(1.0), optax.adamw(5e-3, weight_decay=0.0))


@jax.jit
def sft_step(params, opt_state, tokens, loss_mask):
    loss, grads = jax.value_and_grad(sft_loss)(params, tokens, loss_mask)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


@jax.jit
def dpo_step(params, opt_state, ref_params, chosen, rejected, loss_mask):
    (loss, metrics), grads = jax.value_and_grad(dpo_loss, has_aux=True)(
        params, ref_params, chosen, rejected, loss_mask
    )
    updates, opt_state = tx.update(grads, opt_state, params)
    _, logits = token_logprobs(params, chosen)
    _, ref_logits = token_logprobs(ref_params, chosen)
    kl = jnp.sum(jax.nn.softmax(logits) * (jax.nn.log_softmax(logits)
                                           - jax.nn.log_softmax(ref_logits)), -1)  # fmt: skip
    metrics["kl"] = jnp.sum(kl * loss_mask[:, 1:]) / jnp.sum(loss_mask[:, 1:])
    return optax.apply_updates(params, updates), opt_state, loss, metrics


def run():
    out = {}
    chosen, rejected, loss_mask = make_pairs(jax.random.PRNGKey(0))
    out["pairs"] = {"chosen": chosen, "rejected": rejected, "mask": loss_mask}
    params = model.init(jax.random.PRNGKey(1), chosen)["params"]

    # supervised tuning on both completions gives the reference
    opt_state = tx.init(params)
    sft_tokens = jnp.concatenate([chosen, rejected])
    sft_mask = jnp.concatenate([loss_mask, loss_mask])
    sft_losses = []
    for _ in range(4):
        params, opt_state, loss = sft_step(params, opt_state, sft_tokens, sft_mask)
        sft_losses.append(loss)
    out["sft_losses"] = jnp.stack(sft_losses)
    ref_params = params
    out["ref_logprobs"] = jnp.stack([sequence_logprob(ref_params, chosen, loss_mask),
                                     sequence_logprob(ref_params, rejected, loss_mask)])  # fmt: skip

    opt_state = tx.init(params)
    history = []
    for _ in range(6):
        params, opt_state, loss, metrics = dpo_step(params, opt_state, ref_params, chosen,
                                                    rejected, loss_mask)  # fmt: skip
        history.append({"loss": loss, **metrics})
    out["dpo"] = jax.tree.map(lambda *xs: jnp.stack(xs), *history)
    out["ipo"] = ipo_loss(params, ref_params, chosen, rejected, loss_mask)
    out["conservative"] = dpo_loss(params, ref_params, chosen, rejected, loss_mask,
                                   smoothing=0.1)[0]  # fmt: skip
    out["ref_grad_is_zero"] = bool(
        optax.global_norm(
            jax.grad(lambda r: dpo_loss(params, r, chosen, rejected, loss_mask)[0])(ref_params)
        )
        == 0.0
    )
    out["params"] = params
    return out
