"""Records how many traces JAX makes in each case of `shared_traces_cases.py` into
`jax_shared_traces.json`. Run with the reference venv from the worktree root:
`/opt/ref/bin/python tests/core/jit/record_shared_traces.py`."""

import json
import pathlib
import sys
import types
import warnings

import jax
import jax.numpy as jnp

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from shared_traces_cases import cases, counting  # noqa: E402


def main() -> None:
    warnings.simplefilter("ignore")
    m = types.SimpleNamespace(jax=jax, jnp=jnp)
    table = {}
    for name, scenario in cases().items():
        f, traces = counting(m)
        scenario(m, f)
        table[name] = len(traces)
    path = pathlib.Path(__file__).parent / "jax_shared_traces.json"
    path.write_text(json.dumps({"jax": jax.__version__, "traces": table}, indent=1) + "\n")


if __name__ == "__main__":
    main()
