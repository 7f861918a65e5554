"""Values of `core.numpy` functions where numbax and JAX 0.10.2 differed, with JAX's results
(complex conjugation in vdot/vecdot/correlate, the sign bit, include_initial, ...)."""

import numpy as np
import pytest

import core as jax
import core.numpy as jnp

nan = np.nan

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
    ("jnp.linalg.diagonal(jnp.arange(24).reshape(2, 3, 4))", [[0, 5, 10], [12, 17, 22]], "int32"),
    ("jnp.linalg.diagonal(jnp.arange(12).reshape(3, 4), offset=1)", [1, 6, 11], "int32"),
    ("jnp.linalg.trace(jnp.arange(24).reshape(2, 3, 4))", [15, 51], "int32"),
    ("jnp.linalg.trace(jnp.arange(12).reshape(3, 4), offset=-1)", 13, "int32"),
    ("jnp.bincount(jnp.array([-1, -1, 1, 3, 10]), length=5)", [2, 1, 0, 1, 0], "int32"),
    ("jnp.bincount(jnp.array([-2, 0, 1]))", [2, 1], "int32"),
    (
        "jnp.sort_complex(jnp.array([1 + 2j, 2 + 4j, 3 - 1j, 2 + 3j]))",
        [(1 + 2j), (2 + 3j), (2 + 4j), (3 - 1j)],
        "complex64",
    ),
    (
        "jnp.sort_complex(jnp.array([[5, 3, 4], [6, 9, 2]]))",
        [[(3 + 0j), (4 + 0j), (5 + 0j)], [(2 + 0j), (6 + 0j), (9 + 0j)]],
        "complex64",
    ),
    (
        "jnp.quantile(jnp.array([0, 1, 2, jnp.nan, 3]), jnp.array([0.25, 0.5]))",
        [nan, nan],
        "float32",
    ),
    ("jnp.percentile(jnp.array([0, 1, 2, jnp.nan, 3]), 50)", nan, "float32"),
    ("jnp.median(jnp.array([[1.0, jnp.nan], [2.0, 3.0]]), axis=1)", [nan, 2.5], "float32"),
    (
        "jnp.full_like(jnp.arange(6).reshape(2, 3), fill_value=jnp.array([[1], [2]]))",
        [[1, 1, 1], [2, 2, 2]],
        "int32",
    ),
    (
        "jnp.fft.hfft(jnp.array([[1, 3, 5, 7], [2, 4, 6, 8]]))",
        [[24.0, -8.0, 0.0, -2.0, 0.0, -8.0], [30.0, -8.0, 0.0, -2.0, 0.0, -8.0]],
        "float32",
    ),
    (
        "jnp.fft.hfft(jnp.array([[1 + 2j, 3 - 4j, 5 + 6j], [2 - 3j, 4 + 5j, 6 - 7j]]))",
        [[12.0, -12.0, 0.0, 4.0], [16.0, 6.0, 0.0, -14.0]],
        "float32",
    ),
    (
        "jnp.fft.hfft(jnp.array([[1, 3, 5, 7], [2, 4, 6, 8]]), n=3, axis=0)",
        [[5.0, 11.0, 17.0, 23.0], [-1.0, -1.0, -1.0, -1.0], [-1.0, -1.0, -1.0, -1.0]],
        "float32",
    ),
    (
        "jnp.fft.ihfft(jnp.array([[1, 3, 5, 7], [2, 4, 6, 8]]))",
        [[(4 + 0j), (-1 - 1j), (-1 - 0j)], [(5 + 0j), (-1 - 1j), (-1 - 0j)]],
        "complex64",
    ),
    ("jnp.heaviside(jnp.array([-2, 0, 3]), jnp.array([2, 0.5, 1]))", [0.0, 0.5, 1.0], "float32"),
    ("jax.grad(jax.grad(jnp.sinc))(0.0)", -3.2898683547973633, "float32"),
    ("jax.grad(jax.grad(jax.grad(jax.grad(jnp.sinc))))(0.0)", 19.481821060180664, "float32"),
    ("jax.grad(jnp.sinc)(0.5)", -1.2732396125793457, "float32"),
]


@pytest.mark.parametrize("expr, value, dtype", CASES, ids=[c[0] for c in CASES])
def test_value_as_in_jax(expr, value, dtype):
    out = eval(expr, {"jnp": jnp, "jax": jax})
    assert np.asarray(out).dtype.name == dtype
    np.testing.assert_allclose(
        np.asarray(out), np.asarray(value), rtol=1e-6, atol=1e-6, equal_nan=True
    )
    assert np.shape(out) == np.shape(value)


# jnp.promote_types treats the Python types int/float/complex as weakly typed (JAX 0.10.2).
@pytest.mark.parametrize(
    "a, b, want",
    [
        ("uint8", int, "uint8"),
        ("float16", float, "float16"),
        (int, "int8", "int8"),
        (bool, "int8", "int8"),
        ("bfloat16", complex, "complex64"),
        ("int8", "int16", "int16"),
    ],
)
def test_promote_types_with_python_types(a, b, want):
    assert jnp.promote_types(a, b) == jnp.dtype(want)


def test_size_of_several_axes():
    x = jnp.ones((2, 3, 4))
    assert (jnp.size(x), jnp.size(x, 1), jnp.size(x, (0, 2)), jnp.size(x, axis=(-1,))) == (
        24,
        3,
        8,
        4,
    )
