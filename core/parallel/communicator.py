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

Compiled programs do not come here for their collectives (in one process): a kernel's psum,
pmax, pmin or all_gather is a call of the library function `exchange`
(`core/backends/numba/library/exchange.py`), which meets the other devices through the
communicator's `Block`, native memory it reads and writes with atomics, without the GIL or
Python. Each device thread finds its place (the block and its rank) through a POSIX
thread-specific value that `placed` sets around the device's program (`place_key`). The
block's barrier spins briefly, then sleeps on a futex (with a core per device, a device waiting
there first runs pieces of the other devices' parallel loops, which they post on the block's
desk while the call runs: `join_desk`, `core/backends/llvm/pool.py`'s `desk`); a device
waiting longer than
`config.pmap_collective_timeout` seconds marks the block timed out and wakes the others, and
`abort` marks it aborted: the devices' exchanges then return at once (zeros), the programs run
to their end, and `check` raises on every device.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from core.config import config
from core.errors import CollectiveTimeoutError
from core.jit import threads

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


# The layout of a `Block`'s control words (int64; the barrier's counters are the low int32 of
# their word, each on its own cache line): arrivals of this round, the time waiters spin now
# (ns), the address of the desk where the devices post their loops (0: none) and whether this
# call's devices stopped helping (`DESK_OFF`, see `HELP_NS`) with the window itself, the round
# (the futex word), the status (`RUNNING`, `ABORTED`, `TIMED_OUT`) with the number of
# sleeping waiters beside it, the device count, the timeout, the longest spin (ns),
# the staging area (address, bytes per device and phase), the rank that timed out; from
# `RANKS` one cache line per device (its next phase), then the slots: the address of device
# r's array in phase p at `slots(size) + p * size + r`, of its result at `2 * size` words
# further.
COUNT, SPIN, DESK, DESK_OFF, HELP_WINDOW, ROUND, STATUS, SLEEPERS = 0, 1, 2, 3, 4, 8, 16, 17
SIZE, TIMEOUT, SPIN_LIMIT, STAGE, STAGE_BYTES, CULPRIT = 18, 19, 20, 21, 22, 23
RANKS = 24
RUNNING, ABORTED, TIMED_OUT = 0, 1, 2
# A waiting device spins at most this long before it sleeps: when the devices have a core each,
# they reach a collective within microseconds of each other, and a futex sleep and wake-up
# costs tens of microseconds (more in a VM whose idle core must wake). Waits adapt the spin
# (`exchange._meet`): one that ends while spinning doubles it, one that sleeps halves it, so
# next to busy processes (the other device has no core: spinning only delays it) the devices
# go to sleep at once.
SPIN_NS = 20_000
# With a core per device, a waiting device stays awake to run pieces of the other devices'
# parallel loops (the pmap desk, `core/backends/llvm/pool.py`'s `desk`) until it has found
# none for this long (next to a busy process pieces come rarely: it then sleeps). A device
# that goes to sleep so ends the helping of every device for the rest of the call (the
# block's `DESK_OFF`): with a core each the devices meet within a millisecond or find pieces,
# so a longer wait means the others lost their cores, and a call that helped at each of its
# barriers then spun a window at each (a ResNet-10 step at load 15 on 2 cores: 142-259 ms of
# CPU when its call joined the desk, 97 ms when not; the gate below only acts once the call
# has ended, on the calls after it).
HELP_NS = 2_000_000
# ... but only while the devices get their cores: a call whose devices were given less than
# this share of their wall time in CPU time (other processes took the rest) leaves the desk to
# the calls of the next `HELP_PAUSE_S` seconds, and the first call after them tries it again.
# A device that stays awake on a core it shares takes that core from the processes that then
# delay the other devices (the ResNet-10 step over 2 devices next to busy processes, load 16
# on 2 cores, interleaved in one process: 141 ms of CPU and 508 ms of wall time a step with
# the desk, 97 ms and 376 ms without; the benchmark's "slow mode", 35% more CPU for the
# same kernels, in the processes run while others were busy).
# The pause doubles with every call that helped and still lacked its cores, up to
# `HELP_PAUSE_MAX_S`, and is `HELP_PAUSE_S` again after a call that helped with its cores:
# calls are queued ahead of the one that finds the cores taken (asynchronous dispatch, a
# benchmark's back-to-back calls), so with a fixed pause of about two steps' wall time every
# step joined the desk (ResNet-10 at load 17 in one process: 136-140 ms of CPU a step against
# 98 ms for calls that never join).
HELP_SHARE = 0.5
HELP_PAUSE_S = 1.0
HELP_PAUSE_MAX_S = 16.0


