"""Records Optax 0.2.8's `optax.experimental.aggregating` runs (`aggregating_cases.run`) into
`optax_aggregating.json`. Run with the reference venv from this directory:
`/opt/ref/bin/python record_aggregating.py`."""

import json
import pathlib

import jax
import jax.numpy as jnp
import optax
from aggregating_cases import run
from optax.experimental import aggregating

LIB = {"jax": jax, "jnp": jnp, "random": jax.random, "optax": optax, "aggregating": aggregating}

if __name__ == "__main__":
    out = pathlib.Path(__file__).parent / "optax_aggregating.json"
    out.write_text(json.dumps({"optax": optax.__version__, "cases": run(LIB)}) + "\n")
