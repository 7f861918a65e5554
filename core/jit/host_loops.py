"""While loops with large bodies run their iterations from Python, each a call of the compiled
cond and body programs (as XLA's CPU runtime runs a while loop's thunks).

A `while` of a program is one kernel with its cond and body inline
(`core/backends/numba/rules/control_flow/while_loop.py`): a fast loop for a small body, but
a sampling or beam-search loop around a Transformer decoder step was one numba function of
hundreds of statements (Flax's lm1b temperature sampler: 15 s of CPU per program, wmt's beam
search 36 s; XLA compiles either in about a second). A kernel of a split program that is such
a loop (`loop_of`: the `while` and the views and scalars it reads, its cond and body holding
at least `MIN_EQNS` equations in all, nested bodies counted, or its inline code `MIN_LINES`
lines) is a host loop instead: its cond
and body compile as programs of their own (cut into kernels shared by content, compiled by the
workers, cached on disk like any program's), and the driver's slot for the kernel holds a
Python function (`kernel`) that computes the loop's operands (the numpy back end runs the
views and scalars), then calls the cond and the body until the cond is false. An iteration
costs the calls of the body's kernels (a few microseconds each), small next to such a body's
work; smaller loops stay compiled inline, where a step costs nothing.

A `scan` is the same (`lax.fori_loop` with bounds known when tracing is one, so a greedy decoder
looping over a Transformer is): a scan kernel was one numba function with its body inline (a
2-layer GPT's decoding loop: 969 lines, 28 s; an HMC sampler's scan of leapfrog steps, 14 s),
and as a host loop its body is a program of its own, called once per step with its consts,
carries and the step's rows of the xs (views), each y stored into its row of the stacked ys.
"""

from __future__ import annotations

import functools
import math
import weakref
from collections.abc import Callable, Sequence

import numpy as np

from core.backends.numpy import run_jaxpr
from core.ir import ClosedJaxpr, Eqn, Jaxpr, Literal
from core.jit import codegen, fusion
from core.jit.kernel_call import as_c

# Loops whose jaxprs hold at least this many equations run from Python (a decoder step of two
# small layers: about 230-350; a fori_loop of an MLP's train step, three hidden layers: 104,
# inline one kernel of 3x the step's compile time; the library's loops, a special function's
# series or a solver's iteration, and an LSTM's scan, its products moved out
# (`core/jit/scan_motion.py`): tens).
MIN_EQNS = 100
# ... or whose kernel, inline, would be at least this many lines of generated code: equations
# are a poor measure of it (a Transformer block's backward scan in the ported rope_gqa_decoder:
# 80 equations, 800 lines, 40-46 s of numba), lines are (an LSTM's scans: 141 and 178 lines,
# fast inline; a fori_loop of an MLP's train step: 327).
MIN_LINES = 250

# ... unless a step computes fewer elements than this (the equations' results, nested bodies'
# counted once): then the calls of its kernels cost more than their work (a Kalman filter's
# scan of 2x2 matrices under `value_and_grad`: 0.21 ms inline, 4.9 ms from Python, for a compile
# of 34 s against 19 s), as they do not for a 2-layer GPT's decoding step on 2 rows of 16 tokens
# (about 10^5), an HMC step over 50 points (about 10^4) or an MLP's train step.
MIN_WORK = 4096

# kernel -> the lines of its generated source (`_lines`).
_line_counts: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

_LIGHT = (fusion.VIEW, fusion.SCALAR)
_LOOPS = ("while", "scan")


def _nested_total(eqns: Sequence[Eqn], measure: Callable[[Eqn], int]) -> int:
    """The sum of `measure` over `eqns` and the equations of the jaxprs they hold."""
    n = 0
    for e in eqns:
        n += measure(e)
        for value in e.params.values():
            for j in value if isinstance(value, (tuple, list)) else (value,):
                j = j.jaxpr if isinstance(j, ClosedJaxpr) else j
                if isinstance(j, Jaxpr):
                    n += _nested_total(j.eqns, measure)
    return n


def size(eqns: Sequence[Eqn]) -> int:
    """The number of equations in `eqns`, those of the jaxprs they hold included."""
    return _nested_total(eqns, lambda e: 1)


def loop_of(kernel: Jaxpr) -> Eqn | None:
    """The `while` or `scan` equation of `kernel` if the kernel is that loop with the views and
    scalars it reads, its jaxprs (`bodies`) compute at least `MIN_WORK` elements a step and
    hold at least `MIN_EQNS` equations or the kernel is at least `MIN_LINES` lines of code;
    else None."""
    loops = [e for e in kernel.eqns if e.prim.name in _LOOPS]
    if len(loops) != 1 or any(e is not loops[0] and not _light(e) for e in kernel.eqns):
        return None
    (loop,) = loops
    if sum(work(j.eqns) for j in bodies(loop)) < MIN_WORK:
        return None
    if sum(size(j.eqns) for j in bodies(loop)) < MIN_EQNS and _lines(kernel) < MIN_LINES:
        return None
    return loop


def work(eqns: Sequence[Eqn]) -> int:
    """The elements the equations `eqns` compute, those of the jaxprs they hold included."""
    return _nested_total(eqns, lambda e: sum(math.prod(v.aval.shape) for v in e.outputs))


def _lines(kernel: Jaxpr) -> int:
    """The lines of `kernel`'s generated source (as compiled inline, `codegen.generate_generic`)."""
    n = _line_counts.get(kernel)
    if n is None:
        n = _line_counts[kernel] = codegen.generate_generic(kernel)[0].count("\n")
    return n


