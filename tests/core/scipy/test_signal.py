"""core.scipy.signal and integrate: N-d shapes, errors, derivatives and jit."""

import numpy as np
import pytest
import scipy.signal as ssig

import core
from core.scipy import integrate, signal
from core.scipy.errors import ModeError, ShapeMismatchError
from core.test_util import check_grads

RNG = np.random.RandomState(2)
A = RNG.standard_normal((4, 5, 3)).astype(np.float32)
K = RNG.standard_normal((2, 3, 2)).astype(np.float32)


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("fn", ["convolve", "correlate"])
def test_3d_matches_scipy(fn, mode):
    got = getattr(signal, fn)(A, K, mode=mode)
    want = getattr(ssig, fn)(A, K, mode=mode, method="direct")
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(
    "call,exc",
    [
        (lambda: signal.convolve(A, K, mode="wrap"), ModeError),
        (lambda: signal.convolve(A, K, method="fft"), ModeError),
        (lambda: signal.convolve(A, K[0]), ShapeMismatchError),
        (lambda: signal.convolve(np.ones((2, 5)), np.ones((3, 2))), ShapeMismatchError),
        (lambda: signal.convolve2d(A, K), ShapeMismatchError),
        (lambda: signal.correlate2d(A[0], K[0], boundary="wrap"), NotImplementedError),
    ],
)
def test_errors(call, exc):
    with pytest.raises(exc):
        call()


def test_grads_and_jit():
    x, k = np.float64([1.0, -2.0, 0.5, 3.0]), np.float64([0.5, 2.0])
    with core.enable_x64():
        check_grads(lambda a, b: signal.convolve(a, b, mode="same"), (x, k), order=2)
        check_grads(lambda y: integrate.trapezoid(y, dx=0.5), (x,), order=1)
    got = core.jit(signal.convolve2d)(A[0], K[0])
    np.testing.assert_allclose(got, ssig.convolve2d(A[0], K[0]), rtol=1e-5, atol=1e-5)
