"""Records JAX's `jnp.linspace` on the cases of `linspace_cases.py` into `jax_linspace.json`:
each result's dtype, shape and bytes (hex), and with `retstep` the step's. Run with the
reference venv from the worktree root: `/opt/ref/bin/python tests/core/numpy/record_linspace.py`."""

import json
import pathlib
import sys

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from linspace_cases import cases  # noqa: E402


def _bytes(x) -> list:
    a = np.asarray(x)
    return [str(a.dtype), list(a.shape), a.tobytes().hex()]


def main() -> None:
    table = {}
    for name, (start, stop, kw) in cases().items():
        out = jnp.linspace(start, stop, **kw)
        table[name] = [_bytes(o) for o in (out if kw.get("retstep") else [out])]
    path = pathlib.Path(__file__).parent / "jax_linspace.json"
    path.write_text(json.dumps({"jax": jax.__version__, "cases": table}, indent=0) + "\n")


if __name__ == "__main__":
    main()
