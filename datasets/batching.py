"""Mini-batches of numpy arrays, shuffled by a `core.random` key.

`batches` cuts a dataset (a dict, tuple/list/namedtuple, or a single array, all sharing their
leading dimension) into batches of the same structure. With ``shuffle=True`` the order is
``core.random.permutation(key, n)``, with ``key`` first folded with ``epoch`` when one is given,
so each epoch has its own order and every run with the same key sees the same batches. Batch
``i`` is ``arrays[perm[i * batch_size:(i + 1) * batch_size]]``, exactly what Flax's MNIST example
builds from ``jax.random.permutation``, so the same key gives the same batches as there.

Conversion to float is not done per batch: call `to_float` once on the whole array.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from datasets.errors import (
    BatchSizeError,
    ImageDtypeError,
    LengthMismatchError,
    MissingShuffleKeyError,
)


class Batches:
    """An iterable over mini-batches; see `batches`. ``len()`` is the number of batches."""

    def __init__(
        self,
        arrays: Any,
        batch_size: int,
        *,
        key: Any = None,
        epoch: int | None = None,
        shuffle: bool = True,
        drop_remainder: bool = True,
    ):
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise BatchSizeError(batch_size)
        if shuffle and key is None:
            raise MissingShuffleKeyError()
        if isinstance(arrays, Mapping):
            names = [str(k) for k in arrays]
            self._leaves = [np.asarray(v) for v in arrays.values()]
            keys = list(arrays)
            self._rebuild = lambda xs: dict(zip(keys, xs))
        elif isinstance(arrays, (tuple, list)):
            names = [str(i) for i in range(len(arrays))]
            self._leaves = [np.asarray(v) for v in arrays]
            cls = type(arrays)
            self._rebuild = cls._make if hasattr(cls, "_make") else cls
        else:
            names = ["array"]
            self._leaves = [np.asarray(arrays)]
            self._rebuild = operator.itemgetter(0)
        lengths = {n: (a.shape[0] if a.ndim else -1) for n, a in zip(names, self._leaves)}
        if len(set(lengths.values())) > 1 or -1 in lengths.values():
            raise LengthMismatchError(lengths)
        self.num_examples = next(iter(lengths.values()), 0)
        self.batch_size = batch_size
        self.drop_remainder = drop_remainder
        self._key = key if shuffle else None
        self._epoch = epoch
        self._order: np.ndarray | None = None

    def __len__(self) -> int:
        if self.drop_remainder:
            return self.num_examples // self.batch_size
        return math.ceil(self.num_examples / self.batch_size)

    def order(self) -> np.ndarray | None:
        """The permutation of example indices this iterable follows (None when not shuffled)."""
        if self._key is not None and self._order is None:
            from core import random  # imported late: datasets itself needs only numpy

            key = self._key if self._epoch is None else random.fold_in(self._key, self._epoch)
            self._order = np.asarray(random.permutation(key, self.num_examples))
        return self._order

    def __iter__(self) -> Iterator[Any]:
        order, size = self.order(), self.batch_size
        for i in range(len(self)):
            if order is None:
                index = slice(i * size, (i + 1) * size)
            else:
                index = order[i * size : (i + 1) * size]
            yield self._rebuild([a[index] for a in self._leaves])


def batches(
    arrays: Any,
    batch_size: int,
    *,
    key: Any = None,
    epoch: int | None = None,
    shuffle: bool = True,
    drop_remainder: bool = True,
) -> Batches:
    """Mini-batches of ``arrays`` for one epoch, in a reproducible shuffled order.

    Example::

        data = mnist.load()
        train = {"image": to_float(data.train_images).reshape(-1, 784),
                 "label": data.train_labels}
        for epoch in range(3):
            for batch in batches(train, 32, key=key, epoch=epoch):
                state = train_step(state, batch)

    Args:
        arrays: a dict, a tuple/list/namedtuple, or a single array; every array has the same
            leading dimension (the number of examples).
        batch_size: examples per batch, a positive int.
        key: a `core.random` PRNG key (or raw ``uint32[2]``); required when shuffling.
        epoch: if given, ``key`` is first folded with it (``core.random.fold_in``), giving a
            different but reproducible order per epoch from one key.
        shuffle: follow ``core.random.permutation(key, n)``; False keeps the stored order
            (batches are then views, not copies).
        drop_remainder: skip the last, smaller batch (as Flax's MNIST example does); False
            yields it too.

    Returns:
        A re-iterable `Batches` with ``len()``; each batch has the structure of ``arrays``
        (a dict with the same keys, a tuple/list/namedtuple, or an array).

    Raises:
        BatchSizeError: ``batch_size`` is not a positive int.
        MissingShuffleKeyError: ``shuffle=True`` without ``key``.
        LengthMismatchError: the arrays do not share their leading dimension.
    """
    return Batches(
        arrays,
        batch_size,
        key=key,
        epoch=epoch,
        shuffle=shuffle,
        drop_remainder=drop_remainder,
    )


def to_float(images: np.ndarray) -> np.ndarray:
    """uint8 images (0..255) to float32 in [0, 1], as ``float32(images) / 255`` in one pass.

    Do it once on the whole dataset, outside the training loop. The shape is kept; reshape to
    ``[N, 784]`` (MLP) or add a channel axis ``[..., None]`` (CNN) as the model needs.

    Args:
        images: a uint8 array of any shape.

    Returns:
        A new float32 array of the same shape.

    Raises:
        ImageDtypeError: ``images`` is not uint8.
    """
    images = np.asarray(images)
    if images.dtype != np.uint8:
        raise ImageDtypeError(images.dtype)
    return np.divide(images, np.float32(255), dtype=np.float32)
