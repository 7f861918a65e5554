"""The FFT library (core/backends/numba/library/fft.py) against numpy's pocketfft in long
double (80-bit on x86: an exact reference for float64 data), over a table of lengths: every
length to 64, powers of two to 4096, powers of 3 and 5, composites and primes (97 and 1009 go
through Bluestein's algorithm, as in pocketfft). The error measure is pocketfft's own: the
relative L2 error of a transform, which grows like eps * log n; each length must stay within
a few times that and within twice pocketfft's float64 error on the same data. Each entry runs
forward and inverse, rows (the last axis) and columns (an inner axis), in groups of 8 and
fewer, the real transforms of even and odd lengths, and irfft's handling of short and long
half spectra."""

import math

import numpy as np
import pytest

from core.backends.numba.library import entry, fft
from core.backends.numba.library.fft import DIRECT_MAX

EPS = np.finfo(np.float64).eps
SIZES = sorted(
    {*range(1, 65), *(2**k for k in range(7, 13)), 81, 243, 729, 125, 625, 3125}
    | {97, 1009, 360, 1000, 2 * 97, 3 * 53, 7 * 11 * 13}
)
ROWS = 11  # real rows: a group of 8 transforms, then 3
rng = np.random.default_rng(0)


def _bound(n: int, numpy_error: float) -> float:
    """What a length's relative L2 error may reach: 2 eps log2 n (pocketfft's growth), and
    at least twice pocketfft's own error in float64 on the same data."""
    return max(2 * EPS * max(math.log2(n), 1), 2 * numpy_error)


def _error(got, want) -> float:
    return float(np.linalg.norm(got - want) / max(np.linalg.norm(want), 1e-300))


@pytest.fixture(scope="module")
def lib():
    return {
        name: entry.dispatcher(f"{name}__f8") for name in ("fft_axis", "rfft_axis", "irfft_axis")
    }


@pytest.mark.parametrize("n", SIZES)
def test_complex_transforms_are_as_accurate_as_pocketfft(lib, n):
    x = rng.standard_normal((3, n, 9)) + 1j * rng.standard_normal((3, n, 9))
    for sign in (-1, 1):
        # rows: the n-point transform along the last axis of x's (3, 9, n) transpose; 27
        # transforms: groups of 8 (interleaved up to VEC_MAX terms), then a group of 3
        for outer, inner, data in ((27, 1, x.transpose(0, 2, 1)), (3, 9, x)):
            data = np.ascontiguousarray(data)
            yr, yi = np.empty(data.size), np.empty(data.size)
            params = np.array([outer, n, inner, sign], np.int64)
            lib["fft_axis"](data.real.ravel(), data.imag.ravel(), yr, yi, params)
            got = (yr + 1j * yi).reshape(data.shape)
            axis = data.ndim - 1 if inner == 1 else 1
            if sign < 0:
                want, ours = np.fft.fft(data.astype(np.clongdouble), axis=axis), np.fft.fft
            else:
                want = np.fft.ifft(data.astype(np.clongdouble), axis=axis) * n
                ours = lambda a, axis: np.fft.ifft(a, axis=axis) * n  # noqa: E731
            assert _error(got, want) <= _bound(n, _error(ours(data, axis=axis), want)), (
                n,
                sign,
                inner,
            )


@pytest.mark.parametrize("n", SIZES)
def test_real_transforms_are_as_accurate_as_pocketfft(lib, n):
    x = rng.standard_normal((ROWS, n))
    h = n // 2 + 1
    yr, yi = np.empty(ROWS * h), np.empty(ROWS * h)
    lib["rfft_axis"](x.ravel(), yr, yi, np.array([ROWS, n], np.int64))
    want = np.fft.rfft(x.astype(np.longdouble))
    got = (yr + 1j * yi).reshape(ROWS, h)
    assert _error(got, want) <= _bound(n, _error(np.fft.rfft(x), want))
    # the inverse (unscaled), from the half spectrum, from fewer terms and from more
    spectrum = np.fft.rfft(x)
    spectrum[:, 0] += 0.5j  # ignored, as the Nyquist term's imaginary part is
    if n % 2 == 0:
        spectrum[:, -1] -= 0.25j
    for terms in (h, max(1, h - 2), h + 3):
        s = np.zeros((ROWS, terms), complex)
        s[:, : min(h, terms)] = spectrum[:, : min(h, terms)]
        y = np.empty(ROWS * n)
        params = np.array([ROWS, terms, n], np.int64)
        lib["irfft_axis"](s.real.ravel(), s.imag.ravel(), y, params)
        want = np.fft.irfft(s.astype(np.clongdouble), n) * n
        assert _error(y.reshape(ROWS, n), want) <= _bound(n, _error(np.fft.irfft(s, n) * n, want))


def test_the_table_covers_both_algorithms(monkeypatch):
    """The primes past `DIRECT_MAX` use Bluestein's algorithm (of a 2-3-5-smooth length at
    least twice theirs), the other lengths the passes (the helpers run as Python here)."""
    monkeypatch.setattr(fft, "_cost", fft._cost.py_func)
    size = fft._bluestein_size.py_func
    assert size(97) == 200 and size(1009) == 2025 and size(2 * 1009) == 4050
    assert size(DIRECT_MAX - 3) == 0  # 47: one direct pass
    assert size(1000) == size(7 * 11 * 13) == size(2 * 97) == size(4096) == 0


def test_small_integers_transform_exactly(lib):
    """Quarter turns are exact roots, as in pocketfft: integer data of powers of two give
    exact zeros and exact quarter-turn terms."""
    for n in (4, 8, 16, 64, 256):
        x = np.arange(1.0, n + 1)
        yr, yi = np.empty(n), np.empty(n)
        lib["fft_axis"](x, np.zeros(n), yr, yi, np.array([1, n, 1, -1], np.int64))
        assert yi[0] == 0 and yi[n // 2] == 0 and yr[n // 4] == -n / 2, n
