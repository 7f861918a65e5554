"""Values of `core.numpy` functions where numbax and JAX 0.10.2 differed, with JAX's results
(complex conjugation in vdot/vecdot/correlate, the sign bit, include_initial, ...)."""

import numpy as np
import pytest

import core as jax
import core.numpy as jnp

# (expression, JAX's value, JAX's dtype), recorded from JAX 0.10.2.
CASES = [
    ("jnp.signbit(jnp.array([-1.5, -0.0, 0.0, 1.5]))", [True, True, False, False], "bool"),
    (
        "jnp.signbit(jnp.array([jnp.nan, -jnp.nan, jnp.inf, -jnp.inf]))",
        [False, True, False, True],
        "bool",
    ),
    ("jnp.signbit(jnp.array([-2, 0, 2]))", [True, False, False], "bool"),
    (
        "jnp.cumulative_prod(jnp.array([[1, 2, 3], [4, 5, 6]]), axis=1, include_initial=True)",
        [[1, 1, 2, 6], [1, 4, 20, 120]],
        "int32",
    ),
    (
        "jnp.cumulative_sum(jnp.array([[1, 2, 3], [4, 5, 6]]), axis=0, include_initial=True)",
        [[0, 0, 0], [1, 2, 3], [5, 7, 9]],
        "int32",
    ),
    ("jnp.vdot(jnp.array([1j, 2j, 3j]), jnp.array([1.0, 2.0, 3.0]))", -14j, "complex64"),
    ("jnp.vdot(jnp.array([[1 + 1j, 2]]), jnp.array([[3j, 1 - 1j]]))", (5 + 1j), "complex64"),
    ("jnp.linalg.vecdot(jnp.array([1j, 2j, 3j]), jnp.array([4.0, 5.0, 6.0]))", -32j, "complex64"),
    (
        "jnp.vecdot(jnp.array([[1 + 2j, 3], [4, 5j]]), jnp.array([[1j, 1], [2, 2]]))",
        [(5 + 1j), (8 - 10j)],
        "complex64",
    ),
    (
        "jnp.correlate(jnp.array([3 + 1j, 2, 2 - 3j]), jnp.array([4, 2 - 5j, 1]), mode='full')",
        [(3 + 1j), (3 + 17j), (18 + 11j), (27 + 4j), (8 - 12j)],
        "complex64",
    ),
    (
        "jnp.correlate(jnp.array([3 + 1j, 2]), jnp.array([4, 2 - 5j, 1]), mode='same')",
        [(3 + 17j), (16 + 14j), (8 + 0j)],
        "complex64",
    ),
    ("jnp.correlate(jnp.array([1.0, 2.0, 3.0]), jnp.array([0.0, 1.0, 0.5]))", [3.5], "float32"),
]


@pytest.mark.parametrize("expr, value, dtype", CASES, ids=[c[0] for c in CASES])
def test_value_as_in_jax(expr, value, dtype):
    out = eval(expr, {"jnp": jnp, "jax": jax})
    assert np.asarray(out).dtype.name == dtype
    np.testing.assert_allclose(np.asarray(out), np.asarray(value), rtol=1e-6, atol=1e-6)
