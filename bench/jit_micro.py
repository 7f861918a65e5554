"""The JAX tutorial micro-benchmarks under `jit`, and the call overhead of a jitted function.

Cases: `selu` on 1e6 float32 (eager and jit), `jit(grad(sum_logistic))` on 1e6 floats,
`vmap(apply_matrix)` (150x100 matrix, batch of 10) against manual batching, `jnp.dot` of two
3000x3000 matrices, and a jitted `x + 1` on a scalar, a 10-element array and a 20-leaf pytree.
Columns: a hand-written numpy baseline, numbax, JAX and PyTorch (run by the reference
interpreter when it has them). Usage: `python bench/jit_micro.py [--framework NAME]`.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from bench._common import fmt_time, median_time, print_json, print_table, run_reference  # noqa: E402

ALPHA, LAMBDA = 1.6732632423543772, 1.0507009873554805


def _data() -> dict:
    rng = np.random.default_rng(0)
    return {
        "x": rng.standard_normal(1_000_000).astype(np.float32),
        "mat": rng.standard_normal((150, 100)).astype(np.float32),
        "batch": rng.standard_normal((10, 100)).astype(np.float32),
        "big": rng.standard_normal((3000, 3000)).astype(np.float32),
        "scalar": np.float32(1.5),
        "small": np.arange(10, dtype=np.float32),
        "tree": {f"w{i}": np.full(10, i, np.float32) for i in range(20)},
    }


def _numpy(d: dict) -> dict:
    x = d["x"]

    def selu():
        return LAMBDA * np.where(x > 0, x, ALPHA * np.exp(x) - ALPHA)

    def grad_sum_logistic():
        e = np.exp(-x)
        s = 1 / (1 + e)
        return s * s * e

    return {
        "selu eager": selu,
        "selu jit": selu,
        "grad(sum_logistic) jit": grad_sum_logistic,
        "apply_matrix manual batching": lambda: d["batch"] @ d["mat"].T,
        "apply_matrix vmap": lambda: d["batch"] @ d["mat"].T,
        "dot 3000x3000": lambda: d["big"] @ d["big"],
        "call: scalar": lambda: d["scalar"] + 1,
        "call: 10 elements": lambda: d["small"] + 1,
        "call: 20-leaf pytree": lambda: {k: v + 1 for k, v in d["tree"].items()},
    }


def _jax_like(jax, jnp, d: dict, ready) -> dict:
    """The cases for numbax and JAX (same API); `ready` blocks on a result."""
    conv = lambda a: jax.tree_util.tree_map(jnp.asarray, a)  # noqa: E731
    x, mat, batch, big = conv(d["x"]), conv(d["mat"]), conv(d["batch"]), conv(d["big"])
    scalar, small, tree = conv(d["scalar"]), conv(d["small"]), conv(d["tree"])

    def selu(v):
        return LAMBDA * jnp.where(v > 0, v, ALPHA * jnp.exp(v) - ALPHA)

    def sum_logistic(v):
        return jnp.sum(1.0 / (1.0 + jnp.exp(-v)))

    def apply_matrix(v):
        return jnp.dot(mat, v)

    selu_jit = jax.jit(selu)
    grad_jit = jax.jit(jax.grad(sum_logistic))
    manual = jax.jit(lambda b: jnp.dot(b, mat.T))
    vmapped = jax.jit(jax.vmap(apply_matrix))
    dot = jax.jit(jnp.dot)
    plus_one = jax.jit(lambda t: jax.tree_util.tree_map(lambda a: a + 1, t))
    return {
        "selu eager": lambda: ready(selu(x)),
        "selu jit": lambda: ready(selu_jit(x)),
        "grad(sum_logistic) jit": lambda: ready(grad_jit(x)),
        "apply_matrix manual batching": lambda: ready(manual(batch)),
        "apply_matrix vmap": lambda: ready(vmapped(batch)),
        "dot 3000x3000": lambda: ready(dot(big, big)),
        "call: scalar": lambda: ready(plus_one(scalar)),
        "call: 10 elements": lambda: ready(plus_one(small)),
        "call: 20-leaf pytree": lambda: ready(plus_one(tree)),
    }


def _torch(d: dict) -> dict:
    import torch

    t = {k: torch.from_numpy(np.asarray(v)) for k, v in d.items() if k != "tree"}
    tree = {k: torch.from_numpy(v) for k, v in d["tree"].items()}
    x = t["x"]

    def grad_sum_logistic():
        v = x.detach().requires_grad_()
        torch.sum(torch.sigmoid(v)).backward()
        return v.grad

    def selu():
        return torch.nn.functional.selu(x)

    return {
        "selu eager": selu,
        "selu jit": selu,
        "grad(sum_logistic) jit": grad_sum_logistic,
        "apply_matrix manual batching": lambda: t["batch"] @ t["mat"].T,
        "apply_matrix vmap": lambda: torch.vmap(lambda v: t["mat"] @ v)(t["batch"]),
        "dot 3000x3000": lambda: t["big"] @ t["big"],
        "call: scalar": lambda: t["scalar"] + 1,
        "call: 10 elements": lambda: t["small"] + 1,
        "call: 20-leaf pytree": lambda: {k: v + 1 for k, v in tree.items()},
    }


def measure(framework: str) -> dict:
    d = _data()
    if framework == "numpy":
        fns = _numpy(d)
    elif framework == "numbax":
        import core
        import core.numpy as jnp

        fns = _jax_like(core, jnp, d, core.block_until_ready)
    elif framework == "jax":
        import jax
        import jax.numpy as jnp

        jax.config.update("jax_platforms", "cpu")
        fns = _jax_like(jax, jnp, d, jax.block_until_ready)
    elif framework == "torch":
        fns = _torch(d)
    else:
        raise SystemExit(f"unknown framework {framework}")
    return {name: median_time(fn) for name, fn in fns.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--framework", help="measure only this one (numbax|numpy|jax|torch)")
    args = parser.parse_args()
    if args.framework:
        print_json("jit_micro", measure(args.framework))
        return
    ours, base = measure("numbax"), measure("numpy")
    jax_res = run_reference(__file__, ["--framework", "jax"]) or {}
    torch_res = run_reference(__file__, ["--framework", "torch"]) or {}
    rows = []
    for name in ours:
        jx = jax_res.get(name)
        rows.append(
            [
                name,
                fmt_time(base[name]),
                fmt_time(ours[name]),
                fmt_time(jx),
                fmt_time(torch_res.get(name)),
                f"{ours[name] / jx:.2f}x" if jx else "-",
            ]
        )
    print_table(
        "jit micro-benchmarks (median per call)",
        ["case", "numpy", "numbax", "JAX", "PyTorch", "numbax/JAX"],
        rows,
    )
    print_json("jit_micro", {"numbax": ours, "numpy": base, "jax": jax_res, "torch": torch_res})


if __name__ == "__main__":
    main()
