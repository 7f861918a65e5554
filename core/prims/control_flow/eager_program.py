"""Compiled programs for eager control flow: a `lax.scan` called outside `jit` runs its body
compiled, as JAX's does, once it has run enough steps to be worth a compile.

An eager scan traces its body on every call (a new jaxpr object each time), so the compiled
program is found by the jaxpr's *structure* (`structure_key`: its equations, their primitives,
literals and parameters, with callables and closed-over constants by identity), not by the
object. A structure runs interpreted step by step (`ir.eval_jaxpr`, about a millisecond a
step) until it has run `COMPILE_AFTER_STEPS` steps in all, counting the call at hand, and
compiled from then on: a long scan compiles at once, an eager loop of short scans (an optimizer
loop) after a few calls, and a test's one-off three-step scan never pays for a compile. A scan
holding bfloat16 or float16 values compiles at its first call: JAX compiles every eager scan,
and XLA rounds a 16-bit program's steps as only the compiled program does (`core.jit.narrow`:
`(x + y).astype(float32)` converts the sum unrounded; the interpreter rounds each step).

`compile_program` is installed by `core/jit/api.py` (the layer above): it compiles a
constvar-free jaxpr with `jit`'s back end and caches it. The numpy back end runs equations with
the eager interpreter, so a scan inside it (`jit(backend="python")`, the fallback for dtypes
numba lacks) stays interpreted (`core.backends.numpy.running`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from core import ir
from core.avals import ShapedArray
from core.backends import numpy as numpy_backend
from core.bounded_record import BoundedRecord
from core.config import config

COMPILE_AFTER_STEPS = 500

# Set by core/jit/api.py: jaxpr -> callable of numpy arrays returning a list of numpy arrays.
compile_program: Callable[[ir.Jaxpr], Callable[..., list[np.ndarray]]] | None = None

# Set by core/jit/api.py: whether a jaxpr computes other numbers interpreted than compiled (it
# holds bfloat16 or float16 values); such a structure compiles at its first call.
compile_at_once: Callable[[ir.Jaxpr], bool] = lambda jaxpr: False

# structure key -> [steps run so far, compiled program or None, whether it compiles at once];
# the least recently used of more than 128 are dropped
_programs = BoundedRecord(128, recency=True)


def _param_key(v: Any) -> Any:
    if isinstance(v, ir.Jaxpr):
        return ("jaxpr", structure_key(v))
    if isinstance(v, ir.ClosedJaxpr):
        return ("closed", structure_key(v.jaxpr), tuple(_const_key(c) for c in v.consts))
    if isinstance(v, (tuple, list)):
        return (type(v).__name__, tuple(_param_key(x) for x in v))
    if isinstance(v, dict):
        return ("dict", tuple((k, _param_key(x)) for k, x in v.items()))
    if isinstance(v, np.ndarray):
        return _const_key(v)
    try:
        hash(v)
    except TypeError:
        return ("id", id(v), v)  # the value itself keeps the id valid while cached
    return v


def _const_key(c: Any) -> Any:
    a = np.asarray(c)
    return ("const", a.dtype.str, a.shape, a.tobytes()) if a.size <= 256 else ("id", id(c), c)


def structure_key(jaxpr: ir.Jaxpr) -> tuple:
    """A hashable key equal for jaxprs that compute the same thing the same way."""
    names: dict = {}

    def atom(x: Any) -> Any:
        if isinstance(x, ir.Literal):
            return ("lit", x.aval, np.asarray(x.val).tobytes())
        return names[x]

    def bind(v: ir.Var) -> Any:
        names[v] = len(names)
        return v.aval

    parts: list = [tuple(bind(v) for v in [*jaxpr.constvars, *jaxpr.invars])]
    for e in jaxpr.eqns:
        ins = tuple(atom(x) for x in e.inputs)
        params = tuple((k, _param_key(v)) for k, v in e.params.items())
        parts.append((e.prim, ins, params, tuple(bind(v) for v in e.outputs)))
    parts.append(tuple(atom(x) for x in jaxpr.outvars))
    return tuple(parts)


def compiled(
    prim: Any, args: tuple, params: dict, out_avals: list, steps: int
) -> Callable[..., list[np.ndarray]] | None:
    """The compiled program of one `prim` equation on `args` once its structure has run
    `COMPILE_AFTER_STEPS` steps (this call's `steps` included) or at once if it holds 16-bit
    floats (`compile_at_once`), else None (interpret it).

    Args:
      prim: the control-flow primitive (`scan_p`).
      args: the equation's operands (numpy arrays).
      params: its parameters.
      out_avals: its results' abstract values.
      steps: the steps this call runs.

    Returns:
      `program(*args) -> list of numpy arrays`, or None.
    """
    if compile_program is None or config.disable_jit or numpy_backend.running():
        return None
    in_avals = [ShapedArray(np.shape(a), np.asarray(a).dtype) for a in args]
    key = (prim, tuple(in_avals), tuple((k, _param_key(v)) for k, v in params.items()))
    invars = [ir.Var(a) for a in in_avals]
    outvars = [ir.Var(a) for a in out_avals]
    program = ir.Jaxpr([], invars, [ir.Eqn(prim, list(invars), params, outvars)], outvars)
    entry = _programs.get(key)
    if entry is None:
        entry = [0, None, compile_at_once(program)]
        _programs.put(key, entry)
    entry[0] += steps
    if entry[1] is None and (entry[2] or entry[0] >= COMPILE_AFTER_STEPS):
        entry[1] = compile_program(program)
    return entry[1]
