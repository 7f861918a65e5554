"""Train-step time of the model benchmark (MLP, CNN, transformer, ResNet-10, LSTM), numbax with
its default threads and with one thread, against JAX and PyTorch with their defaults, on the
machine as it is and next to one competing busy process (`--busy`).

The programs are bench/compile.py's (`BUILDERS`: Flax-style code run against numbax or JAX) and
their PyTorch versions in bench/_torch_models.py (`nn.Module`s, `torch.optim`, eager, as a
PyTorch user writes them; `--torch-compile` adds a `torch.compile(model)` contender). Each
contender is a server process (this script with `--serve`, JAX's and PyTorch's under the
reference interpreter) that builds a model's step once and, per request, runs steps for a time
budget and answers the wall-clock and process CPU time (all its threads) per step, with the
model's trainable-parameter count and the framework's threads (printed, so that the models can
be checked to be the same size). Requests are interleaved, round after round, so that the
neighbours' load drifts over every contender alike. With `--busy`, every round samples each
contender twice: on the machine as it is, then while a busy process (a Python loop) competes for
one core. A framework the reference interpreter lacks is left out (its columns show "-").

`--torch-threads default,1` adds PyTorch on one thread (`OMP_NUM_THREADS=1`), the counterpart
of numbax's one-thread contender: on a loaded machine its CPU time per step is the comparable
measure of the work of a step.

Usage: `python bench/models_step.py [--models mlp,cnn] [--rounds 5] [--budget 0.5] [--busy]
[--threads default,1] [--no-jax] [--no-torch] [--torch-threads default,1] [--torch-compile]
[--base CHECKOUT]`; `--base` adds the numbax of another checkout (e.g. a worktree of main) for
before/after comparisons in the same interleaved rounds.
Prints a table per contender, the table of issue 15's targets and a JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from bench._common import TimingServer, fmt_time, print_json, print_table  # noqa: E402

MODELS = ("mlp", "cnn", "transformer", "resnet10", "lstm")


def _case(fw: str, model: str) -> tuple[Callable[[], object], dict]:
    """`(run, info)`: `run()` takes one train step of `model` in framework `fw` (numbax, jax,
    torch or torch-compile) and waits for it; `info` has the trainable-parameter count and the
    framework's thread count (None where it has no single one, as for XLA)."""
    from bench.compile import BUILDERS, batch_data

    batch = BUILDERS[model][1]
    if fw.startswith("torch"):
        import torch

        from bench._torch_models import train_step

        run, params = train_step(model, *batch_data(model, batch), compiled=fw == "torch-compile")
        return run, {"params": params, "threads": torch.get_num_threads()}
    from bench.compile import framework

    F = framework(fw)
    step, state, args = BUILDERS[model][0](F)(batch)
    carry = [F.jax.block_until_ready(step(*state, *args))[:-1]]

    def run():
        carry[0] = F.jax.block_until_ready(step(*carry[0], *args))[:-1]

    params = sum(int(np.size(leaf)) for leaf in F.jax.tree_util.tree_leaves(state[0]))
    threads = None
    if fw == "numbax":
        from core.jit import program
        from core.jit.threads import num_threads

        program.wait_threaded()  # the steady state: threaded kernels built after the first call
        threads = num_threads()
    return run, {"params": params, "threads": threads}


def serve(fw: str) -> None:
    """Answers "model seconds" lines: per-step wall and CPU seconds over `seconds` of steps,
    with the model's `info` (see `_case`)."""
    if fw.startswith("torch"):
        import torch  # noqa: F401  (no "ready" when PyTorch is missing: the column shows "-")
    cases: dict = {}
    print("ready", flush=True)
    for line in sys.stdin:
        model, budget = line.split()
        if model not in cases:
            cases[model] = _case(fw, model)
        run, info = cases[model]
        run()  # wakes thread pools that slept during the pause before the sample
        steps, t0, c0 = 0, time.perf_counter(), time.process_time()
        while steps < 2 or time.perf_counter() - t0 < float(budget):
            run()
            steps += 1
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        print(json.dumps({"wall": wall / steps, "cpu": cpu / steps, **info}), flush=True)


