"""Blocks exempt from the sharding checks of `Explicit` mesh axes
(`core/sharding_propagation.py`).

JAX checks every operation's operands' shardings against its type rules, except where the
caller decides the result's sharding: a product given an `out_sharding` (and the transposed
products of a gradient, which take their primal's), and what `auto_axes` computes with axes
made `Auto`. numbax checks when it places results (an eager operation's, a `jit` call's), so
it remembers which operations such a block ran: the eager ones are placed inside the block
(`_state.axes`), the traced ones are marked by their output variables (`_exempt_vars`) and
exempted when a `jit` call's program is walked.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator, Sequence

from core import ir
from core.bounded_record import BoundedRecord
from core.interpreters.partial_eval import JaxprTrace
from core.trace import current_trace


class _State(threading.local):
    def __init__(self) -> None:
        self.axes: frozenset | None = frozenset()  # None: every axis


_state = _State()
# Traced values computed in an `unchecked` block: jaxpr variable -> the axes not checked (None:
# every axis). At most 4096 marked variables are kept; the oldest are dropped past it.
_exempt_vars = BoundedRecord(4096)
_NOT_MARKED = object()


@contextlib.contextmanager
def unchecked(axes: Sequence[str] | None = None) -> Iterator[None]:
    """A block whose operations' shardings over mesh axes `axes` are not checked (see the
    module docstring): eager operations in the block, and the operations traced in it.

    Args:
      axes: the mesh axis names; None: every axis.
    """
    trace = current_trace()
    start = len(trace.eqns) if isinstance(trace, JaxprTrace) else None
    exempt = None if axes is None else frozenset(axes)
    previous = _state.axes
    _state.axes = None if exempt is None or previous is None else previous | exempt
    try:
        yield
    finally:
        _state.axes = previous
        if start is not None:
            for eqn in trace.eqns[start:]:
                for var in eqn.outputs:
                    _exempt_vars.put(var, exempt)


def exempted(var: ir.Var) -> contextlib.AbstractContextManager:
    """The block the traced operation whose first output is `var` was exempted by, entered
    again while its program is walked (a no-op block for any other operation).

    Args:
      var: the operation's first output variable.

    Returns:
      A context manager.
    """
    axes = _exempt_vars.get(var, _NOT_MARKED)
    return contextlib.nullcontext() if axes is _NOT_MARKED else unchecked(axes)


def checked_axes(explicit: frozenset) -> frozenset:
    """The axes among `explicit` (a mesh's `Explicit` axes) checked here and now.

    Args:
      explicit: the `Explicit` axis names.

    Returns:
      Those not exempted by the enclosing `unchecked` blocks.
    """
    if _state.axes is None:
        return frozenset()
    return explicit - _state.axes
