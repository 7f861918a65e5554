"""The discrete Fourier transform along one axis, behind `fft_p`'s lowering
(`core/backends/numba/rules/fft.py`): written once, generic over the sizes, so a program with
FFTs of new lengths compiles no transform loops of its own.

Complex values travel as two real arrays (real and imaginary parts, float64 from the rule):
the library's code has no complex dtype (the LLVM translator, `core/backends/llvm`, takes
real arithmetic only). The operand is seen as `(outer, n, inner)` and transformed along its
middle axis: `y[o, k, i] = sum_j x[o, j, i] w^(jk)`, `w = exp(sign 2 pi i / n)`, with a table
of the `n` roots computed in float64 (the parts within 1e-12 of zero set to zero, so small
integer data transform exactly, as pocketfft's do): an iterative radix-2 FFT (the input in
bit-reversed order, then `log2 n` stages of butterflies) when `n` is a power of two, O(n log
n), else a direct sum, O(n^2).
"""

from __future__ import annotations

import numpy as np

from core.backends.numba.library.blocks import jit
from core.backends.numba.library.entry import register
from core.jit import runtime as rt


@register("a a a a p")
def fft_axis(xr, xi, yr, yi, p):
    """`(yr, yi)` = the DFT of `(xr, xi)` along the middle axis; `p` = (outer, n, inner, sign)."""
    outer, n, inner, sign = p[0], p[1], p[2], p[3]
    wr = rt.empty((n,), np.float64)
    wi = rt.empty((n,), np.float64)
    for m in range(n):
        angle = 2.0 * np.pi * m / n
        c = np.cos(angle)
        s = sign * np.sin(angle)
        wr[m] = 0.0 if abs(c) < 1e-12 else c
        wi[m] = 0.0 if abs(s) < 1e-12 else s
    bits = 0
    while (1 << bits) < n:
        bits += 1
    if (1 << bits) == n:
        _radix2(xr, xi, yr, yi, outer, n, inner, bits, wr, wi)
    else:
        _direct(xr, xi, yr, yi, outer, n, inner, wr, wi)


@jit
def _radix2(xr, xi, yr, yi, outer, n, inner, bits, wr, wi):
    rev = rt.empty((n,), np.int64)
    for j in range(n):
        r = 0
        v = j
        for _ in range(bits):
            r = (r << 1) | (v & 1)
            v = v >> 1
        rev[j] = r
    br = rt.empty((n,), np.float64)
    bi = rt.empty((n,), np.float64)
    for o in range(outer):
        for i in range(inner):
            base = o * n * inner + i
            for j in range(n):
                br[rev[j]] = xr[base + j * inner]
                bi[rev[j]] = xi[base + j * inner]
            half = 1
            for _ in range(bits):
                step = n // (2 * half)
                for g in range(n // (2 * half)):
                    start = g * 2 * half
                    for k in range(half):
                        a = start + k
                        b = a + half
                        t = k * step
                        vr = br[b] * wr[t] - bi[b] * wi[t]
                        vi = br[b] * wi[t] + bi[b] * wr[t]
                        ur = br[a]
                        ui = bi[a]
                        br[a] = ur + vr
                        bi[a] = ui + vi
                        br[b] = ur - vr
                        bi[b] = ui - vi
                half = half * 2
            for j in range(n):
                yr[base + j * inner] = br[j]
                yi[base + j * inner] = bi[j]


@jit
def _direct(xr, xi, yr, yi, outer, n, inner, wr, wi):
    for o in range(outer):
        for i in range(inner):
            base = o * n * inner + i
            for k in range(n):
                ar = 0.0
                ai = 0.0
                for j in range(n):
                    t = (j * k) % n
                    u = xr[base + j * inner]
                    v = xi[base + j * inner]
                    ar += u * wr[t] - v * wi[t]
                    ai += u * wi[t] + v * wr[t]
                yr[base + k * inner] = ar
                yi[base + k * inner] = ai
