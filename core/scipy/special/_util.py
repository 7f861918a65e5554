"""The helpers every family of `core.scipy.special` shares: dtype checks and promotion as
JAX's, JAX's strong typing of results and of constants (`lax_const`, which `core.scipy.stats`
uses too), silenced numpy warnings for masked lanes, and Horner's rule.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

import core.numpy as jnp
from core import dtypes, lax
from core.numpy._util import check_arraylike
from core.scipy.errors import UnsupportedDTypeError
from core.trace import get_aval


def _dtype(x: Any) -> np.dtype:
    return get_aval(x).dtype


def _real_float(name: str, x: Any) -> Any:
    """`x` as a strongly typed float32/float64 array (JAX's results are strong, its constants
    being so); other dtypes raise, integers too (JAX does not promote them here)."""
    check_arraylike(name, x)
    dt = dtypes.dtype_and_weak(x)[0]
    if dt not in (np.float32, np.float64):
        raise UnsupportedDTypeError(name, dt)
    return lax.convert_element_type(x, dt)


def _strong(x: Any) -> Any:
    """`x` strongly typed: where JAX's formula mixes in a numpy constant (`typ(np.nan)`,
    `_lax_const`), its result is strong even for Python-scalar inputs."""
    return lax.convert_element_type(x, _dtype(x))


def lax_const(x: Any, value: float) -> Any:
    """`value` typed as JAX's `lax._const(x, value)` types it.

    JAX writes `jax.scipy`'s formulas with `lax` ops, whose result is weakly typed only when
    every operand is, and takes most constants from `lax._const`. So an integer or bool array
    promoted with Python-float parameters (a weakly typed float32 array) gives a strongly typed
    result wherever such a constant enters the formula, and a weak one where JAX writes a
    Python literal (`jnp.where(c, -np.inf, y)`): numbax's formulas use `lax_const` where JAX's
    have `_const`, and Python literals where JAX's have them.

    Args:
      x: the array whose dtype and weak type the constant follows.
      value: the constant.

    Returns:
      `value` as a Python scalar of `x`'s kind when `x` is a weakly typed scalar; otherwise a
      strongly typed rank-0 array of `x`'s dtype.
    """
    aval = get_aval(x)
    if aval.weak_type and not aval.shape:
        kind = dtypes.kind(aval.dtype)
        return complex(value) if kind == "c" else float(value) if kind == "f" else int(value)
    return jnp.array(value, aval.dtype)


def _real_only(name: str, x: Any) -> None:
    """JAX's ValueError for the functions defined on real inputs only (`x` promoted)."""
    if dtypes.kind(_dtype(x)) == "c":
        raise ValueError(f"{name} does not support complex-valued inputs.")


def _quiet(fn):
    """Eager numpy warns about masked-out lanes (`0 * log(0)`); their values are discarded."""

    @functools.wraps(fn)
    def wrapper(*args):
        with np.errstate(all="ignore"):
            return fn(*args)

    return wrapper


def _horner(coeffs: list[float], x: Any) -> Any:
    """`coeffs[0] x^(n-1) + ... + coeffs[-1]` (highest power first, like `polyval`)."""
    acc = jnp.full_like(x, coeffs[0])
    for c in coeffs[1:]:
        acc = acc * x + c
    return acc
