"""TensorBoard writer: the event files contain the expected tags and values."""

import itertools

import numpy as np
import pytest

import core.numpy as jnp
from train import tensorboard
from train.tensorboard import SummaryWriter, flatten_hparams, read_events, read_scalars


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


def _png_pixels(png):
    """Decodes the unfiltered 8-bit RGB PNG `encode_png` writes (IHDR, one IDAT, IEND)."""
    import struct
    import zlib

    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    (length,) = struct.unpack(">I", png[33:37])
    assert png[37:41] == b"IDAT"
    rows = np.frombuffer(zlib.decompress(png[41 : 41 + length]), np.uint8).reshape(height, -1)
    assert (rows[:, 0] == 0).all()  # filter type "none"
    return rows[:, 1:].reshape(height, width, 3)


def test_images_as_flax_and_tensorflow_write_them(tmp_path):
    grey = np.linspace(0, 1, 2 * 4 * 5).reshape(2, 4, 5)  # [K, H, W] floats
    with SummaryWriter(tmp_path) as writer:
        writer.image("digits", grey, step=7)
        writer.image("one", np.full((3, 2, 3), 200, np.uint8), step=8, max_outputs=1)
    kinds = _by_kind(tmp_path)["tensor"]
    step, value = kinds["digits"]
    assert step == 7 and value.metadata.plugin_data.plugin_name == "images"
    blobs = value.tensor.string_val
    assert blobs[:2] == [b"5", b"4"] and len(blobs) == 4  # width, height, 2 PNGs
    pixels = _png_pixels(blobs[2])
    # TensorFlow's convert_image_dtype(saturate=True): trunc(x * 255.5), grey repeated to RGB;
    # these values were read back from the PNG by TensorBoard 2.21 + PIL
    assert pixels[0, :, 0].tolist() == [0, 6, 13, 19, 26]
    assert (pixels[..., 0] == pixels[..., 2]).all() and _png_pixels(blobs[3])[-1, -1, 1] == 255
    assert _png_pixels(kinds["one"][1].tensor.string_val[2]).tolist() == [[[200] * 3] * 2] * 3
    with pytest.raises(ValueError, match="give \\[H, W\\]"), SummaryWriter(tmp_path) as w:
        w.image("bad", np.zeros((2, 2, 2, 2)), step=0)


def test_audio_write_text_and_flat_hparams(tmp_path):
    import io
    import wave

    clip = np.sin(np.linspace(0, 20, 400)).reshape(1, 400, 1) * 2  # clipped to [-1, 1]
    with SummaryWriter(tmp_path) as writer:
        writer.audio("tone", clip, step=1, sample_rate=8000)
        writer.write("raw", np.arange(6, dtype=np.int32).reshape(2, 3), step=2)
        writer.text("notes", b"**bytes** too", step=3)
        writer.hparams({"opt": {"lr": 0.1, "name": "adam"}, "layers": [1, 2], "n": np.int64(3)})
        with pytest.raises(ValueError, match="`textdata` should be"):
            writer.text("bad", 3, step=0)
    kinds = _by_kind(tmp_path)["tensor"]
    audio = kinds["tone"][1]
    assert audio.metadata.plugin_data.plugin_name == "audio"
    assert audio.metadata.plugin_data.content == b"\x10\x0b"  # AudioPluginData(encoding=WAV)
    with wave.open(io.BytesIO(audio.tensor.string_val[0])) as w:
        assert (w.getframerate(), w.getnchannels(), w.getnframes()) == (8000, 1, 400)
        pcm = np.frombuffer(w.readframes(400), "<i2")
    assert pcm.max() == 32767 and pcm.min() == -32767
    raw = kinds["raw"][1].tensor
    assert np.frombuffer(raw.tensor_content, "<i4").tolist() == list(range(6))
    hp = {v.tag for e in read_events(tmp_path) for v in e.summary.value}
    assert "_hparams_/session_start_info" in hp


def test_flatten_hparams_matches_flax():
    # flax.metrics.tensorboard._flatten_dict on the same input (Flax 0.12.8)
    got = flatten_hparams(
        {"opt": {"lr": 0.1, "sub": {"b": True}}, "layers": [1, 2], "f": np.float32(2)}
    )
    assert got == {"opt.lr": 0.1, "opt.sub.b": True, "layers": "[1, 2]", "f": np.float32(2)}


def test_reader_orders_files_by_when_their_writers_opened(tmp_path, monkeypatch):
    """Files of one directory are read in the order they were opened, not by name (a writer's
    name ends in its process's counter: `.10` sorts before `.9`)."""
    monkeypatch.setattr(tensorboard, "_file_counter", itertools.count(9))
    for step in range(2):
        with SummaryWriter(tmp_path) as writer:
            writer.scalar("x", float(step), step=step)
    assert sorted(p.name.rsplit(".", 1)[1] for p in tmp_path.iterdir()) == ["10", "9"]
    assert read_scalars(tmp_path) == {"x": [(0, 0.0), (1, 1.0)]}
