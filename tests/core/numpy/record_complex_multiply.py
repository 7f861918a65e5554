"""Records JAX's complex `jnp.multiply` (eager and jitted agree) on the cases of
`complex_multiply_cases.py` into `jax_complex_multiply.json`. Run with the reference venv from
the worktree root: `/opt/ref/bin/python tests/core/numpy/record_complex_multiply.py`."""

import json
import pathlib
import sys

import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_enable_x64", True)
sys.path.insert(0, str(pathlib.Path(__file__).parent))
import complex_multiply_cases as cases  # noqa: E402


def main() -> None:
    table = {}
    for dtype in ("complex64", "complex128"):
        for name in cases.SHAPES:
            x, y = cases.operands(name, dtype)
            out = np.asarray(jnp.multiply(x, y))
            assert np.array_equal(out, np.asarray(jax.jit(jnp.multiply)(x, y)))
            table[f"{dtype}|{name}"] = [out.real.ravel().tolist(), out.imag.ravel().tolist()]
    path = pathlib.Path(__file__).parent / "jax_complex_multiply.json"
    path.write_text(json.dumps(table) + "\n")
    print(f"{len(table)} cases -> {path}")


if __name__ == "__main__":
    main()
