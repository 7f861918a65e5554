"""JAX's private `jax._src.util` helpers that programs import (`from jax._src.util import
safe_map`, JAX's tutorial "Writing custom Jaxpr interpreters")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def safe_map(f: Callable, *args: Any) -> list:
    """`list(map(f, *args))`, its arguments required to have one length.

    Args:
      f: the function.
      *args: iterables of equal lengths.

    Returns:
      The list of results.
    """
    return [f(*xs) for xs in safe_zip(*args)]


def safe_zip(*args: Any) -> list:
    """`list(zip(*args))`, its arguments required to have one length.

    Args:
      *args: iterables of equal lengths.

    Returns:
      The list of tuples.
    """
    lists = [list(a) for a in args]
    n = len(lists[0])
    if any(len(a) != n for a in lists[1:]):
        raise ValueError(f"length mismatch: {[len(a) for a in lists]}")
    return list(zip(*lists))
