"""`lax.fft` and `lax.FftType`: JAX's FFT operation, written on the primitives.

There is no FFT primitive (as in `core.numpy.fft`, which builds on the helpers here): each
transformed axis is a `dot_general` of the input with a constant DFT matrix built in numpy
(float64, then cast to the operand's dtype), so `jit`, `grad` and `vmap` go through the
existing rules. The cost is O(n^2) per axis, fine for the sizes a CPU user transforms.

The module is in the `lax` layer and imports only primitives, so `core.lax` can export `fft`
without importing `core.numpy` (which imports `core.lax`: the cycle the README noted). It is
not named `fft.py` because `core.lax.fft` is the function, as `jax.lax.fft` is.

`lax.fft(x, fft_type, fft_lengths)` transforms the last `len(fft_lengths)` axes, whose sizes
must equal `fft_lengths` (for `IRFFT`, all but the last; the last output axis has
`fft_lengths[-1]` points, from the first `fft_lengths[-1] // 2 + 1` input ones).
"""

from __future__ import annotations

import enum
import functools
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from core import dtypes
from core.array import Array
from core.prims import elementwise as ew
from core.prims import shapes as sh
from core.prims.linalg import dot_general
from core.trace import as_value, get_aval

__all__ = ["FftType", "fft"]


class FftType(enum.IntEnum):
    """Which FFT `lax.fft` computes (JAX's values)."""

    FFT = 0
    """Forward complex-to-complex FFT."""
    IFFT = 1
    """Inverse complex-to-complex FFT."""
    RFFT = 2
    """Forward real-to-complex FFT."""
    IRFFT = 3
    """Inverse complex-to-real FFT."""


_NAMES = {
    "fft": FftType.FFT,
    "FFT": FftType.FFT,
    "ifft": FftType.IFFT,
    "IFFT": FftType.IFFT,
    "rfft": FftType.RFFT,
    "RFFT": FftType.RFFT,
    "irfft": FftType.IRFFT,
    "IRFFT": FftType.IRFFT,
}


# ---------------------------------------------------------------------------------------------
# DFT matrices and their application (shared with core.numpy.fft)


def complex_dtype(dt: np.dtype) -> np.dtype:
    """The complex dtype of an inexact real (or complex) dtype's precision."""
    if dt.kind == "c":
        return dt
    return np.dtype(np.complex128) if dt == np.float64 else np.dtype(np.complex64)


def real_dtype(dt: np.dtype) -> np.dtype:
    """The real dtype of a complex dtype's precision."""
    return np.dtype(np.float64) if dt == np.complex128 else np.dtype(np.float32)


def real_part(z: Any) -> Any:
    """`z.real` (the identity on real operands)."""
    dt = get_aval(z).dtype
    if dt.kind != "c":
        return z
    with warnings.catch_warnings():  # numpy's impl warns that it drops the imaginary part
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        return sh.convert_element_type(z, real_dtype(dt))


def imag_part(z: Any) -> Any:
    """`z.imag` of a complex operand."""
    aval = get_aval(z)
    return real_part(ew.mul(z, sh.full(aval.shape, -1j, aval.dtype)))


@functools.lru_cache(maxsize=64)
def phases(m_in: int, n: int, n_out: int, sign: int) -> np.ndarray:
    """`exp(sign 2 pi i j k / n)` for j < m_in (rows j >= n zero: cropping), k < n_out.

    Parts that are zero exactly (a quarter turn's cosine, a half turn's sine) are +0.0, not
    float64's 1e-16 residue, so transforms of small integer data are exact as JAX's FFT's are
    (`fft([1, 2, 3, 4])` is `-2+0j` at the Nyquist term, not `-2-1e-16j`)."""
    j = np.arange(m_in)[:, None]
    k = np.arange(n_out)[None, :]
    w = np.exp(sign * 2j * np.pi * ((j * k) % n) / n)
    # |cos|, |sin| of a multiple of 2 pi / n that is not zero is at least sin(2 pi / n) >> 1e-12
    w.real[np.abs(w.real) < 1e-12] = 0.0
    w.imag[np.abs(w.imag) < 1e-12] = 0.0
    w[n:] = 0
    return w


def along(x: Any, axis: int, mat: np.ndarray) -> Any:
    """`x` contracted along (non-negative) `axis` with the constant matrix `mat` (rows: input
    positions), the result's new axis in place of `axis`."""
    aval = get_aval(x)
    nd = aval.ndim
    out = dot_general(x, Array(mat.astype(aval.dtype)), (((axis,), (0,)), ((), ())))
    if axis == nd - 1:
        return out
    perm = (*range(axis), nd - 1, *range(axis, nd - 1))
    return sh.transpose(out, perm)


