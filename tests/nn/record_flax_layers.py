"""Records Flax 0.12.8 / JAX 0.10.2's answers for test_flax_layers.py: run with the reference
interpreter from the repository root, `$NUMBAX_REF_PYTHON tests/nn/record_flax_layers.py`
(it writes flax_layer_answers.json; JAX and Flax are never numbax dependencies)."""

import json
import sys
from pathlib import Path

import flax.linen as nn
import jax
import jax.numpy as jnp

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.nn.flax_layer_cases import CASES, summary  # noqa: E402

ANSWERS = Path(__file__).with_name("flax_layer_answers.json")

if __name__ == "__main__":
    answers = {name: summary(case(nn, jax, jnp)) for name, case in CASES.items()}
    ANSWERS.write_text(json.dumps(answers, indent=1, sort_keys=True) + "\n")
