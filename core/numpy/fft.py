"""`core.numpy.fft`: discrete Fourier transforms, like `jax.numpy.fft`.

Every transform is JAX's `_fft_core`: the transformed axes moved last, the input cropped and
zero-padded to the lengths `s` (`n`), one `lax.fft` (an `fft_p` equation, `core/prims/fft.py`)
over up to three trailing axes (more are done three or two at a time, as JAX splits them), the
`norm` factor multiplied in, and the axes moved back. So `make_jaxpr` shows JAX's equations,
and `grad`, `vmap` and `jit` go through `fft_p`'s rules. `hfft` is the `irfft` of the conjugate
scaled by `n`, `ihfft` the conjugate of `rfft` scaled by `1 / n`, as JAX writes them.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from core import dtypes
from core.lax.fourier import FftType
from core.lax.fourier import fft as lax_fft
from core.named_sharding import placed_by
from core.numpy import creation as cr
from core.numpy import reductions as rd
from core.numpy import shapes as shp
from core.numpy import ufuncs as uf
from core.numpy._util import (
    canonicalize_axis,
    check_arraylike,
    ensure_array,
    promote_dtypes_inexact,
)
from core.numpy.padding import pad
from core.prims import indexing
from core.trace import get_aval

__all__ = [
    "fft",
    "fft2",
    "fftfreq",
    "fftn",
    "fftshift",
    "hfft",
    "ifft",
    "ifft2",
    "ifftn",
    "ifftshift",
    "ihfft",
    "irfft",
    "irfft2",
    "irfftn",
    "rfft",
    "rfft2",
    "rfftfreq",
    "rfftn",
]


# ---------------------------------------------------------------------------------------------
# JAX's core: axes last, crop/pad to `s`, one lax.fft, the norm factor


def _fft_norm(s: Any, func_name: str, norm: str) -> Any:
    """JAX's factor of `norm` for the lengths `s` (an array of the result's dtype)."""
    if norm == "backward":
        return cr.array(1)
    (s,) = promote_dtypes_inexact(s)  # an integer product could overflow
    if norm == "ortho":
        root = uf.sqrt(rd.prod(s))
        return root if func_name.startswith("i") else uf.divide(1, root)
    if norm == "forward":
        total = rd.prod(s)
        return total if func_name.startswith("i") else uf.divide(1, total)
    raise ValueError(f'Invalid norm value {norm}; should be "backward","ortho" or "forward".')


def _check_repeated(name: str, axes: Sequence[int], nd: int) -> None:
    """JAX's error for an axis given twice (its message shows the axes as given)."""
    canonical = [canonicalize_axis(operator.index(ax), nd) for ax in axes]
    if len(set(canonical)) != len(canonical):
        raise ValueError(f"jax.numpy.fft.{name} does not support repeated axes. Got axes {axes}.")


def _fft_core(
    func_name: str,
    fft_type: FftType,
    a: Any,
    s: Sequence[int] | None,
    axes: Sequence[int] | None,
    norm: str | None,
) -> Any:
    check_arraylike(f"jax.numpy.fft.{func_name}", a)
    arr = ensure_array(a)
    if s is not None:
        s = tuple(operator.index(d) for d in s)
        if any(d <= 0 for d in s):
            raise ValueError(f"Shape should be positive.\nGot s={list(s)}.")
    if s is not None and axes is not None and len(s) != len(axes):
        raise ValueError(f"Shape and axes have different lengths.\nGot s={s}, axes={axes}.")
    nd = get_aval(arr).ndim
    orig_axes = axes
    if axes is None:
        axes = range(nd) if s is None else range(nd - len(s), nd)
    _check_repeated(func_name, axes, nd)
    if orig_axes is not None:
        axes = tuple(range(nd - len(axes), nd))
        arr = shp.moveaxis(arr, tuple(orig_axes), axes)
    shape = get_aval(arr).shape
    if s is not None:
        in_s = list(shape)
        for axis, x in zip(axes, s):
            in_s[axis] = x
        if fft_type == FftType.IRFFT:
            in_s[-1] = in_s[-1] // 2 + 1
        if any(x < d for x, d in zip(in_s, shape)):
            arr = indexing.slice(arr, (0,) * nd, tuple(min(x, d) for x, d in zip(in_s, shape)))
        cropped = get_aval(arr).shape
        arr = pad(arr, [(0, x - d) for x, d in zip(in_s, cropped)])
    elif fft_type == FftType.IRFFT:
        s = [shape[axis] for axis in axes[:-1]]
        if axes:
            s += [max(0, 2 * (shape[axes[-1]] - 1))]
    else:
        s = [shape[axis] for axis in axes]
    if fft_type == FftType.IRFFT and s and s[-1] < 1:
        raise ValueError(f"Invalid number of FFT data points ({s[-1]}) specified; must be >= 1.")
    transformed = _fft_core_nd(arr, fft_type, tuple(s))
    if norm is not None:
        dt = get_aval(transformed).dtype
        transformed = uf.multiply(transformed, _fft_norm(cr.array(s, dtype=dt), func_name, norm))
    if orig_axes is not None:
        transformed = shp.moveaxis(transformed, axes, tuple(orig_axes))
    return transformed


