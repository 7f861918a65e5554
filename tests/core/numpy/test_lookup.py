"""jnp.searchsorted as JAX 0.10.2 (answers recorded from JAX): the order is lax.sort's, so NaN
queries go after every number and -0.0 equals 0.0; complex values compare by real then
imaginary part; the side and method are checked with JAX's messages."""

import numpy as np
import pytest

import core
import core.numpy as jnp

NAN = float("nan")
A = [1.0, 2.0, 2.0, 3.0, NAN]
V = [0.0, 2.0, 2.5, 3.0, 4.0, NAN, -np.inf]


@pytest.mark.parametrize(
    "a, v, side, want",
    [
        (A, V, "left", [0, 1, 3, 3, 4, 4, 0]),
        (A, V, "right", [0, 3, 3, 4, 4, 5, 0]),
        ([-0.0, 0.0], [0.0, -0.0], "left", [0, 0]),
        ([-0.0, 0.0], [0.0, -0.0], "right", [2, 2]),
        (
            [1 + 1j, 1 + 2j, complex(NAN, 0)],
            [1 + 1.5j, 1 + 2j, 5 + 0j, complex(NAN, 0)],
            "left",
            [1, 1, 2, 2],
        ),
        ([1 + 1j, 1 + 2j, complex(NAN, 0)], [1 + 1.5j, 1 + 2j, 5 + 0j], "right", [1, 2, 2]),
        ([1, 2, 3], [2, 4, -1], "right", [2, 3, 0]),
    ],
)
def test_searchsorted_sort_order(a, v, side, want):
    for method in ("scan", "scan_unrolled", "sort", "compare_all"):
        got = jnp.searchsorted(jnp.array(a), jnp.array(v), side=side, method=method)
        assert got.dtype == jnp.int32
        np.testing.assert_array_equal(got, want)


# Unsorted `a` (answers recorded from JAX): "scan"/"scan_unrolled" bisect, "sort" and
# "compare_all" count the entries before each value.
UNSORTED = [
    ([3.0, 2.0, 1.0], [0.5, 1.5, 1.5, 2.0, 3.5, 4.0], "right", "scan", [0, 0, 0, 3, 3, 3]),
    ([3.0, 2.0, 1.0], [0.5, 1.5, 1.5, 2.0, 3.5, 4.0], "left", "scan", [0, 0, 0, 0, 3, 3]),
    ([3.0, 2.0, 1.0], [0.5, 1.5, 1.5, 2.0, 3.5, 4.0], "right", "sort", [0, 1, 1, 2, 3, 3]),
    ([3.0, 2.0, 1.0], [0.5, 1.5, 1.5, 2.0, 3.5, 4.0], "right", "compare_all", [0, 1, 1, 2, 3, 3]),
    ([5, 1, 4, 2, 3], [0, 1, 2, 3, 4, 5, 6], "left", "scan", [0, 0, 2, 2, 2, 5, 5]),
    ([5, 1, 4, 2, 3], [0, 1, 2, 3, 4, 5, 6], "right", "scan_unrolled", [0, 2, 2, 2, 5, 5, 5]),
    ([], [1.0], "left", "scan", [0]),
]


@pytest.mark.parametrize("a, v, side, method, want", UNSORTED)
def test_searchsorted_unsorted_as_each_method_of_jax(a, v, side, method, want):
    got = jnp.searchsorted(jnp.array(a), jnp.array(v), side=side, method=method)
    np.testing.assert_array_equal(got, want)


def test_searchsorted_bisects_under_vmap():
    got = core.vmap(lambda q: jnp.searchsorted(jnp.array([1, 3, 5, 7]), q))(jnp.array([0, 3, 8]))
    np.testing.assert_array_equal(got, [0, 1, 4])


@pytest.mark.parametrize(
    "kw, message",
    [
        ({"side": "middle"}, "invalid argument side='middle', expected 'left' or 'right'"),
        (
            {"method": "bogus"},
            "invalid argument method='bogus', expected one of "
            "['compare_all', 'scan', 'scan_unrolled', 'sort']",
        ),
    ],
)
def test_searchsorted_argument_errors(kw, message):
    with pytest.raises(ValueError) as e:
        jnp.searchsorted(jnp.array([1.0, 2.0]), 1.5, **kw)
    assert str(e.value) == message


