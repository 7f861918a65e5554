"""``flax.core.tracers``: the current trace, which Flax's scopes record to tell the
transformation they were made under (numbax's `Scope` checks liveness itself, so
`check_trace_level` has nothing left to do, as in Flax 0.12.8)."""

from __future__ import annotations

from typing import Any

from core import trace

__all__ = ["check_trace_level", "current_trace"]


def current_trace() -> Any:
    """The interpreter that handles the next primitive (compare two results with ``==``)."""
    return trace.current_trace()


def check_trace_level(base_level: Any) -> None:
    """Flax's check that a scope is used under the trace it was made in (a no-op, as in
    Flax 0.12.8).

    Args:
      base_level: the trace recorded by the scope.
    """
    del base_level
