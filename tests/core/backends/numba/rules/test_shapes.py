"""The lowering of `convert_element_type` under jit (core/backends/numba/rules/shapes.py): a
complex operand converts to an integer dtype as its real part does, saturating (NaN is 0), as
JAX 0.10.2's jitted conversions print."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax

INF, NAN = float("inf"), float("nan")

CASES = [  # (operand, dtype, JAX 0.10.2's jitted values)
    ([INF, complex(-INF, 1), 300 - 5j, NAN, 2.9 + 7j], jnp.int8, [127, -128, 127, 0, 2]),
    ([-1 + 2j, 256.5, 7.9 - 1j], jnp.uint8, [0, 255, 7]),
    ([3e9 + 1j, -3e9, 2.5j], jnp.int32, [2147483647, -2147483648, 0]),
    ([1e5 + 1j, -2.5 - 1j], jnp.float16, [INF, -2.5]),
]


@pytest.mark.parametrize("x, dtype, want", CASES)
def test_complex_converts_as_its_real_part(x, dtype, want):
    x = jnp.array(x, jnp.complex64)
    for f in (lambda a: a.astype(dtype), lambda a: lax.convert_element_type(a, dtype)):
        got = core.jit(f)(x)
        assert got.dtype == dtype
        np.testing.assert_array_equal(np.asarray(got), np.asarray(want, dtype))
