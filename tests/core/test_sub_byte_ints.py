"""The sub-byte integers (core/dtypes.py's INTN: jnp.int1/int2/int4/uint1/uint2/uint4), as
JAX 0.10.2 has them: they wrap in their own width, mix only with Python scalars and booleans,
and every other mix raises TypePromotionError."""

import warnings

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.dtypes import TypePromotionError

X = jnp.array([1, 2, -3], dtype=jnp.int4)

# (expression, JAX 0.10.2's values, dtype)
CASES = [
    ("x + x", lambda: X + X, [2, 4, -6], "int4"),
    ("x * 3 wraps", lambda: X * 3, [3, 6, 7], "int4"),
    ("7 + 1 wraps", lambda: jnp.array([7], jnp.int4) + 1, [-8], "int4"),
    ("x + True", lambda: X + True, [2, 3, -2], "int4"),
    ("uint4 wraps", lambda: jnp.array([15], jnp.uint4) + 1, [0], "uint4"),
    ("negation", lambda: -X, [-1, -2, 3], "int4"),
    ("astype float32", lambda: X.astype(jnp.float32), [1.0, 2.0, -3.0], "float32"),
    ("from float", lambda: jnp.array([1.7, -2.2]).astype(jnp.int4), [1, -2], "int4"),
    ("uint2 zeros", lambda: jnp.zeros(2, jnp.uint2), [0, 0], "uint2"),
    ("jit", lambda: core.jit(lambda a: a * 2)(X), [2, 4, -6], "int4"),
]


@pytest.mark.parametrize("name, fn, values, dtype", CASES, ids=[c[0] for c in CASES])
def test_values_and_dtypes_are_jaxs(name, fn, values, dtype):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the numpy fallback of jit for dtypes numba cannot compile
        out = fn()
    assert str(out.dtype) == dtype
    np.testing.assert_array_equal(np.asarray(out).astype(np.float64), values)


@pytest.mark.parametrize(
    "dtype, low, high, bits",
    [(jnp.int1, -1, 0, 1), (jnp.int2, -2, 1, 2), (jnp.int4, -8, 7, 4), (jnp.uint4, 0, 15, 4)],
)
def test_iinfo_and_bits(dtype, low, high, bits):
    info = jnp.iinfo(dtype)
    assert (int(info.min), int(info.max)) == (low, high)
    assert core.dtypes.itemsize_bits(dtype) == bits


def test_subtypes_and_promotion():
    assert jnp.issubdtype(jnp.int4, jnp.integer) and jnp.issubdtype(jnp.int4, jnp.signedinteger)
    assert jnp.issubdtype(jnp.uint2, jnp.unsignedinteger)
    assert not jnp.issubdtype(jnp.uint2, jnp.signedinteger)
    assert not jnp.issubdtype(jnp.int4, jnp.floating) and not jnp.issubdtype(jnp.int8, jnp.int4)
    assert jnp.promote_types(jnp.int4, bool) == jnp.int4
    with pytest.raises(TypePromotionError, match="4-bit integers do not support implicit"):
        jnp.promote_types(jnp.int4, jnp.int8)
    with pytest.raises(TypePromotionError, match="x.astype\\('int32'\\)"):
        X + jnp.ones(3, jnp.int32)
    assert "i4[3]" in str(core.make_jaxpr(lambda a: a + a)(X))
