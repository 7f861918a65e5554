"""`core.scipy.signal`: N-dimensional convolution and correlation, like `jax.scipy.signal`.

Direct convolutions (`method="auto"`/`"direct"`; `"fft"` is `fftconvolve`) are one
`lax.conv_general_dilated` over a single batch and feature dimension with the kernel flipped;
the smaller input (in every dimension) is the kernel, and the padding produces scipy's "full",
"same" (centred on `in1`) and "valid" outputs. `fftconvolve` and `detrend` are JAX's formulas
(FFT products; least-squares lines), and so are the spectral functions `stft`, `istft`, `csd`
and `welch` (scipy's `_spectral_helper`).
"""

from __future__ import annotations

import operator
import warnings
from typing import Any

import numpy as np

import core.numpy as jnp
from core import api, lax
from core.numpy._util import check_arraylike, promote_dtypes_inexact
from core.scipy.errors import ModeError, ShapeMismatchError
from core.trace import get_aval

__all__ = [
    "convolve",
    "convolve2d",
    "correlate",
    "correlate2d",
    "detrend",
    "csd",
    "fftconvolve",
    "istft",
    "stft",
    "welch",
]

_MODES = ("full", "same", "valid")


def _convolve_nd(in1: Any, in2: Any, mode: str, precision: Any) -> Any:
    # JAX's checks in its order, its messages first
    if mode not in _MODES:
        raise ModeError(f"mode must be one of {list(_MODES)}, got {mode!r}")
    s1, s2 = jnp.shape(in1), jnp.shape(in2)
    if len(s1) != len(s2):
        raise ShapeMismatchError(
            f"in1 and in2 must have the same number of dimensions\ngot shapes {s1} and {s2}"
        )
    if 0 in s1 or 0 in s2:
        raise ShapeMismatchError(
            f"zero-size arrays not supported in convolutions, got shapes {s1} and {s2}."
        )
    in1, in2 = promote_dtypes_inexact(in1, in2)
    no_swap = all(a >= b for a, b in zip(s1, s2, strict=True))
    swap = all(a <= b for a, b in zip(s1, s2, strict=True))
    if not (no_swap or swap):
        raise ShapeMismatchError(
            "One input must be smaller than the other in every dimension.\n"
            f"got shapes {s1} and {s2}: one input must be at least as large as the other in "
            "every dimension"
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
      method: "auto" or "direct" (one `conv_general_dilated`), or "fft" (`fftconvolve`).
      precision: passed to `conv_general_dilated`.

    Returns:
      The convolution, in the promoted inexact dtype.
    """
    if method == "fft":
        return fftconvolve(in1, in2, mode=mode)
    if method not in ("auto", "direct"):
        raise ModeError(f"Got method={method!r}; expected 'auto', 'fft', or 'direct'.")
    return _convolve_nd(in1, in2, mode, precision)


def correlate(
    in1: Any, in2: Any, mode: str = "full", method: str = "auto", precision: Any = None
) -> Any:
    """The N-dimensional cross-correlation of two arrays.

    Args:
      in1: first input.
      in2: second input, with as many dimensions as `in1`.
      mode: "full" (default), "same" or "valid".
      method: "auto", "direct" or "fft", as `convolve`'s.
      precision: passed to `conv_general_dilated`.

    Returns:
      `convolve(in1, flip(conj(in2)), mode)`.
    """
    return convolve(in1, jnp.flip(jnp.conj(jnp.asarray(in2))), mode, method, precision)


def _check_2d(name: str, in1: Any, in2: Any, boundary: str, fillvalue: float) -> None:
    if boundary != "fill" or fillvalue != 0:
        raise NotImplementedError(f"{name}() only supports boundary='fill', fillvalue=0")
    if jnp.ndim(in1) != 2 or jnp.ndim(in2) != 2:
        raise ShapeMismatchError(
            f"{name}() only supports 2-dimensional inputs.\ngot shapes {jnp.shape(in1)} and "
            f"{jnp.shape(in2)}"
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
    `convolve` to rounding (for compatibility: compiled, `jnp.fft`'s loops are slower than
    pocketfft's).

    Args:
        in1: the first input.
        in2: the second input, of the same rank.
        mode: "full", "same" (centred on `in1`) or "valid".
        axes: the axes convolved (the others, of equal sizes, are mapped over); None: all.

    Returns:
        The convolution, in the promoted inexact dtype.
    """
    check_arraylike("fftconvolve", in1, in2)
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


# ---------------------------------------------------------------------------------------------
# Spectral analysis: stft, istft, csd, welch (JAX's `_spectral_helper`, itself scipy's)
#
# The signal is cut into `nperseg`-long segments `nperseg - noverlap` apart (one strided
# gather), each detrended, windowed and transformed with `jnp.fft`. Windows are built in numpy
# as scipy's periodic (`fftbins=True`) windows; JAX asks scipy for the ones other than "hann",
# numbax computes the common ones itself (`_WINDOWS`) and asks scipy for the others.


def _cosine_sum(coeffs: tuple[float, ...]) -> Any:
    def window(n: int) -> np.ndarray:
        k = np.arange(n)
        return sum((-1) ** i * c * np.cos(2 * np.pi * i * k / n) for i, c in enumerate(coeffs))

    return window


def _bartlett(n: int) -> np.ndarray:
    m = n + 1  # periodic: the symmetric window of n + 1 points without its last
    k = np.arange(m)
    return (1 - np.abs(2 * k / (m - 1) - 1))[:-1]


def _triang(n: int) -> np.ndarray:
    m = n + 1
    k = np.arange(1, (m + 1) // 2 + 1)
    half = 2 * k / (m + 1) if m % 2 else (2 * k - 1) / m
    full = np.concatenate([half, half[-2::-1] if m % 2 else half[::-1]])
    return full[:-1]


_WINDOWS = {
    "hann": _cosine_sum((0.5, 0.5)),
    "hanning": _cosine_sum((0.5, 0.5)),
    "hamming": _cosine_sum((0.54, 0.46)),
    "blackman": _cosine_sum((0.42, 0.5, 0.08)),
    "boxcar": np.ones,
    "box": np.ones,
    "ones": np.ones,
    "rect": np.ones,
    "rectangular": np.ones,
    "bartlett": _bartlett,
    "triang": _triang,
    "triangle": _triang,
}


def _window(window: Any, n: int, dtype: Any) -> Any:
    """The periodic window `window` names, of `n` points: the common ones computed here, the
    others (and parametrized ones, `("kaiser", beta)`) from `scipy.signal.get_window`, as JAX
    takes them (so unknown names get scipy's error)."""
    if isinstance(window, tuple) and len(window) == 1:
        window = window[0]
    if isinstance(window, str) and window in _WINDOWS:
        return jnp.asarray(np.asarray([1.0] if n == 1 else _WINDOWS[window](n)), dtype=dtype)
    if isinstance(window, (str, tuple)):
        from scipy.signal import get_window  # noqa: PLC0415 (scipy: on first use)

        return jnp.asarray(get_window(window, n), dtype=dtype)
    return jnp.asarray(window)


def _triage_segments(window: Any, nperseg: int | None, length: int, dtype: Any) -> tuple[Any, int]:
    """The window and the segment length, as JAX's `_triage_segments` (a named window's default
    length is the whole signal, not scipy's 256)."""
    if isinstance(window, (str, tuple)):
        n = length if nperseg is None else int(nperseg)
        if n > length:
            warnings.warn(
                f"nperseg={n} is greater than input_length={length}, using nperseg={length}",
                stacklevel=2,
            )
            n = length
        return _window(window, n, dtype), n
    win = jnp.asarray(window)
    if win.ndim != 1:
        raise ValueError("window must be 1-D")
    if length < win.shape[-1]:
        raise ValueError("window is longer than input signal")
    if nperseg is None:
        return win, win.shape[0]
    if nperseg != win.shape[0]:
        raise ValueError("value specified for nperseg is different from length of window")
    return win, int(nperseg)


def _odd_ext(x: Any, n: int) -> Any:
    """`x` extended by `n` points at both ends of its last axis by odd reflection."""
    if n < 1:
        return x
    if n > x.shape[-1] - 1:
        raise ValueError(
            f"The extension length n ({n}) is too big. It must not exceed x.shape[axis]-1, "
            f"which is {x.shape[-1] - 1}."
        )
    left = 2 * x[..., :1] - jnp.flip(x[..., 1 : n + 1], axis=-1)
    right = 2 * x[..., -1:] - jnp.flip(x[..., -(n + 1) : -1], axis=-1)
    return jnp.concatenate([left, x, right], axis=-1)


def _extend(x: Any, boundary: str, n: int) -> Any:
    widths = [(0, 0)] * (x.ndim - 1) + [(n, n)]
    if boundary == "even":
        return jnp.pad(x, widths, mode="reflect")
    if boundary == "odd":
        return _odd_ext(x, n)
    if boundary == "constant":
        return jnp.pad(x, widths, mode="edge")
    return jnp.pad(x, widths, mode="constant")


_BOUNDARIES = ("even", "odd", "constant", "zeros", None)


def _segments(x: Any, nperseg: int, noverlap: int) -> Any:
    """`(..., n_segments, nperseg)`: the overlapping segments of the last axis."""
    step = nperseg - noverlap
    starts = np.arange(0, x.shape[-1] - nperseg + 1, step)
    index = starts[:, None] + np.arange(nperseg)[None, :]
    return x[..., index]


def _fft_segments(x, win, detrend_func, nperseg, noverlap, nfft, twosided):
    if np.dtype(x.dtype).kind in "iub":
        x = x.astype(win.dtype)
    result = detrend_func(_segments(x, nperseg, noverlap))
    if jnp.iscomplexobj(win) and not jnp.iscomplexobj(result):
        result = result.astype(jnp.result_type(result.dtype, np.complex64))
    result = win * result
    return jnp.fft.fft(result, n=nfft) if twosided else jnp.fft.rfft(result.real, n=nfft)


def _spectral_helper(
    x: Any,
    y: Any,
    fs: Any = 1.0,
    window: Any = "hann",
    nperseg: int | None = None,
    noverlap: int | None = None,
    nfft: int | None = None,
    detrend_type: Any = "constant",
    return_onesided: bool = True,
    scaling: str = "density",
    axis: int = -1,
    mode: str = "psd",
    boundary: str | None = None,
    padded: bool = False,
) -> tuple[Any, Any, Any]:
    """scipy's `_spectral_helper` as JAX writes it (`y=None`: the auto-spectrum)."""
    if mode not in ("psd", "stft"):
        raise ValueError(f"Unknown value for mode {mode}, must be one of: ('psd', 'stft')")
    if boundary not in _BOUNDARIES:
        raise ValueError(
            f"Unknown boundary option '{boundary}', must be one of: {list(_BOUNDARIES)}"
        )
    if y is None:
        (x,) = promote_dtypes_inexact(jnp.asarray(x))
        axis = operator.index(axis) % x.ndim
        outer = x.shape[:axis] + x.shape[axis + 1 :]
    else:
        if mode != "psd":
            raise ValueError("two-argument mode is available only when mode=='psd'")
        x, y = promote_dtypes_inexact(jnp.asarray(x), jnp.asarray(y))
        if x.ndim != y.ndim:
            raise ValueError(f"two-arguments must have the same rank ({x.ndim} vs {y.ndim}).")
        axis = operator.index(axis) % x.ndim
        try:
            outer = np.broadcast_shapes(
                x.shape[:axis] + x.shape[axis + 1 :], y.shape[:axis] + y.shape[axis + 1 :]
            )
        except ValueError as err:
            raise ValueError("x and y cannot be broadcast together.") from err
    result_dtype = jnp.result_type(x.dtype, np.complex64)
    freq_dtype = np.finfo(result_dtype).dtype
    if nperseg is not None:
        nperseg = int(nperseg)
        if nperseg < 1:
            raise ValueError("nperseg must be a positive integer")
    win, nperseg = _triage_segments(window, nperseg, x.shape[axis], x.dtype)
    noverlap = nperseg // 2 if noverlap is None else int(noverlap)
    nfft = nperseg if nfft is None else int(nfft)
    if y is None and x.size == 0:
        return (jnp.zeros(x.shape, freq_dtype),) * 2 + (jnp.zeros(x.shape, result_dtype),)
    if y is not None and (x.size == 0 or y.size == 0):
        shape = outer[:axis] + (min(x.shape[axis], y.shape[axis]),) + outer[axis:]
        return (jnp.zeros(shape, freq_dtype),) * 2 + (jnp.zeros(shape, result_dtype),)
    x = jnp.moveaxis(x, axis, -1)
    if y is not None:
        y = jnp.moveaxis(y, axis, -1)
        if x.shape[-1] < y.shape[-1]:
            x = jnp.pad(x, [(0, 0)] * (x.ndim - 1) + [(0, y.shape[-1] - x.shape[-1])])
        elif y.shape[-1] < x.shape[-1]:
            y = jnp.pad(y, [(0, 0)] * (y.ndim - 1) + [(0, x.shape[-1] - y.shape[-1])])
    if nfft < nperseg:
        raise ValueError("nfft must be greater than or equal to nperseg.")
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")
    nstep = nperseg - noverlap
    if boundary is not None:
        x = _extend(x, boundary, nperseg // 2)
        if y is not None:
            y = _extend(y, boundary, nperseg // 2)
    if padded:
        nadd = (-(x.shape[-1] - nperseg) % nstep) % nperseg
        x = jnp.pad(x, [(0, 0)] * (x.ndim - 1) + [(0, nadd)])
        if y is not None:
            y = jnp.pad(y, [(0, 0)] * (y.ndim - 1) + [(0, nadd)])
    if isinstance(detrend_type, str):

        def detrend_func(d):
            return detrend(d, type=detrend_type, axis=-1)

    elif callable(detrend_type):
        detrend_func = detrend_type
    elif not detrend_type:

        def detrend_func(d):
            return d

    else:
        raise ValueError(f"Unsupported detrend type: {detrend_type}")
    if scaling == "density":
        scale = 1.0 / (fs * (win * win).sum())
    elif scaling == "spectrum":
        scale = 1.0 / win.sum() ** 2
    else:
        raise ValueError(f"Unknown scaling: {scaling}")
    if mode == "stft":
        scale = jnp.sqrt(scale)
    twosided = not return_onesided
    if return_onesided and (jnp.iscomplexobj(x) or (y is not None and jnp.iscomplexobj(y))):
        twosided = True
        warnings.warn("Input data is complex, switching to return_onesided=False", stacklevel=2)
    freqs = (jnp.fft.fftfreq if twosided else jnp.fft.rfftfreq)(nfft, 1 / fs).astype(freq_dtype)
    result = _fft_segments(x, win, detrend_func, nperseg, noverlap, nfft, twosided)
    if y is not None:
        result_y = _fft_segments(y, win, detrend_func, nperseg, noverlap, nfft, twosided)
        result = jnp.conjugate(result) * result_y
    elif mode == "psd":
        result = jnp.conjugate(result) * result
    result = result * scale
    if not twosided and mode == "psd":
        end = None if nfft % 2 else -1
        result = result.at[..., 1:end].multiply(2)
    time = jnp.arange(nperseg / 2, x.shape[-1] - nperseg / 2 + 1, nstep, dtype=freq_dtype) / fs
    if boundary is not None:
        time = time - (nperseg / 2) / fs
    result = result.astype(result_dtype)
    if y is None and mode != "stft":
        result = result.real
    return freqs, time, jnp.moveaxis(result, -1, axis)


def stft(
    x: Any,
    fs: Any = 1.0,
    window: Any = "hann",
    nperseg: int = 256,
    noverlap: int | None = None,
    nfft: int | None = None,
    detrend: Any = False,
    return_onesided: bool = True,
    boundary: str | None = "zeros",
    padded: bool = True,
    axis: int = -1,
) -> tuple[Any, Any, Any]:
    """The short-time Fourier transform, as `jax.scipy.signal.stft`.

    Args:
      x: the signal.
      fs: sampling frequency.
      window: a window name ("hann", "hamming", "blackman", "boxcar", "bartlett", "triang")
        or the window as an array.
      nperseg: segment length (at most the signal's).
      noverlap: overlap between segments (default `nperseg // 2`).
      nfft: FFT length (default `nperseg`).
      detrend: False, "constant", "linear" or a function of a segment.
      return_onesided: the non-negative frequencies only (real input).
      boundary: extend the signal at both ends: "zeros", "even", "odd", "constant" or None.
      padded: zero-pad the end to a whole number of segments.
      axis: the time axis.

    Returns:
      `(f, t, Zxx)`: frequencies, segment times, and the transform (frequencies in place of
      `axis`, segments last).
    """
    return _spectral_helper(
        x, None, fs, window, nperseg, noverlap, nfft, detrend, return_onesided,
        scaling="spectrum", axis=axis, mode="stft", boundary=boundary, padded=padded,
    )  # fmt: skip


def _median_bias(n: int) -> float:
    """The median's bias relative to the mean of `n` periodograms (scipy's `_median_bias`)."""
    ii_2 = 2 * np.arange(1.0, (n - 1) // 2 + 1)
    return 1 + np.sum(1.0 / (ii_2 + 1) - 1.0 / ii_2)


def csd(
    x: Any,
    y: Any,
    fs: Any = 1.0,
    window: Any = "hann",
    nperseg: int | None = None,
    noverlap: int | None = None,
    nfft: int | None = None,
    detrend: Any = "constant",
    return_onesided: bool = True,
    scaling: str = "density",
    axis: int = -1,
    average: str = "mean",
) -> tuple[Any, Any]:
    """The cross power spectral density by Welch's method, as `jax.scipy.signal.csd`
    (`y=None` is the power spectral density of `x`).

    Args: as `welch`, with `y` the second signal.

    Returns:
      `(f, Pxy)`: frequencies and the (complex unless `y` is None) cross spectral density.
    """
    freqs, _, pxy = _spectral_helper(
        x, y, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis,
        mode="psd",
    )  # fmt: skip
    if y is not None:
        pxy = pxy + 0j
    if pxy.ndim >= 2 and pxy.size > 0:
        if average == "median":
            bias = _median_bias(pxy.shape[-1])
            if jnp.iscomplexobj(pxy):
                pxy = jnp.median(pxy.real, axis=-1) + 1j * jnp.median(pxy.imag, axis=-1)
            else:
                pxy = jnp.median(pxy, axis=-1)
            pxy = pxy / bias
        elif average == "mean":
            pxy = pxy.mean(axis=-1)
        else:
            raise ValueError(f'average must be "median" or "mean", got {average}')
    return freqs, pxy


def welch(
    x: Any,
    fs: Any = 1.0,
    window: Any = "hann",
    nperseg: int | None = None,
    noverlap: int | None = None,
    nfft: int | None = None,
    detrend: Any = "constant",
    return_onesided: bool = True,
    scaling: str = "density",
    axis: int = -1,
    average: str = "mean",
) -> tuple[Any, Any]:
    """The power spectral density by Welch's method, as `jax.scipy.signal.welch`.

    Args:
      x: the signal.
      fs: sampling frequency.
      window: a window name or the window as an array.
      nperseg: segment length (default: the whole signal, as JAX, not scipy's 256).
      noverlap: overlap between segments (default `nperseg // 2`).
      nfft: FFT length (default `nperseg`).
      detrend: "constant" (default), "linear", False or a function of a segment.
      return_onesided: the non-negative frequencies only (real input).
      scaling: "density" (V**2/Hz) or "spectrum" (V**2).
      axis: the time axis.
      average: "mean" or "median" over the segments.

    Returns:
      `(f, Pxx)`: frequencies and the power spectral density.
    """
    freqs, pxx = csd(
        x, None, fs=fs, window=window, nperseg=nperseg, noverlap=noverlap, nfft=nfft,
        detrend=detrend, return_onesided=return_onesided, scaling=scaling, axis=axis,
        average=average,
    )  # fmt: skip
    return freqs, pxx.real


def _overlap_and_add(x: Any, step: int) -> Any:
    """`(..., frames, frame_length)` added up at offsets `step` apart: `(..., output_size)`."""
    *batch, nframes, seglen = x.shape
    out = jnp.zeros((*batch, step * (nframes - 1) + seglen), x.dtype)
    for i in range(nframes):
        out = out.at[..., i * step : i * step + seglen].add(x[..., i, :])
    return out


def istft(
    Zxx: Any,  # noqa: N803  (scipy's name)
    fs: Any = 1.0,
    window: Any = "hann",
    nperseg: int | None = None,
    noverlap: int | None = None,
    nfft: int | None = None,
    input_onesided: bool = True,
    boundary: bool = True,
    time_axis: int = -1,
    freq_axis: int = -2,
) -> tuple[Any, Any]:
    """The inverse short-time Fourier transform, as `jax.scipy.signal.istft`.

    Args:
      Zxx: the transform (at least 2-D).
      fs: sampling frequency.
      window: the window of the forward transform (name or array).
      nperseg: segment length (default: from the frequency axis).
      noverlap: overlap (default `nperseg // 2`).
      nfft: FFT length of the forward transform.
      input_onesided: `Zxx` holds the non-negative frequencies only.
      boundary: the forward transform extended the signal (its ends are cut off again).
      time_axis: the segments' axis.
      freq_axis: the frequencies' axis.

    Returns:
      `(t, x)`: the sample times and the reconstructed signal.
    """
    zxx = jnp.asarray(Zxx)
    if zxx.ndim < 2:
        raise ValueError("Input stft must be at least 2d!")
    freq_axis = operator.index(freq_axis) % zxx.ndim
    time_axis = operator.index(time_axis) % zxx.ndim
    if freq_axis == time_axis:
        raise ValueError("Must specify differing time and frequency axes!")
    zxx = zxx.astype(jnp.result_type(zxx.dtype, np.complex64))
    n_default = 2 * (zxx.shape[freq_axis] - 1) if input_onesided else zxx.shape[freq_axis]
    nperseg = int(nperseg or n_default)
    if nperseg < 1:
        raise ValueError("nperseg must be a positive integer")
    if nfft is None:
        nfft = n_default + (1 if input_onesided and nperseg == n_default + 1 else 0)
    nfft = int(nfft)
    if nfft < nperseg:
        raise ValueError(f"FFT length ({nfft}) must be longer than nperseg ({nperseg}).")
    noverlap = int(noverlap or nperseg // 2)
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")
    nstep = nperseg - noverlap
    if time_axis != zxx.ndim - 1 or freq_axis != zxx.ndim - 2:
        outer = tuple(i for i in range(zxx.ndim) if i not in (time_axis, freq_axis))
        zxx = jnp.transpose(zxx, outer + (freq_axis, time_axis))
    inverse = jnp.fft.irfft if input_onesided else jnp.fft.ifft
    xsubs = inverse(zxx, axis=-2, n=nfft)[..., :nperseg, :]
    win, _ = _triage_segments(window, nperseg, nperseg, xsubs.real.dtype)
    if win.ndim != 1 or win.shape[0] != nperseg:
        raise ValueError(f"window must have length of {nperseg}")
    win = win.astype(xsubs.dtype)
    xsubs = xsubs * win.sum()  # undoes the "spectrum" scaling
    win = win.reshape((1,) * (xsubs.ndim - 2) + (nperseg, 1))
    x = _overlap_and_add(jnp.swapaxes(xsubs * win, -2, -1), nstep)
    win_sq = jnp.repeat(win * win, xsubs.shape[-1], axis=-1)
    norm = _overlap_and_add(jnp.swapaxes(win_sq, -2, -1), nstep)
    if boundary:
        x = x[..., nperseg // 2 : -(nperseg // 2)]
        norm = norm[..., nperseg // 2 : -(nperseg // 2)]
    x = x / jnp.where(norm > 1e-10, norm, 1.0)
    if x.ndim > 1 and time_axis != zxx.ndim - 1:
        if freq_axis < time_axis:
            time_axis -= 1
        x = jnp.moveaxis(x, -1, time_axis)
    time = jnp.arange(x.shape[0], dtype=np.finfo(x.dtype).dtype) / fs
    return time, x
