"""Numba lowering rules of `core.prims.control_flow.cond`."""

from __future__ import annotations

from core.backends.numba.registry import Kernel, register_lowering
from core.backends.numba.rules.control_flow.common import new_names, rebind
from core.prims.control_flow.cond import cond_p


def _cond_lowering(ctx, eqn):
    branches = eqn.params["branches"]
    ops = [ctx.operand(i) for i in range(1, len(eqn.inputs))]
    avals = ctx.out_avals
    outs = new_names(ctx, "b", len(avals))
    if len(branches) == 1:
        rebind(ctx, outs, ctx.emit_jaxpr(branches[0], ops), avals)
        return outs
    index = ctx.assign("k", ctx.scalar(0))
    for i, branch in enumerate(branches):
        if i == 0:
            header = f"if {index} <= 0:"
        elif i < len(branches) - 1:
            header = f"elif {index} == {i}:"
        else:
            header = "else:"
        with ctx.block(header):
            rebind(ctx, outs, ctx.emit_jaxpr(branch, ops), avals)
            if not outs:
                ctx.line("pass")
    return outs


register_lowering(cond_p, Kernel(_cond_lowering))
