"""Numba kernels for the windowed reductions of rank-4 operands (NHWC pooling), for the jit
lowering to call.

`reduce_window_4d(x, kind, ...)` computes sum (kind 0), max (1) or min (2) windows with padding
(the identity), base and window dilation handled in the index arithmetic. The selection kernels
implement the derivatives of max/min pooling: `select_and_gather_add_4d` picks the tangent at
each window's first maximal/minimal tap, `select_and_scatter_add_4d` adds each output
cotangent back at that tap. Window params are tuples of 4 ints (pads: 4 (low, high) pairs).
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True, nogil=True, inline="always")
def _src(o, k, s, wd, lo, bd, size):
    """The operand index tapped by output `o`, window tap `k` along one axis, or -1."""
    p = o * s + k * wd - lo
    if p < 0 or p % bd != 0:
        return -1
    p //= bd
    return p if p < size else -1


@numba.njit(cache=True, nogil=True)
def _out_dims(shape, dims, strides, pads, bdil, wdil):
    out = np.empty(4, np.int64)
    for a in range(4):
        padded = (shape[a] - 1) * bdil[a] + 1 + pads[a][0] + pads[a][1]
        eff = (dims[a] - 1) * wdil[a] + 1
        out[a] = max((padded - eff) // strides[a] + 1, 0)
    return out


@numba.njit(cache=True, nogil=True)
def _select(x, kind, dims, strides, pads, bdil, wdil):
    """Flat operand index of each window's selected tap (-1: only padding)."""
    od = _out_dims(x.shape, dims, strides, pads, bdil, wdil)
    sel = np.full((od[0], od[1], od[2], od[3]), -1, np.int64)
    for a in range(od[0]):
        for b in range(od[1]):
            for c in range(od[2]):
                for d in range(od[3]):
                    best = 0.0
                    for i in range(dims[0]):
                        p = _src(a, i, strides[0], wdil[0], pads[0][0], bdil[0], x.shape[0])
                        if p < 0:
                            continue
                        for j in range(dims[1]):
                            q = _src(b, j, strides[1], wdil[1], pads[1][0], bdil[1], x.shape[1])
                            if q < 0:
                                continue
                            for k in range(dims[2]):
                                r = _src(c, k, strides[2], wdil[2], pads[2][0], bdil[2], x.shape[2])
                                if r < 0:
                                    continue
                                for m in range(dims[3]):
                                    t = _src(
                                        d, m, strides[3], wdil[3], pads[3][0], bdil[3], x.shape[3]
                                    )
                                    if t < 0:
                                        continue
                                    v = x[p, q, r, t]
                                    idx = ((p * x.shape[1] + q) * x.shape[2] + r) * x.shape[3] + t
                                    if sel[a, b, c, d] < 0 or (v > best if kind == 1 else v < best):
                                        best = v
                                        sel[a, b, c, d] = idx
    return sel


@numba.njit(cache=True, nogil=True)
def reduce_window_4d(x, kind, dims, strides, pads, bdil, wdil):
    """Windowed sum (kind 0), max (1) or min (2) of a rank-4 array."""
    if kind == 0:
        od = _out_dims(x.shape, dims, strides, pads, bdil, wdil)
        out = np.zeros((od[0], od[1], od[2], od[3]), x.dtype)
        for a in range(od[0]):
            for b in range(od[1]):
                for i in range(dims[0]):
                    p = _src(a, i, strides[0], wdil[0], pads[0][0], bdil[0], x.shape[0])
                    if p < 0:
                        continue
                    for j in range(dims[1]):
                        q = _src(b, j, strides[1], wdil[1], pads[1][0], bdil[1], x.shape[1])
                        if q < 0:
                            continue
                        for c in range(od[2]):
                            for k in range(dims[2]):
                                r = _src(c, k, strides[2], wdil[2], pads[2][0], bdil[2], x.shape[2])
                                if r < 0:
                                    continue
                                for d in range(od[3]):
                                    for m in range(dims[3]):
                                        t = _src(
                                            d,
                                            m,
                                            strides[3],
                                            wdil[3],
                                            pads[3][0],
                                            bdil[3],
                                            x.shape[3],
                                        )
                                        if t >= 0:
                                            out[a, b, c, d] += x[p, q, r, t]
        return out
    sel = _select(x, kind, dims, strides, pads, bdil, wdil)
    flat = x.ravel()
    out = np.empty(sel.shape, x.dtype)
    fill = -np.inf if kind == 1 else np.inf
    sf, of = sel.ravel(), out.ravel()
    for i in range(sf.size):
        of[i] = flat[sf[i]] if sf[i] >= 0 else fill
    return out


@numba.njit(cache=True, nogil=True)
def select_and_gather_add_4d(t, x, kind, dims, strides, pads, bdil, wdil):
    """The tangent `t` at each window's selected tap of `x` (0 where only padding)."""
    sel = _select(x, kind, dims, strides, pads, bdil, wdil)
    flat = t.ravel()
    out = np.zeros(sel.shape, t.dtype)
    sf, of = sel.ravel(), out.ravel()
    for i in range(sf.size):
        if sf[i] >= 0:
            of[i] = flat[sf[i]]
    return out


@numba.njit(cache=True, nogil=True)
def select_and_scatter_add_4d(s, x, kind, dims, strides, pads, bdil, wdil):
    """Each window's source value `s` added at its selected tap of `x` (shape of `x`)."""
    sel = _select(x, kind, dims, strides, pads, bdil, wdil)
    out = np.zeros(x.shape, s.dtype)
    of, sf, vf = out.ravel(), sel.ravel(), s.ravel()
    for i in range(sf.size):
        if sf[i] >= 0:
            of[sf[i]] += vf[i]
    return out
