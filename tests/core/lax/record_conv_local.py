"""Records JAX 0.10.2's `lax.conv_general_dilated_local` on `conv_local_cases.run`'s inputs
into `jax_conv_local.npz`. Run with the reference venv from this directory:
`/opt/ref/bin/python record_conv_local.py`."""

import pathlib

import jax
import numpy as np
from conv_local_cases import run

if __name__ == "__main__":
    np.savez(pathlib.Path(__file__).parent / "jax_conv_local.npz", **run(jax, jax.lax))
