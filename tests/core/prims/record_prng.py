"""Records JAX's results and `make_jaxpr` texts for the cases of `prng_cases.py` into
`jax_prng.json`. Run with the reference venv from the worktree root:
`/opt/ref/bin/python tests/core/prims/record_prng.py`."""

import json
import pathlib
import sys

import jax
import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import prng_cases  # noqa: E402


def main() -> None:
    table = {}
    for name, (fun, args) in prng_cases.cases(jax).items():
        out = np.asarray(fun(*args))
        text = str(jax.make_jaxpr(fun)(*args))
        table[name] = {"dtype": str(out.dtype), "value": out.tolist(), "jaxpr": text}
    out = pathlib.Path(__file__).parent / "jax_prng.json"
    out.write_text(json.dumps(table, indent=1) + "\n")
    print(f"{len(table)} cases -> {out}")


if __name__ == "__main__":
    main()
