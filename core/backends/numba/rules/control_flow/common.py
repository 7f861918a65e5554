"""Helpers of the control-flow lowerings (`cond.py`, `scan.py`, `while_loop.py`).

`cond`, `scan` and `while` lower to native `if`/`for`/`while` statements whose bodies are the
held jaxprs, generated inline by the same code generator (`KernelCtx.emit_jaxpr`: a body fuses
and calls BLAS like top-level code, and a 1000-step scan is one loop, never unrolled).
Loop-carried values keep one numba type across iterations: 0-d carries are scalars re-cast to
their dtype at every rebinding, others C-contiguous arrays re-bound to the body's (fresh or
passed-through) results, all at once so carries that swap places stay correct. numba unifies a
read-only argument with a fresh array into one read-only array type, which is all the bodies
need (kernels never write into their inputs).
"""

from __future__ import annotations

from core.backends.numba.context import KernelCtx
from core.backends.numba.source import cast


def loop_variables(ctx: KernelCtx, vals: list) -> list[str]:
    """Values as loop variables: scalar expressions or C-contiguous array names."""
    return [ctx.as_scalar(v) if v.shape == () else ctx.as_array(v) for v in vals]


def as_values(ctx: KernelCtx, names: list[str], avals) -> list:
    """Loop variables named `names` as the code generator's values of `avals`."""
    return [ctx.named(n, a) for n, a in zip(names, avals)]


def rebind(ctx: KernelCtx, targets: list[str], vals: list, avals) -> None:
    """`t1, t2, ... = v1, v2, ...` with scalars cast to their dtype (one statement, so swapped
    carries read the old values)."""
    if not targets:
        return
    exprs = [
        cast(e, a.dtype) if a.shape == () else e for e, a in zip(loop_variables(ctx, vals), avals)
    ]
    ctx.line(f"{', '.join(targets)}, = {', '.join(exprs)},")


def new_names(ctx: KernelCtx, prefix: str, n: int) -> list[str]:
    """`n` fresh names of the generated code."""
    return [ctx.new_name(prefix) for _ in range(n)]
