"""Windowed reductions and the selections of max/min pooling: the library functions behind
`reduce_window_{sum,max,min}`, `select_and_scatter_add` and `select_and_gather_add`.

The operand is seen as (dims.., inner): the rule merges the trailing axes that every window
covers with one tap (size-1 window, stride 1, no padding or dilation: the channels of a
pooling layer) into `inner`, which the loops here run over contiguously. `p` holds, after the
function's own leading entries, the rank r of the remaining axes, `inner`, then one entry per
axis for each of: operand sizes, output sizes (of the window walk), window sizes, strides, low
paddings, base dilations, window dilations. Padding and dilations live in the index arithmetic.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import overload

from core.backends.llvm import routines
from core.backends.numba.library.blocks import (
    advance,
    fill,
    inline,
    jit,
    prod,
    segment,
    strides_of,
    tap_table,
)
from core.backends.numba.library.entry import register
from core.jit import runtime as rt
from core.jit import vecmath as vm

SUM, MAX, MIN = 0, 1, 2


def extremum(a, b, kind):
    """max(a, b) (`kind` MAX) or min(a, b), NaN-propagating for floats."""
    raise NotImplementedError  # numba only (see the overload)


routines.register_extremum(extremum, MAX)


@overload(extremum)
def _extremum(a, b, kind):
    if isinstance(a, types.Float):
        return lambda a, b, kind: vm.maximum(a, b) if kind == MAX else vm.minimum(a, b)
    if isinstance(a, types.Boolean):
        return lambda a, b, kind: (a | b) if kind == MAX else (a & b)
    return lambda a, b, kind: (b if b > a else a) if kind == MAX else (b if b < a else a)


@jit
def _walk(p, at):
    """(r, inner, outs, dims, table, table starts) from the window-walk parameters at `p[at]`:
    `tap_table` of the operand's leading axes in units of `inner`."""
    r, inner = p[at], p[at + 1]
    v = at + 2
    xs, outs, dims = segment(p, v, r), segment(p, v + r, r), segment(p, v + 2 * r, r)
    strides, lo = segment(p, v + 3 * r, r), segment(p, v + 4 * r, r)
    bdil, wdil = segment(p, v + 5 * r, r), segment(p, v + 6 * r, r)
    xst, _ = strides_of(xs, 1)
    table, starts = tap_table(outs, strides, dims, wdil, lo, bdil, xs, xst)
    return r, inner, outs, dims, table, starts


@register("a a p s:a")
def reduce_window(x, out, p, init):
    """out[o] = the `p[0]` reduction (SUM, MAX, MIN) of `init` and the taps of window o.

    Walks the windows a row of the last axis at a time: for each tap of the other axes and
    each tap k of the last one, every output of the row adds its tap (so the per-tap
    bookkeeping is paid once per row, not once per output)."""
    kind = p[0]
    r, inner, outs, dims, table, starts = _walk(p, 1)
    last = r - 1
    ol, kl = outs[last], dims[last]
    o = rt.full((r,), 0, np.int64)
    k = rt.full((r,), 0, np.int64)
    for g in range(prod(outs) // ol):
        ob = g * ol
        fill(out, ob * inner, (ob + ol) * inner, init)
        fill(k, 0, r, 0)
        for _ in range(prod(dims) // kl):
            ok, off = _outer_tap(o, k, dims, table, starts, last)
            if ok:
                for kk in range(kl):
                    for a in range(ol):
                        v = table[starts[last] + a * kl + kk]
                        if v >= 0:
                            _combine(out, (ob + a) * inner, x, (off + v) * inner, inner, kind)
            advance(k, dims, last)
        advance(o, outs, last)


@inline
def _outer_tap(o, k, dims, table, starts, last):
    """(whether, where) tap k of output o reads the operand along the axes before `last`."""
    ok, off = True, 0
    for d in range(last):
        v = table[starts[d] + o[d] * dims[d] + k[d]]
        ok = ok and v >= 0
        off += v
    return ok, off


@inline
def _combine(out, ob, x, xb, inner, kind):
    """out[ob + c] = out[ob + c] (+, max or min by `kind`) x[xb + c] for c < inner."""
    if kind == SUM:
        for c in range(inner):
            rt.st(out, ob + c, rt.ld(out, ob + c) + rt.ld(x, xb + c))
    else:
        for c in range(inner):
            rt.st(out, ob + c, extremum(rt.ld(out, ob + c), rt.ld(x, xb + c), kind))


@register("a b a p s:b")
def select_window(v, x, out, p, init):
    """Each window's first maximal (`p[1]` MAX) or minimal tap of the operand x, then
    out[tap] += v[window] (`p[0]` = 1, select_and_scatter_add) or out[window] = v[tap]
    (select_and_gather_add). `out` is zeroed first; `init` is the selection's identity.
    Windows are walked a row of the last axis at a time, as in `reduce_window`."""
    scatter, kind = p[0], p[1]
    r, inner, outs, dims, table, starts = _walk(p, 2)
    last = r - 1
    ol, kl = outs[last], dims[last]
    fill(out, 0, len(out), 0)
    best = rt.empty((ol * inner,), x.dtype)
    sel = rt.empty((ol * inner,), np.int64)
    o = rt.full((r,), 0, np.int64)
    k = rt.full((r,), 0, np.int64)
    for g in range(prod(outs) // ol):
        fill(best, 0, ol * inner, init)
        fill(sel, 0, ol * inner, -1)
        fill(k, 0, r, 0)
        for _ in range(prod(dims) // kl):
            ok, off = _outer_tap(o, k, dims, table, starts, last)
            if ok:
                for kk in range(kl):
                    for a in range(ol):
                        t = table[starts[last] + a * kl + kk]
                        if t >= 0:
                            _select(best, sel, a * inner, x, (off + t) * inner, inner, kind)
            advance(k, dims, last)
        ob = g * ol * inner
        for c in range(ol * inner):
            src = sel[c]
            if src >= 0:
                if scatter:
                    out[src] = out[src] + v[ob + c]
                else:
                    out[ob + c] = v[src]
        advance(o, outs, last)


@inline
def _select(best, sel, at, x, xb, inner, kind):
    """Takes tap x[xb + c] for best[at + c] where it is better (`kind`) or the first."""
    for c in range(inner):
        xv, bv = rt.ld(x, xb + c), rt.ld(best, at + c)
        better = xv > bv if kind == MAX else xv < bv
        taken = better | (rt.ld(sel, at + c) < 0)
        rt.st(best, at + c, rt.where(taken, xv, bv))
        rt.st(sel, at + c, rt.where(taken, xb + c, rt.ld(sel, at + c)))
