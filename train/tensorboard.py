"""TensorBoard logging: a small `SummaryWriter` on tensorboardX, and an event-file reader.

The writer mirrors ``flax.metrics.tensorboard.SummaryWriter`` (``scalar``, ``image``,
``audio``, ``histogram``, ``text``, ``write``, ``hparams``, ``flush``, ``close``, same
arguments) and adds ``scalars`` for a dict of values and ``param_histograms`` for a parameter
tree, tagged by key path (``params/Dense_0/kernel``). Values may be `core` arrays, numpy arrays
or Python numbers. Summaries are built with tensorboardX's protocol buffers (images and audio
encoded by `train.tensorboard_media`, without PIL or soundfile) and written synchronously.
Images are written as TensorFlow 2 writes them (one tag, up to ``max_outputs`` PNGs), audio as
WAV clips in TensorFlow 2's audio-plugin layout. Hyperparameters are written into the run
itself (not a sub-run as tensorboardX's ``add_hparams`` does), so the HParams tab shows each
run once, next to its own scalars.

`read_events` parses the event files back (TFRecord framing, CRC-checked) without TensorBoard
or TensorFlow installed; tests and scripts use it to check what was logged.
"""

from __future__ import annotations

import itertools
import os
import socket
import struct
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from tensorboardX import summary as _summary
from tensorboardX.proto import types_pb2
from tensorboardX.proto.event_pb2 import Event
from tensorboardX.proto.summary_pb2 import Summary, SummaryMetadata
from tensorboardX.proto.tensor_pb2 import TensorProto
from tensorboardX.proto.tensor_shape_pb2 import TensorShapeProto
from tensorboardX.record_writer import masked_crc32c

from core import tree_util

from . import tensorboard_media

__all__ = ["SummaryWriter", "flatten_hparams", "read_events", "read_scalars"]


