"""Where a model's train step spends its time, kernel by kernel: bench/compile.py's program
(`BUILDERS`, as `models_step.py` builds it) compiled as kernels, each kernel of its driver
(the `k<i>` of the generated function, `core/jit/program.py`) wrapped in a timer, and the
step run `--steps` times once its threaded kernels are built.

Per kernel it prints the median wall time of its calls and the median CPU time of the thread
that called it (the device thread: on one thread, `NUMBAX_NUM_THREADS=1`, the kernel's work;
on two, the caller's share and its waits), what it computes (its equations by primitive, the
operand shapes of its products, its output shapes), and per step the wall time against the
sum of the kernels' (the rest: the driver between kernels and the call around it). Kernels
that compute the same thing on the same shapes (the layers of a model) are listed apart.

Usage: `python bench/kernel_times.py [--model transformer] [--steps 60] [--top 40]`; run it at
one thread and at the default, and in alternating processes for A/B comparisons (the machine's
load moves these numbers).
"""

from __future__ import annotations

import argparse
import collections
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from bench._common import print_json, print_table  # noqa: E402


def describe(kernel) -> str:
    """A kernel's equations by primitive, its products' operand shapes and its output shapes."""
    count = collections.Counter(e.primitive.name for e in kernel.eqns)
    prims = " ".join(f"{p}:{n}" for p, n in count.most_common(5))
    dots = [
        "x".join(str(tuple(v.aval.shape)) for v in e.inputs)
        for e in kernel.eqns
        if e.primitive.name == "dot_general"
    ]
    outs = ",".join(str(tuple(v.aval.shape)) for v in kernel.outvars[:3])
    return f"{prims}{' dot ' + ' '.join(dots) if dots else ''} -> {outs}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="transformer")
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--top", type=int, default=40)
    args = parser.parse_args()

    from bench.compile import BUILDERS, framework
    from core.config import config
    from core.jit import program

    F = framework("numbax")
    with config.override("jit_kernels", "many"):
        step, state, batch = BUILDERS[args.model][0](F)(BUILDERS[args.model][1])
        carry = list(F.jax.block_until_ready(step(*state, *batch))[:-1])
    program.wait_optimized()
    exe = next(iter(step._cache().values())).exe
    namespace = exe.driver.__globals__
    walls, cpus = collections.defaultdict(list), collections.defaultdict(list)

    def timed(k, kernel):
        def call(*a):
            t, c = time.perf_counter(), time.thread_time()
            out = kernel(*a)
            walls[k].append(time.perf_counter() - t)
            cpus[k].append(time.thread_time() - c)
            return out

        return call

    for k in range(len(exe.program.kernels)):
        namespace[f"k{k}"] = timed(k, namespace[f"k{k}"])
    steps = []
    for _ in range(args.steps):
        before = sum(map(sum, walls.values()))
        t = time.perf_counter()
        carry = list(F.jax.block_until_ready(step(*carry, *batch))[:-1])
        steps.append((time.perf_counter() - t, sum(map(sum, walls.values())) - before))
    wall = {k: statistics.median(v) for k, v in walls.items()}
    cpu = {k: statistics.median(v) for k, v in cpus.items()}
    step_wall = statistics.median(s for s, _ in steps)
    kernels_wall = statistics.median(s for _, s in steps)
    what = {k: describe(exe.program.kernels[k]) for k in wall}
    rows = [
        [f"k{k}", f"{wall[k] * 1e6:.0f} us", f"{cpu[k] * 1e6:.0f} us", what[k]]
        for k in sorted(wall, key=wall.get, reverse=True)[: args.top]
    ]
    print_table(
        f"{args.model}: {len(wall)} kernels, step {step_wall * 1e3:.2f} ms, kernels "
        f"{kernels_wall * 1e3:.2f} ms, the rest {(step_wall - kernels_wall) * 1e3:.2f} ms "
        "(medians per step)",
        ["kernel", "wall", "thread CPU", "what"],
        rows,
    )
    print_json(
        "kernel_times",
        {
            "model": args.model,
            "step_wall": step_wall,
            "kernels_wall": kernels_wall,
            "kernels": {f"k{k}": {"wall": wall[k], "cpu": cpu[k], "what": what[k]} for k in wall},
        },
    )


if __name__ == "__main__":
    main()
