"""`core.profiler`: see where time and memory go, inside compiled programs too (`jax.profiler`).

* Traces: `start_trace(log_dir)`/`stop_trace()` or `with trace(log_dir):` record every jitted
  call and, inside it, every kernel or equation with its duration, bytes, FLOPs, source line
  and name stack (`named_scope`s and Flax-style module paths), plus `TraceAnnotation`,
  `StepTraceAnnotation` and `annotate_function` events (a `pmap` call: one event per device,
  on its thread, without the kernels inside); written for TensorBoard's profile
  plugin (`plugins/profile/<run>/<host>.xplane.pb`) and as Perfetto/Chrome trace JSON
  (`session`, `execution`, `xplane`, `chrome`).
* Memory: `device_memory_profile()`/`save_device_memory_profile(path)` give the live arrays as
  a gzipped pprof profile (`memory`, `pprof`); `memory_report(jitted_fn, *args)` tells what a
  compiled program holds at its peak and why (`report`).

`core.jit` imports only `hooks` (the flag it checks per call); the rest loads on first use.
"""

import importlib
from typing import Any

_EXPORTS = {
    "MemoryReport": "report",
    "memory_report": "report",
    "device_memory_profile": "memory",
    "save_device_memory_profile": "memory",
    "ProfileOptions": "session",
    "StepTraceAnnotation": "session",
    "TraceAnnotation": "session",
    "annotate_function": "session",
    "start_trace": "session",
    "stop_trace": "session",
    "trace": "session",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        try:
            return importlib.import_module(f"{__name__}.{name}")  # a submodule
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module 'core.profiler' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])
