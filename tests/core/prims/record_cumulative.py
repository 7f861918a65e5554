"""Records JAX's cumsum/cumprod on the cases of `cumulative_cases.py` into
`jax_cumulative.json` (each result's bytes as a SHA-256, and its first and last values). Run
with the reference venv from the worktree root:
`/opt/ref/bin/python tests/core/prims/record_cumulative.py`."""

import hashlib
import json
import pathlib
import sys

import jax
import numpy as np
from jax import lax

jax.config.update("jax_enable_x64", True)
sys.path.insert(0, str(pathlib.Path(__file__).parent))
import cumulative_cases as cases  # noqa: E402


def main() -> None:
    table = {}
    for name, dtype, shape, axis, reverse, op in cases.cases():
        x = cases.operand(name, dtype, shape, op)
        out = np.asarray(getattr(lax, op)(x, axis=axis, reverse=reverse))
        assert out.dtype == x.dtype, name
        ends = out.ravel()[[0, -1]].astype(np.complex128)
        table[name] = {
            "sha256": hashlib.sha256(np.ascontiguousarray(out).tobytes()).hexdigest(),
            "ends": [[v.real, v.imag] for v in ends.tolist()],
        }
    path = pathlib.Path(__file__).parent / "jax_cumulative.json"
    path.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
