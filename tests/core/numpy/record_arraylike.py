"""Records JAX's outcome for every case of `arraylike_cases.py` and each of its slots made a
Python list, into `jax_arraylike.json`. Run with the reference venv from the worktree root:
`/opt/ref/bin/python tests/core/numpy/record_arraylike.py`."""

import json
import pathlib
import sys
import warnings

import jax
import jax.numpy as jnp
import jax.scipy.special

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import arraylike_cases as cases  # noqa: E402

NAMESPACES = {"": jnp, "linalg": jnp.linalg, "fft": jnp.fft, "nn": jax.nn}
NAMESPACES["special"] = jax.scipy.special


def main() -> None:
    warnings.simplefilter("ignore")
    table = {}
    for label, path, args, kwargs in cases.CASES:
        try:
            fn = cases.resolve(NAMESPACES, path)
        except AttributeError:  # not (or no longer) in JAX
            table[label] = {"base": "missing"}
            continue
        table[label] = {"base": cases.outcome(fn, args, kwargs)}
        for slot in cases.slots(args, kwargs):
            table[label][slot] = cases.outcome(fn, *cases.with_list(args, kwargs, slot))
    out = pathlib.Path(__file__).parent / "jax_arraylike.json"
    out.write_text(json.dumps({"jax": jax.__version__, "cases": table}, indent=1) + "\n")


if __name__ == "__main__":
    main()
