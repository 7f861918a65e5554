"""Entropy-style functions: `xlogy`, `xlog1py` (custom derivatives that are 0 at `x = 0`, where
JAX attaches them), `entr`, `rel_entr` and `kl_div`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import core.numpy as jnp
from core.custom_derivatives import custom_jvp
from core.numpy._util import promote_args_inexact
from core.scipy.special._util import _quiet, _real_only, _strong
from core.trace import get_aval


@custom_jvp
@_quiet
def _xlogy(x: Any, y: Any) -> Any:
    zero = jnp.zeros_like(x)
    return jnp.where((x != 0) | jnp.isnan(y), x * jnp.log(y), zero)


@_xlogy.defjvp
@_quiet
def _xlogy_jvp(primals, tangents):
    (x, y), (tx, ty) = primals, tangents
    return _xlogy(x, y), tx * jnp.log(y) + ty * x / y


def xlogy(x: Any, y: Any) -> Any:
    """`x * log(y)`, defined as 0 where `x == 0` (unless `y` is NaN).

    Args:
      x: multiplier.
      y: argument of the log.

    Returns:
      `x log(y)`.
    """
    x, y = promote_args_inexact("xlogy", x, y)
    return _xlogy(x, y)


@custom_jvp
@_quiet
def _xlog1py(x: Any, y: Any) -> Any:
    zero = jnp.zeros_like(x)
    return jnp.where((x != 0) | jnp.isnan(y), x * jnp.log1p(y), zero)


@_xlog1py.defjvp
@_quiet
def _xlog1py_jvp(primals, tangents):
    (x, y), (tx, ty) = primals, tangents
    return _xlog1py(x, y), tx * jnp.log1p(y) + ty * x / (1.0 + y)


def xlog1py(x: Any, y: Any) -> Any:
    """`x * log1p(y)`, defined as 0 where `x == 0` (unless `y` is NaN).

    Args:
      x: multiplier.
      y: argument of `log1p`.

    Returns:
      `x log(1 + y)`.
    """
    x, y = promote_args_inexact("xlog1py", x, y)
    return _xlog1py(x, y)


@custom_jvp
@_quiet
def _xlogx(x: Any) -> Any:
    return jnp.where(x == 0, jnp.zeros_like(x), x * jnp.log(x))


@_xlogx.defjvp
@_quiet
def _xlogx_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return _xlogx(x), t * (jnp.log(x) + 1.0)


def entr(x: Any) -> Any:
    """The elementwise entropy `-x log(x)` (0 at 0, `-inf` for negative `x`).

    Args:
      x: real input.

    Returns:
      `entr(x)`.
    """
    (x,) = promote_args_inexact("entr", x)
    _real_only("entr", x)
    return jnp.where(x < 0, jnp.full_like(x, -np.inf), -_xlogx(x))


def rel_entr(p: Any, q: Any) -> Any:
    """The elementwise relative entropy `p log(p / q)`.

    Args:
      p: first distribution's values.
      q: second distribution's values.

    Returns:
      `p log(p / q)` where both are positive, 0 where `p == 0 <= q`, `inf` otherwise.
    """
    p, q = promote_args_inexact("rel_entr", p, q)
    _real_only("rel_entr", p)
    both = (p > 0) & (q > 0)
    safe_p = jnp.where(both, p, jnp.ones_like(p))
    safe_q = jnp.where(both, q, jnp.ones_like(q))
    val = _xlogx(safe_p) - _xlogy(safe_p, safe_q)
    edge = jnp.where((p == 0) & (q >= 0), jnp.zeros_like(p), jnp.full_like(p, np.inf))
    out = jnp.where(both, val, edge)
    # JAX's zero (`lax._const`) is a Python scalar beside a weak scalar, else a strong array
    return out if get_aval(out).ndim == 0 else _strong(out)


def kl_div(p: Any, q: Any) -> Any:
    """The elementwise Kullback-Leibler divergence `p log(p / q) - p + q`.

    Args:
      p: first distribution's values.
      q: second distribution's values.

    Returns:
      `rel_entr(p, q) - p + q`.
    """
    p, q = promote_args_inexact("kl_div", p, q)
    _real_only("kl_div", p)
    return rel_entr(p, q) - p + q
