"""core.numpy set operations against numpy and JAX's `size=`/`fill_value=` padding."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.errors import ConcretizationTypeError

A = np.array([3, 1, 4, 1, 5, 9, 2, 6], np.int32)
B = np.array([[5, 3], [5, 8]], np.int32)
FILL = np.array([7, 8])

# (id, our call, expected values: numpy or JAX 0.10.2 literals, dtype)
CASES = [
    ("union1d", lambda: jnp.union1d(A, B), np.union1d(A, B), "int32"),
    (
        "union1d_promote",
        lambda: jnp.union1d(A, np.array([3.0, 9.0])),
        np.union1d(A, [3.0, 9]),
        "float32",
    ),
    (
        "union1d_size_pad",
        lambda: jnp.union1d(A, B, size=10),
        [1, 2, 3, 4, 5, 6, 8, 9, 1, 1],
        "int32",
    ),
    ("union1d_size_fill", lambda: jnp.union1d(A, B, size=2, fill_value=-1), [1, 2], "int32"),
    ("intersect1d", lambda: jnp.intersect1d(A, B), np.intersect1d(A, B), "int32"),
    ("intersect1d_size", lambda: jnp.intersect1d(A, B, size=4), [3, 5, 3, 3], "int32"),
    (
        "intersect1d_empty",
        lambda: jnp.intersect1d(np.array([1, 2]), np.array([5, 6]), size=3),
        [0, 0, 0],
        "int32",
    ),
    ("setdiff1d", lambda: jnp.setdiff1d(A, B), np.setdiff1d(A, B), "int32"),
    ("setdiff1d_size", lambda: jnp.setdiff1d(A, B, size=7), [1, 2, 4, 6, 9, 0, 0], "int32"),
    (
        "setdiff1d_assume_unique",
        lambda: jnp.setdiff1d(np.array([5, 1, 3]), np.array([1]), assume_unique=True),
        [5, 3],
        "int32",
    ),
    ("setxor1d", lambda: jnp.setxor1d(A, B), np.setxor1d(A, B), "int32"),
    ("setxor1d_size", lambda: jnp.setxor1d(A, B, size=8), [1, 2, 4, 6, 8, 9, 1, 1], "int32"),
    (
        "setxor1d_empty",
        lambda: jnp.setxor1d(np.array([1, 2]), np.array([2, 1]), size=2),
        [0, 0],
        "int32",
    ),
    (  # JAX 0.10.2 (as numpy): assume_unique keeps the values found once in both together
        "setxor1d_assume_unique_drops_repeats",
        lambda: jnp.setxor1d(np.array([1, 1, 2]), np.array([2, 3, 3, 4]), assume_unique=True),
        [4],
        "int32",
    ),
    (
        "setxor1d_assume_unique_size",
        lambda: jnp.setxor1d(np.array([1, 1, 2]), np.array([2, 3]), assume_unique=True, size=3),
        [3, 3, 3],
        "int32",
    ),
    (  # JAX 0.10.2: with jax_numpy_rank_promotion='raise' (below) isin still compares any shapes
        "isin_ranks",
        lambda: jnp.isin(np.array([[1, 5], [2, 7]]), np.array([[[5, 7]]])),
        [[False, True], [False, True]],
        "bool",
    ),
    (
        "intersect1d_ranks",
        lambda: jnp.intersect1d(np.array([[4, 2], [3, 1]]), np.array([2, 4, 6])),
        [2, 4],
        "int32",
    ),
    (  # JAX 0.10.2: a slice-shaped fill_value pads unique(axis=...)
        "unique_axis_fill_slice",
        lambda: jnp.unique(
            np.array([[1, 2, 2], [3, 4, 4]]), axis=1, size=3, fill_value=np.array([7, 8])
        ),
        [[1, 2, 7], [3, 4, 8]],
        "int32",
    ),
    (
        "unique_values_nan",
        lambda: jnp.unique_values(np.array([3.0, 1, np.nan, 1, np.nan])),
        [1, 3, np.nan, np.nan],
        "float32",
    ),
]


@pytest.mark.parametrize("ours,want,dtype", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_values(ours, want, dtype):
    with core.numpy_rank_promotion("raise"):  # set operations broadcast explicitly
        got = ours()
    assert str(got.dtype) == dtype
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want, dtype=dtype))


def test_intersect1d_indices():
    vals, i1, i2 = jnp.intersect1d(A, B, return_indices=True)
    for g, w in zip((vals, i1, i2), np.intersect1d(A, B, return_indices=True)):
        np.testing.assert_array_equal(g, w)
    # JAX pads indices with the (out-of-bounds) sizes of the inputs
    _, i1, i2 = jnp.intersect1d(A, B, return_indices=True, size=4)
    np.testing.assert_array_equal(i1, [0, 4, 8, 8])
    np.testing.assert_array_equal(i2, [1, 0, 4, 4])


@pytest.mark.parametrize("size,fill", [(None, None), (6, 0), (6, None)])
def test_unique_all(size, fill):
    x = np.array([[3, 4, 1], [3, 1, 7]], np.int32)
    res = jnp.unique_all(x, size=size, fill_value=fill)
    ref = np.unique_all(x)
    pad = 0 if size is None else size - 4
    fv = 1 if fill is None else fill  # JAX pads values with the smallest one by default
    np.testing.assert_array_equal(res.values, np.concatenate([ref.values, [fv] * pad]))
    np.testing.assert_array_equal(res.indices, np.concatenate([ref.indices, [2] * pad]))
    np.testing.assert_array_equal(res.inverse_indices, ref.inverse_indices)
    np.testing.assert_array_equal(res.counts, np.concatenate([ref.counts, [0] * pad]))
    assert all(str(r.dtype) == "int32" for r in res)


def test_unique_counts_and_inverse():
    x = np.array([[3.0, 1], [3, 2]], np.float32)
    vals, counts = jnp.unique_counts(x)
    np.testing.assert_array_equal(vals, [1, 2, 3])
    np.testing.assert_array_equal(counts, [1, 1, 2])
    vals, inv = jnp.unique_inverse(x)
    assert inv.shape == x.shape
    np.testing.assert_array_equal(np.asarray(vals)[np.asarray(inv)], x)


def test_unique_results_are_named_as_jaxs():
    x = np.array([3, 1, 3])
    names = [type(f(x)).__name__ for f in (jnp.unique_all, jnp.unique_counts, jnp.unique_inverse)]
    assert names == ["_UniqueAllResult", "_UniqueCountsResult", "_UniqueInverseResult"]


_EMPTY = np.zeros((0,), np.float32)


@pytest.mark.parametrize(
    "call",
    [
        lambda: jnp.unique(_EMPTY, size=2),
        lambda: jnp.unique(_EMPTY, size=2, return_counts=True),
        lambda: jnp.unique(np.zeros((0, 3)), axis=0, size=2),
        lambda: core.jit(lambda a: jnp.unique(a, size=2))(_EMPTY),
        lambda: jnp.unique_counts(_EMPTY, size=2),
    ],
)
def test_padding_an_empty_input_needs_a_fill_value(call):
    with pytest.raises(ValueError, match="for zero-sized input with nonzero size argument, fill"):
        call()


def test_padding_an_empty_input_to_size_zero_or_with_a_fill_value():
    assert jnp.unique(_EMPTY, size=0).shape == (0,)
    np.testing.assert_array_equal(jnp.unique(_EMPTY, size=2, fill_value=7.0), [7.0, 7.0])


def test_jit_needs_size():
    f = core.jit(lambda a, b: jnp.union1d(a, b, size=6))
    np.testing.assert_array_equal(f(A, B), [1, 2, 3, 4, 5, 6])
    with pytest.raises(ConcretizationTypeError, match="size="):  # JAX's class
        core.jit(lambda a, b: jnp.setdiff1d(a, b))(A, B)
    with pytest.raises(ConcretizationTypeError):
        core.jit(jnp.unique_values)(A)


_NAN, _INF = float("nan"), float("inf")
COMPLEX_WITH_NANS = [
    complex(_NAN, -_INF), complex(_INF, 1.5), complex(-0.0, 0), complex(-_INF, -2.5),
    complex(1.5, 2), complex(0, _NAN), complex(-2.5, _INF), complex(3, -0.0),
]  # fmt: skip
_SORTED_NUMBERS = [(-_INF, -2.5), (-2.5, _INF), (-0.0, 0.0), (1.5, 2.0), (3.0, -0.0), (_INF, 1.5)]
# JAX 0.10.2 printed (complex64 and complex128): its unique makes every complex NaN nan + 0j
COMPLEX_UNIQUE_CASES = [
    ("unique", lambda x: jnp.unique(x), [*_SORTED_NUMBERS, (_NAN, 0.0)]),
    (
        "unique_equal_nan_false",
        lambda x: jnp.unique(x, equal_nan=False),
        [*_SORTED_NUMBERS, (_NAN, 0.0), (_NAN, 0.0)],
    ),
    (
        "unique_jit_size",
        lambda x: core.jit(lambda v: jnp.unique(v, size=8))(x),
        [*_SORTED_NUMBERS, (_NAN, 0.0), (-_INF, -2.5)],
    ),
    ("union1d", lambda x: jnp.union1d(x[:4], x[4:]), [*_SORTED_NUMBERS, (_NAN, 0.0)]),
    (
        "setdiff1d",
        lambda x: jnp.setdiff1d(x, x[2:4]),
        [(-2.5, _INF), (1.5, 2.0), (3.0, -0.0), (_INF, 1.5), (_NAN, 0.0)],
    ),
]


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize(
    "name, fn, want", COMPLEX_UNIQUE_CASES, ids=[c[0] for c in COMPLEX_UNIQUE_CASES]
)
def test_complex_nans_are_unique_as_nan_plus_0j(name, fn, want, dtype):
    with core.enable_x64():
        got = np.asarray(fn(jnp.array(COMPLEX_WITH_NANS, dtype)))
    want = np.array([complex(*p) for p in want], dtype)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.view(got.real.dtype), want.view(want.real.dtype))


def test_complex_unique_inverse_maps_both_nans_to_one_value():
    with core.enable_x64():
        _, inverse = jnp.unique(jnp.array(COMPLEX_WITH_NANS), return_inverse=True)
    assert inverse.tolist() == [6, 5, 2, 0, 3, 6, 1, 4]  # JAX 0.10.2 printed
