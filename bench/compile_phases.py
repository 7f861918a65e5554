"""Where a cold first call's time goes: tracing, partitioning, generating sources, numba's
passes, LLVM's optimization and machine-code emission, the disk cache, the library.

Runs one train step of `bench/compile.py` in a new process on an empty cache directory (or one
holding only the precompiled library, `--library-cached`) and times its first call by phase.
Phases are exclusive (a phase's time excludes the phases nested in it: numba's lowering pass
excludes the LLVM work it triggers, a kernel's compile excludes the library functions its
module loads), so they add up to the first call; "other" is what no phase covers. Time is the
main process's (with `--workers 0`, the default here, every compile happens in it; with
workers the table also shows the CPU time of the worker processes, which are not profiled).
numba's passes come from its `numba:run_pass` events (`numba.core.event`), LLVM's from timers
around numba's code library methods.

Usage: `python bench/compile_phases.py [--models cnn,resnet10,transformer] [--workers 0]
[--library-cached] [--mode many]`.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from bench._common import fmt_time, print_json, print_table, process_cpu  # noqa: E402


class PhaseClock:
    """Exclusive wall and CPU time per phase: entering a phase pauses the enclosing one."""

    def __init__(self) -> None:
        self.wall: collections.Counter = collections.Counter()
        self.cpu: collections.Counter = collections.Counter()
        self.count: collections.Counter = collections.Counter()
        self.stack: list[list] = []  # [label, wall start, cpu start]

    def _pause(self, now: float, cpu: float) -> None:
        if self.stack:
            label, w0, c0 = self.stack[-1]
            self.wall[label] += now - w0
            self.cpu[label] += cpu - c0

    def enter(self, label: str) -> None:
        now, cpu = time.perf_counter(), time.thread_time()
        self._pause(now, cpu)
        self.stack.append([label, now, cpu])
        self.count[label] += 1

    def leave(self) -> None:
        now, cpu = time.perf_counter(), time.thread_time()
        self._pause(now, cpu)
        self.stack.pop()
        if self.stack:
            self.stack[-1][1], self.stack[-1][2] = now, cpu

    def wrap(self, owner, attr: str, label: str) -> None:
        """Times every call of `owner.attr` as phase `label` (main thread only)."""
        import threading  # noqa: PLC0415

        fn = getattr(owner, attr)
        main = threading.main_thread()

        def timed(*args, **kwargs):
            if threading.current_thread() is not main:
                return fn(*args, **kwargs)
            self.enter(label)
            try:
                return fn(*args, **kwargs)
            finally:
                self.leave()

        setattr(owner, attr, timed)


def instrument(clock: PhaseClock) -> None:
    """Installs the phase timers (see the module docstring)."""
    import threading  # noqa: PLC0415

    from numba.core import caching, codegen, event  # noqa: PLC0415

    from core.backends.numba.library import entry  # noqa: PLC0415
    from core.interpreters import partial_eval  # noqa: PLC0415
    from core.jit import api, disk_cache, partition, program  # noqa: PLC0415
    from core.jit import codegen as gen  # noqa: PLC0415

    clock.wrap(api, "trace_to_closed_jaxpr", "trace")
    clock.wrap(partition, "partition", "partition")
    clock.wrap(gen, "_generate", "generate source")
    clock.wrap(disk_cache, "load_module", "load module (exec, write .py)")
    clock.wrap(entry, "load", "library function (compile or load)")
    clock.wrap(program.workers, "compile_in_parallel", "compile kernels (numba overhead)")
    clock.wrap(caching.FunctionCache, "save_overload", "cache write")
    clock.wrap(caching.FunctionCache, "load_overload", "cache read")
    lib = codegen.CPUCodeLibrary
    clock.wrap(lib, "add_ir_module", "LLVM: parse IR + function passes")
    clock.wrap(lib, "_optimize_final_module", "LLVM: module passes (O3)")
    clock.wrap(codegen.JITCodeLibrary, "_finalize_specific", "LLVM: machine code")
    del partial_eval
    main = threading.main_thread()

    class Passes(event.Listener):
        def on_start(self, ev):
            if threading.current_thread() is main:
                clock.enter("numba: " + ev.data["name"].split(" [")[0])

        def on_end(self, ev):
            if threading.current_thread() is main:
                clock.leave()

    event.register("numba:run_pass", Passes())


def child(model: str) -> None:
    """Measures one model's first call by phase and prints a JSON line."""
    import resource  # noqa: PLC0415

    from bench import compile as cb  # noqa: PLC0415

    F = cb.framework("numbax")
    F.jax.block_until_ready(F.jax.jit(lambda a: a + 1)(F.jnp.ones(1)))  # numba's start-up
    clock = PhaseClock()
    instrument(clock)
    build, batch = cb.BUILDERS[model]
    step, state, args = build(F)(batch)

    def cpu() -> float:
        r = resource.getrusage(resource.RUSAGE_SELF)
        return r.ru_utime + r.ru_stime

    c0, t0 = cpu(), time.perf_counter()
    clock.enter("other")
    F.jax.block_until_ready(step(*state, *args))
    clock.leave()
    wall, proc_cpu = time.perf_counter() - t0, cpu() - c0
    from core.jit import program, workers  # noqa: PLC0415

    worker_cpu = sum(process_cpu(w.proc.pid) for w in workers._workers)
    entry = next(iter(step._cache().values()))
    infos = getattr(entry.exe, "kernels", [])
    res = dict(
        wall=wall,
        cpu=proc_cpu,
        worker_cpu=worker_cpu,
        peak_rss_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        kernels=len(infos),
        distinct=len({k.source for k in infos}),
        stats=program.stats(),
        phases={k: [clock.wall[k], clock.cpu[k], clock.count[k]] for k in clock.wall},
    )
    print("RESULT " + json.dumps(res), flush=True)


