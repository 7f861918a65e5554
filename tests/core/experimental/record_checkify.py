"""Records JAX's outcome of every case of `checkify_cases.py` into `jax_checkify.json`. Run with
the reference venv from the worktree root:
`/opt/ref/bin/python tests/core/experimental/record_checkify.py`."""

import json
import pathlib
import sys
import types

import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import checkify

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import checkify_cases  # noqa: E402


def main() -> None:
    ns = types.SimpleNamespace(jax=jax, jnp=jnp, lax=lax, checkify=checkify)
    table = {name: case() for name, case in checkify_cases.cases(ns).items()}
    out = pathlib.Path(__file__).parent / "jax_checkify.json"
    out.write_text(json.dumps({"jax": jax.__version__, "cases": table}, indent=1) + "\n")


if __name__ == "__main__":
    main()