class Contender(TimingServer):
    """A `serve` process: numbax (in this interpreter), JAX or PyTorch (the reference one)."""

    def __init__(self, name: str, fw: str, env: dict, root: str = ROOT):
        self.name = name
        if fw == "numbax":  # `root`: the checkout whose numbax (and copy of this script) runs
            script = os.path.join(root, "bench", os.path.basename(__file__))
            super().__init__(script, fw, sys.executable, env)
        else:
            super().__init__(
                os.path.abspath(__file__), fw, env={**env, "PYTHONPATH": "", "JAX_PLATFORMS": "cpu"}
            )

    def sample(self, model: str, budget: float) -> dict | None:
        """Wall and CPU seconds per step of `model` and the model's info (see `_case`), or None
        if the contender is unavailable."""
        return self.ask(f"{model} {budget}", json.loads)


def busy_process() -> subprocess.Popen:
    """A process that keeps one core busy until killed."""
    return subprocess.Popen([sys.executable, "-c", "while True: pass"])


def measure(models, contenders, rounds: int, budget: float, busy: bool) -> tuple[dict, dict]:
    """Interleaved samples: `(samples, info)`, samples[model][contender][phase] a list of
    {wall, cpu}, info[model][contender] the model's parameter and thread counts."""
    phases = ("idle", "busy") if busy else ("idle",)
    res = {m: {c.name: {p: [] for p in phases} for c in contenders} for m in models}
    info: dict = {m: {} for m in models}
    for m in models:  # compile (or load) every step before timing anything
        for c in contenders:
            s = c.sample(m, 0.0)
            if s is not None:
                info[m][c.name] = {k: s[k] for k in ("params", "threads")}
    for r in range(rounds):
        for phase in phases:
            hog = busy_process() if phase == "busy" else None
            try:
                time.sleep(0.3)
                for m in models:
                    order = contenders[r % len(contenders) :] + contenders[: r % len(contenders)]
                    for c in order:
                        time.sleep(0.15)  # outlasts idle BLAS/XLA threads' spin-waits
                        s = c.sample(m, budget)
                        if s is not None:
                            res[m][c.name][phase].append({"wall": s["wall"], "cpu": s["cpu"]})
            finally:
                if hog is not None:
                    hog.kill()
                    hog.wait()
        print(f"round {r + 1}/{rounds} done", file=sys.stderr, flush=True)
    return res, info


def summarize(res: dict, references: list[str]) -> dict:
    """Medians per model, contender and phase, the busy/idle ratio (median of per-round
    ratios) and each contender's ratio to each of `references` (`over_NAME`, median of per-round
    ratios of idle wall times)."""
    out: dict = {}
    for m, by_c in res.items():
        out[m] = {}
        for name, phases in by_c.items():
            row: dict = {}
            for phase, samples in phases.items():
                if samples:
                    row[f"{phase}_wall"] = statistics.median(s["wall"] for s in samples)
                    row[f"{phase}_cpu"] = statistics.median(s["cpu"] for s in samples)
            idle, busy = phases.get("idle", []), phases.get("busy", [])
            if idle and busy:
                row["busy_over_idle"] = statistics.median(
                    b["wall"] / i["wall"] for i, b in zip(idle, busy)
                )
            for ref in references:
                ref_idle = by_c.get(ref, {}).get("idle", [])
                if ref_idle and idle and name != ref:
                    row[f"over_{ref}"] = statistics.median(
                        i["wall"] / j["wall"] for i, j in zip(idle, ref_idle)
                    )
            out[m][name] = row
    return out


# why a model's parameter count may differ between frameworks (the work of a step does not)
_PARAM_NOTES = {"lstm": " (PyTorch's LSTM has two bias vectors, b_ih and b_hh; Flax's one)"}


def _ratio(row: dict, key: str) -> str:
    return f"{row[key]:.2f}x" if key in row else "-"


