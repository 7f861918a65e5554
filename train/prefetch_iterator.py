"""``flax.training.prefetch_iterator``: an iterator that reads ahead of its consumer.

`PrefetchIterator` pulls items from another iterator on a background thread, keeping up to
``buffer_size`` of them ready, so that loading overlaps the training step. Flax deprecates it
(use your input pipeline's own prefetching) and so does numbax: constructing one warns.
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Iterator
from typing import Any

__all__ = ["PrefetchIterator"]


class PrefetchIterator:
    """Reads `data_iter` ahead on a daemon thread (as Flax's deprecated class).

    Example::

        batches = PrefetchIterator(iter(loader), buffer_size=2)
        for batch in batches:
            state = train_step(state, batch)

    An exception raised by `data_iter` is raised by `next` once the items read before it are
    consumed; ``close()`` stops the reading (iteration then ends after the buffered items).
    """

    def __init__(self, data_iter: Iterator[Any], buffer_size: int = 1):
        """Starts reading.

        Args:
          data_iter: the iterator to read from.
          buffer_size: how many items to keep ready.
        """
        warnings.warn(
            "PrefetchIterator is deprecated. Use the standard `tf.data` prefetch method instead",
            DeprecationWarning,
            stacklevel=2,
        )
        self._source = data_iter
        self.buffer_size = buffer_size
        self._ready: list[Any] = []
        self._error: BaseException | None = None
        self._active = True
        self._cond = threading.Condition()
        self._thread = threading.Thread(target=self._fill, daemon=True)
        self._thread.start()

    def __iter__(self) -> PrefetchIterator:
        return self

    def __next__(self) -> Any:
        with self._cond:
            self._cond.wait_for(lambda: self._ready or not self._active)
            if self._ready:
                item = self._ready.pop(0)
                self._cond.notify_all()
                return item
            if self._error is not None:
                raise self._error
            raise StopIteration

    def close(self) -> None:
        """Stops the background reading."""
        with self._cond:
            self._active = False
            self._cond.notify_all()

    def _fill(self) -> None:
        """The thread: read an item, wait for room in the buffer, until closed or exhausted."""
        while True:
            try:
                item = next(self._source)
            except Exception as e:  # noqa: BLE001  (StopIteration too: it ends iteration)
                with self._cond:
                    self._error = None if isinstance(e, StopIteration) else e
                    self._active = False
                    self._cond.notify_all()
                return
            with self._cond:
                self._ready.append(item)
                self._cond.notify_all()
                self._cond.wait_for(lambda: len(self._ready) < self.buffer_size or not self._active)
                if not self._active:
                    return
