"""The character LSTM example: the text ships, the loss drops, greedy decoding works."""

import numpy as np

from examples.lstm_lm.train import TEXT_PATH, Vocab, generate, train_lm


def test_text_ships_and_vocab_round_trips():
    text = TEXT_PATH.read_text()
    assert 20_000 <= len(text.encode()) <= 50_000
    vocab = Vocab(text)
    assert vocab.decode(vocab.encode(text[:500])) == text[:500]
    assert 30 <= len(vocab) <= 80


def test_training_lowers_the_loss_and_decodes():
    state, vocab, losses = train_lm(
        steps=60, batch_size=8, seq_len=32, hidden=32, lr=1e-2, log_every=0
    )
    assert abs(losses[0] - np.log(len(vocab))) < 0.3  # starts near uniform
    assert np.mean(losses[-10:]) < losses[0] - 0.8
    text = generate(state, vocab, "MARCIUS:\n", 40)
    assert text.startswith("MARCIUS:\n") and len(text) == len("MARCIUS:\n") + 40
    assert set(text) <= set(vocab.chars)
