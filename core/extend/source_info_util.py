"""`jax.extend.source_info_util`: where traced equations come from, as numbax's own
`core.source_info` (an equation's `source_info` is a `SourceInfo` with its name stack, file,
line, function and column).

JAX's `NameStack` objects are numbax's `"outer/inner"` strings (`current_name_stack`); JAX's
`user_context`, `register_exclusion`, `new_name_stack`/`set_name_stack`/`reset_name_stack`
and `transform_name_stack` are not provided.
"""

from __future__ import annotations

from core.source_info import SourceInfo, current
from core.source_info import name_stack as current_name_stack
from core.source_info import scope as extend_name_stack

__all__ = [
    "SourceInfo",
    "current",
    "current_name_stack",
    "extend_name_stack",
    "new_source_info",
    "summarize",
]


def new_source_info() -> SourceInfo:
    """An empty `SourceInfo` (no name stack, unknown location)."""
    return SourceInfo("", "<unknown>", 0, "<unknown>")


def summarize(source_info: SourceInfo) -> str:
    """`file:line:column (function)`, as JAX's.

    Args:
      source_info: an equation's source.

    Returns:
      The summary.
    """
    return source_info.summary()
