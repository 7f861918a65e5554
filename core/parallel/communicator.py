"""How the device threads of one `pmap` call (and, over MPI, its processes) exchange values.

A collective combines every device's array into one result: `combine` (psum, pmax, pmin and
all_gather) takes how to make the result and how to fill a part of it from the list of all
devices' arrays, in rank order (every element is computed in the same order whichever device
computes it, so all devices get bit-identical results). Within a process the threads meet at
a barrier once every array is in; device 0 has made the result, each device fills its own
part of it (the devices share the work: a psum of gradients costs each of N devices 1/N of
the sum), and a second barrier waits for every part. All devices then hold the same result
array, which they only read, and no device reads another's array any more: the inputs can be
the compiled kernels' own buffers, handed over without a copy. With other processes
(`core.distributed`), the first local thread exchanges this process's list with the other
processes' first threads (`allgather`), and a second barrier hands the result to the others,
each of which combines it alone.

Consecutive collectives alternate between two sets of slots, so a fast device writing the next
collective's slot cannot overwrite one a slow device is still reading (it could only come back
to that set after the next barrier, which the slow device reaches after reading). Small arrays
(`SMALL`) take one barrier: every device gathers copies of them and combines them on its own.
A device that fails aborts the barrier, so the others stop waiting
(`threading.BrokenBarrierError`) instead of hanging.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np

# Arrays of at most this many bytes (a BatchNorm's statistics) are combined by every device on
# its own from copies: one barrier instead of two costs less than the copy and the whole
# reduction.
SMALL = 1 << 16


def _closed_gate() -> threading.Lock:
    gate = threading.Lock()
    gate.acquire()
    return gate


class _Barrier:
    """A barrier of `parties` threads on bare locks, like `threading.Barrier` (`wait`, `abort`,
    `threading.BrokenBarrierError`) without its cost: that one is Python code around a
    `Condition`, and a thread that reaches the next barrier while the last one's waiters are
    still leaving it sleeps until they have left, two sleeps and wake-ups per barrier instead of
    one (a BatchNorm psum of a ResNet step: 51 -> 42 us of CPU per device). Each round has a
    gate, a locked lock the waiters block on; the last thread to arrive starts the next round
    with a new gate and opens this one; each waiter passes it on to the next."""

    def __init__(self, parties: int):
        self._parties = parties
        self._lock = threading.Lock()
        self._count = 0
        self._gate = _closed_gate()
        self._broken = False

    def wait(self) -> None:
        """Returns when all `parties` threads have called it (this round).

        Raises:
          threading.BrokenBarrierError: the barrier was aborted.
        """
        with self._lock:
            if self._broken:
                raise threading.BrokenBarrierError
            gate = self._gate
            self._count += 1
            last = self._count == self._parties
            if last:
                self._count = 0
                self._gate = _closed_gate()
        if last:
            gate.release()
            return
        gate.acquire()
        gate.release()
        if self._broken:
            raise threading.BrokenBarrierError

    def abort(self) -> None:
        """Wakes the waiting threads with `threading.BrokenBarrierError`, and every later one."""
        with self._lock:
            self._broken = True
            if self._gate.locked():
                self._gate.release()


class ThreadCommunicator:
    """The meeting point of `size` local device threads (ranks 0..size-1 of this process)."""

    def __init__(self, size: int, processes: Any = None, first_rank: int = 0, global_size: int = 0):
        """
        Args:
          size: the number of local device threads taking part.
          processes: None for one process, else an object whose `allgather(list)` returns the
            lists of every process in process order (`core.distributed`'s MPI group).
          first_rank: the global rank of local device 0 (its process's index times `size`).
          global_size: the number of devices of all processes (default `size`).
        """
        self.size = size
        self.first_rank = first_rank
        self.global_size = global_size or size
        self._processes = processes
        self._slots: list[list[Any]] = [[None] * size, [None] * size]
        self._gathered: list[list[Any]] = [[], []]
        self._results: list[Any] = [None, None]
        self._phase = [0] * size  # which set of slots each device uses next
        self._barrier = _Barrier(size)

    def allgather(self, local_rank: int, value: Any) -> list[Any]:
        """Contributes `value` as local device `local_rank`; returns every device's value,
        ordered by global rank (process, then local rank)."""
        phase = self._phase[local_rank]
        self._phase[local_rank] = 1 - phase
        slots = self._slots[phase]
        slots[local_rank] = value
        self._barrier.wait()
        if self._processes is None:
            return list(slots)
        if local_rank == 0:
            try:
                lists = self._processes.allgather(list(slots))
            except BaseException:
                self._barrier.abort()
                raise
            self._gathered[phase] = [v for values in lists for v in values]
        self._barrier.wait()
        return self._gathered[phase]

    def combine(
        self,
        local_rank: int,
        value: np.ndarray,
        new: Callable[[np.ndarray], np.ndarray],
        fill: Callable[[np.ndarray, list[np.ndarray], int, int], None],
    ) -> np.ndarray:
        """Contributes `value` as local device `local_rank`; returns the result every device
        gets (the same array on every local device: read it, never write it). Every device
        has finished reading `value` when this returns.

        Args:
          local_rank: this device's index among the local devices.
          value: this device's array.
          new: makes the (empty) result, given one device's array (all have its shape).
          fill: `fill(out, values, part, parts)` computes share `part` of `parts` of `out`
            from `values` (every device's array, by global rank).

        Returns:
          The result.
        """
        if self._processes is not None or value.nbytes <= SMALL:
            if self._processes is None:  # the others read it after this device returns
                value = np.array(value)
            values = self.allgather(local_rank, value)
            out = new(value)
            fill(out, values, 0, 1)
            return out
        phase = self._phase[local_rank]
        self._phase[local_rank] = 1 - phase
        slots = self._slots[phase]
        slots[local_rank] = value
        if local_rank == 0:
            try:
                self._results[phase] = new(value)
            except BaseException:
                self._barrier.abort()
                raise
        self._barrier.wait()
        out = self._results[phase]
        fill(out, slots, local_rank, self.size)
        self._barrier.wait()
        slots[local_rank] = None  # nobody reads it any more: do not keep the buffer alive
        return out

    def abort(self) -> None:
        """Wakes every waiting device with `threading.BrokenBarrierError` (one has failed)."""
        self._barrier.abort()
