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
