"""Datasets for numbax: MNIST and Fashion-MNIST as numpy arrays, and a shuffling batcher.

    from datasets import mnist, batches, to_float
    data = mnist.load()                          # uint8 arrays, shipped with the package
    train = {"image": to_float(data.train_images), "label": data.train_labels}
    for batch in batches(train, 32, key=key, epoch=0):
        ...

Files are found in a local directory or downloaded (see `datasets.download`); `datasets.idx`
reads and writes the raw IDX format. This package needs only numpy; `batches` imports
`core.random` when it first shuffles.

Importing it warns `PackageNameCollisionWarning` when HuggingFace's ``datasets`` distribution
is installed in the same environment (both install a top-level ``datasets`` package).
"""

import importlib.metadata as _metadata
import warnings as _warnings

from datasets import errors, fashion_mnist, idx, mnist
from datasets.batching import Batches, batches, to_float
from datasets.download import DatasetSpec, FileSpec, fetch
from datasets.errors import (
    ChecksumMismatchError,
    CorruptFileError,
    DatasetNotFoundError,
)
from datasets.idx import read_idx, write_idx
from datasets.splits import Splits

__all__ = [
    "Batches",
    "ChecksumMismatchError",
    "CorruptFileError",
    "DatasetNotFoundError",
    "DatasetSpec",
    "FileSpec",
    "Splits",
    "batches",
    "errors",
    "fashion_mnist",
    "fetch",
    "idx",
    "mnist",
    "read_idx",
    "to_float",
    "write_idx",
]


def _warn_if_huggingface_datasets() -> None:
    try:
        other = _metadata.distribution("datasets")
    except _metadata.PackageNotFoundError:
        return
    _warnings.warn(
        errors.PackageNameCollisionWarning(
            f"HuggingFace's `datasets` {other.version} is installed in this environment; it and "
            "numbax both install a top-level `datasets` package, so one replaces the other's "
            f"files ({__file__} is imported now). Install numbax and HuggingFace datasets in "
            "separate virtual environments (see the README section 'Package names')."
        ),
        stacklevel=2,
    )


_warn_if_huggingface_datasets()
