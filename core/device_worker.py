"""The worker thread of a CPU device: runs the functions submitted to it, in order.

Each local device owns one daemon thread, started on first use. `pmap` submits the program of
each device's shard to that device's worker, so the shards run at once: the compiled kernels
release the GIL (numba `nogil=True`) and take it back only for host calls such as collectives.
Code running on a worker can ask `current_device()` which device it serves. A worker's
parallel loops (numba's `prange`, whose thread count is per calling thread) use its share of
the cores, so N devices busy at once do not start N full teams of loop threads. After `fork`
the child has no threads: workers start again on first use there.
"""

from __future__ import annotations

import os
import queue
import sys
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

    def __init__(self, device: Any, loop_threads: int = 1):
        """
        Args:
          device: the device this worker serves.
          loop_threads: how many threads the parallel loops of its kernels may use.
        """
        self.device = device
        self.loop_threads = loop_threads
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
        limited = False
        while True:
            future, fn, args = q.get()
            if not limited:
                limited = self._limit_loop_threads()
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(fn(*args))
            except BaseException as err:  # handed to the waiting caller
                future.set_exception(err)
            del future, fn, args  # drop the references before waiting for the next task

    def _limit_loop_threads(self) -> bool:
        """Caps this thread's parallel-loop threads once numba is loaded (True when done)."""
        numba = sys.modules.get("numba")
        if numba is None:
            return False
        numba.set_num_threads(max(1, min(self.loop_threads, numba.config.NUMBA_NUM_THREADS)))
        return True

    def _forget_thread(self) -> None:
        self._lock = threading.Lock()
        self._queue = None


_WORKERS: list[Worker] = []


def _after_fork_in_child() -> None:
    for worker in _WORKERS:
        worker._forget_thread()


os.register_at_fork(after_in_child=_after_fork_in_child)
