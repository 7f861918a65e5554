"""Records JAX's `jax.scipy.linalg` hessenberg, polar and special matrices into
`jax_linalg_more.json`. Run with the reference venv from the worktree root:
`/opt/ref/bin/python tests/core/scipy/record_linalg_more.py`."""

import json
import pathlib

import jax
import jax.numpy as jnp
import jax.scipy.linalg as L
import numpy as np


def _out(x):
    x = np.asarray(x)
    re = np.real(x).astype(np.float64).ravel().tolist()
    im = np.imag(x).astype(np.float64).ravel().tolist() if np.iscomplexobj(x) else None
    return {"shape": list(x.shape), "dtype": str(x.dtype), "re": re, "im": im}


def main() -> None:
    rng = np.random.default_rng(3)
    a = rng.normal(size=(4, 4)).astype(np.float32)
    tall = rng.normal(size=(2, 5, 3)).astype(np.float32)
    t = {"a": a.tolist(), "tall": tall.tolist()}
    h, q = L.hessenberg(a, calc_q=True)
    t["hessenberg_h"], t["hessenberg_q"] = _out(h), _out(q)
    t["hessenberg_only"] = _out(L.hessenberg(a))
    for side, x in (("right", tall), ("left", np.swapaxes(tall, -1, -2))):
        for method in ("qdwh", "svd"):
            u, p = L.polar(jnp.asarray(x), side, method=method)
            t[f"polar_{side}_{method}"] = {"u": _out(u), "p": _out(p)}
    t["pascal"] = _out(L.pascal(5))
    t["pascal_lower"] = _out(L.pascal(4, "lower"))
    t["invpascal"] = _out(L.invpascal(4))
    t["invpascal_upper"] = _out(L.invpascal(4, "upper"))
    t["invhilbert"] = _out(L.invhilbert(4))
    t["helmert"] = _out(L.helmert(4))
    t["helmert_full"] = _out(L.helmert(4, full=True))
    t["hadamard"] = _out(L.hadamard(8))
    t["hadamard_f32"] = _out(L.hadamard(2, jnp.float32))
    t["dft"] = _out(L.dft(3))
    t["dft_sqrtn"] = _out(L.dft(4, "sqrtn"))
    t["fiedler"] = _out(L.fiedler(jnp.asarray([1.0, 4.0, -2.0])))
    t["fiedler_companion"] = _out(L.fiedler_companion(jnp.asarray([2.0, 1.0, -3.0, 4.0, 5.0])))
    t["leslie"] = _out(L.leslie(jnp.asarray([0.1, 2.0, 1.0]), jnp.asarray([0.2, 0.8])))
    kernel = jnp.asarray([1.0, 2.0, 3.0])
    for mode in ("full", "valid", "same"):
        t[f"convolution_matrix_{mode}"] = _out(L.convolution_matrix(kernel, 5, mode))
    out = pathlib.Path(__file__).parent / "jax_linalg_more.json"
    out.write_text(json.dumps({"jax": jax.__version__, **t}) + "\n")


if __name__ == "__main__":
    main()
