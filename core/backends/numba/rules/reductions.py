"""Numba lowering rules of `core.prims.reductions`."""

from __future__ import annotations

import math

from core.backends.numba.registry import Kernel, Reduce, register_lowering
from core.backends.numba.source import alloc, const, reshape
from core.prims.reductions import (
    argmax_p,
    argmin_p,
    reduce_and_p,
    reduce_max_p,
    reduce_min_p,
    reduce_or_p,
    reduce_prod_p,
    reduce_sum_in_order_p,
    reduce_sum_p,
    reduce_sum_ynn_p,
)


def _argext_lowering(op: str):
    def rule(ctx, eqn):
        (axis,) = eqn.params["axes"]
        xa, out, shape = ctx.in_avals[0], ctx.out_avals[0], ctx.in_shape(0)
        n = shape[axis]
        outer, inner = math.prod(shape[:axis]), math.prod(shape[axis + 1 :])
        x = ctx.assign("x", reshape(ctx.array(0), (outer, n, inner)))
        o = ctx.assign("o", alloc((outer, inner), out.dtype, const(0, out.dtype)))
        nan = xa.dtype.kind in "fc"
        with ctx.block(f"for i in range({outer}):"), ctx.block(f"for j in range({inner}):"):
            best = ctx.assign("best", f"{x}[i, 0, j]")
            with ctx.block(f"for p in range(1, {n}):"):
                v = ctx.assign("v", f"{x}[i, p, j]")
                cond = f"{v} {op} {best}"
                if nan:
                    cond = f"({cond}) | (({v} != {v}) & ({best} == {best}))"
                with ctx.block(f"if {cond}:"):
                    ctx.line(f"{best} = {v}")
                    ctx.line(f"{o}[i, j] = p")
        if out.shape == ():
            return [f"{o}[0, 0]"]
        return [ctx.assign("o", reshape(o, ctx.out_shape(0)))]

    return rule


register_lowering(argmax_p, Kernel(_argext_lowering(">")))
register_lowering(argmin_p, Kernel(_argext_lowering("<")))
register_lowering(reduce_sum_p, Reduce("sum"))
register_lowering(reduce_sum_in_order_p, Reduce("sum_windows"))
register_lowering(reduce_sum_ynn_p, Reduce("sum_ynn"))
register_lowering(reduce_max_p, Reduce("max"))
register_lowering(reduce_min_p, Reduce("min"))
register_lowering(reduce_prod_p, Reduce("prod"))
register_lowering(reduce_and_p, Reduce("and"))
register_lowering(reduce_or_p, Reduce("or"))
