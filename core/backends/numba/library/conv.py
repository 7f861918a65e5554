"""Convolutions as im2col into a cache-sized buffer, then BLAS: the library functions behind
`conv_general_dilated` (the layouts are explained in `core/backends/numba/rules/conv.py`).

Arrays arrive flat and C-contiguous; `p` holds the number of spatial axes `nsp`, the counts,
then one entry per spatial axis for each of: input sizes, output sizes, kernel sizes, window
strides, rhs dilations, lhs dilations, low paddings (`_spatial` reads them). Padding, lhs
dilation (zeros between input elements) and rhs dilation live in the index arithmetic, so no
padded or dilated copy is made. The batch is processed in chunks so that what one product
touches (patches and output rows) stays in L2 between the fill and the product that consumes
it (a 1-channel conv's GEMMs run 2-4x faster in 512 KB chunks than in 2 MB ones), unless the
weights are larger: every BLAS call packs its whole weight operand anew (and the kernel
gradient adds each chunk's weight-sized product into the result), so a chunk touches at least
as many elements as the weights have. A ResNet's last 3x3 convolutions (512 channels, 1x1 or
2x2 outputs: 9.4 MB of weights) then take one call instead of one per 25 batch items, which
the packing of the weights dominated.

The forward and output-side convolutions cut the batch into parts: the function a kernel calls
plans the parts and has `run_parts` (`parts.py`) run the `*_items` function on each range of
batch items, each call with its own buffers. The kernel gradient cuts its sum over the batch
(one partial sum per part, added up in part order at the end) or its output channels,
whichever repeats less work (see `conv_kernel_gradient`). The parts depend on the sizes only
and the caller's share of the pool takes them dynamically (`core/jit/schedule.py`): the
results do not depend on the thread count.
Each entry first drops the kernel taps that read only padding (`taps.py`: a 3x3 convolution on
a 1x1 image runs as a 1x1 one).
"""

from __future__ import annotations

import numpy as np

from core.backends.numba.library.blocks import (
    advance,
    copy,
    fill,
    inline,
    jit,
    prod,
    product,
    segment,
    strides_of,
    tap_table,
    zero,
    zero_of,
)
from core.backends.numba.library.entry import RUNNER, callee, in_parts, register
from core.backends.numba.library.taps import (
    KERNEL,
    LHS_DILATION,
    LOW,
    OUTS,
    RHS_DILATION,
    SIZE,
    STRIDES,
    box_start,
)
from core.jit import runtime as rt
from core.jit.schedule import MAX_PARTS, PART_FLOPS

CHUNK = 1 << 17  # elements one chunk's product may touch
# The batch items of a forward or output-side convolution are cut into up to this many parts
# (of `PART_FLOPS` multiply-adds at least) where `rt.parts` gives its most, `MAX_PARTS`: a part
# packs only the weights again, and the items' rows are computed alike in any part, so more
# parts cost nothing measurable and change no bit (the MNIST CNN's step: 52-54 ms of one core
# either way). Next to a busy process the caller waits at the end of each convolution for the
# part that a worker sharing its core with that process holds: halving the parts (2-4 ms a
# part of the CNN's second convolution there) shortened that wait in 4 of 4 samples
# (`bench/README.md`, session 38).
ITEM_PARTS = 16


