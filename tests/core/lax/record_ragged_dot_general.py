"""Records JAX 0.10.2's `lax.ragged_dot_general` on `ragged_dot_general_cases.run` into
`jax_ragged_dot_general.npz`. Run with the reference venv from this directory:
`/opt/ref/bin/python record_ragged_dot_general.py`."""

import pathlib

import jax
import numpy as np
from ragged_dot_general_cases import run

if __name__ == "__main__":
    np.savez(pathlib.Path(__file__).parent / "jax_ragged_dot_general.npz", **run(jax, jax.lax))