def test_searchsorted_of_a_2d_array_has_jaxs_first_line():
    with pytest.raises(ValueError) as info:
        jnp.searchsorted(jnp.ones((2, 2)), jnp.array([2.0]))
    assert str(info.value).splitlines()[0] == "a should be 1-dimensional"  # JAX 0.10.2


# take_along_axis(mode="one_hot"): JAX 0.10.2's answers (out-of-bounds rows give 0, an inf on
# the axis turns the products NaN, bools stay bools, the array's dtype is kept)
X34 = np.arange(12.0).reshape(3, 4)
ONE_HOT = [
    (X34, [[0, 3, -1, 5]], 1, [[0.0, 3.0, 3.0, 0.0], [4.0, 7.0, 7.0, 0.0], [8.0, 11.0, 11.0, 0.0]]),
    (X34, [[2], [-3], [7]], 0, [[8.0, 9.0, 10.0, 11.0], [0.0, 1.0, 2.0, 3.0], [0.0] * 4]),
    (np.array([True, False, True]), [1, 2, 4], 0, [False, True, False]),
    (np.array([1.0, np.inf], np.float32), [0], 0, [NAN]),
    (np.arange(6, dtype=np.int8).reshape(2, 3), [[2, 0], [1, 1]], 1, [[2, 0], [4, 4]]),
]


@pytest.mark.parametrize("x, idx, axis, want", ONE_HOT)
def test_take_along_axis_one_hot_mode(x, idx, axis, want):
    got = jnp.take_along_axis(jnp.asarray(x), jnp.array(idx), axis=axis, mode="one_hot")
    assert got.dtype == jnp.asarray(x).dtype
    np.testing.assert_array_equal(got, want)
    jitted = core.jit(lambda a, i: jnp.take_along_axis(a, i, axis=axis, mode="one_hot"))
    np.testing.assert_array_equal(jitted(jnp.asarray(x), jnp.array(idx)), want)


def test_take_along_axis_none_axis_wants_1d_indices():
    with pytest.raises(ValueError, match=r"indices must be 1D if axis=None, got shape \(1, 1\)"):
        jnp.take_along_axis(jnp.zeros((3, 4)), jnp.array([[0]]), axis=None)


def test_searchsorted_compare_all_needs_no_rank_promotion():
    # JAX's tests run with rank promotion "raise"; the method's internal comparison must not
    # rely on it (answers from JAX)
    with core.numpy_rank_promotion("raise"):
        got = jnp.searchsorted(jnp.array([1.0, 2.0, 3.0]), jnp.array([[0.5, 2.0], [3.0, 9.0]]),
                               method="compare_all")  # fmt: skip
    np.testing.assert_array_equal(got, [[0, 1], [2, 3]])


def test_searchsorted_method_takes_jaxs_keywords():
    got = jnp.array([1.0, 2.0, 3.0]).searchsorted(jnp.array([2.0]), side="right", method="sort")
    np.testing.assert_array_equal(got, [2])


@pytest.mark.parametrize(  # JAX 0.10.2: an IndexError for any mode, eagerly and under jit
    "shape, idx, axis, mode",
    [
        ((2, 0, 4), [0], 1, None),
        ((2, 0, 4), [0], 1, "clip"),
        ((0,), [0], None, None),
        ((0, 2), [1], 0, "fill"),
    ],
)
def test_take_of_nonempty_indices_from_an_empty_axis(shape, idx, axis, mode):
    for take in (jnp.take, core.jit(jnp.take, static_argnames=("axis", "mode"))):
        with pytest.raises(
            IndexError, match="Cannot do a non-empty jnp.take\\(\\) from an empty axis"
        ):
            take(jnp.ones(shape), jnp.array(idx), axis=axis, mode=mode)


def test_take_of_empty_indices_and_numbaxs_empty_axis_users():
    assert jnp.take(jnp.ones((2, 0, 4)), jnp.array([], jnp.int32), axis=1).shape == (2, 0, 4)
    # the quantiles of an empty axis stay numpy's NaN, unique's padding of an empty array fills
    assert np.isnan(jnp.quantile(jnp.zeros((0,)), 0.5))
    np.testing.assert_array_equal(jnp.unique(jnp.array([]), size=3, fill_value=1.0), [1.0] * 3)
