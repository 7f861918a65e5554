"""Chrome/Perfetto trace JSON (the "Trace Event Format"), as `jax.profiler` writes it.

One process ("/host:CPU"), one track per Python thread, one complete event (`"ph": "X"`) per
recorded event with its `args`; times in microseconds from the start of the trace. Nested
events (a jitted call and its kernels) nest on their track because their intervals do. Opens
in https://ui.perfetto.dev and chrome://tracing. Format:
https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU
"""

from __future__ import annotations

import json
from typing import Any

PROCESS_NAME = "/host:CPU"


def trace_json(
    events: list[tuple], thread_names: dict[int, str], start_ns: int, pid: int = 1
) -> dict[str, Any]:
    """The trace as a JSON-ready dict.

    Args:
      events: `(name, start_ns, dur_ns, args, thread id)` tuples (`core.profiler.hooks`).
      thread_names: thread id -> name.
      start_ns: the `perf_counter_ns` time of the trace's start (time 0).
      pid: the process id to show.

    Returns:
      `{"displayTimeUnit": "ns", "traceEvents": [...]}`.
    """
    tids = {tid: i + 1 for i, tid in enumerate(thread_names)}
    out: list[dict[str, Any]] = [
        {"ph": "M", "pid": pid, "name": "process_name", "args": {"name": PROCESS_NAME}}
    ]
    for tid, index in tids.items():
        out.append(
            {"ph": "M", "pid": pid, "tid": index, "name": "thread_name",
             "args": {"name": thread_names[tid]}}
        )  # fmt: skip
    for name, t0, dur, args, tid in sorted(events, key=lambda e: (e[1], -e[2])):
        event = {
            "ph": "X",
            "pid": pid,
            "tid": tids[tid],
            "name": name,
            "ts": (t0 - start_ns) / 1000.0,
            "dur": dur / 1000.0,
        }
        if args:
            event["args"] = args
        out.append(event)
    return {"displayTimeUnit": "ns", "traceEvents": out}


def dumps(trace: dict[str, Any]) -> bytes:
    """The JSON text of `trace_json`'s result, UTF-8."""
    return json.dumps(trace, separators=(",", ":"), default=str).encode("utf-8")
