"""``flax.ids``: the unique ids of modules (``module._id``).

An id identifies one module object: adoption and cloning key their caches on it, so a module
shared by reference stays shared after it is cloned. A copy (``copy.copy``/``copy.deepcopy``)
is another object, so it gets a fresh id, never its original's.
"""

from __future__ import annotations

import itertools
import threading


class FlaxId:
    """A unique, hashable id; copies are new ids."""

    def __init__(self, rawid: int):
        self.id = rawid

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FlaxId) and other.id == self.id

    def __hash__(self) -> int:
        return hash(self.id)

    def __repr__(self) -> str:
        return f"FlaxId({self.id})"

    def __copy__(self) -> FlaxId:
        return uuid()

    def __deepcopy__(self, memo: dict) -> FlaxId:
        return uuid()


class UUIDManager:
    """Hands out increasing ids, safely across threads (``uuid()`` is its instance)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._count = itertools.count(1)

    def __call__(self) -> FlaxId:
        """A new id."""
        with self._lock:
            return FlaxId(next(self._count))


uuid = UUIDManager()
