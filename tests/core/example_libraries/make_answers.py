"""Records `answers.py` from JAX: run once with `/opt/ref/bin/python make_answers.py` (JAX is
never a dependency of numbax; the tests read the recorded constants)."""

import pprint
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
from jax import lax
from jax.example_libraries import optimizers, stax

sys.path.insert(0, str(Path(__file__).parent))
import cases  # noqa: E402

answers = {
    "shapes": [cases.run_shape_case(lax, n, a) for n, a in cases.SHAPE_CASES],
    "stax": {n: cases.run_stax_case(jax, jnp, stax, n) for n in cases.stax_networks(stax)},
    "optimizers": [
        cases.run_optimizer_case(jax, jnp, optimizers, c) for c in cases.OPTIMIZER_CASES
    ],
    "schedules": {
        n: cases.run_schedule_case(jnp, optimizers, n) for n in cases.schedules(optimizers)
    },
    "utils": cases.run_utils(jax, jnp, optimizers),
}
header = (
    f'"""Answers of `cases.py` recorded with JAX {jax.__version__} (float32, CPU) by '
    '`make_answers.py`.\nGenerated data: do not edit by hand."""\n\n# fmt: off\n'
)
out = Path(__file__).parent / "answers.py"
out.write_text(header + "ANSWERS = " + pprint.pformat(answers, width=99, compact=True) + "\n")
print("wrote", out)
