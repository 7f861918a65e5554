"""Fashion-MNIST, Zalando's drop-in replacement for MNIST (MIT licence).

Same format and shapes as `datasets.mnist` (28x28 uint8 images, 10 classes, 60000/10000), but
not shipped with the package: it is found in a local directory (``data_dir``,
``$NUMBAX_DATA_DIR/fashion_mnist`` or ``.../fashion-mnist``, the user cache) or downloaded once
into the cache (see `datasets.download`).

    from datasets import fashion_mnist
    train = fashion_mnist.load(split="train")   # {"image": uint8[60000, 28, 28], "label": ...}
    fashion_mnist.CLASS_NAMES[train["label"][0]]
"""

from __future__ import annotations

import os

import numpy as np

from datasets.download import DatasetSpec, FileSpec
from datasets.splits import Splits, load_splits

NUM_CLASSES = 10
CLASS_NAMES = (
    "T-shirt/top",
    "Trouser",
    "Pullover",
    "Dress",
    "Coat",
    "Sandal",
    "Shirt",
    "Sneaker",
    "Bag",
    "Ankle boot",
)

SPEC = DatasetSpec(
    name="fashion_mnist",
    aliases=("fashion-mnist",),
    files={
        "train_images": FileSpec(
            "train-images-idx3-ubyte.gz",
            "3aede38d61863908ad78613f6a32ed271626dd12800ba2636569512369268a84",
            "c59f468a2f672dc815687fe0f83887768d799fd8a3f3276145d20f83aa44d888",
            size=26421880,
        ),
        "train_labels": FileSpec(
            "train-labels-idx1-ubyte.gz",
            "a04f17134ac03560a47e3764e11b92fc97de4d1bfaf8ba1a3aa29af54cc90845",
            "bad3541b69d912435c50bb6ba87bec294ff4f6a2e1246121d8633921760443d9",
            size=29515,
        ),
        "test_images": FileSpec(
            "t10k-images-idx3-ubyte.gz",
            "346e55b948d973a97e58d2351dde16a484bd415d4595297633bb08f03db6a073",
            "5b4141f0afbad91edebe8549f8fcffe087ea10ca49f1dbef5c9a5cd8815ce37b",
            size=4422102,
        ),
        "test_labels": FileSpec(
            "t10k-labels-idx1-ubyte.gz",
            "67da17c76eaffca5446c3361aaab5c3cd6d1c2608764d35dfb1850b086bf8dd5",
            "0402a96d92fd2663957122ceb108a494c5af83dab82d92729df917d7dec38c34",
            size=5148,
        ),
    },
    mirrors=(
        "https://storage.googleapis.com/tensorflow/tf-keras-datasets/",  # Keras' copy
        "http://fashion-mnist.s3-website.eu-central-1.amazonaws.com/",  # no https there
    ),
)


def load(
    data_dir: str | os.PathLike | None = None,
    *,
    split: str | None = None,
    download: bool = True,
) -> Splits | dict[str, np.ndarray]:
    """Loads Fashion-MNIST as numpy arrays (uint8 pixels 0..255, uint8 labels 0..9).

    Args:
        data_dir: a directory searched first (itself, then ``data_dir/fashion_mnist``), and
            where a download goes if one is needed.
        split: None for every split, or ``"train"`` (60000 examples) / ``"test"`` (10000).
        download: allow downloading when the files are not found locally.

    Returns:
        A `Splits` when ``split`` is None, else ``{"image": uint8[N, 28, 28],
        "label": uint8[N]}``; see `datasets.mnist.load`. ``CLASS_NAMES[label]`` names a class.

    Raises:
        DatasetNotFoundError: nowhere to be found and not downloadable.
        ChecksumMismatchError: a file is corrupt or truncated.
        UnknownSplitError: ``split`` is not None, ``"train"`` or ``"test"``.
    """
    return load_splits(SPEC, data_dir, split=split, download=download)
