"""Numba lowering of the control-flow primitives: `cond`, `scan` and `while` become native
`if`/`for`/`while` statements whose bodies are the held jaxprs, generated inline by the same
`Generator` (so a body fuses and calls BLAS like top-level code, and a 1000-step scan is one
loop, never unrolled).

Loop-carried values keep one numba type across iterations: 0-d carries are scalars re-cast to
their dtype at every rebinding, others C-contiguous arrays re-bound to the body's (fresh or
passed-through) results, all at once so carries that swap places stay correct. numba unifies a
read-only argument with a fresh array into one read-only array type, which is all the bodies
need (kernels never write into their inputs). Scan slices `xs[i]` are views; `ys` are
preallocated and filled row by row.
"""

from __future__ import annotations

from core.jit.loops import Value, copy_into
from core.jit.lowering import Kernel, alloc, cast, reshape
from core.prims.control_flow import cond_p, scan_p, while_p


def _bind(ctx, vals: list[Value]) -> list[str]:
    """Values as loop variables: scalar expressions or C-contiguous array names."""
    return [ctx.gen.scalar(v) if v.shape == () else ctx.gen.materialize(v) for v in vals]


def _as_values(names: list[str], avals) -> list[Value]:
    return [
        Value.scalar(n, a.dtype) if a.shape == () else Value.array(n, a.shape, a.dtype)
        for n, a in zip(names, avals)
    ]


def _rebind(ctx, targets: list[str], vals: list[Value], avals) -> None:
    """`t1, t2, ... = v1, v2, ...` with scalars cast to their dtype (one statement, so swapped
    carries read the old values)."""
    if not targets:
        return
    exprs = [cast(e, a.dtype) if a.shape == () else e for e, a in zip(_bind(ctx, vals), avals)]
    ctx.line(f"{', '.join(targets)}, = {', '.join(exprs)},")


def _new_vars(ctx, prefix: str, n: int) -> list[str]:
    return [ctx.em.new_name(prefix) for _ in range(n)]


def _cond(ctx, eqn):
    branches = eqn.params["branches"]
    ops = [ctx.gen.read(x) for x in eqn.inputs[1:]]
    avals = ctx.out_avals
    outs = _new_vars(ctx, "b", len(avals))
    if len(branches) == 1:
        _rebind(ctx, outs, ctx.gen.emit_jaxpr(branches[0], ops), avals)
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
            _rebind(ctx, outs, ctx.gen.emit_jaxpr(branch, ops), avals)
            if not outs:
                ctx.line("pass")
    return outs


def _scan(ctx, eqn):
    p = eqn.params
    jaxpr, nc, ncar, length = p["jaxpr"], p["num_consts"], p["num_carry"], p["length"]
    ins = [ctx.gen.read(x) for x in eqn.inputs]
    consts, init = ins[:nc], ins[nc : nc + ncar]
    xs = [ctx.gen.materialize(v) for v in ins[nc + ncar :]]
    carry_avals, y_avals = ctx.out_avals[:ncar], jaxpr.out_avals[ncar:]
    carry = _new_vars(ctx, "c", ncar)
    _rebind(ctx, carry, init, carry_avals)
    ys = [ctx.assign("ys", alloc((length, a.size), a.dtype)) for a in y_avals]
    i = ctx.em.new_name("it")
    loop = f"range({length} - 1, -1, -1)" if p["reverse"] else f"range({length})"
    with ctx.block(f"for {i} in {loop}:"):
        x_vals = []
        for x, a in zip(xs, jaxpr.in_avals[nc + ncar :]):
            x_vals.append(
                Value.scalar(ctx.assign("x", f"{x}[{i}]"), a.dtype)
                if a.shape == ()
                else Value.array(ctx.assign("x", f"{x}[{i}]"), a.shape, a.dtype)
            )
        outs = ctx.gen.emit_jaxpr(jaxpr, [*consts, *_as_values(carry, carry_avals), *x_vals])
        for k, (y, v, a) in enumerate(zip(ys, outs[ncar:], y_avals)):
            if any(v is x for x in x_vals):  # a slice passed through: ys is that xs
                ys[k] = xs[next(j for j, x in enumerate(x_vals) if v is x)]
            elif a.shape == ():
                ctx.line(f"{y}[{i}, 0] = {ctx.gen.scalar(v)}")
            elif a.size:
                row = ctx.gen.materialize(v)
                copy_into(ctx.em, y, (length, a.size), row, (1, a.size), dst_starts=[i, 0])
        _rebind(ctx, carry, outs[:ncar], carry_avals)
    return carry + [ctx.assign("ys", reshape(y, (length, *a.shape))) for y, a in zip(ys, y_avals)]


def _while(ctx, eqn):
    p = eqn.params
    ncc, nbc = p["cond_nconsts"], p["body_nconsts"]
    ins = [ctx.gen.read(x) for x in eqn.inputs]
    cc, bc, init = ins[:ncc], ins[ncc : ncc + nbc], ins[ncc + nbc :]
    avals = ctx.out_avals
    carry = _new_vars(ctx, "c", len(avals))
    _rebind(ctx, carry, init, avals)
    with ctx.block("while True:"):
        (pred,) = ctx.gen.emit_jaxpr(p["cond_jaxpr"], [*cc, *_as_values(carry, avals)])
        with ctx.block(f"if not {ctx.gen.scalar(pred)}:"):
            ctx.line("break")
        outs = ctx.gen.emit_jaxpr(p["body_jaxpr"], [*bc, *_as_values(carry, avals)])
        _rebind(ctx, carry, outs, avals)
    return carry


cond_p.def_lowering(Kernel(_cond))
scan_p.def_lowering(Kernel(_scan))
while_p.def_lowering(Kernel(_while))
