"""Threaded jit kernels under numba's threading layers: TBB (numbax's choice, fork-safe) vs
GNU OpenMP (numba's default on Linux, which kills a process forked after a parallel kernel).

Each layer runs in its own process (a layer is fixed per process); rounds alternate between the
layers so that load on the machine affects both alike, and the table shows the median over
rounds. Usage: `python bench/threading_layer.py [--rounds 5]`.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from bench._common import fmt_time, print_json, print_table  # noqa: E402

LAYERS = ("tbb", "omp")
CHILD = """
import json, sys
import numpy as np
import core.numpy as jnp, core.nn as cnn
from core.jit.api import jit
from core.jit import fork_safety
sys.path.insert(0, sys.argv[1])
from bench._common import median_time
from bench.mlp_step import numbax_runner

selu = jit(lambda x: cnn.selu(x) * 2.0)
tanh = jit(lambda x: jnp.tanh(x) * 0.5 + 1.0)
x = jnp.asarray(np.random.default_rng(0).standard_normal(1_000_000).astype(np.float32))
y = x[: 1 << 18]
print(json.dumps({
    "layer": fork_safety.threading_layer(),
    "selu 1e6": median_time(lambda: selu(x)),
    "tanh 2^18": median_time(lambda: tanh(y)),
    "mlp step, batch 128": median_time(numbax_runner(128)),
}))
"""


def run(layer: str) -> dict:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, NUMBA_THREADING_LAYER=layer, PYTHONPATH=root)
    out = subprocess.run(
        [sys.executable, "-c", CHILD, root], env=env, capture_output=True, text=True, check=True
    )
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result.pop("layer") == layer
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    samples: dict[str, list[dict]] = {layer: [] for layer in LAYERS}
    for _ in range(args.rounds):
        for layer in LAYERS:
            samples[layer].append(run(layer))
    kernels = list(samples[LAYERS[0]][0])
    results = {
        layer: {k: statistics.median(s[k] for s in runs) for k in kernels}
        for layer, runs in samples.items()
    }
    rows = [
        [k, *(fmt_time(results[layer][k]) for layer in LAYERS)]
        + [f"{results['tbb'][k] / results['omp'][k]:.2f}"]
        for k in kernels
    ]
    print_table(
        f"threaded kernels, median of {args.rounds} alternating rounds",
        ["kernel", *LAYERS, "tbb/omp"],
        rows,
    )
    print_json("threading_layer", results)


if __name__ == "__main__":
    main()
