"""Eager float32 transcendentals: `jit`'s vecmath kernels looped over the operand
(`core/backends/numba/transcendentals.py`) against numpy's functions (the impls before).

Per call: CPU time of one eager `jnp.sin`/`jnp.exp`/`jnp.tanh` on n = 1, 1e3, 1e6 float32
elements, the kernel and the numpy impl in interleaved rounds in one process (the numpy impl is
the primitive without its registered eager kernel). First call: a fresh process's first
`jnp.sin` (which loads numba and the loop), with an empty disk cache (the loop compiles) and
again with that cache warm, against the numpy impl's first call.
Usage: `python bench/eager_transcendentals.py [--rounds 11]`.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from bench._common import fmt_time, interleaved, print_table  # noqa: E402

SIZES = (1, 1000, 1_000_000)
FIRST_CALL = """
import json, os, sys, time
import core, core.numpy as jnp
from core.prims import elementwise as ew
x = jnp.asarray([0.5] * 1000, jnp.float32)
if sys.argv[1] == "numpy":
    ew._eager_kernels.pop(ew.sin_p)
c, w = time.process_time(), time.perf_counter()
jnp.sin(x).block_until_ready()
print(json.dumps([time.process_time() - c, time.perf_counter() - w]))
"""


def per_call(rounds: int) -> list[list]:
    import core.numpy as jnp
    from core.prims import elementwise as ew

    rows = []
    for name, prim in (("sin", ew.sin_p), ("exp", ew.exp_p), ("tanh", ew.tanh_p)):
        fn, kernel = getattr(jnp, name), ew._eager_kernels[prim]
        for n in SIZES:
            x = jnp.asarray(np.linspace(-3, 3, n, dtype=np.float32))

            def sampler(number, use_kernel, fn=fn, x=x, prim=prim, kernel=kernel):
                if use_kernel:
                    ew._eager_kernels[prim] = kernel
                else:
                    ew._eager_kernels.pop(prim, None)
                fn(x)
                t0 = time.process_time()
                for _ in range(number):
                    fn(x)
                t = (time.process_time() - t0) / number
                ew._eager_kernels[prim] = kernel
                return t

            number = max(3, int(2e5 / (n + 200)))
            samples = interleaved(
                {
                    "kernel": lambda k, s=sampler: s(k, True),
                    "numpy": lambda k, s=sampler: s(k, False),
                },
                number,
                rounds,
                pause=0.01,
            )
            ours, base = (statistics.median(samples[k]) for k in ("kernel", "numpy"))
            rows.append([f"{name} n={n}", fmt_time(ours), fmt_time(base), f"{ours / base:.2f}"])
    return rows


def first_calls() -> list[list]:
    def run(mode: str, cache: str) -> list[float]:
        env = dict(os.environ, NUMBAX_CACHE_DIR=cache)
        out = subprocess.run(
            [sys.executable, "-c", FIRST_CALL, mode], env=env, capture_output=True, text=True
        )
        return json.loads(out.stdout.strip().splitlines()[-1])

    with tempfile.TemporaryDirectory() as cache:
        results = {
            "numpy impl": run("numpy", cache),
            "kernel, empty disk cache": run("kernel", cache),
            "kernel, disk cache warm": run("kernel", cache),
        }
    return [[k, fmt_time(c), fmt_time(w)] for k, (c, w) in results.items()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=11)
    args = parser.parse_args()
    print(f"load: {os.getloadavg()[0]:.2f}")
    print_table(
        "eager call, CPU time (median of interleaved rounds)",
        ["op", "kernel", "numpy impl", "ratio"],
        per_call(args.rounds),
    )
    print_table("first jnp.sin in a fresh process", ["", "CPU", "wall"], first_calls())
    print(f"load: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
