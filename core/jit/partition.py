"""Splitting a program into kernels: one small jaxpr per fused loop group or heavy operation.

LLVM's time grows faster than linearly with the size of a function, and a train step of a real
model compiled as one function has thousands of lines. `partition(jaxpr)` cuts the simplified
program along the fusion plan (`core/jit/fusion.py`): every loop group (elementwise ops with
their reductions) and every `Kernel`-rule equation (a GEMM, a convolution, a scan or while loop,
a gather, ...) becomes the core of one kernel. Views (broadcasts, transposes, slices) and scalar
statements cost nothing on their own, so they are not kernels: each kernel recomputes the ones
it reads, and a view stays an index map inside the loop that reads it. A kernel's inputs are the
arrays it reads (program inputs or other kernels' results), its outputs the values it defines
that other kernels or the program's outputs read.

Each kernel is an ordinary constvar-free `Jaxpr` whose generated source depends only on what it
computes (operations, ranks, dtypes, which axes are 1; not on variable names, sizes or float
literals, which are its arguments: `codegen.generate_generic`), so identical layers, equal
kernels of other programs and of other batch sizes have identical sources and compile once.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.ir import Eqn, Jaxpr, Var
from core.jit import fusion, simplify

# Kinds of fusion units that are not kernels of their own (`core/jit/program.py` reads it too).
LIGHT = (fusion.VIEW, fusion.SCALAR)


@dataclass
class Program:
    """A program as kernels run in order.

    `kernels[i]` reads the program values `kernels[i].invars` and defines `kernels[i].outvars`;
    `inputs` are the program's constvars then invars, `outputs` its outputs (Vars defined by
    some kernel or in `inputs`, or Literals).
    """

    inputs: list[Var]
    kernels: list[Jaxpr]
    outputs: list


def heavy_units(jaxpr: Jaxpr) -> tuple[list[Eqn], list, list[fusion.Unit]]:
    """The simplified equations and outputs of `jaxpr` and its fusion units."""
    eqns, outvars = simplify.simplify(jaxpr.eqns, jaxpr.outvars)
    return eqns, outvars, fusion.plan(eqns, outvars)


def partition(jaxpr: Jaxpr) -> Program:
    """Cuts `jaxpr` into kernels (see the module docstring)."""
    eqns, outvars, units = heavy_units(jaxpr)
    position = {id(e): i for i, e in enumerate(eqns)}
    light_producer: dict[Var, Eqn] = {
        v: e for u in units if u.kind in LIGHT for e in u.eqns for v in e.outputs
    }

    def with_light_producers(core: list[Eqn], roots: list) -> list[Eqn]:
        """`core` plus the view/scalar equations that compute what it (or `roots`) reads."""
        taken = {id(e) for e in core}
        extra: list[Eqn] = []
        todo = [x for e in core for x in e.inputs] + list(roots)
        while todo:
            x = todo.pop()
            e = light_producer.get(x) if isinstance(x, Var) else None
            if e is not None and id(e) not in taken:
                taken.add(id(e))
                extra.append(e)
                todo.extend(e.inputs)
        return sorted(extra + core, key=lambda e: position[id(e)])

    cores = [u.eqns for u in units if u.kind not in LIGHT]
    groups = [with_light_producers(core, []) for core in cores]
    light_outs = list(
        dict.fromkeys(v for v in outvars if isinstance(v, Var) and v in light_producer)
    )
    if light_outs:  # outputs that are views or scalars: one more kernel computes them
        cores.append([])
        groups.append(with_light_producers([], light_outs))

    reads = []
    for group in groups:
        defined = {v for e in group for v in e.outputs}
        reads.append({x for e in group for x in e.inputs if isinstance(x, Var)} - defined)
    wanted = {v for v in outvars if isinstance(v, Var)}
    read_elsewhere = set().union(*reads)  # a kernel never reads what it defines
    kernels = []
    for k, (core, group) in enumerate(zip(cores, groups)):
        outs = [v for e in core for v in e.outputs if v in read_elsewhere or v in wanted]
        if not core:
            outs = light_outs
        ins = list(dict.fromkeys(x for e in group for x in e.inputs if x in reads[k]))
        kernels.append(Jaxpr([], ins, group, outs))
    return Program([*jaxpr.constvars, *jaxpr.invars], kernels, list(outvars))
