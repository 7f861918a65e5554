"""`jax.core`'s public names (JAX 0.10), as numbax's own classes and functions: JAX's tracer and
abstract-value classes are numbax's, so `isinstance(x, jax.core.Tracer)` in a ported program
tests numbax's tracers, and `jax.core.ShapedArray` builds numbax's abstract values.

JAX moved the rest of its old `jax.core` (`Primitive`, `Jaxpr`, `Literal`, ...) to
`jax.extend.core`: numbax's is `core.extend.core`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from core.api_extras import ensure_compile_time_eval
from core.avals import AbstractValue, ShapedArray
from core.ir import Atom, eval_jaxpr
from core.trace import Trace, Tracer, eval_trace, set_current_trace

__all__ = [
    "AbstractValue",
    "Atom",
    "ParamDict",
    "ShapedArray",
    "Trace",
    "Tracer",
    "Value",
    "ensure_compile_time_eval",
    "eval_context",
    "eval_jaxpr",
    "max_dim",
    "min_dim",
]

ParamDict = dict[str, Any]  # an equation's parameters
Value = Any  # what a primitive computes on


@contextlib.contextmanager
def eval_context() -> Iterator[None]:
    """Inside the block, primitives run eagerly on concrete values, even while a
    transformation traces the enclosing function (a tracer used inside raises
    `UnexpectedTracerError`)."""
    with set_current_trace(eval_trace):
        yield


def max_dim(d1: int, d2: int) -> int:
    """The larger of two dimension sizes (JAX's for symbolic sizes too; numbax's are ints).

    Args:
      d1: a dimension size.
      d2: a dimension size.

    Returns:
      `max(d1, d2)`.
    """
    return max(d1, d2)


def min_dim(d1: int, d2: int) -> int:
    """The smaller of two dimension sizes (JAX's for symbolic sizes too; numbax's are ints).

    Args:
      d1: a dimension size.
      d2: a dimension size.

    Returns:
      `min(d1, d2)`.
    """
    return min(d1, d2)
