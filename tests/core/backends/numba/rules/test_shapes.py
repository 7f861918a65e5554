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


# JAX 0.10.2 printed (jitted, x64): float64 operands beyond an integer's range saturate (the
# int64 maximum came out as the minimum: float64(2**63 - 1) is 2**63, which wrapped)
BIG = [-9.3e18, 9.3e18, 0.0, -1e30, 1e30, 5.5, -7.9, float("nan"), -0.5, 9.2e18]
SATURATED = {
    "int8": [-128, 127, 0, -128, 127, 5, -7, 0, 0, 127],
    "uint8": [0, 255, 0, 0, 255, 5, 0, 0, 0, 255],
    "int32": [-2147483648, 2147483647, 0, -2147483648, 2147483647, 5, -7, 0, 0, 2147483647],
    "int64": [-9223372036854775808, 9223372036854775807, 0, -9223372036854775808,
              9223372036854775807, 5, -7, 0, 0, 9200000000000000000],
    "uint64": [0, 9300000000000000000, 0, 0, 18446744073709551615, 5, 0, 0, 0,
               9200000000000000000],
}  # fmt: skip


@pytest.mark.parametrize("dtype", list(SATURATED))
def test_float_to_integer_saturates_under_jit(dtype):
    with core.enable_x64():
        got = core.jit(lambda x: x.astype(dtype))(np.array(BIG))
    np.testing.assert_array_equal(np.asarray(got), np.array(SATURATED[dtype], dtype))
