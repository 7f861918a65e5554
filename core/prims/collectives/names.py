"""Named axes for the collectives: an axis name's size and the trace that binds it.

A name is bound by `vmap(f, axis_name="i")` (its `BatchTrace`), by a `pmap` being traced or
run (`core/parallel/axis_env.py`), by `shard_map`'s mesh axes while it stages its body, or by
`make_jaxpr`'s `axis_env`. `axis_size` asks them in that order; the helpers here normalize a
name or a tuple of names the way the primitives' `axis_name` parameter holds it.
"""

from __future__ import annotations

from typing import Any

from core.errors import UnboundAxisNameError
from core.parallel import axis_env
from core.trace import current_trace, eval_trace


def _names(axis_name: Any) -> tuple:
    return tuple(axis_name) if isinstance(axis_name, (tuple, list)) else (axis_name,)


def _rest(names: tuple, trace: Any) -> tuple:
    return tuple(n for n in names if n != trace.axis_name)


def _one_name(axis_name: tuple) -> Any:
    """A 1-tuple of names as its name (what the composites bind, as `psum` binds it)."""
    return axis_name[0] if len(axis_name) == 1 else axis_name


# The collective JAX 0.10.2's unbound-name error names ("Found an unbound axis name: i. To fix
# this, please call psum ..."), and whether only when traced (an eager psum says "unbound axis
# name: i"); the other collectives say "unbound axis name: i" either way.
_UNBOUND_NAMES = {
    "psum": ("psum", True),
    "pmean": ("psum", True),
    "pmax": ("psum", False),
    "pmin": ("psum", False),
    "axis_index": ("axis_index", False),
    "ppermute": ("ppermute", True),
}


def axis_size(axis_name: Any, collective: str | None = None) -> int:
    """The size of the named axis (the product over a tuple of names).

    Args:
      axis_name: a name, or a tuple of names, that an enclosing `vmap`, `pmap` or `shard_map`
        binds (or `make_jaxpr`'s `axis_env`).
      collective: the collective asking, named by the error of an unbound name while tracing.

    Returns:
      The number of elements along the axis.

    Raises:
      UnboundAxisNameError: no enclosing transformation binds a name.
    """
    size = 1
    for name in _names(axis_name):
        trace = _vmap_trace(name)
        if trace is not None:
            size *= trace.axis_size
            continue
        pmapped = axis_env.size(name)
        if pmapped is None:
            staged = current_trace() is not eval_trace
            named, when_staged = _UNBOUND_NAMES.get(collective, (None, False))
            raise UnboundAxisNameError(name, named if staged or not when_staged else None)
        size *= pmapped
    return size


def _param(axis_name: Any) -> Any:
    return tuple(axis_name) if isinstance(axis_name, list) else axis_name


def _pmapped(axis_name: Any) -> bool:
    """Whether `axis_name` is one name bound by the pmap being traced (not by a vmap)."""
    if isinstance(axis_name, tuple) or _vmap_trace(axis_name) is not None:
        return False
    return axis_env.traced_size(axis_name) is not None


def _vmap_trace(name: Any) -> Any:
    """The batch trace of the `vmap` that binds axis `name` around the current trace, or None."""
    trace = current_trace()
    while trace is not None and getattr(trace, "axis_name", None) != name:
        trace = trace.parent
    return trace
