"""What numbax's thread pool costs a process: its start-up and its first threaded loop.

Each sample is a fresh process (`--child`) that imports numbax and runs a trivial jitted
function (the framework's start-up: `import`, the back end, one small kernel), then the first
call of a jitted elementwise function over 2**20 float32 elements, one threaded kernel whose
loop runs on two threads (where the pool, `core/backends/llvm/pool.py`, loads its code and
starts its worker). It reports the wall and CPU seconds of both parts, whether the pool's code
was loaded and how many pool workers run. Configurations alternate within each round:
`NUMBAX_JIT_THREAD_POOL=1` and `=0`, each cold (an empty cache directory of its own: every
kernel and the pool's code compiled) and warm (a second process on that cache). A process on
one thread (`--threads 1`, as under `mpiexec -n 2` on two cores) should load nothing.

Usage: `python bench/pool_startup.py [--rounds 3] [--threads N]`.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from bench._common import print_json, print_table  # noqa: E402


def child() -> dict:
    """One sample, in this process (see the module docstring)."""
    wall, cpu = time.perf_counter(), time.process_time()
    import numpy as np

    import core.numpy as jnp
    from core import jit
    from core.backends.llvm import pool

    jit(lambda x: x + 1.0)(np.ones(3, np.float32)).block_until_ready()
    started = time.perf_counter(), time.process_time()
    x = np.linspace(-3, 3, 1 << 20).astype(np.float32)
    jit(lambda x: jnp.tanh(x) * 2.0 + 1.0)(x).block_until_ready()
    done = time.perf_counter(), time.process_time()
    return {
        "startup_s": started[0] - wall,
        "startup_cpu_s": started[1] - cpu,
        "first_loop_s": done[0] - started[0],
        "first_loop_cpu_s": done[1] - started[1],
        "code": "code" in pool._current,
        "workers": sum(t.name.startswith("numbax-pool") for t in threading.enumerate()),
    }


def sample(on: bool, cache: str, threads: int | None) -> dict:
    """A child process's sample with the pool `on` or off, on cache directory `cache`."""
    env = dict(os.environ, NUMBAX_JIT_THREAD_POOL=str(int(on)))
    env.update(NUMBAX_CACHE_DIR=cache, NUMBA_CACHE_DIR=cache, PYTHONPATH=ROOT)
    if threads is not None:
        env["NUMBAX_NUM_THREADS"] = str(threads)
    out = subprocess.run(
        [sys.executable, __file__, "--child"], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=None, help="NUMBAX_NUM_THREADS")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child()))
        return
    samples: dict[str, list[dict]] = {}
    for _ in range(args.rounds):
        for on in (True, False):
            with tempfile.TemporaryDirectory() as cache:
                for state in ("cold", "warm"):
                    key = f"pool {'on' if on else 'off'}, {state}"
                    samples.setdefault(key, []).append(sample(on, cache, args.threads))
    fields = ("startup_s", "startup_cpu_s", "first_loop_s", "first_loop_cpu_s")
    rows = [
        [key, *(f"{statistics.median(s[f] for s in runs) * 1e3:.1f}" for f in fields)]
        + [str(runs[-1]["code"]), str(runs[-1]["workers"])]
        for key, runs in samples.items()
    ]
    title = f"Medians of {args.rounds} rounds, ms (load {os.getloadavg()[0]:.1f})"
    print_table(title, ["config", "start-up", "CPU", "first loop", "CPU", "code", "workers"], rows)
    print_json("pool_startup", {"args": vars(args), "samples": samples})


if __name__ == "__main__":
    main()
