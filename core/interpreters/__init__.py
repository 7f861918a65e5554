"""The interpreters behind the transformations: jvp, partial eval/staging, transpose, batching.

Each transformation marks its trace `finished` when it returns. A tracer of a finished trace
that shows up later (stored in a global, an attribute, a closure...) raises
`UnexpectedTracerError` at its first use, instead of silently becoming a constant.
"""

from __future__ import annotations

from typing import Any

from core import errors
from core.trace import Tracer

_KINDS = {"JVPTrace": "jvp/grad", "BatchTrace": "vmap", "JaxprTrace": "jit/make_jaxpr/grad"}


def check_live(x: Any) -> None:
    """Raises `UnexpectedTracerError` when `x` is a tracer whose transformation has ended."""
    if isinstance(x, Tracer) and getattr(x._trace, "finished", False):
        kind = _KINDS.get(type(x._trace).__name__, type(x._trace).__name__)
        raise errors.UnexpectedTracerError(x.aval, kind)


def finish(*traces: Any) -> None:
    """Marks the traces of a transformation that has returned."""
    for t in traces:
        t.finished = True
