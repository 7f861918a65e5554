"""The in-memory form of an image-classification dataset, shared by `mnist` and `fashion_mnist`.

`load_splits` fetches a dataset's IDX files (see `datasets.download`) and returns either every
split as a `Splits` named tuple, or one split as a TFDS-style ``{"image": ..., "label": ...}``
dict, the form Flax's examples get from ``tfds.as_numpy(builder.as_dataset(split=...,
batch_size=-1))``. Arrays stay uint8 as stored; see `datasets.to_float` for the conversion.
"""

from __future__ import annotations

import os
from typing import NamedTuple

import numpy as np

from datasets.download import DatasetSpec, fetch
from datasets.errors import CorruptFileError, UnknownSplitError
from datasets.idx import read_idx

SPLITS = ("train", "test")


class Splits(NamedTuple):
    """Every split of a dataset, as stored (uint8).

    Attributes:
        train_images: uint8 ``[60000, 28, 28]`` for MNIST, pixels 0 (background) to 255 (ink).
        train_labels: uint8 ``[60000]``, class numbers 0..9.
        test_images: uint8 ``[10000, 28, 28]``.
        test_labels: uint8 ``[10000]``.
    """

    train_images: np.ndarray
    train_labels: np.ndarray
    test_images: np.ndarray
    test_labels: np.ndarray

    @property
    def train(self) -> dict[str, np.ndarray]:
        """The training split as ``{"image": train_images, "label": train_labels}``."""
        return {"image": self.train_images, "label": self.train_labels}

    @property
    def test(self) -> dict[str, np.ndarray]:
        """The test split as ``{"image": test_images, "label": test_labels}``."""
        return {"image": self.test_images, "label": self.test_labels}


def _read_split(paths: dict, split: str) -> tuple[np.ndarray, np.ndarray]:
    images_path, labels_path = paths[f"{split}_images"], paths[f"{split}_labels"]
    images, labels = read_idx(images_path), read_idx(labels_path)
    if images.ndim != 3:
        raise CorruptFileError(images_path, "images shape", "[N, rows, cols]", str(images.shape))
    if labels.shape != images.shape[:1]:
        raise CorruptFileError(
            labels_path,
            "labels shape",
            f"[{images.shape[0]}] to match {images_path.name}",
            str(list(labels.shape)),
        )
    return images, labels


def load_splits(
    spec: DatasetSpec,
    data_dir: str | os.PathLike | None = None,
    *,
    split: str | None = None,
    download: bool = True,
) -> Splits | dict[str, np.ndarray]:
    """Loads an image-classification dataset whose files have the roles of `Splits`' fields.

    Args:
        spec: the dataset; its file roles are ``train_images``, ``train_labels``,
            ``test_images``, ``test_labels``.
        data_dir: an explicit directory to search first (and to download into).
        split: None for every split, or ``"train"`` / ``"test"`` for one.
        download: allow downloading when the files are not found locally.

    Returns:
        A `Splits` when ``split`` is None, else ``{"image": uint8[N, 28, 28],
        "label": uint8[N]}``.

    Raises:
        UnknownSplitError: ``split`` is not None, ``"train"`` or ``"test"``.
        DatasetNotFoundError: the files are nowhere and could not be downloaded.
        ChecksumMismatchError: a file does not match its published sha256.
    """
    if split is not None and split not in SPLITS:
        raise UnknownSplitError(spec.name, split, SPLITS)
    paths = fetch(spec, data_dir, download=download)
    if split is not None:
        images, labels = _read_split(paths, split)
        return {"image": images, "label": labels}
    return Splits(*_read_split(paths, "train"), *_read_split(paths, "test"))
