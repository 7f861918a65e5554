"""Ctrl-C during training: finish the current step, then stop cleanly.

`StopOnInterrupt` replaces the SIGINT handler while the training loop runs. The first Ctrl-C
only sets ``requested`` (and says so); the loop checks it after every step, so the step in
flight completes inside compiled code untouched and the program saves a checkpoint of a
consistent state. A second Ctrl-C raises `KeyboardInterrupt` at once: the loop then abandons
the step in flight (its result is never assigned) and saves the state before it.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from typing import Any


class StopOnInterrupt:
    """A context manager turning the first SIGINT into a request to stop after the step.

    Args:
        notify: called with a message when the first Ctrl-C arrives (e.g. ``tqdm.write``).

    Outside the main thread (where Python cannot install signal handlers) it does nothing and
    Ctrl-C raises `KeyboardInterrupt` as usual.
    """

    def __init__(self, notify: Callable[[str], None] = print):
        self.requested = False
        self._notify = notify
        self._previous: Any = None

    def _handle(self, signum: int, frame: Any) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True
        self._notify(
            "Ctrl-C: stopping after this step and saving a checkpoint (Ctrl-C again to "
            "abandon the step)"
        )

    def __enter__(self) -> StopOnInterrupt:
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)
            self._previous = None
