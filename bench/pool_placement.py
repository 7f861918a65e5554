"""Where numbax's pool's worker runs, in one process: a model's train step (bench/compile.py's
programs, built as `models_step.py` builds them) on numbax's pool (`NUMBAX_JIT_THREAD_POOL=1`),
its settings switched between samples, idle and next to a busy process (a Python loop, as
`models_step.py --busy` starts it), each thread's run and run-queue wait time per step from
`/proc/self/task/*/schedstat`, and what the workers saved their callers (`Pool.saved`).

Settings (`--settings`): `one` (the step's loops on one thread), `anywhere` (two threads, the
worker wherever the scheduler puts it: `CPUS` 0), `keepoff` (two threads, the worker off its
caller's CPU: the pool's way), `pinned` (as `keepoff`, and the device thread that runs the
step kept on the first CPU), `follow` (as `keepoff` with the default count, which follows the
load: `core/jit/threads.py`; only without `NUMBAX_NUM_THREADS`). A setting may add knobs,
`+NAMEvalue`: `spin` (the workers' spin before they sleep, us: `pool.SPIN`), `slice` and
`cslice` (the scheduler slices of the workers and of the device thread, us: `sched_setattr`'s
`sched_runtime`, honoured for normal threads since Linux 6.12), `rescue` (0: a waiting caller
does not move a preempted worker to its CPU: `pool.RESCUE`), `look` (how far into its spin a
waiting caller first notes its workers' CPU clocks, us: `pool.LOOK`; 0: only as it sleeps),
e.g. `keepoff+rescue0`.

Per step it prints the callers' waits for the workers' pieces (`pool.WAITED`), those over 1 ms
(`LONG_WAITS`: a worker preempted in a piece holds its caller until it runs again), the
workers' CPU time in pieces (`HELPED`) and the number of jobs (parallel loops). With `--jobs`
it also prints them per job of the step, in the step's order (the pool's ledger per job,
`pool.JOB_PERIOD`), for the settings whose steps post every job (two threads): the job's
pieces, its time from posting to end, its caller's wait and how many of those waits a step
were long.

Usage: `python bench/pool_placement.py MODEL [--rounds 3] [--seconds 1]
[--settings one,keepoff+rescue0,keepoff,keepoff+slice100] [--jobs]`; run it where other
sessions' load does not count (e.g. at autogroup nice -20: `echo -20 > /proc/self/autogroup`
in a session of its own).
"""

from __future__ import annotations

import argparse
import ctypes
import os
import statistics
import subprocess
import sys
import threading
import time

