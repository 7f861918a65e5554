"""The numpy back end of `jit` (`backend="python"`): a jaxpr run equation by equation.

Each equation binds its primitive under the eager interpreter, so it runs the primitive's numpy
`impl` (defined beside the primitive in `core/prims/`). It is the reference the numba back end is
tested against, the fallback for dtypes numba cannot compile, and what control-flow primitives
use to run their bodies eagerly.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable

import numpy as np

from core import ir
from core.array import Array
from core.trace import EvalTrace, set_current_trace


class _Depth(threading.local):
    def __init__(self) -> None:
        self.n = 0


_depth = _Depth()


def running() -> bool:
    """Whether this thread is running a jaxpr here (so eager control flow stays interpreted:
    `core/prims/control_flow/eager_program.py`)."""
    return _depth.n > 0


def run_jaxpr(jaxpr: ir.Jaxpr, *args: np.ndarray) -> list[np.ndarray]:
    """Evaluates a constvar-free jaxpr on numpy arrays with the eager interpreter.

    Args:
      jaxpr: the program; its constvars (if any) come first in `args` like its invars.
      *args: one array (or scalar) per invar.

    Returns:
      One numpy array per outvar, of the outvar's dtype.
    """
    _depth.n += 1
    try:
        with set_current_trace(EvalTrace()):
            vals = [Array(np.asarray(a), av.weak_type) for a, av in zip(args, jaxpr.in_avals)]
            outs = ir.eval_jaxpr(jaxpr, [], *vals)
    finally:
        _depth.n -= 1
    return [
        np.asarray(getattr(o, "_value", o), dtype=av.dtype) for o, av in zip(outs, jaxpr.out_avals)
    ]


def compile_jaxpr(jaxpr: ir.Jaxpr) -> Callable[..., list[np.ndarray]]:
    """The numpy back end's executable of `jaxpr`: `f(*args) -> list of numpy arrays`."""
    return functools.partial(run_jaxpr, jaxpr)
