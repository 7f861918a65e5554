"""`fft_p`: JAX's FFT primitive (`jax.lax.fft_p`), parameters `fft_type` and `fft_lengths`.

It transforms the last `len(fft_lengths)` axes of its operand: `FFT`/`IFFT` complex to
complex (`IFFT` scaled by `1 / prod(fft_lengths)`), `RFFT` real to the non-negative
frequencies (the last axis `fft_lengths[-1] // 2 + 1` long), `IRFFT` back (the last output axis
`fft_lengths[-1]` long, from the first `fft_lengths[-1] // 2 + 1` input entries; the imaginary
parts of the zero and Nyquist terms are ignored). The rules are JAX's (`jax/_src/lax/fft.py`):
the abstract evaluation with its messages, linear (the tangent is the transform of the
tangent), the transposes (`FFT` and `IFFT` are their own, a symmetric matrix; `RFFT` and
`IRFFT` each other's, with the weights of the Hermitian terms the half spectrum stands for),
batching moves the batch axis to the front. The impl is numpy's pocketfft; `jit` compiles the
transform as loops (`core/backends/numba/rules/fft.py`).
"""

from __future__ import annotations

import enum
import math
from typing import Any

import numpy as np

from core.ad_util import Zero
from core.avals import ShapedArray
from core.interpreters import batching
from core.interpreters.jvp import deflinear
from core.primitive import Primitive
from core.prims import elementwise as ew
from core.prims import shapes as sh
from core.prims.dynamic_slice import dynamic_update_slice
from core.trace import get_aval


class FftType(enum.IntEnum):
    """Which FFT `fft_p` computes (JAX's values)."""

    FFT = 0
    """Forward complex-to-complex FFT."""
    IFFT = 1
    """Inverse complex-to-complex FFT."""
    RFFT = 2
    """Forward real-to-complex FFT."""
    IRFFT = 3
    """Inverse complex-to-real FFT."""


def complex_dtype(dt: np.dtype) -> np.dtype:
    """The complex dtype of an inexact real (or complex) dtype's precision."""
    if dt.kind == "c":
        return dt
    return np.dtype(np.complex128) if dt == np.float64 else np.dtype(np.complex64)


def real_dtype(dt: np.dtype) -> np.dtype:
    """The real dtype of a complex (or real) dtype's precision."""
    if dt.kind != "c":
        return dt
    return np.dtype(np.float64) if dt == np.complex128 else np.dtype(np.float32)


fft_p = Primitive("fft")


