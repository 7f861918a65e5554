"""Known answers from a differential run of `core.nn` against `jax.nn` (JAX 0.10.2): each case
below once differed from JAX. Values were recorded from JAX, not computed here."""

import numpy as np
import pytest

import core.nn as nn

NAN, INF = float("nan"), float("inf")


@pytest.mark.parametrize(
    "fn, x, want",
    [
        (nn.relu, [NAN, -1.0, 2.0], [NAN, 0.0, 2.0]),
        (nn.relu6, [NAN, -1.0, 7.0, 3.0], [NAN, 0.0, 6.0, 3.0]),
        (nn.hard_sigmoid, [NAN, 0.0], [NAN, 0.5]),
    ],
)
def test_nan_propagates(fn, x, want):
    np.testing.assert_array_equal(fn(np.array(x, np.float32)), np.array(want, np.float32))


@pytest.mark.parametrize("axis, want", [(None, -INF), (0, [-INF, -INF])])
def test_logsumexp_of_empty_is_minus_inf(axis, want):
    got = nn.logsumexp(np.zeros((0, 2), np.float32), axis=axis)
    np.testing.assert_array_equal(got, np.array(want, np.float32))


@pytest.mark.parametrize(
    "x, kwargs, want",
    [
        # "fast" (JAX's default) clips a variance that cancelled below zero.
        ([1e4, 1e4 + 1e-3, 1e4], {}, [0.0, 0.30881616473197937, 0.0]),
        (
            [1.0, 2.0, 4.0, 8.0],
            {"algorithm": "stable"},
            [-1.0257545709609985, -0.6527529358863831, 0.09325041621923447, 1.5852570533752441],
        ),
    ],
)
def test_standardize_algorithms(x, kwargs, want):
    got = nn.standardize(np.array(x, np.float32), **kwargs)
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_standardize_rejects_unknown_algorithm():
    with pytest.raises(ValueError):
        nn.standardize(np.ones(3, np.float32), algorithm="exact")


def test_relu6_of_integers_is_float():
    got = nn.relu6(np.array([-1, 3, 9], np.int32))
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, [0.0, 3.0, 6.0])
