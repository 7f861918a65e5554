"""`core.profiler`: see where time and memory go, inside compiled programs too (`jax.profiler`).

* Traces: `start_trace(log_dir)`/`stop_trace()` or `with trace(log_dir):` record every jitted
  call and, inside it, every kernel or equation with its duration, bytes, FLOPs, source line
  and name stack (`named_scope`s and Flax-style module paths), plus `TraceAnnotation`,
  `StepTraceAnnotation` and `annotate_function` events; written for TensorBoard's profile
  plugin (`plugins/profile/<run>/<host>.xplane.pb`) and as Perfetto/Chrome trace JSON
  (`session`, `execution`, `xplane`, `chrome`).
* Memory: `device_memory_profile()`/`save_device_memory_profile(path)` give the live arrays as
  a gzipped pprof profile (`memory`, `pprof`); `memory_report(jitted_fn, *args)` tells what a
  compiled program holds at its peak and why (`report`).
"""

from core.profiler.memory import device_memory_profile, save_device_memory_profile
from core.profiler.report import MemoryReport, memory_report
from core.profiler.session import (
    ProfileOptions,
    StepTraceAnnotation,
    TraceAnnotation,
    annotate_function,
    start_trace,
    stop_trace,
    trace,
)

__all__ = [
    "MemoryReport",
    "ProfileOptions",
    "StepTraceAnnotation",
    "TraceAnnotation",
    "annotate_function",
    "device_memory_profile",
    "memory_report",
    "save_device_memory_profile",
    "start_trace",
    "stop_trace",
    "trace",
]