def run(model: str, workers: int, mode: str, library_cached: bool) -> dict | None:
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(
            os.environ,
            PYTHONPATH=ROOT,
            NUMBAX_CACHE_DIR=tmp,
            NUMBA_CACHE_DIR=tmp,
            NUMBAX_JIT_KERNELS=mode,
            NUMBAX_JIT_WORKERS=str(workers),
            OPENBLAS_NUM_THREADS="1",
        )
        if library_cached:
            code = "from core.backends.numba import library; library.precompile()"
            subprocess.run([sys.executable, "-c", code], env=env, check=True)
        cmd = [sys.executable, os.path.abspath(__file__), "--child", model]
        out = subprocess.run(cmd, env=env, capture_output=True, text=True)
    for line in out.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    print(out.stderr[-3000:], file=sys.stderr)
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="cnn,resnet10,transformer")
    parser.add_argument("--workers", type=int, default=0, help="jit_compile_workers")
    parser.add_argument("--mode", default="auto", help="jit_kernels")
    parser.add_argument("--library-cached", action="store_true")
    parser.add_argument("--top", type=int, default=14, help="phases shown per model")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    opts = parser.parse_args()
    if opts.child:
        child(opts.child)
        return
    results = {}
    for model in opts.models.split(","):
        res = run(model, opts.workers, opts.mode, opts.library_cached)
        results[model] = res
        if res is None:
            continue
        phases = sorted(res["phases"].items(), key=lambda kv: -kv[1][0])
        rows = [
            [name, fmt_time(w), fmt_time(c), str(n), f"{100 * w / res['wall']:.0f}%"]
            for name, (w, c, n) in phases[: opts.top]
        ]
        rest = phases[opts.top :]
        if rest:
            rows.append(
                [
                    f"({len(rest)} more)",
                    fmt_time(sum(p[1][0] for p in rest)),
                    fmt_time(sum(p[1][1] for p in rest)),
                    "",
                    f"{100 * sum(p[1][0] for p in rest) / res['wall']:.0f}%",
                ]
            )
        print_table(
            f"{model}: first call {fmt_time(res['wall'])} wall, {fmt_time(res['cpu'])} CPU "
            f"(+{fmt_time(res['worker_cpu'])} in workers), {res['kernels']} kernels "
            f"({res['distinct']} distinct), peak RSS {res['peak_rss_mb']:.0f} MB",
            ["phase", "wall", "CPU", "calls", "share"],
            rows,
        )
    print_json("compile_phases", results)


if __name__ == "__main__":
    main()