def report(summary: dict, info: dict, references: list[str]) -> None:
    """Prints a table per contender and the table of issue 15's targets."""
    names = list(next(iter(summary.values())))
    for name in names:
        rows = []
        for m, by_c in summary.items():
            r = by_c[name]
            rows.append(
                [
                    m,
                    fmt_time(r.get("idle_wall")),
                    fmt_time(r.get("idle_cpu")),
                    fmt_time(r.get("busy_wall")),
                    fmt_time(r.get("busy_cpu")),
                    _ratio(r, "busy_over_idle"),
                    *(_ratio(r, f"over_{ref}") for ref in references),
                ]
            )
        cols = ["model", "wall", "CPU", "wall busy", "CPU busy", "busy/idle"]
        print_table(
            f"{name}: per train step (medians)", cols + [f"/{ref}" for ref in references], rows
        )
    ours = names[0]
    rows = []
    for m, by_c in summary.items():
        walls = [fmt_time(by_c.get(name, {}).get("idle_wall")) for name in (ours, "jax", "torch")]
        params = [str(info[m].get(name, {}).get("params", "-")) for name in (ours, "jax", "torch")]
        rows.append(
            [
                m,
                *walls,
                _ratio(by_c[ours], "over_jax"),
                _ratio(by_c[ours], "over_torch"),
                _ratio(by_c[ours], "busy_over_idle"),
                " / ".join(params),
            ]
        )
    print_table(
        f"issue 15 targets: {ours}, wall per step on the machine as it is",
        [
            "model",
            ours,
            "JAX",
            "PyTorch",
            "/JAX (<= 0.8x)",
            "/PyTorch (<= 1.0x)",
            "busy/idle (<= 1.6x)",
            "params numbax / JAX / PyTorch",
        ],
        rows,
    )
    threads = {name: t["threads"] for by_c in info.values() for name, t in by_c.items()}
    text = ", ".join(f"{n} {'(its default)' if t is None else t}" for n, t in threads.items())
    print(f"threads: {text}")
    for m, by_c in info.items():
        counts = {name: t["params"] for name, t in by_c.items()}
        if len(set(counts.values())) > 1:
            print(f"{m}: parameter counts differ: {counts}" + _PARAM_NOTES.get(m, ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--budget", type=float, default=0.5, help="seconds of steps per sample")
    parser.add_argument("--busy", action="store_true", help="also sample next to a busy process")
    parser.add_argument(
        "--threads",
        default="default,1",
        help="numbax contenders: default, a thread count, or settings VAR=VALUE[+VAR=VALUE]",
    )
    parser.add_argument("--no-jax", action="store_true")
    parser.add_argument("--no-torch", action="store_true")
    parser.add_argument(
        "--torch-threads", default="default", help="PyTorch settings: default and/or 1"
    )
    parser.add_argument(
        "--torch-compile", action="store_true", help="also PyTorch with torch.compile(model)"
    )
    parser.add_argument(
        "--base", help="another checkout (e.g. a worktree of main): its numbax as 'base' contenders"
    )
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return
    contenders = []
    for t in args.threads.split(","):
        if t == "default":
            env = {}
        elif "=" in t:  # environment settings, e.g. NUMBAX_JIT_SCAN_MOTION=0 (the old path),
            # several joined by "+" (NUMBAX_NUM_THREADS=2+NUMBAX_JIT_THREAD_POOL=1)
            env = dict(setting.split("=", 1) for setting in t.split("+"))
        else:
            env = {"NUMBAX_NUM_THREADS": t}
        contenders.append(Contender(f"numbax {t}", "numbax", env))
        if args.base:
            contenders.append(Contender(f"base {t}", "numbax", env, os.path.abspath(args.base)))
    if not args.no_jax:
        contenders.append(Contender("jax", "jax", {}))
    for t in [] if args.no_torch else args.torch_threads.split(","):
        env = {} if t == "default" else {"OMP_NUM_THREADS": t}  # torch's intra-op threads
        contenders.append(Contender("torch" if t == "default" else f"torch {t}", "torch", env))
    if args.torch_compile:
        contenders.append(Contender("torch-compile", "torch-compile", {}))
    contenders = [c for c in contenders if c.proc is not None]
    models = args.models.split(",")
    unknown = [m for m in models if m not in MODELS]
    if unknown:
        parser.error(f"unknown model(s) {', '.join(unknown)}: choose from {','.join(MODELS)}")
    load = os.getloadavg()
    try:
        res, info = measure(models, contenders, args.rounds, args.budget, args.busy)
    finally:
        for c in contenders:
            c.close()
    references = [c.name for c in contenders if c.name in ("jax", "torch")]
    summary = summarize(res, references)
    report(summary, info, references)
    print_json(
        "models_step",
        {
            "load_before": load,
            "load_after": os.getloadavg(),
            "info": info,
            "summary": summary,
            "samples": res,
        },
    )


if __name__ == "__main__":
    main()
