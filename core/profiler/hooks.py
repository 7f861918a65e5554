"""The narrow interface between the runtime and the profiler.

Code that can be profiled checks one module attribute, `hooks.ACTIVE` (False unless a trace is
running, so profiling off costs one attribute load), and reports what it did with
`record(name, start_ns, dur_ns, args)`: a complete event on the calling thread, times from
`time.perf_counter_ns()`. `args` is a dict of labels and counters shown with the event
(`source`, `scope`, `flops`, `bytes_read`, ...). A compiled program's driver records one event
per kernel; `core.profiler.execution` records one per equation when it runs a program equation
by equation. Code that times many events at once may hand them over in bulk instead, with
`record_later(expand, *data)`: `expand(*data)` gives the events when the trace stops (the
timestamped build of a one-function program stores the raw cycle counts of each call).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any

ACTIVE = False  # a trace is being recorded
DETAIL = True  # record the kernels/equations inside jitted calls (host_tracer_level >= 2)
IN_JIT = False  # inside a profiled jitted call (nested jitted calls are its equations)

# (name, start_ns, dur_ns, args or None, thread id), in the order the events ended.
events: list[tuple[str, int, int, dict[str, Any] | None, int]] = []
# (expand, data): `expand(*data)` gives more events like those above, when the trace stops.
deferred: list[tuple[Callable[..., Iterable[tuple]], tuple]] = []


def record(name: str, start_ns: int, dur_ns: int, args: dict[str, Any] | None = None) -> None:
    """Adds a complete event to the running trace (call only when `ACTIVE`).

    Args:
      name: the event's label (shown on the timeline).
      start_ns: its start, `time.perf_counter_ns()`.
      dur_ns: its duration in nanoseconds.
      args: labels and counters to show with it.
    """
    events.append((name, start_ns, dur_ns, args, threading.get_ident()))


def record_later(expand: Callable[..., Iterable[tuple]], *data: Any) -> None:
    """Adds events to the running trace that `expand(*data)` gives when it stops (call only
    when `ACTIVE`; `data` must not change until then).

    Args:
      expand: a function returning the events, tuples as in `events`.
      *data: its arguments.
    """
    deferred.append((expand, data))


def take_events() -> list[tuple[str, int, int, dict[str, Any] | None, int]]:
    """Every event recorded since the last call, deferred ones expanded; clears the record.

    Returns:
      The events, tuples `(name, start_ns, dur_ns, args or None, thread id)`.
    """
    taken = list(events)
    for expand, data in deferred:
        taken.extend(expand(*data))
    events.clear()
    deferred.clear()
    return taken