class _HelpGate:
    """When calls may join the desk again (`until`, in `time.monotonic()` seconds) and how long
    the next call that helps without its cores keeps them from it (`pause`; see above)."""

    __slots__ = ("pause", "until")

    def __init__(self) -> None:
        self.until = 0.0
        self.pause = HELP_PAUSE_S

    def open(self) -> bool:
        """Whether a call may join the desk now."""
        return time.monotonic() >= self.until

    def ended(self, had_cores: bool) -> None:
        """Notes a call that helped: with its cores the pause is `HELP_PAUSE_S` again; without,
        the desk closes for the pause, which doubles (up to `HELP_PAUSE_MAX_S`)."""
        if had_cores:
            self.pause = HELP_PAUSE_S
        else:
            self.until = time.monotonic() + self.pause
            self.pause = min(HELP_PAUSE_MAX_S, 2 * self.pause)


_help_gate = _HelpGate()
_FUTEX_WAKE_PRIVATE = 129
_SYS_FUTEX = {"x86_64": 202, "aarch64": 98}.get(os.uname().machine)

_libc = ctypes.CDLL(None, use_errno=True)
# Called with the GIL held (a `CDLL` call hands it over: the device threads' Python before
# their first kernels then takes turns at every call).
_specific = ctypes.PyDLL(None)
_specific.pthread_getspecific.restype = ctypes.c_void_p
_specific.pthread_getspecific.argtypes = [ctypes.c_uint]
_specific.pthread_setspecific.argtypes = [ctypes.c_uint, ctypes.c_void_p]
_key: list[int] = []
_key_lock = threading.Lock()


def slots(size: int) -> int:
    """The word of a `Block` of `size` devices where the slots start."""
    return RANKS + 8 * size


def place_key() -> int:
    """The POSIX thread-specific key whose value, on a device thread running a pmap's program,
    is the address of its place: four int64, its `Block`'s control words, its rank, whether
    the results of its exchanges are unread and whether the next exchange completes them
    (`call_exchange`; 0 on other threads). Created once per process."""
    with _key_lock:
        if not _key:
            key = ctypes.c_uint()
            if _libc.pthread_key_create(ctypes.byref(key), None) != 0:
                raise OSError(ctypes.get_errno(), "pthread_key_create failed")
            _key.append(key.value)
        return _key[0]


# The place of this thread's block (`Block.placed`): a row of `Block.places`, and the
# arguments of chained exchanges kept alive (`call_exchange`).
_current = threading.local()


def call_exchange(unread: bool, chained: bool, kernel: Callable[..., Any], *args: Any) -> Any:
    """`kernel(*args)`, a kernel of exchanges only, on this device thread. Outside a block's
    `placed`, just the call.

    Args:
      unread: the program reads none of the results of the kernel's exchanges: the other
        devices do not write their shares into them, and this one computes none
        (`exchange.py`).
      chained: the program's next kernel is another exchange of arrays read in place, the
        same on every device: this device does not wait for the others to finish reading its
        arrays and writing their shares of its results (their arrival at the next exchange
        proves it) and keeps `args` alive until a kernel called with `chained` False returns.
      kernel: the kernel.
      *args: its arguments.

    Returns:
      What the kernel returns.
    """
    row = getattr(_current, "row", None)
    if row is None:
        return kernel(*args)
    row[2], row[3] = unread, chained
    try:
        out = kernel(*args)
    finally:
        row[2] = row[3] = 0
    if chained:
        _current.kept.append(args)
    else:
        _current.kept.clear()
    return out


def hand_over(index: int, meets: bool, kernel: Callable[..., Any], *args: Any) -> Any:
    """Exchange kernel `index` whose result no device reads: an optimizer update reads the
    devices' operands instead (`take_handed`, `shared_work.py`'s folds). This device records
    its operand (the kernel's last argument) in the call's table, which keeps it until the
    reader takes it or the call ends (`ThreadCommunicator.release`), and, if `meets`, meets
    the others in the kernel: past that barrier every device's operands of this exchange and
    of the ones before it that did not meet are there. The kernel then computes nothing
    (`call_exchange` with the results unread) and needs no second barrier (nobody reads this
    device's arrays in it: a chain of exchanges before it is completed by its first one).
    Outside a device's place, just the kernel.

    Returns:
      What the kernel returns, or `(None,)` if it did not run (a result nobody reads).
    """
    if not hand(index, args[-1]):
        return kernel(*args)
    return call_exchange(True, True, kernel, *args) if meets else (None,)