def _fft_core_nd(arr: Any, fft_type: FftType, s: tuple[int, ...]) -> Any:
    """One `lax.fft` over up to three trailing axes; more are transformed by the last two or
    three first (the forward types) or last (the inverse ones), as JAX splits them."""
    if len(s) <= 3:
        return lax_fft(arr, fft_type, s)
    nd = get_aval(arr).ndim
    n = 2 if len(s) == 4 else 3
    src = tuple(range(nd - len(s), nd - n))
    dst = tuple(range(nd - len(s) + n, nd))
    if fft_type in (FftType.RFFT, FftType.FFT):
        arr = lax_fft(arr, fft_type, s[-n:])
        arr = shp.moveaxis(arr, src, dst)
        arr = _fft_core_nd(arr, FftType.FFT, s[:-n])
        return shp.moveaxis(arr, dst, src)
    arr = shp.moveaxis(arr, src, dst)
    arr = _fft_core_nd(arr, FftType.IFFT, s[:-n])
    arr = shp.moveaxis(arr, dst, src)
    return lax_fft(arr, fft_type, s[-n:])


# ---------------------------------------------------------------------------------------------
# 1-D transforms


def _fft_core_1d(
    func_name: str, fft_type: FftType, a: Any, n: int | None, axis: int | None, norm: str | None
) -> Any:
    _axis_check_1d(func_name, axis)
    axes = None if axis is None else [operator.index(axis)]
    s = None if n is None else [n]
    return _fft_core(func_name, fft_type, a, s, axes, norm)


def _axis_check_1d(name: str, axis: Any) -> None:
    if isinstance(axis, (list, tuple)):
        raise ValueError(
            f"jax.numpy.fft.{name} does not support multiple axes. Please use "
            f"jax.numpy.fft.{name}n. Got axis = {axis!r}."
        )


def fft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Any:
    """1-D discrete Fourier transform, `y[k] = sum_j a[j] exp(-2 pi i jk/n)`.

    Args:
        a: input array (real inputs are converted to complex).
        n: transform length: the input is cropped or zero-padded along `axis` (static).
        axis: the axis to transform.
        norm: "backward" (default: unscaled), "ortho" (1/sqrt(n)) or "forward" (1/n).

    Returns:
        The complex transform (complex64 unless x64 is on).
    """
    return _fft_core_1d("fft", FftType.FFT, a, n, axis, norm)


def ifft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Any:
    """1-D inverse discrete Fourier transform, `y[j] = 1/n sum_k a[k] exp(2 pi i jk/n)`.

    Args:
        a: input array.
        n: transform length: the input is cropped or zero-padded along `axis` (static).
        axis: the axis to transform.
        norm: "backward" (default: 1/n), "ortho" (1/sqrt(n)) or "forward" (unscaled).

    Returns:
        The complex inverse transform.
    """
    return _fft_core_1d("ifft", FftType.IFFT, a, n, axis, norm)


def rfft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Any:
    """1-D Fourier transform of a real input: the `n // 2 + 1` non-negative frequencies.

    Args:
        a: real input array.
        n: transform length: the input is cropped or zero-padded along `axis` (static).
        axis: the axis to transform.
        norm: "backward" (default), "ortho" or "forward".

    Returns:
        The complex transform, `n // 2 + 1` long along `axis`.
    """
    return _fft_core_1d("rfft", FftType.RFFT, a, n, axis, norm)


def irfft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Any:
    """Inverse of `rfft`: the real signal whose spectrum has non-negative half `a`.

    Args:
        a: the non-negative frequency terms (imaginary parts of the zero and Nyquist terms
            are ignored).
        n: output length (default `2 * (a.shape[axis] - 1)`); the input is cropped or
            zero-padded to `n // 2 + 1` terms.
        axis: the axis to transform.
        norm: "backward" (default: 1/n), "ortho" or "forward".

    Returns:
        The real inverse transform, `n` long along `axis`.
    """
    return _fft_core_1d("irfft", FftType.IRFFT, a, n, axis, norm)


