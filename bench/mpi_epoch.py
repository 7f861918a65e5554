"""MNIST CNN epoch under `mpiexec -n P` against one process, on the same global batch.

    python bench/mpi_epoch.py [--processes 2] [--epochs 3] [--batch 128] [--limit-train N]

Runs the MNIST example as a user would, `python -m examples.mnist.train --model cnn` (SGD
momentum 0.9, global batch 128, no progress bar), as one process with numbax's default threads
(the issue's baseline: its convolutions and large loops use every core), as one process on one
thread (`NUMBAX_NUM_THREADS=1`: the core each of the P processes has) and as
`mpiexec -n P python -m examples.mnist.train ...` (default settings: each process takes its
share of the cores, one thread and one CPU device on P = cores; each process a 1/P slice of
every batch, gradients averaged over the processes), and compares their steady epochs: the
epoch time the example prints (the fastest epoch after the first; it ends when the last step
has run and starts when every process is ready) and the CPU time of all the processes per
epoch. A first one-epoch run of each configuration compiles (filling the disk cache the timed
runs load from); the CPU time per epoch is then (CPU of an E-epoch run - CPU of a one-epoch
run) / (E - 1), so start-up, data loading and loading the programs cancel out (the test-set
evaluation after each epoch stays in: it is cut to 1000 examples). The table gives seconds per
epoch and per step, CPU per step of all processes and of each, the throughput ratios (P
processes over each one-process run), the CPU-bound ratio (P x CPU of the one-thread process /
CPU of the P processes: what P free cores would give over one core if nothing but CPU time
limited it; the default process's own threads cost CPU too, so P x its CPU would overstate it)
and the machine's load average; a JSON line follows. BLAS runs one thread per process
(OPENBLAS_NUM_THREADS=1 unless set). Needs the `numbax[distributed]` extra (mpi4py and the
MPICH wheel, which brings `mpiexec`).
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from bench._common import fmt_time, print_json, print_table  # noqa: E402

# The test-set evaluation after each epoch is not what is timed: a small one keeps its CPU time
# (which the CPU difference below cannot separate from training) negligible.
EVAL_EXAMPLES = 1000
_RUNS = itertools.count()
_EPOCH_LINE = re.compile(r"^epoch (\d+): .*, ([0-9.]+)s \(", re.MULTILINE)


def _mpiexec() -> str:
    found = shutil.which(
        "mpiexec", path=f"{os.path.dirname(sys.executable)}{os.pathsep}{os.environ['PATH']}"
    )
    if found is None:
        sys.exit("mpiexec not found: pip install 'numbax[distributed]' (mpi4py and mpich)")
    return found


def run_example(
    processes: int, epochs: int, batch: int, limit: int | None, logdir: str, env: dict
) -> dict:
    """Trains the example's CNN once; returns its epoch times and the CPU time it took.

    Args:
      processes: 1 for a plain process, else the `mpiexec -n` count.
      epochs: how many epochs.
      batch: the global batch size.
      limit: train on the first `limit` examples (None: all 60000).
      logdir: where the run writes its logs and checkpoints.
      env: environment variables set for the run.

    Returns:
      `{"epoch_s": [...], "cpu_s": ..., "wall_s": ...}` (CPU of every process of the run,
      `mpiexec` included).
    """
    cmd = [sys.executable, "-m", "examples.mnist.train", "--model", "cnn", "--no-progress"]
    cmd += ["--epochs", str(epochs), "--batch-size", str(batch), "--logdir", logdir]
    cmd += ["--name", f"run{next(_RUNS)}", "--limit-test", str(EVAL_EXAMPLES)]
    if limit is not None:
        cmd += ["--limit-train", str(limit)]
    if processes > 1:
        cmd = [_mpiexec(), "-n", str(processes), *cmd]
    env = {**os.environ, "PYTHONPATH": ROOT, **env}
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    run = subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{run.stderr[-3000:]}")
    times = [float(t) for _, t in _EPOCH_LINE.findall(run.stdout)]
    if len(times) != epochs:
        sys.exit(f"expected {epochs} epoch lines in the output of {' '.join(cmd)}:\n{run.stdout}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"epoch_s": times, "cpu_s": cpu, "wall_s": wall}


# name -> (processes, environment); the P-process run is added by `measure`.
ONE_PROCESS = {"p1": (1, {}), "p1_one_thread": (1, {"NUMBAX_NUM_THREADS": "1"})}


def measure(processes: int, epochs: int, batch: int, limit: int | None) -> dict:
    """One process (default threads, and one thread) against `processes` processes: steady
    epoch wall and CPU seconds.

    Args:
      processes: the `mpiexec -n` count compared with one process.
      epochs: epochs of the timed runs (at least 2: the first one compiles).
      batch: the global batch size.
      limit: train on the first `limit` examples (None: all 60000).

    Returns:
      The JSON results: per configuration the steady epoch seconds, CPU seconds per epoch, steps
      per epoch; the throughput ratios; the CPU-bound ratio; the load average before and after.
    """
    load_before = list(os.getloadavg())
    steps = (limit or 60000) // batch
    out: dict = {"batch": batch, "epochs": epochs, "steps_per_epoch": steps}
    runs = {**ONE_PROCESS, f"p{processes}": (processes, {})}
    with tempfile.TemporaryDirectory() as logdir:
        for name, (n, env) in runs.items():
            run_example(n, 1, batch, limit, logdir, env)  # compiles, so both timed runs load
            short = run_example(n, 1, batch, limit, logdir, env)
            timed = run_example(n, epochs, batch, limit, logdir, env)
            out[name] = {
                "processes": n,
                "env": env,
                "epoch_s": min(timed["epoch_s"][1:]),
                "epoch_times_s": timed["epoch_s"],
                "cpu_per_epoch_s": (timed["cpu_s"] - short["cpu_s"]) / (epochs - 1),
                "run_wall_s": timed["wall_s"],
            }
    many = out[f"p{processes}"]
    out["processes"] = processes
    out["throughput_ratio"] = out["p1"]["epoch_s"] / many["epoch_s"]
    out["throughput_ratio_one_thread"] = out["p1_one_thread"]["epoch_s"] / many["epoch_s"]
    # What the ratio would be if each process had a core to itself (loaded machines).
    out["cpu_bound_ratio"] = (
        processes * out["p1_one_thread"]["cpu_per_epoch_s"] / many["cpu_per_epoch_s"]
    )
    out["load_average_before"] = load_before
    out["load_average_after"] = list(os.getloadavg())
    out["cores"] = len(os.sched_getaffinity(0))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--limit-train", type=int, default=None)
    args = parser.parse_args()
    if args.epochs < 2:
        parser.error("--epochs must be at least 2 (the first epoch compiles)")
    if args.batch % args.processes:
        parser.error("--batch must be a multiple of --processes")
    r = measure(args.processes, args.epochs, args.batch, args.limit_train)
    steps, p = r["steps_per_epoch"], args.processes
    labels = {"p1": "1 process", "p1_one_thread": "1 process, 1 thread", f"p{p}": f"mpiexec -n {p}"}
    rows = []
    for name, label in labels.items():
        c = r[name]
        cpu_step = c["cpu_per_epoch_s"] / steps
        rows.append(
            [
                label,
                fmt_time(c["epoch_s"]),
                fmt_time(c["epoch_s"] / steps),
                fmt_time(cpu_step),
                fmt_time(cpu_step / c["processes"]),
            ]
        )
    load = r["load_average_before"][0], r["load_average_after"][0]
    print_table(
        f"MNIST CNN epoch, global batch {args.batch}, {steps} steps; throughput ratio "
        f"{r['throughput_ratio']:.2f}x ({r['throughput_ratio_one_thread']:.2f}x over one "
        f"thread), CPU-bound {r['cpu_bound_ratio']:.2f}x (load average {load[0]:.1f} -> "
        f"{load[1]:.1f} on {r['cores']} cores)",
        ["run", "epoch (wall)", "per step (wall)", "CPU per step", "CPU per step and process"],
        rows,
    )
    print_json("mpi_epoch", r)


if __name__ == "__main__":
    main()
