"""Records JAX's `jax.scipy.stats` dtypes, weak types, values and errors for the cases of
`stats_typing_cases.py` into `jax_stats_typing.json`. Run with the reference venv from the
worktree root: `/opt/ref/bin/python tests/core/scipy/record_stats_typing.py`."""

import json
import math
import pathlib
import sys

import jax
import jax.numpy as jnp
import jax.scipy.stats as stats
import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from stats_typing_cases import CASES  # noqa: E402


def _arg(kind, value):
    return value if kind == "py" else jnp.asarray(value, kind)


def main() -> None:
    table = {}
    for label, module, fn, args in CASES:
        try:
            out = getattr(getattr(stats, module), fn)(*(_arg(*a) for a in args))
        except Exception as e:  # noqa: BLE001
            table[label] = {"error": type(e).__name__, "message": str(e).split("\n")[0]}
            continue
        values = np.asarray(out, np.float64).ravel().tolist()
        table[label] = {
            "shape": list(out.shape),
            "dtype": str(out.dtype),
            "weak_type": bool(out.weak_type),
            "values": [None if math.isnan(v) else v for v in values],
        }
    out = pathlib.Path(__file__).parent / "jax_stats_typing.json"
    out.write_text(json.dumps({"jax": jax.__version__, "cases": table}) + "\n")


if __name__ == "__main__":
    main()
