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

import numpy as np

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


# Collectives that compile to a call of the library's `exchange` in one process
# (`core/backends/numba/rules/collectives.py`), and the copies that pack their operands.
_EXCHANGES = frozenset({"psum", "pmax", "pmin", "all_gather"})
_PACKING = frozenset({"concatenate", "pad"})


def _nbytes(v: Var) -> int:
    return v.aval.size * np.dtype(v.aval.dtype).itemsize


def _around_exchange(kernel: Jaxpr, small: int) -> tuple[bool, bool]:
    """(whether `kernel` may merge with an exchange beside it: loops, views, scalars, packing
    copies and exchanges only, every output at most `small` bytes; whether it exchanges)."""
    exchanges = False
    for e in kernel.eqns:
        if e.prim.name in _EXCHANGES:
            exchanges = True
        elif e.prim.collective or (
            e.prim.name not in _PACKING
            and fusion.classify(e) not in (fusion.ELEMENTWISE, fusion.REDUCE, *LIGHT)
        ):
            return False, False
    small_outs = all(_nbytes(v) <= small for v in kernel.outvars)
    return small_outs, exchanges and small_outs


def _may_be_shared(program: Program) -> set[int]:
    """The kernels of `program` that a pmap could run on one device for all
    (`core/parallel/shared_work.py`, given replicated inputs): pure kernels (no collective,
    effect or higher-order equation) whose results only the program's outputs and other such
    kernels read (an optimizer update)."""
    kernels = program.kernels
    readers: dict[Var, list[int]] = {}
    for k, kj in enumerate(kernels):
        for v in kj.invars:
            readers.setdefault(v, []).append(k)
    found = {
        k
        for k, kj in enumerate(kernels)
        if not any(e.prim.effectful or e.prim.higher_order or e.prim.collective for e in kj.eqns)
    }
    changed = True
    while changed:
        changed = False
        for k in sorted(found):
            if any(r not in found for v in kernels[k].outvars for r in readers.get(v, ())):
                found.discard(k)
                changed = True
    return found


def merge_exchanges(program: Program, small: int) -> Program:
    """`program` with every run of consecutive kernels around a small exchange merged into one
    kernel: a pmap's exchange of BatchNorm statistics was a kernel of its own, with five small
    kernels before it (the statistics' reductions, divides, the concatenation that packs them)
    and two after (the slices, the normalization's factors), each a call of the driver (a few
    microseconds of Python and entry per call and device, and a turn at the GIL between two
    devices); merged, a ResNet-10 device runs 141 kernels a step instead of 330.

    A run holds kernels that are loops (elementwise groups, reductions), views, scalars,
    concatenations, pads and exchanges whose outputs are all at most `small` bytes (the
    exchanges staged in one barrier, `core/parallel/communicator.py`'s `SMALL`: a larger
    exchange reads its arrays in place and stays alone, `shared_work._unread`), at least one
    of them an exchange, and none that a pmap could run on one device for all (`_may_be_shared`:
    an optimizer update after the gradients' psum stays its own kernel, shared as before).
    Kernels run in order, so a run's kernels run in the same order as one.

    Args:
      program: a partitioned program (`partition`).
      small: the largest output, in bytes, of a kernel that merges.

    Returns:
      The program with the runs merged (`program` itself if nothing merges).
    """
    shareable = _may_be_shared(program)
    runs: list[list[int]] = []
    run: list[int] = []
    exchanges = False
    for k, kj in enumerate(program.kernels):
        mergeable, exchanging = _around_exchange(kj, small)
        if not mergeable or k in shareable:
            if exchanges and len(run) > 1:
                runs.append(run)
            run, exchanges = [], False
            continue
        run.append(k)
        exchanges = exchanges or exchanging
    if exchanges and len(run) > 1:
        runs.append(run)
    if not runs:
        return program
    first = {r[0]: r for r in runs}
    merged_away = {k for r in runs for k in r[1:]}
    read_by: dict[Var, set[int]] = {}
    for k, kj in enumerate(program.kernels):
        for v in kj.invars:
            read_by.setdefault(v, set()).add(k)
    wanted = {v for v in program.outputs if isinstance(v, Var)}
    kernels = []
    for k, kj in enumerate(program.kernels):
        if k in merged_away:
            continue
        if k not in first:
            kernels.append(kj)
            continue
        members = set(first[k])
        parts = [program.kernels[j] for j in first[k]]
        eqns = list({id(e): e for part in parts for e in part.eqns}.values())
        defined = {v for part in parts for v in part.outvars}
        ins = list(dict.fromkeys(v for part in parts for v in part.invars if v not in defined))
        outs = [
            v
            for part in parts
            for v in part.outvars
            if v in wanted or read_by.get(v, set()) - members
        ]
        kernels.append(Jaxpr([], ins, eqns, outs))
    return Program(program.inputs, kernels, program.outputs)
