"""Records JAX's `make_jaxpr` text for the table of `jaxpr_cases.py` into `jax_jaxprs.json`.
Run with the reference venv from the worktree root:
`/opt/ref/bin/python tests/core/record_jaxprs.py`."""

import json
import pathlib
import sys
import types
import warnings

import flax.linen as linen
import jax
import jax.numpy as jnp
import jax.scipy.linalg  # noqa: F401  (jax.scipy.linalg for the table)
import jax.scipy.special  # noqa: F401  (jax.scipy.special for the table)
import optax
from jax import lax, nn

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from jaxpr_cases import cases, out_types  # noqa: E402


def main() -> None:
    warnings.simplefilter("ignore")
    m = types.SimpleNamespace(jax=jax, jnp=jnp, lax=lax, nn=nn, linen=linen, optax=optax)
    texts, types_ = {}, {}
    for name, (fun, args) in cases(m).items():
        try:
            closed = jax.make_jaxpr(fun)(*args)
        except Exception as e:  # noqa: BLE001  (recorded: the test skips it)
            texts[name] = f"error: {type(e).__name__}: {e}"
            continue
        texts[name], types_[name] = str(closed), out_types(closed)
    out = pathlib.Path(__file__).parent / "jax_jaxprs.json"
    record = {"jax": jax.__version__, "jaxprs": texts, "out_types": types_}
    out.write_text(json.dumps(record, indent=0) + "\n")


if __name__ == "__main__":
    main()
