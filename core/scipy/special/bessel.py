"""Bessel functions: the modified `i0`, `i1` and their exponentially scaled `i0e`, `i1e`
(`core.lax`'s), and `bessel_jn`, the first kind of integer order (Miller's backward
recurrence, as JAX's).
"""

from __future__ import annotations

import operator
from typing import Any

import core.numpy as jnp
from core import lax
from core.numpy._util import promote_args_inexact
from core.scipy.special._util import _dtype


def i0e(x: Any) -> Any:
    """The exponentially scaled modified Bessel function of order 0, `exp(-|x|) I0(x)`.

    Args:
      x: real input.

    Returns:
      `i0e(x)`.
    """
    return lax.bessel_i0e(*promote_args_inexact("i0e", x))


def i1e(x: Any) -> Any:
    """The exponentially scaled modified Bessel function of order 1, `exp(-|x|) I1(x)`.

    Args:
      x: real input.

    Returns:
      `i1e(x)`.
    """
    return lax.bessel_i1e(*promote_args_inexact("i1e", x))


def i0(x: Any) -> Any:
    """The modified Bessel function of the first kind of order 0.

    Args:
      x: real input.

    Returns:
      `I0(x)`.
    """
    (x,) = promote_args_inexact("i0", x)
    return jnp.exp(jnp.abs(x)) * lax.bessel_i0e(x)


def i1(x: Any) -> Any:
    """The modified Bessel function of the first kind of order 1.

    Args:
      x: real input.

    Returns:
      `I1(x)`.
    """
    (x,) = promote_args_inexact("i1", x)
    return jnp.exp(jnp.abs(x)) * lax.bessel_i1e(x)


def bessel_jn(z: Any, *, v: int, n_iter: int = 50) -> Any:
    """Bessel functions of the first kind `J_0(z) ... J_v(z)`, as
    `jax.scipy.special.bessel_jn`.

    Miller's backward recurrence `J_{k-1} = 2k J_k / z - J_{k+1}` from order `n_iter`,
    normalized by `J_0 + 2 J_2 + 2 J_4 + ... = 1` (Zhang and Jin's `BJNDD`).

    Args:
      z: real input.
      v: the highest order (a static int).
      n_iter: the order the recurrence starts from (static); it must exceed `v` and grow
        with `|z|` (JAX's rule of thumb is in its docstring).

    Returns:
      `(v + 1, *z.shape)`: the orders 0 to `v`, in `z`'s (inexact) dtype.

    Raises:
      ValueError: complex `z`.
    """
    (z,) = promote_args_inexact("bessel_jn", z)
    if _dtype(z).kind == "c":
        raise ValueError("complex input not supported.")
    v = operator.index(v)
    n_iter = int(n_iter)

    def step(carry, k):
        f0, f1, bs = carry
        f = 2.0 * (k + 1.0) * f1 / z - f0
        bs = jnp.where(jnp.mod(k, 2) == 0, bs + 2.0 * f, bs)
        return (f1, f, bs), f

    zero = jnp.zeros_like(z)
    init = (zero, jnp.full_like(z, 1e-16), zero)
    ks = jnp.arange(n_iter + 1, dtype=_dtype(z))
    (_, _, bs), vals = lax.scan(step, init, ks, reverse=True)
    return vals[: v + 1] / jnp.expand_dims(bs - vals[0], 0)  # equal ranks: no rank promotion
