"""A character-level LSTM language model: ``python -m examples.lstm_lm.train``.

Trains an ``Embed -> RNN(LSTMCell) -> Dense`` model to predict the next character of the
opening of Shakespeare's *Coriolanus* (``coriolanus.txt``, public domain, shipped with this
example), then writes text by greedy decoding. The LSTM runs over time with `nn.RNN`, which
is a `core.lax.scan`: one compiled loop, not a Python loop. The carry ``(c, h)`` is an
explicit input and output of the model, so decoding one character at a time reuses the same
function. README.md tells how this maps from a PyTorch LSTM.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

import core
import core.numpy as jnp
import nn
import optim
from core import random
from train import TrainState

TEXT_PATH = Path(__file__).with_name("coriolanus.txt")


class Vocab:
    """The characters of a text, as integer ids in sorted order."""

    def __init__(self, text: str):
        self.chars = sorted(set(text))
        self.index = {c: i for i, c in enumerate(self.chars)}

    def __len__(self) -> int:
        return len(self.chars)

    def encode(self, text: str) -> np.ndarray:
        """Characters to ids (int32)."""
        return np.array([self.index[c] for c in text], dtype=np.int32)

    def decode(self, ids: Sequence[int]) -> str:
        """Ids to characters."""
        return "".join(self.chars[int(i)] for i in ids)


class CharLSTM(nn.Module):
    """Embedding, one LSTM layer scanned over time, and a linear read-out.

    Attributes:
        vocab_size: number of distinct characters.
        embed_dim: embedding width.
        hidden: LSTM state size.
    """

    vocab_size: int
    embed_dim: int = 32
    hidden: int = 128

    @nn.compact
    def __call__(self, tokens, carry=None):
        """Maps ``tokens`` ``[batch, time]`` to ``(final_carry, logits [batch, time, vocab])``.

        ``carry`` is the LSTM state ``(c, h)`` to start from (zeros when None).
        """
        x = nn.Embed(self.vocab_size, self.embed_dim)(tokens)
        carry, h = nn.RNN(nn.LSTMCell(self.hidden), return_carry=True)(x, initial_carry=carry)
        return carry, nn.Dense(self.vocab_size)(h)


def get_batch(data: np.ndarray, key: Any, batch_size: int, seq_len: int) -> dict[str, np.ndarray]:
    """Random windows of the text: inputs and the same windows shifted by one character."""
    starts = np.asarray(random.randint(key, (batch_size,), 0, len(data) - seq_len - 1))
    windows = data[starts[:, None] + np.arange(seq_len + 1)]
    return {"inputs": windows[:, :-1], "targets": windows[:, 1:]}


def loss_fn(params: Any, state: TrainState, batch: dict[str, Any]) -> Any:
    """Mean next-character cross entropy (nats)."""
    _, logits = state.apply_fn({"params": params}, batch["inputs"])
    return optim.softmax_cross_entropy_with_integer_labels(logits, batch["targets"]).mean()


@core.jit
def train_step(state: TrainState, batch: dict[str, Any]) -> tuple[TrainState, Any]:
    """One Adam step with clipped gradients; returns the new state and the loss."""
    loss, grads = core.value_and_grad(loss_fn)(state.params, state, batch)
    return state.apply_gradients(grads=grads), loss


@core.jit
def decode_step(state: TrainState, carry: Any, token: Any) -> tuple[Any, Any]:
    """Feeds one ``[batch]`` token per sequence; returns the new carry and the argmax next token."""
    carry, logits = state.apply_fn({"params": state.params}, token[:, None], carry)
    return carry, jnp.argmax(logits[:, -1], axis=-1).astype(jnp.int32)


def generate(state: TrainState, vocab: Vocab, prompt: str, length: int) -> str:
    """Greedy decoding: the prompt sets the state, then each most likely character is fed back.

    Args:
        state: the trained state.
        vocab: the character vocabulary.
        prompt: text to start from (its characters must be in the vocabulary).
        length: number of characters to add.

    Returns:
        The prompt followed by ``length`` generated characters.
    """
    prompt_ids = vocab.encode(prompt)[None, :]
    carry, logits = state.apply_fn({"params": state.params}, prompt_ids)
    token = jnp.argmax(logits[:, -1], axis=-1).astype(jnp.int32)
    out = [int(token[0])]
    for _ in range(length - 1):
        carry, token = decode_step(state, carry, token)
        out.append(int(token[0]))
    return prompt + vocab.decode(out)


def train_lm(
    steps: int = 400,
    batch_size: int = 32,
    seq_len: int = 64,
    hidden: int = 128,
    lr: float = 3e-3,
    seed: int = 0,
    log_every: int = 100,
) -> tuple[TrainState, Vocab, list[float]]:
    """Trains the model on the shipped text.

    Args:
        steps: optimizer steps.
        batch_size: windows per step.
        seq_len: characters per window.
        hidden: LSTM state size.
        lr: Adam learning rate (gradients are clipped to global norm 1).
        seed: seeds initialization and the batches.
        log_every: print the running loss every this many steps (0: never).

    Returns:
        The trained state, the vocabulary and the loss of every step.
    """
    text = TEXT_PATH.read_text()
    vocab = Vocab(text)
    data = vocab.encode(text)
    model = CharLSTM(vocab_size=len(vocab), hidden=hidden)
    init_key, data_key = random.split(random.key(seed))
    params = model.init(init_key, np.zeros((1, seq_len), np.int32))["params"]
    tx = optim.chain(optim.clip_by_global_norm(1.0), optim.adam(lr))
    state = TrainState.create(apply_fn=model.apply, params=params, tx=tx)
    losses = []
    for step in range(steps):
        batch = get_batch(data, random.fold_in(data_key, step), batch_size, seq_len)
        state, loss = train_step(state, batch)
        losses.append(float(loss))
        if log_every and (step + 1) % log_every == 0:
            recent = np.mean(losses[-log_every:])
            print(f"step {step + 1}: loss {recent:.3f} nats/char ({recent / np.log(2):.2f} bits)")
    return state, vocab, losses


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(
        prog="python -m examples.lstm_lm.train",
        description="Train a character LSTM on Coriolanus and decode greedily.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--seq-len", type=int, default=64)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--prompt", default="MARCIUS:\n")
    parser.add_argument("--length", type=int, default=200, help="characters to generate")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    state, vocab, losses = train_lm(
        args.steps, args.batch_size, args.seq_len, args.hidden, args.lr, args.seed
    )
    seconds = time.perf_counter() - start
    print(f"trained {args.steps} steps in {seconds:.1f}s; loss {losses[0]:.3f} -> {losses[-1]:.3f}")
    print("-" * 40)
    print(generate(state, vocab, args.prompt, args.length))
    return 0


if __name__ == "__main__":
    sys.exit(main())