def hfft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Any:
    """Fourier transform of a Hermitian-symmetric signal given by its first half `a`.

    Args:
        a: the first `n // 2 + 1` samples of the signal.
        n: output length (default `2 * (a.shape[axis] - 1)`).
        axis: the axis to transform.
        norm: "backward" (default: unscaled), "ortho" or "forward".

    Returns:
        The real spectrum, `n` long along `axis`.
    """
    check_arraylike("conjugate", a)
    conj_a = uf.conjugate(a)
    _axis_check_1d("hfft", axis)
    nn = (get_aval(conj_a).shape[axis] - 1) * 2 if n is None else n
    return uf.multiply(_fft_core_1d("hfft", FftType.IRFFT, conj_a, n, axis, norm), nn)


def ihfft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Any:
    """Inverse of `hfft`: the first half of the Hermitian signal with real spectrum `a`.

    Args:
        a: real input array.
        n: transform length: the input is cropped or zero-padded along `axis` (static).
        axis: the axis to transform.
        norm: "backward" (default: 1/n), "ortho" or "forward".

    Returns:
        The complex result, `n // 2 + 1` long along `axis`.
    """
    _axis_check_1d("ihfft", axis)
    arr = cr.asarray(a)
    nn = get_aval(arr).shape[axis] if n is None else n
    output = _fft_core_1d("ihfft", FftType.RFFT, arr, n, axis, norm)
    return uf.multiply(uf.conjugate(output), 1 / nn)


# ---------------------------------------------------------------------------------------------
# N-D transforms


def fftn(
    a: Any,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str | None = None,
) -> Any:
    """N-D discrete Fourier transform over `axes` (all axes, or the last `len(s)`).

    Args:
        a: input array.
        s: transform lengths per axis (inputs cropped or zero-padded).
        axes: the axes to transform.
        norm: "backward" (default), "ortho" or "forward".

    Returns:
        The complex transform.
    """
    return _fft_core("fftn", FftType.FFT, a, s, axes, norm)


def ifftn(
    a: Any,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str | None = None,
) -> Any:
    """N-D inverse discrete Fourier transform over `axes`.

    Args:
        a: input array.
        s: transform lengths per axis (inputs cropped or zero-padded).
        axes: the axes to transform.
        norm: "backward" (default), "ortho" or "forward".

    Returns:
        The complex inverse transform.
    """
    return _fft_core("ifftn", FftType.IFFT, a, s, axes, norm)


def rfftn(
    a: Any,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str | None = None,
) -> Any:
    """N-D Fourier transform of a real input: `rfft` over the last axis, `fft` over the others.

    Args:
        a: real input array.
        s: transform lengths per axis (inputs cropped or zero-padded).
        axes: the axes to transform.
        norm: "backward" (default), "ortho" or "forward".

    Returns:
        The complex transform; the last transformed axis has `s[-1] // 2 + 1` entries.
    """
    return _fft_core("rfftn", FftType.RFFT, a, s, axes, norm)


def irfftn(
    a: Any,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str | None = None,
) -> Any:
    """Inverse of `rfftn`: `ifft` over all axes but the last, then `irfft` over the last.

    Args:
        a: input array.
        s: output lengths per axis (the last defaults to `2 * (a.shape[axes[-1]] - 1)`).
        axes: the axes to transform.
        norm: "backward" (default), "ortho" or "forward".

    Returns:
        The real inverse transform.
    """
    return _fft_core("irfftn", FftType.IRFFT, a, s, axes, norm)


def _over_two_axes(
    nd: Callable[..., Any], summary: str, a_doc: str, s_doc: str, returns: str
) -> Callable[..., Any]:
    """The 2-D form of the n-D transform `nd`: `nd` with `axes` defaulting to the last two."""
    name = nd.__name__[:-1] + "2"

    def transform(
        a: Any,
        s: Sequence[int] | None = None,
        axes: Sequence[int] = (-2, -1),
        norm: str | None = None,
    ) -> Any:
        check_arraylike(f"jax.numpy.fft.{name}", a)
        if len(axes) != 2:
            raise ValueError(f"jax.numpy.fft.{name} only supports 2 axes. Got axes = {axes}.")
        a = ensure_array(a)
        _check_repeated(name, axes, get_aval(a).ndim)
        return nd(a, s, axes, norm)

    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = f"""{summary}

    Args:
        a: {a_doc} (at least 2-D).
        s: {s_doc} lengths for the two axes.
        axes: the two axes to transform.
        norm: "backward" (default), "ortho" or "forward".

    Returns:
        {returns}
    """
    return transform


