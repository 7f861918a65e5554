"""A character-level LSTM language model: ``python -m examples.lstm_lm.train`` (see README.md)."""
