"""Records Flax 0.12.8's runs of `partitioning_transforms_cases.run` into
`flax_partitioning_transforms.json`. Run with the reference venv from this directory:
`/opt/ref/bin/python record_partitioning_transforms.py`."""

import json
import pathlib

import flax.linen as nn
import jax
import jax.numpy as jnp
from flax.linen import partitioning
from partitioning_transforms_cases import run

if __name__ == "__main__":
    out = pathlib.Path(__file__).parent / "flax_partitioning_transforms.json"
    out.write_text(json.dumps(run(jax, jnp, nn, partitioning)) + "\n")
