"""The profiling build of a program jit compiles as one function: timestamps inside the code.

Cutting a small program into one kernel per fusion unit (`core.profiler.kernels`) changes what
is measured: the MNIST MLP train step, 34 units, ran 16% slower split than as one function.
Here the one function stays whole: `codegen.generate_generic(..., stamps=True)`, jit's code of
the program (its sizes and literals arguments too, so the same bits come out), stores the CPU's
cycle counter (`rt.cycles`, `llvm.readcyclecounter`, `rdtsc` on x86-64) into an int64 array
passed as one more argument, on entry, after each fusion unit that computes and before
returning. Unit j's event spans stamps j to j+1 (the first includes the arguments' unpacking,
the last the outputs' packing unless the partition gives those a kernel of their own), with the
same labels, FLOPs and bytes as the kernel of the per-kernel build (`kernels.kernel_label`); the
events start at the call's start, so they sum to the call minus numba's boxing of arguments and
results. A call keeps its counts; they become events when the trace stops
(`hooks.record_later`).

Cycles become nanoseconds at a rate measured once per process against `time.perf_counter_ns`
(over 20 ms: within about 1e-5). Only an invariant counter (x86-64 Linux with the
`constant_tsc` and `nonstop_tsc` CPU flags: the same rate on every core, in every power state)
counts time; elsewhere `build` returns None and the profiler uses the per-kernel build.
"""

from __future__ import annotations

import functools
import platform
import threading
import time
from collections.abc import Callable, Iterator
from itertools import repeat
from typing import Any

import numba
import numpy as np
from numba import types as nt

from core.ir import Jaxpr
from core.jit import codegen, disk_cache, packing, partition, runtime
from core.profiler import hooks

_CALIBRATION_S = 0.02


def invariant_counter() -> bool:
    """Whether the cycle counter ticks at one constant rate (see the module docstring)."""
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return False
    try:
        with open("/proc/cpuinfo") as f:
            flags = next((line.split() for line in f if line.startswith("flags")), [])
    except OSError:
        return False
    return "constant_tsc" in flags and "nonstop_tsc" in flags


@functools.cache
def ns_per_cycle() -> float | None:
    """Nanoseconds per tick of the cycle counter, measured once; None if it is not invariant."""
    if not invariant_counter():
        return None
    read = numba.njit(nt.int64())(lambda: runtime.cycles())

    def pair() -> tuple[int, float]:
        """A count and the time it was read: the tightest of a few bracketed reads (the
        process may be preempted between two clocks)."""
        samples = []
        for _ in range(5):
            t0 = time.perf_counter_ns()
            c = read()
            samples.append((time.perf_counter_ns() - t0, c, t0))
        width, c, t0 = min(samples)
        return c, t0 + width / 2

    c0, t0 = pair()
    time.sleep(_CALIBRATION_S)
    c1, t1 = pair()
    return (t1 - t0) / (c1 - c0) if c1 > c0 else None


def build(jaxpr: Jaxpr, parts: partition.Program, labels: list) -> Callable | None:
    """The timestamped one-function build of a constvar-free `jaxpr` (module docstring).

    Args:
      jaxpr: the program (consts first among its inputs).
      parts: its partition (`partition.partition(jaxpr)`), whose kernels are its units.
      labels: `(name, args)` of each kernel of `parts` (`kernels.kernel_label`).

    Returns:
      `f(*consts, *args) -> tuple`, the one function's results (laid out as its `layout`
      attribute says, `packing.unpack_exprs`), recording one event per kernel of `parts`; or
      None when the counter is not invariant or the stamps do not match the kernels.
    """
    scale = ns_per_cycle()
    if scale is None:
        return None
    whole = Jaxpr([], parts.inputs, jaxpr.eqns, jaxpr.outvars)
    source, extra = codegen.generate_generic(whole, pack_arrays=True, stamps=True)
    units = source.count("rt.cycles()") - 2
    if units < 1 or len(parts.kernels) - units not in (0, 1):
        return None
    types = codegen.in_types(whole, extra)
    sig = (*codegen.signature(types), nt.Array(nt.int64, 1, "C"))
    try:
        kernel = disk_cache.compile_source(source, "kernel", sig, **codegen.kernel_options(source))
    except Exception:  # numba's parallel passes rejected the threaded loops: run on one thread
        source = codegen.generate_generic(whole, False, pack_arrays=True, stamps=True)[0]
        kernel = disk_cache.compile_source(source, "kernel", sig, **codegen.kernel_options(source))
    kernel = functools.partial(kernel, *extra)
    # Event j spans stamps begin[j] .. end[j]; the last unit takes the outputs' packing unless
    # the partition has a kernel for the outputs that are views or scalars.
    begin = np.arange(len(parts.kernels))
    end = begin + 1
    if len(parts.kernels) == units:
        end[-1] = units + 1
    names = [name for name, _ in labels]
    event_args = [args for _, args in labels]
    dtypes = [v.aval.dtype for v in parts.inputs]
    clock = time.perf_counter_ns

    def expand(start: int, ts: np.ndarray, thread: int) -> Iterator[tuple]:
        offsets = ((ts - ts[0]) * scale).astype(np.int64)
        starts = (offsets[begin] + start).tolist()
        durations = (offsets[end] - offsets[begin]).tolist()
        return zip(names, starts, durations, event_args, repeat(thread))

    def run(*args: Any) -> tuple:
        ts = np.empty(units + 2, np.int64)
        args = codegen.kernel_args(args, dtypes)
        start = clock()
        raw = kernel(*args, ts)
        hooks.record_later(expand, start, ts, threading.get_ident())
        return raw

    run.layout = packing.unpack_exprs(whole)
    return run
