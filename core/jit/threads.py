"""numbax's thread policy: how many threads compiled code uses, and the one pool it runs on.

All intra-op parallelism of jitted code runs on `num_threads()` threads: large fused loops
(`prange`, `core/jit/loops.py`) and large matrix products, which `core/jit/gemm.py` cuts into
blocks, one single-threaded BLAS call per block. With `config.jit_thread_pool` (the default)
every parallel loop (numbax's IR and numba's parfors) runs on numbax's own pool
(`core/backends/llvm/pool.py`: `num_threads() - 1` workers besides the caller, which sleep
between loops); without it, on numba's pool with TBB as its threading layer
(`core/jit/fork_safety.py`: fork-safe). OpenBLAS's own threads are turned off (one thread) in
every OpenBLAS the process has loaded (numpy's and scipy's bundled copies), through their C
API: its pool hands out equal shares that its threads busy-wait for, which collapsed steps
20-100x when another process took a core.

How many threads: `config.update("num_threads", n)` or `NUMBAX_NUM_THREADS`, else the usable
cores (`os.sched_getaffinity`: a container's or `taskset`'s CPU mask counts, not the machine's
cores; a cgroup CPU quota such as `docker --cpus 2` lowers it) divided among the processes of
an MPI job that run on the same cores (`share_cores`, which `core.distributed.initialize`
calls: `mpiexec -n 2` on 2 cores gives each process one thread, one device and no compile
worker, instead of two processes of two threads taking turns on each core). The number is
read once, when the jit back end loads (`fix`, called by `fork_safety.configure`, which sizes
numba's pool with it); the option is then frozen. Each device worker thread gets an equal
share (`device_share`), so N devices busy at once do not start N full teams.

The default count follows the machine's load (`LoadFollower`): a jitted call queued on a
device's worker (`core/jit/dispatch.py`: calls estimated at 1 ms or more) runs its parallel
loops on `loop_threads()` threads, fewer while other processes keep cores busy, and so does a
call that runs inline (`follow_on_caller` sets the caller's numba thread count, unless the user
set it). On numba's oneTBB layer, next to one busy process on 2 cores, two threads lose to one:
the second thread wakes on a core the busy process holds and starts its chunks late, after the
caller has done most of them, while competing with the caller for a core (the transformer's
step took 1.1-1.3x the one-thread step, 1.7-1.8x its idle time); on numbax's pool they win, so
there others may use one core more before a thread goes (`POOL_MARGIN`). The evidence is the
machine's idle time on the process's cores (`/proc/stat`) against the process's own CPU time,
over windows of `WINDOW` seconds while the process is computing: what other processes used. The
count goes back up as soon as the cores are idle again; while other processes keep using the
cores it left, the full count is tried again for a window after `HOLD` seconds (doubling the
hold, up to `MAX_HOLD`, while that keeps failing: at one thread a competitor that would yield
the core, e.g. a niced one, cannot be told from one that would not) and after every pause of
the process's own. The first window after a pause or after more threads were started decides
nothing: where processes are grouped for scheduling (Linux's autogroups: one per session;
cgroups), a group's weight on a core follows its recent load there (averages over ~32 ms), so a
thread that starts computing on a core its process left idle first gets a sliver of it, and the
window would show others taking the core (measured: at two threads again after one, others took
1.0 core in the first 0.1 s, 0.25 later). Results do not depend on the count
(`core/jit/schedule.py`). A count set by the user (option or environment variable) is used as
it is.

An `OPENBLAS_NUM_THREADS` or `OMP_NUM_THREADS` set by the user is respected (OpenBLAS then
keeps its own threads), as is `NUMBA_NUM_THREADS` (it caps numba's pool).
"""

from __future__ import annotations

import ctypes
import glob
import importlib.util
import math
import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from core.config import config
from core.jit.errors import ThreadCountError

