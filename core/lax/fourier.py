"""`lax.fft` and `lax.FftType`: JAX's FFT operation, one `fft_p` equation (`core/prims/fft.py`).

As JAX's `lax.fft` (a `@jit` function, so staged programs show a nested `jit[name=fft]`), it
converts the operand first: to an inexact real dtype for `RFFT` (which rejects complex input),
to the complex dtype of its precision otherwise; an empty `fft_lengths` returns the converted
operand. It is not named `fft.py` because `core.lax.fft` is the function, as `jax.lax.fft` is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from core import dtypes
from core.jit.library import library_jit
from core.prims import fft as fft_prim
from core.prims import shapes as sh
from core.prims.fft import FftType, complex_dtype
from core.trace import as_value, get_aval

__all__ = ["FftType", "fft"]

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


def _fft_type(fft_type: Any) -> FftType:
    if isinstance(fft_type, str):
        if fft_type not in _NAMES:
            raise ValueError(f"Unknown FFT type '{fft_type}'")
        return _NAMES[fft_type]
    if isinstance(fft_type, FftType):
        return fft_type
    raise TypeError(f"Unknown FFT type value '{fft_type}'")


def _inexact(dt: Any) -> Any:
    """JAX's `to_inexact_dtype`: 64-bit integers become float64, other integers and bool
    float32 (also under x64: the FFT of an int32 is complex64)."""
    if dtypes.is_inexact(dt):
        return dt
    return np.dtype(np.float64 if np.dtype(dt).itemsize == 8 else np.float32)


@library_jit(static_argnums=(1, 2))
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
    if len(fft_lengths) == 0:
        return x
    return fft_prim.fft(x, typ, tuple(fft_lengths))
