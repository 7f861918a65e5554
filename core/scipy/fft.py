"""`core.scipy.fft`: the type-2 discrete cosine transform and its inverse, as JAX computes them.

JAX (like scipy) supports only type 2. The DCT of length N is one complex FFT of the
interleaved input (even samples, then the odd ones reversed) times the twiddles
`exp(-i pi k / 2N)`, real part doubled (Makhoul's algorithm); `dctn` over two axes does both
at once with one 2-D FFT, more axes go two at a time; the inverse runs the same steps
backwards with an inverse FFT. `norm="ortho"` scales by `sqrt(1/4N)` (k = 0) and `sqrt(1/2N)`.
Complex inputs transform their real and imaginary parts separately.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import core.numpy as jnp
from core import lax
from core.numpy._util import canonicalize_axis, ensure_array, promote_dtypes_inexact
from core.scipy.errors import ModeError, ShapeMismatchError, UnsupportedOptionError

__all__ = ["dct", "dctn", "idct", "idctn"]


def _check(name: str, type: int, norm: str | None) -> None:
    if type != 2:
        raise UnsupportedOptionError(
            f"Only DCT type 2 is implemented.\n{name} got type={type}; pass type=2."
        )
    if norm is not None and norm not in ("backward", "ortho"):
        raise ModeError(
            f"jax.scipy.fft.{name}: norm={norm!r} is not implemented\n"
            "use norm=None, 'backward' or 'ortho'."
        )


def _others(ndim: int, axis: int) -> list[int]:
    return [a for a in range(ndim) if a != axis]


def _W4(N: int, k: Any) -> Any:
    k = k.astype(jnp.result_type(k, np.complex64))
    return jnp.exp(-0.5j * np.pi * k / N)


def _interleave(x: Any, axis: int) -> Any:
    v0 = lax.slice_in_dim(x, None, None, 2, axis)
    v1 = lax.rev(lax.slice_in_dim(x, 1, None, 2, axis), (axis,))
    return lax.concatenate([v0, v1], axis)


def _deinterleave(x: Any, axis: int) -> Any:
    half = math.ceil(x.shape[axis] / 2)
    v0 = lax.slice_in_dim(x, 0, half, 1, axis)
    v1 = lax.rev(lax.slice_in_dim(x, half, x.shape[axis], 1, axis), (axis,))
    whole = [slice(None)] * x.ndim
    evens, odds = list(whole), list(whole)
    evens[axis], odds[axis] = slice(None, None, 2), slice(1, None, 2)
    out = jnp.zeros(x.shape, dtype=x.dtype)
    return out.at[tuple(evens)].set(v0).at[tuple(odds)].set(v1)


def _ortho_norm(out: Any, axis: int) -> Any:
    n = out.shape[axis]
    factor = lax.concatenate([lax.full((1,), 4, out.dtype), lax.full((n - 1,), 2, out.dtype)], 0)
    factor = lax.expand_dims(factor, _others(out.ndim, axis))
    return out / lax.sqrt(factor * n)


def _resize(x: Any, sizes: dict[int, int]) -> Any:
    """Zero-pads or truncates `x` at the end of the axes in `sizes`."""
    pads = [(0, sizes[a] - x.shape[a] if a in sizes else 0, 0) for a in range(x.ndim)]
    return lax.pad(x, jnp.array(0, x.dtype), pads)


def _split_complex(fn, x: Any, **kwargs: Any) -> Any:
    return lax.complex(fn(x.real, **kwargs), fn(x.imag, **kwargs))


def dct(
    x: Any, type: int = 2, n: int | None = None, axis: int = -1, norm: str | None = None
) -> Any:
    """The discrete cosine transform along one axis (`jax.scipy.fft.dct`).

    Args:
        x: the input array.
        type: the DCT type; only 2 is implemented.
        n: the transform length: `x` is zero-padded or truncated to it (default its length).
        axis: the axis transformed.
        norm: None or "backward" (unnormalized) or "ortho".

    Returns:
        The transform, float (complex for complex `x`).
    """
    x = ensure_array(x)
    _check("dct", type, norm)
    if jnp.iscomplexobj(x):
        return _split_complex(dct, x, type=type, n=n, axis=axis, norm=norm)
    axis = canonicalize_axis(axis, x.ndim)
    if n is not None:
        x = _resize(x, {axis: n})
    N = x.shape[axis]
    V = jnp.fft.fft(_interleave(x, axis), axis=axis)
    k = lax.expand_dims(jnp.arange(N, dtype=V.real.dtype), _others(x.ndim, axis))
    out = 2 * (V * _W4(N, k)).real
    return _ortho_norm(out, axis) if norm == "ortho" else out


def _dct2(x: Any, axes: Sequence[int], norm: str | None) -> Any:
    axis1, axis2 = (canonicalize_axis(a, x.ndim) for a in axes)
    N1, N2 = x.shape[axis1], x.shape[axis2]
    V = jnp.fft.fftn(_interleave(_interleave(x, axis1), axis2), axes=axes)
    k1 = lax.expand_dims(jnp.arange(N1, dtype=V.dtype), _others(x.ndim, axis1))
    k2 = lax.expand_dims(jnp.arange(N2, dtype=V.dtype), _others(x.ndim, axis2))
    flipped = jnp.roll(jnp.flip(V, axis=axis2), shift=1, axis=axis2)
    out = 2 * (_W4(N1, k1) * (_W4(N2, k2) * V + _W4(N2, -k2) * flipped)).real
    if norm == "ortho":
        return _ortho_norm(_ortho_norm(out, axis1), axis2)
    return out


def _axes_and_sizes(
    x: Any, s: Sequence[int] | int | None, axes: Sequence[int] | None
) -> tuple[tuple[int, ...], list[int] | None]:
    if s is not None:
        s = list(s) if isinstance(s, Sequence) else [operator.index(s)]
        if len(s) > x.ndim:
            raise ShapeMismatchError(
                f"s must have at most x.ndim ({x.ndim}) elements, got {len(s)}"
            )
    if axes is None:
        axes = tuple(range(x.ndim - len(s), x.ndim)) if s is not None else tuple(range(x.ndim))
    else:
        axes = tuple(canonicalize_axis(a, x.ndim) for a in axes)
        if len(set(axes)) != len(axes):
            # JAX 0.10.2's first line, then the fix
            raise ShapeMismatchError(
                f"repeated axis: {axes}\nname each axis at most once (negative axes count from "
                "the end: -1 and ndim - 1 are the same axis)."
            )
    return axes, s


def _transform_nd(
    name: str,
    one_axis: Callable,
    many_axes: Callable,
    x: Any,
    type: int,
    s: Sequence[int] | None,
    axes: Sequence[int] | None,
    norm: str | None,
) -> Any:
    """`dctn`/`idctn`: checks, complex split, axes and sizes; one axis goes to `one_axis`."""
    x = ensure_array(x)
    _check(name, type, norm)
    if jnp.iscomplexobj(x):

        def part(p: Any) -> Any:
            return _transform_nd(name, one_axis, many_axes, p, type, s, axes, norm)

        return lax.complex(part(x.real), part(x.imag))
    axes, s = _axes_and_sizes(x, s, axes)
    if len(axes) == 1:
        return one_axis(x, n=s[0] if s is not None else None, axis=axes[0], norm=norm)
    if s is not None:
        x = _resize(x, dict(zip(axes, s)))
    return many_axes(x, axes, norm)


def dctn(
    x: Any,
    type: int = 2,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str | None = None,
) -> Any:
    """The discrete cosine transform over several axes (`jax.scipy.fft.dctn`).

    Args:
        x: the input array.
        type: the DCT type; only 2 is implemented.
        s: the output lengths along `axes` (zero-padding or truncating).
        axes: the axes transformed (default the last `len(s)`, or all).
        norm: None or "backward" (unnormalized) or "ortho".

    Returns:
        The transform, float (complex for complex `x`).
    """
    return _transform_nd("dctn", dct, _dctn_axes, x, type, s, axes, norm)


def _dctn_axes(x: Any, axes: tuple[int, ...], norm: str | None) -> Any:
    if len(axes) == 2:
        return _dct2(x, axes=axes, norm=norm)
    for block in [axes[i : i + 2] for i in range(0, len(axes), 2)]:
        x = dctn(x, axes=block, norm=norm)
    return x


def idct(
    x: Any, type: int = 2, n: int | None = None, axis: int = -1, norm: str | None = None
) -> Any:
    """The inverse of `dct` along one axis (`jax.scipy.fft.idct`).

    Args:
        x: the input array.
        type: the DCT type; only 2 is implemented.
        n: the transform length: `x` is zero-padded or truncated to it (default its length).
        axis: the axis transformed.
        norm: None or "backward" (the inverse of the unnormalized `dct`) or "ortho".

    Returns:
        The inverse transform, float (complex for complex `x`).
    """
    x = ensure_array(x)
    _check("idct", type, norm)
    if jnp.iscomplexobj(x):
        return _split_complex(idct, x, type=type, n=n, axis=axis, norm=norm)
    axis = canonicalize_axis(axis, x.ndim)
    if n is not None:
        x = _resize(x, {axis: n})
    N = x.shape[axis]
    (x,) = promote_dtypes_inexact(x)
    if norm is None or norm == "backward":
        x = _ortho_norm(x, axis)
    x = _ortho_norm(x, axis)
    k = lax.expand_dims(jnp.arange(N, dtype=x.dtype), _others(x.ndim, axis))
    w4 = _W4(N, k)
    x = x.astype(w4.dtype) / w4 * 2 * N
    return _deinterleave(jnp.fft.ifft(x, axis=axis).real, axis)


def idctn(
    x: Any,
    type: int = 2,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str | None = None,
) -> Any:
    """The inverse of `dctn` (`jax.scipy.fft.idctn`).

    Args:
        x: the input array.
        type: the DCT type; only 2 is implemented.
        s: the output lengths along `axes` (zero-padding or truncating).
        axes: the axes transformed (default the last `len(s)`, or all).
        norm: None or "backward" or "ortho".

    Returns:
        The inverse transform, float (complex for complex `x`).
    """
    return _transform_nd("idctn", idct, _idctn_axes, x, type, s, axes, norm)


def _idctn_axes(x: Any, axes: tuple[int, ...], norm: str | None) -> Any:
    for axis in axes:
        x = idct(x, axis=axis, norm=norm)
    return x
