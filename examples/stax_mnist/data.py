"""MNIST in the format of JAX's `examples/datasets.py`: flattened float32 images in [0, 1] and
one-hot float32 labels, from numbax's shipped copy (`datasets.mnist`). Needs only numpy."""

from __future__ import annotations

import numpy as np

from datasets import mnist as mnist_data


def _one_hot(x: np.ndarray, k: int, dtype=np.float32) -> np.ndarray:
    return np.array(x[:, None] == np.arange(k), dtype)


def mnist(
    num_train: int | None = None, num_test: int | None = None, permute_train: bool = False
) -> tuple[np.ndarray, ...]:
    """`(train_images, train_labels, test_images, test_labels)` like JAX's `datasets.mnist()`.

    Args:
      num_train: keep only the first `num_train` training examples (all by default).
      num_test: keep only the first `num_test` test examples (all by default).
      permute_train: shuffle the kept training examples with `np.random.RandomState(0)`, as
        JAX's `datasets.mnist(permute_train=True)` does.

    Returns:
      Images `float32[n, 784]` scaled to [0, 1] and one-hot labels `float32[n, 10]`.
    """
    data = mnist_data.load()

    def images(x: np.ndarray, n: int | None) -> np.ndarray:
        x = x[:n]
        return (x.reshape(len(x), 28 * 28) / np.float32(255.0)).astype(np.float32)

    train_images = images(data.train_images, num_train)
    train_labels = _one_hot(data.train_labels[:num_train], 10)
    if permute_train:
        perm = np.random.RandomState(0).permutation(train_images.shape[0])
        train_images, train_labels = train_images[perm], train_labels[perm]
    return (
        train_images,
        train_labels,
        images(data.test_images, num_test),
        _one_hot(data.test_labels[:num_test], 10),
    )
