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

from core.backends.numba.library.blocks import (
    advance,
    fill,
    inline,
    jit,
    prod,
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
    xs, outs, dims = p[v : v + r], p[v + r : v + 2 * r], p[v + 2 * r : v + 3 * r]
    strides, lo = p[v + 3 * r : v + 4 * r], p[v + 4 * r : v + 5 * r]
    bdil, wdil = p[v + 5 * r : v + 6 * r], p[v + 6 * r : v + 7 * r]
    xst, _ = strides_of(xs, 1)
    table, starts = tap_table(outs, strides, dims, wdil, lo, bdil, xs, xst)
    return r, inner, outs, dims, table, starts


@inline
def _tap(o, k, dims, table, starts):
    """The operand offset (in units of inner) of window tap `k` of output `o`, or -1 if the
    tap falls on padding or between dilated elements."""
    off = 0
    for d in range(len(o)):
        v = table[starts[d] + o[d] * dims[d] + k[d]]
        if v < 0:
            return -1
        off += v
    return off


@register("a a p s:a")
def reduce_window(x, out, p, init):
    """out[o] = the `p[0]` reduction (SUM, MAX, MIN) of `init` and the taps of window o."""
    kind = p[0]
    r, inner, outs, dims, table, starts = _walk(p, 1)
    o = np.zeros(r, np.int64)
    k = np.zeros(r, np.int64)
    for of in range(prod(outs)):
        ob = of * inner
        fill(out, ob, ob + inner, init)
        fill(k, 0, r, 0)
        for _ in range(prod(dims)):
            off = _tap(o, k, dims, table, starts)
            if off >= 0:
                xb = off * inner
                if kind == SUM:
                    for c in range(inner):
                        rt.st(out, ob + c, rt.ld(out, ob + c) + rt.ld(x, xb + c))
                else:
                    for c in range(inner):
                        rt.st(out, ob + c, extremum(rt.ld(out, ob + c), rt.ld(x, xb + c), kind))
            advance(k, dims, r)
        advance(o, outs, r)


@register("a b a p s:b")
def select_window(v, x, out, p, init):
    """Each window's first maximal (`p[1]` MAX) or minimal tap of the operand x, then
    out[tap] += v[window] (`p[0]` = 1, select_and_scatter_add) or out[window] = v[tap]
    (select_and_gather_add). `out` is zeroed first; `init` is the selection's identity."""
    scatter, kind = p[0], p[1]
    r, inner, outs, dims, table, starts = _walk(p, 2)
    fill(out, 0, len(out), 0)
    best = np.empty(inner, x.dtype)
    sel = np.empty(inner, np.int64)
    o = np.zeros(r, np.int64)
    k = np.zeros(r, np.int64)
    for of in range(prod(outs)):
        fill(best, 0, inner, init)
        fill(sel, 0, inner, -1)
        fill(k, 0, r, 0)
        for _ in range(prod(dims)):
            off = _tap(o, k, dims, table, starts)
            if off >= 0:
                xb = off * inner
                for c in range(inner):
                    xv, bv = rt.ld(x, xb + c), rt.ld(best, c)
                    better = xv > bv if kind == MAX else xv < bv
                    taken = better | (rt.ld(sel, c) < 0)
                    rt.st(best, c, rt.where(taken, xv, bv))
                    rt.st(sel, c, rt.where(taken, xb + c, rt.ld(sel, c)))
            advance(k, dims, r)
        ob = of * inner
        for c in range(inner):
            if sel[c] >= 0:
                if scatter:
                    out[sel[c]] = out[sel[c]] + v[ob + c]
                else:
                    out[ob + c] = v[sel[c]]
        advance(o, outs, r)