fft2 = _over_two_axes(
    fftn,
    "2-D discrete Fourier transform (`fftn` over `axes`, the last two by default).",
    "input array",
    "transform",
    "The complex transform.",
)
ifft2 = _over_two_axes(
    ifftn,
    "2-D inverse discrete Fourier transform.",
    "input array",
    "transform",
    "The complex inverse transform.",
)
rfft2 = _over_two_axes(
    rfftn,
    "2-D Fourier transform of a real input.",
    "real input array",
    "transform",
    "The complex transform.",
)
irfft2 = _over_two_axes(
    irfftn, "Inverse of `rfft2`.", "input array", "output", "The real inverse transform."
)


# ---------------------------------------------------------------------------------------------
# Frequencies and shifts


def _frequencies(
    name: str, n: int, d: Any, dtype: Any, device: Any, indices: Callable[[int], np.ndarray]
) -> Any:
    """`indices(n) / (d * n)` for `fftfreq`/`rfftfreq` (`name`), after checking `n` and `d`,
    committed to `device` if given."""
    if isinstance(n, (list, tuple)):
        raise ValueError(f"The n argument of jax.numpy.fft.{name} only takes an int. Got n = {n}.")
    if isinstance(d, (list, tuple)):
        raise ValueError(
            f"The d argument of jax.numpy.fft.{name} only takes a single value. Got d = {d}."
        )
    n = n if isinstance(n, float) else operator.index(n)  # JAX's arange takes a float n too
    dt = dtypes.default_float() if dtype is None else dtypes.canonicalize_dtype(dtype)
    dt = dt if dt.kind in "fc" else dtypes.default_float()
    out = uf.divide(cr.asarray(indices(n).astype(dt)), uf.multiply(d, n).astype(dt))
    out = out if dtype is None else out.astype(dtype)
    return placed_by(out, device, None, f"jnp.fft.{name}")


def fftfreq(n: int, d: Any = 1.0, *, dtype: Any = None, device: Any = None) -> Any:
    """Sample frequencies of `fft`: `[0, 1, ..., -(n//2), ..., -1] / (d * n)`.

    Args:
        n: window length (static).
        d: sample spacing (a scalar, may be traced).
        dtype: output dtype (default: the default float).
        device: the device (or `Sharding`) the result is committed to, or None.

    Returns:
        The `n` frequencies.
    """
    return _frequencies(
        "fftfreq", n, d, dtype, device, lambda n: (np.arange(n) + n // 2) % n - n // 2
    )


def rfftfreq(n: int, d: Any = 1.0, *, dtype: Any = None, device: Any = None) -> Any:
    """Sample frequencies of `rfft`: `[0, 1, ..., n//2] / (d * n)`.

    Args:
        n: window length (static).
        d: sample spacing (a scalar, may be traced).
        dtype: output dtype (default: the default float).
        device: the device (or `Sharding`) the result is committed to, or None.

    Returns:
        The `n // 2 + 1` frequencies.
    """
    return _frequencies("rfftfreq", n, d, dtype, device, lambda n: np.arange(n // 2 + 1))


def _shift(x: Any, axes: Any, sign: int) -> Any:
    x = ensure_array(x)
    shape = get_aval(x).shape
    if axes is None:
        axes = tuple(range(len(shape)))
    if isinstance(axes, int):
        return shp.roll(x, sign * (shape[axes] // 2), axes)
    axes = tuple(axes)
    if not axes:
        return x
    return shp.roll(x, [sign * (shape[ax] // 2) for ax in axes], axes)


def fftshift(x: Any, axes: int | Sequence[int] | None = None) -> Any:
    """Moves the zero-frequency term to the center (`roll` by `n // 2` along `axes`).

    Args:
        x: input array.
        axes: axes to shift (all by default).

    Returns:
        The shifted array.
    """
    check_arraylike("fftshift", x)
    return _shift(x, axes, 1)


def ifftshift(x: Any, axes: int | Sequence[int] | None = None) -> Any:
    """Inverse of `fftshift` (`roll` by `-(n // 2)` along `axes`).

    Args:
        x: input array.
        axes: axes to shift (all by default).

    Returns:
        The shifted array.
    """
    check_arraylike("ifftshift", x)
    return _shift(x, axes, -1)
