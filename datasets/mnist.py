"""MNIST, the handwritten digits of LeCun, Cortes and Burges (CC BY-SA 3.0).

The four original gzipped IDX files ship with this package (``datasets/data/mnist``), so
`load` works offline; they are also searched for and downloaded like any dataset (see
`datasets.download`).

    from datasets import mnist
    data = mnist.load()                  # Splits(train_images uint8[60000, 28, 28], ...)
    train = mnist.load(split="train")    # {"image": uint8[60000, 28, 28], "label": uint8[60000]}
"""

from __future__ import annotations

import os

import numpy as np

from datasets.download import DatasetSpec, FileSpec
from datasets.splits import Splits, load_splits

NUM_CLASSES = 10

SPEC = DatasetSpec(
    name="mnist",
    files={
        "train_images": FileSpec(
            "train-images-idx3-ubyte.gz",
            "440fcabf73cc546fa21475e81ea370265605f56be210a4024d2ca8f203523609",
            "ba891046e6505d7aadcbbe25680a0738ad16aec93bde7f9b65e87a2fc25776db",
            size=9912422,
        ),
        "train_labels": FileSpec(
            "train-labels-idx1-ubyte.gz",
            "3552534a0a558bbed6aed32b30c495cca23d567ec52cac8be1a0730e8010255c",
            "65a50cbbf4e906d70832878ad85ccda5333a97f0f4c3dd2ef09a8a9eef7101c5",
            size=28881,
        ),
        "test_images": FileSpec(
            "t10k-images-idx3-ubyte.gz",
            "8d422c7b0a1c1c79245a5bcf07fe86e33eeafee792b84584aec276f5a2dbc4e6",
            "0fa7898d509279e482958e8ce81c8e77db3f2f8254e26661ceb7762c4d494ce7",
            size=1648877,
        ),
        "test_labels": FileSpec(
            "t10k-labels-idx1-ubyte.gz",
            "f7ae60f92e00ec6debd23a6088c31dbd2371eca3ffa0defaefb259924204aec6",
            "ff7bcfd416de33731a308c3f266cc351222c34898ecbeaf847f06e48f7ec33f2",
            size=4542,
        ),
    },
    mirrors=(
        "https://ossci-datasets.s3.amazonaws.com/mnist/",
        "https://storage.googleapis.com/cvdf-datasets/mnist/",
    ),
)


def load(
    data_dir: str | os.PathLike | None = None,
    *,
    split: str | None = None,
    download: bool = True,
) -> Splits | dict[str, np.ndarray]:
    """Loads MNIST as numpy arrays, as stored (uint8 pixels 0..255, uint8 labels 0..9).

    Images have no channel axis: add one with ``images[..., None]`` for a CNN, or flatten with
    ``images.reshape(len(images), -1)`` for an MLP; `datasets.to_float` scales to [0, 1].

    Args:
        data_dir: a directory searched first (itself, then ``data_dir/mnist``), and where a
            download goes if one is needed.
        split: None for every split, or ``"train"`` (60000 examples) / ``"test"`` (10000).
        download: allow downloading when the files are not found locally.

    Returns:
        A `Splits` (``train_images``, ``train_labels``, ``test_images``, ``test_labels``; also
        ``.train`` / ``.test`` dicts) when ``split`` is None, else the TFDS-style dict
        ``{"image": uint8[N, 28, 28], "label": uint8[N]}``.

    Raises:
        DatasetNotFoundError: nowhere to be found and not downloadable.
        ChecksumMismatchError: a file is corrupt or truncated.
        UnknownSplitError: ``split`` is not None, ``"train"`` or ``"test"``.
    """
    return load_splits(SPEC, data_dir, split=split, download=download)
