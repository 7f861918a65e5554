"""`core.numpy.fft`: discrete Fourier transforms, like `jax.numpy.fft`.

There is no FFT primitive: every 1-D transform is a matrix product of the input (moved to the
last axis) with a constant DFT matrix built in numpy (float64, then cast), so `jit`, `grad`
and `vmap` work through the existing `dot_general`, `convert_element_type` and elementwise
rules. Cropping or zero-padding to `n` is folded into the matrix (extra input rows are zero),
and so is the `norm` scaling. The cost is O(n^2) per transformed axis instead of
O(n log n): fine for the sizes a CPU user transforms (up to a few thousand points per axis).
Multi-dimensional transforms apply the 1-D ones axis by axis. Complex values are taken apart
with `convert_element_type` (real part) and a multiplication by -1j (imaginary part).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from core import dtypes
from core.array import Array
from core.lax.fourier import c2r_matrices, complex_dtype, imag_part, phases, real_dtype, real_part
from core.numpy import creation as cr
from core.numpy import shapes as shp
from core.numpy import ufuncs as uf
from core.numpy._util import (
    canonicalize_axis,
    check_arraylike,
    ensure_array,
    promote_dtypes_inexact,
)
from core.numpy.linalg_ops import matmul
from core.prims import shapes as sh
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

_NORMS = ("backward", "ortho", "forward")


# ---------------------------------------------------------------------------------------------
# Complex helpers and DFT matrices


def _as_complex(x: Any) -> Any:
    (x,) = promote_dtypes_inexact(x)
    dt = get_aval(x).dtype
    return x if dt.kind == "c" else sh.convert_element_type(x, complex_dtype(dt))


def _scale(n: int, norm: str | None, inverse: bool) -> float:
    norm = "backward" if norm is None else norm
    if norm not in _NORMS:
        raise ValueError(f'Invalid norm value {norm}; should be "backward","ortho" or "forward".')
    if norm == "ortho":
        return 1 / np.sqrt(n)
    return 1 / n if (norm == "backward") == inverse else 1.0


def _check_n(n: int) -> int:
    n = operator.index(n)
    if n < 1:  # JAX's first line
        raise ValueError(f"Shape should be positive.\nGot n={n}: the number of FFT points is >= 1.")
    return n


def _along(x: Any, axis: int, mat: np.ndarray) -> Any:
    """`x` contracted along `axis` with the constant matrix `mat` (rows: input positions)."""
    nd = get_aval(x).ndim
    ax = canonicalize_axis(axis, nd)
    xm = shp.moveaxis(x, ax, -1) if ax != nd - 1 else x
    out = matmul(xm, Array(mat.astype(get_aval(x).dtype)))
    return shp.moveaxis(out, -1, ax) if ax != nd - 1 else out


def _c2c(a: Any, n: int | None, axis: int, norm: str | None, inverse: bool) -> Any:
    z = _as_complex(a)
    m = get_aval(z).shape[canonicalize_axis(axis, get_aval(z).ndim)]
    n = m if n is None else _check_n(n)
    mat = phases(m, n, n, 1 if inverse else -1) * _scale(n, norm, inverse)
    return _along(z, axis, mat)


def _r2c(a: Any, n: int | None, axis: int, norm: str | None, inverse: bool) -> Any:
    (x,) = promote_dtypes_inexact(a)
    if get_aval(x).dtype.kind == "c":
        raise ValueError("only real valued inputs supported for rfft")  # JAX's, for all
    m = get_aval(x).shape[canonicalize_axis(axis, get_aval(x).ndim)]
    n = m if n is None else _check_n(n)
    mat = phases(m, n, n // 2 + 1, 1 if inverse else -1) * _scale(n, norm, inverse)
    return _along(_as_complex(x), axis, mat)


def _c2r(a: Any, n: int | None, axis: int, norm: str | None, inverse: bool) -> Any:
    """Real output of a Hermitian-symmetric spectrum given by its first n//2+1 entries;
    `inverse=False` conjugates the input first (`hfft`)."""
    (z,) = promote_dtypes_inexact(a)
    m = get_aval(z).shape[canonicalize_axis(axis, get_aval(z).ndim)]
    n = 2 * (m - 1) if n is None else _check_n(n)
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified; must be >= 1.")
    vr, vi = c2r_matrices(m, n, _scale(n, norm, inverse))
    rdt = real_dtype(complex_dtype(get_aval(z).dtype))
    out = _along(real_part(z), axis, vr.astype(rdt))
    if get_aval(z).dtype.kind != "c":
        return out
    im = _along(imag_part(z), axis, vi.astype(rdt))
    return uf.subtract(out, im) if inverse else uf.add(out, im)


# ---------------------------------------------------------------------------------------------
# 1-D transforms


def _axis_1d(name: str, axis: Any) -> int:
    if isinstance(axis, (list, tuple)):
        raise ValueError(
            f"jax.numpy.fft.{name} does not support multiple axes. Please use {name}n. "
            f"Got axis = {axis!r}."
        )
    return operator.index(axis)


def fft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> Any:
    """1-D discrete Fourier transform, `y[k] = sum_j a[j] exp(-2 pi i jk/n)`.

    O(n^2) (a product with the DFT matrix), see the module docstring.

    Args:
        a: input array (real inputs are converted to complex).
        n: transform length: the input is cropped or zero-padded along `axis` (static).
        axis: the axis to transform.
        norm: "backward" (default: unscaled), "ortho" (1/sqrt(n)) or "forward" (1/n).

    Returns:
        The complex transform (complex64 unless x64 is on).
    """
    check_arraylike("jax.numpy.fft.fft", a)
    return _c2c(ensure_array(a), n, _axis_1d("fft", axis), norm, inverse=False)


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
    check_arraylike("jax.numpy.fft.ifft", a)
    return _c2c(ensure_array(a), n, _axis_1d("ifft", axis), norm, inverse=True)


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
    check_arraylike("jax.numpy.fft.rfft", a)
    return _r2c(ensure_array(a), n, _axis_1d("rfft", axis), norm, False)


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
    check_arraylike("jax.numpy.fft.irfft", a)
    return _c2r(ensure_array(a), n, _axis_1d("irfft", axis), norm, inverse=True)


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
    return _c2r(ensure_array(a), n, _axis_1d("hfft", axis), norm, inverse=False)


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
    a, axis = ensure_array(a), _axis_1d("ihfft", axis)
    # JAX's formula (the signs of its zeros show it): conj(rfft(a)) scaled, not a DFT with +i
    nn = get_aval(a).shape[axis] if n is None else n
    return uf.multiply(uf.conjugate(_r2c(a, n, axis, "backward", False)), _scale(nn, norm, True))


# ---------------------------------------------------------------------------------------------
# N-D transforms


def _axes_and_sizes(
    name: str, a: Any, s: Sequence[int] | None, axes: Sequence[int] | None
) -> tuple[list[int], list[int | None]]:
    nd = get_aval(a).ndim
    if s is not None:
        s = [operator.index(d) for d in s]
        if any(d <= 0 for d in s):  # JAX's first lines, then the arguments
            raise ValueError(f"Shape should be positive.\nGot s={s}.")
        if axes is not None and len(s) != len(axes):
            raise ValueError(f"Shape and axes have different lengths.\nGot s={s}, axes={axes}.")
    if axes is None:
        axes = range(nd) if s is None else range(nd - len(s), nd)
    _check_repeated(name, axes, nd)
    axes = [canonicalize_axis(operator.index(ax), nd) for ax in axes]
    sizes: list[int | None] = list(s) if s is not None else [None] * len(axes)
    return axes, sizes


def _check_repeated(name: str, axes: Sequence[int], nd: int) -> None:
    """JAX's error for an axis given twice (its message shows the axes as given)."""
    canonical = [canonicalize_axis(operator.index(ax), nd) for ax in axes]
    if len(set(canonical)) != len(canonical):
        raise ValueError(
            f"jax.numpy.fft.{name} does not support repeated axes. Got axes {tuple(axes)}."
        )


