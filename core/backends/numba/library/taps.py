"""Kernel taps that read only padding: the convolutions skip them.

A 3x3 convolution padded by one on a 1x1 image (a ResNet's last layers at 32x32 inputs) reads
the input with its centre tap only: the other eight taps of every output position fall on the
padding, and an im2col product multiplies their zero columns all the same (8/9 of its work).
`tap_box` finds, per spatial axis, the range of taps that some output position reads inside
the input; the convolution then runs on that box of taps as a convolution of its own: its
kernel size is the box's, its low padding `lo - first tap * tap step`, and the weights (or the
kernel gradient's result) are the box's taps: the full array's own block where they are one run
in it (`box_start`: a single tap, as on a 1x1 map), else a copy by `copy_taps` (a tap's weights
are one contiguous block in every layout the library reads). The kernel gradient's result then
gets zeros in the other taps only, not in all of them first (8 of the 9 taps' 9.4 MB of a
3x3x512x512 kernel written once).

The parameter vectors are those of `conv._spatial`: seven per-axis vectors from `p[at]` on
(input sizes, output sizes, kernel sizes, window strides, rhs dilations, lhs dilations, low
paddings); which of them are a function's taps and rows differs (see its callers).

Both steps are library functions of their own, called through their slots by the three
convolutions (`conv_taps` reads and writes int64 parameters only, so it compiles once for
every dtype; `copy_taps` once per dtype): linked into each convolution as helpers, they were
compiled again in each (about 1 s of the 1.6 s a convolution's entry took).
"""

from __future__ import annotations

import numpy as np

from core.backends.numba.library.blocks import advance, copy, fill, jit, zero
from core.backends.numba.library.entry import register
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
        if first >= end:
            first, end = 0, n
        box[d], box[nsp + d] = first, end
        count *= end - first
    return box, count


@register("p p p")
def conv_taps(p, spec, plan):
    """The box of taps (`tap_box`) of a convolution's parameters `p`, spec = (at, taps, rows,
    tapm, rowm), into `plan`: the parameters of the convolution on the box (`p`'s, with each
    axis's tap count and the low padding less the first tap's offset), the box (2 * nsp
    entries), then its number of taps."""
    at, taps, tapm, n, nsp = spec[0], spec[1], spec[3], len(p), p[0]
    box, count = tap_box(p, at, taps, spec[2], tapm, spec[4])
    for j in range(n):
        plan[j] = p[j]
    for d in range(nsp):
        plan[at + taps * nsp + d] = box[nsp + d] - box[d]
        plan[at + LOW * nsp + d] -= box[d] * p[at + tapm * nsp + d]
    for j in range(2 * nsp):
        plan[n + j] = box[j]
    plan[n + 2 * nsp] = count


@jit
def box_start(taps, box, reverse):
    """Where the box's taps start in the full kernel (a flat tap index) if they are one run
    there, else -1: every axis after the first of more than one box tap holds all its taps.
    With `reverse`, tap t of each axis is stored at index n - 1 - t (see `copy_taps`). A
    convolution then reads (or writes) the box's block of the full array in place."""
    nsp, first, whole, run = len(taps), 0, False, True
    for d in range(nsp):  # no return in the loop: numbax's routine translator lowers none
        size = box[nsp + d] - box[d]
        run = run and not (whole and size != taps[d])
        whole = whole or size > 1
        first = first * taps[d] + (taps[d] - box[nsp + d] if reverse else box[d])
    return first if run else -1


@register("a a p p p")
def copy_taps(full, part, taps, box, q):
    """Copies between `full` (outer, taps.., block) and `part` (outer, box sizes.., block) the
    `block` elements of every tap in `box`: into `part` if `into_part`, else back into `full`,
    whose other taps it zeroes. With `reverse`, both store tap t of each axis at index n - 1 - t
    (JAX's reversed kernel of an input gradient). q = (outer, block, reverse, into_part)."""
    outer, block, reverse, into_part = q[0], q[1], q[2] != 0, q[3] != 0
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
        for j in range(nfull):  # tap t of the full kernel, tap t - start of the box
            inside, k = True, 0
            for d in range(nsp):
                r = t[d] - start[d]
                inside = inside and r >= 0 and r < sizes[d]  # no chained comparison (as above)
                k = k * sizes[d] + r
            f, g = (u * nfull + j) * block, (u * npart + k) * block
            if not inside:
                if not into_part:
                    zero(full, f, f + block)
            elif into_part:
                copy(part, g, full, f, block)
            else:
                copy(full, f, part, g, block)
            advance(t, taps, nsp)
