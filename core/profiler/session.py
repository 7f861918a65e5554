"""Trace sessions and annotations: `start_trace`/`stop_trace`/`trace`, `TraceAnnotation`, ...

`start_trace(log_dir)` turns `hooks.ACTIVE` on; from then on jitted calls, their kernels or
equations (`core.profiler.execution`) and annotations record events. `stop_trace()` turns it
off and writes the run, as `jax.profiler` does, to
`<log_dir>/plugins/profile/<YYYY_MM_DD_HH_MM_SS>/`:

* `<host>.xplane.pb`: the XSpace TensorBoard's profile plugin reads (`core.profiler.xplane`);
* `perfetto_trace.json.gz`: the same events as Chrome/Perfetto trace JSON
  (`core.profiler.chrome`), for https://ui.perfetto.dev.

Each file is written to a temporary name and renamed, so a crash leaves no half-written file.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import functools
import gzip
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from core.errors import ProfilerError
from core.profiler import chrome, hooks, xplane
from core.profiler.files import write_atomic


@dataclasses.dataclass
class ProfileOptions:
    """What a trace records (`jax.profiler.ProfileOptions`'s fields that apply here).

    Attributes:
      host_tracer_level: 1 records jitted calls (run compiled, as without a trace) and
        annotations; 2 (the default) and 3 also record every kernel or equation inside the
        jitted calls (see `core.profiler.execution`).
      python_tracer_level: accepted; Python function calls are not traced.
    """

    host_tracer_level: int = 2
    python_tracer_level: int = 0


class _Session:
    log_dir: str | None = None
    start_ns = 0
    epoch_ns = 0
    perfetto_link = False
    thread_names: dict[int, str] = {}
    last_run_dir: str | None = None


_session = _Session()


def start_trace(
    log_dir: str | os.PathLike,
    create_perfetto_link: bool = False,
    create_perfetto_trace: bool = False,
    profiler_options: Any = None,
) -> None:
    """Starts recording a trace; `stop_trace` writes it under `log_dir`.

    Args:
      log_dir: the TensorBoard log directory (the run goes to `plugins/profile/<run>/`).
      create_perfetto_link: print where the Perfetto trace is, to open in ui.perfetto.dev
        (JAX serves it from a local web server; here the file is always written).
      create_perfetto_trace: accepted for JAX compatibility: `perfetto_trace.json.gz` is
        always written.
      profiler_options: a `ProfileOptions` (default: `host_tracer_level=2`, kernels and
        equations inside jitted calls included).

    Raises:
      ProfilerError: a trace is already running.
      OSError: `log_dir` cannot be created (e.g. it is a file).
    """
    del create_perfetto_trace
    options = profiler_options if profiler_options is not None else ProfileOptions()
    if hooks.ACTIVE:
        raise ProfilerError(
            "Profile has already been started. Only one profile may be run at a time: call "
            "core.profiler.stop_trace() first."
        )
    os.makedirs(log_dir, exist_ok=True)  # fails now, not after the traced work, if it cannot
    _session.log_dir = os.fspath(log_dir)
    _session.perfetto_link = create_perfetto_link
    _session.thread_names = {}
    hooks.take_events()
    _session.epoch_ns = time.time_ns()
    _session.start_ns = time.perf_counter_ns()
    hooks.DETAIL = options.host_tracer_level >= 2
    hooks.ACTIVE = True


def stop_trace() -> None:
    """Stops the trace and writes it (see the module docstring).

    Raises:
      ProfilerError: no trace is running.
    """
    if not hooks.ACTIVE:
        raise ProfilerError("No profile started: call core.profiler.start_trace(log_dir) first.")
    hooks.ACTIVE = False
    events = hooks.take_events()
    names = {t.ident: t.name for t in threading.enumerate()}
    threads = {}
    for *_, tid in events:
        threads.setdefault(tid, names.get(tid, f"thread {tid}"))
    if not threads:
        threads[threading.get_ident()] = threading.current_thread().name
    stamp = datetime.datetime.fromtimestamp(_session.epoch_ns / 1e9)
    base = os.path.join(_session.log_dir, "plugins", "profile", stamp.strftime("%Y_%m_%d_%H_%M_%S"))
    run_dir, n = base, 0
    while os.path.exists(run_dir):  # two traces within one second
        n += 1
        run_dir = f"{base}_{n}"
    os.makedirs(run_dir)
    host = socket.gethostname() or "localhost"
    space = xplane.xspace(events, threads, _session.start_ns, _session.epoch_ns, host)
    write_atomic(os.path.join(run_dir, f"{host}.xplane.pb"), space)
    trace = chrome.trace_json(events, threads, _session.start_ns)
    perfetto = os.path.join(run_dir, "perfetto_trace.json.gz")
    write_atomic(perfetto, gzip.compress(chrome.dumps(trace)))
    _session.last_run_dir = run_dir
    if _session.perfetto_link:
        print(f"Perfetto trace: {perfetto} (open it in https://ui.perfetto.dev)")


@contextlib.contextmanager
def trace(
    log_dir: str | os.PathLike,
    create_perfetto_link: bool = False,
    create_perfetto_trace: bool = False,
    profiler_options: Any = None,
) -> Iterator[None]:
    """Context manager recording a trace of the block (`start_trace` ... `stop_trace`).

    Args:
      log_dir: as for `start_trace`.
      create_perfetto_link: as for `start_trace`.
      create_perfetto_trace: as for `start_trace`.
      profiler_options: as for `start_trace`.
    """
    start_trace(log_dir, create_perfetto_link, create_perfetto_trace, profiler_options)
    with contextlib.ExitStack() as on_exit:
        on_exit.callback(stop_trace)  # the trace is written also when the block raises
        yield


def last_run_dir() -> str | None:
    """The run directory the last `stop_trace` wrote (None before any)."""
    return _session.last_run_dir


class TraceAnnotation:
    """Context manager adding a named event (with `kwargs` as its arguments) to the trace.

    Costs one attribute check when no trace is running.

    Args:
      name: the event's name.
      **kwargs: values shown with the event.
    """

    __slots__ = ("name", "kwargs", "_start")

    def __init__(self, name: str, **kwargs: Any):
        self.name = name
        self.kwargs = kwargs
        self._start = None

    def __enter__(self) -> TraceAnnotation:
        if hooks.ACTIVE:
            self._start = time.perf_counter_ns()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._start is not None and hooks.ACTIVE:
            hooks.record(
                self.name, self._start, time.perf_counter_ns() - self._start, self.kwargs or None
            )
        self._start = None


class StepTraceAnnotation(TraceAnnotation):
    """A `TraceAnnotation` marking one training step (`step_num=` names it), as TensorBoard's
    profiler expects for its step-time views.

    Args:
      name: the event's name (e.g. "train").
      **kwargs: `step_num` and other values shown with the event.
    """

    __slots__ = ()

    def __init__(self, name: str, **kwargs: Any):
        super().__init__(name, _r=1, **kwargs)


def annotate_function(
    func: Callable | None = None, name: str | None = None, **decorator_kwargs: Any
) -> Callable:
    """Decorator recording each call of `func` as a trace event (its `__qualname__` by default).

    Args:
      func: the function (or None when used as `@annotate_function(name=...)`).
      name: the event's name.
      **decorator_kwargs: values shown with each event.

    Returns:
      The wrapped function.
    """
    if func is None:
        return functools.partial(annotate_function, name=name, **decorator_kwargs)
    label = name or getattr(func, "__qualname__", getattr(func, "__name__", "function"))

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not hooks.ACTIVE:
            return func(*args, **kwargs)
        with TraceAnnotation(label, **decorator_kwargs):
            return func(*args, **kwargs)

    return wrapper
