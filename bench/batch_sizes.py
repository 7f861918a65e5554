"""A second batch size of a known model: kernels compiled anew and first-call time, against JAX.

Every program jit compiles is shape-generic (`core/backends/numba/generic.py`): its sizes and
literals are arguments, of each kernel of a program split into kernels and of a program compiled
as one function, so a new batch size of a model finds its code compiled. For each model
(the train steps of `bench/compile.py`), numbax runs in a new process on an empty cache: the
first call at the model's batch size, then a new instance of the model at half the batch
size (a new `jit`, as a user's second model is) in the same process. On another empty cache, a
process runs the model's batch size only, then a new process the half batch size: what it does
not find compiled in the disk cache it compiles. Each first call counts the distinct kernels of
its program and how many of them this process compiled or loaded from disk
(`core.jit.program.stats`), and its CPU time (in parentheses). JAX runs the half batch size in
a new process (cold, its default: no persistent cache), the figure a second batch size is
compared with.

`--mode` sets `config.jit_kernels`: "auto" (the default: programs of at most 40 kernels, like
the MNIST MLP's, the CNN's and the LSTM's steps, compile as one function) or "many" (every
program split into kernels).

Usage: `python bench/batch_sizes.py [--models mlp,cnn,lstm,dpsgd,transformer,resnet10]
[--mode auto|many] [--threads 1]`.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from bench import compile as bc  # noqa: E402
from bench._common import fmt_time, print_json, print_table, reference_python  # noqa: E402


def child(fw: str, model: str, batches: list[int]) -> None:
    """First calls of new instances of `model` at `batches`, one JSON line each."""
    F = bc.framework(fw)
    if fw == "numbax":
        from core.config import config

        config.update("jit_progress", False)
    F.jax.block_until_ready(F.jax.jit(lambda a: a + 1)(F.jnp.ones(1)))  # framework start-up
    make = bc.BUILDERS[model][0](F)
    for batch in batches:
        step, state, args = make(batch)
        if fw == "numbax":
            from core.jit import program

            before = program.stats()
        t, cpu = time.perf_counter(), time.process_time()
        F.jax.block_until_ready(step(*state, *args))
        res = {"batch": batch, "first_call_s": time.perf_counter() - t}
        res["first_call_cpu_s"] = time.process_time() - cpu
        if fw == "numbax":
            after = program.stats()
            infos = getattr(next(iter(step._cache().values())).exe, "kernels", [])
            res["kernels"] = len(infos)
            res["distinct"] = len({k.source for k in infos})
            res["compiled"] = after["compiled"] - before["compiled"]
            res["loaded"] = after["loaded"] - before["loaded"]
        print("JSON " + json.dumps(res), flush=True)


def _time(r: dict) -> str:
    """A first call's wall time and its CPU time in parentheses."""
    return f"{fmt_time(r['first_call_s'])} ({fmt_time(r['first_call_cpu_s'])})"


def run(python: str, fw: str, model: str, batches: list[int], env: dict) -> list[dict]:
    """The reports of `child` in a new `python` process (empty if it failed)."""
    cmd = [python, os.path.abspath(__file__), "--child", fw, "--models", model]
    cmd += ["--batches", ",".join(map(str, batches))]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if out.returncode:
        print(out.stderr[-2000:], file=sys.stderr)
    return [json.loads(line[5:]) for line in out.stdout.splitlines() if line.startswith("JSON ")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="mlp,cnn,lstm,dpsgd,transformer,resnet10")
    parser.add_argument("--mode", default="auto", choices=["auto", "many"])
    parser.add_argument("--threads", type=int, default=None, help="as for bench/compile.py")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--batches", default="", help=argparse.SUPPRESS)
    opts = parser.parse_args()
    if opts.child:
        child(opts.child, opts.models, [int(b) for b in opts.batches.split(",")])
        return
    base = dict(os.environ, **bc.thread_env(opts.threads), NUMBAX_JIT_KERNELS=opts.mode)
    ref = reference_python()
    rows, results = [], {}
    for model in opts.models.split(","):
        batch = bc.BUILDERS[model][1]
        half = batch // 2
        with tempfile.TemporaryDirectory() as d:
            env = dict(base, NUMBAX_CACHE_DIR=d, NUMBA_CACHE_DIR=os.path.join(d, "numba"))
            first = run(sys.executable, "numbax", model, [batch, half], env)
        with tempfile.TemporaryDirectory() as d:
            env = dict(base, NUMBAX_CACHE_DIR=d, NUMBA_CACHE_DIR=os.path.join(d, "numba"))
            run(sys.executable, "numbax", model, [batch], env)
            later = run(sys.executable, "numbax", model, [half], env)
        jax = run(ref, "jax", model, [half], dict(base, PYTHONPATH="")) if ref else []
        results[model] = {"numbax": first, "numbax_new_process": later, "jax": jax}
        if len(first) < 2 or not later:
            rows.append([model, f"{batch} -> {half}", "failed", "", "", "", "", ""])
            continue
        jax_s = jax[0]["first_call_s"] if jax else None
        cells = [model, f"{batch} -> {half}", f"{first[0]['kernels']} ({first[0]['distinct']})"]
        cells.append(_time(first[0]))
        for r in (first[1], later[0]):
            ratio = f", {r['first_call_s'] / jax_s:.2f}x JAX" if jax_s else ""
            cells.append(f"{r['compiled']} compiled, {r['loaded']} from disk: {_time(r)}{ratio}")
        cells.append(fmt_time(jax_s))
        rows.append(cells)
    columns = [
        "model",
        "batch",
        "kernels (distinct)",
        "first call",
        "half batch, same process",
        "half batch, new process",
        "JAX cold, half batch",
    ]
    print_table(f"A second batch size (jit_kernels={opts.mode!r})", columns, rows)
    print_json("batch_sizes", results)


if __name__ == "__main__":
    main()
