"""jnp.sort_complex's result dtype is JAX 0.10.2's `to_complex_dtype` of the input's (recorded
from JAX): complex128 only for the 64-bit types, with no type promotion, so integer inputs sort
under strict promotion too."""

import numpy as np
import pytest

import core
import core.numpy as jnp


@pytest.mark.parametrize(
    "dtype, x64, want",
    [
        ("int8", False, np.complex64),
        ("bool", False, np.complex64),
        ("float16", False, np.complex64),
        ("bfloat16", False, np.complex64),
        ("uint32", False, np.complex64),
        ("int32", True, np.complex64),
        ("float32", True, np.complex64),
        ("float64", True, np.complex128),
        ("int64", True, np.complex128),
    ],
)
def test_sort_complex_dtype(dtype, x64, want):
    with core.enable_x64(x64), core.numpy_dtype_promotion("strict"):
        got = jnp.sort_complex(jnp.array([3, 1, 2], dtype=dtype))
    assert got.dtype == want
    want_values = [1, 1, 1] if dtype == "bool" else [1, 2, 3]
    np.testing.assert_array_equal(got, np.array(want_values, want))


def test_lexsort_of_scalar_keys_is_zero():
    # JAX's: a 1-D array is a sequence of scalar keys, and scalars sort to index 0
    got = jnp.lexsort(jnp.array([3.0, 1.0, 2.0]))
    assert got.shape == () and got.dtype == jnp.int32 and got == 0
    np.testing.assert_array_equal(
        jnp.lexsort([jnp.array([1, 1, 0]), jnp.array([3, 1, 2])]), [1, 2, 0]
    )
