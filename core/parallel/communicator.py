"""How the device threads of one `pmap` call (and, over MPI, its processes) exchange values.

Every collective is an all-gather: each device contributes its array and receives the list of
all devices' arrays, in rank order; psum, pmax, all_gather... reduce that list (in the same
order on every device, so every device gets bit-identical results). Within a process the
threads meet at one barrier per collective: each writes its slot, waits, reads every slot.
Consecutive collectives alternate between two sets of slots, so a fast device writing the next
collective's slot cannot overwrite one a slow device is still reading (it could only come back
to that set after the next barrier, which the slow device reaches after reading). With other
processes (`core.distributed`), the first local thread then exchanges this process's list with
the other processes' first threads, and a second barrier hands the result to the others. A
device that fails aborts the barrier, so the others stop waiting (`threading.BrokenBarrierError`)
instead of hanging.
"""

from __future__ import annotations

import threading
from typing import Any


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
        self._phase = [0] * size  # which set of slots each device uses next
        self._barrier = threading.Barrier(size)

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

    def abort(self) -> None:
        """Wakes every waiting device with `threading.BrokenBarrierError` (one has failed)."""
        self._barrier.abort()
