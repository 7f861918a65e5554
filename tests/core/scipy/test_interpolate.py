"""core.scipy.interpolate.RegularGridInterpolator against JAX's recorded results
(interpolate_answers.py): linear and nearest, inside and outside the grid, fill values,
trailing value dimensions, integer values; plus jit (the interpolator is a pytree), grad and
JAX's errors."""

import numpy as np
import pytest

import core
from core.scipy.errors import ModeError, ShapeMismatchError, UnsupportedOptionError
from core.scipy.interpolate import RegularGridInterpolator
from tests.core.scipy.interpolate_answers import RESULTS

X = np.float32([0.0, 0.5, 1.5, 3.0])
Y = np.float32([-1.0, 0.0, 2.0])
V = np.arange(12, dtype=np.float32).reshape(4, 3) ** 1.3
V3 = np.stack([V, -V], -1)
P = np.float32([[0.2, -0.5], [1.0, 1.9], [3.0, 2.0], [-0.1, 0.0], [2.9, 2.5], [0.5, 0.0]])
CASES = [
    ((X, Y), V, {}, P, None),
    ((X, Y), V, {"method": "nearest"}, P, None),
    ((X, Y), V, {"fill_value": None}, P, None),
    ((X, Y), V, {"fill_value": -7.0}, P, "nearest"),
    ((X, Y), V3, {}, P.reshape(2, 3, 2), None),
    ((X,), V, {}, np.float32([0.1, 2.0, 3.5]), None),
    ((X, Y), np.arange(12, dtype=np.int32).reshape(4, 3), {"fill_value": None}, P, None),
]


@pytest.mark.parametrize("i", range(len(CASES)))
def test_matches_jax(i):
    points, values, kwargs, xi, method = CASES[i]
    got = np.asarray(RegularGridInterpolator(points, values, **kwargs)(xi, method=method))
    want = RESULTS[i]
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def test_transformations():
    interp = RegularGridInterpolator((X, Y), V)
    got = core.jit(lambda f, xi: f(xi))(interp, P)
    np.testing.assert_allclose(got, RESULTS[0], rtol=1e-6, atol=1e-6)
    # The tuple form of xi; linear in the values, so d/dvalues is the interpolation weights.
    got = interp((P[:, 0], P[:, 1]))
    np.testing.assert_allclose(got, RESULTS[0], rtol=1e-6, atol=1e-6)
    g = core.grad(lambda v: RegularGridInterpolator((X, Y), v)(P[:1])[0])(V)
    assert g.shape == V.shape and np.isclose(g.sum(), 1.0) and np.count_nonzero(g) == 4


def test_errors():
    with pytest.raises(ModeError, match="method 'cubic'"):
        RegularGridInterpolator((X, Y), V, method="cubic")
    with pytest.raises(UnsupportedOptionError, match="bounds_error"):
        RegularGridInterpolator((X, Y), V, bounds_error=True)
    with pytest.raises(ShapeMismatchError, match="3 point arrays"):
        RegularGridInterpolator((X, Y, Y), V)
    with pytest.raises(ShapeMismatchError, match="dimension 3"):
        RegularGridInterpolator((X, Y), V)(np.zeros((2, 3), np.float32))
