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
n); a direct sum, O(n^2), for other lengths up to `DIRECT_MAX`; Bluestein's algorithm (the
transform as a convolution with a chirp, by radix-2 FFTs) for longer ones, O(n log n).
"""

from __future__ import annotations

import numpy as np

from core.backends.numba.library.blocks import jit
from core.backends.numba.library.entry import register
from core.jit import runtime as rt

# Lengths up to this (not powers of two) are summed directly; longer ones go through
# Bluestein's algorithm (three radix-2 FFTs of at least twice the length).
DIRECT_MAX = 32


@register("a a a a p")
def fft_axis(xr, xi, yr, yi, p):
    """`(yr, yi)` = the DFT of `(xr, xi)` along the middle axis; `p` = (outer, n, inner, sign)."""
    outer, n, inner, sign = p[0], p[1], p[2], p[3]
    bits = _log2_ceil(n)
    if (1 << bits) == n:
        wr, wi = _roots(n, sign)
        _radix2(xr, xi, yr, yi, outer, n, inner, bits, wr, wi)
    elif n <= DIRECT_MAX:
        wr, wi = _roots(n, sign)
        _direct(xr, xi, yr, yi, outer, n, inner, wr, wi)
    else:
        _bluestein(xr, xi, yr, yi, outer, n, inner, sign)


@jit
def _log2_ceil(n):
    bits = 0
    while (1 << bits) < n:
        bits += 1
    return bits


@jit
def _roots(n, sign):
    """`exp(sign 2 pi i m / n)`, m < n, as real and imaginary parts."""
    wr = rt.empty((n,), np.float64)
    wi = rt.empty((n,), np.float64)
    for m in range(n):
        angle = 2.0 * np.pi * m / n
        c = np.cos(angle)
        s = sign * np.sin(angle)
        wr[m] = 0.0 if abs(c) < 1e-12 else c
        wi[m] = 0.0 if abs(s) < 1e-12 else s
    return wr, wi


@jit
def _bluestein(xr, xi, yr, yi, outer, n, inner, sign):
    """Bluestein's algorithm: with `jk = (j^2 + k^2 - (k - j)^2) / 2`, the transform is the
    chirp `c_k = exp(sign pi i k^2 / n)` times the convolution of `x_j c_j` with `conj(c)`,
    computed by radix-2 FFTs of a power of two `size >= 2n - 1`."""
    bits = _log2_ceil(2 * n - 1)
    size = 1 << bits
    fr, fi = _roots(size, -1)
    cr = rt.empty((n,), np.float64)
    ci = rt.empty((n,), np.float64)
    for m in range(n):
        angle = np.pi * ((m * m) % (2 * n)) / n
        cr[m] = np.cos(angle)
        ci[m] = sign * np.sin(angle)
    ar = rt.full((size,), 0.0, np.float64)
    ai = rt.full((size,), 0.0, np.float64)
    for m in range(n):
        ar[m] = cr[m]
        ai[m] = -ci[m]
    for m in range(1, n):
        ar[size - m] = cr[m]
        ai[size - m] = -ci[m]
    br = rt.empty((size,), np.float64)
    bi = rt.empty((size,), np.float64)
    _radix2(ar, ai, br, bi, 1, size, 1, bits, fr, fi)  # the chirp's transform
    pr = rt.empty((size,), np.float64)
    pi = rt.empty((size,), np.float64)
    for o in range(outer):
        for i in range(inner):
            base = o * n * inner + i
            for m in range(size):
                ar[m] = 0.0
                ai[m] = 0.0
            for j in range(n):
                u = xr[base + j * inner]
                v = xi[base + j * inner]
                ar[j] = u * cr[j] - v * ci[j]
                ai[j] = u * ci[j] + v * cr[j]
            _radix2(ar, ai, pr, pi, 1, size, 1, bits, fr, fi)
            for m in range(size):  # the product, conjugated: the inverse as a forward FFT
                u = pr[m] * br[m] - pi[m] * bi[m]
                v = pr[m] * bi[m] + pi[m] * br[m]
                ar[m] = u
                ai[m] = -v
            _radix2(ar, ai, pr, pi, 1, size, 1, bits, fr, fi)
            for k in range(n):
                u = pr[k] / size
                v = -pi[k] / size
                yr[base + k * inner] = u * cr[k] - v * ci[k]
                yi[base + k * inner] = u * ci[k] + v * cr[k]


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
