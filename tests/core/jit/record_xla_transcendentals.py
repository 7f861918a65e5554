"""Records JAX 0.10.2's jitted float32 and float64 transcendentals (XLA's CPU kernels) for
test_vecmath.py's bit-for-bit test: run with the reference interpreter,
`/opt/ref/bin/python tests/core/jit/record_xla_transcendentals.py` (float32, into
xla_transcendentals.npz) and `... --float64` (into xla_transcendentals_f64.npz, with
`jax_enable_x64`).

Inputs: special values (zeros, infinities, NaN, denormals, extremes, +-1 and the kernels'
thresholds), log-uniform magnitudes of both signs over the whole float32 range and uniform values
in [-10, 10] and [-1, 1]; arctan2 pairs them with a permutation of themselves. 1536 of them: XLA
computes arctan (atan2(x, 1)) of arrays under 64 elements, and of the last elements of a length
that is not a multiple of 16, with its own polynomial instead of the C library's atanf, which
jit calls.
"""

import os
import sys

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

# name -> attribute path under jax (and under core: the test resolves the same path)
OPS = {
    "exp": "numpy.exp",
    "exp2": "numpy.exp2",
    "expm1": "numpy.expm1",
    "log": "numpy.log",
    "log1p": "numpy.log1p",
    "log10": "numpy.log10",
    "tanh": "numpy.tanh",
    "logistic": "lax.logistic",
    "sinh": "numpy.sinh",
    "cosh": "numpy.cosh",
    "arcsinh": "numpy.arcsinh",
    "arccosh": "numpy.arccosh",
    "arctanh": "numpy.arctanh",
    "arcsin": "numpy.arcsin",
    "arccos": "numpy.arccos",
    "arctan": "numpy.arctan",
    "arctan2": "numpy.arctan2",
    "sin": "numpy.sin",
    "cos": "numpy.cos",
    "tan": "numpy.tan",
    "erf": "lax.erf",
    "erf_inv": "lax.erf_inv",
    "cbrt": "numpy.cbrt",
    "lgamma": "lax.lgamma",
    "digamma": "lax.digamma",
    "log2": "numpy.log2",
}
# float64: power too
OPS64 = {**OPS, "power": "numpy.power"}
_NAMESPACES = {"numpy": jnp, "lax": lax}
_BINARY = ("arctan2", "power")


def inputs(n: int = 1500) -> np.ndarray:
    info = np.finfo(np.float32)
    rng = np.random.default_rng(0)
    special = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 2.0, 10.0, 0.1]
    special += [info.max, -info.max, info.tiny, -info.tiny, info.smallest_subnormal, 1e-40]
    special += [-1e-40, info.eps, 1 - info.epsneg, -1 + info.epsneg, 1 + info.eps, 4e-4, 3.9e-4]
    special += [0.41421357, -0.41421357, 7.9988117, 20.0, -20.0, 88.72, 88.8, -87.3, -87.8]
    special += [-104.0, 127.9, 128.0, -126.0, 1.8446743e19, 1.7014117e38, 1.5, 3.0]
    # sin, cos, tan (glibc's reductions and tanf's branches), erf, erf_inv (w = 5 near 0.99663)
    special += [120.0, -120.0, 119.99999, 0.75, 0.7499999, 0.7853982, 2.0**-12, -(2.0**-12)]
    special += [2.0**-13, 0.67433548, -0.67433548, 1.5707964, 3.1415927, 1e30, -3e38, 524288.0]
    special += [3.8325069, -3.8325069, 3.8325067, 0.9966227, 0.9966228, 0.9999999, -0.9999]
    wide = 10.0 ** rng.uniform(-45, 38.5, n // 2) * rng.choice([-1.0, 1.0], n // 2)
    x = np.concatenate([special, wide, rng.uniform(-10, 10, n // 3), rng.uniform(-1, 1, n // 6)])
    with np.errstate(over="ignore"):
        return x.astype(np.float32)[:1536]


def inputs64(n: int = 1500) -> np.ndarray:
    """float64 inputs as `inputs`, with XLA's float64 thresholds (exp's clamps, tanh's, log1p's,
    arcsinh's, arccosh's and erf_inv's)."""
    info = np.finfo(np.float64)
    rng = np.random.default_rng(0)
    special = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 2.0, 10.0, 0.1]
    special += [info.max, -info.max, info.tiny, -info.tiny, info.smallest_subnormal, 1e-310]
    special += [-1e-310, info.eps, 1 - info.epsneg, -1 + info.epsneg, 1 + info.eps, 1e-300]
    special += [0.41421356237309503, -0.41421356237309503, 17.714196154005176, 20.0, -20.0]
    special += [709.78, 709.79, -708.39, -708.4, -745.2, 1024.0, -1022.5, -1075.0, 1.5, 3.0]
    special += [1.3407807929942596e154, 8.98846567431158e307, 1e-20, -1e-20, 4.5e-308]
    special += [0.9990343, 0.99903432, -0.99999994, 0.999999943, 0.9999999999]  # erf_inv's w
    wide = 10.0 ** rng.uniform(-323, 308, n // 2) * rng.choice([-1.0, 1.0], n // 2)
    x = np.concatenate([special, wide, rng.uniform(-10, 10, n // 3), rng.uniform(-1, 1, n // 6)])
    return x[:1536]


def main() -> None:
    wide = "--float64" in sys.argv[1:]
    if wide:
        jax.config.update("jax_enable_x64", True)
    ops = OPS64 if wide else OPS
    x = inputs64() if wide else inputs()
    y = np.random.default_rng(1).permutation(x)
    out = {"x": x, "y": y, "paths": np.array([f"{k}={v}" for k, v in ops.items()])}
    for name, path in ops.items():
        space, attr = path.split(".")
        fn = jax.jit(getattr(_NAMESPACES[space], attr))
        out[name] = np.asarray(fn(x, y) if name in _BINARY else fn(x))
    here = os.path.dirname(os.path.abspath(__file__))
    name = "xla_transcendentals_f64.npz" if wide else "xla_transcendentals.npz"
    np.savez_compressed(os.path.join(here, name), **out)


if __name__ == "__main__":
    main()
