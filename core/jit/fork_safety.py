"""Chooses numba's threading layer so that parallel kernels survive `fork()` and threads.

numba's default on Linux is GNU OpenMP, whose thread pool is unusable in a child forked after a
parallel kernel ran: the child is terminated at its first parallel kernel ("fork() called from
a process already using GNU OpenMP"), which breaks multiprocessing data loaders and servers
that fork workers. numba's `workqueue` layer survives fork but aborts when two threads launch
kernels at once. TBB is safe for both, so numbax selects it: the `tbb` package (a dependency
on x86-64) ships `libtbb.so.12`, which numba looks up by name only, so it is loaded here by
path first. `configure()` runs when the back end loads, before numba starts any thread pool.

Without TBB (no wheel for the platform) on Linux, numbax selects `workqueue` and `serialized`
makes the calls of parallel kernels take one process-wide lock, so threads never launch two at
once (they queue instead of aborting the process). A `NUMBA_THREADING_LAYER` set by the user is
respected (with the lock if it is `workqueue`). `threading_layer()` says which layer is in use.
`configure()` also sizes numba's pool by numbax's thread policy (`core/jit/threads.py`).
"""

from __future__ import annotations

import ctypes
import importlib.metadata
import os
import sys
import threading
from collections.abc import Callable
from typing import Any

import numba
from numba.np.ufunc import parallel

from core.jit import threads

_LIBTBB = {"linux": "libtbb.so.12", "darwin": "libtbb.12.dylib", "win32": "tbb12.dll"}


def _load_tbb() -> bool:
    """Loads the `tbb` package's library by path, so numba's lookup by name finds it."""
    name = _LIBTBB.get(sys.platform)
    try:
        files = importlib.metadata.distribution("tbb").files or []
    except importlib.metadata.PackageNotFoundError:
        return False
    for f in files:
        if name and str(f).endswith(name):
            try:
                ctypes.CDLL(str(f.locate()), mode=getattr(ctypes, "RTLD_GLOBAL", 0))
                return True
            except OSError:
                return False
    return False


def configure() -> str:
    """Fixes numbax's thread count (`threads.fix`) and, unless numba has already started its
    threads, sizes numba's pool with it and selects TBB as the threading layer (unless the user
    chose one).

    Returns:
      The layer requested: "tbb", or numba's setting left as it was.
    """
    n = threads.fix()
    if parallel._is_initialized:
        return numba.config.THREADING_LAYER
    if not os.environ.get("NUMBA_NUM_THREADS"):
        numba.config.NUMBA_NUM_THREADS = n  # the pool's size; an explicit setting caps it
    # numba sizes the pool, and the share of every thread that sets none (the main thread's
    # calls, which run synchronously), from the count it read when it was imported.
    parallel.NUM_THREADS = numba.config.NUMBA_NUM_THREADS
    if os.environ.get("NUMBA_THREADING_LAYER"):
        return numba.config.THREADING_LAYER
    if _load_tbb():
        numba.config.THREADING_LAYER = "tbb"
    elif sys.platform.startswith("linux"):  # GNU OpenMP is numba's default there
        numba.config.THREADING_LAYER = "workqueue"
    return numba.config.THREADING_LAYER


_LAUNCH_LOCK = threading.RLock()
# What a compiled program's source calls when it may run threads.
_THREADED = (
    "prange(",
    "threaded_range(",
    "lib.dot(",
    "lib.gemm_batched__",
    "lib.skinny_dot__",
    "lib.skinny_nn__",
)


def serialized(call: Callable[..., Any]) -> Callable[..., Any]:
    """`call` (a compiled program, with its `.source` and its entry `.kernel` if it has them),
    made to hold a process-wide lock while it runs if it may launch threaded loops (`prange`,
    large matrix products: `core/jit/gemm.py`, `core/jit/bgemm.py`) on the `workqueue` layer,
    which aborts the process when two threads use it at once; else `call`."""
    source = getattr(call, "source", None)
    threaded = source is None or any(s in source for s in _THREADED)
    if numba.config.THREADING_LAYER != "workqueue" or not threaded:
        return call

    def locked(fn: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any) -> Any:
            with _LAUNCH_LOCK:
                return fn(*args)

        return run

    wrapped = locked(call)
    wrapped.__dict__.update(getattr(call, "__dict__", {}))  # .source, .kernel, ...
    if hasattr(call, "kernel"):
        wrapped.kernel = locked(call.kernel)
    return wrapped


def threading_layer() -> str:
    """The threading layer numba uses (starting its threads if they are not running yet)."""
    parallel._launch_threads()
    return numba.threading_layer()