class SummaryWriter:
    """Writes TensorBoard event files to ``log_dir``.

    Example::

        with SummaryWriter("runs/mnist") as writer:
            writer.text("config", "lr=0.001, batch_size=32")
            for step in ...:
                writer.scalars(step, {"train/loss": loss, "train/accuracy": acc})
            writer.param_histograms(state.params, step)
            writer.hparams({"lr": 1e-3, "batch_size": 32}, metrics=["test/accuracy"])

    Then ``tensorboard --logdir runs``. Events are written synchronously by the calling thread
    (tensorboardX's own writer queues them to a background thread) as TFRecords: a length, its
    masked CRC-32C, the serialized ``Event`` and its CRC. With ``auto_flush`` every call hands
    its records to the operating system, so TensorBoard sees them at once; `flush` and `close`
    also ``fsync`` the file (about 10 ms, too slow to do at every training step).

    Args:
        log_dir: directory of the run; created if needed. Each writer opens a new event file
            in it, so a resumed run appends its curves to the same run.
        auto_flush: flush after every call, so a running job's curves are visible at once.
    """

    def __init__(self, log_dir: str | os.PathLike, auto_flush: bool = True):
        self.log_dir = str(log_dir)
        Path(self.log_dir).mkdir(parents=True, exist_ok=True)
        name = (
            f"events.out.tfevents.{int(time.time())}.{socket.gethostname()}"
            f".{os.getpid()}.{next(_file_counter)}"
        )
        self._file = open(os.path.join(self.log_dir, name), "ab")  # noqa: SIM115 (closed in close)
        self._auto_flush = auto_flush
        self._record(Event(wall_time=time.time(), file_version="brain.Event:2"))
        self._file.flush()

    def _record(self, event: Event) -> None:
        data = event.SerializeToString()
        header = struct.pack("<Q", len(data))
        crcs = struct.pack("<I", masked_crc32c(header)), struct.pack("<I", masked_crc32c(data))
        self._file.write(header + crcs[0] + data + crcs[1])

    def _write(self, summaries: Sequence[Summary], step: int) -> None:
        for summary in summaries:
            self._record(Event(wall_time=time.time(), step=int(step), summary=summary))
        if self._auto_flush:
            self._file.flush()

    def scalar(self, tag: str, value: Any, step: int) -> None:
        """Logs one number.

        Args:
            tag: the curve's name, e.g. ``"train/loss"``.
            value: a Python number or a scalar array.
            step: the x coordinate (training step or epoch).
        """
        self.scalars(step, {tag: value})

    def scalars(self, step: int, values: Mapping[str, Any]) -> None:
        """Logs several numbers at one step (``clu``'s ``write_scalars``).

        Args:
            step: the x coordinate.
            values: tag to number.
        """
        summaries = [_summary.scalar(tag, float(np.asarray(v))) for tag, v in values.items()]
        self._write(summaries, step)

    def text(self, tag: str, textdata: str | bytes, step: int = 0) -> None:
        """Logs Markdown text (shown in the Text tab under ``tag``).

        Args:
            tag: the text's name.
            textdata: Markdown, ``str`` or UTF-8 ``bytes``.
            step: the step it belongs to.

        Raises:
            ValueError: ``textdata`` is not ``str`` or ``bytes`` (as Flax).
        """
        if not isinstance(textdata, (str, bytes)):
            raise ValueError("`textdata` should be of the type `str` or `bytes`.")
        if isinstance(textdata, bytes):
            textdata = textdata.decode("utf-8")
        self._write([_summary.text(tag, textdata)], step)

    def histogram(self, tag: str, values: Any, step: int, bins: int | str | None = None) -> None:
        """Logs the distribution of an array's values.

        Args:
            tag: the histogram's name.
            values: an array (flattened).
            step: the x coordinate.
            bins: the number of buckets, or a `numpy.histogram` binning rule name; None for
                30 (TensorFlow's default).
        """
        self._write([_histogram(tag, values, 30 if bins is None else bins)], step)

    def image(self, tag: str, image: Any, step: int, max_outputs: int = 3) -> None:
        """Logs images (the Images tab), as ``flax.metrics.tensorboard``.

        Args:
            tag: the images' name.
            image: ``[H, W]``, ``[H, W, 1|3]``, ``[K, H, W]`` or ``[K, H, W, 1|3]``; uint8,
                or floats in ``[0, 1]`` (converted as TensorFlow does); grey becomes RGB.
            step: the x coordinate.
            max_outputs: at most this many of the K images are written.
        """
        images = tensorboard_media.image_batch(image)[:max_outputs]
        height, width = images.shape[1:3]
        blobs = [str(width).encode(), str(height).encode()]
        blobs += [tensorboard_media.encode_png(im) for im in images]
        self._write([_blob_summary(tag, blobs, [len(blobs)], "images", b"")], step)

    def audio(
        self,
        tag: str,
        audiodata: Any,
        step: int,
        sample_rate: int = 44100,
        max_outputs: int = 3,
    ) -> None:
        """Logs sound clips as WAV (the Audio tab), as ``flax.metrics.tensorboard``.

        Args:
            tag: the clips' name.
            audiodata: ``[clips, frames, channels]``, clipped to ``[-1, 1]``.
            step: the x coordinate.
            sample_rate: samples per second.
            max_outputs: at most this many clips are written.
        """
        clips = tensorboard_media.audio_batch(audiodata)[:max_outputs]
        blobs = []
        for clip in clips:
            blobs += [tensorboard_media.encode_wav(clip, sample_rate), b""]  # (clip, label)
        # the audio plugin's AudioPluginData(encoding=WAV), serialized
        self._write([_blob_summary(tag, blobs, [len(clips), 2], "audio", b"\x10\x0b")], step)

    def write(self, tag: str, tensor: Any, step: int, metadata: Any = None) -> None:
        """Logs any tensor, for a custom plugin (as Flax's ``write``).

        Args:
            tag: the summary's name.
            tensor: an array (numbers or bytes/strings).
            step: the x coordinate.
            metadata: a ``SummaryMetadata`` proto or its serialized bytes; None for none.
        """
        if isinstance(metadata, bytes):
            metadata = SummaryMetadata.FromString(metadata)
        value = Summary.Value(tag=tag, tensor=_tensor_proto(np.asarray(tensor)))
        if metadata is not None:
            value.metadata.CopyFrom(metadata)
        self._write([Summary(value=[value])], step)

    def param_histograms(
        self, params: Any, step: int, prefix: str = "params", bins: int | str = 30
    ) -> None:
        """Logs one histogram per leaf of a parameter tree, tagged ``prefix/path/to/leaf``.

        Args:
            params: a pytree of arrays, e.g. ``state.params``.
            step: the x coordinate.
            prefix: the first component of every tag ("" for none).
            bins: as in `histogram`.
        """
        summaries = []
        for path, leaf in tree_util.tree_leaves_with_path(params):
            name = tree_util.keystr(path, simple=True, separator="/")
            summaries.append(_histogram(f"{prefix}/{name}" if prefix else name, leaf, bins))
        self._write(summaries, step)

    def hparams(self, hparams: Mapping[str, Any], metrics: Sequence[str] = ()) -> None:
        """Logs the run's hyperparameters for the HParams tab.

        Args:
            hparams: name to value; nested dicts are flattened to ``"outer.inner"`` names and
                values other than bool, int, float and str are logged as str (as Flax).
            metrics: tags of scalars logged in this run (e.g. ``"test/accuracy"``) that the
                HParams tab shows next to the hyperparameters.
        """
        self._write(_summary.hparams(flatten_hparams(hparams), dict.fromkeys(metrics, 0.0)), 0)

    def flush(self) -> None:
        """Writes everything buffered to disk (``fsync``)."""
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        """Flushes and closes the event file (again: nothing)."""
        if not self._file.closed:
            self.flush()
            self._file.close()

    def __enter__(self) -> SummaryWriter:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


_file_counter = itertools.count()