def bodies(loop: Eqn) -> list[Jaxpr]:
    """The jaxprs a host loop compiles as programs: a while's cond and body, a scan's body."""
    p = loop.params
    return [p["jaxpr"]] if loop.prim.name == "scan" else [p["cond_jaxpr"], p["body_jaxpr"]]


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
        arrays returning the list of its outputs (`program.compile_program` of its `split`,
        whose `driver` and `unpack` a scan calls directly).
      name: the program's name, in messages.

    Returns:
      The function.
    """
    loop = loop_of(kj)
    run = (_scan if loop.prim.name == "scan" else _while)(loop, compile_jaxpr, name)
    picks = [(loop.outputs.index(v), v.aval.dtype) for v in kj.outvars]
    light = [e for e in kj.eqns if e is not loop]
    if light:  # the numpy back end computes the views and scalars the loop reads
        operands = Jaxpr([], kj.invars, light, loop.inputs)
        ins = functools.partial(run_jaxpr, operands)
    else:  # the loop reads the kernel's inputs (a loop nested in a host loop's body, each
        # of whose calls evaluated an empty jaxpr for 40 us) and literals
        ins = _picker(kj.invars, loop.inputs)

    def call(*args: np.ndarray) -> tuple[np.ndarray, ...]:
        outs = run(*ins(*args))
        return tuple(as_c(outs[i], dtype) for i, dtype in picks)

    return call


def _picker(invars: list, inputs: list) -> Callable[..., list]:
    """A function of values of `invars` returning those of `inputs` (each an invar or a
    literal)."""
    where = {v: k for k, v in enumerate(invars)}
    plan = [
        (None, np.asarray(v.val, v.aval.dtype)) if isinstance(v, Literal) else (where[v], None)
        for v in inputs
    ]
    return lambda *args: [value if k is None else args[k] for k, value in plan]


def _while(
    loop: Eqn, compile_jaxpr: Callable[[Jaxpr, str], Callable], name: str
) -> Callable[..., list[np.ndarray]]:
    """A function of the while loop's operands returning its results (fresh arrays)."""
    params = loop.params
    cond = _direct(compile_jaxpr(params["cond_jaxpr"], f"{name} (while cond)"))
    body = _direct(compile_jaxpr(params["body_jaxpr"], f"{name} (while body)"))
    ncc, nbc = params["cond_nconsts"], params["body_nconsts"]
    dtypes = [v.aval.dtype for v in loop.inputs]
    carry_dtypes = dtypes[ncc + nbc :]

    def run(*ins: np.ndarray) -> list[np.ndarray]:
        ins = [as_c(x, dtype) for x, dtype in zip(ins, dtypes)]
        cc, bc, init = ins[:ncc], ins[ncc : ncc + nbc], ins[ncc + nbc :]
        carry = init
        while cond(*cc, *carry)[0]:
            carry = [as_c(c, dtype) for c, dtype in zip(body(*bc, *carry), carry_dtypes)]
        if carry is init:  # no step ran: the results are fresh arrays, as a kernel's are
            carry = [np.array(c) for c in carry]
        return carry

    return run


def _direct(program: Callable) -> Callable[..., list[np.ndarray]]:
    """The compiled `program` called on arguments that are what its kernels take (C-contiguous
    arrays of its input dtypes): a host loop converts its consts once, not at every step (a
    decoder's body takes every parameter of the model: converting them at each step took a
    third of the step)."""
    driver, unpack = program.driver, program.unpack
    return lambda *args: unpack(driver(*args))


def _scan(
    loop: Eqn, compile_jaxpr: Callable[[Jaxpr, str], Callable], name: str
) -> Callable[..., list[np.ndarray]]:
    """A function of the scan's operands returning its results (fresh arrays): the body
    program called per step on the consts, the carries and the step's rows of the xs (0-d
    views for vectors), its ys stored into their rows of the stacked results. The consts and
    xs are converted to what kernels take once (`_direct`), the carries at each step (a
    whole program's 0-d results are scalars)."""
    p = loop.params
    jaxpr, nc, ncar, length = p["jaxpr"], p["num_consts"], p["num_carry"], p["length"]
    body = _direct(compile_jaxpr(jaxpr, f"{name} (scan body)"))
    dtypes = [a.dtype for a in jaxpr.in_avals]
    carry_dtypes = dtypes[nc : nc + ncar]
    y_avals = jaxpr.out_avals[ncar:]
    steps = range(length - 1, -1, -1) if p["reverse"] else range(length)

    def run(*ins: np.ndarray) -> list[np.ndarray]:
        ins = [as_c(x, dtype) for x, dtype in zip(ins, dtypes)]
        consts, init, xs = ins[:nc], ins[nc : nc + ncar], ins[nc + ncar :]
        ys = [np.empty((length, *a.shape), a.dtype) for a in y_avals]
        carry = init
        for i in steps:
            outs = body(*consts, *carry, *[x[i, ...] for x in xs])
            carry = [as_c(c, dtype) for c, dtype in zip(outs[:ncar], carry_dtypes)]
            for y, out in zip(ys, outs[ncar:]):
                y[i] = out
        if carry is init:  # no step ran: the results are fresh arrays, as a kernel's are
            carry = [np.array(c) for c in carry]
        return [*carry, *ys]

    return run
