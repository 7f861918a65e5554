"""Records Optax 0.2.8's `optax.contrib` runs (`contrib_cases.CASES`) into `optax_contrib.json`.
Run with the reference venv from this directory: `/opt/ref/bin/python record_contrib.py`."""

import json
import pathlib
import warnings

import jax
import jax.numpy as jnp
import optax
from contrib_cases import CASES, run

LIBS = {
    "ad": jax,
    "jnp": jnp,
    "lib": optax,
    "random": jax.random,
    "leaves": jax.tree.leaves,
    "is_key": lambda x: jnp.issubdtype(x.dtype, jax.dtypes.prng_key),
}


def main() -> None:
    warnings.simplefilter("ignore")
    table = {}
    for label, expr, mode, steps in CASES:
        table[label] = run(expr, mode, steps, LIBS)
    out = pathlib.Path(__file__).parent / "optax_contrib.json"
    out.write_text(json.dumps({"optax": optax.__version__, "cases": table}) + "\n")


if __name__ == "__main__":
    main()
