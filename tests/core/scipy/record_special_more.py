"""Records JAX's `jax.scipy.special` erfcx, dawsn, spence and bernoulli (values, in float32 and
float64, and first derivatives) into `jax_special_more.json`. Run with the reference venv from
the worktree root: `/opt/ref/bin/python tests/core/scipy/record_special_more.py`."""

import json
import math
import pathlib

import jax
import jax.numpy as jnp
import numpy as np
from jax.scipy import special

jax.config.update("jax_enable_x64", True)

POINTS = {
    "erfcx": [-3.0, -0.5, 0.0, 0.3, 1.0, 4.0, 9.0, 12.0, 30.0, 1e4],
    "dawsn": [-8.0, -3.0, -0.5, 0.0, 0.2, 1.0, 3.3, 5.0, 7.0, 50.0],
    "spence": [-1.0, 0.0, 0.2, 0.5, 0.9, 1.0, 1.2, 1.7, 2.5, 10.0],
}


def _l(x):
    return [None if math.isnan(v) else v for v in np.asarray(x, np.float64).ravel().tolist()]


def main() -> None:
    table = {"points": POINTS}
    for name, pts in POINTS.items():
        fn = getattr(special, name)
        for dt in ("float32", "float64"):
            x = jnp.asarray(pts, dt)
            table[f"{name}_{dt}"] = _l(fn(x))
            table[f"{name}_{dt}_grad"] = _l(jax.vmap(jax.grad(fn))(x))
    table["bernoulli"] = _l(special.bernoulli(12))
    table["bernoulli_2"] = _l(special.bernoulli(2))
    out = pathlib.Path(__file__).parent / "jax_special_more.json"
    out.write_text(json.dumps({"jax": jax.__version__, **table}) + "\n")


if __name__ == "__main__":
    main()
