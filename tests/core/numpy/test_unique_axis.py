"""`jnp.unique(..., axis=...)`: the distinct slices, against JAX.

The expected results (values, dtypes, shapes; or the error class) were recorded from JAX 0.10.2
running the same expressions with `jax`/`jax.numpy`.
"""

import math

import numpy as np
import pytest

import core as jax
import core.numpy as jnp

A = "jnp.array([[1, 2], [3, 4], [1, 2], [0, 9]])"
F = "jnp.array([[jnp.nan, 1.0], [jnp.nan, 1.0], [0.0, 1.0]])"
FLAGS = "return_index=True, return_inverse=True, return_counts=True"
# (expression, [(value, dtype, shape) per result] or the error's class name)
CASES = [
    (f"jnp.unique({A}, axis=0)", [([[0, 9], [1, 2], [3, 4]], "int32", (3, 2))]),
    (f"jnp.unique({A}, axis=1)", [([[1, 2], [3, 4], [1, 2], [0, 9]], "int32", (4, 2))]),
    (
        f"jnp.unique({A}, axis=-1, return_inverse=True)",
        [([[1, 2], [3, 4], [1, 2], [0, 9]], "int32", (4, 2)), ([0, 1], "int32", (2,))],
    ),
    (
        f"jnp.unique({A}, axis=0, {FLAGS})",
        [
            ([[0, 9], [1, 2], [3, 4]], "int32", (3, 2)),
            ([3, 0, 1], "int32", (3,)),
            ([1, 2, 1, 0], "int32", (4,)),
            ([1, 2, 1], "int32", (3,)),
        ],
    ),
    (
        f"jnp.unique({A}, axis=0, size=5)",
        [([[0, 9], [1, 2], [3, 4], [0, 9], [0, 9]], "int32", (5, 2))],
    ),
    (
        f"jnp.unique({A}, axis=0, size=5, fill_value=-1, {FLAGS})",
        [
            ([[0, 9], [1, 2], [3, 4], [-1, -1], [-1, -1]], "int32", (5, 2)),
            ([3, 0, 1, 3, 3], "int32", (5,)),
            ([1, 2, 1, 0], "int32", (4,)),
            ([1, 2, 1, 0, 0], "int32", (5,)),
        ],
    ),
    (
        f"jnp.unique({A}, axis=0, size=2, {FLAGS})",
        [
            ([[0, 9], [1, 2]], "int32", (2, 2)),
            ([3, 0], "int32", (2,)),
            ([1, 2, 1, 0], "int32", (4,)),
            ([1, 2], "int32", (2,)),
        ],
    ),
    (
        f"jax.jit(lambda x: jnp.unique(x, axis=0, size=4, {FLAGS}))({A})",
        [
            ([[0, 9], [1, 2], [3, 4], [0, 9]], "int32", (4, 2)),
            ([3, 0, 1, 3], "int32", (4,)),
            ([1, 2, 1, 0], "int32", (4,)),
            ([1, 2, 1, 0], "int32", (4,)),
        ],
    ),
    (
        "jnp.unique(jnp.array([[[1.0, 2.0], [1.0, 2.0]], [[0.0, 0.0], [1.0, 2.0]]]), axis=1)",
        [([[[1.0, 2.0], [1.0, 2.0]], [[0.0, 0.0], [1.0, 2.0]]], "float32", (2, 2, 2))],
    ),
    (
        "jnp.unique(jnp.arange(8).reshape(2, 2, 2) % 3, axis=2, return_counts=True)",
        [([[[0, 1], [2, 0]], [[1, 2], [0, 1]]], "int32", (2, 2, 2)), ([1, 1], "int32", (2,))],
    ),
    (
        f"jnp.unique({F}, axis=0, {FLAGS})",
        [
            ([[0.0, 1.0], [math.nan, 1.0]], "float32", (2, 2)),
            ([2, 0], "int32", (2,)),
            ([1, 1, 0], "int32", (3,)),
            ([1, 2], "int32", (2,)),
        ],
    ),
    (
        f"jnp.unique({F}, axis=0, return_counts=True, equal_nan=False)",
        [
            ([[0.0, 1.0], [math.nan, 1.0], [math.nan, 1.0]], "float32", (3, 2)),
            ([1, 1, 1], "int32", (3,)),
        ],
    ),
    (
        f"jnp.unique(jnp.zeros((0, 3)), axis=0, {FLAGS})",
        [([], "float32", (0, 3)), ([], "int32", (0,)), ([], "int32", (0,)), ([], "int32", (0,))],
    ),
    (
        "jnp.unique(jnp.zeros((0, 3)), axis=0, size=2, fill_value=5.0)",
        [([[5.0, 5.0, 5.0], [5.0, 5.0, 5.0]], "float32", (2, 3))],
    ),
    (
        "jnp.unique(jnp.array([[True, False], [True, False]]), axis=0)",
        [([[True, False]], "bool", (1, 2))],
    ),
    (
        "jnp.unique(jnp.array([3, 1, 3]), axis=0, return_inverse=True)",
        [([1, 3], "int32", (2,)), ([1, 0, 1], "int32", (3,))],
    ),
    (f"jnp.unique({A}, axis=2)", "ValueError"),
    ("jnp.unique(jnp.float32(3), axis=0)", "ValueError"),
]


@pytest.mark.parametrize("expr,expected", CASES, ids=range(len(CASES)))
def test_unique_along_an_axis_matches_jax(expr, expected):
    scope = {"jax": jax, "jnp": jnp}
    if isinstance(expected, str):
        with pytest.raises(Exception) as info:
            eval(expr, scope)
        assert type(info.value).__name__ == expected
        return
    got = eval(expr, scope)
    got = got if isinstance(got, tuple) else (got,)
    assert len(got) == len(expected)
    for x, (value, dtype, shape) in zip(got, expected):
        assert (str(x.dtype), x.shape) == (dtype, shape)
        np.testing.assert_array_equal(np.asarray(x), np.asarray(value, dtype).reshape(shape))


def test_unique_along_an_axis_of_a_traced_array_needs_a_size():
    with pytest.raises(jax.errors.ConcretizationTypeError, match="size argument"):
        jax.jit(lambda x: jnp.unique(x, axis=0))(jnp.ones((3, 2)))


def test_flat_unique_under_jit_takes_the_flags_with_a_size():
    # JAX 0.10.2's results (the flattened elements; the inverse has the input's shape)
    x = jnp.array([[3, 1, 4], [1, 5, 9]])
    flags = dict(return_index=True, return_inverse=True, return_counts=True)
    r = jax.jit(lambda v: jnp.unique(v, **flags, size=6, fill_value=-1))(x)
    want = [[1, 3, 4, 5, 9, -1], [1, 0, 2, 4, 5, 1], [[1, 0, 2], [0, 3, 4]], [2, 1, 1, 1, 1, 0]]
    for got, w in zip(r, want, strict=True):
        np.testing.assert_array_equal(got, w)
        assert str(got.dtype) == "int32"
    f = jnp.array([0.5, jnp.nan, -1.0, 0.5, jnp.nan])
    values, counts = jax.jit(lambda v: jnp.unique(v, return_counts=True, size=3))(f)
    np.testing.assert_array_equal(values, [-1.0, 0.5, np.nan])
    np.testing.assert_array_equal(counts, [1, 2, 2])
    values, inverse = jax.jit(
        lambda v: jnp.unique(v, return_inverse=True, size=4, equal_nan=False)
    )(f)
    np.testing.assert_array_equal(values, [-1.0, 0.5, np.nan, np.nan])
    np.testing.assert_array_equal(inverse, [1, 2, 0, 1, 3])
