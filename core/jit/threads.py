"""numbax's thread policy: how many threads compiled code uses, and the one pool it runs on.

All intra-op parallelism of jitted code runs on numba's thread pool, with TBB as its threading
layer (`core/jit/fork_safety.py`: fork-safe, and its idle workers sleep instead of spinning):
large fused loops (`prange`, `core/jit/loops.py`) and large matrix products, which
`core/jit/gemm.py` cuts into blocks, one single-threaded BLAS call per block. OpenBLAS's own
threads are turned off (one thread) in every OpenBLAS the process has loaded (numpy's and
scipy's bundled copies), through their C API: its pool hands out equal shares that its
threads busy-wait for, which collapsed steps 20-100x when another process took a core.

How many threads: `config.update("num_threads", n)` or `NUMBAX_NUM_THREADS`, else the usable
cores (`os.sched_getaffinity`: a container's or `taskset`'s CPU mask counts, not the machine's
cores; a cgroup CPU quota such as `docker --cpus 2` lowers it) divided among the processes of
an MPI job that run on the same cores (`share_cores`, which `core.distributed.initialize`
calls: `mpiexec -n 2` on 2 cores gives each process one thread, one device and no compile
worker, instead of two processes of two threads taking turns on each core). The number is
read once, when the jit back end loads (`fix`, called by `fork_safety.configure`, which sizes
numba's pool with it); the option is then frozen. Each device worker thread gets an equal
share (`device_share`), so N devices busy at once do not start N full teams.

An `OPENBLAS_NUM_THREADS` or `OMP_NUM_THREADS` set by the user is respected (OpenBLAS then
keeps its own threads), as is `NUMBA_NUM_THREADS` (it caps numba's pool).
"""

from __future__ import annotations

import ctypes
import glob
import importlib.util
import math
import os
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
_state: dict = {"threads": None, "blas": None, "sharers": 1}
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


def usable_cores() -> int:
    """The number of cores this process may run on: its CPU affinity mask where the platform
    has one (else the machine's cores), lowered to its CPU quota (`quota_cores`)."""
    if hasattr(os, "sched_getaffinity"):
        cores = len(os.sched_getaffinity(0))
    else:
        cores = os.cpu_count() or 1
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
        _state.update(threads=n, blas=libraries)
        config.freeze(
            "num_threads",
            f"num_threads is fixed at {n} once numbax's compiled code has loaded; set it (or "
            f"{ENV}) before the first jitted call.",
        )
    return _state["threads"]