def _abstract_eval(x: ShapedArray, *, fft_type: FftType, fft_lengths: tuple) -> ShapedArray:
    """JAX's shape and dtype rule, with its messages."""
    k = len(fft_lengths)
    if k > x.ndim:
        raise ValueError(
            f"FFT input shape {x.shape} must have at least as many input dimensions as "
            f"fft_lengths {fft_lengths}."
        )
    minor = x.shape[x.ndim - k :]
    if fft_type == FftType.RFFT:
        if x.dtype not in (np.float32, np.float64):
            raise ValueError(f"RFFT input must be float32 or float64, got {x.dtype}")
        if minor != fft_lengths:
            raise ValueError(
                f"RFFT input shape {x.shape} minor dimensions must be equal to fft_lengths "
                f"{fft_lengths}"
            )
        shape = x.shape[: x.ndim - k] + fft_lengths[:-1] + (fft_lengths[-1] // 2 + 1,)
        return ShapedArray(shape, complex_dtype(x.dtype))
    if x.dtype.kind != "c":
        name = "IRFFT" if fft_type == FftType.IRFFT else "FFT"
        raise ValueError(f"{name} input must be complex64 or complex128, got {x.dtype}")
    if fft_type == FftType.IRFFT:
        if minor[:-1] != fft_lengths[:-1]:
            raise ValueError(
                f"IRFFT input shape {x.shape} minor dimensions must be equal to all except the "
                f"last fft_length, got fft_lengths={fft_lengths}"
            )
        return ShapedArray(x.shape[: x.ndim - k] + fft_lengths, real_dtype(x.dtype))
    if minor != fft_lengths:
        raise ValueError(
            f"FFT input shape {x.shape} minor dimensions must be equal to fft_lengths {fft_lengths}"
        )
    return ShapedArray(x.shape, x.dtype)


def _impl(x: np.ndarray, *, fft_type: FftType, fft_lengths: tuple) -> np.ndarray:
    aval = _abstract_eval(ShapedArray(x.shape, x.dtype), fft_type=fft_type, fft_lengths=fft_lengths)
    if aval.size == 0 or math.prod(fft_lengths) == 0:
        return np.zeros(aval.shape, aval.dtype)
    axes = tuple(range(x.ndim - len(fft_lengths), x.ndim))
    if fft_type == FftType.FFT:
        out = np.fft.fftn(x, axes=axes)
    elif fft_type == FftType.IFFT:
        out = np.fft.ifftn(x, axes=axes)
    elif fft_type == FftType.RFFT:
        out = np.fft.rfftn(x, axes=axes)
    else:
        out = np.fft.irfftn(x, s=fft_lengths, axes=axes)
    return np.asarray(out, aval.dtype)


def _conj(z: Any) -> Any:
    """The complex conjugate, from the parts (`lax.conj_p` sits in the layer above)."""
    return ew.complex_p.bind(ew.real_p.bind(z), ew.neg(ew.imag_p.bind(z)))


def _hermitian_weights(m: int, n: int, dtype: np.dtype, ndim: int) -> Any:
    """JAX's mask of the `m` terms of a half spectrum of `n` points, `(1, ..., 1, m)`: 2 for
    the terms that stand for their mirror image too, 1 for the zero and (even `n`) Nyquist
    ones; built as JAX builds it (a `full` and two updates)."""
    mask = sh.full((m,), 2.0, dtype)
    one = sh.full((1,), 1.0, dtype)
    mask = dynamic_update_slice(mask, one, (0,))
    if n % 2 == 0:
        mask = dynamic_update_slice(mask, one, (m - 1,))
    return sh.broadcast_in_dim(mask, (1,) * (ndim - 1) + (m,), (ndim - 1,))


def _rfft_transpose(t: Any, fft_lengths: tuple) -> Any:
    aval = get_aval(t)
    mask = _hermitian_weights(aval.shape[-1], fft_lengths[-1], aval.dtype, aval.ndim)
    out = fft_p.bind(ew.div(_conj(t), mask), fft_type=FftType.IRFFT, fft_lengths=tuple(fft_lengths))
    return ew.mul(sh.full((), float(math.prod(fft_lengths)), get_aval(out).dtype), out)


def _irfft_transpose(t: Any, fft_lengths: tuple) -> Any:
    x = fft_p.bind(t, fft_type=FftType.RFFT, fft_lengths=tuple(fft_lengths))
    aval = get_aval(x)
    mask = _hermitian_weights(aval.shape[-1], fft_lengths[-1], aval.dtype, aval.ndim)
    scale = sh.full((), 1 / math.prod(fft_lengths), aval.dtype)
    return _conj(ew.mul(ew.mul(scale, mask), x))


def _transpose(ct: Any, x: Any, *, fft_type: FftType, fft_lengths: tuple) -> list:
    if type(ct) is Zero:
        return [Zero(x.aval)]
    if fft_type == FftType.RFFT:
        return [_rfft_transpose(ct, fft_lengths)]
    if fft_type == FftType.IRFFT:
        return [_irfft_transpose(ct, fft_lengths)]
    return [fft_p.bind(ct, fft_type=fft_type, fft_lengths=fft_lengths)]


def _batch(args: tuple, dims: tuple, **params: Any) -> tuple[Any, int]:
    (x,), (d,) = args, dims
    x = batching.moveaxis(x, d, 0, get_aval(x).shape[d])
    return fft_p.bind(x, **params), 0


fft_p.def_impl(_impl)
fft_p.def_abstract_eval(_abstract_eval)
deflinear(fft_p)
fft_p.def_transpose(_transpose)
fft_p.def_batch(_batch)


def fft(x: Any, fft_type: FftType, fft_lengths: tuple[int, ...]) -> Any:
    """Binds `fft_p` (operand already of the type's dtype)."""
    return fft_p.bind(x, fft_type=FftType(fft_type), fft_lengths=tuple(int(n) for n in fft_lengths))
