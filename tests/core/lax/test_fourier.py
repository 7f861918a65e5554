"""lax.fft and lax.FftType (core/lax/fourier.py) against numpy.fft, with JAX's checks."""

import numpy as np
import pytest

import core
from core import lax

RNG = np.random.default_rng(0)
X = RNG.normal(size=(2, 4, 6)).astype(np.float32)
Z = (X + 1j * RNG.normal(size=X.shape)).astype(np.complex64)
R = np.fft.rfftn(X, axes=(-2, -1)).astype(np.complex64)

# (operand, fft_type, fft_lengths, expected, expected dtype)
CASES = [
    (Z, "fft", (6,), np.fft.fft(Z), np.complex64),
    (Z, lax.FftType.FFT, (4, 6), np.fft.fftn(Z, axes=(-2, -1)), np.complex64),
    (Z, "IFFT", (2, 4, 6), np.fft.ifftn(Z), np.complex64),
    (X, "fft", (6,), np.fft.fft(X), np.complex64),
    (X, lax.FftType.RFFT, (6,), np.fft.rfft(X), np.complex64),
    (X, "rfft", (4, 6), np.fft.rfftn(X, axes=(-2, -1)), np.complex64),
    (R, "irfft", (4, 6), X, np.float32),
    (R, lax.FftType.IRFFT, (4, 7), np.fft.irfftn(R, s=(4, 7), axes=(-2, -1)), np.float32),
    (np.arange(4), "fft", (4,), np.fft.fft(np.arange(4)), np.complex64),
    (Z, "fft", (), Z, np.complex64),
]


@pytest.mark.parametrize("x, typ, lengths, want, dtype", CASES)
def test_values_and_dtypes(x, typ, lengths, want, dtype):
    out = lax.fft(x, typ, lengths)
    assert out.dtype == dtype
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=2e-5)


def test_fft_type_values_are_jaxs():
    assert [int(t) for t in lax.FftType] == [0, 1, 2, 3]
    assert [t.name for t in lax.FftType] == ["FFT", "IFFT", "RFFT", "IRFFT"]


def test_jit_grad_vmap():
    f = lambda x: lax.fft(x, "rfft", (6,))  # noqa: E731
    np.testing.assert_allclose(core.jit(f)(X), np.fft.rfft(X), rtol=1e-5, atol=2e-5)
    np.testing.assert_allclose(core.vmap(f)(X), np.fft.rfft(X), rtol=1e-5, atol=2e-5)
    # d/dx sum(re(rfft(x))) = sum_k cos(2 pi j k / n) over the kept frequencies
    g = core.grad(lambda x: f(x).real.sum())(X[0, 0])
    k = np.arange(4)
    want = np.cos(2 * np.pi * np.outer(np.arange(6), k) / 6).sum(1)
    np.testing.assert_allclose(g, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(
    "x, typ, lengths, error, match",
    [
        (Z, "dft", (6,), ValueError, "Unknown FFT type 'dft'"),
        (Z, 0.5, (6,), TypeError, "Unknown FFT type value"),
        (Z, "rfft", (6,), ValueError, "only real valued inputs supported for rfft"),
        (Z, "fft", (5,), ValueError, "minor dimensions must be equal to fft_lengths"),
        (X, "rfft", (4, 5), ValueError, "RFFT input shape"),
        (R, "irfft", (3, 6), ValueError, "IRFFT input shape"),
        (Z, "fft", (1, 2, 4, 6), ValueError, "at least as many input dimensions"),
    ],
)
def test_errors_are_jaxs(x, typ, lengths, error, match):
    with pytest.raises(error, match=match):
        lax.fft(x, typ, lengths)