def _c2c_axes(
    x: Any, axes: list[int], sizes: list[int | None], norm: str | None, inverse: bool
) -> Any:
    """The 1-D complex transform of `x` over each of `axes` in turn (lengths `sizes`)."""
    for ax, n in zip(axes, sizes):
        x = _c2c(x, n, ax, norm, inverse)
    return x


def _c2c_nd(
    name: str,
    a: Any,
    s: Sequence[int] | None,
    axes: Sequence[int] | None,
    norm: str | None,
    inverse: bool,
) -> Any:
    """`fftn` (`ifftn` if `inverse`)."""
    a = ensure_array(a)
    axes_l, sizes = _axes_and_sizes(name, a, s, axes)
    return _c2c_axes(_as_complex(a), axes_l, sizes, norm, inverse)


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
    check_arraylike("jax.numpy.fft.fftn", a)
    return _c2c_nd("fftn", a, s, axes, norm, inverse=False)


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
    check_arraylike("jax.numpy.fft.ifftn", a)
    return _c2c_nd("ifftn", a, s, axes, norm, inverse=True)


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
    check_arraylike("jax.numpy.fft.rfftn", a)
    a = ensure_array(a)
    axes_l, sizes = _axes_and_sizes("rfftn", a, s, axes)
    if not axes_l:
        return _as_complex(a)
    out = _r2c(a, sizes[-1], axes_l[-1], norm, False)
    return _c2c_axes(out, axes_l[:-1], sizes[:-1], norm, inverse=False)


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
    check_arraylike("jax.numpy.fft.irfftn", a)
    a = ensure_array(a)
    axes_l, sizes = _axes_and_sizes("irfftn", a, s, axes)
    if not axes_l:
        return real_part(_as_complex(a))
    out = _c2c_axes(a, axes_l[:-1], sizes[:-1], norm, inverse=True)
    return _c2r(out, sizes[-1], axes_l[-1], norm, inverse=True)


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
        axes = tuple(axes)
        if len(axes) != 2:
            raise ValueError(f"jax.numpy.fft.{name} only supports 2 axes. Got axes = {axes}.")
        _check_repeated(name, axes, np.ndim(a))
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
    name: str, n: int, d: Any, dtype: Any, indices: Callable[[int], np.ndarray]
) -> Any:
    """`indices(n) / (d * n)` for `fftfreq`/`rfftfreq` (`name`), after checking `n` and `d`."""
    if isinstance(n, (list, tuple)):
        raise ValueError(f"The n argument of jax.numpy.fft.{name} only takes an int. Got n = {n}.")
    if isinstance(d, (list, tuple)):
        raise ValueError(
            f"The d argument of jax.numpy.fft.{name} only takes a single value. Got d = {d}."
        )
    n = operator.index(n)
    dt = dtypes.default_float() if dtype is None else dtypes.canonicalize_dtype(dtype)
    dt = dt if dt.kind in "fc" else dtypes.default_float()
    out = uf.divide(cr.asarray(indices(n).astype(dt)), uf.multiply(d, n).astype(dt))
    return out if dtype is None else out.astype(dtype)


def fftfreq(n: int, d: Any = 1.0, *, dtype: Any = None, device: Any = None) -> Any:
    """Sample frequencies of `fft`: `[0, 1, ..., -(n//2), ..., -1] / (d * n)`.

    Args:
        n: window length (static).
        d: sample spacing (a scalar, may be traced).
        dtype: output dtype (default: the default float).
        device: accepted for JAX compatibility (ignored).

    Returns:
        The `n` frequencies.
    """
    return _frequencies("fftfreq", n, d, dtype, lambda n: (np.arange(n) + n // 2) % n - n // 2)


def rfftfreq(n: int, d: Any = 1.0, *, dtype: Any = None, device: Any = None) -> Any:
    """Sample frequencies of `rfft`: `[0, 1, ..., n//2] / (d * n)`.

    Args:
        n: window length (static).
        d: sample spacing (a scalar, may be traced).
        dtype: output dtype (default: the default float).
        device: accepted for JAX compatibility (ignored).

    Returns:
        The `n // 2 + 1` frequencies.
    """
    return _frequencies("rfftfreq", n, d, dtype, lambda n: np.arange(n // 2 + 1))


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
