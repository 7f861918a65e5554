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
        (lambda: signal.convolve(A, K, method="bogus"), ModeError),
        (lambda: signal.convolve(A, K[0]), ShapeMismatchError),
        (lambda: signal.convolve(np.ones((2, 5)), np.ones((3, 2))), ShapeMismatchError),
        (lambda: signal.convolve2d(A, K), ShapeMismatchError),
        (lambda: signal.correlate2d(A[0], K[0], boundary="wrap"), NotImplementedError),
    ],
)
def test_errors(call, exc):
    with pytest.raises(exc):
        call()


# JAX 0.10.2's answers (a differential run, tools/jax_differential conv_windows): method="fft"
# is fftconvolve, in the promoted inexact dtype; the errors' first lines
FA = np.float32([[1, -2, 3, 0.5], [2, 0, -1, 4], [0.5, 1.5, 2, -3]])
FB = np.float32([[1, 0.5], [-1, 2]])


@pytest.mark.parametrize(
    "call, want",
    [
        (
            lambda: signal.convolve(FA, FB, mode="full", method="fft"),
            [
                [1.0, -1.5, 2.0, 2.0, 0.25],
                [1.0, 5.0, -8.0, 9.0, 3.0],
                [-1.5, 5.75, 3.75, -8.0, 6.5],
                [-0.5, -0.5, 1.0, 7.0, -6.0],
            ],
        ),
        (
            lambda: signal.convolve(FA, FB, mode="same", method="fft"),
            [[1.0, -1.5, 2.0, 2.0], [1.0, 5.0, -8.0, 9.0], [-1.5, 5.75, 3.75, -8.0]],
        ),
        (
            lambda: signal.convolve(FA, FB, mode="valid", method="fft"),
            [[5.0, -8.0, 9.0], [5.75, 3.75, -8.0]],
        ),
        (
            lambda: signal.correlate(FA, FB, mode="same", method="fft"),
            [[2.0, -5.0, 8.0, -2.0], [4.5, -2.0, -2.5, 12.25], [2.0, 4.5, 2.0, -7.0]],
        ),
        (
            lambda: signal.convolve(np.int8([1, 2, 3]), np.int8([1, -1]), method="fft"),
            [1.0, 1.0, 1.0, -3.0],
        ),
    ],
)
def test_fft_method(call, want):
    got = call()
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(
    "call, exc, first_line",
    [
        (
            lambda: signal.convolve(np.ones(3), np.ones(2), method="bogus"),
            ValueError,
            "Got method='bogus'; expected 'auto', 'fft', or 'direct'.",
        ),
        (
            lambda: signal.convolve(np.ones((3, 2)), np.ones((2, 3))),
            ValueError,
            "One input must be smaller than the other in every dimension.",
        ),
        (
            lambda: signal.convolve(np.ones((3, 2)), np.ones(2)),
            ValueError,
            "in1 and in2 must have the same number of dimensions",
        ),
        (
            lambda: signal.convolve(np.ones((3, 0)), np.ones((2, 1))),
            ValueError,
            "zero-size arrays not supported in convolutions, got shapes (3, 0) and (2, 1).",
        ),
        (
            lambda: signal.convolve2d(np.ones((3, 2)), np.ones((2, 1)), boundary="wrap"),
            NotImplementedError,
            "convolve2d() only supports boundary='fill', fillvalue=0",
        ),
        (
            lambda: signal.correlate2d(np.ones((3, 2, 1)), np.ones((2, 1, 1))),
            ValueError,
            "correlate2d() only supports 2-dimensional inputs.",
        ),
    ],
)
def test_errors_start_with_jaxs_first_line(call, exc, first_line):
    with pytest.raises(exc) as info:
        call()
    assert str(info.value).split("\n")[0] == first_line


def test_grads_and_jit():
    x, k = np.float64([1.0, -2.0, 0.5, 3.0]), np.float64([0.5, 2.0])
    with core.enable_x64():
        check_grads(lambda a, b: signal.convolve(a, b, mode="same"), (x, k), order=2)
        check_grads(lambda y: integrate.trapezoid(y, dx=0.5), (x,), order=1)
    got = core.jit(signal.convolve2d)(A[0], K[0])
    np.testing.assert_allclose(got, ssig.convolve2d(A[0], K[0]), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("args, pos", [(([1.0, 2.0], [1.0, 0.5]), 0), ((np.ones(2), [1.0]), 1)])
def test_fftconvolve_refuses_lists(args, pos):
    # JAX 0.10.2: TypeError "fftconvolve requires ndarray or scalar arguments, got <class
    # 'list'> at position 0."
    first = "fftconvolve requires ndarray or scalar arguments, got <class 'list'> at position"
    with pytest.raises(TypeError, match=f"^{first} {pos}\\."):
        signal.fftconvolve(*args)