def c2r_matrices(m: int, n: int, scale: float) -> tuple[np.ndarray, np.ndarray]:
    """The real matrices `(vr, vi)` with `real_out = re(z) @ vr - im(z) @ vi`: the inverse DFT of
    `n` points of a Hermitian spectrum given by its first `m` entries (only the first
    `n // 2 + 1` count; the imaginary parts of the zero and Nyquist terms are ignored)."""
    half = n // 2 + 1
    weights = np.full(half, 2.0)
    weights[0] = 1.0
    if n % 2 == 0:
        weights[-1] = 1.0
    v = phases(m, n, n, 1) * scale
    v[half:] = 0
    v[: min(m, half)] *= weights[: min(m, half), None]
    vi = v.imag.copy()
    vi[0] = 0.0
    if n % 2 == 0 and n // 2 < m:
        vi[n // 2] = 0.0
    return v.real, vi


def _c2r(z: Any, axis: int, n: int, scale: float) -> Any:
    m = get_aval(z).shape[axis]
    vr, vi = c2r_matrices(m, n, scale)
    rdt = real_dtype(get_aval(z).dtype)
    out = along(real_part(z), axis, vr.astype(rdt))
    return ew.sub(out, along(imag_part(z), axis, vi.astype(rdt)))


# ---------------------------------------------------------------------------------------------
# lax.fft


def _fft_type(fft_type: Any) -> FftType:
    if isinstance(fft_type, str):
        if fft_type not in _NAMES:
            raise ValueError(f"Unknown FFT type '{fft_type}'")
        return _NAMES[fft_type]
    if isinstance(fft_type, FftType):
        return fft_type
    raise TypeError(f"Unknown FFT type value '{fft_type}'")


def _inexact(dt: np.dtype) -> np.dtype:
    if dtypes.is_inexact(dt):
        return dt
    return dtypes.canonicalize_dtype(np.float64)


def _check(shape: tuple, dt: np.dtype, typ: FftType, lengths: tuple) -> None:
    """JAX's shape and dtype checks (its abstract evaluation rule)."""
    if len(lengths) > len(shape):
        raise ValueError(
            f"FFT input shape {shape} must have at least as many input dimensions as "
            f"fft_lengths {lengths}."
        )
    minor = shape[-len(lengths) :]
    if typ == FftType.RFFT:
        if dt not in (np.float32, np.float64):
            raise ValueError(f"RFFT input must be float32 or float64, got {dt}")
        if minor != lengths:
            raise ValueError(
                f"RFFT input shape {shape} minor dimensions must be equal to fft_lengths {lengths}"
            )
    elif typ == FftType.IRFFT:
        if minor[:-1] != lengths[:-1]:
            raise ValueError(
                f"IRFFT input shape {shape} minor dimensions must be equal to all except the "
                f"last fft_length, got fft_lengths={lengths}"
            )
    elif minor != lengths:
        raise ValueError(
            f"FFT input shape {shape} minor dimensions must be equal to fft_lengths {lengths}"
        )


def fft(x: Any, fft_type: FftType | str, fft_lengths: Sequence[int]) -> Any:
    """The FFT of the last `len(fft_lengths)` axes of `x`, as `jax.lax.fft`.

    Args:
      x: the operand; converted to complex (`FFT`, `IFFT`, `IRFFT`) or to an inexact real
        dtype (`RFFT`, which rejects complex input).
      fft_type: an `FftType` or its name (`"fft"`, `"ifft"`, `"rfft"`, `"irfft"`, or upper
        case).
      fft_lengths: the transform lengths of the trailing axes (static).

    Returns:
      `FFT`/`IFFT`: complex, `x`'s shape (`IFFT` scaled by `1 / prod(fft_lengths)`). `RFFT`:
      complex, the last axis `fft_lengths[-1] // 2 + 1` long. `IRFFT`: real, the trailing
      axes `fft_lengths`.

    Raises:
      ValueError: an unknown type name, real-only `RFFT` given complex input, or trailing
        axes that do not match `fft_lengths` (JAX's messages).
      TypeError: a `fft_type` that is neither an `FftType` nor a string.
    """
    typ = _fft_type(fft_type)
    x = as_value(x)
    dt = get_aval(x).dtype
    if typ == FftType.RFFT:
        if dt.kind == "c":
            raise ValueError("only real valued inputs supported for rfft")
        x = sh.convert_element_type(x, _inexact(dt))
    else:
        x = sh.convert_element_type(x, complex_dtype(_inexact(dt)))
    lengths = tuple(int(n) for n in fft_lengths)
    if not lengths:
        return x
    aval = get_aval(x)
    _check(aval.shape, aval.dtype, typ, lengths)
    nd, k = aval.ndim, len(lengths)
    axes = list(range(nd - k, nd))
    if typ == FftType.RFFT:
        n = lengths[-1]
        z = sh.convert_element_type(x, complex_dtype(aval.dtype))
        x = along(z, nd - 1, phases(n, n, n // 2 + 1, -1))
        axes = axes[:-1]
    inverse = typ in (FftType.IFFT, FftType.IRFFT)
    c2c = axes[:-1] if typ == FftType.IRFFT else axes
    for ax in c2c:
        n = get_aval(x).shape[ax]
        x = along(x, ax, phases(n, n, n, 1 if inverse else -1) * (1 / n if inverse else 1.0))
    if typ == FftType.IRFFT:
        x = _c2r(x, nd - 1, lengths[-1], 1 / lengths[-1])
    return x
