"""Matrix products of the benchmark models' shapes: one BLAS call against `lib.dot`'s bands
(core/backends/numba/library/bands.py: cut by the sizes, taken dynamically by numba's pool) on
one thread and on the default threads, and against OpenBLAS's own threads, on the machine as it
is and next to a competing busy process (`--busy`).

Each sample runs one variant for a short budget; variants alternate within a round so that the
neighbours' load drifts over all alike. Reported: the median wall-clock and process CPU time per
product. Usage: `python bench/gemm_threads.py [--rounds 7] [--busy]`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

import numba
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from bench._common import fmt_time, print_json, print_table  # noqa: E402
from core.backends.numba.library import products  # noqa: E402
from core.jit import disk_cache, gemm, threads  # noqa: E402, F401  (loads the back end)

SHAPES = (  # (m, k, n) of products in the train steps of bench/models_step.py
    (128, 784, 128),  # MLP, first layer, batch 128
    (16, 256, 1024),  # LSTM step
    (1024, 128, 512),  # transformer MLP block
    (392, 288, 64),  # CNN conv2, one im2col chunk
    (128, 3136, 256),  # CNN dense
    (8192, 147, 64),  # ResNet-10 stem conv
    (1000, 1000, 1000),
)


def sample(fn, budget: float) -> tuple[float, float]:
    fn()
    n, t0, c0 = 0, time.perf_counter(), time.process_time()
    while n < 3 or time.perf_counter() - t0 < budget:
        fn()
        n += 1
    return (time.perf_counter() - t0) / n, (time.process_time() - c0) / n


def variants(a, b, out) -> dict:
    blas = threads.blas_libraries()

    def openblas(k):
        def run():
            for lib in blas:
                lib.set_threads(k)
            try:
                np.dot(a, b, out=out)
            finally:
                for lib in blas:
                    lib.set_threads(1)

        return run

    def one_thread():
        before = numba.get_num_threads()
        numba.set_num_threads(1)
        try:
            products.bands(a, b, out)
        finally:
            numba.set_num_threads(before)

    return {
        "one call": lambda: np.dot(a, b, out=out),
        "bands, 1 thread": one_thread,
        "bands": lambda: products.bands(a, b, out),
        "OpenBLAS 2 threads": openblas(2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--budget", type=float, default=0.05)
    parser.add_argument("--busy", action="store_true")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    cases = {}
    for m, k, n in SHAPES:
        a, b = rng.random((m, k), dtype=np.float32), rng.random((k, n), dtype=np.float32)
        cases[f"{m}x{k}x{n}"] = variants(a, b, np.empty((m, n), np.float32))
    names = list(next(iter(cases.values())))
    hog = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if args.busy else None
    load = os.getloadavg()
    samples = {c: {v: [] for v in names} for c in cases}
    try:
        for r in range(args.rounds):
            for case, fns in cases.items():
                for v in names[r % len(names) :] + names[: r % len(names)]:
                    samples[case][v].append(sample(fns[v], args.budget))
    finally:
        if hog is not None:
            hog.kill()
            hog.wait()
    res = {
        c: {
            v: {
                "wall": statistics.median(s[0] for s in xs),
                "cpu": statistics.median(s[1] for s in xs),
            }
            for v, xs in by_v.items()
        }
        for c, by_v in samples.items()
    }
    rows = [
        [c, *(f"{fmt_time(r[v]['wall'])} ({fmt_time(r[v]['cpu'])})" for v in names)]
        for c, r in res.items()
    ]
    busy = ", one busy process competing" if args.busy else ""
    print_table(
        f"float32 products, wall (CPU) per product, medians of {args.rounds} rounds{busy}; "
        f"load average {load[0]:.1f}",
        ["m x k x n", *names],
        rows,
    )
    print_json("gemm_threads", {"busy": args.busy, "load": load, "results": res})


if __name__ == "__main__":
    main()
