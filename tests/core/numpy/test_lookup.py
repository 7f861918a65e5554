"""jnp.searchsorted as JAX 0.10.2 (answers recorded from JAX): the order is lax.sort's, so NaN
queries go after every number and -0.0 equals 0.0; complex values compare by real then
imaginary part; the side and method are checked with JAX's messages."""

import numpy as np
import pytest

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
