"""Jitted calls while a trace is recorded: one event per call, and one per kernel or equation.

`Jitted.__call__` hands its call here when `hooks.ACTIVE`. The call is recorded as
`jit_<name>`; inside it, with the numba back end, the program's profiling build runs, one
event per fusion unit, labelled (`core.profiler.kernels`, `core.profiler.stamps`). A call that
one of the function's fast-path guards recognizes (it ran untraced with such arguments before)
runs it on jit's prepared consts and builds the outputs with jit's output builder; others look
the program up in jit's cache. The
numpy back end (`backend="python"`) and programs numba cannot compile run equation by equation
through each primitive's eager implementation (calls to other jitted functions and
custom-derivative calls opened up), each equation recorded with its duration, its
`core.source_info` (the user's source line and the `named_scope`/module path, e.g.
`MLP/Dense_0/dot_general`) and its cost (`core.profiler.cost`: FLOPs, transcendentals, bytes).

With `ProfileOptions(host_tracer_level=1)` the calls run as usual (one fused function for most
programs) and only the calls are recorded. Calls made under a transformation (inside another
`jit`, `grad`, `vmap`) are not recorded on their own: they are part of the enclosing program.
"""

from __future__ import annotations

import time
import weakref
from typing import Any

import numpy as np

from core import tree_util
from core.array import Array
from core.config import config
from core.ir import Eqn, Jaxpr, Literal
from core.jit.kernel_call import concrete_inputs
from core.profiler import hooks, kernels
from core.profiler.cost import equation_cost
from core.trace import EvalTrace, current_trace

_CALLS = {
    "jit": "jaxpr",
    "custom_jvp_call": "call_jaxpr",
    "custom_vjp_call": "call_jaxpr",
    "custom_vmap_call": "call_jaxpr",
    "remat2": "jaxpr",
}
_labels: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def equation_label(eqn: Eqn) -> tuple[str, dict[str, Any]]:
    """The event name (`scope/primitive`) and arguments (source, scope, cost) of an equation.

    Args:
      eqn: a jaxpr equation.

    Returns:
      `(name, args)`.
    """
    info = eqn.source_info
    scope = info.name_stack if info is not None else ""
    name = f"{scope}/{eqn.prim.name}" if scope else eqn.prim.name
    cost = equation_cost(eqn)
    args: dict[str, Any] = {"primitive": eqn.prim.name}
    if info is not None:
        args["source"] = info.location()
        args["scope"] = scope
    args["shape"] = " ".join(v.aval.str_short(short_dtypes=True) for v in eqn.outputs)
    if cost.flops is not None:
        args["flops"] = cost.flops
    if cost.transcendentals:
        args["transcendentals"] = cost.transcendentals
    args["bytes_read"] = cost.bytes_read
    args["bytes_written"] = cost.bytes_written
    return name, args


def _labelled(jaxpr: Jaxpr) -> list[tuple[str, dict[str, Any]]]:
    labels = _labels.get(jaxpr)
    if labels is None:
        labels = _labels[jaxpr] = [equation_label(e) for e in jaxpr.eqns]
    return labels


def run_equations(jaxpr: Jaxpr, args: list[np.ndarray]) -> list[np.ndarray]:
    """Runs a constvar-free jaxpr equation by equation, recording one event per equation.

    Args:
      jaxpr: the program.
      args: numpy values of its inputs.

    Returns:
      The numpy values of its outputs.
    """
    env: dict = dict(zip(jaxpr.invars, args, strict=True))

    def read(x):
        return np.asarray(x.val, x.aval.dtype) if isinstance(x, Literal) else env[x]

    clock, record = time.perf_counter_ns, hooks.record
    for eqn, (name, label_args) in zip(jaxpr.eqns, _labelled(jaxpr)):
        ins = [read(x) for x in eqn.inputs]
        inner = _CALLS.get(eqn.prim.name)
        if inner is not None:
            sub = eqn.params[inner]
            outs = run_equations(getattr(sub, "jaxpr", sub), ins)
        else:
            start = clock()
            out = eqn.prim.impl(*ins, **eqn.params)
            record(name, start, clock() - start, label_args)
            outs = out if eqn.prim.multiple_results else [out]
        for v, o in zip(eqn.outputs, outs, strict=True):
            env[v] = np.asarray(o)
    return [read(x) for x in jaxpr.outvars]


def _guarded(jitted: Any, args: tuple, kwargs: dict) -> tuple | None:
    """`(output builder, cache entry, leaf values)` of the guard of `jitted`'s fast path that
    matches `args` (made by earlier untraced calls, see `Jitted._add_guard`), or None."""
    if kwargs or config._check_floats:  # checked kernels have builders of their own
        return None
    for guard, _, build, entry in jitted._guards:
        vals = guard(args)
        if vals is not None:
            return build, entry, vals
    return None


def call_jitted(jitted: Any, args: tuple, kwargs: dict) -> Any:
    """Runs a `Jitted` call while a trace is recorded (see the module docstring).

    Args:
      jitted: the `core.jit.api.Jitted` called.
      args: its positional arguments.
      kwargs: its keyword arguments.

    Returns:
      What the call returns.
    """
    eager = type(current_trace()) is EvalTrace and config._jit_enabled
    name = getattr(jitted, "__name__", "fun")
    hooks.IN_JIT = True
    start = time.perf_counter_ns()
    if not eager or not hooks.DETAIL:
        try:
            return jitted(*args, **kwargs)
        finally:
            hooks.IN_JIT = False
            if eager and hooks.ACTIVE:
                hooks.record(f"jit_{name}", start, time.perf_counter_ns() - start)
    try:
        numba_backend = (jitted._backend or config.jit_backend) == "numba"
        guarded = _guarded(jitted, args, kwargs) if numba_backend else None
        if guarded is not None:  # jit's own output builder and consts, no tracing or flattening
            build, entry, vals = guarded
            compiled = kernels.build(entry.jaxpr, name)
            start = time.perf_counter_ns()  # the first call's compile is an event of its own
            if compiled is not None and compiled.layout == entry.exe.layout:
                return build(compiled(*entry.const_vals, *vals))
        entry, leaves = jitted._entry(args, kwargs)
        avals, vals = concrete_inputs(leaves)
        if avals is None:
            return jitted(*args, **kwargs)
        consts = [np.asarray(c) for c in entry.consts]
        compiled = None
        if numba_backend:
            compiled = kernels.build(entry.jaxpr, name)
            start = time.perf_counter_ns()
        if compiled is not None:
            outs = compiled.unpack(compiled(*consts, *vals))
        else:
            outs = run_equations(entry.jaxpr, [*consts, *vals])
        arrays = [
            Array(o.astype(a.dtype, copy=False), a.weak_type)
            for o, a in zip(outs, entry.jaxpr.out_avals)
        ]
        return tree_util.tree_unflatten(entry.out_tree, arrays)
    finally:
        hooks.IN_JIT = False
        if hooks.ACTIVE:
            hooks.record(
                f"jit_{name}",
                start,
                time.perf_counter_ns() - start,
                {"mode": "equation by equation (eager)"},
            )
