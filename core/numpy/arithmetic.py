"""Arithmetic helpers missing from `ufuncs.py`: `gcd`, `lcm`, `fabs`, `angle`, `pow`.

`gcd` runs Euclid's algorithm on whole arrays in a `lax.while_loop` (until every remainder is
zero), as JAX does, so it traces to one loop under `jit`; `lcm` builds on it. `angle` is
`atan2(imag, real)`; `pow` is `power` under its array-API name.
"""

from __future__ import annotations

from typing import Any

from core import dtypes
from core.jit.library import library_jit
from core.lax import while_loop
from core.numpy._util import check_arraylike, promote_args, promote_args_inexact
from core.numpy.creation import asarray
from core.numpy.reductions import any as _any
from core.numpy.ufuncs import abs as _abs
from core.numpy.ufuncs import degrees, imag, power, real
from core.numpy.where import where
from core.prims import elementwise as ew
from core.prims import shapes as sh
from core.trace import get_aval


def _integer_args(name: str, x1: Any, x2: Any, rank_name: str) -> tuple[Any, Any]:
    """`x1`, `x2` promoted and broadcast, checked to be integers; `rank_name` as
    `promote_args`'s."""
    x1, x2 = promote_args(name, x1, x2, rank_name=rank_name)
    if get_aval(x1).dtype.kind not in "iu":
        raise ValueError(  # JAX's first line; the dtype on the next
            f"Arguments to jax.numpy.{name} must be integers.\nGot {get_aval(x1).dtype}."
        )
    return x1, x2


def _gcd_body(xs: tuple[Any, Any]) -> tuple[Any, Any]:
    a, b = xs
    nz = b != 0
    a, b = where(nz, b, a), where(nz, ew.rem(a, where(nz, b, 1)), 0)
    swap = a < b
    return where(swap, b, a), where(swap, a, b)


@library_jit
def gcd(x1: Any, x2: Any) -> Any:
    """The greatest common divisor of `|x1|` and `|x2|`, elementwise.

    Args:
      x1: an integer array.
      x2: an integer array broadcastable with `x1`.

    Returns:
      The gcds, of the promoted integer dtype (`gcd(0, 0) == 0`).
    """
    x1, x2 = _integer_args("gcd", x1, x2, rank_name="")  # JAX broadcasts without the check
    out, _ = while_loop(lambda xs: _any(xs[1] != 0), _gcd_body, (_abs(x1), _abs(x2)))
    if get_aval(out).ndim:  # JAX's loop body mixes in a strong 0 there: only scalars stay weak
        return sh.convert_element_type(out, get_aval(out).dtype)
    return out


@library_jit
def lcm(x1: Any, x2: Any) -> Any:
    """The least common multiple of `|x1|` and `|x2|`, elementwise.

    Args:
      x1: an integer array.
      x2: an integer array broadcastable with `x1`.

    Returns:
      The lcms, of the promoted integer dtype (0 where either input is 0).
    """
    x1, x2 = _integer_args("lcm", x1, x2, rank_name="floor_divide")  # JAX's lcm divides first
    x1, x2 = _abs(x1), _abs(x2)
    d = gcd(x1, x2)
    zero = d == 0
    return where(zero, 0, x1 * (x2 // where(zero, 1, d)))


def fabs(x: Any, /) -> Any:
    """The absolute value of a real array, as a float (integers are promoted).

    Args:
      x: a real array.

    Returns:
      `|x|` with an inexact dtype.
    """
    (x,) = promote_args_inexact("fabs", x)
    if get_aval(x).dtype.kind == "c":
        raise TypeError("ufunc 'fabs' does not support complex dtypes")
    return ew.abs(x)


@library_jit(static_argnames=("deg",))
def angle(z: Any, deg: bool = False) -> Any:
    """The counterclockwise angle of complex `z` from the positive real axis.

    Args:
      z: an array (real inputs give 0 or pi).
      deg: return degrees instead of radians.

    Returns:
      A float array: real and imaginary parts' dtype for complex/float arrays, the default
      float for integers and 0-d floats (as in JAX).
    """
    check_arraylike("angle", z)
    z = asarray(z)
    zdt = get_aval(z).dtype
    re, im = real(z), imag(z)
    dt = get_aval(re).dtype
    if dtypes.kind(dt) not in "fc" or (dtypes.kind(zdt) == "f" and get_aval(z).ndim == 0):
        dt = dtypes.default_float()
        re, im = sh.convert_element_type(re, dt), sh.convert_element_type(im, dt)
    out = ew.atan2(im, re)
    return degrees(out) if deg else out


def pow(x1: Any, x2: Any, /) -> Any:  # noqa: A001
    """`x1 ** x2` elementwise: the array-API name of `power`.

    Args:
      x1: the base.
      x2: the exponent.

    Returns:
      `power(x1, x2)`.
    """
    return power(x1, x2)
