"""With x64 enabled, JAX 0.10.2 makes bools and integers of up to 32 bits float32 where a
function needs an inexact dtype (`dtypes.to_inexact_dtype`), and only 64-bit integers
float64; `angle` and `rint` of integers use the default float (dtypes recorded from JAX)."""

import numpy as np
import pytest

import core
import core.numpy as jnp

FUNCTIONS = {
    "sin": jnp.sin,
    "sinc": jnp.sinc,
    "sqrt": jnp.sqrt,
    "true_divide": lambda x: jnp.true_divide(x, x),
    "mean": jnp.mean,
    "var": jnp.var,
    "std": jnp.std,
    "nanvar": jnp.nanvar,
    "average": jnp.average,
    "histogram_bin_edges": lambda x: jnp.histogram_bin_edges(x, 3),
    "linspace": lambda x: jnp.linspace(x[0], x[1], 3),
    "norm": jnp.linalg.norm,
    "angle": jnp.angle,
    "rint": jnp.rint,
}
DEFAULT_FLOAT = {"angle", "rint"}


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int32", "uint32", "int64"])
@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_inexact_dtype_under_x64_is_jaxs(name, dtype):
    want = "float64" if dtype == "int64" or name in DEFAULT_FLOAT else "float32"
    with core.enable_x64():
        out = FUNCTIONS[name](jnp.asarray(np.array([1, 0, 1], dtype)))
    assert out.dtype == np.dtype(want)
