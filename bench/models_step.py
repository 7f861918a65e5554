"""Train-step time of the model benchmark (MLP, CNN, transformer, ResNet-10, LSTM), numbax with
its default threads and with one thread, against JAX with its defaults, on the machine as it is
and next to one competing busy process (`--busy`).

The programs are bench/compile.py's (`BUILDERS`: Flax-style code run against numbax or JAX).
Each contender is a server process (this script with `--serve`, JAX's under the reference
interpreter) that builds a model's step once and, per request, runs steps for a time budget and
answers the wall-clock and process CPU time (all its threads) per step. Requests are
interleaved, round after round, so that the neighbours' load drifts over every contender alike.
With `--busy`, every round samples each contender twice: on the machine as it is, then while a
busy process (a Python loop) competes for one core.

Usage: `python bench/models_step.py [--models mlp,cnn] [--rounds 5] [--budget 0.5] [--busy]
[--threads default,1] [--no-jax]`. Prints a table and a JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from bench._common import TimingServer, fmt_time, print_json, print_table  # noqa: E402

MODELS = ("mlp", "cnn", "transformer", "resnet10", "lstm")


def serve(fw: str) -> None:
    """Answers "model seconds" lines: per-step wall and CPU seconds over `seconds` of steps."""
    from bench.compile import BUILDERS, framework

    F = framework(fw)
    cases: dict = {}
    print("ready", flush=True)
    for line in sys.stdin:
        model, budget = line.split()
        if model not in cases:
            build, batch = BUILDERS[model]
            step, state, args = build(F)(batch)
            carry = [F.jax.block_until_ready(step(*state, *args))[:-1]]

            def run(step=step, args=args, carry=carry):
                carry[0] = F.jax.block_until_ready(step(*carry[0], *args))[:-1]

            cases[model] = run
        run = cases[model]
        run()  # wakes thread pools that slept during the pause before the sample
        steps, t0, c0 = 0, time.perf_counter(), time.process_time()
        while steps < 2 or time.perf_counter() - t0 < float(budget):
            run()
            steps += 1
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        print(json.dumps({"wall": wall / steps, "cpu": cpu / steps}), flush=True)


class Contender(TimingServer):
    """A `serve` process: numbax (in this interpreter) or JAX (the reference one)."""

    def __init__(self, name: str, fw: str, env: dict):
        self.name = name
        if fw == "numbax":
            super().__init__(os.path.abspath(__file__), fw, sys.executable, env)
        else:
            super().__init__(
                os.path.abspath(__file__), fw, env={**env, "PYTHONPATH": "", "JAX_PLATFORMS": "cpu"}
            )

    def sample(self, model: str, budget: float) -> dict | None:
        """Wall and CPU seconds per step of `model`, or None if the contender is unavailable."""
        return self.ask(f"{model} {budget}", json.loads)


def busy_process() -> subprocess.Popen:
    """A process that keeps one core busy until killed."""
    return subprocess.Popen([sys.executable, "-c", "while True: pass"])


def measure(models, contenders, rounds: int, budget: float, busy: bool) -> dict:
    """Interleaved samples: results[model][contender][phase] = list of {wall, cpu}."""
    phases = ("idle", "busy") if busy else ("idle",)
    res = {m: {c.name: {p: [] for p in phases} for c in contenders} for m in models}
    for m in models:  # compile (or load) every step before timing anything
        for c in contenders:
            c.sample(m, 0.0)
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
                            res[m][c.name][phase].append(s)
            finally:
                if hog is not None:
                    hog.kill()
                    hog.wait()
        print(f"round {r + 1}/{rounds} done", file=sys.stderr, flush=True)
    return res


def summarize(res: dict, reference: str) -> dict:
    """Medians per model, contender and phase, the busy/idle ratio (median of per-round
    ratios) and each contender's ratio to `reference` (median of per-round ratios)."""
    out: dict = {}
    for m, by_c in res.items():
        out[m] = {}
        ref = by_c.get(reference, {}).get("idle", [])
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
            if ref and idle and name != reference:
                row[f"over_{reference}"] = statistics.median(
                    i["wall"] / j["wall"] for i, j in zip(idle, ref)
                )
            out[m][name] = row
    return out


def report(summary: dict, reference: str) -> None:
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
                    f"{r['busy_over_idle']:.2f}x" if "busy_over_idle" in r else "-",
                    f"{r[f'over_{reference}']:.2f}x" if f"over_{reference}" in r else "-",
                ]
            )
        cols = ["model", "wall", "CPU", "wall busy", "CPU busy", "busy/idle", f"/{reference}"]
        print_table(f"{name}: per train step (medians)", cols, rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--budget", type=float, default=0.5, help="seconds of steps per sample")
    parser.add_argument("--busy", action="store_true", help="also sample next to a busy process")
    parser.add_argument("--threads", default="default,1", help="numbax settings: default and/or 1")
    parser.add_argument("--no-jax", action="store_true")
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return
    contenders = []
    for t in args.threads.split(","):
        env = {} if t == "default" else {"NUMBAX_NUM_THREADS": t}
        contenders.append(Contender(f"numbax {t}", "numbax", env))
    if not args.no_jax:
        contenders.append(Contender("jax", "jax", {}))
    contenders = [c for c in contenders if c.proc is not None]
    models = args.models.split(",")
    load = os.getloadavg()
    try:
        res = measure(models, contenders, args.rounds, args.budget, args.busy)
    finally:
        for c in contenders:
            c.close()
    reference = "jax" if any(c.name == "jax" for c in contenders) else contenders[0].name
    summary = summarize(res, reference)
    report(summary, reference)
    print_json(
        "models_step",
        {"load_before": load, "load_after": os.getloadavg(), "summary": summary, "samples": res},
    )


if __name__ == "__main__":
    main()
