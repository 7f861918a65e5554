"""Jitted programs traced kernel by kernel: the compiled code, timed around each kernel call.

While a trace records at `host_tracer_level >= 2`, a jitted call runs a *profiling build* of
its program: the same simplified jaxpr cut into one kernel per fusion unit
(`core.jit.partition`, whatever `config.jit_kernels` says), compiled by `core.jit.program`
(each kernel's source is cached on disk like any other, so only the first traced call of a
program compiles) and run by that module's generated driver, each kernel wrapped to record one
event. An event is labelled with the kernel's main equation (the one with the most FLOPs or its
non-elementwise operation) and its name stack, and carries every fused equation, their source
lines, FLOPs and transcendentals, and the bytes the kernel reads and writes (its input and
output arrays). The values are those of the compiled program; the time is that of the kernels
plus about a microsecond per kernel call of driver overhead.

A program that jit compiles as one function (`core.jit.program.split`: at most `SPLIT_MIN`
kernels) stays one function where the CPU's cycle counter is invariant: its units are timed by
timestamps the generated code stores (`core.profiler.stamps`), with the same events and labels.

Programs the numba back end cannot compile (float16 and bfloat16 values) are run equation by
equation instead (`core.profiler.execution`).
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from core.ir import Eqn, Jaxpr
from core.jit import codegen, packing, partition, program
from core.jit.errors import LoweringError, UnsupportedDTypeError
from core.profiler import hooks, stamps
from core.profiler.cost import equation_cost

_builds: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _nbytes(values: list) -> int:
    return sum(int(np.prod(v.aval.shape)) * np.dtype(v.aval.dtype).itemsize for v in values)


def _common_scope(eqns: list[Eqn]) -> str:
    stacks = [e.source_info.name_stack.split("/") for e in eqns if e.source_info]
    if not stacks:
        return ""
    common = stacks[0]
    for s in stacks[1:]:
        n = 0
        while n < min(len(common), len(s)) and common[n] == s[n]:
            n += 1
        common = common[:n]
    return "/".join(common)


def kernel_label(kernel: Jaxpr) -> tuple[str, dict[str, Any]]:
    """The event name and arguments of one kernel of a partitioned program.

    Args:
      kernel: the kernel's jaxpr.

    Returns:
      `(name, args)`: the name is the main equation's `scope/primitive` (with `+N` for the
      other equations fused with it); args hold the equations, sources, costs and bytes.
    """
    if not kernel.eqns:
        return "copy", {}
    costs = [equation_cost(e) for e in kernel.eqns]
    rank = lambda i: (costs[i].flops or 0, costs[i].transcendentals or 0, i)
    main = kernel.eqns[max(range(len(costs)), key=rank)]
    info = main.source_info
    scope = info.name_stack if info is not None else ""
    name = f"{scope}/{main.prim.name}" if scope else main.prim.name
    fused = sum(
        1 for e, c in zip(kernel.eqns, costs) if e is not main and (c.flops or c.transcendentals)
    )
    if fused:
        name += f" (+{fused})"
    sources = []
    for e in kernel.eqns:
        loc = e.source_info.location() if e.source_info else None
        if loc and loc not in sources:
            sources.append(loc)
    flops = [c.flops for c in costs]
    args: dict[str, Any] = {
        "equations": " ".join(e.prim.name for e in kernel.eqns),
        "scope": _common_scope(kernel.eqns),
        "source": "; ".join(sources[:4]) + (" ..." if len(sources) > 4 else ""),
        "shape": " ".join(v.aval.str_short(short_dtypes=True) for v in kernel.outvars),
        "bytes_read": _nbytes(kernel.invars),
        "bytes_written": _nbytes(kernel.outvars),
    }
    if all(f is not None for f in flops):
        args["flops"] = sum(flops)
    transcendentals = sum(c.transcendentals or 0 for c in costs)
    if transcendentals:
        args["transcendentals"] = transcendentals
    return name, args


def _timed(fn: Callable, name: str, args: dict[str, Any]) -> Callable:
    clock, record = time.perf_counter_ns, hooks.record

    def run(*a: Any) -> Any:
        start = clock()
        out = fn(*a)
        record(name, start, clock() - start, args)
        return out

    return run


def build(jaxpr: Jaxpr, name: str) -> Callable[..., tuple] | None:
    """The profiling build of a constvar-free jaxpr (see the module docstring), compiled on
    first use and kept while the jaxpr lives; None if the numba back end cannot compile it.

    Args:
      jaxpr: the program (consts first among its inputs).
      name: the program's name in messages.

    Returns:
      `f(*consts, *args) -> tuple` recording one event per kernel. The results are laid out as
      its `layout` attribute says (as `core.jit.program.compile_program`'s `layout`: the same
      as jit's build of the program unless that is one function and the counter is not
      invariant); its `unpack` attribute turns them into the list of output arrays.
    """
    if jaxpr in _builds:
        return _builds[jaxpr]
    start = time.perf_counter_ns()
    try:
        parts = partition.partition(jaxpr)
        labels = [kernel_label(k) for k in parts.kernels]
        run = None
        if len(program.split(jaxpr).kernels) == 1:  # jit compiles it as one function
            run = stamps.build(jaxpr, parts, labels)
        if run is None:
            run = _kernel_by_kernel(parts, labels, name)
    except (LoweringError, UnsupportedDTypeError):
        _builds[jaxpr] = None
        return None
    if hooks.ACTIVE:
        hooks.record(
            f"compile jit_{name} (profiling build)",
            start,
            time.perf_counter_ns() - start,
            {"kernels": len(parts.kernels)},
        )
    run.unpack = packing.unpacker(*run.layout)
    _builds[jaxpr] = run
    return run


def _kernel_by_kernel(parts: partition.Program, labels: list, name: str) -> Callable:
    """The per-kernel profiling build: the kernels of `parts`, each call timed."""
    compiled = program.compile_program(parts, f"{name} (profiling build)")
    wrapped = [_timed(info.dispatcher, *label) for info, label in zip(compiled.kernels, labels)]
    driver = program._driver(parts, wrapped, compiled.extra)
    dtypes = [v.aval.dtype for v in parts.inputs]

    def run(*args: Any) -> tuple:
        return driver(*codegen.kernel_args(args, dtypes))

    run.layout = (len(parts.outputs), [f"r{i}" for i in range(len(parts.outputs))])
    return run
