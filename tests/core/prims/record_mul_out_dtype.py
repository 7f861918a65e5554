"""Records JAX's answers on the cases of `mul_out_dtype_cases.py` into `jax_mul_out_dtype.json`:
each case's `make_jaxpr` text and its results' dtypes, weak types, shapes and bytes (hex), or
its error's class and first line. Run with the reference venv from the worktree root:
`/opt/ref/bin/python tests/core/prims/record_mul_out_dtype.py`."""

import json
import pathlib
import sys
import types
import warnings

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from mul_out_dtype_cases import cases  # noqa: E402


def _result(x) -> dict:
    a = np.asarray(x)
    weak = bool(getattr(x, "weak_type", False))
    return {"dtype": str(a.dtype), "weak": weak, "shape": list(a.shape), "hex": a.tobytes().hex()}


def main() -> None:
    warnings.simplefilter("ignore")
    m = types.SimpleNamespace(jax=jax, jnp=jnp, lax=lax)
    table = {}
    for name, (fun, args) in cases(m).items():
        try:
            text = str(jax.make_jaxpr(fun)(*args))
            outs = jax.tree.leaves(fun(*args))
        except Exception as e:  # noqa: BLE001  (recorded: the test expects it)
            table[name] = {"error": [type(e).__name__, str(e).splitlines()[0]]}
            continue
        table[name] = {"jaxpr": text, "results": [_result(o) for o in outs]}
    path = pathlib.Path(__file__).parent / "jax_mul_out_dtype.json"
    record = {"jax": jax.__version__, "cases": table}
    path.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
