"""jax.scipy.signal's spectral functions (core/scipy/signal.py): stft, istft, csd, welch
against scipy.signal on tables of cases (float64), float32 dtypes, JAX's defaults and errors."""

import warnings

import numpy as np
import pytest
import scipy.signal as ss

import core
from core.scipy import signal as sg

RNG = np.random.default_rng(0)
X = RNG.normal(size=(2, 200))
Y = RNG.normal(size=(2, 200))

# (name, numbax call, scipy call): every output compared
CASES = [
    ("stft", lambda m: m.stft(X, nperseg=32)),
    (
        "stft_options",
        lambda m: m.stft(
            X,
            nperseg=33,
            noverlap=10,
            nfft=40,
            window="hamming",
            boundary="even",
            padded=False,
            detrend="linear",
        ),  # fmt: skip
    ),
    ("stft_axis0_odd", lambda m: m.stft(X.T, nperseg=16, axis=0, boundary="odd")),
    ("stft_twosided", lambda m: m.stft(X, nperseg=16, return_onesided=False, window="bartlett")),
    ("welch", lambda m: m.welch(X, nperseg=64)),
    (
        "welch_median_spectrum",
        lambda m: m.welch(
            X,
            nperseg=50,
            window="blackman",
            scaling="spectrum",
            average="median",
            return_onesided=False,
        ),  # fmt: skip
    ),
    ("welch_triang_fs", lambda m: m.welch(X, fs=10.0, nperseg=40, window="triang")),
    ("csd_linear", lambda m: m.csd(X, Y, nperseg=64, detrend="linear")),
    ("csd_median_boxcar", lambda m: m.csd(X, Y, nperseg=31, average="median", window="boxcar")),
    ("csd_window_array", lambda m: m.csd(X, Y, window=np.hanning(20), nfft=32)),
    ("istft", lambda m: m.istft(m.stft(X, nperseg=32)[2], nperseg=32)),
    (
        "istft_hamming",
        lambda m: m.istft(
            m.stft(X, nperseg=34, window="hamming", noverlap=20)[2],
            nperseg=34,
            window="hamming",
            noverlap=20,
        ),  # fmt: skip
    ),
]


@pytest.mark.parametrize("name, call", CASES, ids=[c[0] for c in CASES])
def test_matches_scipy_in_float64(name, call):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = call(ss)
        with core.enable_x64():
            got = call(sg)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        if name.startswith("istft") and np.ndim(w) == 1 and np.ndim(g) == 1 and len(g) != len(w):
            continue  # JAX's istft times count the leading axis (JAX 0.10.2 returns 2 here)
        np.testing.assert_allclose(np.asarray(g), w, rtol=1e-10, atol=1e-12)


def test_float32_dtypes_and_roundtrip():
    x = X.astype(np.float32)
    f, t, z = sg.stft(x, nperseg=32)
    assert (f.dtype, t.dtype, z.dtype) == (np.float32, np.float32, np.complex64)
    _, back = sg.istft(z, nperseg=32)
    np.testing.assert_allclose(np.asarray(back)[:, :200], x, atol=1e-5)
    f, p = sg.welch(x, nperseg=64)
    assert p.dtype == np.float32 and p.shape == (2, 33)
    assert sg.csd(x, x + 1, nperseg=64)[1].dtype == np.complex64


def test_jaxs_default_segment_is_the_whole_signal():
    # scipy would use 256 (with a warning); JAX and numbax take the signal's length
    f, p = sg.welch(np.arange(50.0))
    assert f.shape == (26,) and p.shape == (26,)


def test_under_jit_and_grad():
    x = X[0].astype(np.float32)
    f = core.jit(lambda x: sg.welch(x, nperseg=32)[1])
    np.testing.assert_allclose(f(x), ss.welch(x, nperseg=32)[1], rtol=1e-4, atol=1e-7)
    g = core.grad(lambda x: sg.welch(x, nperseg=32)[1].sum())(x)
    assert g.shape == x.shape and np.isfinite(np.asarray(g)).all()


@pytest.mark.parametrize(
    "call, error, match",
    [
        (
            lambda: sg.welch(X, window="kaiser"),
            ValueError,
            "'kaiser' must have parameters, but window='kaiser'!",
        ),  # scipy's, as JAX's
        (
            lambda: sg.stft(X, nperseg=16, window="bogus"),
            ValueError,
            "Invalid window name 'bogus' in parameter window='bogus'!",
        ),
        (lambda: sg.welch(X, nperseg=32, noverlap=32), ValueError, "noverlap must be less"),
        (lambda: sg.welch(X, nperseg=32, nfft=16), ValueError, "nfft must be greater"),
        (lambda: sg.stft(X, boundary="wrap"), ValueError, "Unknown boundary option"),
        (lambda: sg.csd(X, Y, average="max"), ValueError, "average must be"),
        (lambda: sg.istft(np.ones(4)), ValueError, "at least 2d"),
        (lambda: sg.welch(X, nperseg=8, window=np.ones(4)), ValueError, "different from length"),
    ],
)
def test_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()
