"""Records Flax 0.12.8's tables of `summary_cases.tables` into `flax_tables.json`. Run with the
reference venv from this directory: `PYTHONHASHSEED=3 /opt/ref/bin/python record_summary.py`
(Flax orders the variable collections as a set of their names does; this seed gives the sorted
order numbax uses)."""

import json
import pathlib

import flax.linen as nn
import jax
import jax.numpy as jnp
from summary_cases import tables

if __name__ == "__main__":
    out = pathlib.Path(__file__).parent / "flax_tables.json"
    answers = {name: draw() for name, draw in tables(jax, jnp, nn).items()}
    out.write_text(json.dumps(answers, indent=1, ensure_ascii=False) + "\n")
