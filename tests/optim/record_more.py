"""Records Optax 0.2.8's values of `more_cases.compute` into `optax_more.json`. Run with the
reference venv from `tests/optim`: `/opt/ref/bin/python record_more.py`."""

import json
import pathlib

import jax
import jax.numpy as jnp
import optax
from jax.scipy.special import logsumexp
from more_cases import compute


def main() -> None:
    table = compute(optax, jnp, logsumexp, jax.grad)
    out = pathlib.Path(__file__).parent / "optax_more.json"
    out.write_text(json.dumps({"optax": optax.__version__, "values": table}) + "\n")


if __name__ == "__main__":
    main()