def flatten_hparams(hparams: Mapping[str, Any], prefix: str = "", sep: str = ".") -> dict:
    """Nested hyperparameters as one flat dict, as ``flax.metrics.tensorboard._flatten_dict``.

    Args:
        hparams: a (nested) mapping of names to values.
        prefix: prepended to every name.
        sep: between the names of nested levels.

    Returns:
        ``{"a.b": value, ...}``; values not bool/int/float/str (numpy scalars included) as str.
    """
    valid = (bool, int, float, str, np.bool_, np.integer, np.floating, np.character)
    flat: dict[str, Any] = {}
    for key, value in hparams.items():
        name = f"{prefix}{sep}{key}" if prefix else key
        if isinstance(value, Mapping):
            flat.update(flatten_hparams(value, name, sep))
        else:
            flat[name] = value if isinstance(value, valid) else str(value)
    return flat


_DTYPES = {
    "float16": types_pb2.DT_HALF,
    "float32": types_pb2.DT_FLOAT,
    "float64": types_pb2.DT_DOUBLE,
    "int8": types_pb2.DT_INT8,
    "int16": types_pb2.DT_INT16,
    "int32": types_pb2.DT_INT32,
    "int64": types_pb2.DT_INT64,
    "uint8": types_pb2.DT_UINT8,
    "uint16": types_pb2.DT_UINT16,
    "bool": types_pb2.DT_BOOL,
}


def _tensor_proto(array: np.ndarray) -> TensorProto:
    shape = TensorShapeProto(dim=[TensorShapeProto.Dim(size=n) for n in array.shape])
    if array.dtype.kind in "SUO":
        values = [v.encode() if isinstance(v, str) else bytes(v) for v in array.reshape(-1)]
        return TensorProto(dtype=types_pb2.DT_STRING, tensor_shape=shape, string_val=values)
    if array.dtype.name not in _DTYPES:
        raise ValueError(
            f"write: no TensorBoard dtype for {array.dtype}; use one of {list(_DTYPES)}"
        )
    content = np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("<")).tobytes()
    return TensorProto(dtype=_DTYPES[array.dtype.name], tensor_shape=shape, tensor_content=content)


def _blob_summary(tag: str, blobs: list, shape: list, plugin: str, content: bytes) -> Summary:
    tensor = TensorProto(
        dtype=types_pb2.DT_STRING,
        tensor_shape=TensorShapeProto(dim=[TensorShapeProto.Dim(size=n) for n in shape]),
        string_val=blobs,
    )
    metadata = SummaryMetadata(plugin_data=SummaryMetadata.PluginData(plugin_name=plugin))
    metadata.plugin_data.content = content
    return Summary(value=[Summary.Value(tag=tag, metadata=metadata, tensor=tensor)])


def _histogram(tag: str, values: Any, bins: int | str) -> Summary:
    array = np.asarray(values, dtype=np.float64).reshape(-1)
    return _summary.histogram(tag, array, bins)


def _records(path: Path) -> Iterator[bytes]:
    data = path.read_bytes()
    pos = 0
    while pos < len(data):
        if pos + 12 > len(data):
            raise ValueError(f"{path}: truncated record header at byte {pos}")
        header = data[pos : pos + 8]
        (length,) = struct.unpack("<Q", header)
        (header_crc,) = struct.unpack("<I", data[pos + 8 : pos + 12])
        body = data[pos + 12 : pos + 12 + length]
        end = pos + 12 + length + 4
        if header_crc != masked_crc32c(header) or end > len(data):
            raise ValueError(f"{path}: bad or truncated record at byte {pos}")
        (body_crc,) = struct.unpack("<I", data[end - 4 : end])
        if body_crc != masked_crc32c(body):
            raise ValueError(f"{path}: bad CRC in the record at byte {pos}")
        yield body
        pos = end


def read_events(log_dir: str | os.PathLike) -> list[Event]:
    """Reads every event of the event files in ``log_dir`` (not its subdirectories).

    Args:
        log_dir: the directory given to `SummaryWriter`.

    Returns:
        `Event` protocol buffers in file order (files in the order their writers opened them);
        each has ``step``, ``wall_time`` and ``summary.value`` entries with ``tag`` and
        ``simple_value``, ``histo``, ``tensor`` or ``metadata``.

    Raises:
        ValueError: an event file is truncated or fails its CRC check.
    """
    files = [
        [Event.FromString(body) for body in _records(f)]
        for f in Path(log_dir).glob("events.out.tfevents.*")
    ]
    return [event for events in sorted(files, key=_opened) for event in events]


def _opened(events: list[Event]) -> float:
    """When the writer of an event file opened it: the wall time of its first event (the
    file version record). Sorting the files by name put a run resumed within the same second
    before the run it resumed whenever the process's file counter gained a digit (``.10``
    sorts before ``.9``), or whenever another process with a smaller pid wrote it."""
    return events[0].wall_time if events else float("inf")


def read_scalars(log_dir: str | os.PathLike) -> dict[str, list[tuple[int, float]]]:
    """The scalar curves logged in ``log_dir``: tag to a list of ``(step, value)``.

    Args:
        log_dir: the directory given to `SummaryWriter`.

    Returns:
        A dict from tag to its points in the order written.
    """
    curves: dict[str, list[tuple[int, float]]] = {}
    for event in read_events(log_dir):
        for value in event.summary.value:
            if value.WhichOneof("value") == "simple_value":
                curves.setdefault(value.tag, []).append((event.step, value.simple_value))
    return curves
