"""Numba lowering of dynamic indexing: the point gather and scatter
(`core/prims/gather_points.py`), dynamic_slice and dynamic_update_slice
(`core/prims/dynamic_slice.py`).

Gather and scatter walk the index rows (`indices` viewed as `(rows, k)`) and, per row, compute
the flat offset of the indexed operand axes from the operand's C strides; the remaining axes
are copied (or combined) by loops over those strides, a single contiguous loop when they trail.
Out-of-bounds rows are clamped, filled, or dropped as the `mode` parameter says.
"""

from __future__ import annotations

import math

from core.backends.numba.registry import Kernel, register_lowering
from core.backends.numba.source import alloc, cast, combine, const
from core.prims.dynamic_slice import dynamic_slice_p, dynamic_update_slice_p
from core.prims.gather_points import point_gather_p, point_scatter_p


def _strides_lowering(shape) -> list[int]:
    out, acc = [], 1
    for n in reversed(shape):
        out.append(acc)
        acc *= n
    return out[::-1]


def _row_offset_lowering(ctx, idx: str, axes, shape, strides, mode: str) -> tuple[str, str | None]:
    """Emits the flat offset of row `b` of the index array `idx` (rows of `len(axes)` indices);
    returns (offset, in-bounds flag or None)."""
    off = ctx.assign("off", "0")
    ok = ctx.assign("ok", "True") if mode in ("fill", "drop") else None
    for j, a in enumerate(axes):
        c = ctx.assign("c", f"np.int64(rt.ld({idx}, b * {len(axes)} + {j}))")
        if ok is None:
            ctx.line(f"{c} = min(max({c}, 0), {shape[a] - 1})")
        else:
            ctx.line(f"{ok} = {ok} & ({c} >= 0) & ({c} < {shape[a]})")
        ctx.line(f"{off} += {c} * {strides[a]}")
    return off, ok


def _rest_loops_lowering(ctx, shape, strides, rest, body) -> None:
    """Loops over the non-indexed axes; `body(src_offset_expr, dst_flat_expr)`."""
    if not rest:
        body("0", "0")
        return
    trailing = rest == list(range(len(shape) - len(rest), len(shape)))
    if trailing:
        n = math.prod(shape[d] for d in rest)
        with ctx.block(f"for r in range({n}):"):
            body("r", "r")
        return
    sizes = [shape[d] for d in rest]
    flat = " + ".join(f"r{i} * {math.prod(sizes[i + 1 :])}" for i in range(len(rest)))
    src = " + ".join(f"r{i} * {strides[d]}" for i, d in enumerate(rest))

    def nest(i):
        if i == len(rest):
            body(src, flat)
            return
        with ctx.block(f"for r{i} in range({sizes[i]}):"):
            nest(i + 1)

    nest(0)


def _gather_lowering(ctx, eqn):
    axes, mode, fill = eqn.params["axes"], eqn.params["mode"], eqn.params["fill_value"]
    xa = ctx.in_avals[0]
    out = ctx.out_avals[0]
    shape = ctx.in_shape(0)
    rest = [d for d in range(xa.ndim) if d not in axes]
    rows = math.prod(ctx.in_shape(1)[:-1])
    width = math.prod(shape[d] for d in rest)
    fill_c = const(fill if mode == "fill" else 0, out.dtype)
    if xa.size == 0 or out.size == 0:
        return [ctx.assign("o", alloc(ctx.out_shape(0), out.dtype, fill_c))]
    x, idx = ctx.array(0), ctx.array(1)
    o = ctx.assign("o", alloc(ctx.out_shape(0), out.dtype))  # rows of `width` elements
    strides = _strides_lowering(shape)
    with ctx.block(f"for b in range({rows}):"):
        off, ok = _row_offset_lowering(ctx, idx, axes, shape, strides, mode)
        if ok is not None:
            with ctx.block(f"if not {ok}:"):
                if width == 1:
                    ctx.line(f"rt.st({o}, b, {fill_c})")
                else:
                    with ctx.block(f"for r in range({width}):"):
                        ctx.line(f"rt.st({o}, b * {width} + r, {fill_c})")
                ctx.line("continue")
        _rest_loops_lowering(
            ctx,
            shape,
            strides,
            rest,
            lambda src, dst: ctx.line(
                f"rt.st({o}, b * {width} + {dst}, rt.ld({x}, {off} + {src}))"
            ),
        )
    return [f"rt.ld({o}, 0)" if out.shape == () else o]


register_lowering(point_gather_p, Kernel(_gather_lowering))


_COMBINE = {"add": "sum", "mul": "prod", "min": "min", "max": "max"}


def _scatter_lowering(ctx, eqn):
    axes, mode, kind = eqn.params["axes"], eqn.params["mode"], eqn.params["kind"]
    xa, ua = ctx.in_avals[0], ctx.in_avals[2]
    shape = ctx.in_shape(0)
    rest = [d for d in range(xa.ndim) if d not in axes]
    rows = math.prod(ctx.in_shape(1)[:-1])
    width = math.prod(shape[d] for d in rest)
    o = ctx.fresh_array(0)
    if xa.size and ua.size:
        idx, upd = ctx.array(1), ctx.array(2)  # rows of indices, rows of `width` updates
        strides = _strides_lowering(shape)

        def body(src, dst):
            new = f"rt.ld({upd}, b * {width} + {dst})"
            if kind != "set":
                new = combine(_COMBINE[kind], xa.dtype, f"rt.ld({o}, {off} + {src})", new)
            new = cast(new, xa.dtype) if xa.dtype.kind in "iu" else new
            ctx.line(f"rt.st({o}, {off} + {src}, {new})")

        with ctx.block(f"for b in range({rows}):"):
            off, ok = _row_offset_lowering(ctx, idx, axes, shape, strides, mode)
            if ok is not None:
                with ctx.block(f"if {ok}:"):
                    _rest_loops_lowering(ctx, shape, strides, rest, body)
            else:
                _rest_loops_lowering(ctx, shape, strides, rest, body)
    return [o]


register_lowering(point_scatter_p, Kernel(_scatter_lowering))


def _starts_lowering(ctx, first: int, shape, sizes) -> list[str]:
    """Start indices clamped so the window fits, as lax does."""
    return [
        ctx.assign("st", f"min(max(np.int64({ctx.scalar(first + d)}), 0), {n - s})")
        for d, (n, s) in enumerate(zip(shape, sizes))
    ]


def _dynamic_slice_lowering(ctx, eqn):
    xa, out = ctx.in_avals[0], ctx.out_avals[0]
    if not xa.shape:
        return [ctx.scalar(0)]
    sizes, shape = ctx.out_shape(0), ctx.in_shape(0)  # the slice sizes are the output's shape
    starts = _starts_lowering(ctx, 1, shape, sizes)
    o = ctx.assign("o", alloc(sizes, out.dtype))
    ctx.copy_into(o, sizes, ctx.array(0), shape, counts=sizes, src_starts=starts)
    return [o]


register_lowering(dynamic_slice_p, Kernel(_dynamic_slice_lowering))


def _dynamic_update_slice_lowering(ctx, eqn):
    if not ctx.in_avals[0].shape:
        return [ctx.scalar(1)]
    shape, update = ctx.in_shape(0), ctx.in_shape(1)
    o = ctx.fresh_array(0)
    starts = _starts_lowering(ctx, 2, shape, update)
    ctx.copy_into(o, shape, ctx.array(1), update, dst_starts=starts)
    return [o]


register_lowering(dynamic_update_slice_p, Kernel(_dynamic_update_slice_lowering))
