"""A dict of bounded size that threads share: the memos and records kept per process.

Several places keep what they made or saw by key for the life of the process: the code
generator's sources by kernel structure, pmap's traces by signature, the eager control-flow
programs, the sharding constraints and exemptions of traced variables. Each must stay bounded
(a long-lived process traces without end) and each is used by threads that trace at once, so
each needs its eviction and its reads under one lock: a thread that evicted the oldest entry
while another had just looked it up made the other's read raise a KeyError.

`BoundedRecord` is that dict: `get` and `put` take its lock, the oldest entry goes when a `put`
passes the bound, and with `recency=True` a `get` that finds its key makes it the newest (least
recently used goes first) instead of the oldest inserted.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any


class BoundedRecord:
    """A thread-safe dict that drops its oldest entries past a bound.

    Args:
      bound: the most entries kept, or a function returning it (read at every `put`, for
        bounds that follow a configuration value).
      recency: whether a `get` that finds its key makes it the newest entry (evicting the
        least recently used first) rather than leaving the insertion order.
    """

    def __init__(self, bound: int | Callable[[], int], recency: bool = False) -> None:
        self.bound = bound
        self._recency = recency
        self._entries: dict = {}
        self._lock = threading.Lock()

    def get(self, key: Hashable, default: Any = None) -> Any:
        """The value kept for `key`, or `default`.

        Args:
          key: the key.
          default: returned when `key` is not kept (never kept, or evicted).

        Returns:
          The value or `default`.
        """
        with self._lock:
            if not self._recency:
                return self._entries.get(key, default)
            value = self._entries.pop(key, _MISSING)
            if value is _MISSING:
                return default
            self._entries[key] = value
            return value

    def put(self, key: Hashable, value: Any) -> None:
        """Keeps `value` for `key` as the newest entry, dropping the oldest past the bound.

        Args:
          key: the key.
          value: the value.
        """
        bound = self.bound() if callable(self.bound) else self.bound
        with self._lock:
            self._entries.pop(key, None)
            self._entries[key] = value
            while len(self._entries) > max(bound, 0):
                del self._entries[next(iter(self._entries))]

    def clear(self) -> None:
        """Drops every entry."""
        with self._lock:
            self._entries.clear()

    def __contains__(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._entries

    def __len__(self) -> int:
        return len(self._entries)


_MISSING = object()