ENV = "NUMBAX_NUM_THREADS"
_BLAS_ENV = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")
# `openblas_set_num_threads` under its names in upstream OpenBLAS and in the scipy-openblas
# wheels that numpy (64-bit integers) and scipy (32-bit) bundle.
_SETTERS = (
    "openblas_set_num_threads",
    "scipy_openblas_set_num_threads",
    "scipy_openblas_set_num_threads64_",
    "openblas_set_num_threads64_",
)
_state: dict = {"threads": None, "blas": None, "sharers": 1, "follower": None}
CGROUP_V2 = "/sys/fs/cgroup/cpu.max"
CGROUP_V1 = ("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "/sys/fs/cgroup/cpu/cpu.cfs_period_us")


def _read(path: str) -> str:
    with open(path) as f:
        return f.read()


def quota_cores() -> int | None:
    """The cores the process's CPU quota allows (cgroup v2 `cpu.max` or v1 CFS quota, which
    container runtimes set for `--cpus`), rounded up; None when there is no quota."""
    try:
        quota, period = _read(CGROUP_V2).split()[:2]
    except (OSError, ValueError):
        try:
            quota, period = (_read(path).strip() for path in CGROUP_V1)
        except OSError:
            return None
    if quota in ("max", "-1") or int(period) <= 0:
        return None
    return max(1, math.ceil(int(quota) / int(period)))


def process_cpus() -> frozenset[int] | None:
    """The CPUs this process may run on: its main thread's affinity mask, whichever thread
    asks (None where the platform has no masks).

    Linux keeps a mask per thread, and a pmap device's thread keeps to one CPU while it runs
    its slice (`core.device_worker`): `os.sched_getaffinity(0)` asked there names that CPU
    alone. The first run of a pmapped program, which starts the compile workers' optimized
    builds on that thread (`program._after_first_run`), then found no core to spare for a
    worker, and its per-device programs ran quick-tier code for good."""
    if not hasattr(os, "sched_getaffinity"):
        return None
    return frozenset(os.sched_getaffinity(os.getpid()))


def affinity_cores() -> int:
    """The number of CPUs this process may run on: its affinity mask's (`process_cpus`), else
    the machine's cores."""
    cpus = process_cpus()
    return len(cpus) if cpus is not None else os.cpu_count() or 1


def usable_cores() -> int:
    """The number of cores this process may run on: `affinity_cores`, lowered to its CPU quota
    (`quota_cores`)."""
    cores = affinity_cores()
    quota = quota_cores()
    return max(1, min(cores, quota) if quota else cores)


def share_cores(processes: int) -> None:
    """Makes `processes` processes (this one included) share this process's usable cores: the
    default thread count, device count and compile workers become their share
    (`process_cores`). Has no effect on a thread count already fixed (`fix`).

    Args:
      processes: how many processes run on the cores this one may use (at least 1).
    """
    _state["sharers"] = max(1, int(processes))


def process_cores() -> int:
    """This process's share of the usable cores (`usable_cores() // processes sharing them`,
    at least 1): what the default thread count, device count and compile workers use."""
    return max(1, usable_cores() // _state["sharers"])


def requested_threads() -> int:
    """The thread count the configuration asks for: the `num_threads` option if set, else
    `NUMBAX_NUM_THREADS`, else `process_cores()`.

    Raises:
      ThreadCountError: `NUMBAX_NUM_THREADS` is set to something other than a positive integer.
    """
    n = config.num_threads
    if n != -1:
        return n
    text = os.environ.get(ENV, "")
    if not text:
        return process_cores()
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise ThreadCountError(
            f"{ENV}={text!r} is not a positive integer; set it to the number of threads "
            "numbax's compiled code may use, or unset it for one per usable core."
        )
    return n


def num_threads() -> int:
    """The number of threads numbax's compiled code uses (fixed once the back end loaded)."""
    return _state["threads"] or requested_threads()


# Following the load: windows of this many seconds of calls decide (long enough for
# `/proc/stat`'s 10 ms ticks to measure others' use to +-0.2 core on 2 cores, short enough that
# a busy neighbour costs little before the count drops); a window that lasted more than `STALE`
# windows, or in which the process used less than `ACTIVE` cores (it was mostly not computing:
# what others did then says nothing about sharing the cores with them), decides nothing.
# Others' use of the cores, in cores, above a whole number minus `MARGIN` takes one thread
# more away (next to two threads one busy process used 0.7-1.3 cores, on an idle machine the
# rest of the system 0.05-0.2).
WINDOW = 0.1
STALE = 2
ACTIVE = 0.5
MARGIN = 0.4
# On numbax's pool (`config.jit_thread_pool`) two threads beat one next to one busy process on
# two cores (its workers hand their pieces back before the scheduler may preempt them, and a
# caller moves a preempted worker to its own core: `core/backends/llvm/pool.py`), so there one
# core's worth of others' use more is borne before a thread goes.
POOL_MARGIN = MARGIN + 1.0
HOLD, MAX_HOLD = 0.5, 2.0
_PROC_STAT = "/proc/stat"


def idle_seconds(cpus: frozenset[int], path: str = _PROC_STAT) -> float | None:
    """Idle (and I/O-wait) seconds of the CPUs `cpus` since boot, from Linux's `/proc/stat`
    (whole clock ticks: 10 ms each where USER_HZ is 100); None without it."""
    try:
        with open(path, "rb") as f:
            lines = f.read().split(b"\n")
    except OSError:
        return None
    ticks = 0
    for line in lines[1:]:
        fields = line.split()
        if not fields or not fields[0].startswith(b"cpu"):
            break
        if int(fields[0][3:]) in cpus:
            ticks += int(fields[4]) + int(fields[5])
    return ticks / os.sysconf("SC_CLK_TCK")


class LoadFollower:
    """The thread count that follows the machine's load: the most, less one per core that
    other processes kept busy in the last window (at least one), held and tried again as the
    module docstring says. Called once per queued call; reads `/proc/stat` once per window."""

    def __init__(
        self,
        most: int,
        cores: int,
        idle: Callable[[], float],
        clock: Callable[[], float] = time.monotonic,
        own: Callable[[], float] = time.process_time,
        margin: float = MARGIN,
    ):
        """
        Args:
          most: the thread count on a free machine.
          cores: how many cores `idle` counts.
          idle: the idle seconds of those cores so far (`idle_seconds`).
          clock: wall-clock seconds; `own`: this process's CPU seconds, all threads.
          margin: others' use of the cores above a whole number less this takes one thread
            more away (`MARGIN`, `POOL_MARGIN`).
        """
        self.most, self.cores, self.margin = most, cores, margin
        self._idle, self._clock, self._own = idle, clock, own
        self.current = most
        self.hold = HOLD
        self._reduced_at = 0.0
        self._trying = False
        self._settling = True
        self._start = clock()
        self._mark = (idle(), own())

    def __call__(self) -> int:
        now = self._clock()
        elapsed = now - self._start
        if elapsed < WINDOW:
            return self.current
        mark = (self._idle(), self._own())
        own = mark[1] - self._mark[1]
        before = self.current
        if elapsed > STALE * WINDOW or own < ACTIVE * elapsed:  # a pause: old news
            self._settling = True
            if self.current < self.most:
                self.current, self._trying = self.most, True
        elif self._settling:  # the scheduler is still giving this process its share
            self._settling = False
        else:
            used = self.cores * elapsed - (mark[0] - self._mark[0])
            self._decide((used - own) / elapsed, now)
            if self.current < self.most and now - self._reduced_at >= self.hold:
                self.current, self._trying = self.most, True  # try the most again
        self._settling = self._settling or self.current > before
        self._start, self._mark = now, mark
        return self.current

    def _decide(self, others: float, now: float) -> None:
        """Sets the count from `others`, the cores other processes used in the window: fewer
        threads at once, more as soon as the cores are idle again."""
        want = max(1, min(self.most, math.floor(self.cores - others + self.margin)))
        if want < self.current:
            if self.current == self.most:  # a failed try holds twice as long
                self.hold = min(MAX_HOLD, 2 * self.hold) if self._trying else HOLD
            self._reduced_at = now
        elif want == self.most:
            self.hold = HOLD
        self.current, self._trying = want, False


def loop_threads() -> int:
    """The threads a queued jitted call's parallel loops use now: `num_threads()`, or with the
    default count on Linux, fewer while other processes keep cores busy (`LoadFollower`)."""
    follower = _state["follower"]
    return follower() if follower is not None else num_threads()


# Inline calls estimated below this many microseconds leave the caller's thread count alone:
# a parallel loop needs 8M multiply-adds (`core/jit/schedule.py`), about 80 us on one core.
FOLLOW_MIN_US = 50.0
_USER = -1  # the caller's thread count is the user's (set with `numba.set_num_threads`)
_caller = threading.local()


def follow_on_caller() -> None:
    """Sets the calling thread's numba thread count to `loop_threads()` for a jitted call that
    runs inline on it (`core/jit/call_path.py`), unless the user set that thread's count
    (`numba.set_num_threads`: then it is theirs from then on)."""
    follower = _state["follower"]
    if follower is None:
        return
    want = follower()
    mine = getattr(_caller, "threads", None)
    if mine in (want, _USER):
        return
    numba = sys.modules["numba"]
    if numba.get_num_threads() != (_state["threads"] if mine is None else mine):
        _caller.threads = _USER
        return
    numba.set_num_threads(want)
    _caller.threads = want


def _follower(n: int) -> LoadFollower | None:
    """A `LoadFollower` for the default count `n` on the affinity mask's cores (bearing one
    more core of others' use on numbax's pool: `POOL_MARGIN`), or None (one thread, no
    `/proc/stat`, or a count the user set)."""
    if n < 2 or config.num_threads != -1 or os.environ.get(ENV):
        return None
    cpus = process_cpus()
    if not cpus or idle_seconds(cpus) is None:
        return None
    margin = POOL_MARGIN if config.jit_thread_pool else MARGIN
    return LoadFollower(n, len(cpus), lambda: idle_seconds(cpus), margin=margin)


def device_share(devices: int) -> int:
    """The threads each of `devices` busy device worker threads may use (at least one)."""
    return max(1, num_threads() // max(1, devices))


@dataclass(frozen=True)
class BlasLibrary:
    """An OpenBLAS loaded in this process and its `set_num_threads` entry point's name."""

    path: str
    setter: str

    def set_threads(self, n: int) -> None:
        """Makes this OpenBLAS run its calls on `n` threads."""
        getattr(ctypes.CDLL(self.path), self.setter)(ctypes.c_int(n))


def _candidate_paths() -> list[str]:
    """OpenBLAS libraries loaded in this process, plus scipy's bundled one (loaded here, before
    scipy loads it for numba's first matrix product, so that the setting reaches it)."""
    paths = []
    try:
        with open("/proc/self/maps") as maps:
            paths = [line.split()[-1] for line in maps if "openblas" in line.lower()]
    except OSError:
        pass
    spec = importlib.util.find_spec("scipy")
    for root in (spec.submodule_search_locations or []) if spec else []:
        paths += glob.glob(os.path.join(os.path.dirname(root), "scipy.libs", "*openblas*"))
    return sorted({p for p in paths if os.path.isfile(p)})


def blas_libraries() -> list[BlasLibrary]:
    """The OpenBLAS libraries whose threads numbax controls (see `_candidate_paths`)."""
    found = []
    for path in _candidate_paths():
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        setter = next((name for name in _SETTERS if hasattr(lib, name)), None)
        if setter is not None:
            found.append(BlasLibrary(path, setter))
    return found


def fix() -> int:
    """Fixes the thread count for the rest of the process (the jit back end calls this once,
    when it sizes numba's pool: `fork_safety.configure`) and turns OpenBLAS's threads off
    unless the user set `OPENBLAS_NUM_THREADS`/`OMP_NUM_THREADS`.

    Returns:
      The number of threads numbax's compiled code uses.
    """
    if _state["threads"] is None:
        n = requested_threads()
        libraries = [] if any(os.environ.get(v) for v in _BLAS_ENV) else blas_libraries()
        for lib in libraries:
            lib.set_threads(1)
        _state.update(threads=n, blas=libraries, follower=_follower(n))
        config.freeze(
            "num_threads",
            f"num_threads is fixed at {n} once numbax's compiled code has loaded; set it (or "
            f"{ENV}) before the first jitted call.",
        )
    return _state["threads"]
