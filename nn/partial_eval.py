"""``flax.core.partial_eval``: run a function whose `core.ShapeDtypeStruct` arguments have no
values (the ``lazy_init`` of ``nn.core`` and of ``Module``).

The function runs under a partial-evaluation trace (`core.interpreters.partial_eval`): the
struct arguments become unknown tracers, every operation that needs one of them is staged
and never run, and everything else (here: the variables' initializers) runs eagerly. Each
output must be known; one that depends on a struct argument raises ``LazyInitValueError``.
So a model's variables come from its input shapes alone, however large the input would be.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import core
from core import tree_util
from core.interpreters import finish
from core.interpreters.partial_eval import JaxprTrace
from core.trace import current_trace, set_current_trace
from nn import errors


def _is_struct(x: Any) -> bool:
    return isinstance(x, core.ShapeDtypeStruct)


def lazy_init(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` with its `core.ShapeDtypeStruct` arguments treated as values not known yet.

    Args:
      fn: a function of pytrees of arrays (and `core.ShapeDtypeStruct`s).

    Returns:
      ``wrapper(*args, **kwargs)``: ``fn``'s outputs, computed without running what depends
      on the struct arguments; each dict's keys come out sorted, as from Flax (whose outputs
      are rebuilt by ``tree_unflatten``).

    Raises:
      LazyInitValueError: an output depends on a `ShapeDtypeStruct` argument.
    """

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        trace = JaxprTrace(current_trace(), stage_all=False)

        def unknown(x: Any) -> Any:
            return trace.new_arg(core.ShapedArray(x.shape, x.dtype)) if _is_struct(x) else x

        args, kwargs = tree_util.tree_map(unknown, (args, kwargs), is_leaf=_is_struct)
        with set_current_trace(trace):
            out = fn(*args, **kwargs)
        for path, leaf in tree_util.tree_leaves_with_path(out):
            if trace.is_own(leaf):
                raise errors.LazyInitValueError(tree_util.keystr(path))
        finish(trace)
        leaves, treedef = tree_util.tree_flatten(out)
        return tree_util.tree_unflatten(treedef, leaves)

    return wrapper
