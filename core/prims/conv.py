"""`conv_general_dilated`: N-d convolution with strides, padding, dilations and groups.

Params (hashable; the lowering reads them as they are):

    window_strides         one int per spatial dimension
    padding                one (low, high) pair per spatial dimension (negative crops)
    lhs_dilation           one int per spatial dimension (transposed convolution)
    rhs_dilation           one int per spatial dimension (atrous convolution)
    dimension_numbers      ConvDimensionNumbers(lhs_spec, rhs_spec, out_spec): each lists the
                           array dimensions holding (batch|out-feature, feature|in-feature,
                           spatial...) so e.g. NHWC is lhs_spec=(0, 3, 1, 2)
    feature_group_count    grouped / depthwise convolutions
    batch_group_count      groups over the batch (appears in kernel gradients)
    preferred_element_type the accumulation/output dtype, or None

The numpy impl permutes to NC-spatial/OI-spatial, builds the im2col matrix with a strided view
and multiplies with BLAS (one matmul per group). It is bilinear: jvp is the sum of two convs,
and the transposes are the standard derivations (JAX's): the lhs cotangent is a conv of the
output cotangent with the spatially flipped kernel (lhs_dilation = strides), the rhs cotangent a
conv of the input with the output cotangent (rhs_dilation = strides). Batching folds the vmapped
axis into the batch or feature dimensions.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any, NamedTuple, Union

import numpy as np
from numpy.lib.stride_tricks import as_strided

from core import dtypes
from core.ad_util import Zero, add_any
from core.avals import ShapedArray
from core.errors import (
    ConvDimensionNumbersError,
    ConvPaddingError,
    ConvStridesError,
    PaddingTypeError,
    PreferredElementTypeError,
    ShapeError,
)
from core.interpreters.transpose import is_undefined
from core.primitive import ANY, Primitive, jax_params
from core.prims.elementwise import check_same_dtypes
from core.prims.options import canonicalize_precision
from core.prims.rev import rev
from core.prims.shapes import convert_element_type, full, reshape, transpose
from core.trace import get_aval


class ConvDimensionNumbers(NamedTuple):
    """Where batch/feature/spatial dimensions live in lhs, rhs and the output (`lax`'s)."""

    lhs_spec: tuple[int, ...]
    rhs_spec: tuple[int, ...]
    out_spec: tuple[int, ...]


# JAX's annotation type `lax.ConvGeneralDilatedDimensionNumbers`, for ported code that names it:
# a `typing.Union` as JAX's (calling it raises JAX's "Cannot instantiate typing.Union").
ConvGeneralDilatedDimensionNumbers = Union[  # noqa: UP007
    tuple[str, str, str], ConvDimensionNumbers, None
]


conv_general_dilated_p = Primitive("conv_general_dilated")


def _dilate_shape(shape: Sequence[int], dilation: Sequence[int]) -> tuple[int, ...]:
    return tuple(0 if d == 0 else 1 + r * (d - 1) for d, r in zip(shape, dilation))


def conv_shape_tuple(lhs_shape, rhs_shape, strides, pads, batch_group_count=1):
    """The output shape of a conv in canonical (N, C, spatial...) order (`lax.conv_shape_tuple`).

    `pads` is 'SAME'/'SAME_LOWER'/'VALID' or one (low, high) pair per spatial dimension.
    """
    if isinstance(pads, str):
        pads = padtype_to_pads(lhs_shape[2:], rhs_shape[2:], strides, pads)
    if len(pads) != len(lhs_shape) - 2:
        raise ShapeError(
            f"Wrong number of explicit pads for convolution: expected {len(lhs_shape) - 2}, "
            f"got {len(pads)}."
        )
    padded = [d + lo + hi for d, (lo, hi) in zip(lhs_shape[2:], pads)]
    if any(p < 0 for p in padded):
        raise ShapeError(
            "Negative padding is larger than the size of the corresponding dimension: got "
            f"padding={pads} for lhs_shape[2:]={tuple(int(d) for d in lhs_shape[2:])}"
        )
    space = tuple(
        0 if p < k else (p - k) // s + 1 for p, k, s in zip(padded, rhs_shape[2:], strides)
    )
    return (lhs_shape[0] // batch_group_count, rhs_shape[0], *space)


def _conv_nc(x, w, strides, padding, lhs_dilation, rhs_dilation, fgc, bgc, out_dtype):
    """Convolution in canonical layout: x (N, C, S...), w (O, I, K...) -> (N', O, S'...)."""
    nsp = x.ndim - 2
    if any(d > 1 for d in lhs_dilation):
        dil = np.zeros(x.shape[:2] + _dilate_shape(x.shape[2:], lhs_dilation), x.dtype)
        dil[(slice(None), slice(None), *(slice(None, None, d) for d in lhs_dilation))] = x
        x = dil
    pos = [(max(lo, 0), max(hi, 0)) for lo, hi in padding]
    if any(p != (0, 0) for p in pos):
        x = np.pad(x, [(0, 0), (0, 0), *pos])
    crop = tuple(
        slice(-lo if lo < 0 else 0, x.shape[2 + i] + hi if hi < 0 else None)
        for i, (lo, hi) in enumerate(padding)
    )
    x = x[(slice(None), slice(None), *crop)]
    ks = w.shape[2:]
    eff = _dilate_shape(ks, rhs_dilation)
    osp = tuple(0 if p < k else (p - k) // s + 1 for p, k, s in zip(x.shape[2:], eff, strides))
    st = x.strides
    patches = as_strided(
        x,
        x.shape[:2] + osp + ks,
        st[:2]
        + tuple(st[2 + i] * strides[i] for i in range(nsp))
        + tuple(st[2 + i] * rhs_dilation[i] for i in range(nsp)),
        writeable=False,
    )
    n, c = x.shape[:2]
    o = w.shape[0]
    kprod = int(np.prod(ks, dtype=np.int64))
    oprod = int(np.prod(osp, dtype=np.int64))
    sp_axes = tuple(range(2, 2 + nsp))
    k_axes = tuple(range(2 + nsp, 2 + 2 * nsp))
    if bgc > 1:
        g, nb, og = bgc, n // bgc, o // bgc
        p = patches.reshape((g, nb, c) + osp + ks)
        p = p.transpose((0, 1, *(a + 1 for a in sp_axes), 2, *(a + 1 for a in k_axes)))
        p = p.reshape(g, nb * oprod, c * kprod)
        wm = w.reshape(g, og, c * kprod).transpose(0, 2, 1)
        out = np.matmul(p.astype(out_dtype, copy=False), wm.astype(out_dtype, copy=False))
        out = out.reshape((g, nb, oprod, og)).transpose(1, 0, 3, 2)
        return out.reshape((nb, o) + osp)
    g, cg, og = fgc, c // fgc, o // fgc
    p = patches.reshape((n, g, cg) + osp + ks)
    p = p.transpose((1, 0, *(a + 1 for a in sp_axes), 2, *(a + 1 for a in k_axes)))
    p = p.reshape(g, n * oprod, cg * kprod)
    wm = w.reshape(g, og, cg * kprod).transpose(0, 2, 1)
    out = np.matmul(p.astype(out_dtype, copy=False), wm.astype(out_dtype, copy=False))
    out = out.reshape((g, n, oprod, og)).transpose(1, 0, 3, 2)
    return out.reshape((n, o) + osp)


def _conv_impl(
    lhs,
    rhs,
    *,
    window_strides,
    padding,
    lhs_dilation,
    rhs_dilation,
    dimension_numbers,
    feature_group_count,
    batch_group_count,
    preferred_element_type,
):
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    out_dtype = preferred_element_type or lhs.dtype
    out = _conv_nc(
        np.transpose(lhs, lhs_spec),
        np.transpose(rhs, rhs_spec),
        window_strides,
        padding,
        lhs_dilation,
        rhs_dilation,
        feature_group_count,
        batch_group_count,
        out_dtype,
    )
    return np.ascontiguousarray(np.transpose(out, np.argsort(out_spec)), dtype=out_dtype)


def _conv_abstract_eval(
    lhs,
    rhs,
    *,
    window_strides,
    padding,
    lhs_dilation,
    rhs_dilation,
    dimension_numbers,
    feature_group_count,
    batch_group_count,
    preferred_element_type,
):
    # JAX's shape rule, then its dtype rule: their checks in order, their messages
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    pre = "conv_general_dilated"
    if lhs.ndim != rhs.ndim:
        raise ShapeError(
            f"{pre} lhs and rhs must have the same number of dimensions, but got {lhs.shape} "
            f"and {rhs.shape}."
        )
    fgc, bgc = feature_group_count, batch_group_count
    lf, rin, rout = lhs.shape[lhs_spec[1]], rhs.shape[rhs_spec[1]], rhs.shape[rhs_spec[0]]
    lb = lhs.shape[lhs_spec[0]]
    if not fgc > 0:
        raise ShapeError(f"{pre} feature_group_count must be a positive integer, got {fgc}.")
    if lf % fgc:
        raise ShapeError(
            f"{pre} feature_group_count must divide lhs feature dimension size, but {fgc} does "
            f"not divide {lf}."
        )
    if lf // fgc != rin:
        raise ShapeError(
            f"{pre} lhs feature dimension size divided by feature_group_count must equal the "
            f"rhs input feature dimension size, but {lf} // {fgc} != {rin}."
        )
    if rout % fgc:
        raise ShapeError(
            f"{pre} rhs output feature dimension size must be a multiple of "
            f"feature_group_count, but {rout} is not a multiple of {fgc}."
        )
    if not bgc > 0:
        raise ShapeError(f"{pre} batch_group_count must be a positive integer, got {bgc}.")
    if bgc > 1 and lb % bgc:
        raise ShapeError(
            f"{pre} batch_group_count must divide lhs batch dimension size, but {bgc} does not "
            f"divide {lb}."
        )
    if rout % bgc:
        raise ShapeError(
            f"{pre} rhs output feature dimension size must be a multiple of batch_group_count, "
            f"but {rout} is not a multiple of {bgc}."
        )
    if bgc > 1 and fgc > 1:
        raise ShapeError(
            "At most one of batch_group_count and feature_group_count may be > 1, got "
            f"batch_group_count={bgc} and feature_group_count={fgc}"
        )
    nsp = len(rhs_spec) - 2
    if len(window_strides) != nsp:
        raise ShapeError(
            f"{pre} window and window_strides must have the same number of dimensions, but got "
            f"{nsp} and {len(window_strides)}"
        )
    for dilation in (lhs_dilation, rhs_dilation):
        if any(d <= 0 for d in dilation):
            raise ShapeError(f"All dilations must be positive, got {dilation}.")
    if any(s <= 0 for s in window_strides):  # XLA's verifier refuses them in JAX
        raise ShapeError(f"{pre} window_strides must be positive, got {window_strides}.")
    if len(padding) != len(lhs_spec) - 2:  # conv_shape_tuple's check, which JAX reaches first
        raise ShapeError(
            f"Wrong number of explicit pads for convolution: expected {len(lhs_spec) - 2}, got "
            f"{len(padding)}."
        )
    if not len(lhs_dilation) == len(rhs_dilation) == nsp:
        raise ShapeError(
            f"{pre} needs one lhs and rhs dilation per spatial dimension ({nsp}), got "
            f"lhs_dilation={lhs_dilation}, rhs_dilation={rhs_dilation}"
        )
    lhs_t = _dilate_shape(np.take(lhs.shape, lhs_spec), (1, 1, *lhs_dilation))
    rhs_t = _dilate_shape(np.take(rhs.shape, rhs_spec), (1, 1, *rhs_dilation))
    out_t = conv_shape_tuple(lhs_t, rhs_t, window_strides, padding, bgc)
    shape = tuple(int(out_t[i]) for i in np.argsort(out_spec))
    check_same_dtypes(pre, [lhs.dtype, rhs.dtype])
    return ShapedArray(shape, preferred_element_type or lhs.dtype, lhs.weak_type and rhs.weak_type)


def _conv_jvp(primals, tangents, **params):
    (x, w), (tx, tw) = primals, tangents
    out = conv_general_dilated_p.bind(x, w, **params)
    t: Any = Zero(get_aval(out))
    if type(tx) is not Zero:
        t = add_any(t, conv_general_dilated_p.bind(tx, w, **params))
    if type(tw) is not Zero:
        t = add_any(t, conv_general_dilated_p.bind(x, tw, **params))
    return out, t


def _reshape_axis_into(src: int, dst: int, x: Any) -> Any:
    # `dst` counts dimensions after `src` is removed (JAX's helper of the same name).
    shape = get_aval(x).shape
    perm = [i for i in range(len(shape)) if i != src]
    perm.insert(dst, src)
    new = [d for i, d in enumerate(shape) if i != src]
    new[dst] *= shape[src]
    return reshape(transpose(x, tuple(perm)), tuple(new))


def _reshape_axis_out_of(src: int, size1: int, x: Any) -> Any:
    shape = list(get_aval(x).shape)
    shape[src : src + 1] = [size1, shape[src] // size1]
    return reshape(x, tuple(shape))


def _sdims(spec):
    return spec[2:]


def _spec_transpose(spec):
    return (spec[1], spec[0], *spec[2:])


def _vjp_lhs_padding(in_shape, window, strides, out_shape, padding, lhs_dil, rhs_dil):
    lhs_d = _dilate_shape(in_shape, lhs_dil)
    rhs_d = _dilate_shape(window, rhs_dil)
    out_d = _dilate_shape(out_shape, strides)
    before = [r - lo - 1 for r, (lo, _) in zip(rhs_d, padding)]
    after = [a + r - 1 - o - b for a, r, o, b in zip(lhs_d, rhs_d, out_d, before)]
    return tuple(zip(before, after))


def _vjp_rhs_padding(in_shape, window, strides, out_shape, padding, lhs_dil, rhs_dil):
    if len(in_shape) == 0:
        return ()
    lhs_d = _dilate_shape(in_shape, lhs_dil)
    rhs_d = _dilate_shape(window, rhs_dil)
    out_d = _dilate_shape(out_shape, strides)
    lo = [p for p, _ in padding]
    hi = [(o - a) + (r - p - 1) for o, a, r, p in zip(out_d, lhs_d, rhs_d, lo)]
    return tuple(zip(lo, hi))


def _conv_transpose_lhs(
    g,
    rhs,
    lhs_aval,
    *,
    window_strides,
    padding,
    lhs_dilation,
    rhs_dilation,
    dimension_numbers,
    feature_group_count,
    batch_group_count,
    preferred_element_type,
):
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    rhs_shape = get_aval(rhs).shape
    t_rhs_spec = _spec_transpose(rhs_spec)
    fgc = feature_group_count
    if fgc > 1:
        rhs = _reshape_axis_out_of(rhs_spec[0], fgc, rhs)
        rhs = _reshape_axis_into(rhs_spec[0], rhs_spec[1], rhs)
    elif batch_group_count > 1:
        rhs = _reshape_axis_out_of(rhs_spec[0], batch_group_count, rhs)
        rhs = _reshape_axis_into(rhs_spec[0], rhs_spec[1], rhs)
        fgc = batch_group_count
    dn = ConvDimensionNumbers(out_spec, t_rhs_spec, lhs_spec)
    pads = _vjp_lhs_padding(
        np.take(lhs_aval.shape, _sdims(lhs_spec)),
        np.take(rhs_shape, _sdims(rhs_spec)),
        window_strides,
        np.take(get_aval(g).shape, _sdims(out_spec)),
        padding,
        lhs_dilation,
        rhs_dilation,
    )
    out = _bind(
        g,
        rev(rhs, _sdims(rhs_spec)),
        lhs_dilation,
        pads,
        window_strides,
        rhs_dilation,
        dn,
        fgc,
        1,
        preferred_element_type,
    )
    if batch_group_count > 1:
        out = _reshape_axis_out_of(lhs_spec[1], batch_group_count, out)
        out = _reshape_axis_into(lhs_spec[1], lhs_spec[0], out)
    return convert_element_type(out, lhs_aval.dtype, lhs_aval.weak_type)


def _conv_transpose_rhs(
    g,
    lhs,
    rhs_aval,
    *,
    window_strides,
    padding,
    lhs_dilation,
    rhs_dilation,
    dimension_numbers,
    feature_group_count,
    batch_group_count,
    preferred_element_type,
):
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    fgc, bgc = feature_group_count, batch_group_count
    if bgc > 1:
        fgc, bgc = bgc, 1
    elif fgc > 1:
        fgc, bgc = 1, fgc
    dn = ConvDimensionNumbers(*map(_spec_transpose, dimension_numbers))
    dn = ConvDimensionNumbers(dn.lhs_spec, dn.out_spec, dn.rhs_spec)
    pads = _vjp_rhs_padding(
        np.take(get_aval(lhs).shape, _sdims(lhs_spec)),
        np.take(rhs_aval.shape, _sdims(rhs_spec)),
        window_strides,
        np.take(get_aval(g).shape, _sdims(out_spec)),
        padding,
        lhs_dilation,
        rhs_dilation,
    )
    out = _bind(
        lhs,
        g,
        rhs_dilation,
        pads,
        lhs_dilation,
        window_strides,
        dn,
        fgc,
        bgc,
        preferred_element_type,
    )
    return convert_element_type(out, rhs_aval.dtype, rhs_aval.weak_type)


def _bind(lhs, rhs, strides, padding, lhs_dilation, rhs_dilation, dn, fgc, bgc, pet):
    return conv_general_dilated_p.bind(
        lhs,
        rhs,
        window_strides=tuple(int(s) for s in strides),
        padding=tuple((int(lo), int(hi)) for lo, hi in padding),
        lhs_dilation=tuple(int(d) for d in lhs_dilation),
        rhs_dilation=tuple(int(d) for d in rhs_dilation),
        dimension_numbers=dn,
        feature_group_count=int(fgc),
        batch_group_count=int(bgc),
        preferred_element_type=pet,
    )


def _conv_transpose_rule(ct, lhs, rhs, **params):
    if is_undefined(lhs):
        return [_conv_transpose_lhs(ct, rhs, lhs.aval, **params), None]
    return [None, _conv_transpose_rhs(ct, lhs, rhs.aval, **params)]


def _conv_batch(
    args,
    dims,
    *,
    window_strides,
    padding,
    lhs_dilation,
    rhs_dilation,
    dimension_numbers,
    feature_group_count,
    batch_group_count,
    preferred_element_type,
):
    (lhs, rhs), (ld, rd) = args, dims
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    fgc, bgc = feature_group_count, batch_group_count

    def conv(x, w, f, b):
        return _bind(
            x,
            w,
            window_strides,
            padding,
            lhs_dilation,
            rhs_dilation,
            dimension_numbers,
            f,
            b,
            preferred_element_type,
        )

    la, ra = get_aval(lhs), get_aval(rhs)
    if (ld is not None and la.shape[ld] == 0) or (rd is not None and ra.shape[rd] == 0):
        # An empty batch cannot be folded into a group count (JAX's rule builds zeros too).
        unbatched = [
            ShapedArray(a.shape[:d] + a.shape[d + 1 :] if d is not None else a.shape, a.dtype)
            for a, d in ((la, ld), (ra, rd))
        ]
        out = _conv_abstract_eval(
            *unbatched,
            window_strides=window_strides,
            padding=padding,
            lhs_dilation=lhs_dilation,
            rhs_dilation=rhs_dilation,
            dimension_numbers=dimension_numbers,
            feature_group_count=fgc,
            batch_group_count=bgc,
            preferred_element_type=preferred_element_type,
        )
        return full((0, *out.shape), 0, out.dtype), 0
    if ld is not None and rd is not None:
        size = la.shape[ld]
        if bgc > 1:
            new_lhs = _reshape_axis_into(ld, lhs_spec[0], lhs)
            bgc *= size
        else:
            new_lhs = _reshape_axis_into(ld, lhs_spec[1], lhs)
            fgc *= size
        new_rhs = _reshape_axis_into(rd, rhs_spec[0], rhs)
        out = conv(new_lhs, new_rhs, fgc, bgc)
        return _reshape_axis_out_of(out_spec[1], size, out), out_spec[1]
    if ld is not None:
        size = get_aval(lhs).shape[ld]
        if bgc == 1:
            out = conv(_reshape_axis_into(ld, lhs_spec[0], lhs), rhs, fgc, bgc)
            return _reshape_axis_out_of(out_spec[0], size, out), out_spec[0]
        new_lhs = _reshape_axis_out_of(lhs_spec[0] + int(ld <= lhs_spec[0]), bgc, lhs)
        new_lhs = _reshape_axis_into(ld + int(lhs_spec[0] < ld), lhs_spec[0] + 1, new_lhs)
        new_lhs = _reshape_axis_into(lhs_spec[0], lhs_spec[0], new_lhs)
        out = conv(new_lhs, rhs, fgc, bgc)
        return _reshape_axis_out_of(out_spec[0], size, out), out_spec[0]
    size = get_aval(rhs).shape[rd]
    if fgc == 1 and bgc == 1:
        out = conv(lhs, _reshape_axis_into(rd, rhs_spec[0], rhs), fgc, bgc)
        return _reshape_axis_out_of(out_spec[1], size, out), out_spec[1]
    groups = fgc if fgc > 1 else bgc
    new_rhs = _reshape_axis_out_of(rhs_spec[0] + int(rd <= rhs_spec[0]), groups, rhs)
    new_rhs = _reshape_axis_into(rd + int(rhs_spec[0] < rd), rhs_spec[0] + 1, new_rhs)
    new_rhs = _reshape_axis_into(rhs_spec[0], rhs_spec[0], new_rhs)
    out = conv(lhs, new_rhs, fgc, bgc)
    out = _reshape_axis_out_of(out_spec[1], groups, out)
    out = _reshape_axis_out_of(out_spec[1] + 1, size, out)
    out = _reshape_axis_into(out_spec[1], out_spec[1] + 1, out)
    return out, out_spec[1]


conv_general_dilated_p.def_impl(_conv_impl)
conv_general_dilated_p.def_abstract_eval(_conv_abstract_eval)
conv_general_dilated_p.def_jvp(_conv_jvp)
conv_general_dilated_p.def_transpose(_conv_transpose_rule)
conv_general_dilated_p.linear = True
conv_general_dilated_p.def_batch(_conv_batch)
jax_params(conv_general_dilated_p, precision=ANY, out_sharding=None)


# ---------------------------------------------------------------------------------------------
# The user-facing wrappers


def conv_general_permutations(dimension_numbers: tuple[str, str, str]):
    """`("NHWC", "HWIO", "NHWC")`-style strings -> (lhs_spec, rhs_spec, out_spec) tuples (JAX's
    checks, in its order, with its messages)."""
    lhs_s, rhs_s, out_s = dimension_numbers
    pairs = (("N", "C"), ("O", "I"), ("N", "C"))
    for i, (a, b) in enumerate(pairs):
        spec = dimension_numbers[i]
        if not spec.count(a) == spec.count(b) == 1:
            raise ConvDimensionNumbersError(
                f"convolution dimension_numbers[{i}] must contain the characters '{a}' and "
                f"'{b}' exactly once, got {spec}."
            )
        if len(spec) != len(set(spec)):
            raise ConvDimensionNumbersError(
                f"convolution dimension_numbers[{i}] cannot have duplicate characters, got {spec}."
            )
    if not set(lhs_s) - {"N", "C"} == set(rhs_s) - {"O", "I"} == set(out_s) - {"N", "C"}:
        raise ConvDimensionNumbersError(
            "convolution dimension_numbers elements must each have the same set of spatial "
            f"characters, got {dimension_numbers}."
        )

    def perm(spec, pair):
        spatial = [i for i, c in enumerate(spec) if c not in pair]
        if spec is not rhs_s:
            spatial = sorted(spatial, key=lambda i: rhs_s.index(spec[i]))
        return (spec.index(pair[0]), spec.index(pair[1]), *spatial)

    return tuple(perm(s, p) for s, p in zip(dimension_numbers, pairs))


def conv_dimension_numbers(lhs_shape, rhs_shape, dimension_numbers) -> ConvDimensionNumbers:
    """Normalizes None / a triple of strings / ConvDimensionNumbers (like `lax`'s, with its
    checks and messages)."""
    if isinstance(dimension_numbers, ConvDimensionNumbers):
        return ConvDimensionNumbers(*(tuple(int(i) for i in s) for s in dimension_numbers))
    if len(lhs_shape) != len(rhs_shape):
        raise ConvDimensionNumbersError(
            "convolution requires lhs and rhs ndim to be equal, got "
            f"{len(lhs_shape)} and {len(rhs_shape)}."
        )
    if dimension_numbers is None:
        iota = tuple(range(len(lhs_shape)))
        return ConvDimensionNumbers(iota, iota, iota)
    if not isinstance(dimension_numbers, (list, tuple)):
        raise ConvDimensionNumbersError(
            "convolution dimension_numbers must be tuple/list or None, got "
            f"{type(dimension_numbers)}."
        )
    if len(dimension_numbers) != 3:
        raise ConvDimensionNumbersError(
            "convolution dimension_numbers list/tuple must be length 3, got "
            f"{len(dimension_numbers)}."
        )
    if not all(isinstance(s, str) for s in dimension_numbers):
        raise ConvDimensionNumbersError(
            "convolution dimension_numbers elements must be strings, got "
            f"{tuple(map(type, dimension_numbers))}."
        )
    for i, s in enumerate(dimension_numbers):
        if len(s) != len(lhs_shape):
            raise ConvDimensionNumbersError(
                f"convolution dimension_numbers[{i}] must have len equal to the ndim of lhs and "
                f"rhs, got {len(s)} for lhs and rhs shapes {tuple(lhs_shape)} and "
                f"{tuple(rhs_shape)}."
            )
    return ConvDimensionNumbers(*conv_general_permutations(dimension_numbers))


def padtype_to_pads(in_shape, window_shape, window_strides, padding: str):
    """'SAME' / 'SAME_LOWER' / 'VALID' -> a list of one (low, high) pair per dimension (like
    `lax`)."""
    kind = padding.upper()
    if kind == "VALID":
        return [(0, 0)] * len(in_shape)
    if kind not in ("SAME", "SAME_LOWER"):
        raise PaddingTypeError(
            f"Unrecognized padding type: expected 'VALID', 'SAME', or 'SAME_LOWER', got {padding}."
        )
    # JAX's numpy arithmetic: one stride (or window size) broadcasts to every dimension, other
    # lengths fail with numpy's message; a zero stride pads nothing (the conv refuses it)
    d, k, s = (np.asarray(v, dtype=np.int64) for v in (in_shape, window_shape, window_strides))
    try:
        with np.errstate(divide="ignore"):
            totals = np.maximum((-(-d // s) - 1) * s + k - d, 0)
    except ValueError as e:
        raise ShapeError(
            f"{e}\npadding {padding!r} needs one window size and one stride per spatial "
            f"dimension ({len(in_shape)}), got window {tuple(window_shape)}, strides "
            f"{tuple(window_strides)}"
        ) from None
    pads = []
    for total in totals.tolist():
        lo = total // 2 if kind == "SAME" else total - total // 2
        pads.append((lo, total - lo))
    return pads


def _check_preferred_element_type(input_dtype: np.dtype, preferred: np.dtype) -> None:
    """JAX's `_validate_preferred_element_type`: integers may accumulate as floats; otherwise
    the kind (integral, floating, complex) and signedness stay and the width does not
    shrink."""
    kind, pkind = dtypes.kind(input_dtype), dtypes.kind(preferred)
    group = {"i": "integral", "u": "integral", "f": "floating", "c": "complex"}
    if not (kind in "iu" and pkind == "f"):
        if kind in group and group[kind] != group.get(pkind):
            raise PreferredElementTypeError(
                "Input type is incompatible with `preferred_element_type`. The compatible "
                "combinations of (input_type, preferred_element_type) are (integral, integral), "
                "(integral, floating), (floating, floating), (complex, complex."
            )
        if kind == "i" and pkind != "i":
            raise PreferredElementTypeError(
                "`preferred_element_type` must have the same signedness as the original type."
            )
    if preferred.itemsize < input_dtype.itemsize:
        raise PreferredElementTypeError(
            "`preferred_element_type` must not be narrower than the original type.\n"
            f"conv_general_dilated of {input_dtype} operands accumulates in {input_dtype} or "
            "wider; cast the result instead: conv_general_dilated(...).astype(dtype)."
        )


def conv_general_dilated(
    lhs: Any,
    rhs: Any,
    window_strides: Sequence[int],
    padding: str | Sequence[tuple[int, int]],
    lhs_dilation: Sequence[int] | None = None,
    rhs_dilation: Sequence[int] | None = None,
    dimension_numbers: Any = None,
    feature_group_count: int = 1,
    batch_group_count: int = 1,
    precision: Any = None,
    preferred_element_type: Any = None,
) -> Any:
    """General N-d convolution, like `lax.conv_general_dilated`.

    Args:
      lhs: the input, rank n+2.
      rhs: the kernel, rank n+2.
      window_strides: n ints.
      padding: 'SAME', 'VALID', 'SAME_LOWER', or n (low, high) pairs.
      lhs_dilation: n ints (input dilation, i.e. transposed convolution) or None.
      rhs_dilation: n ints (kernel dilation, atrous convolution) or None.
      dimension_numbers: None (NCHW/OIHW/NCHW), three strings like ('NHWC', 'HWIO', 'NHWC'),
        or ConvDimensionNumbers.
      feature_group_count: groups over the input features (depthwise: = input features).
      batch_group_count: groups over the batch.
      precision: checked as JAX checks it (`core/prims/options.py`); no effect on the CPU.
      preferred_element_type: the accumulation and output dtype.

    Returns:
      The convolution, laid out as `dimension_numbers`' output spec.
    """
    if precision is not None:
        canonicalize_precision(precision)
    laval, raval = get_aval(lhs), get_aval(rhs)
    lshape, rshape = laval.shape, raval.shape
    dn = conv_dimension_numbers(lshape, rshape, dimension_numbers)
    nsp = len(lshape) - 2
    given_lhs_dilation = lhs_dilation is not None
    lhs_dilation = (1,) * nsp if lhs_dilation is None else tuple(lhs_dilation)
    rhs_dilation = (1,) * nsp if rhs_dilation is None else tuple(rhs_dilation)
    try:  # JAX's numpy arithmetic on the strides, then XLA, refuse non-integers this way
        window_strides = tuple(operator.index(s) for s in np.asarray(window_strides))
    except TypeError as e:
        raise ConvStridesError(
            f"{e}\nconv_general_dilated window_strides must be integers, got {window_strides}"
        ) from None
    if isinstance(padding, str):
        if given_lhs_dilation and any(d != 1 for d in lhs_dilation):
            raise ValueError(
                "String padding is not implemented for transposed convolution "
                "using this op. Please either exactly specify the required padding or "
                "use conv_transpose."
            )
        ks = [rshape[i] for i in dn.rhs_spec[2:]]
        eff = _dilate_shape(ks, rhs_dilation)
        padding = padtype_to_pads(
            [lshape[i] for i in dn.lhs_spec[2:]], eff, window_strides, padding
        )
    else:
        try:
            padding = tuple((operator.index(lo), operator.index(hi)) for lo, hi in padding)
        except (ValueError, TypeError) as e:
            raise ConvPaddingError(
                "padding argument to conv_general_dilated should be a string or a sequence of "
                f"(low, high) pairs, got {padding}"
            ) from e
    pet = None
    if preferred_element_type is not None:
        pet = dtypes.canonicalize_dtype(preferred_element_type)
        if laval.dtype == raval.dtype:  # else the dtype check names the mismatch
            _check_preferred_element_type(np.dtype(laval.dtype), pet)
    return _bind(
        lhs,
        rhs,
        window_strides,
        padding,
        lhs_dilation,
        rhs_dilation,
        dn,
        feature_group_count,
        batch_group_count,
        pet,
    )


def conv(
    lhs: Any,
    rhs: Any,
    window_strides: Sequence[int],
    padding: str,
    precision: Any = None,
    preferred_element_type: Any = None,
) -> Any:
    """`lax.conv`: NCHW/OIHW convolution with strides and 'SAME'/'VALID' padding."""
    return conv_general_dilated(
        lhs,
        rhs,
        window_strides,
        padding,
        precision=precision,
        preferred_element_type=preferred_element_type,
    )


def conv_with_general_padding(
    lhs: Any,
    rhs: Any,
    window_strides: Sequence[int],
    padding: Any,
    lhs_dilation: Sequence[int] | None,
    rhs_dilation: Sequence[int] | None,
    precision: Any = None,
    preferred_element_type: Any = None,
) -> Any:
    """`lax.conv_with_general_padding`: NCHW/OIHW convolution with padding and dilations."""
    return conv_general_dilated(
        lhs,
        rhs,
        window_strides,
        padding,
        lhs_dilation,
        rhs_dilation,
        precision=precision,
        preferred_element_type=preferred_element_type,
    )


def _conv_transpose_padding(k: int, s: int, padding: Any) -> tuple[int, int]:
    """The `(low, high)` padding of the dilated input that makes a stride-1 convolution with a
    `k`-wide kernel the transpose of a stride-`s` convolution with `padding`."""
    if isinstance(padding, tuple):
        low, *high = (k - 1 - p for p in padding)
        return low, sum(high)
    if padding == "SAME":
        total = k + s - 2
        low = k - 1 if s > k - 1 else -(-total // 2)
    elif padding == "VALID":
        total = k + s - 2 + max(k - s, 0)
        low = k - 1
    else:
        raise ValueError(f"Invalid padding mode: {padding!r}")
    return low, total - low


def conv_transpose(
    lhs: Any,
    rhs: Any,
    strides: Sequence[int],
    padding: Any,
    rhs_dilation: Sequence[int] | None = None,
    dimension_numbers: Any = None,
    transpose_kernel: bool = False,
    precision: Any = None,
    preferred_element_type: Any = None,
    use_consistent_padding: bool = False,
) -> Any:
    """`lax.conv_transpose`: a fractionally strided convolution (Flax's ConvTranspose).

    Args:
      lhs: the input, rank n+2.
      rhs: the kernel, rank n+2.
      strides: n ints (the fractional stride).
      padding: 'SAME', 'VALID' (the forward conv's padding) or n (low, high) pairs (the
        transposed conv's own padding, unless `use_consistent_padding`).
      rhs_dilation: n ints or None.
      dimension_numbers: defaults to the TensorFlow layout (NHWC, HWIO, NHWC for 2-d).
      transpose_kernel: flip the spatial axes and swap the kernel's in/out features (makes it
        the gradient of a conv, like Keras' Conv2DTranspose).
      precision: accepted for compatibility.
      preferred_element_type: the accumulation and output dtype.
      use_consistent_padding: interpret explicit pairs as the forward conv's padding (PyTorch).

    Returns:
      The transposed convolution.
    """
    ndims = get_aval(lhs).ndim
    if dimension_numbers is None:
        defaults = {
            2: ("NC", "IO", "NC"),
            3: ("NHC", "HIO", "NHC"),
            4: ("NHWC", "HWIO", "NHWC"),
            5: ("NHWDC", "HWDIO", "NHWDC"),
        }
        if ndims not in defaults:
            raise ValueError(f"No default dimension_numbers for rank-{ndims} convolutions")
        dimension_numbers = defaults[ndims]
    dn = conv_dimension_numbers(get_aval(lhs).shape, get_aval(rhs).shape, dimension_numbers)
    k_sdims = [get_aval(rhs).shape[i] for i in dn.rhs_spec[2:]]
    rhs_dilation = (1,) * (ndims - 2) if rhs_dilation is None else tuple(rhs_dilation)
    if use_consistent_padding or (isinstance(padding, str) and padding in ("SAME", "VALID")):
        eff = _dilate_shape(k_sdims, rhs_dilation)
        rep = [padding] * len(strides) if isinstance(padding, str) else [tuple(p) for p in padding]
        pads = tuple(_conv_transpose_padding(k, s, p) for k, s, p in zip(eff, strides, rep))
    elif isinstance(padding, str):  # 'SAME_LOWER': conv_general_dilated's (strides 1 only)
        pads = padding
    else:
        pads = tuple(tuple(p) for p in padding)
    if transpose_kernel:
        rhs = rev(rhs, dn.rhs_spec[2:])
        perm = list(range(ndims))
        perm[dn.rhs_spec[0]], perm[dn.rhs_spec[1]] = perm[dn.rhs_spec[1]], perm[dn.rhs_spec[0]]
        rhs = transpose(rhs, tuple(perm))
    return conv_general_dilated(
        lhs,
        rhs,
        (1,) * (ndims - 2),
        pads,
        tuple(strides),
        rhs_dilation,
        dn,
        precision=precision,
        preferred_element_type=preferred_element_type,
    )
