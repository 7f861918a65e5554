"""Small numba functions that generated kernels call (as `rt.<name>`), with lax semantics.

Integer division truncates towards zero like C and XLA; division by zero gives -1 (signed) or
all ones (unsigned) and the remainder by zero is the dividend, as in the numpy reference impls.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from core.jit import vecmath

_OPTS = dict(error_model="numpy", cache=True)


@njit(**_OPTS)
def idiv(a, b):
    """Signed integer division rounding towards zero; x / 0 == -1."""
    if b == 0:
        return -1
    q = a // b
    return q + 1 if (q < 0) & (q * b != a) else q


@njit(**_OPTS)
def udiv(a, b):
    """Unsigned integer division; x / 0 == all ones (the caller casts to its width)."""
    return a // b if b != 0 else ~(a ^ a)


@njit(**_OPTS)
def irem(a, b):
    """Integer remainder with the sign of the dividend (C's %); x % 0 == x."""
    if b == 0:
        return a
    r = a % b
    return r - b if (r != 0) & ((r < 0) != (a < 0)) else r


@njit(**_OPTS)
def popcount(v):
    """The number of set bits of a uint64."""
    n = 0
    while v:
        v &= v - np.uint64(1)
        n += 1
    return n


@njit(**_OPTS)
def digamma(x):
    """psi(x): reflection for x < 0.5, recurrence up to 6, then the asymptotic series."""
    if x <= 0 and math.floor(x) == x:
        return np.nan
    acc = 0.0
    if x < 0.5:
        acc = -math.pi / math.tan(math.pi * x)
        x = 1.0 - x
    while x < 6.0:
        acc -= 1.0 / x
        x += 1.0
    z = 1.0 / (x * x)
    series = z * (1 / 12 - z * (1 / 120 - z * (1 / 252 - z * (1 / 240 - z * (1 / 132)))))
    return acc + math.log(x) - 0.5 / x - series


@njit(**_OPTS)
def erf_inv_f64(x):
    """float64 erfinv: the float32 kernel refined by two Newton steps on math.erf."""
    y = np.float64(vecmath.erf_inv_f32(np.float32(x)))
    if math.isfinite(y) and abs(x) < 1:
        for _ in range(2):
            y -= (math.erf(y) - x) / (1.1283791670955126 * math.exp(-y * y))
    return y