import numpy as np

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
    parser.add_argument("--jobs", action="store_true", help="also print the ledger per job")
    args = parser.parse_args()
    run, _ = _case("numbax", args.model)
    from core.backends.llvm import pool
    from core.jit import threads

    p = pool.start()
    mask, cpus = int(p.state[pool.CPUS]), os.sched_getaffinity(0)
    device = next(  # the thread that runs the step: its device's, or the main thread (the MLP's)
        (
            t.native_id
            for t in threading.enumerate()
            if t.name.startswith("numbax-") and not t.name.startswith("numbax-pool")
        ),
        threading.main_thread().native_id,
    )

    follower = threads._state["follower"]

    workers = [t.native_id for t in threading.enumerate() if t.name.startswith("numbax-pool")]

    def use(setting: str) -> None:
        base, *knobs = setting.split("+")
        opts = {k.rstrip("0123456789"): int(k[len(k.rstrip("0123456789")) :]) for k in knobs}
        count = 1 if base == "one" else 2
        threads._state["follower"] = follower if base == "follow" else (lambda: count)
        p.state[pool.CPUS] = 0 if base in ("one", "anywhere") else mask
        os.sched_setaffinity(device, {min(cpus)} if base == "pinned" else cpus)
        p.state[pool.SPIN] = opts.get("spin", pool.SPIN_NS // 1000) * 1000
        p.state[pool.RESCUE] = opts.get("rescue", 1)
        p.state[pool.LOOK] = opts.get("look", pool.LOOK_NS // 1000) * 1000
        for tid in workers:
            _slice(tid, opts.get("slice", 0) * 1000)
        _slice(device, opts.get("cslice", 0) * 1000)
        for _ in range(3):
            run()

    def job_ledger() -> tuple[int, np.ndarray]:
        """The slot of the next job (between steps, the next step's first) and the pool's
        ledger per job (`pool.JOB_PERIOD`): rows waited, long waits, pieces, time; a column
        per slot."""
        first = (int(p.state[pool.EPOCH]) + 1) % max(period, 1)
        starts = (pool.JOB_WAITED, pool.JOB_LONG, pool.JOB_PIECES, pool.JOB_TIME)
        width = min(period, pool.JOB_SLOTS)  # a step of more jobs keeps no ledger per job
        return first, np.array([p.state[w : w + width] for w in starts], dtype=np.float64)

    settings = args.settings.split(",")
    use("keepoff")
    epoch = int(p.state[pool.EPOCH])
    run()
    period = (int(p.state[pool.EPOCH]) - epoch) & 0xFFFFFFFF  # jobs a step on two threads
    if args.jobs and 0 < period <= pool.JOB_SLOTS:
        p.state[pool.JOB_PERIOD] = period
    per_job: dict = {}
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
                words = (pool.EPOCH, pool.WAITED, pool.HELPED, pool.LONG_WAITS, pool.LONG_WAITED)
                j0, w0, h0, l0, lw0 = (int(p.state[k]) for k in words)
                r0 = int(p.state[pool.RESCUED])
                first, ledger0 = job_ledger()
                s0, t0, c0, n = thread_schedstat(), time.perf_counter(), time.process_time(), 0
                while time.perf_counter() - t0 < args.seconds:
                    run()
                    n += 1
                wall, cpu = time.perf_counter() - t0, time.process_time() - c0
                saved, s1 = p.saved(), thread_schedstat()
                jobs = ((int(p.state[pool.EPOCH]) - j0) & 0xFFFFFFFF) / n
                if p.state[pool.JOB_PERIOD] and jobs == period:
                    ledger = (job_ledger()[1] - ledger0) / n
                    order = [(first + k) % period for k in range(period)]
                    per_job.setdefault((setting, phase), []).append(ledger[:, order])
                waited = (int(p.state[pool.WAITED]) - w0) / n / 1e6
                helped = (int(p.state[pool.HELPED]) - h0) / n / 1e6
                long = (int(p.state[pool.LONG_WAITS]) - l0) / n
                long_ms = (int(p.state[pool.LONG_WAITED]) - lw0) / n / 1e6
                rescued = (int(p.state[pool.RESCUED]) - r0) / n
                if rescued:
                    print(f"{setting} {phase}: {rescued:.2f} rescues a step", file=sys.stderr)
                per = sorted(
                    (((s1[k][0] - s0[k][0]) / n / 1e6, (s1[k][1] - s0[k][1]) / n / 1e6))
                    for k in s1
                    if k in s0
                )[::-1]
                row = (
                    wall / n * 1e3,
                    cpu / n * 1e3,
                    saved / n * 1e3,
                    per[:2],
                    jobs,
                    waited,
                    helped,
                    long,
                    long_ms,
                )
                res.setdefault((setting, phase), []).append(row)
            if hog is not None:
                hog.kill()
                hog.wait()
        print(f"round {r + 1}/{args.rounds}", file=sys.stderr, flush=True)
    print("per step, medians (ms): wall, CPU, saved by the worker, jobs, the callers' wait for")
    print("the workers' pieces, the workers' CPU in pieces, waits over 1 ms and their time, the")
    print("two busiest threads' run/wait (of the median round); then every round's wall")
    for (setting, phase), rows in res.items():
        med = [statistics.median(row[i] for row in rows) for i in (0, 1, 2, 4, 5, 6, 7, 8)]
        mid = sorted(rows)[len(rows) // 2][3]
        busiest = "  ".join(f"{a:.1f}/{b:.1f}" for a, b in mid)
        walls = " ".join(f"{row[0]:.1f}" for row in rows)
        print(
            f"{args.model:11} {setting:22} {phase:5} {med[0]:6.2f} {med[1]:6.2f} {med[2]:6.2f} "
            f"{med[3]:4.0f} {med[4]:6.2f} {med[5]:6.2f} {med[6]:4.1f} {med[7]:5.1f}  {busiest}"
            f"  [{walls}]"
        )

    for (setting, phase), ledgers in per_job.items():
        med = np.median(np.array(ledgers), axis=0)
        print(f"{args.model} {setting} {phase}, per job of the step (medians per step):")
        print("  job  pieces  time (ms)  waited (ms)  long waits")
        for k in range(period):
            pieces, took, waited, long = med[2, k], med[3, k] / 1e6, med[0, k] / 1e6, med[1, k]
            print(f"  {k:3d}  {pieces:6.0f}  {took:9.2f}  {waited:11.2f}  {long:10.2f}")

    print_json(
        "pool_placement",
        {
            "model": args.model,
            "samples": {
                f"{setting} {phase}": [
                    {
                        "wall": w,
                        "cpu": c,
                        "saved": sv,
                        "threads_run_wait": per,
                        "jobs": jb,
                        "waited": wt,
                        "helped": hp,
                        "long_waits": lw,
                        "long_waited": lm,
                    }
                    for w, c, sv, per, jb, wt, hp, lw, lm in rows
                ]
                for (setting, phase), rows in res.items()
            },
        },
    )


_SCHED_SETATTR = {"x86_64": 314, "aarch64": 274}[os.uname().machine]


def _slice(tid: int, ns: int) -> None:
    """Asks Linux for scheduler slices of `ns` nanoseconds for thread `tid` (`sched_setattr`'s
    `sched_runtime`, honoured for normal threads since 6.12; 0: the default slice)."""
    attr = (ctypes.c_uint64 * 7)()
    attr[0] = 56  # size (u32) | policy SCHED_OTHER (u32) << 32
    attr[3] = ns  # sched_runtime (after flags and nice | priority)
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.syscall(_SCHED_SETATTR, tid, ctypes.byref(attr), 0) != 0:
        raise OSError(ctypes.get_errno(), "sched_setattr")


if __name__ == "__main__":
    main()