def placed() -> bool:
    """Whether this thread runs as a device of a block (`Block.placed`)."""
    return getattr(_current, "row", None) is not None


def hand(index: int, value: Any) -> bool:
    """Records `value` as this device's operand of kernel `index` in the call's table, for
    `take_handed` (`hand_over`; `shared_work.py` hands a kernel gradient's operands over
    instead of computing it).

    Returns:
      False outside a device's place (nothing recorded).
    """
    row = getattr(_current, "row", None)
    if row is None:
        return False
    _current.handed.setdefault(index, {})[int(row[1])] = value
    return True


def take_handed(index: int, size: int) -> list[Any] | None:
    """The operands the `size` devices of this thread's call handed over at exchange kernel
    `index` (`hand_over`), by rank, which the call then no longer keeps (one device reads
    them: their memory is free for the kernels after); None if one did not (its program
    failed before, or this thread runs no pmap device: the exchange's own result is then what
    to read)."""
    table = getattr(_current, "handed", None)
    got = None if table is None else table.get(index)
    if got is None or len(got) != size:
        return None
    del table[index]
    return [got[r] for r in range(size)]


def timeout_ns() -> int:
    """`config.pmap_collective_timeout` in nanoseconds (inf: about 30 years)."""
    return int(min(config.pmap_collective_timeout, 1e9) * 1e9)


def libc_address(name: str) -> int:
    """The address of the C library function `name` (for compiled code to call)."""
    return ctypes.cast(getattr(_libc, name), ctypes.c_void_p).value


_desk: list[Callable[[], Any]] = []  # `register_desk`


def register_desk(desk: Callable[[], Any]) -> None:
    """Registers what gives the pmap devices' desk (`pool.desk`, registered when the LLVM back
    end loads, before any compiled program runs)."""
    _desk[:] = [desk]


def _join_desk(size: int) -> int:
    """The address of the desk where `size` devices' one-thread loops are posted, so that a
    device waiting at a collective's barrier runs pieces of them (`exchange._meet`), counting
    them on the desk until `release`; or 0: with `config.pmap_devices_help` off, or
    more devices than cores (a waiting device then has no idle core to lend)."""
    if not _desk or not config.pmap_devices_help or not 1 < size <= threads.affinity_cores():
        return 0
    return _desk[0]().join(size)


