"""`jax.extend.linear_util`: a function wrapped for JAX's transformation machinery
(`WrappedFun`, `wrap_init`), for code that passes one to an API taking JAX's wrapped functions.

numbax's transformations take plain functions, so `WrappedFun` only carries the function and
its fixed keyword parameters. JAX's generator-based `transformation*` decorators, `cache` and
`merge_linear_aux` are not provided.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["WrappedFun", "wrap_init"]


class WrappedFun:
    """A function with fixed keyword parameters (`f(*args, **params)`)."""

    def __init__(self, f: Callable, params: dict, debug_info: Any = None):
        """Args:
        f: the function.
        params: the keyword parameters every call passes.
        debug_info: JAX's `DebugInfo`, kept as `debug_info`.
        """
        self.f = f
        self.params = params
        self.debug_info = debug_info

    @property
    def __name__(self) -> str:
        return getattr(self.f, "__name__", type(self.f).__name__)

    def call_wrapped(self, *args: Any) -> Any:
        """Calls the function on `args` and the fixed parameters."""
        return self.f(*args, **self.params)

    def __repr__(self) -> str:
        return f"Wrapped function: {self.__name__}"


def wrap_init(f: Callable, params: dict | None = None, *, debug_info: Any = None) -> WrappedFun:
    """Wraps `f` (with keyword parameters `params`) as a `WrappedFun`.

    Args:
      f: the function.
      params: keyword parameters passed on every call.
      debug_info: JAX's `DebugInfo` (kept, unused).

    Returns:
      The `WrappedFun`.
    """
    return WrappedFun(f, dict(params or {}), debug_info)
