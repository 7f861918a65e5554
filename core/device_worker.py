"""The worker thread of a CPU device: runs the functions submitted to it, in order.

Each local device owns one daemon thread, started on first use. `pmap` submits the program of
each device's shard to that device's worker, so the shards run at once: the compiled kernels
release the GIL (numba `nogil=True`) and take it back only for host calls such as collectives.
Code running on a worker can ask `current_device()` which device it serves. A worker's
parallel loops (numba's `prange`, whose thread count is per calling thread) use its share of
the cores, so N devices busy at once do not start N full teams of loop threads; a jitted call
dispatched asynchronously (`core/jit/dispatch.py`, `enqueue`) runs with the loop threads it was
queued with (`core.jit.threads.loop_threads`: the count that follows the machine's load).
Before `fork` the workers finish their queues and end (see `_before_fork`); they start again
on first use, in the parent and in the child.
"""

from __future__ import annotations

import os
import queue
import sys
import threading
import time
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

    def submit(self, fn: Callable[..., Any], *args: Any, cpu: int | None = None) -> Future:
        """Queues `fn(*args)` on this device's thread, kept on CPU `cpu` while it runs (None:
        any of the process's CPUs; see `enqueue`).

        Returns:
          A `concurrent.futures.Future` of its result (or of the exception it raised).
        """
        future: Future = Future()
        self._ensure_started().put((future, fn, args, self.loop_threads, cpu))
        return future

    def enqueue(
        self, fn: Callable[..., Any], args: tuple, loop_threads: int, cpu: int | None = None
    ) -> None:
        """Queues `fn(*args)` on this device's thread, with no future (`fn` reports its own
        result and errors, see `core.pending.Task`); its parallel loops use `loop_threads`.
        With a `cpu`, the thread keeps to that CPU while it runs `fn` (a pmap's slice: each
        device on a core of its own, `core/parallel/dispatch.py`), else it runs anywhere."""
        self._ensure_started().put((None, fn, args, loop_threads, cpu))

    def _ensure_started(self) -> queue.SimpleQueue:
        q = self._queue
        if q is None:
            with self._lock:
                if self._queue is None:
                    q = queue.SimpleQueue()
                    self._thread = threading.Thread(
                        target=self._run, args=(q,), name=f"numbax-{self.device}", daemon=True
                    )
                    self._thread.start()
                    self._queue = q
                q = self._queue
        return q

    def _run(self, q: queue.SimpleQueue) -> None:
        _local.device = self.device
        threads = None  # this thread's parallel-loop threads, once set
        cpu = None  # the CPU this thread keeps to (None: any of the process's)
        while True:
            item = q.get()
            if item is None:  # `_stop`
                return
            future, fn, args, want, where = item
            if want != threads:
                threads = self._set_loop_threads(want, threads)
            if where != cpu:
                cpu = keep_to(where)
            if future is None:
                fn(*args)
            elif future.set_running_or_notify_cancel():
                try:
                    future.set_result(fn(*args))
                except BaseException as err:  # handed to the waiting caller
                    future.set_exception(err)
            del future, fn, args  # drop the references before waiting for the next task

    @staticmethod
    def _set_loop_threads(want: int, current: int | None) -> int | None:
        """Sets this thread's parallel-loop threads to `want` once numba is loaded; returns
        the setting now in force (None while numba is not loaded). A numba another thread is
        still importing counts as not loaded: its module, in `sys.modules` from the start of
        the import, lacks `set_num_threads` until the end."""
        numba = sys.modules.get("numba")
        if numba is None or getattr(numba.__spec__, "_initializing", False):
            return current
        try:
            numba.set_num_threads(max(1, min(want, numba.config.NUMBA_NUM_THREADS)))
        except ValueError:  # more than numba's pool accepts: keep the setting in force
            return current
        return want

    def _stop(self) -> None:
        """Lets the thread finish what is queued, then end (it starts again on next use)."""
        with self._lock:
            q, self._queue = self._queue, None
            if q is not None:
                q.put(None)
                self._thread.join()
                _wait_gone(self._thread.native_id)

    def _forget_thread(self) -> None:
        self._lock = threading.Lock()
        self._queue = None


_WORKERS: list[Worker] = []


def keep_to(cpu: int | None) -> int | None:
    """Keeps the calling thread on CPU `cpu`, or (None) lets it run on the CPUs the process's
    main thread may use.

    Args:
      cpu: the CPU (as `core.parallel.dispatch.device_cpus` names them), or None.

    Returns:
      The setting in force: `cpu`, or None if the system refused it.
    """
    try:
        os.sched_setaffinity(0, {cpu} if cpu is not None else os.sched_getaffinity(os.getpid()))
    except (AttributeError, OSError):  # no affinity on this system, or a CPU taken away
        return None
    return cpu


def _wait_gone(native_id: int | None, timeout: float = 0.5) -> None:
    """Waits until the OS thread `native_id` has exited: `Thread.join` returns a little
    before, and TBB's data of the thread goes only when it is gone (Linux's /proc tells)."""
    task = f"/proc/self/task/{native_id}"
    deadline = time.monotonic() + timeout
    while native_id is not None and os.path.exists(task) and time.monotonic() < deadline:
        time.sleep(0.0005)


def _before_fork() -> None:
    # A thread that ran TBB-parallel kernels keeps TBB's pool from shutting down for the fork
    # (numba then warns "Unable to join threads to shut down before fork()" and the child's
    # parallel loops may break): the workers finish their queues and end first. Not from a
    # worker itself (a host callback that forks), which cannot wait for itself.
    if current_device() is None:
        for worker in _WORKERS:
            worker._stop()


def _after_fork_in_child() -> None:
    for worker in _WORKERS:
        worker._forget_thread()


os.register_at_fork(before=_before_fork, after_in_child=_after_fork_in_child)
