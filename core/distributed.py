"""`core.distributed`: many processes (on one or many hosts) over MPI, JAX's multi-controller model.

Every process runs the same program. `initialize()` (right after `import core`) joins the MPI
job that `mpiexec -n N python ...` started: the processes exchange their local device counts,
so `core.devices()` lists the devices of all of them (process 0's first), `process_index()` and
`process_count()` say where this one stands, and `pmap` maps over the local devices while its
collectives (`psum`, `all_gather`, `axis_index`...) span the devices of every process: the first
device thread of each process exchanges its process's values with the others
(`core/parallel/communicator.py`). `core.experimental.multihost_utils` moves values between
processes outside `pmap`.

MPI comes from the optional extra `pip install numbax[distributed]` (mpi4py with the MPICH
wheel, which also installs `mpiexec`). The arrays of pmap's collectives cross processes through
MPI's buffer interface (`MPI_Iallgather`, waited for without spinning; no pickling: every
process runs the same program, so the shapes and dtypes agree); booleans, float16, bfloat16
and the values of `multihost_utils` go through mpi4py's pickling interface, after a barrier
waited for the same way (`wait_for_all`: MPICH's blocking calls spin).
"""

from __future__ import annotations

import sys
import time
from typing import Any

import numpy as np

from core import devices
from core.errors import NumbaxError
from core.jit import threads

__all__ = [
    "device_exchange",
    "initialize",
    "is_initialized",
    "process_group",
    "shutdown",
    "wait_for_all",
]


class DistributedError(NumbaxError, RuntimeError):
    """`core.distributed` used wrongly: MPI missing, initialized twice or too late.

    Failing code: ``core.distributed.initialize()`` called a second time, or after devices were
    used. Fix: call it once, right after ``import core``, in every process of the ``mpiexec``
    job (``pip install 'numbax[distributed]'`` provides MPI).
    """


# "comm": every process (process_group); "devices": its duplicate that only pmap's device
# exchanges use. MPI matches collectives by their order on a communicator, and with
# asynchronous dispatch a pmap inside a jitted program exchanges from a device thread while the
# main thread may be in a multihost_utils call: on one communicator, two processes could issue
# the two in different orders and wait for each other forever.
_state: dict[str, Any] = {"comm": None, "devices": None}


def _mpi() -> Any:
    try:
        from mpi4py import MPI  # noqa: PLC0415 (mpi4py is optional)
    except ImportError as err:
        raise DistributedError(
            "core.distributed needs MPI: pip install 'numbax[distributed]' (mpi4py and the "
            "MPICH wheel), then start the processes with `mpiexec -n N python ...`."
        ) from err
    return MPI


def initialize(
    coordinator_address: str | None = None,
    num_processes: int | None = None,
    process_id: int | None = None,
    local_device_ids: Any = None,
    **unused: Any,
) -> None:
    """Joins the MPI job this process belongs to (`jax.distributed.initialize`).

    Call it once, right after `import core` and before any device is used. Under `mpiexec`,
    every argument may be left out (MPI knows the processes); a single process started without
    `mpiexec` becomes a job of one. Processes on the same cores share them: unless set
    explicitly, each gets its share of the threads, devices and compile workers
    (`core/jit/threads.py`, `share_cores`).

    Args:
      coordinator_address: accepted for compatibility (MPI finds the other processes).
      num_processes: if given, checked against the number of MPI processes.
      process_id: if given, checked against this process's MPI rank.
      local_device_ids: accepted for compatibility (the local device count comes from
        `num_cpu_devices` / NUMBAX_NUM_CPU_DEVICES, the same in every process).

    Raises:
      DistributedError: when mpi4py is missing, when called twice or after a device was used,
        or when `num_processes`/`process_id` disagree with MPI.
    """
    del coordinator_address, local_device_ids, unused
    if _state["comm"] is not None:
        raise DistributedError("core.distributed.initialize should only be called once.")
    if devices.in_use():
        raise DistributedError(
            "core.distributed.initialize() must be called before any numbax device is used "
            "(core.devices(), device_put, pmap): call it right after `import core`."
        )
    comm = _mpi().COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    if num_processes is not None and num_processes != size:
        raise DistributedError(
            f"initialize(num_processes={num_processes}) but MPI started {size} processes: "
            f"run `mpiexec -n {num_processes} ...` or drop the argument."
        )
    if process_id is not None and process_id != rank:
        raise DistributedError(
            f"initialize(process_id={process_id}) but this is MPI rank {rank}: drop the "
            "argument (MPI numbers the processes)."
        )
    threads.share_cores(_processes_sharing_cores(comm))
    devices.set_topology(rank, comm.allgather(devices.local_count_setting()))
    _state["comm"], _state["devices"] = comm, comm.Dup()
    if size > 1:
        _abort_job_on_uncaught_errors(comm)


