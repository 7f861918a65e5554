"""train.early_stopping.EarlyStopping: the sequence Flax 0.12.8 gives for the same updates."""

from train.early_stopping import EarlyStopping

# (best_metric, patience_count, should_stop, has_improved) after each update, from Flax
FLAX = [
    (1.0, 0, False, True),
    (1.0, 1, False, False),
    (0.8, 0, False, True),
    (0.8, 1, False, False),
    (0.8, 2, True, False),
    (0.5, 0, True, True),
    (0.5, 1, True, False),
    (0.5, 2, True, False),
    (0.5, 3, True, False),
]


def test_update_sequence_and_reset():
    stop = EarlyStopping(min_delta=0.1, patience=1)
    got = []
    for metric in [1.0, 0.95, 0.8, 0.85, 0.9, 0.5, 0.7, 0.7, 0.7]:
        stop = stop.update(metric)
        got.append((stop.best_metric, stop.patience_count, stop.should_stop, stop.has_improved))
    assert got == FLAX
    assert stop.reset() == EarlyStopping(min_delta=0.1, patience=1)


def test_defaults_are_flaxs():
    assert EarlyStopping() == EarlyStopping(0, 0, float("inf"), 0, False, False)
