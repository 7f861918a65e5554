"""`core.scipy.signal`: N-dimensional convolution and correlation, like `jax.scipy.signal`.

Direct convolutions are one `lax.conv_general_dilated` over a single batch and feature
dimension with the kernel flipped; the smaller input (in every dimension) is the kernel, and
the padding produces scipy's "full", "same" (centred on `in1`) and "valid" outputs.
"""

from __future__ import annotations

from typing import Any

import core.numpy as jnp
from core import lax
from core.numpy._util import promote_dtypes_inexact
from core.scipy.errors import ModeError, ShapeMismatchError
from core.trace import get_aval

__all__ = ["convolve", "convolve2d", "correlate", "correlate2d"]

_MODES = ("full", "same", "valid")


def _convolve_nd(in1: Any, in2: Any, mode: str, precision: Any) -> Any:
    if mode not in _MODES:
        raise ModeError(f"mode must be one of {list(_MODES)}, got {mode!r}")
    in1, in2 = promote_dtypes_inexact(in1, in2)
    s1, s2 = get_aval(in1).shape, get_aval(in2).shape
    if len(s1) != len(s2):
        raise ShapeMismatchError(
            f"in1 and in2 must have the same number of dimensions, got shapes {s1} and {s2}"
        )
    if 0 in s1 or 0 in s2:
        raise ShapeMismatchError(f"zero-size arrays are not supported, got shapes {s1} and {s2}")
    no_swap = all(a >= b for a, b in zip(s1, s2, strict=True))
    swap = all(a <= b for a, b in zip(s1, s2, strict=True))
    if not (no_swap or swap):
        raise ShapeMismatchError(
            f"one input must be at least as large as the other in every dimension, got {s1}, {s2}"
        )
    out_ref = s2
    if swap:
        in1, in2 = in2, in1
    kernel = get_aval(in2).shape
    in2 = jnp.flip(in2)
    if mode == "valid":
        padding = [(0, 0)] * len(kernel)
    elif mode == "same":
        padding = [(k - 1 - (o - 1) // 2, k - o + (o - 1) // 2) for k, o in zip(kernel, out_ref)]
    else:
        padding = [(k - 1, k - 1) for k in kernel]
    strides = (1,) * len(kernel)
    out = lax.conv_general_dilated(
        in1[None, None], in2[None, None], strides, padding, precision=precision
    )
    return out[0, 0]


def convolve(
    in1: Any, in2: Any, mode: str = "full", method: str = "auto", precision: Any = None
) -> Any:
    """The N-dimensional convolution of two arrays.

    Args:
      in1: first input.
      in2: second input, with as many dimensions as `in1`.
      mode: "full" (default), "same" (the size of `in1`) or "valid".
      method: "auto" or "direct" (FFT convolution is not implemented).
      precision: passed to `conv_general_dilated`.

    Returns:
      The convolution, in the promoted inexact dtype.
    """
    if method not in ("auto", "direct"):
        raise ModeError(f"method must be 'auto' or 'direct' (no FFT method), got {method!r}")
    return _convolve_nd(in1, in2, mode, precision)


def correlate(
    in1: Any, in2: Any, mode: str = "full", method: str = "auto", precision: Any = None
) -> Any:
    """The N-dimensional cross-correlation of two arrays.

    Args:
      in1: first input.
      in2: second input, with as many dimensions as `in1`.
      mode: "full" (default), "same" or "valid".
      method: "auto" or "direct".
      precision: passed to `conv_general_dilated`.

    Returns:
      `convolve(in1, flip(conj(in2)), mode)`.
    """
    return convolve(in1, jnp.flip(jnp.conj(jnp.asarray(in2))), mode, method, precision)


def _check_2d(name: str, in1: Any, in2: Any, boundary: str, fillvalue: float) -> None:
    if boundary != "fill" or fillvalue != 0:
        raise NotImplementedError(f"{name} only supports boundary='fill', fillvalue=0")
    if jnp.ndim(in1) != 2 or jnp.ndim(in2) != 2:
        raise ShapeMismatchError(
            f"{name} needs 2-D inputs, got shapes {jnp.shape(in1)} and {jnp.shape(in2)}"
        )


def convolve2d(
    in1: Any,
    in2: Any,
    mode: str = "full",
    boundary: str = "fill",
    fillvalue: float = 0,
    precision: Any = None,
) -> Any:
    """The 2-D convolution of two matrices.

    Args:
      in1: first 2-D input.
      in2: second 2-D input.
      mode: "full" (default), "same" or "valid".
      boundary: must be "fill".
      fillvalue: must be 0.
      precision: passed to `conv_general_dilated`.

    Returns:
      The 2-D convolution.
    """
    _check_2d("convolve2d", in1, in2, boundary, fillvalue)
    return _convolve_nd(in1, in2, mode, precision)


def correlate2d(
    in1: Any,
    in2: Any,
    mode: str = "full",
    boundary: str = "fill",
    fillvalue: float = 0,
    precision: Any = None,
) -> Any:
    """The 2-D cross-correlation of two matrices.

    Args:
      in1: first 2-D input.
      in2: second 2-D input.
      mode: "full" (default), "same" or "valid".
      boundary: must be "fill".
      fillvalue: must be 0.
      precision: passed to `conv_general_dilated`.

    Returns:
      The 2-D cross-correlation (scipy's orientation when `in2` is the larger input).
    """
    _check_2d("correlate2d", in1, in2, boundary, fillvalue)
    in1, in2 = jnp.asarray(in1), jnp.asarray(in2)
    s1, s2 = jnp.shape(in1), jnp.shape(in2)
    swap = all(a <= b for a, b in zip(s1, s2, strict=True))
    same_shape = s1 == s2
    if mode == "same" or (mode == "valid" and not (swap and not same_shape)) or not swap:
        return jnp.flip(_convolve_nd(jnp.flip(in1), jnp.conj(in2), mode, precision))
    out = _convolve_nd(jnp.flip(in2), jnp.conj(in1), mode, precision)
    return out if mode == "valid" else jnp.conj(out)
