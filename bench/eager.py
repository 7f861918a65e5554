"""The cost of one eager op on small arrays: `x + y`, `jnp.exp(x)`, `x @ w`.

Compares numbax's eager dispatch (bind -> EvalTrace -> numpy impl) with plain numpy, and with
JAX eager when the reference interpreter has JAX. Usage: `python bench/eager.py`.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from bench._common import fmt_time, median_time, print_json, print_table, run_reference  # noqa: E402

SIZES = (10, 1000)


def cases(xp: object, asarray) -> dict:
    out = {}
    for n in SIZES:
        x = asarray(np.linspace(-1, 1, n, dtype=np.float32))
        y = asarray(np.linspace(0, 2, n, dtype=np.float32))
        w = asarray(np.ones((n, 8), dtype=np.float32))
        out[f"x + y (n={n})"] = lambda x=x, y=y: x + y
        out[f"exp(x) (n={n})"] = lambda x=x: xp.exp(x)
        out[f"x @ w (n={n}, 8 cols)"] = lambda x=x, w=w: x @ w
    return out


def measure(framework: str) -> dict:
    if framework == "numbax":
        import core.numpy as jnp

        fns = cases(jnp, jnp.asarray)
    elif framework == "numpy":
        fns = cases(np, np.asarray)
    elif framework == "jax":
        import jax
        import jax.numpy as jnp

        jax.config.update("jax_platforms", "cpu")
        fns = {k: (lambda f=f: f().block_until_ready()) for k, f in cases(jnp, jnp.asarray).items()}
    else:
        raise SystemExit(f"unknown framework {framework}")
    return {name: median_time(fn) for name, fn in fns.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--framework", default=None, help="numbax|numpy|jax only")
    args = parser.parse_args()
    if args.framework:
        print_json("eager", measure(args.framework))
        return
    ours, base = measure("numbax"), measure("numpy")
    jax_res = run_reference(__file__, ["--framework", "jax"])
    rows = []
    for name in ours:
        jx = jax_res.get(name) if jax_res else None
        rows.append(
            [
                name,
                fmt_time(base[name]),
                fmt_time(ours[name]),
                fmt_time(jx),
                f"{ours[name] / jx:.2f}x" if jx else "-",
            ]
        )
    print_table(
        "Eager op cost (median per call)", ["op", "numpy", "numbax", "JAX", "numbax/JAX"], rows
    )
    print_json("eager", {"numbax": ours, "numpy": base, "jax": jax_res})


if __name__ == "__main__":
    main()
