"""Records JAX's `jax.scipy.stats` values for binom, betabinom, multinomial, pareto, gumbel_l,
gumbel_r, mode, rankdata and sem into `jax_stats_more.json` (the cases of `stats_more_cases.py`).
Run with the reference venv from the worktree root:
`/opt/ref/bin/python tests/core/scipy/record_stats_more.py`."""

import json
import math
import pathlib
import sys

import jax
import jax.numpy as jnp
import jax.scipy.stats as stats
import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from stats_more_cases import CASES, SAMPLE  # noqa: E402


def _l(x):
    return [None if math.isnan(v) else v for v in np.asarray(x, np.float64).ravel().tolist()]


def _out(x):
    return {"shape": list(np.shape(x)), "dtype": str(x.dtype), "values": _l(x)}


def main() -> None:
    table = {}
    for label, module, fn, args in CASES:
        args = [jnp.asarray(a, jnp.float32) for a in args]
        table[label] = _out(getattr(getattr(stats, module), fn)(*args))
    counts = jnp.asarray([[1, 2, 1], [0, 4, 0]])
    probs = jnp.asarray([0.2, 0.5, 0.3])
    table["multinomial.pmf"] = _out(stats.multinomial.pmf(counts, 4, probs))
    table["multinomial.logpmf"] = _out(stats.multinomial.logpmf(counts[0], 5, probs))
    sample = jnp.asarray(SAMPLE)
    for axis in (0, 1, None):
        m = stats.mode(sample, axis=axis)
        table[f"mode_{axis}"] = {"mode": _out(m.mode), "count": _out(m.count)}
        table[f"sem_{axis}"] = _out(stats.sem(sample, axis=axis))
    m = stats.mode(sample, axis=1, keepdims=True)
    table["mode_keepdims"] = {"mode": _out(m.mode), "count": _out(m.count)}
    table["mode_int"] = {"mode": _out(stats.mode(jnp.asarray([3, 1, 3, 1, 2])).mode)}
    for method in ("average", "min", "max", "dense", "ordinal"):
        table[f"rankdata_{method}"] = _out(stats.rankdata(sample, method))
        table[f"rankdata_{method}_axis1"] = _out(stats.rankdata(sample, method, axis=1))
    table["rankdata_nan"] = _out(stats.rankdata(jnp.asarray([1.0, jnp.nan, 0.0])))
    table["sem_ddof0"] = _out(stats.sem(sample, axis=1, ddof=0, keepdims=True))
    out = pathlib.Path(__file__).parent / "jax_stats_more.json"
    out.write_text(json.dumps({"jax": jax.__version__, "cases": table}) + "\n")


if __name__ == "__main__":
    main()
