"""While loops with large bodies run their iterations from Python, each a call of the compiled
cond and body programs (as XLA's CPU runtime runs a while loop's thunks).

A `while` of a program is one kernel with its cond and body inline
(`core/backends/numba/rules/control_flow/while_loop.py`): a fast loop for a small body, but
a sampling or beam-search loop around a Transformer decoder step was one numba function of
hundreds of statements (Flax's lm1b temperature sampler: 15 s of CPU per program, wmt's beam
search 36 s; XLA compiles either in about a second). A kernel of a split program that is such
a loop (`loop_of`: the `while` and the views and scalars it reads, its cond and body holding
at least `MIN_EQNS` equations in all, nested bodies counted) is a host loop instead: its cond
and body compile as programs of their own (cut into kernels shared by content, compiled by the
workers, cached on disk like any program's), and the driver's slot for the kernel holds a
Python function (`kernel`) that computes the loop's operands (the numpy back end runs the
views and scalars), then calls the cond and the body until the cond is false. An iteration
costs the calls of the body's kernels (a few microseconds each), small next to such a body's
work; smaller loops stay compiled inline, where a step costs nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from core.backends.numpy import run_jaxpr
from core.ir import ClosedJaxpr, Eqn, Jaxpr
from core.jit import fusion
from core.jit.kernel_call import as_c

# Loops whose cond and body hold at least this many equations run from Python (a decoder
# step of two small layers: about 350; the library's loops, a special function's series or
# a solver's iteration: tens).
MIN_EQNS = 150

_LIGHT = (fusion.VIEW, fusion.SCALAR)


def size(eqns: Sequence[Eqn]) -> int:
    """The number of equations in `eqns`, those of the jaxprs they hold included."""
    n = 0
    for e in eqns:
        n += 1
        for value in e.params.values():
            for j in value if isinstance(value, (tuple, list)) else (value,):
                j = j.jaxpr if isinstance(j, ClosedJaxpr) else j
                if isinstance(j, Jaxpr):
                    n += size(j.eqns)
    return n


def loop_of(kernel: Jaxpr) -> Eqn | None:
    """The `while` equation of `kernel` if the kernel is that loop with the views and scalars
    it reads, and the loop's cond and body hold at least `MIN_EQNS` equations; else None."""
    loops = [e for e in kernel.eqns if e.prim.name == "while"]
    if len(loops) != 1 or any(e is not loops[0] and not _light(e) for e in kernel.eqns):
        return None
    (loop,) = loops
    params = loop.params
    if size(params["cond_jaxpr"].eqns) + size(params["body_jaxpr"].eqns) < MIN_EQNS:
        return None
    return loop


def _light(eqn: Eqn) -> bool:
    """Whether `eqn` is a view or a scalar. A small program's one kernel is its jaxpr before
    `simplify` (`program.split`), where a primitive numbax composes (the `scatter` of
    `x.at[i].apply`) has no lowering rule yet: not light."""
    return fusion.lowering_rule(eqn.prim) is not None and fusion.classify(eqn) in _LIGHT


def kernel(kj: Jaxpr, compile_jaxpr: Callable[[Jaxpr, str], Callable], name: str) -> Callable:
    """The host loop of kernel `kj` (`loop_of(kj)` is its loop): a function of the kernel's
    inputs returning its outputs as a tuple of C-contiguous arrays, as a compiled kernel
    returns them unpacked.

    Args:
      kj: the kernel.
      compile_jaxpr: compiles a constvar-free jaxpr (named in messages) to a function of numpy
        arrays returning the list of its outputs (`program.compile_program` of its `split`).
      name: the program's name, in messages.

    Returns:
      The function.
    """
    loop = loop_of(kj)
    params = loop.params
    cond = compile_jaxpr(params["cond_jaxpr"], f"{name} (while cond)")
    body = compile_jaxpr(params["body_jaxpr"], f"{name} (while body)")
    ncc, nbc = params["cond_nconsts"], params["body_nconsts"]
    operands = Jaxpr([], kj.invars, [e for e in kj.eqns if e is not loop], loop.inputs)
    picks = [(loop.outputs.index(v), v.aval.dtype) for v in kj.outvars]

    def run(*args: np.ndarray) -> tuple[np.ndarray, ...]:
        ins = run_jaxpr(operands, *args)
        cc, bc, init = ins[:ncc], ins[ncc : ncc + nbc], ins[ncc + nbc :]
        carry = init
        while cond(*cc, *carry)[0]:
            carry = body(*bc, *carry)
        if carry is init:  # no step ran: the results are fresh arrays, as a kernel's are
            carry = [np.array(c) for c in carry]
        return tuple(as_c(carry[i], dtype) for i, dtype in picks)

    return run
