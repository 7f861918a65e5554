"""A small speech-style recognizer trained with CTC (ours). Utterances are frames of noisy
feature patterns, one pattern per symbol held for a random number of frames, padded to a fixed
length. The model is a 1-D `nn.Conv` front end, then `nn.Bidirectional` of two
`nn.RNN(nn.GRUCell)`s (the backward one `reverse=True, keep_order=True`) given `seq_lengths`,
with `return_carry=True` for the final states, and a `Dense` head over the symbols plus a blank.
The loss is `optax.ctc_loss` with logit and label paddings (and its forward probabilities from
`ctc_loss_with_forward_probs`); training is a jitted `value_and_grad` step with
`optax.adabelief` behind `clip_by_global_norm`, stopped by `flax.training.early_stopping`.
Decoding is greedy: the argmax path with repeats merged and blanks dropped. Also one
`nn.RNN` over `nn.MGUCell` run `time_major`, and `nn.RNN` with `reverse=True` alone (its
outputs in reversed order) against `keep_order=True`. Checks losses, decodes, carries, the
early-stopping state, parameters and paths."""

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax.training import early_stopping

FRAMES = 16
FEATURES = 5
SYMBOLS = 3  # labels 1..3, 0 is the blank
MAX_LABELS = 4


def utterances(rs, n):
    """`n` padded utterances: frames, frame paddings, labels and label paddings."""
    patterns = rs.randn(SYMBOLS + 1, FEATURES).astype(np.float32)
    frames = np.zeros((n, FRAMES, FEATURES), np.float32)
    frame_pad = np.ones((n, FRAMES), np.float32)
    labels = np.zeros((n, MAX_LABELS), np.int32)
    label_pad = np.ones((n, MAX_LABELS), np.float32)
    for i in range(n):
        count = rs.randint(1, MAX_LABELS + 1)
        symbols = rs.randint(1, SYMBOLS + 1, size=count)
        t = 0
        for s in symbols:
            hold = rs.randint(2, 4)
            frames[i, t : t + hold] = patterns[s]
            t += hold
            frames[i, t] = patterns[0]  # a short silence between symbols
            t += 1
        frames[i, :t] += 0.3 * rs.randn(t, FEATURES)
        frame_pad[i, :t] = 0.0
        labels[i, :count] = symbols
        label_pad[i, :count] = 0.0
    return frames, frame_pad, labels, label_pad


class Recognizer(nn.Module):
    hidden: int = 8

    @nn.compact
    def __call__(self, frames, lengths):
        x = nn.gelu(nn.Conv(12, kernel_size=(3,), padding="SAME", name="frontend")(frames))
        birnn = nn.Bidirectional(
            nn.RNN(nn.GRUCell(self.hidden), name="forward"),
            nn.RNN(nn.GRUCell(self.hidden), reverse=True, keep_order=True, name="backward"),
            return_carry=True,
        )
        (forward_carry, backward_carry), states = birnn(x, seq_lengths=lengths)
        return nn.Dense(SYMBOLS + 1, name="head")(states), (forward_carry, backward_carry)


def greedy_decode(logits, frame_pad):
    """The argmax path per utterance with repeats merged and blanks dropped."""
    best = np.asarray(jnp.argmax(logits, axis=-1))
    texts = []
    for path, pad in zip(best, np.asarray(frame_pad)):
        out, previous = [], -1
        for t, s in enumerate(path):
            if pad[t] == 0 and s != previous and s != 0:
                out.append(int(s))
            previous = s if pad[t] == 0 else previous
        texts.append(out)
    return texts


def run():
    rs = np.random.RandomState(3)
    frames, frame_pad, labels, label_pad = utterances(rs, 6)
    lengths = jnp.asarray((1 - frame_pad).sum(axis=1), jnp.int32)
    model = Recognizer()
    params = model.init(jax.random.key(0), frames, lengths)["params"]
    tx = optax.chain(optax.clip_by_global_norm(1.0), optax.adabelief(0.03))
    opt_state = tx.init(params)

    def loss_fn(params):
        logits, _ = model.apply({"params": params}, frames, lengths)
        return optax.ctc_loss(logits, frame_pad, labels, label_pad).mean()

    @jax.jit
    def step(params, opt_state):
        loss, grads = jax.value_and_grad(loss_fn)(params)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    stopper = early_stopping.EarlyStopping(min_delta=1.0, patience=1)
    losses, stops = [], []
    for _ in range(5):
        params, opt_state, loss = step(params, opt_state)
        losses.append(loss)
        stopper = stopper.update(loss)
        stops.append([stopper.should_stop, int(stopper.patience_count)])
        if stopper.should_stop:
            break

    logits, carries = model.apply({"params": params}, frames, lengths)
    per_seq, log_alpha, log_beta = optax.ctc_loss_with_forward_probs(
        logits, frame_pad, labels, label_pad
    )

    # one direction alone: reverse without keep_order gives outputs in reversed time
    cell_rnn = nn.RNN(nn.GRUCell(4), reverse=True)
    short = jnp.asarray(frames[:2, :6])
    rnn_params = cell_rnn.init(jax.random.key(1), short)
    reversed_out = cell_rnn.apply(rnn_params, short)
    kept_out = cell_rnn.apply(rnn_params, short, keep_order=True)
    mgu = nn.RNN(nn.MGUCell(3), time_major=True, return_carry=True)
    time_major = jnp.swapaxes(short, 0, 1)
    mgu_vars = mgu.init(jax.random.key(2), time_major)
    mgu_carry, mgu_out = mgu.apply(mgu_vars, time_major)

    flat = jax.tree_util.tree_flatten_with_path(params)[0]
    return dict(
        labels=labels,
        losses=losses,
        stops=stops,
        best=float(stopper.best_metric),
        per_seq=per_seq,
        log_alpha=log_alpha,
        log_beta_shape=list(log_beta.shape),
        decoded=greedy_decode(logits, frame_pad),
        carries=list(carries),
        reversed_out=reversed_out,
        kept_flipped=jnp.flip(kept_out, axis=1),
        mgu=[mgu_carry, mgu_out],
        mgu_params=jax.tree.map(jnp.shape, mgu_vars["params"]),
        params=[leaf for _, leaf in flat],
        paths=[jax.tree_util.keystr(p) for p, _ in flat],
    )
