"""Records JAX's `jax.random` on `rbg` and `unsafe_rbg` keys (the cases of `rbg_cases.py`)
into `jax_random_rbg.json`. Run with the reference venv from the worktree root:
`/opt/ref/bin/python tests/core/record_random_rbg.py`."""

import json
import pathlib
import sys

import jax
import numpy as np
from jax import random

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import rbg_cases  # noqa: E402


def main() -> None:
    table = {}
    for impl in ("rbg", "unsafe_rbg"):
        k = random.key(42, impl=impl)
        out = {"key": np.asarray(random.key_data(k)).tolist(), "dtype": str(k.dtype)}
        for name, fn in rbg_cases.CASES.items():
            if name == "vmap_uniform":
                value = jax.vmap(lambda k: random.uniform(k, (2,)))(random.split(k, 3))
            elif name == "jit_uniform":
                value = jax.jit(lambda k: random.uniform(k, (5,)))(k)
            else:
                value = fn(random, k)
            out[name] = np.asarray(value).tolist()
        table[impl] = out
    path = pathlib.Path(__file__).parent / "jax_random_rbg.json"
    path.write_text(json.dumps(table) + "\n")
    print(f"-> {path}")


if __name__ == "__main__":
    main()
