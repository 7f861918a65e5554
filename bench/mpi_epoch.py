"""MNIST CNN epoch under `mpiexec -n P` against one process, on the same global batch.

    python bench/mpi_epoch.py [--processes 2] [--epochs 2] [--batch 128] [--limit-train N]

Runs the MNIST example as a user would, `python -m examples.mnist.train --model cnn` (SGD
momentum 0.9, global batch 128, no progress bar), once as one process and once as
`mpiexec -n P python -m examples.mnist.train ...` (one CPU device per process, each process a
1/P slice of every batch, gradients averaged over the processes), and compares their steady
epochs: the epoch time the example prints (the fastest epoch after the first) and the CPU time
of all the processes per epoch. A first one-epoch run of each configuration compiles (filling
the disk cache the timed runs load from); the CPU time per epoch is then (CPU of an E-epoch run
- CPU of a one-epoch run) / (E - 1), so start-up, data loading and loading the programs cancel
out (the test-set evaluation after each epoch stays in: it is cut to 1000 examples). The table
gives seconds per epoch and per step, the throughput ratio (P processes over one), the
CPU-bound ratio (P x CPU of one process / CPU of P processes: the ratio P free cores would give
if nothing but CPU time limited it) and the machine's load average; a JSON line follows.
BLAS runs one thread per process (OPENBLAS_NUM_THREADS=1 unless set). Needs the
`numbax[distributed]` extra (mpi4py and the MPICH wheel, which brings `mpiexec`).
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


def run_example(processes: int, epochs: int, batch: int, limit: int | None, logdir: str) -> dict:
    """Trains the example's CNN once; returns its epoch times and the CPU time it took.

    Args:
      processes: 1 for a plain process, else the `mpiexec -n` count.
      epochs: how many epochs.
      batch: the global batch size.
      limit: train on the first `limit` examples (None: all 60000).
      logdir: where the run writes its logs and checkpoints.

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
    env = dict(os.environ, NUMBAX_NUM_CPU_DEVICES="1", PYTHONPATH=ROOT)
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


def measure(processes: int, epochs: int, batch: int, limit: int | None) -> dict:
    """One process against `processes` processes: steady epoch wall and CPU seconds.

    Args:
      processes: the `mpiexec -n` count compared with one process.
      epochs: epochs of the timed runs (at least 2: the first one compiles).
      batch: the global batch size.
      limit: train on the first `limit` examples (None: all 60000).

    Returns:
      The JSON results: per configuration the steady epoch seconds, CPU seconds per epoch, steps
      per epoch; the throughput ratio; the load average before and after.
    """
    load_before = list(os.getloadavg())
    steps = (limit or 60000) // batch
    out: dict = {"batch": batch, "epochs": epochs, "steps_per_epoch": steps}
    with tempfile.TemporaryDirectory() as logdir:
        for n in (1, processes):
            run_example(n, 1, batch, limit, logdir)  # compiles, so both timed runs load
            short = run_example(n, 1, batch, limit, logdir)
            timed = run_example(n, epochs, batch, limit, logdir)
            out[f"p{n}"] = {
                "epoch_s": min(timed["epoch_s"][1:]),
                "epoch_times_s": timed["epoch_s"],
                "cpu_per_epoch_s": (timed["cpu_s"] - short["cpu_s"]) / (epochs - 1),
                "run_wall_s": timed["wall_s"],
            }
    out["processes"] = processes
    out["throughput_ratio"] = out["p1"]["epoch_s"] / out[f"p{processes}"]["epoch_s"]
    # What the ratio would be if each process had a core to itself (loaded machines).
    cpu = out["p1"]["cpu_per_epoch_s"], out[f"p{processes}"]["cpu_per_epoch_s"]
    out["cpu_bound_ratio"] = processes * cpu[0] / cpu[1]
    out["load_average_before"] = load_before
    out["load_average_after"] = list(os.getloadavg())
    out["cores"] = len(os.sched_getaffinity(0))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--limit-train", type=int, default=None)
    args = parser.parse_args()
    if args.epochs < 2:
        parser.error("--epochs must be at least 2 (the first epoch compiles)")
    if args.batch % args.processes:
        parser.error("--batch must be a multiple of --processes")
    r = measure(args.processes, args.epochs, args.batch, args.limit_train)
    steps = r["steps_per_epoch"]
    rows = []
    for n in (1, args.processes):
        c = r[f"p{n}"]
        rows.append(
            [
                "1 process" if n == 1 else f"mpiexec -n {n}",
                fmt_time(c["epoch_s"]),
                fmt_time(c["epoch_s"] / steps),
                fmt_time(c["cpu_per_epoch_s"] / steps),
            ]
        )
    load = r["load_average_before"][0], r["load_average_after"][0]
    print_table(
        f"MNIST CNN epoch, global batch {args.batch}, {steps} steps; throughput ratio "
        f"{r['throughput_ratio']:.2f}x, CPU-bound {r['cpu_bound_ratio']:.2f}x (load average "
        f"{load[0]:.1f} -> {load[1]:.1f} on {r['cores']} cores)",
        ["run", "epoch (wall)", "per step (wall)", "per step (CPU, all processes)"],
        rows,
    )
    print_json("mpi_epoch", r)


if __name__ == "__main__":
    main()
