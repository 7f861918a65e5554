"""TensorBoard writer: the event files contain the expected tags and values."""

import numpy as np
import pytest

import core.numpy as jnp
from train.tensorboard import SummaryWriter, read_events, read_scalars


def _by_kind(log_dir):
    kinds = {}
    for event in read_events(log_dir):
        for value in event.summary.value:
            kind = value.WhichOneof("value") or "metadata"
            kinds.setdefault(kind, {})[value.tag] = (event.step, value)
    return kinds


def test_scalars_text_histograms_hparams(tmp_path):
    params = {"Dense_0": {"kernel": jnp.ones((3, 2)), "bias": np.zeros(2)}}
    with SummaryWriter(tmp_path) as writer:
        writer.scalar("train/loss", jnp.asarray(0.5), step=1)
        writer.scalars(2, {"train/loss": 0.25, "test/accuracy": np.float32(0.75)})
        writer.text("config", "lr = 0.001")
        writer.histogram("values", np.arange(10), step=3)
        writer.param_histograms(params, step=4)
        writer.hparams({"lr": 1e-3, "model": "mlp", "layers": (128, 128)}, ["test/accuracy"])
    assert read_scalars(tmp_path) == {
        "train/loss": [(1, 0.5), (2, 0.25)],
        "test/accuracy": [(2, 0.75)],
    }
    kinds = _by_kind(tmp_path)
    assert {"values", "params/Dense_0/kernel", "params/Dense_0/bias"} <= set(kinds["histo"])
    step, kernel = kinds["histo"]["params/Dense_0/kernel"]
    assert step == 4 and kernel.histo.num == 6 and kernel.histo.sum == 6.0
    assert kinds["histo"]["values"][1].histo.max == 9.0
    text = kinds["tensor"]["config/text_summary"][1]
    assert text.tensor.string_val == [b"lr = 0.001"]
    hparam_tags = set(kinds["metadata"])
    assert {"_hparams_/experiment", "_hparams_/session_start_info"} <= hparam_tags
    start = kinds["metadata"]["_hparams_/session_start_info"][1].metadata.plugin_data.content
    assert b"mlp" in start and b"(128, 128)" in start


def test_auto_flush_makes_events_visible_before_close(tmp_path):
    writer = SummaryWriter(tmp_path)
    writer.scalar("x", 1.0, step=0)
    assert read_scalars(tmp_path) == {"x": [(0, 1.0)]}
    writer.close()


def test_reader_rejects_corrupt_file(tmp_path):
    with SummaryWriter(tmp_path) as writer:
        writer.scalar("x", 1.0, step=0)
    (path,) = tmp_path.glob("events.out.tfevents.*")
    data = bytearray(path.read_bytes())
    data[-3] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="CRC"):
        read_events(tmp_path)
