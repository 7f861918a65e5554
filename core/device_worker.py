"""The worker thread of a CPU device: runs the functions submitted to it, in order.

Each local device owns one daemon thread, started on first use. `pmap` submits the program of
each device's shard to that device's worker, so the shards run at once: the compiled kernels
release the GIL (numba `nogil=True`) and take it back only for host calls such as collectives.
Code running on a worker can ask `current_device()` which device it serves. After `fork` the
child has no threads: workers start again on first use there.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

_local = threading.local()


def current_device() -> Any:
    """The device whose worker thread is running the caller, or None off the workers."""
    return getattr(_local, "device", None)


class Worker:
    """A thread that runs submitted functions one at a time, for one device."""

    def __init__(self, device: Any):
        self.device = device
        self._lock = threading.Lock()
        self._queue: queue.SimpleQueue | None = None
        _WORKERS.append(self)

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        """Queues `fn(*args)` on this device's thread.

        Returns:
          A `concurrent.futures.Future` of its result (or of the exception it raised).
        """
        future: Future = Future()
        self._ensure_started().put((future, fn, args))
        return future

    def _ensure_started(self) -> queue.SimpleQueue:
        q = self._queue
        if q is None:
            with self._lock:
                if self._queue is None:
                    q = queue.SimpleQueue()
                    threading.Thread(
                        target=self._run, args=(q,), name=f"numbax-{self.device}", daemon=True
                    ).start()
                    self._queue = q
                q = self._queue
        return q

    def _run(self, q: queue.SimpleQueue) -> None:
        _local.device = self.device
        while True:
            future, fn, args = q.get()
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(fn(*args))
            except BaseException as err:  # handed to the waiting caller
                future.set_exception(err)
            del future, fn, args  # drop the references before waiting for the next task

    def _forget_thread(self) -> None:
        self._lock = threading.Lock()
        self._queue = None


_WORKERS: list[Worker] = []


def _after_fork_in_child() -> None:
    for worker in _WORKERS:
        worker._forget_thread()


os.register_at_fork(after_in_child=_after_fork_in_child)
