"""Records JAX's `lax.linalg.hessenberg`, `tridiagonal`, `householder_product`, `ormqr` and
`cholesky_update` on fixed inputs into `jax_linalg_reductions.json`. Run with the reference venv
from the worktree root: `/opt/ref/bin/python tests/core/lax/record_linalg_reductions.py`."""

import json
import pathlib

import jax
import jax.numpy as jnp
import numpy as np
from jax._src.lax.linalg import geqrf
from jax.lax import linalg


def _l(x):
    return np.asarray(x, np.float64).tolist()


def main() -> None:
    rng = np.random.default_rng(7)
    square = rng.normal(size=(2, 4, 4)).astype(np.float32)
    sym = (square + np.swapaxes(square, -1, -2)).astype(np.float32)
    tall = rng.normal(size=(5, 3)).astype(np.float32)
    c = rng.normal(size=(5, 2)).astype(np.float32)
    table = {"square": _l(square), "sym": _l(sym), "tall": _l(tall), "c": _l(c)}
    h, taus = linalg.hessenberg(jnp.asarray(square))
    table["hessenberg"] = {"a": _l(h), "taus": _l(taus)}
    for lower in (True, False):
        a, d, e, t = linalg.tridiagonal(jnp.asarray(sym), lower=lower)
        table[f"tridiagonal_{lower}"] = {"a": _l(a), "d": _l(d), "e": _l(e), "taus": _l(t)}
    qa, qt = geqrf(jnp.asarray(tall))
    table["geqrf"] = {"a": _l(qa), "taus": _l(qt)}
    table["householder_product"] = _l(linalg.householder_product(qa, qt))
    for left, transpose, cc in [(True, False, c), (True, True, c), (False, False, c.T[:, :5])]:
        out = linalg.ormqr(qa, qt, jnp.asarray(cc), left=left, transpose=transpose)
        table[f"ormqr_{left}_{transpose}"] = _l(out)
    spd = square[0] @ square[0].T + 4 * np.eye(4, dtype=np.float32)
    r = np.linalg.cholesky(spd).T.astype(np.float32)
    w = rng.normal(size=4).astype(np.float32)
    table["chol"] = {"r": _l(r), "w": _l(w)}
    table["cholesky_update"] = _l(linalg.cholesky_update(jnp.asarray(r), jnp.asarray(w)))
    out = pathlib.Path(__file__).parent / "jax_linalg_reductions.json"
    out.write_text(json.dumps({"jax": jax.__version__, **table}) + "\n")


if __name__ == "__main__":
    main()
