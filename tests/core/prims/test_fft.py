"""`fft_p` (core/prims/fft.py): values and dtypes against numpy.fft for every FFT type, JAX's
abstract-evaluation errors, and the compiled transform (core/backends/numba/rules/fft.py)
against numpy in one jitted program. The derivatives and the batching rule are checked with
every primitive's (tests/core/prim_cases.py: `fft_*` cases in test_grads.py, test_vmap.py).
The compiled transform runs mixed-radix passes for every length here (4, 16: radix 4; 3, 5,
6, 40: radix 2, 3, 5 and 4); tests/core/backends/numba/library/test_fft.py checks the library
over a table of lengths, Bluestein's algorithm included."""

import numpy as np
import pytest

import core
from core.jit.api import compile_count
from core.prims.fft import FftType, fft_p

RNG = np.random.default_rng(0)
X = RNG.normal(size=(2, 3, 4)).astype(np.float32)
Z = (X + 1j * RNG.normal(size=X.shape)).astype(np.complex64)
H5 = np.fft.rfft(RNG.normal(size=(2, 5))).astype(np.complex64)  # odd length 5: 3 terms
H6 = np.fft.rfft(RNG.normal(size=(2, 6))).astype(np.complex64)  # even length 6: 4 terms
H6[:, 0] += 0.5j  # the imaginary parts of the zero and Nyquist terms are ignored
H6[:, -1] -= 0.25j
INTS = np.array([[1, 2, 3, 4]], np.complex64)
Z16 = (RNG.normal(size=(2, 16)) + 1j * RNG.normal(size=(2, 16))).astype(np.complex64)
X40 = RNG.normal(size=(3, 40)).astype(np.float32)

# (operand, type, lengths, numpy's transform, expected dtype)
CASES = [
    (Z, FftType.FFT, (4,), np.fft.fft(Z), np.complex64),
    (Z, FftType.FFT, (3, 4), np.fft.fftn(Z, axes=(1, 2)), np.complex64),
    (Z, FftType.IFFT, (2, 3, 4), np.fft.ifftn(Z), np.complex64),
    (X, FftType.RFFT, (4,), np.fft.rfft(X), np.complex64),
    (X, FftType.RFFT, (3, 4), np.fft.rfftn(X, axes=(1, 2)), np.complex64),
    (H5, FftType.IRFFT, (5,), np.fft.irfft(H5, 5), np.float32),
    (H6, FftType.IRFFT, (6,), np.fft.irfft(H6, 6), np.float32),
    (Z[..., :3], FftType.IRFFT, (3, 4), np.fft.irfftn(Z[..., :3], (3, 4), (1, 2)), np.float32),
    (Z16, FftType.IFFT, (16,), np.fft.ifft(Z16), np.complex64),
    (X40, FftType.RFFT, (40,), np.fft.rfft(X40), np.complex64),
    (INTS, FftType.FFT, (4,), [[10, -2 + 2j, -2, -2 - 2j]], np.complex64),
]
IDS = [f"{t.name}{n}-{x.dtype}" for x, t, n, *_ in CASES]


@pytest.mark.parametrize("x, typ, lengths, want, dtype", CASES, ids=IDS)
def test_values_and_dtypes(x, typ, lengths, want, dtype):
    out = fft_p.bind(x, fft_type=typ, fft_lengths=lengths)
    assert out.dtype == dtype
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=2e-5)


def test_double_precision_stays_double():
    with core.enable_x64():
        out = fft_p.bind(X.astype(np.float64), fft_type=FftType.RFFT, fft_lengths=(4,))
        assert out.dtype == np.complex128
        np.testing.assert_allclose(out, np.fft.rfft(X.astype(np.float64)), rtol=1e-12)


@pytest.mark.parametrize(
    "x, typ, lengths, message",
    [
        (Z, FftType.RFFT, (4,), "RFFT input must be float32 or float64, got complex64"),
        (X, FftType.FFT, (4,), "FFT input must be complex64 or complex128, got float32"),
        (X, FftType.IRFFT, (4,), "IRFFT input must be complex64 or complex128, got float32"),
        (Z, FftType.FFT, (5,), "FFT input shape (2, 3, 4) minor dimensions must be equal to "
         "fft_lengths (5,)"),
        (X, FftType.RFFT, (2, 4), "RFFT input shape (2, 3, 4) minor dimensions must be equal "
         "to fft_lengths (2, 4)"),
        (Z, FftType.IRFFT, (2, 6), "IRFFT input shape (2, 3, 4) minor dimensions must be equal "
         "to all except the last fft_length, got fft_lengths=(2, 6)"),
        (Z, FftType.FFT, (1, 2, 3, 4), "FFT input shape (2, 3, 4) must have at least as many "
         "input dimensions as fft_lengths (1, 2, 3, 4)."),
    ],
)  # fmt: skip
def test_abstract_eval_errors_are_jaxs(x, typ, lengths, message):
    with pytest.raises(ValueError) as info:
        core.make_jaxpr(lambda x: fft_p.bind(x, fft_type=typ, fft_lengths=lengths))(x)
    assert str(info.value) == message


def _program(*operands):
    return [
        fft_p.bind(x, fft_type=typ, fft_lengths=lengths)
        for x, (_, typ, lengths, *_) in zip(operands, CASES, strict=True)
    ]


def test_jit_compiles_every_type_once():
    before = compile_count()
    outs = core.jit(_program)(*[case[0] for case in CASES])
    assert compile_count() == before + 1
    for out, (_, _, _, want, dtype) in zip(outs, CASES, strict=True):
        assert out.dtype == dtype
        np.testing.assert_allclose(out, want, rtol=1e-5, atol=2e-5)
    # the exact zeros of small integer data stay exact, as pocketfft's do
    np.testing.assert_array_equal(outs[-1], CASES[-1][3])
