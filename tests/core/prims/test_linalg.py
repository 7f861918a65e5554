"""dot_general on operands of two dtypes: JAX 0.10.2's result dtype (XLA's "higher precision"
type, not numpy's promotion) and values (both operands converted to it first, as XLA on the
CPU), in both promotion modes."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax

X = [200, 3, 7]
Y = [2, -1, 100]


# (lhs dtype, rhs dtype, preferred_element_type, JAX's result dtype, JAX's value of X . Y)
MIXED = [
    ("uint8", "int8", None, "int8", 73),  # 200 wraps to -56 in int8
    ("uint8", "int8", "int32", "int32", 1097),
    ("int16", "uint32", None, "uint32", 1097),
    ("complex64", "uint32", None, "complex64", 12884902912),
    ("bool", "int8", None, "int8", 101),
    ("bfloat16", "int16", "float32", "float32", 1097),
    ("float32", "int32", None, "float32", 1097),
]


@pytest.mark.parametrize("promotion", ["standard", "strict"])
@pytest.mark.parametrize("a, b, pet, want_dtype, want", MIXED)
def test_dot_of_two_dtypes_as_jax(a, b, pet, want_dtype, want, promotion):
    x = np.array(X).astype(jnp.bfloat16 if a == "bfloat16" else a)
    y = np.array(Y).astype(b)
    with core.numpy_dtype_promotion(promotion):
        out = lax.dot(x, y, preferred_element_type=pet)
    assert out.dtype == np.dtype(want_dtype)
    assert np.asarray(out).astype(np.complex128).real == want