def _processes_sharing_cores(comm: Any) -> int:
    """How many processes of the job (this one included) run on this process's cores: the
    processes on this host (MPI's shared-memory split) whose CPU masks overlap this one's.
    Unbound processes (MPICH's default) all share every core; `mpiexec -bind-to core` gives
    each its own."""
    node = comm.Split_type(_mpi().COMM_TYPE_SHARED)
    try:
        mask = threads.process_cpus()
        masks = node.allgather(mask)
    finally:
        node.Free()
    if mask is None:
        return len(masks)
    return sum(1 for other in masks if other is None or other & mask)


def _abort_job_on_uncaught_errors(comm: Any) -> None:
    """Makes an uncaught exception end the whole MPI job (as `python -m mpi4py` does).

    A process that dies of an error still finalizes MPI cleanly at exit, so `mpiexec` would
    keep the other processes running, and they would wait forever in their next exchange with
    it. After the usual traceback, `MPI_Abort` stops every process of the job.
    """
    previous = sys.excepthook

    def hook(kind, value, traceback):
        previous(kind, value, traceback)
        if not issubclass(kind, KeyboardInterrupt):  # mpiexec forwards Ctrl-C to everyone
            sys.stderr.flush()
            # mpiexec's proxy forwards output through a pipe: aborting at once could drop the
            # traceback's last line (the error itself) before it reaches the terminal.
            time.sleep(0.2)
            comm.Abort(1)

    sys.excepthook = hook


def is_initialized() -> bool:
    """Whether `initialize` has run in this process."""
    return _state["comm"] is not None


def shutdown() -> None:
    """Waits for every process to get here (MPI itself finalizes at exit)."""
    comm = _state["comm"]
    if comm is not None:
        wait_for_all(comm)


def process_group() -> Any:
    """The MPI communicator of all processes (`allgather`, `bcast`, `Barrier`...).

    Raises:
      DistributedError: before `initialize`.
    """
    comm = _state["comm"]
    if comm is None:
        raise DistributedError(
            "core.distributed.initialize() has not been called: call it right after "
            "`import core` in every process of the `mpiexec` job."
        )
    return comm


# numpy typecodes of the dtypes MPI sends as buffers: the integers, float32/64, complex64/128.
_MPI_TYPECODES = "bBhHiIlLqQfdFD"


class _ArrayExchange:
    """How pmap's communicator exchanges one process's device values with the other processes
    (`core/parallel/communicator.py`): stacked into one buffer, all-gathered by MPI."""

    def __init__(self, comm: Any):
        self._comm = comm

    def allgather(self, values: list) -> list[list]:
        """This process's list of arrays in, every process's list out (in process order)."""
        arrays = [np.asarray(v) for v in values]
        # One device (the usual process of an MPI job) sends its array itself, uncopied.
        local = np.ascontiguousarray(arrays[0][None] if len(arrays) == 1 else np.stack(arrays))
        if local.dtype.char not in _MPI_TYPECODES:  # bool, float16, bfloat16: pickled
            wait_for_all(self._comm)
            return self._comm.allgather(values)
        out = np.empty((self._comm.Get_size(), *local.shape), local.dtype)
        _wait(self._comm.Iallgather(local, out))
        return [list(values) for values in out]


# A wait first checks in a tight loop for this long (seconds): processes that arrive together
# finish an exchange within microseconds, sooner than the shortest sleep a loaded OS gives
# (50-100 us). Then it sleeps between checks for a tenth of the time waited so far, within
# these bounds: the added latency stays about a tenth of the wait, and a process waiting long
# for another (compiling, evaluating, writing a checkpoint) wakes up 200 times a second.
_SPIN = 2e-5
_SLEEP_FRACTION = 0.1
_MIN_SLEEP, _MAX_SLEEP = 5e-6, 5e-3


def _wait(request: Any) -> None:
    """Waits for the MPI `request` without spinning on a core (see `_SPIN` above).

    MPICH's blocking calls spin while they wait: a process ahead of the others would burn its
    core, and on a machine whose cores are shared (other programs, or more processes than
    cores) it takes CPU time from the very processes it waits for. Each `Test` also advances
    the exchange (MPICH makes progress inside MPI calls).
    """
    start = time.perf_counter()
    while not request.Test():
        waited = time.perf_counter() - start
        if waited > _SPIN:
            time.sleep(min(max(waited * _SLEEP_FRACTION, _MIN_SLEEP), _MAX_SLEEP))


def wait_for_all(comm: Any = None) -> None:
    """Returns once every process of `comm` (default: all processes) has called it, sleeping
    meanwhile; a blocking MPI collective called right after it then finds everyone there and
    does not spin.

    Raises:
      DistributedError: before `initialize`.
    """
    _wait((comm or process_group()).Ibarrier())


def device_exchange() -> _ArrayExchange:
    """What the device threads of `pmap` use to reach the other processes.

    Raises:
      DistributedError: before `initialize`.
    """
    process_group()  # raises before initialize
    return _ArrayExchange(_state["devices"])
