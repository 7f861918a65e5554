"""Numba lowering of `conv_general_dilated` (`core/prims/conv.py`): one call of a library
function (`core/backends/numba/library/conv.py`: im2col into a cache-sized buffer, then BLAS)
with every size and parameter a run-time argument, so no convolution compiles any loop code of
its own, whatever its shape.

Every convolution is a matrix product once its input patches are laid out as rows. Three
layouts are handled without moving the big operands:

  forward   lhs (N, S.., C), rhs (K.., I, O), out (N, Q.., O) (NHWC/HWIO/NHWC): rows are
            (n, q..), columns (k.., c); out = patches @ rhs. Other layouts are transposed into
            this one first (a copy); feature and batch groups run one product per group
            (`conv_forward`).
  kernel    the kernel gradient of the forward layout, where lhs is the activations with batch
  gradient  and features swapped, (C, S.., N), rhs the output cotangent (I, K.., O) and the
            result (Q.., N, O): the same patch matrix of the activations (rows (c, k..),
            columns (q.., n)), transposed into BLAS: out = sum over chunks of patches.T @ rhs
            (`conv_kernel_gradient`).
  output    when y below is smaller than the patch matrix (O * S.. < C * Q..: more input
  side      features than output ones, e.g. the input gradient), the product comes first,
            y[(n, s..), (k.., o)] = lhs[(n, s..), c] @ rhs[c, (k.., o)], and each output
            position sums its k.. taps of y: half the intermediate of the patch matrix for
            the CNN's input gradient, and for lhs-dilated convs (gradients of strided ones) no
            product with the inserted zeros. Ungrouped convs only (`conv_output_side`). An
            input gradient's rhs is JAX's `rev` of the forward's (K.., I, O) weights: the
            library reads those as they are (a transposed matrix, taps in reverse), so this
            side is also taken when y is as large as the patch matrix (a ResNet's 512-channel
            3x3 layers at 1x1), which spares the flipped and transposed weight-sized copy.

Operands of another dtype than the result are converted first (`preferred_element_type`).
"""

from __future__ import annotations

import math

import numpy as np

from core.backends.numba.library.conv import WEIGHTS_CKO, WEIGHTS_KOC_REVERSED
from core.backends.numba.registry import Kernel, register_lowering
from core.backends.numba.source import alloc, const, np_type
from core.prims.conv import conv_general_dilated_p


def _roles_lowering(spec, names) -> list[str]:
    """The role name of each array axis, from a spec listing the axis of each role."""
    roles = [""] * len(spec)
    for axis, name in zip(spec, names):
        roles[axis] = name
    return roles


def _arrange_lowering(ctx, name: str, shape, dtype, have: list[str], want: list[str]) -> str:
    """Array `name` of `shape`, whose axes play the roles `have`, with its axes in role order
    `want`: a transposed copy, made by a loop nest of the kernel, unless they already are."""
    if have == want:
        return name
    imap = tuple((0, ((want.index(role), 1),)) for role in have)
    moved = tuple(shape[have.index(role)] for role in want)
    return ctx.as_array(ctx.array_value(name, shape, dtype).compose(imap, moved))


def _layout_lowering(ctx, i: int, roles: list[str]) -> tuple[str, list[str], tuple]:
    """Input `i` as a C-contiguous array (a transposed view costs nothing), its axes' roles and
    its shape (`Size`s)."""
    name, axes = ctx.array_layout(i)
    return name, [roles[a] for a in axes], tuple(ctx.in_shape(i)[a] for a in axes)


def _weights_lowering(ctx, roles: list[str], want: list[str]) -> str:
    """Input 1 (the weights, whose axes play `roles`) with its axes in role order `want`, as a
    C-contiguous array: the array itself when it (or a transposed view of it) is one, else one
    loop nest reading it through its index map, so that the reversed kernel of an input
    gradient is flipped and transposed in one pass (weight-sized work every step repeats)."""
    value = ctx.operand(1)
    perm = value.permutation()
    if perm is not None and [roles[a] for a in perm] == want:
        return value.expr
    imap = tuple((0, ((want.index(role), 1),)) for role in roles)
    moved = tuple(ctx.in_shape(1)[roles.index(role)] for role in want)
    return ctx.as_array(value.compose(imap, moved))


def _reversed_koc_lowering(ctx, roles: list[str], sp: list[str]) -> str | None:
    """The array input 1 reads when that is a (K.., O, I) array read with every kernel axis of
    more than one element reversed (an input gradient's kernel: JAX's `rev` of the forward's
    (K.., I, O) weights), which `conv_output_side` multiplies as the transposed matrix it is
    (`WEIGHTS_KOC_REVERSED`); else None."""
    value = ctx.operand(1)
    if value.kind != "array" or len(value.imap) != len(value.shape):
        return None
    base = []
    for (start, terms), n in zip(value.imap, value.base_shape):
        if len(terms) != 1 or value.shape[terms[0][0]] != n:
            return None
        d, step = terms[0]
        flipped = roles[d] in sp
        if n > 1 and (start, step) != ((n - 1, -1) if flipped else (0, 1)):
            return None
        base.append(roles[d])
    return value.expr if base == [*sp, "O", "I"] else None


