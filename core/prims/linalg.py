"""`dot_general`: the one contraction primitive (matmul, einsum, tensordot and Dense use it).

`dimension_numbers = ((lhs_contract, rhs_contract), (lhs_batch, rhs_batch))`; the output has
the batch dimensions first, then lhs's free dimensions, then rhs's (as `lax.dot_general`). It is
bilinear: the jvp is the sum of two dot_generals and each transpose is a dot_general followed by
a transpose, derived as in JAX. In numba it lowers to BLAS on contiguous float arrays.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from core import dtypes
from core.ad_util import Zero, add_any
from core.array import placement
from core.avals import ShapedArray
from core.errors import ShapeError
from core.interpreters.transpose import check_one_linear, is_undefined
from core.primitive import ANY, Primitive, jax_params
from core.prims.elementwise import reject_dtype
from core.prims.options import canonicalize_precision
from core.prims.shapes import convert_element_type, transpose
from core.sharding_exemptions import unchecked
from core.trace import get_aval

dot_general_p = Primitive("dot_general")

# JAX's annotation type of `dot_general`'s dimension numbers (`lax.DotDimensionNumbers`).
DotDimensionNumbers = tuple[
    tuple[Sequence[int], Sequence[int]], tuple[Sequence[int], Sequence[int]]
]


def _free(ndim: int, contract, batch) -> list[int]:
    return [i for i in range(ndim) if i not in contract and i not in batch]


def _dot_impl(x, y, *, dimension_numbers, preferred_element_type):
    # quiet, as XLA's products and numbax's elementwise impls: infinities and NaNs flow through
    with np.errstate(all="ignore"):
        return _dot_values(x, y, dimension_numbers, preferred_element_type)


def _dot_values(x, y, dimension_numbers, preferred_element_type):
    (xc, yc), (xb, yb) = dimension_numbers
    out_dtype = preferred_element_type or x.dtype
    if x.dtype.itemsize == 1 and dtypes.kind(x.dtype) == "f":
        # float8 (and smaller) products accumulate exactly in float32, as XLA's on the CPU
        x, y = x.astype(np.float32), y.astype(np.float32)
    if not xb and len(xc) == 1 and xc[0] == x.ndim - 1 and yc == (0,) and y.ndim <= 2:
        if out_dtype != x.dtype and dtypes.kind(out_dtype) in "iufc":
            x, y = x.astype(out_dtype), y.astype(out_dtype)  # accumulate in the wider type
        out = np.dot(x, y)  # the common matmul layout: one BLAS call, no copies
        return out if out.dtype == out_dtype else out.astype(out_dtype)
    xf, yf = _free(x.ndim, xc, xb), _free(y.ndim, yc, yb)
    size = lambda a, dims: math.prod(a.shape[d] for d in dims)  # noqa: E731
    xt = np.transpose(x, [*xb, *xf, *xc]).reshape(size(x, xb), size(x, xf), size(x, xc))
    yt = np.transpose(y, [*yb, *yc, *yf]).reshape(size(y, yb), size(y, yc), size(y, yf))
    if dtypes.kind(out_dtype) in "iufc":
        xt, yt = xt.astype(out_dtype, copy=False), yt.astype(out_dtype, copy=False)
    out = np.matmul(xt, yt)
    shape = [x.shape[d] for d in xb] + [x.shape[d] for d in xf] + [y.shape[d] for d in yf]
    return out.reshape(shape).astype(out_dtype, copy=False)


def _dot_abstract_eval(x, y, *, dimension_numbers, preferred_element_type):
    (xc, yc), (xb, yb) = dimension_numbers
    fix = (
        f"The operands have shapes {x.shape} and {y.shape}; dimension_numbers={dimension_numbers}."
    )
    xb_shape, yb_shape = tuple(x.shape[d] for d in xb), tuple(y.shape[d] for d in yb)
    if xb_shape != yb_shape:
        raise ShapeError(
            "dot_general requires lhs batch dimensions and rhs batch dimensions to have the "
            f"same shape, got {xb_shape} and {yb_shape}.\n{fix}"
        )
    xc_shape, yc_shape = tuple(x.shape[d] for d in xc), tuple(y.shape[d] for d in yc)
    if xc_shape != yc_shape:
        raise ShapeError(
            "dot_general requires contracting dimensions to have the same shape, got "
            f"{xc_shape} and {yc_shape}.\n{fix}"
        )
    if x.dtype != y.dtype:
        raise TypeError(f"dot_general requires equal dtypes, got {x.dtype} and {y.dtype}")
    if type(x.dtype) is dtypes.KeyDType:  # keys have no products (JAX fails an assertion)
        reject_dtype("dot_general", x.dtype, "iufcb", 0)
    shape = [x.shape[d] for d in xb]
    shape += [x.shape[d] for d in _free(x.ndim, xc, xb)]
    shape += [y.shape[d] for d in _free(y.ndim, yc, yb)]
    dt = preferred_element_type or x.dtype
    return ShapedArray(tuple(shape), dt, x.weak_type and y.weak_type)


def _dot_jvp(primals, tangents, *, dimension_numbers, preferred_element_type):
    (x, y), (tx, ty) = primals, tangents
    kw = dict(dimension_numbers=dimension_numbers, preferred_element_type=preferred_element_type)
    out = dot_general_p.bind(x, y, **kw)
    t: Any = Zero(get_aval(out))
    if type(tx) is not Zero:
        t = add_any(t, dot_general_p.bind(tx, y, **kw))
    if type(ty) is not Zero:
        t = add_any(t, dot_general_p.bind(x, ty, **kw))
    return out, t


def _ranges_like(*xs):
    start = 0
    for x in xs:
        yield list(range(start, start + len(x)))
        start += len(x)


def _transpose_lhs(g, y, x_aval, dimension_numbers, preferred_element_type, swap_ans=False):
    (xc, yc), (xb, yb) = dimension_numbers
    x_ndim, y_ndim = len(x_aval.shape), get_aval(y).ndim
    x_kept = _free(x_ndim, xc, xb)
    y_kept = _free(y_ndim, yc, yb)
    if swap_ans:
        ans_batch, ans_y, _ = _ranges_like(xb, y_kept, x_kept)
    else:
        ans_batch, _, ans_y = _ranges_like(xb, x_kept, y_kept)
    dims = ((tuple(ans_y), tuple(y_kept)), (tuple(ans_batch), tuple(yb)))
    xc_sorted_by_y = [xc[i] for i in np.argsort(yc)]
    out_axes = np.argsort([*xb, *x_kept, *xc_sorted_by_y])
    # JAX gives the transposed product its primal's sharding (`out_sharding`): over Explicit
    # mesh axes it is not checked (`core/sharding_exemptions.py`)
    with unchecked() if placement.committed_to_device else contextlib.nullcontext():
        res = dot_general(g, y, dims, preferred_element_type=preferred_element_type)
    res = transpose(res, tuple(int(a) for a in out_axes))
    if get_aval(res).dtype == x_aval.dtype:  # JAX converts only another dtype: the cotangent
        return res  # keeps the weak type of what flowed back
    return convert_element_type(res, x_aval.dtype, x_aval.weak_type)


def _dot_transpose(ct, x, y, *, dimension_numbers, preferred_element_type):
    pet = preferred_element_type
    check_one_linear("dot_general", x, y)
    if is_undefined(x):
        return [_transpose_lhs(ct, y, x.aval, dimension_numbers, pet), None]
    (xc, yc), (xb, yb) = dimension_numbers
    swapped = ((yc, xc), (yb, xb))
    return [None, _transpose_lhs(ct, x, y.aval, swapped, pet, swap_ans=True)]


def _dot_batch(args, dims, *, dimension_numbers, preferred_element_type):
    """JAX's rule: the mapped axes stay where they are and the dimension numbers name them
    (no transposes): a batch dimension when both operands are mapped (the result's first),
    else a free dimension of the mapped operand."""
    (x, y), (dx, dy) = args, dims
    (xc, yc), (xb, yb) = dimension_numbers

    def bump(ds, b):  # unmapped axis numbers -> the mapped operand's
        return tuple(d + (d >= b) for d in ds)

    def free_before(nd, contracting, batch, b):  # unmapped free axes in front of the mapped one
        return sum(d < b for d in range(nd) if d not in contracting and d not in batch)

    if dx is not None and dy is not None:
        dn = ((bump(xc, dx), bump(yc, dy)), ((dx, *bump(xb, dx)), (dy, *bump(yb, dy))))
        out_dim = 0
    elif dx is not None:
        dn = ((bump(xc, dx), yc), (bump(xb, dx), yb))
        out_dim = len(xb) + free_before(get_aval(x).ndim - 1, xc, xb, dx)
    else:
        dn = ((xc, bump(yc, dy)), (xb, bump(yb, dy)))
        x_kept = get_aval(x).ndim - len(xc)
        out_dim = x_kept + free_before(get_aval(y).ndim - 1, yc, yb, dy)
    return dot_general(x, y, dn, preferred_element_type=preferred_element_type), out_dim


dot_general_p.def_impl(_dot_impl)
dot_general_p.def_abstract_eval(_dot_abstract_eval)
dot_general_p.def_jvp(_dot_jvp)
dot_general_p.def_transpose(_dot_transpose)
dot_general_p.linear = True  # in each operand separately
dot_general_p.def_batch(_dot_batch)
jax_params(dot_general_p, precision=ANY, out_sharding=None)


def dot_general(
    lhs: Any,
    rhs: Any,
    dimension_numbers: Any,
    precision: Any = None,
    preferred_element_type: Any = None,
) -> Any:
    """General tensor contraction, like `lax.dot_general` (`precision` is checked as JAX
    checks it, `core/prims/options.py`, and has no effect on the CPU).

    Operands of different dtypes give JAX's result dtype, XLA's "higher precision" of the two
    (`_higher_precision`; not numpy's promotion: uint8 with int8 is int8, int16 with uint32
    is uint32), and both are converted to it (or to `preferred_element_type`) first, as XLA
    on the CPU does. Two different float8 dtypes (fp8 training's e4m3/e5m2 pair) are
    multiplied exactly in float32 instead.
    """
    if precision is not None:
        canonicalize_precision(precision)
    lhs_dt, rhs_dt = get_aval(lhs).dtype, get_aval(rhs).dtype
    (xc, yc), (xb, yb) = dimension_numbers
    dn = ((tuple(map(int, xc)), tuple(map(int, yc))), (tuple(map(int, xb)), tuple(map(int, yb))))
    _check_dimension_numbers(get_aval(lhs).ndim, get_aval(rhs).ndim, dn)
    pet = (
        None
        if preferred_element_type is None
        else dtypes.canonicalize_dtype(preferred_element_type)
    )
    if lhs_dt != rhs_dt:
        out_dt = _higher_precision(lhs_dt, rhs_dt)
        if all(dtypes.kind(d) == "f" and d.itemsize == 1 for d in (lhs_dt, rhs_dt)):
            f32 = np.dtype(np.float32)
            lhs, rhs = convert_element_type(lhs, f32), convert_element_type(rhs, f32)
            out = dot_general_p.bind(lhs, rhs, dimension_numbers=dn, preferred_element_type=None)
            return convert_element_type(out, pet if pet is not None else out_dt)
        # XLA on the CPU converts both operands to the result's dtype
        target = pet if pet is not None else out_dt
        lhs, rhs = convert_element_type(lhs, target), convert_element_type(rhs, target)
    return dot_general_p.bind(lhs, rhs, dimension_numbers=dn, preferred_element_type=pet)


def _check_dimension_numbers(lhs_ndim: int, rhs_ndim: int, dimension_numbers: Any) -> None:
    """JAX's TypeErrors for dimension numbers out of range, repeated, or naming an axis both
    batch and contracting (before any shape is compared)."""
    (xc, yc), (xb, yb) = dimension_numbers
    for side, ndim, contracting, batch in (("lhs", lhs_ndim, xc, xb), ("rhs", rhs_ndim, yc, yb)):
        if not all(0 <= d < ndim for d in (*contracting, *batch)):
            raise TypeError(
                f"dot_general requires {side} dimension numbers to be nonnegative and less than "
                f"the number of axes of the {side} value, got {side}_batch of {batch} and "
                f"{side}_contracting of {contracting} for {side} of rank {ndim}"
            )
    if len(xb) != len(yb):
        raise TypeError(
            "dot_general requires equal numbers of lhs_batch and rhs_batch dimensions, got "
            f"lhs_batch {xb} and rhs_batch {yb}."
        )
    for side, contracting, batch in (("lhs", xc, xb), ("rhs", yc, yb)):
        if len(set(batch)) != len(batch):
            raise TypeError(
                f"dot_general requires {side} batch dimensions to be distinct, got "
                f"{side}_batch {batch}."
            )
        if len(set(contracting)) != len(contracting):
            raise TypeError(
                f"dot_general requires {side} contracting dimensions to be distinct, got "
                f"{side}_contracting {contracting}."
            )
        if set(contracting) & set(batch):
            raise TypeError(
                f"dot_general requires {side} batch dimensions to be disjoint from contracting "
                f"dimensions, got {side}_batch {batch} and {side}_contracting {contracting}."
            )


def _higher_precision(a: np.dtype, b: np.dtype) -> np.dtype:
    """JAX's dot_general dtype rule for operands of two dtypes (XLA's HigherPrecisionType):
    complex first, then the larger exponent range, mantissa, bit width, signed over unsigned."""

    def rank(dt: np.dtype) -> tuple:
        kind = dtypes.kind(dt)
        real = np.dtype(dt.char.lower()) if kind == "c" else dt  # complex64 -> float32
        if kind in "fc":
            info = dtypes.finfo(real)
            return (kind == "c", info.maxexp, info.nmant, info.bits, True)
        bits = 1 if kind == "b" else dtypes.iinfo(dt).bits
        return (False, -1, -1, bits, kind != "u")

    ra, rb = rank(a), rank(b)
    if ra == rb:
        raise TypeError(f"lax.dot_general argument type error: {a}, {b}")
    return a if ra > rb else b
