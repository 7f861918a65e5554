"""Numba lowering rules of `core.prims.control_flow.while_loop`."""

from __future__ import annotations

from core.backends.numba.registry import Kernel, register_lowering
from core.backends.numba.rules.control_flow.common import as_values, new_names, rebind
from core.prims.control_flow.while_loop import while_p


def _while_lowering(ctx, eqn):
    p = eqn.params
    ncc, nbc = p["cond_nconsts"], p["body_nconsts"]
    ins = [ctx.operand(i) for i in range(len(eqn.inputs))]
    cc, bc, init = ins[:ncc], ins[ncc : ncc + nbc], ins[ncc + nbc :]
    avals = ctx.out_avals
    carry = new_names(ctx, "c", len(avals))
    rebind(ctx, carry, init, avals)
    with ctx.block("while True:"):
        (pred,) = ctx.emit_jaxpr(p["cond_jaxpr"], [*cc, *as_values(ctx, carry, avals)])
        with ctx.block(f"if not {ctx.as_scalar(pred)}:"):
            ctx.line("break")
        outs = ctx.emit_jaxpr(p["body_jaxpr"], [*bc, *as_values(ctx, carry, avals)])
        rebind(ctx, carry, outs, avals)
    return carry


register_lowering(while_p, Kernel(_while_lowering))
