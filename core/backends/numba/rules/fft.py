"""Numba lowering of `fft_p` (`core/prims/fft.py`): one library call per transformed axis.

The operand's real and imaginary parts are copied into float64 arrays, each transformed axis
is one call of `lib.fft_axis__f8` (`core/backends/numba/library/fft.py`: pocketfft's
mixed-radix passes, Bluestein's algorithm for large prime factors; compiled once, whatever the
sizes), and the result is scaled (`1 / prod(fft_lengths)` for the inverse types) and cast to
the output dtype. `RFFT` transforms the real last axis first (`lib.rfft_axis__f8`: a
half-length complex FFT), then the other axes of its half spectrum; `IRFFT` transforms the
leading axes of the half spectrum, then the last one into real values (`lib.irfft_axis__f8`:
the terms past `n // 2` ignored, missing ones zero, the zero and Nyquist terms' imaginary
parts dropped). The values agree with the eager impl (pocketfft) to rounding.
"""

from __future__ import annotations

import math

import numpy as np

from core.backends.numba.registry import Kernel, register_lowering
from core.backends.numba.source import alloc, np_type, reshape
from core.prims.fft import FftType, fft_p

_F8 = np.dtype(np.float64)


def _parts(ctx, x: str, count, complex_input: bool) -> tuple[str, str | None]:
    """The real and imaginary parts of the flat array `x` (`count` entries) as float64 (a
    real `x`: its values, and no imaginary part)."""
    re = ctx.assign("re", alloc((count,), _F8))
    im = ctx.assign("im", alloc((count,), _F8)) if complex_input else None
    i = ctx.new_name("i")
    with ctx.block(f"for {i} in range({count}):"):
        if complex_input:
            ctx.line(f"{re}[{i}] = {x}[{i}].real")
            ctx.line(f"{im}[{i}] = {x}[{i}].imag")
        else:
            ctx.line(f"{re}[{i}] = {x}[{i}]")
    return re, im


def _along(ctx, parts: tuple[str, str], shape: tuple, axis: int, sign: int) -> tuple[str, str]:
    """The transform of `parts` (flat, of `shape`) along `axis`, as new parts."""
    count = math.prod(shape)
    out = tuple(ctx.assign(p, alloc((count,), _F8)) for p in ("re", "im"))
    n = shape[axis]
    params = f"({math.prod(shape[:axis])}, {n}, {math.prod(shape[axis + 1 :])}, {sign})"
    ctx.line(f"lib.fft_axis__f8({parts[0]}, {parts[1]}, {out[0]}, {out[1]}, {params})")
    return out


def _fft_lowering(ctx, eqn):
    typ, k = eqn.params["fft_type"], len(eqn.params["fft_lengths"])
    x_aval, out_aval = ctx.in_avals[0], ctx.out_avals[0]
    in_shape, out_shape = ctx.in_shape(0), ctx.out_shape(0)
    dt = out_aval.dtype
    if x_aval.size == 0 or out_aval.size == 0:
        return [ctx.assign("f", alloc(out_shape, dt))]  # no elements
    nd = x_aval.ndim
    inverse = typ in (FftType.IFFT, FftType.IRFFT)
    sign = 1 if inverse else -1
    flat = ctx.assign("x", reshape(ctx.array(0), (math.prod(in_shape),)))
    parts = _parts(ctx, flat, math.prod(in_shape), x_aval.dtype.kind == "c")
    shape = in_shape
    if typ == FftType.RFFT:  # the real last axis first, then the others on its half spectrum
        shape = out_shape
        half = tuple(ctx.assign(p, alloc((math.prod(shape),), _F8)) for p in ("re", "im"))
        rows = f"({math.prod(in_shape[:-1])}, {in_shape[-1]})"
        ctx.line(f"lib.rfft_axis__f8({parts[0]}, {half[0]}, {half[1]}, {rows})")
        parts = half
    last = nd - 1 if typ in (FftType.RFFT, FftType.IRFFT) else nd
    for axis in range(nd - k, last):
        parts = _along(ctx, parts, shape, axis, sign)
    if typ == FftType.IRFFT:  # the leading axes done, the real last axis from its half spectrum
        real = ctx.assign("re", alloc((math.prod(out_shape),), _F8))
        rows = f"({math.prod(in_shape[:-1])}, {in_shape[-1]}, {out_shape[-1]})"
        ctx.line(f"lib.irfft_axis__f8({parts[0]}, {parts[1]}, {real}, {rows})")
        parts = (real, real)
    count = math.prod(out_shape)
    out = ctx.assign("f", alloc((count,), dt))
    scale = ctx.assign("scale", f"1.0 / ({math.prod(out_shape[nd - k :])})" if inverse else "1.0")
    i = ctx.new_name("i")
    with ctx.block(f"for {i} in range({count}):"):
        if dt.kind == "c":
            value = f"complex({parts[0]}[{i}] * {scale}, {parts[1]}[{i}] * {scale})"
        else:
            value = f"{parts[0]}[{i}] * {scale}"
        ctx.line(f"{out}[{i}] = {np_type(dt)}({value})")
    return [ctx.assign("f", reshape(out, out_shape))]


register_lowering(fft_p, Kernel(_fft_lowering))
