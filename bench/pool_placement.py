"""Where numbax's pool's worker runs, in one process: a model's train step (bench/compile.py's
programs, built as `models_step.py` builds them) on numbax's pool (`NUMBAX_JIT_THREAD_POOL=1`),
its settings switched between samples, idle and next to a busy process (a Python loop, as
`models_step.py --busy` starts it), each thread's run and run-queue wait time per step from
`/proc/self/task/*/schedstat`, and what the workers saved their callers (`Pool.saved`).

Settings (`--settings`): `one` (the step's loops on one thread), `anywhere` (two threads, the
worker wherever the scheduler puts it: `CPUS` 0), `keepoff` (two threads, the worker off its
caller's CPU: the pool's way), `pinned` (as `keepoff`, and the device thread that runs the
step kept on the first CPU), `follow` (as `keepoff` with the default count, which follows the
load: `core/jit/threads.py`; only without `NUMBAX_NUM_THREADS`).

Usage: `python bench/pool_placement.py MODEL [--rounds 3] [--seconds 1]
[--settings one,anywhere,keepoff,pinned]`; run it where other sessions' load does not count
(e.g. at autogroup nice -20: `echo -20 > /proc/self/autogroup` in a session of its own).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import threading
import time

os.environ["NUMBAX_JIT_THREAD_POOL"] = "1"
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from bench._common import print_json, thread_schedstat  # noqa: E402
from bench.models_step import _case  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("model")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--settings", default="one,anywhere,keepoff,pinned")
    args = parser.parse_args()
    run, _ = _case("numbax", args.model)
    from core.backends.llvm import pool
    from core.jit import threads

    p = pool.start()
    mask, cpus = int(p.state[pool.CPUS]), os.sched_getaffinity(0)
    device = next(
        t.native_id
        for t in threading.enumerate()
        if t.name.startswith("numbax-") and not t.name.startswith("numbax-pool")
    )

    follower = threads._state["follower"]

    def use(setting: str) -> None:
        count = 1 if setting == "one" else 2
        threads._state["follower"] = follower if setting == "follow" else (lambda: count)
        p.state[pool.CPUS] = 0 if setting in ("one", "anywhere") else mask
        os.sched_setaffinity(device, {min(cpus)} if setting == "pinned" else cpus)
        for _ in range(3):
            run()

    settings = args.settings.split(",")
    res: dict = {}
    for r in range(args.rounds):
        for phase in ("idle", "busy"):
            hog = None
            if phase == "busy":
                hog = subprocess.Popen([sys.executable, "-c", "while True: pass"])
                time.sleep(0.3)
            for setting in settings[r % len(settings) :] + settings[: r % len(settings)]:
                use(setting)
                p.saved()
                s0, t0, c0, n = thread_schedstat(), time.perf_counter(), time.process_time(), 0
                while time.perf_counter() - t0 < args.seconds:
                    run()
                    n += 1
                wall, cpu = time.perf_counter() - t0, time.process_time() - c0
                saved, s1 = p.saved(), thread_schedstat()
                per = sorted(
                    (((s1[k][0] - s0[k][0]) / n / 1e6, (s1[k][1] - s0[k][1]) / n / 1e6))
                    for k in s1
                    if k in s0
                )[::-1]
                row = (wall / n * 1e3, cpu / n * 1e3, saved / n * 1e3, per[:2])
                res.setdefault((setting, phase), []).append(row)
            if hog is not None:
                hog.kill()
                hog.wait()
        print(f"round {r + 1}/{args.rounds}", file=sys.stderr, flush=True)
    print("per step, medians (ms): wall, CPU, saved by the worker, the two busiest threads'")
    print("run/wait (of the median round)")
    for (setting, phase), rows in res.items():
        wall, cpu, saved = (statistics.median(row[i] for row in rows) for i in range(3))
        mid = sorted(rows)[len(rows) // 2][3]
        busiest = "  ".join(f"{a:.1f}/{b:.1f}" for a, b in mid)
        print(
            f"{args.model:12} {setting:9} {phase:5} {wall:7.2f} {cpu:7.2f} {saved:7.2f}  {busiest}"
        )

    print_json(
        "pool_placement",
        {
            "model": args.model,
            "samples": {
                f"{setting} {phase}": [
                    {"wall": w, "cpu": c, "saved": sv, "threads_run_wait": per}
                    for w, c, sv, per in rows
                ]
                for (setting, phase), rows in res.items()
            },
        },
    )


if __name__ == "__main__":
    main()
