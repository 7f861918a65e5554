"""JAX 0.10's PRNG implementations in numbax: `random.normal` of a million under `jit`, and of a
thousand eagerly, per implementation, interleaved (medians of 7). Run with JAX in its place by
replacing `core` with `jax` (bench/README.md, "PRNG implementations").

    PYTHONPATH=. python bench/prng_impls.py
"""

import statistics
import time

import core
from core import random

IMPLS = ["threefry2x32", "philox2x32", "philox4x32", "threefry4x32"]


def main() -> None:
    keys = {n: random.key(0, impl=n) for n in IMPLS}
    jitted = {n: core.jit(lambda k: random.normal(k, (1_000_000,))) for n in IMPLS}
    for n in IMPLS:  # compile, and warm the eager path
        jitted[n](keys[n]).block_until_ready()
        random.normal(keys[n], (1000,)).block_until_ready()
    res = {n: {"jit": [], "eager": []} for n in IMPLS}
    for _ in range(7):
        for n in IMPLS:
            t = time.perf_counter()
            jitted[n](keys[n]).block_until_ready()
            res[n]["jit"].append(time.perf_counter() - t)
            t = time.perf_counter()
            random.normal(keys[n], (1000,)).block_until_ready()
            res[n]["eager"].append(time.perf_counter() - t)
    for n in IMPLS:
        jit_ms = statistics.median(res[n]["jit"]) * 1e3
        eager_ms = statistics.median(res[n]["eager"]) * 1e3
        print(f"{n:13s} jit normal(1e6): {jit_ms:7.2f} ms   eager normal(1000): {eager_ms:7.2f} ms")


if __name__ == "__main__":
    main()
