"""What `core.profiler` costs on the MLP train step (bench/mlp_step.py's step, Adam).

* off: the step with no trace running. The only profiler code on that path is one check of
  `core.profiler.hooks.ACTIVE` in `Jitted.__call__`; its cost is measured on its own (a loop of
  the same check) and shown as a share of the step.
* on, level 1 (`ProfileOptions(host_tracer_level=1)`): a trace records each jitted call; the
  step runs compiled as usual.
* on, level 2 (the default): a trace also records every fusion unit inside the call: the
  program's profiling build, here the one function jit compiles with a cycle-counter stamp
  after each unit (`core.profiler.stamps`; built before the samples).

Samples of the three modes are interleaved round by round; the table shows the fastest sample
of each (on a shared machine noise only adds time, and the overhead is a fixed cost) and the
ratio to "off". Usage: `python bench/profiler_overhead.py [--rounds N] [--batches 32,128]`.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from bench._common import fmt_time, print_json, print_table, time_calls  # noqa: E402
from bench.mlp_step import numbax_runner  # noqa: E402


def check_cost(n: int = 1_000_000) -> float:
    """Seconds per `hooks.ACTIVE and not hooks.IN_JIT` check (what profiling off costs)."""
    from core.profiler import hooks

    t0 = time.perf_counter()
    for _ in range(n):
        if hooks.ACTIVE and not hooks.IN_JIT:
            raise AssertionError
    loop = time.perf_counter() - t0
    t0 = time.perf_counter()
    for _ in range(n):
        pass
    return max(loop - (time.perf_counter() - t0), 0.0) / n


def measure(batch: int, rounds: int, calls: int) -> dict:
    from core import profiler

    run = numbax_runner(batch)
    run()  # compile
    with tempfile.TemporaryDirectory() as log_dir, profiler.trace(log_dir):
        run()  # compile the profiling build
    samples: dict[str, list[float]] = {"off": [], "level 1": [], "level 2": []}
    with tempfile.TemporaryDirectory() as log_dir:
        for _ in range(rounds):
            samples["off"].append(time_calls(run, calls))
            for level in (1, 2):
                options = profiler.ProfileOptions(host_tracer_level=level)
                with profiler.trace(log_dir, profiler_options=options):
                    samples[f"level {level}"].append(time_calls(run, calls))
    med = {k: min(v) for k, v in samples.items()}
    return {
        "batch": batch,
        "off_s": med["off"],
        "level1_s": med["level 1"],
        "level2_s": med["level 2"],
        "level1_ratio": med["level 1"] / med["off"],
        "level2_ratio": med["level 2"] / med["off"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--batches", default="32,128")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--calls", type=int, default=20, help="steps per sample")
    args = parser.parse_args()
    check = check_cost()
    results = [measure(int(b), args.rounds, args.calls) for b in args.batches.split(",")]
    rows = [
        [
            r["batch"],
            fmt_time(r["off_s"]),
            f"{check * 1e9:.0f} ns ({check / r['off_s']:.4%})",
            f"{fmt_time(r['level1_s'])} ({r['level1_ratio'] - 1:+.1%})",
            f"{fmt_time(r['level2_s'])} ({r['level2_ratio'] - 1:+.1%})",
        ]
        for r in results
    ]
    print_table(
        "MLP train step with the profiler (fastest of interleaved samples)",
        ["batch", "off", "off: the hook's check", "on, level 1 (calls)", "on, level 2 (units)"],
        rows,
    )
    print_json("profiler_overhead", {"check_s": check, "steps": results})


if __name__ == "__main__":
    main()
