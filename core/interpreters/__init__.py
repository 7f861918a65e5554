"""The interpreters behind the transformations: jvp, partial eval/staging, transpose, batching.

Each transformation marks its trace `finished` when it returns. A tracer of a finished trace
that shows up later (stored in a global, an attribute, a closure...) raises
`UnexpectedTracerError` at its first use, instead of silently becoming a constant.

`custom_rules` holds what the interpreters need of `custom_jvp`/`custom_vjp`, which sit a layer
above them (core/README.md): the call primitives they stage and the JVP of a custom-vjp call.
`core/custom_derivatives.py` fills it when it is imported (`register_custom_rules`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core import errors
from core.primitive import Primitive
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


class _CustomRules:
    """The custom-derivative pieces the interpreters use (see `register_custom_rules`)."""

    custom_jvp_call: Primitive
    custom_vjp_call: Primitive
    custom_vjp_call_jvp: Callable


custom_rules = _CustomRules()


def register_custom_rules(**rules: Any) -> None:
    """Supplies the fields of `custom_rules` (called once, by `core/custom_derivatives.py`)."""
    unknown = set(rules) - set(_CustomRules.__annotations__)
    if unknown:
        raise TypeError(f"register_custom_rules: unknown rules {sorted(unknown)}")
    for name, rule in rules.items():
        setattr(custom_rules, name, rule)
