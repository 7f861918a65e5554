"""`jax.stages`: the types of `jit`'s ahead-of-time stages, under JAX's module path.

    traced = jit(f).trace(x)       # Traced
    lowered = jit(f).lower(x)      # Lowered (`traced.lower()`)
    compiled = lowered.compile()   # Compiled, called like `f`

The stages live in `core/jit/stages.py`; this module names them as JAX does. `Wrapped` is the
protocol of what `jit` returns (callable, with `trace` and `lower`), checkable at runtime:
`isinstance(jit(f), core.stages.Wrapped)` is True. `CompilerOptions` is JAX's alias for the
`compiler_options` mapping (numba's options are not set through it).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from core.jit.stages import ArgInfo, Compiled, Lowered, Traced

__all__ = ["ArgInfo", "Compiled", "CompilerOptions", "Lowered", "Traced", "Wrapped"]

CompilerOptions = dict[str, str | bool]


@runtime_checkable
class Wrapped(Protocol):
    """A function ready to be traced, lowered and compiled (what `core.jit` returns)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Runs the function, tracing and compiling as needed."""

    def trace(self, *args: Any, **kwargs: Any) -> Traced:
        """Stages the function for these arguments."""

    def lower(self, *args: Any, **kwargs: Any) -> Lowered:
        """`self.trace(*args, **kwargs).lower()`."""