def _operand_lowering(ctx, name: str, i: int, dtype) -> str:
    """Array `name` (input `i`, C-contiguous) in the result's `dtype`."""
    if ctx.in_avals[i].dtype == dtype:
        return name
    return ctx.assign("xc", f"{name}.astype({np_type(dtype)})")


def _call_lowering(ctx, fn: str, x: str, w: str, shape, dtype, params) -> str:
    """Emits `out = new array of shape; lib.<fn>(x, w, out, params)`; returns `out`. Sizes are
    the kernel's `Size`s, written as their source text: a kernel of a split program reads them
    from its size argument, so it serves every batch size."""
    out = ctx.assign("o", alloc(shape, dtype))
    code = np.dtype(dtype).str[1:]
    ctx.line(f"lib.{fn}__{code}({x}, {w}, {out}, ({', '.join(map(str, params))},))")
    return out


def _conv_lowering(ctx, eqn):
    p = eqn.params
    lhs_spec, rhs_spec, out_spec = p["dimension_numbers"]
    fgc, bgc = p["feature_group_count"], p["batch_group_count"]
    xa, wa = ctx.in_avals
    oa = ctx.out_avals[0]
    dt = oa.dtype
    if oa.size == 0 or xa.size == 0 or wa.size == 0:
        return [ctx.assign("o", alloc(oa.shape, dt, const(0, dt)))]
    nsp = xa.ndim - 2
    sp = [f"s{d}" for d in range(nsp)]
    lroles = _roles_lowering(lhs_spec, ["N", "C", *sp])
    rroles = _roles_lowering(rhs_spec, ["O", "I", *sp])
    oroles = _roles_lowering(out_spec, ["N", "O", *sp])
    xs, wsh, osh = ctx.in_shape(0), ctx.in_shape(1), ctx.out_shape(0)  # sizes: `Size`s
    size = [xs[lhs_spec[2 + d]] for d in range(nsp)]
    ks = [wsh[rhs_spec[2 + d]] for d in range(nsp)]
    qs = [osh[out_spec[2 + d]] for d in range(nsp)]
    n, c = xs[lhs_spec[0]], xs[lhs_spec[1]]
    o, i = wsh[rhs_spec[0]], wsh[rhs_spec[1]]
    lo = [pad[0] for pad in p["padding"]]
    ws, ld, rd = p["window_strides"], p["lhs_dilation"], p["rhs_dilation"]
    spatial = [*size, *qs, *ks, *ws, *rd, *ld, *lo]

    x, xorder, xshape = _layout_lowering(ctx, 0, lroles)
    perm = ctx.operand(1).permutation()
    worder = [rroles[a] for a in perm] if perm is not None else rroles
    if (
        fgc == bgc == 1
        and xorder == ["C", *sp, "N"]
        and worder == ["I", *sp, "O"]
        and oroles == [*sp, "N", "O"]
    ):
        w = _weights_lowering(ctx, rroles, worder)
        x, w = _operand_lowering(ctx, x, 0, dt), _operand_lowering(ctx, w, 1, dt)
        out = _call_lowering(ctx, "conv_kernel_gradient", x, w, osh, dt, [nsp, n, c, o, *spatial])
        return [out]

    x = _arrange_lowering(ctx, x, xshape, xa.dtype, xorder, ["N", *sp, "C"])
    x = _operand_lowering(ctx, x, 0, dt)
    y_size = math.prod(map(int, size)) * o - math.prod(map(int, qs)) * c
    koc = _reversed_koc_lowering(ctx, rroles, sp) if fgc == bgc == 1 else None
    if fgc == bgc == 1 and (y_size < 0 or y_size == 0 and koc is not None):
        # a y no larger than the patch matrix, and no flipped copy of the weights
        if koc is None:
            w, layout = _weights_lowering(ctx, rroles, ["I", *sp, "O"]), WEIGHTS_CKO
        else:
            w, layout = koc, WEIGHTS_KOC_REVERSED
        fn, params = "conv_output_side", [nsp, n, c, o, layout, *spatial]
    else:
        w = _weights_lowering(ctx, rroles, [*sp, "I", "O"])
        # group counts are sizes (per-example gradients under vmap: the batch)
        groups, bgc = ctx.size(max(fgc, bgc)), ctx.size(bgc)
        fn = "conv_forward"
        params = [nsp, n // bgc, c, i, o, groups, int(fgc > 1), int(bgc > 1), *spatial]
    w = _operand_lowering(ctx, w, 1, dt)
    out = _call_lowering(ctx, fn, x, w, (n // bgc, *qs, o), dt, params)
    shape = (n // bgc, *qs, o)
    return [_arrange_lowering(ctx, out, shape, dt, ["N", *sp, "O"], oroles)]


register_lowering(conv_general_dilated_p, Kernel(_conv_lowering))
