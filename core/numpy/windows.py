"""Window functions (bartlett, blackman, hamming, hanning, kaiser) and the modified Bessel
function `i0` they need.

Windows are built from an `arange` of the static length `M` in the default float dtype, as in
JAX. `i0` has no primitive: it sums its power series (Horner form) for |x| <= 15 and its
asymptotic expansion beyond, each branch fed a clamped input so that the unused branch cannot
overflow and poison gradients; derivatives come from differentiating those expressions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from core import dtypes
from core.errors import ConcretizationTypeError, traced_shape
from core.jit.library import library_jit
from core.numpy import creation as cr
from core.numpy import ufuncs as uf
from core.numpy._util import promote_args_inexact
from core.numpy.where import where
from core.trace import Tracer, get_aval

_SERIES_TERMS = 40  # (x/2)^2k / k!^2 < 1e-9 of the sum for every |x| <= 15 well before this
_ASYMPTOTIC_TERMS = 12  # for |x| > 15 the asymptotic terms shrink by < 0.4 per step
_SWITCH = 15.0


@library_jit
def i0(x: Any) -> Any:
    """The modified Bessel function of the first kind, order 0: `sum_k (x^2/4)^k / (k!)^2`.

    Args:
        x: real values (integers are promoted to the default float).

    Returns:
        `I0(x)` elementwise, in an inexact dtype.
    """
    (x,) = promote_args_inexact("i0", x)
    if dtypes.kind(get_aval(x).dtype) != "f":
        raise ValueError(f"Unsupported input type to jax.numpy.i0: {get_aval(x).dtype}")
    ax = uf.abs(x)
    small = uf.less_equal(ax, _SWITCH)
    xs = where(small, ax, 0.0)
    t = uf.multiply(uf.multiply(xs, xs), 0.25)
    series = cr.ones_like(xs)
    for k in range(_SERIES_TERMS, 0, -1):
        series = uf.add(1.0, uf.multiply(series, uf.divide(t, float(k * k))))
    xl = where(small, 2 * _SWITCH, ax)
    inv = uf.divide(1.0, uf.multiply(8.0, xl))
    asym = cr.ones_like(xl)
    for k in range(_ASYMPTOTIC_TERMS, 0, -1):
        asym = uf.add(1.0, uf.multiply(asym, uf.multiply(inv, float((2 * k - 1) ** 2) / k)))
    # sqrt(2 pi) sqrt(x), not sqrt(2 pi x): 2 pi x overflows float16 at x = 65504 (inf / inf).
    root = uf.multiply(float(np.sqrt(2 * np.pi)), uf.sqrt(xl))
    large = uf.multiply(uf.divide(uf.exp(xl), root), asym)
    return where(small, series, large)


def _window(M: Any, formula: Callable[[int, Any], Any], name: str) -> Any:
    """`formula(M, n)` of `n = arange(M)` in the default float; ones when `M <= 1`. `M` is
    taken as JAX takes it, `int(M)` of its concrete value (a float length is truncated)."""
    if isinstance(M, Tracer):
        concrete = M.to_concrete_value()
        if concrete is None:
            raise ConcretizationTypeError(traced_shape(M.aval), f"M argument of jnp.{name}")
        M = concrete
    M = int(M)
    n = cr.arange(M, dtype=dtypes.default_float())
    return cr.ones((M,), dtypes.default_float()) if M <= 1 else formula(M, n)


def _angle(M: int, n: Any) -> Any:
    """`2 pi n / (M - 1)`, the angle of the cosine windows."""
    return uf.divide(uf.multiply(2 * np.pi, n), M - 1)


def bartlett(M: int) -> Any:
    """The Bartlett (triangular) window, `1 - |2n + 1 - M| / (M - 1)`.

    Args:
        M: number of points (static; a float is truncated, as JAX's `int(M)`).

    Returns:
        The window, float32 (the default float).
    """

    def formula(M: int, n: Any) -> Any:
        distance = uf.abs(uf.subtract(uf.add(uf.multiply(2, n), 1), M))
        return uf.subtract(1.0, uf.divide(distance, M - 1))

    return _window(M, formula, "bartlett")


def blackman(M: int) -> Any:
    """The Blackman window, `0.42 - 0.5 cos(2 pi n/(M-1)) + 0.08 cos(4 pi n/(M-1))`.

    Args:
        M: number of points (static; a float is truncated, as JAX's `int(M)`).

    Returns:
        The window, float32 (the default float).
    """

    def formula(M: int, n: Any) -> Any:
        w = _angle(M, n)
        cos2w = uf.cos(uf.multiply(2, w))
        return uf.add(uf.subtract(0.42, uf.multiply(0.5, uf.cos(w))), uf.multiply(0.08, cos2w))

    return _window(M, formula, "blackman")


def hamming(M: int) -> Any:
    """The Hamming window, `0.54 - 0.46 cos(2 pi n/(M-1))`.

    Args:
        M: number of points (static; a float is truncated, as JAX's `int(M)`).

    Returns:
        The window, float32 (the default float).
    """
    return _window(
        M, lambda M, n: uf.subtract(0.54, uf.multiply(0.46, uf.cos(_angle(M, n)))), "hamming"
    )


def hanning(M: int) -> Any:
    """The Hann window, `0.5 (1 - cos(2 pi n/(M-1)))`.

    Args:
        M: number of points (static; a float is truncated, as JAX's `int(M)`).

    Returns:
        The window, float32 (the default float).
    """
    return _window(
        M, lambda M, n: uf.multiply(0.5, uf.subtract(1.0, uf.cos(_angle(M, n)))), "hanning"
    )


def kaiser(M: int, beta: Any) -> Any:
    """The Kaiser window, `i0(beta sqrt(1 - ((n - a)/a)^2)) / i0(beta)` with `a = (M-1)/2`.

    Args:
        M: number of points (static; a float is truncated, as JAX's `int(M)`).
        beta: shape parameter (may be traced).

    Returns:
        The window, float32 (the default float).
    """

    def formula(M: int, n: Any) -> Any:
        alpha = 0.5 * (M - 1)
        r = uf.divide(uf.subtract(n, alpha), alpha)
        return uf.divide(
            i0(uf.multiply(beta, uf.sqrt(uf.subtract(1.0, uf.multiply(r, r))))), i0(beta)
        )

    return _window(M, formula, "kaiser")
