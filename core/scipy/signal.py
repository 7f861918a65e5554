"""`core.scipy.signal`: N-dimensional convolution and correlation, like `jax.scipy.signal`.

Direct convolutions are one `lax.conv_general_dilated` over a single batch and feature
dimension with the kernel flipped; the smaller input (in every dimension) is the kernel, and
the padding produces scipy's "full", "same" (centred on `in1`) and "valid" outputs.
`fftconvolve` and `detrend` are JAX's formulas (FFT products; least-squares lines).
"""

from __future__ import annotations

from typing import Any

import numpy as np

import core.numpy as jnp
from core import api, lax
from core.numpy._util import promote_dtypes_inexact
from core.scipy.errors import ModeError, ShapeMismatchError
from core.trace import get_aval

__all__ = [
    "convolve",
    "convolve2d",
    "correlate",
    "correlate2d",
    "detrend",
    "fftconvolve",
]

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


def _fftconvolve_one(in1: Any, in2: Any, mode: str) -> Any:
    full = tuple(s1 + s2 - 1 for s1, s2 in zip(in1.shape, in2.shape))
    if mode == "valid":
        no_swap = all(s1 >= s2 for s1, s2 in zip(in1.shape, in2.shape))
        swap = all(s1 <= s2 for s1, s2 in zip(in1.shape, in2.shape))
        if not (no_swap or swap):
            raise ShapeMismatchError(
                "For 'valid' mode, One input must be at least as large as the other in every "
                "dimension."
            )
        if swap:
            in1, in2 = in2, in1
    if all(s1 == 1 or s2 == 1 for s1, s2 in zip(in1.shape, in2.shape)):
        conv = in1 * in2
    elif jnp.iscomplexobj(in1):
        conv = jnp.fft.ifftn(jnp.fft.fftn(in1, full) * jnp.fft.fftn(in2, full), full)
    else:
        conv = jnp.fft.irfftn(jnp.fft.rfftn(in1, full) * jnp.fft.rfftn(in2, full), full)
    if mode == "full":
        out = full
    elif mode == "same":
        out = in1.shape
    else:
        out = tuple(s1 - s2 + 1 for s1, s2 in zip(in1.shape, in2.shape))
    starts = tuple((f - o) // 2 for f, o in zip(full, out))
    return lax.dynamic_slice(conv, starts, out)


def fftconvolve(in1: Any, in2: Any, mode: str = "full", axes: Any = None) -> Any:
    """Convolution through the FFT (`jax.scipy.signal.fftconvolve`): the same values as
    `convolve` to rounding (`jnp.fft` here multiplies by DFT matrices, so this is for
    compatibility, not speed).

    Args:
        in1: the first input.
        in2: the second input, of the same rank.
        mode: "full", "same" (centred on `in1`) or "valid".
        axes: the axes convolved (the others, of equal sizes, are mapped over); None: all.

    Returns:
        The convolution, in the promoted inexact dtype.
    """
    in1, in2 = promote_dtypes_inexact(jnp.asarray(in1), jnp.asarray(in2))
    if in1.ndim != in2.ndim:
        raise ShapeMismatchError("in1 and in2 should have the same dimensionality")
    if mode not in _MODES:
        raise ModeError("mode must be one of ['same', 'full', 'valid']")

    def one(a: Any, b: Any) -> Any:
        return _fftconvolve_one(a, b, mode)

    if axes is None:
        return one(in1, in2)
    axes = (axes,) if isinstance(axes, int) else tuple(axes)
    axes = tuple(a % in1.ndim for a in axes)
    mapped = sorted(set(range(in1.ndim)) - set(axes))
    if any(in1.shape[i] != in2.shape[i] for i in mapped):
        raise ShapeMismatchError(
            f"mapped axes must have same shape; got in1.shape={in1.shape!r} "
            f"in2.shape={in2.shape!r} axes={axes!r}"
        )
    fn = one
    for ax in mapped:
        fn = api.vmap(fn, in_axes=ax, out_axes=ax)
    return fn(in1, in2)


def detrend(
    data: Any, axis: int = -1, type: str = "linear", bp: Any = 0, overwrite_data: None = None
) -> Any:
    """Removes the mean (`type="constant"`) or the least-squares line of each piece between
    breakpoints `bp` (`"linear"`) along `axis` (`jax.scipy.signal.detrend`).

    Args:
        data: the signal.
        axis: the axis of the signal.
        type: "linear" or "constant".
        bp: breakpoints (indices along `axis`) for piecewise-linear trends.
        overwrite_data: not implemented (None only).

    Returns:
        The detrended signal, in the promoted inexact dtype.
    """
    if overwrite_data is not None:
        raise NotImplementedError("overwrite_data argument not implemented.")
    if type not in ("constant", "linear"):
        raise ModeError("Trend type must be 'linear' or 'constant'.")
    (arr,) = promote_dtypes_inexact(jnp.asarray(data))
    if type == "constant":
        return arr - arr.mean(axis, keepdims=True)
    n = arr.shape[axis]
    bps = np.sort(np.unique(np.r_[0, bp, n]))
    if bps[0] < 0 or bps[-1] > n:
        raise ModeError(
            "Breakpoints must be non-negative and less than length of data along given axis."
        )
    arr = jnp.moveaxis(arr, axis, 0)
    shape = arr.shape
    arr = arr.reshape(n, -1)
    for m in range(len(bps) - 1):
        npts = int(bps[m + 1] - bps[m])
        a = jnp.vstack(
            [jnp.ones(npts, dtype=arr.dtype), jnp.arange(1, npts + 1, dtype=arr.dtype) / npts]
        ).T
        piece = slice(int(bps[m]), int(bps[m + 1]))
        coef = jnp.linalg.lstsq(a, arr[piece])[0]
        arr = arr.at[piece].add(-jnp.matmul(a, coef, precision=lax.Precision.HIGHEST))
    return jnp.moveaxis(arr.reshape(shape), 0, axis)
