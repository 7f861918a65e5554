from collections import namedtuple

import numpy as np
import pytest

from datasets.batching import batches, to_float
from datasets.errors import (
    BatchSizeError,
    ImageDtypeError,
    LengthMismatchError,
    MissingShuffleKeyError,
)

X = np.arange(10 * 2).reshape(10, 2)
Y = np.arange(10, dtype=np.uint8)
Pair = namedtuple("Pair", "x y")

# jax.random.permutation(jax.random.key(0), 10) and with the key folded with 1 (jax 0.7).
JAX_PERM = [0, 1, 8, 5, 6, 4, 3, 2, 7, 9]
JAX_PERM_EPOCH1 = [0, 3, 9, 5, 1, 8, 4, 6, 2, 7]


@pytest.mark.parametrize(
    "drop, sizes", [(True, [3, 3, 3]), (False, [3, 3, 3, 1])], ids=["drop", "keep"]
)
@pytest.mark.parametrize(
    "arrays, unpack",
    [
        ({"x": X, "y": Y}, lambda b: (b["x"], b["y"])),
        ((X, Y), tuple),
        ([X, Y], tuple),
        (Pair(X, Y), lambda b: (b.x, b.y)),
        (X, lambda b: (b,)),
    ],
    ids=["dict", "tuple", "list", "namedtuple", "array"],
)
def test_unshuffled_batches_keep_structure_and_order(arrays, unpack, drop, sizes):
    it = batches(arrays, 3, shuffle=False, drop_remainder=drop)
    out = list(it)
    assert len(it) == len(out) == len(sizes)
    assert all(type(b) is type(arrays) for b in out)
    assert [len(unpack(b)[0]) for b in out] == sizes
    np.testing.assert_array_equal(np.concatenate([unpack(b)[0] for b in out]), X[: sum(sizes)])
    if not isinstance(arrays, np.ndarray):
        np.testing.assert_array_equal(np.concatenate([unpack(b)[1] for b in out]), Y[: sum(sizes)])


def test_shuffled_batches_follow_core_random_permutation_like_jax():
    from core import random

    key = random.key(0)
    out = list(batches({"x": X, "y": Y}, 3, key=key))
    assert [b["y"].tolist() for b in out] == [JAX_PERM[0:3], JAX_PERM[3:6], JAX_PERM[6:9]]
    np.testing.assert_array_equal(out[1]["x"], X[JAX_PERM[3:6]])
    again = batches((X, Y), 4, key=key, drop_remainder=False)
    assert [b[1].tolist() for b in again] == [JAX_PERM[0:4], JAX_PERM[4:8], JAX_PERM[8:]]
    assert [b[1].tolist() for b in again] == [JAX_PERM[0:4], JAX_PERM[4:8], JAX_PERM[8:]]
    epoch1 = batches(Y, 5, key=key, epoch=1)
    assert [b.tolist() for b in epoch1] == [JAX_PERM_EPOCH1[:5], JAX_PERM_EPOCH1[5:]]


@pytest.mark.parametrize("size", [0, -1, 2.5, True, "3", None])
def test_bad_batch_size(size):
    with pytest.raises(BatchSizeError, match="positive int"):
        batches(X, size, shuffle=False)


def test_mismatched_lengths_are_named():
    with pytest.raises(LengthMismatchError, match="image: 10, label: 9"):
        batches({"image": X, "label": Y[:9]}, 2, shuffle=False)


def test_shuffle_needs_a_key():
    with pytest.raises(MissingShuffleKeyError, match="shuffle=False") as info:
        batches(X, 2)
    assert isinstance(info.value, TypeError)


def test_to_float_matches_float32_division():
    images = np.arange(256, dtype=np.uint8).reshape(2, 8, 16)
    out = to_float(images)
    assert out.dtype == np.float32 and out.shape == images.shape
    np.testing.assert_array_equal(out, images.astype(np.float32) / np.float32(255))
    assert out.min() == 0.0 and out.max() == 1.0
    with pytest.raises(ImageDtypeError, match="float32"):
        to_float(out)