class Block:
    """The native memory through which compiled collectives of `size` devices meet (see the
    module docstring): control words, the devices' places, a staging area where each device
    copies arrays of at most `stage_bytes` (one barrier then suffices: every device combines
    the copies on its own; larger arrays are read where they are, and a second barrier waits
    until every device has read them)."""

    def __init__(self, size: int, stage_bytes: int):
        self.size = size
        self.words = np.zeros(slots(size) + 4 * size, np.int64)
        self._flags = self.words.view(np.int32)  # the barrier's int32 counters
        self._stage = np.empty(2 * size * stage_bytes + 64, np.uint8)
        self.places = np.zeros((size, 4), np.int64)
        address = self.words.ctypes.data
        self.places[:, 0] = address
        self.places[:, 1] = np.arange(size)
        stride = self.places.strides[0]
        self._addresses = [self.places.ctypes.data + stride * r for r in range(size)]
        cores = threads.affinity_cores()  # the process's (a pmap device keeps to one CPU)
        w = self.words
        w[SIZE], w[TIMEOUT] = size, timeout_ns()
        w[SPIN_LIMIT] = SPIN_NS if size <= cores else 0  # more devices than cores: sleep
        w[SPIN] = w[SPIN_LIMIT]
        w[STAGE], w[STAGE_BYTES] = -(-self._stage.ctypes.data // 64) * 64, stage_bytes
        w[CULPRIT] = -1

    def abort(self) -> None:
        """Marks the block aborted and wakes every waiting device."""
        if self._flags[2 * STATUS] == RUNNING:
            self._flags[2 * STATUS] = ABORTED
        self._flags[2 * ROUND] += 1  # waiters that have not slept yet do not sleep
        if _SYS_FUTEX is not None:
            address = self.words.ctypes.data + 8 * ROUND
            _libc.syscall(_SYS_FUTEX, ctypes.c_void_p(address), _FUTEX_WAKE_PRIVATE, 1 << 30)

    def status(self) -> int:
        """`RUNNING`, `ABORTED` or `TIMED_OUT`."""
        return int(self._flags[2 * STATUS])

    def culprit(self) -> int:
        """The rank of the device that waited too long (-1 if none did)."""
        return int(self.words[CULPRIT])

    @contextlib.contextmanager
    def placed(self, rank: int, handed: dict | None = None) -> Iterator[None]:
        """Runs the block as device `rank` of this block: its compiled exchanges meet here, and
        `hand_over` records its operands in `handed` (the call's, `ThreadCommunicator`)."""
        key = place_key()
        before = _specific.pthread_getspecific(key)
        _specific.pthread_setspecific(key, self._addresses[rank])
        row, _current.row = getattr(_current, "row", None), self.places[rank]
        kept, _current.kept = getattr(_current, "kept", None), []
        table, _current.handed = getattr(_current, "handed", None), {} if handed is None else handed
        try:
            yield
        finally:
            _specific.pthread_setspecific(key, before)
            _current.row, _current.kept, _current.handed = row, kept, table


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
        self._helped = False  # whether this call's devices joined the desk (`join_desk`)
        self._busy = [(0, 0)] * size  # each device's CPU and wall time in its slice (`busy`)
        # {exchange kernel: {rank: its operand}} (`hand_over`): kept until the call has ended.
        self._handed: dict[int, dict[int, Any]] = {}
        # Compiled collectives meet in a `Block` (one process only: over MPI they are host
        # calls into `combine`). A block whose call ended cleanly serves the next call.
        self.block = None
        if processes is None:
            free = _FREE_BLOCKS.get(size)
            self.block = free.pop() if free else Block(size, SMALL)
            self.block.words[TIMEOUT] = timeout_ns()
            self.block.words[DESK] = self.block.words[DESK_OFF] = 0  # (`join_desk`)
            self.block.words[HELP_WINDOW] = HELP_NS

    def placed(self, local_rank: int) -> contextlib.AbstractContextManager[None]:
        """Runs the block as device `local_rank`: its compiled collectives meet here."""
        if self.block is None:
            return contextlib.nullcontext()
        return self.block.placed(local_rank, self._handed)

    def check(self, local_rank: int) -> None:
        """Raises if the compiled collectives of this call did not all meet (call it on each
        device after its program).

        Raises:
          CollectiveTimeoutError: a device waited longer than `config.pmap_collective_timeout`.
          threading.BrokenBarrierError: a device failed (its own error is raised there).
        """
        status = RUNNING if self.block is None else self.block.status()
        if status == TIMED_OUT:
            seconds = self.block.words[TIMEOUT] / 1e9
            raise CollectiveTimeoutError(self.block.culprit(), self.global_size, seconds)
        if status == ABORTED:
            raise threading.BrokenBarrierError

    def busy(self, local_rank: int, cpu_ns: int, wall_ns: int) -> None:
        """Notes device `local_rank`'s CPU and wall nanoseconds in its slice of this call."""
        self._busy[local_rank] = (cpu_ns, wall_ns)

    def release(self) -> None:
        """Called once every device has returned: the block serves a later call if this one
        ended cleanly (the caller has left the desk: `leave_desk`)."""
        block, self.block = self.block, None
        self._handed.clear()  # every device has returned: nobody reads the operands any more
        if block is not None and block.status() == RUNNING:
            _FREE_BLOCKS.setdefault(block.size, []).append(block)
        cpu, wall = map(sum, zip(*self._busy))
        if not self._helped:
            return
        if wall > 0:  # (a call that ran nothing tells nothing)
            _help_gate.ended(had_cores=cpu >= HELP_SHARE * wall)

    def join_desk(self) -> None:
        """Lets this call's devices help each other at its collectives (`_join_desk`), unless
        a call's devices lacked their cores within the pause that set (`release`); until
        `leave_desk`, which the call must reach however it ends."""
        block = self.block
        if block is None or block.words[DESK] != 0 or not _help_gate.open():
            return
        block.words[DESK] = _join_desk(self.size)
        self._helped = block.words[DESK] != 0

    def leave_desk(self) -> None:
        """Called once every device has returned, whether the call failed or not: its devices
        no longer post their loops on the desk (`join_desk`). Idempotent."""
        block = self.block
        if block is not None and block.words[DESK] != 0:
            block.words[DESK] = 0
            _desk[0]().leave(block.size)

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
        if self.block is not None:
            self.block.abort()


# Blocks of calls that ended cleanly, by device count (`ThreadCommunicator.release`).
_FREE_BLOCKS: dict[int, list[Block]] = {}
