"""Small numba functions that generated kernels call (as `rt.<name>`), with lax semantics.

Also the scalar Threefry-2x32 hash (fused into loops like any elementwise op), bit casts, and
digamma/polygamma/erf_inv for float64, which have no libm or vecmath version.

Integer division truncates towards zero like C and XLA; division by zero gives -1 (signed) or
all ones (unsigned) and the remainder by zero is the dividend, as in the numpy reference impls.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit
from numba.extending import intrinsic

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


@njit(**_OPTS)
def polygamma(m, x):
    """The m-th derivative of digamma (m a non-negative integer value)."""
    if m != math.floor(m) or m < 0:
        return np.nan
    if m == 0:
        return digamma(x)
    if x <= 0 and math.floor(x) == x:
        return np.nan
    n = int(m)
    fact = math.gamma(n + 1.0)
    sign = 1.0 if n % 2 == 1 else -1.0  # (-1)**(n+1)
    acc = 0.0
    while x < 10.0 + n:  # psi_n(x) = psi_n(x + 1) + (-1)**(n+1) n! / x**(n+1)
        acc += sign * fact / x ** (n + 1)
        x += 1.0
    # asymptotic: (-1)**(n+1) [(n-1)!/x^n + n!/(2x^(n+1)) + sum B2k (2k+n-1)!/(2k)! x^-(2k+n)]
    tail = math.gamma(n) / x**n + fact / (2.0 * x ** (n + 1))
    bern = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6)
    for k in range(1, 8):
        tail += bern[k - 1] * math.gamma(2 * k + n) / (math.gamma(2 * k + 1.0) * x ** (2 * k + n))
    return acc + sign * tail


_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))


@njit(**_OPTS)
def _rotl(x, r):
    return np.uint32((x << np.uint32(r)) | (x >> np.uint32(32 - r)))


@njit(**_OPTS)
def threefry2x32(k0, k1, x0, x1):
    """Threefry-2x32 (20 rounds) on uint32 scalars, JAX's bit layout; returns (y0, y1)."""
    ks = (k0, k1, np.uint32(k0 ^ k1 ^ np.uint32(0x1BD11BDA)))
    x0 = np.uint32(x0 + ks[0])
    x1 = np.uint32(x1 + ks[1])
    for i in range(5):
        rot = _ROTATIONS[i % 2]
        for j in range(4):
            x0 = np.uint32(x0 + x1)
            x1 = _rotl(x1, rot[j]) ^ x0
        x0 = np.uint32(x0 + ks[(i + 1) % 3])
        x1 = np.uint32(x1 + ks[(i + 2) % 3] + np.uint32(i + 1))
    return x0, x1


@intrinsic
def bitcast(typingctx, x, like):
    """The bits of scalar `x` reinterpreted as the type of `like` (same width)."""

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], context.get_value_type(signature.return_type))

    return like(x, like), codegen


@njit(**_OPTS)
def empty(n, dtype):
    """`np.empty(n, dtype)`. Kernels allocate through these helpers (and reshape the 1-d
    result for free): numba would otherwise compile its `np.empty` implementation anew for
    every shape and dtype inside every kernel, while these compile once per dtype and are
    cached on disk."""
    return np.empty(n, dtype)


@njit(**_OPTS)
def full(n, value, dtype):
    """`np.full(n, value, dtype)` (cached, see `empty`)."""
    out = np.empty(n, dtype)
    for i in range(n):
        out[i] = value
    return out


@njit(**_OPTS)
def dot(a, b, out):
    """`np.dot(a, b, out)` on 2-d float matrices through BLAS (cached, see `empty`)."""
    np.dot(a, b, out)


@njit(**_OPTS)
def contiguous(a):
    """`np.ascontiguousarray(a)` (cached, see `empty`)."""
    return np.ascontiguousarray(a)


@njit(**_OPTS)
def copy(a):
    """A C-contiguous copy of `a` (cached, see `empty`)."""
    return a.copy()
