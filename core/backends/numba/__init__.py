"""The numba back end of `jit`: lowering rules, their registry and their kernel-building context.

    registry.py    the rule kinds (`Scalar`, `View`, `Reduce`, `Kernel`), `register_lowering`
                   and `lowering_rule`, the table the code generator reads
    context.py     what a rule sees: `ScalarCtx` (dtypes, temporaries, typed constants) and
                   `KernelCtx` (its equation's operands; emit, allocate, open loops, copy blocks,
                   generate a sub-jaxpr inline, call back into Python)
    source.py      source-text helpers: typed constants, casts, allocations, reshapes, offsets
    generic.py     shape-generic kernels: `Size` (an int written as a variable) and `Params`, the
                   sizes and literals a kernel of a split program takes as arguments
    rules/         the rules, one module per primitive family, mirroring `core/prims/`
                   (`rules/narrow.py`: the compiler's bfloat16 and float16 rounding primitives)
    library/       hand-written algorithms compiled once per dtype (convolutions, pooling),
                   which rules call with sizes as run-time parameters instead of emitting loops
    transcendentals.py  the primitives computed with `core.jit.vecmath`'s float32 kernels, and
                   their eager impls, which loop the same kernels (`eager_loops.py`, compiled on
                   first use) so that eager results equal `jit`'s bit for bit

The code generator and the compiler (`core/jit/codegen.py`, `loops.py`, `fusion.py`,
`disk_cache.py`) read this table. Nothing here imports numba; the rules are imported on the first
`lowering_rule` lookup, i.e. at the first compile, and `eager_loops.py` on the first eager call
needing one of its loops, so `import core` stays numba-free.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import numpy as np

from core.backends.numba import transcendentals  # noqa: F401 (registers the eager kernels)
from core.jit import gc_pause, narrow


def _program() -> ModuleType:
    """`core.jit.program`, imported on first use (it imports numba)."""
    from core.jit import program  # noqa: PLC0415 (loads numba: on first compile)

    return program


def compile_jaxpr(jaxpr, name: str = "fun") -> Callable[..., list[np.ndarray]]:
    """The numba back end's executable of `jaxpr`: one function or a sequence of kernels (see
    `core.jit.program`), `name` naming it in messages; the first call imports numba. A
    program holding bfloat16 or float16 values compiles as float32 with XLA's rounding
    (`core.jit.narrow`)."""
    program = _program()
    wide = narrow.widen(jaxpr)
    with gc_pause.paused():
        call = program.compile_program(program.split(wide.jaxpr if wide else jaxpr), name)
    return call if wide is None else wide.wrap(call)


def generated_source(jaxpr) -> str:
    """The Python source `compile_jaxpr` compiles for `jaxpr`: the one function, or every
    distinct kernel of a program split into kernels (without the driver that calls them)."""
    program = _program()
    wide = narrow.widen(jaxpr)
    return program.source(program.split(wide.jaxpr if wide else jaxpr))
