"""`core.debug`: `print` and `callback` that see runtime values, like `jax.debug`.

Both bind the effectful `debug_callback` primitive (no outputs; dead-code elimination keeps it
because `debug_callback_p.effectful` is set). Eagerly it runs at once. Under `jit` it stays in
the program and runs with the values of each call, on either back end (the numba one leaves
compiled code for it through an `objmode` block, see `core/jit/host_calls.py`). Under
`grad`/`jvp` it sees the primal values only; under `vmap` it runs once per batch element (as
JAX's default does).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from core import tree_util
from core.array import Array
from core.lax.composites import index_in_dim
from core.primitive import Primitive
from core.trace import Tracer, as_value, get_aval

__all__ = ["callback", "print", "visualize_array_sharding", "visualize_sharding"]

_builtin_print = print


class _DebugCallback:
    """Wraps the user function so the primitive's params hash by identity."""

    def __init__(self, fun: Callable):
        self.fun = fun

    def __call__(self, flat_args: list[np.ndarray]) -> None:
        self.fun(*flat_args)


def _is_array(x: Any) -> bool:
    return isinstance(x, (Array, Tracer, np.ndarray, np.generic, bool, int, float, complex))


debug_callback_p = Primitive("debug_callback", multiple_results=True, effectful=True)


def _impl(*args, callback):
    callback([np.asarray(a) for a in args])
    return []


def _jvp(primals, tangents, *, callback):
    debug_callback_p.bind(*primals, callback=callback)
    return [], []


def _batch(args, dims, *, callback):
    size = next(get_aval(a).shape[d] for a, d in zip(args, dims) if d is not None)
    for i in range(size):
        sliced = [a if d is None else index_in_dim(a, i, d, False) for a, d in zip(args, dims)]
        debug_callback_p.bind(*sliced, callback=callback)
    return [], []


debug_callback_p.def_impl(_impl)
debug_callback_p.def_abstract_eval(lambda *avals, callback: [])
debug_callback_p.def_jvp(_jvp)
debug_callback_p.def_batch(_batch)


def callback(
    callback: Callable[..., Any],
    *args: Any,
    ordered: bool = False,
    partitioned: bool = False,
    **kwargs: Any,
) -> None:
    """Calls `callback(*args, **kwargs)` with the runtime values (numpy arrays) of the arrays.

    Works eagerly and under `jit(..., backend="python")`, `grad`, `vmap`; under the numba back
    end the compile raises `LoweringError` (use `backend="python"` while debugging).

    Args:
      callback: a Python function; its return value is ignored.
      *args: pytrees of arrays (other leaves are passed through as they are).
      ordered: accepted for compatibility (calls always run in program order here).
      partitioned: accepted for compatibility.
      **kwargs: more pytrees passed by keyword.
    """
    flat, tree = tree_util.tree_flatten((args, kwargs))
    dynamic = [_is_array(x) for x in flat]

    def call(*values: np.ndarray) -> None:
        # Array leaves come back as numpy values; other leaves (strings...) are passed as given.
        it = iter(values)
        full = [next(it) if d else x for x, d in zip(flat, dynamic)]
        a, k = tree_util.tree_unflatten(tree, full)
        callback(*a, **k)

    arrays = [as_value(x) for x, d in zip(flat, dynamic) if d]
    debug_callback_p.bind(*arrays, callback=_DebugCallback(call))


def print(fmt: str, *args: Any, ordered: bool = False, **kwargs: Any) -> None:  # noqa: A001
    """Prints `fmt.format(*args, **kwargs)` with the runtime values of the arrays.

    Example:
      >>> core.debug.print("x = {x}, y = {}", y, x=x)

    Same support as `callback`: eager, `jit(..., backend="python")`, `grad`, `vmap` (one line per
    batch element); the numba back end raises `LoweringError`.
    """

    def _format(*a, **k):
        _builtin_print(fmt.format(*a, **k))

    callback(_format, *args, ordered=ordered, **kwargs)


from core.sharding_visual import visualize_array_sharding, visualize_sharding  # noqa: E402
