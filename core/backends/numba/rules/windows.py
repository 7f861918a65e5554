"""Numba lowering of the windowed reductions and of the selections of max/min pooling
(`core/prims/windows.py`), any rank: loops over the output windows, every size a constant.
"""

from __future__ import annotations

import numpy as np

from core.backends.numba.registry import Kernel, register_lowering
from core.backends.numba.source import alloc, cast, combine, const, flat_offset, identity
from core.prims.windows import (
    reduce_window_max_p,
    reduce_window_min_p,
    reduce_window_sum_p,
    select_and_gather_add_p,
    select_and_scatter_add_p,
)


def _window_walk_lowering(ctx, x_shape, out_shape, p, before, tap, after) -> None:
    """Emits a loop over every output element (flat index `before(o)`/`after(o)`) and, inside,
    over its window's taps that fall on the operand (`tap(flat operand index)`). Padding and
    base dilation are skipped in the index arithmetic; checks are emitted only where a tap can
    fall outside."""
    dims, strides, pads = p["window_dimensions"], p["window_strides"], p["padding"]
    bdil, wdil = p["base_dilation"], p["window_dilation"]
    o_idx = [ctx.new_name("wo") for _ in out_shape]
    opened = 0
    for name, n in zip(o_idx, out_shape):
        ctx.open(f"for {name} in range({n}):")
        opened += 1
    oflat = ctx.assign("of", flat_offset(o_idx, out_shape))
    before(oflat)
    inner = ctx.depth
    src, checks = [], []
    for d, size in enumerate(x_shape):
        pos = f"{o_idx[d]} * {strides[d]} - {pads[d][0]}"
        if dims[d] > 1:
            k = ctx.new_name("wk")
            ctx.open(f"for {k} in range({dims[d]}):")
            pos += f" + {k} * {wdil[d]}"
        pos = ctx.assign("wp", pos)
        lowest = -pads[d][0]
        highest = (out_shape[d] - 1) * strides[d] + (dims[d] - 1) * wdil[d] - pads[d][0]
        if bdil[d] > 1:
            checks.append(f"{pos} % {bdil[d]} == 0")
            pos = f"{pos} // {bdil[d]}"
        if lowest < 0:
            checks.append(f"{pos} >= 0")
        if highest > (size - 1) * bdil[d]:
            checks.append(f"{pos} < {size}")
        src.append(pos)
    if checks:
        ctx.open(f"if {' and '.join(f'({c})' for c in checks)}:")
    tap(ctx.assign("wx", flat_offset(src, x_shape)))
    ctx.close(ctx.depth - inner)
    after(oflat)
    ctx.close(opened)


def _flat_input_lowering(ctx, i: int) -> str:
    return ctx.assign("wf", f"{ctx.array(i)}.reshape({max(ctx.in_avals[i].size, 1)})")


def _reduce_window_lowering(kind: str):
    def rule(ctx, eqn):
        xa, oa = ctx.in_avals[0], ctx.out_avals[0]
        ident = identity(kind, xa.dtype)
        out = ctx.assign("o", alloc((max(oa.size, 1),), oa.dtype))
        if xa.size and oa.size:
            x = _flat_input_lowering(ctx, 0)
            acc = ctx.new_name("wa")
            _window_walk_lowering(
                ctx,
                xa.shape,
                oa.shape,
                eqn.params,
                lambda o: ctx.line(f"{acc} = {ident}"),
                lambda i: ctx.line(
                    f"{acc} = {_combine_lowering(kind, xa.dtype, acc, f'{x}[{i}]')}"
                ),
                lambda o: ctx.line(f"{out}[{o}] = {acc}"),
            )
        elif oa.size:
            ctx.line(f"{out}[:] = {ident}")
        return [f"{out}[0]" if oa.shape == () else ctx.assign("o", f"{out}.reshape({oa.shape})")]

    return rule


def _combine_lowering(kind: str, dtype, acc: str, x: str) -> str:
    if kind == "sum":
        return f"{acc} + {x}" if np.dtype(dtype).kind in "fc" else cast(f"{acc} + {x}", dtype)
    return combine(kind, dtype, acc, x)


register_lowering(reduce_window_max_p, Kernel(_reduce_window_lowering("max")))
register_lowering(reduce_window_min_p, Kernel(_reduce_window_lowering("min")))
register_lowering(reduce_window_sum_p, Kernel(_reduce_window_lowering("sum")))


def _selection_lowering(scatter: bool):
    """select_and_scatter_add (`scatter`) or select_and_gather_add: find each window's first
    maximal/minimal tap of the operand `x` (input 1), then move the values of input 0."""

    def rule(ctx, eqn):
        va, xa = ctx.in_avals
        oa = ctx.out_avals[0]
        kind = eqn.params["select_prim"]
        params = {k: v for k, v in eqn.params.items() if k != "select_prim"}
        out_shape = va.shape if scatter else oa.shape
        out = ctx.assign("o", alloc((max(oa.size, 1),), oa.dtype, const(0, oa.dtype)))
        if xa.size and va.size and oa.size:
            v, x = _flat_input_lowering(ctx, 0), _flat_input_lowering(ctx, 1)
            best, sel = ctx.new_name("wb"), ctx.new_name("ws")
            better = ">" if kind == "max" else "<"

            def before(o):
                ctx.line(f"{best} = {identity(kind, xa.dtype)}")
                ctx.line(f"{sel} = -1")

            def tap(i):
                with ctx.block(f"if {sel} < 0 or {x}[{i}] {better} {best}:"):
                    ctx.line(f"{best} = {x}[{i}]")
                    ctx.line(f"{sel} = {i}")

            def after(o):
                with ctx.block(f"if {sel} >= 0:"):
                    if scatter:
                        total = _combine_lowering("sum", oa.dtype, f"{out}[{sel}]", f"{v}[{o}]")
                        ctx.line(f"{out}[{sel}] = {total}")
                    else:
                        ctx.line(f"{out}[{o}] = {v}[{sel}]")

            _window_walk_lowering(ctx, xa.shape, out_shape, params, before, tap, after)
        return [f"{out}[0]" if oa.shape == () else ctx.assign("o", f"{out}.reshape({oa.shape})")]

    return rule


register_lowering(select_and_gather_add_p, Kernel(_selection_lowering(scatter=False)))
register_lowering(select_and_scatter_add_p, Kernel(_selection_lowering(scatter=True)))