@jit
def step(total, per, packed):
    """Items per chunk so that the elements a chunk's product touches (`per` an item) fit in
    `CHUNK`, or in the `packed` elements of the operand each product packs if that is more."""
    return max(1, min(total, max(CHUNK, packed) // max(per, 1)))


@jit
def _spatial(p, at, nsp):
    """The seven per-axis parameter vectors starting at `p[at]` (see the module docstring)."""
    return (
        segment(p, at, nsp),
        segment(p, at + nsp, nsp),
        segment(p, at + 2 * nsp, nsp),
        segment(p, at + 3 * nsp, nsp),
        segment(p, at + 4 * nsp, nsp),
        segment(p, at + 5 * nsp, nsp),
        segment(p, at + 6 * nsp, nsp),
    )


# Patch rows whose taps of the last axis hold fewer elements than this (few channels) are filled
# column by column: runs this short cost more to start than to copy.
SHORT_RUN = 16


@register("a a p p")
def im2col(x, buf, p, q):
    """Fills the patch matrix `buf[(b, a..), (t.., c)] = x[first + b, pos.., coff + c]` for
    b < nb, where x is (batch, size.., ctot) and pos_d = a_d * rowm[d] + t_d * colm[d] - lo[d]
    on the lhs-dilated axis (factor ld[d]; 0 off the input or between dilated elements).
    q = (nb, first, coff, cn, ctot, at, rows, rowm, cols, colm): the per-axis vectors are
    those of the convolution's parameters `p` from `p[at]` on (`_spatial`), rows, rowm, cols
    and colm naming which of them (`taps.py`'s indices): the forward convolution's rows are
    its output positions, the kernel gradient's its kernel taps. A library function of its
    own, called through its slot by both (linked into each, its 3,000 lines of optimized LLVM
    were compiled again in each).

    Rows are filled tap by tap (the last axis's taps as one run where the source is
    contiguous), or, when a row's runs are short, column by column along the last axis."""
    nb, first, coff, cn, ctot, v0, nsp = q[0], q[1], q[2], q[3], q[4], q[5], p[0]
    size, lo = segment(p, v0 + SIZE * nsp, nsp), segment(p, v0 + LOW * nsp, nsp)
    ld = segment(p, v0 + LHS_DILATION * nsp, nsp)
    rows, rowm = segment(p, v0 + q[6] * nsp, nsp), segment(p, v0 + q[7] * nsp, nsp)
    cols, colm = segment(p, v0 + q[8] * nsp, nsp), segment(p, v0 + q[9] * nsp, nsp)
    last = nsp - 1
    stride, per_item = strides_of(size, ctot)
    table, at = tap_table(rows, rowm, cols, colm, lo, ld, size, stride)
    rprod, touter = prod(rows), prod(cols) // cols[last]
    kl, ql = cols[last], rows[last]
    run = kl * cn
    width = touter * run
    contiguous = ld[last] == 1 and colm[last] == 1 and cn == ctot
    a = rt.full((nsp,), 0, np.int64)
    t = rt.full((max(last, 1),), 0, np.int64)
    for b in range(nb):
        xb = (first + b) * per_item + coff
        fill(a, 0, nsp, 0)
        for g in range(rprod // ql):
            fill(t, 0, len(t), 0)
            row0 = b * rprod + g * ql
            for u in range(touter):
                ok, off = True, xb
                for d in range(last):
                    v = table[at[d] + a[d] * cols[d] + t[d]]
                    ok = ok and v >= 0
                    off += v
                col = u * run
                if run < SHORT_RUN:
                    _columns(x, buf, ok, off, row0, col, width, ql, kl, cn, table, at[last])
                else:
                    for r in range(ql):
                        dst = (row0 + r) * width + col
                        if not ok:
                            zero(buf, dst, dst + run)
                        elif contiguous:
                            base = r * rowm[last] - lo[last]
                            k0 = min(max(0, -base), kl)
                            k1 = max(min(kl, size[last] - base), k0)
                            if k0 > 0:  # a call per row costs more than the copy itself
                                zero(buf, dst, dst + k0 * cn)
                            copy(buf, dst + k0 * cn, x, off + (base + k0) * ctot, (k1 - k0) * cn)
                            if k1 < kl:
                                zero(buf, dst + k1 * cn, dst + run)
                        else:
                            for k in range(kl):
                                v = table[at[last] + r * kl + k]
                                o = dst + k * cn
                                if v < 0:
                                    zero(buf, o, o + cn)
                                else:
                                    copy(buf, o, x, off + v, cn)
                advance(t, cols, last)
            advance(a, rows, last)


@inline
def _columns(x, buf, ok, off, row0, col, width, ql, kl, cn, table, at):
    """The short-run fill of `im2col`: columns col.. col + kl * cn of rows row0.. row0 + ql,
    each along the last axis (`table[at + r * kl + k]`: where tap k of row r reads)."""
    nothing = zero_of(buf)
    for k in range(kl):
        for c in range(cn):
            dst = row0 * width + col + k * cn + c
            if not ok:
                for r in range(ql):
                    rt.st(buf, dst + r * width, nothing)
            else:
                for r in range(ql):
                    v = rt.ld(table, at + r * kl + k)
                    value = rt.ld(x, off + c + max(v, 0))
                    rt.st(buf, dst + r * width, rt.where(v >= 0, value, nothing))


@jit
def _shares(n, per_item, touched, packed):
    """How many parts the `n` batch items of a convolution whose item costs `per_item`
    multiply-adds are cut into (`rt.parts`: by the sizes, up to `ITEM_PARTS`), and the items
    of each. Each part packs the `packed` elements of the weights anew, so parts touch
    (`touched` elements an item, see `step`) at least that many elements each: a ResNet's
    last convolutions (9.4 MB of weights for 32 rows) run as one part, which one thread
    packing them twice cost 10% of its step."""
    most = max(1, n * touched // max(packed, 1))
    count = rt.parts(n * per_item, n)
    if count == MAX_PARTS:
        count = min(ITEM_PARTS, n, n * per_item // PART_FLOPS)
    each = -(-n // max(1, min(count, most)))
    return -(-n // each), each


# The library functions each convolution calls: its parts' function, the taps' two, the runner.
_TAPS = ("conv_taps", "copy_taps", RUNNER)


@jit
def _narrowed(p, at, taps, rows, tapm, rowm):
    """(parameters, box, tap count) of the convolution on the taps that read the input
    (`conv_taps`; the box's parameters are those of `p` when it holds all the taps)."""
    nsp, n = p[0], len(p)
    plan = rt.empty((n + 2 * nsp + 1,), np.int64)
    _conv_taps(p, (at, taps, rows, tapm, rowm), plan)
    return segment(plan, 0, n), segment(plan, n, 2 * nsp), plan[n + 2 * nsp]


_conv_taps = callee("conv_taps")
_im2col = callee("im2col")
_copy_taps = callee("copy_taps")


@jit
def _box_weights(w, taps, box, count, block, reverse):
    """The weights of the box's taps, `block` elements a tap (`copy_taps` with one outer
    index): w's own block where they are one run in it (`box_start`), else a copy."""
    first = box_start(taps, box, reverse != 0)
    if first >= 0:
        return segment(w, first * block, count * block)
    wn = rt.empty((count * block,), w.dtype)
    _copy_taps(w, wn, taps, box, (1, block, reverse, 1))
    return wn


@register("a a a p", calls=("conv_forward_items", *_TAPS))
def conv_forward(x, w, out, p):
    """out[(n, q..), o] = patches[(n, q..), (k.., i)] @ w[(k.., i), o] per group: the batch
    split between the caller's share of the pool (`conv_forward_items` on each part).

    x is (N, S.., C), w (K.., I, O), out (N / batch groups, Q.., O); p = (nsp, n_out, C, I, O,
    groups, feature grouped, batch grouped, per-axis vectors...)."""
    nsp, nout, i, o, groups = p[0], p[1], p[3], p[4], p[5]
    pn, wn = p, w
    if groups == 1:  # taps that read only padding are skipped (see `taps`)
        narrow, box, count = _narrowed(p, 8, KERNEL, OUTS, RHS_DILATION, STRIDES)
        taps = segment(p, 8 + 2 * nsp, nsp)
        if count < prod(taps):
            pn = narrow
            wn = _box_weights(w, taps, box, count, i * o, 0)
    qprod, kprod = prod(segment(pn, 8 + nsp, nsp)), prod(segment(pn, 8 + 2 * nsp, nsp))
    width, og = kprod * i, o // groups
    nw, each = _shares(nout, qprod * kprod * i * o, qprod * (width + og), width * og)
    _forward_parts(nw, x, wn, out, pn, each)


@register("a a a p i i", calls=("im2col",))
def conv_forward_items(x, w, out, p, each, t):
    """`conv_forward` on batch items begin = t * each.. end (of each batch group), one chunk
    at a time."""
    nsp, nout, ctot, i, o, groups, fg, bg = p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]
    begin, end = t * each, min(nout, (t + 1) * each)
    qs, ks = segment(p, 8 + OUTS * nsp, nsp), segment(p, 8 + KERNEL * nsp, nsp)
    kprod, qprod = prod(ks), prod(qs)
    width, og = kprod * i, o // groups
    chunk = step(end - begin, qprod * (width + og), width * og)
    buf = rt.empty((chunk * qprod * width,), x.dtype)
    grouped = groups > 1
    tmp = rt.empty((chunk * qprod * og if grouped else 0,), x.dtype)
    wg = rt.empty((width * og if grouped else 0,), x.dtype)
    for g in range(groups):
        first = g * nout if bg else 0
        coff = g * i if fg else 0
        if grouped:
            for r in range(width):
                copy(wg, r * og, w, r * o + g * og, og)
        for s in range(begin, end, chunk):
            nb = min(chunk, end - s)
            _im2col(
                x, buf, p, (nb, first + s, coff, i, ctot, 8, OUTS, STRIDES, KERNEL, RHS_DILATION)
            )
            m = nb * qprod
            if not grouped:
                product(buf, w, segment(out, s * qprod * o, m * o), (m, width, o), (0, 0), 0, o)
            else:
                product(buf, wg, tmp, (m, width, og), (0, 0), 0, og)
                for r in range(m):
                    copy(out, (s * qprod + r) * o + g * og, tmp, r * og, og)


_forward_parts = in_parts("conv_forward_items")


# A band of the kernel gradient's output columns is at least this wide: each band fills the
# whole patch matrix again.
BAND = 128
# A part of the kernel gradient's sum over the batch does at least this many multiply-adds per
# element of its partial sum (items x positions), which it writes and the final sum reads: a
# ResNet's 3x3 convolutions on 4x4 maps give each part 16 items, 2 parts at batch 32.
PARTIAL_WORK = 256


@register("a a a p", calls=("conv_kernel_gradient_items", "conv_sum_parts", *_TAPS))
def conv_kernel_gradient(x, w, out, p):
    """out[(q.., n), o] = sum over (c, k..) of x[c, k * rd + q * ws - lo, n] * w[(c, k..), o]:
    the kernel gradient of a forward convolution, x (C, S.., N), w (C, K.., O), out
    (Q.., N, O); p = (nsp, n, c, o, per-axis vectors...). c is the forward's batch.

    The sum over c is cut into parts, each adding into its own weight-sized buffer (then
    summed into out in part order), or the columns o are, each part filling the whole patch
    matrix again: the first repeats `size` elements of work per extra part, the second
    c * K.. * Q.. * n (the patches), so the smaller wins (the batch when o < c * K..: the
    layers with many positions per weight; the columns on a ResNet's last, 2x2 and 1x1 ones).
    The parts (`rt.parts`, by the sizes) are taken dynamically by the caller's share of the
    pool; `conv_kernel_gradient_items` runs each."""
    nsp, n, c, o = p[0], p[1], p[2], p[3]
    taps = segment(p, 4 + nsp, nsp)
    narrow, box, count = _narrowed(p, 4, OUTS, KERNEL, STRIDES, RHS_DILATION)
    skip = count < prod(taps)  # taps that read only padding get zeros (see `taps`)
    pn, dst, first = p, out, box_start(taps, box, False)
    if skip:  # into out's block of the box's taps where they are one
        pn = narrow
        if first >= 0:
            dst = segment(out, first * n * o, count * n * o)
        else:
            dst = rt.empty((count * n * o,), out.dtype)
    kprod = prod(segment(p, 4 + 2 * nsp, nsp))
    size = count * n * o
    by_cols = o >= c * kprod and o >= 2 * BAND
    cut = o if by_cols else c
    least = BAND if by_cols else -(-PARTIAL_WORK // kprod)
    width = -(-cut // rt.parts(c * kprod * size, cut, least))
    nw = -(-cut // width)  # no empty part
    parts = rt.empty((5 * nw,), np.int64)  # per part: items, columns, offset of its buffer
    each, band = c if by_cols else width, width if by_cols else o
    for t in range(nw):
        b0, c0 = 0 if by_cols else min(c, t * each), min(o, t * band) if by_cols else 0
        parts[5 * t] = b0
        parts[5 * t + 1] = min(c, b0 + each)
        parts[5 * t + 2] = c0
        parts[5 * t + 3] = min(o, c0 + band)
        parts[5 * t + 4] = 0 if by_cols else t * size
    if by_cols or nw == 1:
        _gradient_parts(nw, x, w, dst, pn, parts)
    else:
        partial = rt.empty((nw * size,), out.dtype)
        _gradient_parts(nw, x, w, partial, pn, parts)
        _sum_parts(nw, partial, dst, (size, nw, -(-size // nw)))
    if skip and first >= 0:
        zero(out, 0, first * n * o)
        zero(out, (first + count) * n * o, len(out))
    elif skip:
        _copy_taps(out, dst, taps, box, (1, n * o, 0, 0))


@register("a a p i")
def conv_sum_parts(partial, dst, p, t):
    """dst[lo:hi] = the sum of the `nw` partial sums of `size` elements in `partial`, in part
    order, for lo = t * step.. hi; p = (size, nw, step)."""
    size, nw, step = p[0], p[1], p[2]
    for j in range(min(size, t * step), min(size, (t + 1) * step)):
        v = rt.ld(partial, j)
        for k in range(1, nw):
            v += rt.ld(partial, k * size + j)
        rt.st(dst, j, v)


@register("a a a p p i", calls=("im2col",))
def conv_kernel_gradient_items(x, w, dst, p, parts, t):
    """`conv_kernel_gradient`'s part t: the sum over items parts[5t].. parts[5t + 1] of columns
    parts[5t + 2].. parts[5t + 3], into the (Q.. * n, o) matrix at dst[parts[5t + 4]:], one
    chunk of items at a time."""
    nsp, n, o = p[0], p[1], p[3]
    qs, ks = segment(p, 4 + OUTS * nsp, nsp), segment(p, 4 + KERNEL * nsp, nsp)
    b0, b1, c0, c1 = parts[5 * t], parts[5 * t + 1], parts[5 * t + 2], parts[5 * t + 3]
    at = parts[5 * t + 4]
    kprod, width = prod(ks), prod(qs) * n
    chunk = step(b1 - b0, kprod * (width + o), width * (c1 - c0))
    buf = rt.empty((chunk * kprod * width,), x.dtype)
    acc = segment(dst, at, width * o)
    tmp = rt.empty((width * o if chunk < b1 - b0 else 0,), x.dtype)
    for s in range(b0, b1, chunk):
        nb = min(chunk, b1 - s)
        _im2col(x, buf, p, (nb, s, 0, n, n, 4, KERNEL, RHS_DILATION, OUTS, STRIDES))
        m = nb * kprod
        # the patches' transpose (width, m) times the gradient's rows (m, o)
        rhs = segment(w, s * kprod * o, m * o)
        if s == b0:
            product(buf, rhs, acc, (width, m, o), (1, 0), c0, c1)
        else:
            product(buf, rhs, tmp, (width, m, o), (1, 0), c0, c1)
            for r in range(width):
                for j in range(r * o + c0, r * o + c1):
                    rt.st(dst, at + j, rt.ld(dst, at + j) + rt.ld(tmp, j))


_gradient_parts = in_parts("conv_kernel_gradient_items")
_sum_parts = in_parts("conv_sum_parts")


# `conv_output_side`'s weight layouts (p[4]): (C, K.., O), or the array (K.., O, C) that a
# forward convolution's (K.., I, O) weights are, read with every kernel axis reversed (the input
# gradient's flipped kernel, JAX's `rev` of it, with no flipped and transposed copy made).
WEIGHTS_CKO, WEIGHTS_KOC_REVERSED = 0, 1


@register("a a a p", calls=("conv_output_side_items", *_TAPS))
def conv_output_side(x, w, out, p):
    """out[(n, q..), o] = sum over k.. of y[(n, s..), (k.., o)] at s = q * ws + k * rd - lo
    (divided by ld; no term off the input or between dilated elements), where
    y = x[(n, s..), c] @ w[c, (k.., o)] is computed a chunk of the batch at a time: x
    (N, S.., C), w (C, K.., O) or (see `WEIGHTS_KOC_REVERSED`) w[c, (k.., o)] =
    v[(K - 1 - k).., o, c] for v (K.., O, C), multiplied as the transposed matrix it is, out
    (N, Q.., O); p = (nsp, n, c, o, weight layout, per-axis vectors...). The batch is split
    between the caller's share of the pool (`conv_output_side_items`)."""
    nsp, n, c, o = p[0], p[1], p[2], p[3]
    taps = segment(p, 5 + 2 * nsp, nsp)
    narrow, box, count = _narrowed(p, 5, KERNEL, OUTS, RHS_DILATION, STRIDES)
    pn, wn = p, w
    if count < prod(taps):  # taps that read only padding are skipped (see `taps`)
        pn = narrow
        if p[4] == WEIGHTS_KOC_REVERSED:
            wn = _box_weights(w, taps, box, count, o * c, 1)
        else:
            wn = rt.empty((c * count * o,), w.dtype)
            _copy_taps(w, wn, taps, box, (c, o, 0, 1))
    sprod, qprod = prod(segment(p, 5, nsp)), prod(segment(p, 5 + nsp, nsp))
    width = count * o
    nw, each = _shares(n, sprod * width * c, sprod * (width + c) + qprod * o, c * width)
    _output_side_parts(nw, x, wn, out, pn, each)


@register("a a a p i i")
def conv_output_side_items(x, w, out, p, each, t):
    """`conv_output_side` on batch items begin = t * each.. end, one chunk at a time."""
    nsp, c, o, reversed_koc = p[0], p[2], p[3], p[4] == WEIGHTS_KOC_REVERSED
    begin, end = t * each, min(p[1], (t + 1) * each)
    size, qs, ks, ws, rd, ld, lo = _spatial(p, 5, nsp)
    sprod, kprod, qprod = prod(size), prod(ks), prod(qs)
    width = kprod * o
    chunk = step(end - begin, sprod * (width + c) + qprod * o, c * width)
    buf = rt.empty((chunk * sprod * width,), x.dtype)
    wt = 1 if reversed_koc else 0
    sources = _sources(qs, ws, ks, rd, lo, ld, size, o, reversed_koc)
    for s in range(begin, end, chunk):
        nb = min(chunk, end - s)
        m = nb * sprod
        # w is (c, width), or (width, c) read as its transpose (wt)
        product(segment(x, s * sprod * c, m * c), w, buf, (m, c, width), (0, wt), 0, width)
        for b in range(nb):
            for r in range(qprod):
                row = ((s + b) * qprod + r) * o
                zero(out, row, row + o)
                for tap in range(kprod):
                    src = sources[r * kprod + tap]
                    if src >= 0:
                        src += b * sprod * width
                        for j in range(o):
                            rt.st(out, row + j, rt.ld(out, row + j) + rt.ld(buf, src + j))


@jit
def _sources(qs, ws, ks, rd, lo, ld, size, o, reversed_koc):
    """Where `conv_output_side_items`' output row r adds tap `tap` from, for every r and tap:
    entry r * K.. + tap is the offset in an item's rows of `y` (-1 for a tap off the input or
    between dilated elements). The same for every item and chunk: computed once per call, the
    table lookups and multi-index steps per tap and row cost more than the row's additions."""
    nsp = len(size)
    kprod, qprod = prod(ks), prod(qs)
    width = kprod * o
    stride, _ = strides_of(size, 1)
    table, at = tap_table(qs, ws, ks, rd, lo, ld, size, stride)
    sources = rt.empty((qprod * kprod,), np.int64)
    q = rt.full((nsp,), 0, np.int64)
    k = rt.full((nsp,), 0, np.int64)
    for r in range(qprod):
        fill(k, 0, nsp, 0)
        for tap in range(kprod):
            ok, srow = True, 0
            for d in range(nsp):
                v = table[at[d] + q[d] * ks[d] + k[d]]
                ok = ok and v >= 0
                srow += v
            # reversing every axis of a row-major multi-index reverses its index
            col = (kprod - 1 - tap if reversed_koc else tap) * o
            sources[r * kprod + tap] = srow * width + col if ok else -1
            advance(k, ks, nsp)
        advance(q, qs, nsp)
    return sources


_output_side_parts = in_parts("conv_output_side_items")
