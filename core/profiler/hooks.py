"""The narrow interface between the runtime and the profiler.

Code that can be profiled checks one module attribute, `hooks.ACTIVE` (False unless a trace is
running, so profiling off costs one attribute load), and reports what it did with
`record(name, start_ns, dur_ns, args)`: a complete event on the calling thread, times from
`time.perf_counter_ns()`. `args` is a dict of labels and counters shown with the event
(`source`, `scope`, `flops`, `bytes_read`, ...). A compiled program's driver records one event
per kernel; `core.profiler.execution` records one per equation when it runs a program equation
by equation.
"""

from __future__ import annotations

import threading
from typing import Any

ACTIVE = False  # a trace is being recorded
DETAIL = True  # record the kernels/equations inside jitted calls (host_tracer_level >= 2)
IN_JIT = False  # inside a profiled jitted call (nested jitted calls are its equations)

# (name, start_ns, dur_ns, args or None, thread id), in the order the events ended.
events: list[tuple[str, int, int, dict[str, Any] | None, int]] = []


def record(name: str, start_ns: int, dur_ns: int, args: dict[str, Any] | None = None) -> None:
    """Adds a complete event to the running trace (call only when `ACTIVE`).

    Args:
      name: the event's label (shown on the timeline).
      start_ns: its start, `time.perf_counter_ns()`.
      dur_ns: its duration in nanoseconds.
      args: labels and counters to show with it.
    """
    events.append((name, start_ns, dur_ns, args, threading.get_ident()))
