"""Kernel taps that read only padding: the convolutions skip them.

A 3x3 convolution padded by one on a 1x1 image (a ResNet's last layers at 32x32 inputs) reads
the input with its centre tap only: the other eight taps of every output position fall on the
padding, and an im2col product multiplies their zero columns all the same (8/9 of its work).
`tap_box` finds, per spatial axis, the range of taps that some output position reads inside
the input; the convolution then runs on that box of taps as a convolution of its own: its
kernel size is the box's, its low padding `lo - first tap * tap step`, and the weights (or the
kernel gradient's result) are the box's taps, copied by `copy_taps` (a tap's weights are one
contiguous block in every layout the library reads).

The parameter vectors are those of `conv._spatial`: seven per-axis vectors from `p[at]` on
(input sizes, output sizes, kernel sizes, window strides, rhs dilations, lhs dilations, low
paddings); which of them are a function's taps and rows differs (see its callers).
"""

from __future__ import annotations

import numpy as np

from core.backends.numba.library.blocks import advance, copy, fill, jit
from core.jit import runtime as rt

SIZE, OUTS, KERNEL, STRIDES, RHS_DILATION, LHS_DILATION, LOW = range(7)


@jit
def tap_box(p, at, taps, rows, tapm, rowm):
    """The taps that some row reads inside the input, per axis d: `[box[d], box[nsp + d])`,
    where row r and tap t of axis d read position r * rowm + t * tapm - lo of the input dilated
    by lhs dilation (vector indices `taps`, `rows`, `tapm`, `rowm` of the seven). Returns
    `(box, number of taps in it)`; an axis none of whose taps reads the input keeps all its
    taps (the product is zero either way)."""
    nsp = p[0]
    box = rt.empty((2 * nsp,), np.int64)
    count = 1
    for d in range(nsp):
        n, q = p[at + taps * nsp + d], p[at + rows * nsp + d]
        size, ld, lo = p[at + d], p[at + LHS_DILATION * nsp + d], p[at + LOW * nsp + d]
        first, end = n, 0
        for t in range(n):
            for r in range(q):
                pos = r * p[at + rowm * nsp + d] + t * p[at + tapm * nsp + d] - lo
                if pos >= 0 and pos % ld == 0 and pos // ld < size:
                    first, end = min(first, t), max(end, t + 1)
                    break
        if first >= end:
            first, end = 0, n
        box[d], box[nsp + d] = first, end
        count *= end - first
    return box, count


@jit
def narrowed(p, at, box, taps, tapm):
    """A copy of `p` for the convolution on the taps of `box`: their count per axis, and the
    low padding less the first tap's offset."""
    nsp = p[0]
    out = rt.empty((len(p),), np.int64)
    for j in range(len(p)):
        out[j] = p[j]
    for d in range(nsp):
        out[at + taps * nsp + d] = box[nsp + d] - box[d]
        out[at + LOW * nsp + d] -= box[d] * p[at + tapm * nsp + d]
    return out


@jit
def copy_taps(full, part, outer, taps, box, block, reverse, into_part):
    """Copies between `full` (outer, taps.., block) and `part` (outer, box sizes.., block) the
    `block` elements of every tap in `box`: into `part` if `into_part`, else back into `full`
    (whose other taps the caller has zeroed). With `reverse`, both store tap t of each axis
    at index n - 1 - t (JAX's reversed kernel of an input gradient)."""
    nsp = len(taps)
    start = rt.empty((nsp,), np.int64)
    sizes = rt.empty((nsp,), np.int64)
    for d in range(nsp):
        sizes[d] = box[nsp + d] - box[d]
        start[d] = taps[d] - box[nsp + d] if reverse else box[d]
    nfull, npart = 1, 1
    for d in range(nsp):
        nfull *= taps[d]
        npart *= sizes[d]
    t = rt.full((nsp,), 0, np.int64)
    for u in range(outer):
        fill(t, 0, nsp, 0)
        for j in range(npart):
            src = 0
            for d in range(nsp):
                src = src * taps[d] + start[d] + t[d]
            f, q = (u * nfull + src) * block, (u * npart + j) * block
            if into_part:
                copy(part, q, full, f, block)
            else:
                copy(full, f, part, q, block)
            advance(t, sizes, nsp)
