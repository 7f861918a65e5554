"""Which functions a cold first call compiles, and the CPU seconds of each.

Runs the first call of `bench/compile.py`'s train steps, each in a new process on an empty
cache directory, and times every numba compile of the process's main thread by its
`numba:compile` event, on the thread's CPU clock. With `--workers 0` (the default) every
compile happens there, the threaded kernels too (otherwise their serial twins run the first
call while the compile workers build them): the table is the whole work. With `--workers -1`
(numbax's default) it is the main process's share, what the first call waits for besides
the workers (their CPU is shown, not broken down). A compile nested in another (a runtime
helper such as `vm.exp_f32` compiled for the kernel that first calls it, a library helper
inside a library function) counts for the outermost one: the table shows what each kernel and
library function cost the first call, including what it pulled in. Kernels are numbax's
generated functions (threaded: compiled with `parallel=True`; "kernel shell": a serial kernel
compiled by numbax as LLVM, `core/backends/llvm/shells.py`, named by its cache key, timed the
same way); library functions are
`core/backends/numba/library`'s, one row each (compiled by numba, or by numbax as LLVM,
`core/backends/llvm/routines.py`, timed around its load); "rest" is the first call's CPU outside any
compile (tracing, generating sources, cache writes, running the step).

Usage: `python bench/compile_attribution.py [--models transformer,resnet10,lstm] [--top 3]
[--workers 0] [--python PYTHON --root TREE]` (`--root`: measure another checkout's code, e.g.
an older commit, with this script).
"""

from __future__ import annotations

import argparse
import collections
import importlib
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def child(model: str, workers: int) -> None:
    """Measures `model`'s first call in this process and prints one JSON line."""
    import threading  # noqa: PLC0415

    from numba.core import event  # noqa: PLC0415

    from bench import compile as bc  # noqa: PLC0415
    from core.config import config  # noqa: PLC0415

    config.update("jit_compile_workers", workers)
    config.update("jit_progress", False)
    main = threading.main_thread()
    stack: list[list] = []  # [name, kind, cpu start, cpu of nested compiles]
    rows: dict = collections.defaultdict(float)

    class Compiles(event.Listener):
        def on_start(self, ev):
            if threading.current_thread() is not main:
                return
            disp = ev.data["dispatcher"]
            fn = disp.py_func
            module = fn.__module__ or ""
            if "library" in module:
                kind, name = "library", fn.__name__
            elif module.startswith("core.") or module.startswith("numba."):
                kind, name = "helper", f"{module}.{fn.__name__}"
            else:
                parallel = disp.targetoptions.get("parallel")
                kind, name = ("kernel, threaded" if parallel else "kernel"), module
            stack.append([name, kind, time.thread_time()])

        def on_end(self, ev):
            if threading.current_thread() is not main or not stack:
                return
            name, kind, start = stack.pop()
            if not stack:  # nested compiles count for the outermost one
                rows[(kind, name)] += time.thread_time() - start

    def timed(module: str, attr: str, row) -> None:
        """Times `core.backends.llvm.<module>.<attr>` (a load outside numba's compile events)
        as the row `row(first argument)` (nothing in a checkout without the module)."""
        try:
            owner = importlib.import_module(f"core.backends.llvm.{module}")
        except ImportError:
            return
        load = getattr(owner, attr)

        def timed_load(first, *args):
            start = time.thread_time()
            try:
                return load(first, *args)
            finally:
                if threading.current_thread() is main and not stack:
                    rows[row(first)] += time.thread_time() - start

        setattr(owner, attr, timed_load)

    # whole serial kernels compiled as LLVM shells, library functions compiled as LLVM routines
    timed("shells", "_load", lambda key: ("kernel shell", key[:16]))
    timed("routines", "load", lambda fn: ("library", fn.__name__))
    bc.framework("numbax").jax.jit(lambda a: a + 1)(bc.framework("numbax").jnp.ones(1))
    F = bc.framework("numbax")
    build, batch = bc.BUILDERS[model]
    step, state, args = build(F)(batch)
    event.register("numba:compile", Compiles())
    wall, cpu = time.perf_counter(), time.thread_time()
    F.jax.block_until_ready(step(*state, *args))
    total, wall = time.thread_time() - cpu, time.perf_counter() - wall
    out = [{"kind": k, "name": n, "cpu_s": round(s, 3)} for (k, n), s in rows.items()]
    res = {"model": model, "first_call_cpu_s": total, "wall_s": wall, "rows": out}
    print("JSON " + json.dumps(dict(res, workers_cpu_s=bc._workers_cpu())))


def measure(python: str, root: str, model: str, workers: int, timeout: float) -> dict:
    """Runs `child` for `model` in a new process on an empty cache, the code of `root`."""
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, NUMBAX_CACHE_DIR=d, NUMBA_CACHE_DIR=d, PYTHONPATH=root)
        cmd = [python, os.path.abspath(__file__), "--child", model, "--workers", str(workers)]
        proc = subprocess.run(
            cmd, env=env, cwd=root, capture_output=True, text=True, timeout=timeout
        )
    lines = [ln[5:] for ln in proc.stdout.splitlines() if ln.startswith("JSON ")]
    if not lines:
        return {"model": model, "error": (proc.stderr.strip().splitlines() or ["?"])[-1][:200]}
    return json.loads(lines[-1])


def summary(res: dict, top: int) -> list[list[str]]:
    """Table rows: per kind its count and CPU, the `top` costliest of each kind, the rest."""
    by_kind = collections.defaultdict(list)
    for row in res["rows"]:
        by_kind[row["kind"]].append(row)
    table = []
    for kind in ("kernel", "kernel shell", "kernel, threaded", "library", "helper"):
        rows = sorted(by_kind.get(kind, []), key=lambda r: -r["cpu_s"])
        seconds = sum(r["cpu_s"] for r in rows)
        table.append([res["model"], f"{kind} ({len(rows)})", f"{seconds:.2f}"])
        shown = rows if kind == "library" else rows[:top]
        for r in shown:
            table.append(["", f"  {r['name'][:48]}", f"{r['cpu_s']:.2f}"])
    compiled = sum(r["cpu_s"] for r in res["rows"])
    table.append(
        [
            res["model"],
            "rest (tracing, sources, cache, run)",
            f"{res['first_call_cpu_s'] - compiled:.2f}",
        ]
    )
    table.append([res["model"], "first call (main thread)", f"{res['first_call_cpu_s']:.2f}"])
    table.append([res["model"], "compile workers", f"{res['workers_cpu_s']:.2f}"])
    table.append([res["model"], "first call, wall s", f"{res['wall_s']:.2f}"])
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="transformer,resnet10,lstm")
    parser.add_argument("--top", type=int, default=3, help="kernels shown per kind")
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--root", default=ROOT, help="the checkout whose code is measured")
    parser.add_argument("--workers", type=int, default=0, help="jit_compile_workers")
    parser.add_argument("--timeout", type=float, default=900)
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        sys.path.insert(0, os.getcwd())
        child(args.child, args.workers)
        return
    sys.path.insert(0, ROOT)
    from bench._common import print_json, print_table  # noqa: PLC0415

    results = [
        measure(args.python, args.root, m, args.workers, args.timeout)
        for m in args.models.split(",")
    ]
    table = []
    for res in results:
        table += summary(res, args.top) if "rows" in res else [[res["model"], res["error"], ""]]
    print_table(
        "cold first call, CPU s by compiled function", ["model", "compiled", "CPU s"], table
    )
    print_json("compile_attribution", {"root": args.root, "results": results})


if __name__ == "__main__":
    main()
