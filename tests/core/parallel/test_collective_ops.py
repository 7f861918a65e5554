"""The collectives of a running pmap (core/parallel/collective_ops.py and the compiled
exchange, core/backends/numba/library/exchange.py): pmax and pmin over several devices skip
NaNs as XLA's CPU all-reduce does, an element NaN on every device becomes -inf (inf), and
one device keeps its NaN; compiled and op-by-op runs agree. The values are JAX 0.10.2's
(8 host devices)."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax

NAN = np.nan
CASES = [  # (collective, input, JAX 0.10.2's result on every device)
    ("pmax", [1.0, NAN, 3, 0, -1, 2, 5, 4], 5.0),
    ("pmax", [NAN, 1.0, 3, 0, -1, 2, 5, 4], 5.0),
    ("pmin", [1.0, 2, 3, 0, -1, 2, 5, NAN], -1.0),
    ("pmax", [NAN] * 4, -np.inf),
    ("pmin", [NAN] * 4, np.inf),
    ("pmax", [NAN], NAN),
]


@pytest.mark.parametrize("jit", [True, False])
@pytest.mark.parametrize(("name", "values", "want"), CASES)
def test_pmax_and_pmin_skip_nans_as_jax_on_cpu_devices(name, values, want, jit):
    fn = core.pmap(lambda x: getattr(lax, name)(x, "i"), axis_name="i")
    x = np.float32(values)
    if jit:
        got = np.asarray(fn(x))
    else:
        with core.disable_jit():
            got = np.asarray(fn(x))
    np.testing.assert_array_equal(got, np.full(len(values), want, np.float32))


def test_all_nan_columns_of_bfloat16_and_large_arrays():
    # JAX 0.10.2: [[inf, 1]] * 4 (bfloat16), and 1.0 wherever one device has a number
    fn = core.pmap(lambda x: lax.pmin(x, "i"), axis_name="i")
    got = fn(jnp.array([[NAN, 1.0]] * 4, jnp.bfloat16))
    np.testing.assert_array_equal(np.float32(got), np.float32([[np.inf, 1.0]] * 4))
    big = np.float32([[NAN] * 3000, [1.0] * 3000] * 4)  # shared (in-place) reductions
    got = core.pmap(lambda x: lax.pmax(x, "i"), axis_name="i")(big)
    np.testing.assert_array_equal(got, np.ones((8, 3000), np.float32))
