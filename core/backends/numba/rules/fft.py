"""Numba lowering of `fft_p` (`core/prims/fft.py`): one library call per transformed axis.

The operand's real and imaginary parts are copied into two float64 arrays, each transformed
axis is one call of `lib.fft_axis__f8` (`core/backends/numba/library/fft.py`: radix-2 for
powers of two, else a direct sum; compiled once, whatever the sizes), and the result is scaled
(`1 / prod(fft_lengths)` for the inverse types) and cast to the output dtype. `RFFT`
transforms the real input along every axis and keeps the first `n // 2 + 1` terms of the
last; `IRFFT` transforms the leading axes, completes the last one's Hermitian spectrum (the
zero and Nyquist terms' imaginary parts dropped, the terms past `n // 2` the conjugates of
their mirror images) and keeps the real part of its inverse transform. The values agree with
the eager impl (pocketfft) to rounding.
"""

from __future__ import annotations

import math

import numpy as np

from core.backends.numba.registry import Kernel, register_lowering
from core.backends.numba.source import alloc, np_type, reshape
from core.prims.fft import FftType, fft_p

_F8 = np.dtype(np.float64)


def _parts(ctx, x: str, count, complex_input: bool) -> tuple[str, str]:
    """The real and imaginary parts of the flat array `x` (`count` entries) as float64."""
    re, im = (ctx.assign(p, alloc((count,), _F8)) for p in ("re", "im"))
    i = ctx.new_name("i")
    with ctx.block(f"for {i} in range({count}):"):
        if complex_input:
            ctx.line(f"{re}[{i}] = {x}[{i}].real")
            ctx.line(f"{im}[{i}] = {x}[{i}].imag")
        else:
            ctx.line(f"{re}[{i}] = {x}[{i}]")
            ctx.line(f"{im}[{i}] = 0.0")
    return re, im


def _along(ctx, parts: tuple[str, str], shape: tuple, axis: int, sign: int) -> tuple[str, str]:
    """The transform of `parts` (flat, of `shape`) along `axis`, as new parts."""
    count = math.prod(shape)
    out = tuple(ctx.assign(p, alloc((count,), _F8)) for p in ("re", "im"))
    n = shape[axis]
    params = f"({math.prod(shape[:axis])}, {n}, {math.prod(shape[axis + 1 :])}, {sign})"
    ctx.line(f"lib.fft_axis__f8({parts[0]}, {parts[1]}, {out[0]}, {out[1]}, {params})")
    return out


def _hermitian(ctx, parts: tuple[str, str], shape: tuple, n) -> tuple[str, str]:
    """The `n`-point spectra along the last axis whose first terms `parts` (of `shape`) hold:
    their first `n // 2 + 1` terms (zero past `parts`'), the zero and Nyquist terms made real,
    the others the conjugates of their mirror images."""
    m = shape[-1]
    outer = math.prod(shape[:-1])
    re, im = (ctx.assign(p, alloc((outer * n,), _F8, "0.0")) for p in ("re", "im"))
    terms = ctx.assign("terms", f"min({m}, {n} // 2 + 1)")
    o, k = ctx.new_name("o"), ctx.new_name("k")
    with ctx.block(f"for {o} in range({outer}):"):
        with ctx.block(f"for {k} in range({terms}):"):
            ctx.line(f"{re}[{o} * {n} + {k}] = {parts[0]}[{o} * {m} + {k}]")
            ctx.line(f"{im}[{o} * {n} + {k}] = {parts[1]}[{o} * {m} + {k}]")
        ctx.line(f"{im}[{o} * {n}] = 0.0")
        with ctx.block(f"if {n} % 2 == 0:"):
            ctx.line(f"{im}[{o} * {n} + {n} // 2] = 0.0")
        with ctx.block(f"for {k} in range(1, ({n} + 1) // 2):"):
            ctx.line(f"{re}[{o} * {n} + {n} - {k}] = {re}[{o} * {n} + {k}]")
            ctx.line(f"{im}[{o} * {n} + {n} - {k}] = -{im}[{o} * {n} + {k}]")
    return re, im


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
    for axis in range(nd - k, nd - 1 if typ == FftType.IRFFT else nd):
        parts = _along(ctx, parts, shape, axis, sign)
    if typ == FftType.IRFFT:
        parts = _hermitian(ctx, parts, shape, out_shape[-1])
        shape = out_shape
        parts = _along(ctx, parts, shape, nd - 1, sign)
    count = math.prod(out_shape)
    out = ctx.assign("f", alloc((count,), dt))
    scale = ctx.assign("scale", f"1.0 / ({math.prod(out_shape[nd - k :])})" if inverse else "1.0")
    i = ctx.new_name("i")
    src = i
    if typ == FftType.RFFT:  # the first n // 2 + 1 terms of each transformed row
        n, half = shape[-1], out_shape[-1]
        src = ctx.new_name("j")
    with ctx.block(f"for {i} in range({count}):"):
        if typ == FftType.RFFT:
            ctx.line(f"{src} = ({i} // {half}) * {n} + {i} % {half}")
        if dt.kind == "c":
            value = f"complex({parts[0]}[{src}] * {scale}, {parts[1]}[{src}] * {scale})"
        else:
            value = f"{parts[0]}[{src}] * {scale}"
        ctx.line(f"{out}[{i}] = {np_type(dt)}({value})")
    return [ctx.assign("f", reshape(out, out_shape))]


register_lowering(fft_p, Kernel(_fft_lowering))
