"""What jitted functions keep in memory after they are deleted (README, Reliability).

Each cycle jits a new function, calls it on `--shapes` input shapes (one compiled signature
each) and deletes it; the table shows the process's resident memory after each cycle and the
growth per signature, in two modes, each in a fresh process:

* compile: the disk cache is off (`NUMBAX_CACHE_MAX_SIZE=0`), so every signature is compiled;
* load: the disk cache is warm, so every signature is loaded from it.

numbax frees the jaxprs, dispatchers and generated modules (the "live" columns count them);
what remains is native memory numba never gives back (its LLVM execution engine keeps every
module it was given). Usage: `python bench/jit_memory.py [--shapes 30] [--cycles 5]`.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from bench._common import print_json, print_table  # noqa: E402

CHILD = """
import gc, json, os, sys
import numpy as np
import core.numpy as jnp
from core.jit import disk_cache
from core.jit.api import jit

def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20

def make():
    def f(x):
        return jnp.tanh(x * 2.0 + 1.0).sum()
    return jit(f)

shapes, cycles = int(sys.argv[1]), int(sys.argv[2])
out = []
for _ in range(cycles):
    g = make()
    for n in range(4, 4 + shapes):
        g(np.ones(n, np.float32))
    del g
    gc.collect()
    live = sum(k.startswith("numbax_jit_") for k in sys.modules) + len(disk_cache._DISPATCHERS)
    out.append({"rss_mb": rss_mb(), "live": live})
print(json.dumps(out))
"""


def run(mode: str, shapes: int, cycles: int, cache: str) -> list[dict]:
    env = dict(os.environ, NUMBAX_CACHE_DIR=cache, NUMBA_CACHE_DIR=os.path.join(cache, "numba"))
    if mode == "compile":
        env["NUMBAX_CACHE_MAX_SIZE"] = "0"
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = root
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(shapes), str(cycles)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shapes", type=int, default=30)
    parser.add_argument("--cycles", type=int, default=5)
    args = parser.parse_args()
    results = {}
    with tempfile.TemporaryDirectory() as cache:
        run("load", args.shapes, 1, cache)  # fill the disk cache
        for mode in ("compile", "load"):
            cycles = run(mode, args.shapes, args.cycles, cache)
            growth = (cycles[-1]["rss_mb"] - cycles[0]["rss_mb"]) / (len(cycles) - 1)
            results[mode] = {
                "rss_mb": [round(c["rss_mb"], 1) for c in cycles],
                "live_after_delete": [c["live"] for c in cycles],
                "kb_per_signature": round(growth * 1024 / args.shapes, 1),
            }
    rows = [
        [mode, " ".join(map(str, r["rss_mb"])), max(r["live_after_delete"]), r["kb_per_signature"]]
        for mode, r in results.items()
    ]
    print_table(
        f"memory after each cycle ({args.shapes} signatures, then the function is deleted)",
        ["mode", "RSS per cycle (MB)", "live modules+dispatchers", "KB kept per signature"],
        rows,
    )
    print_json("jit_memory", results)


if __name__ == "__main__":
    main()
