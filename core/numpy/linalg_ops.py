"""Products: dot, matmul, vdot, inner, outer, tensordot, einsum (all via `dot_general`)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from core import dtypes
from core.errors import PreferredElementTypeError, ShapeError
from core.jit.library import library_jit
from core.named_sharding import resharded, takes_out_sharding
from core.numpy._util import (
    broadcast_to,
    canonicalize_axis,
    check_arraylike,
    ensure_array,
    promote_dtypes,
)
from core.numpy.path_info import PathInfo, label_sizes
from core.numpy.reductions import any as _any
from core.numpy.reductions import sum as _sum
from core.numpy.shapes import expand_dims, moveaxis, reshape, squeeze, stack
from core.numpy.ufuncs import conjugate, multiply, subtract
from core.prims import elementwise as ew
from core.prims import linalg as la
from core.prims import shapes as sh
from core.prims.indexing import slice_in_dim
from core.prims.options import canonicalize_precision
from core.prims.shapes import convert_element_type, transpose
from core.sharding_exemptions import unchecked
from core.trace import get_aval


def _out_sharded(product: Callable[[], Any], out_sharding: Any) -> Any:
    """`product()` placed by its `out_sharding` (a `NamedSharding`, or a `PartitionSpec` over
    the current mesh), its spec with one entry per axis as JAX records it; None: as it is.
    With an `out_sharding`, the product's operands may shard contracted axes over `Explicit`
    mesh axes (`core/sharding_exemptions.py`), as in JAX."""
    if out_sharding is None:
        return product()
    with unchecked():
        out = product()
    return resharded(out, out_sharding, "dot_general")


def matmul(
    a: Any,
    b: Any,
    *,
    precision: Any = None,
    preferred_element_type: Any = None,
    out_sharding: Any = None,
) -> Any:
    """Matrix product with numpy's broadcasting of leading (batch) dimensions.

    Args:
      a, b: the operands.
      precision, preferred_element_type: as `lax.dot_general`'s.
      out_sharding: where the result is placed (see `core.sharding.reshard`), or None.

    Returns:
      The product.
    """
    return _out_sharded(lambda: _matmul(a, b, precision, preferred_element_type), out_sharding)


def _matmul(a: Any, b: Any, precision: Any, preferred_element_type: Any) -> Any:
    check_arraylike("matmul", a, b)
    canonicalize_precision(precision)
    (a, b), weak = _product_operands(a, b)
    return _as_result(_matmul_product(a, b, _result_dtype(a, preferred_element_type)),
                      preferred_element_type, weak)  # fmt: skip


def _matmul_product(a: Any, b: Any, preferred_element_type: Any) -> Any:
    a_nd, b_nd = get_aval(a).ndim, get_aval(b).ndim
    for i, nd in enumerate((a_nd, b_nd)):
        if nd == 0:
            raise ValueError(
                f"matmul input operand {i} must have ndim at least 1, but it has ndim 0\n"
                "Scale by a scalar with * (jnp.multiply)."
            )
    if a_nd <= 2 and b_nd <= 2:  # no batch dimensions: one dot_general, no reshapes
        ca, cb = a_nd - 1, 0
        _check_contract("matmul", a, b, ca, cb if b_nd == 1 else b_nd - 2)
        return la.dot_general(
            a, b, (((ca,), (cb,)), ((), ())), preferred_element_type=preferred_element_type
        )
    sa, sb = get_aval(a).shape, get_aval(b).shape
    if sa[-1] != sb[-2 if b_nd > 1 else -1]:
        raise ShapeError(
            f"matmul: contracting dimensions differ: lhs shape {sa} has {sa[-1]}, rhs shape "
            f"{sb} has {sb[-2 if b_nd > 1 else -1]}"
        )
    # JAX's: batch dimensions of size 1 or missing on one side are free dimensions of the
    # other (no broadcast), the others batch; then the result's dimensions in order
    a_batch = (None,) * (b_nd - a_nd) + sa[:-2] if a_nd > 1 else (None,) * (b_nd - 2)
    b_batch = (None,) * (a_nd - b_nd) + sb[:-2] if b_nd > 1 else (None,) * (a_nd - 2)
    nb = max(len(a_batch), len(b_batch))
    a_batch, b_batch = (
        (None,) * (nb - len(a_batch)) + a_batch,
        (None,) * (nb - len(b_batch)) + b_batch,
    )
    a_squeeze, b_squeeze, both_squeeze = [], [], []
    a_bdims, b_bdims, idx_batch, idx_a, idx_b = [], [], [], [], []
    for i, (ba, bb) in enumerate(zip(a_batch, b_batch)):
        if ba is None:
            idx_b.append(i)
        elif bb is None:
            idx_a.append(i)
        elif ba == 1 and bb == 1:
            a_squeeze.append(len(idx_batch) + len(idx_a) + len(a_squeeze))
            b_squeeze.append(len(idx_batch) + len(idx_b) + len(b_squeeze))
            both_squeeze.append(i)
        elif ba == 1:
            idx_b.append(i)
            a_squeeze.append(len(idx_batch) + len(idx_a) + len(a_squeeze))
        elif bb == 1:
            idx_a.append(i)
            b_squeeze.append(len(idx_batch) + len(idx_b) + len(b_squeeze))
        elif ba == bb:
            a_bdims.append(len(idx_batch) + len(idx_a))
            b_bdims.append(len(idx_batch) + len(idx_b))
            idx_batch.append(i)
        else:
            raise ValueError(
                f"Incompatible types for matmul arguments: {get_aval(a)} and {get_aval(b)}"
            )
    if a_nd > 1:
        idx_a.append(nb)
    if b_nd > 1:
        idx_b.append(nb + (a_nd > 1))
    perm = tuple(int(i) for i in np.argsort(idx_batch + idx_a + idx_b))
    a, b = squeeze(a, tuple(a_squeeze)), squeeze(b, tuple(b_squeeze))
    contract = ((get_aval(a).ndim - 1,), (get_aval(b).ndim - 1 - (b_nd > 1),))
    dims = (contract, (tuple(a_bdims), tuple(b_bdims)))
    out = la.dot_general(a, b, dims, preferred_element_type=preferred_element_type)
    if perm != tuple(range(len(perm))):
        out = transpose(out, perm)
    return expand_dims(out, tuple(both_squeeze)) if both_squeeze else out


def dot(
    a: Any,
    b: Any,
    *,
    precision: Any = None,
    preferred_element_type: Any = None,
    out_sharding: Any = None,
) -> Any:
    """numpy's `dot`: scalar product, matmul, or sum over the last axis of a and the
    second-to-last of b.

    Args:
      a, b: the operands.
      precision, preferred_element_type: as `lax.dot_general`'s.
      out_sharding: where the result is placed (see `core.sharding.reshard`), or None.

    Returns:
      The product.
    """
    return _out_sharded(lambda: _dot(a, b, precision, preferred_element_type), out_sharding)


def _dot(a: Any, b: Any, precision: Any, preferred_element_type: Any) -> Any:
    return _contract_last_axis("dot", a, b, precision, preferred_element_type, b_second_last=True)


def _contract_last_axis(
    name: str, a: Any, b: Any, precision: Any, preferred_element_type: Any, b_second_last: bool
) -> Any:
    """`dot`'s and `inner`'s product: a scalar operand multiplies; otherwise the last axis of
    `a` is contracted with the second-to-last of `b` (its only one when a vector) when
    `b_second_last`, else with the last of `b`."""
    check_arraylike(name, a, b)
    canonicalize_precision(precision)
    a_nd, b_nd = (get_aval(ensure_array(x)).ndim for x in (a, b))
    if a_nd == 0 or b_nd == 0:
        if preferred_element_type is None and name == "dot":  # JAX's inner multiplies
            _check_integer_width(a, b)
        a, b = promote_dtypes(a, b)
        return multiply(a, b)
    (a, b), weak = _product_operands(a, b)
    contract_b = (0 if b_nd == 1 else b_nd - 2) if b_second_last else b_nd - 1
    _check_contract(name, a, b, a_nd - 1, contract_b)
    dims = (((a_nd - 1,), (contract_b,)), ((), ()))
    pet = _result_dtype(a, preferred_element_type)
    return _as_result(la.dot_general(a, b, dims, preferred_element_type=pet),
                      preferred_element_type, weak)  # fmt: skip


def _check_integer_width(a: Any, b: Any) -> None:
    """Raises JAX's TypeError for a product whose promoted integer dtype is narrower than an
    operand's as `dot_general` takes them (`jnp.dot(int8_array, 2)`: JAX passes the weak int32
    2 as it is, and its result type, int8, may not narrow XLA's int32 product)."""
    promoted = dtypes.result_type(a, b)
    if dtypes.kind(promoted) not in "iu":
        return
    widest = max((get_aval(ensure_array(x)).dtype for x in (a, b)), key=_integer_rank)
    if dtypes.kind(widest) in "iu" and promoted.itemsize < widest.itemsize:
        raise PreferredElementTypeError(
            "`preferred_element_type` must not be narrower than the original type, got "
            f"preferred_element_type of {promoted} for result type of {widest}.\n"
            "Give the scalar the array's dtype (`jnp.int8(2)`) or multiply instead."
        )


def _integer_rank(dt: np.dtype) -> tuple:
    """XLA's order of operand dtypes for a product's type (JAX's `type_properties` of
    integers): wider first, signed above unsigned."""
    return (dtypes.kind(dt) in "iu", dt.itemsize, dtypes.kind(dt) == "i")


def _result_dtype(a: Any, preferred_element_type: Any) -> Any:
    """The products' `preferred_element_type`: the one given, else the promoted operands'
    dtype (JAX's `jnp` functions pass it, and its jaxprs show it)."""
    return get_aval(a).dtype if preferred_element_type is None else preferred_element_type


def _product_operands(*args: Any) -> tuple[list[Any], bool]:
    """A product's operands in their common dtype, and whether its result is weakly typed.
    As in JAX's `jnp` products, an operand that has the common dtype already is passed as it
    is, weak or not (`dot_general` takes mixed weak types; only the result is converted, by
    `_as_result`), so a cotangent flowing back through the product keeps its own weak type.
    An operand of another dtype is converted to a strong one (JAX passes it to `dot_general`
    as it is, mixed dtypes, and its result is strong until `_as_result`)."""
    dt, weak = dtypes.result_type_and_weak(*args)
    ops = [ensure_array(a) for a in args]
    return [o if get_aval(o).dtype == dt else convert_element_type(o, dt) for o in ops], weak


def _as_result(out: Any, preferred_element_type: Any, weak: bool) -> Any:
    """A product's result in JAX's type: the preferred dtype (strong), else the operands'
    common dtype and weak type."""
    if preferred_element_type is not None:
        return convert_element_type(out, preferred_element_type, False)
    return convert_element_type(out, get_aval(out).dtype, weak)


def _check_contract(name, a, b, ia, ib):
    """JAX's check (its `dot_general`'s first line; `ia`, `ib`: an axis or a tuple of axes),
    then numpy's description of the misaligned axes."""
    ia, ib = (ia,) if isinstance(ia, int) else ia, (ib,) if isinstance(ib, int) else ib
    sa, sb = get_aval(a).shape, get_aval(b).shape
    ca, cb = tuple(sa[i] for i in ia), tuple(sb[i] for i in ib)
    if ca != cb:
        raise ShapeError(
            f"dot_general requires contracting dimensions to have the same shape, got {ca} and "
            f"{cb}.\n{name}: shapes {sa} and {sb} are not aligned: {ca} (dims {ia}) != {cb} "
            f"(dims {ib})"
        )


def vdot(a: Any, b: Any, *, precision: Any = None, preferred_element_type: Any = None) -> Any:
    """The dot product of the flattened arrays, conjugating `a` when complex (as numpy)."""
    check_arraylike("vdot", a, b)
    a = ensure_array(a)
    if get_aval(a).dtype.kind == "c":
        a = conjugate(a)
    return dot(
        reshape(a, (-1,)),
        reshape(b, (-1,)),
        precision=precision,
        preferred_element_type=preferred_element_type,
    )


def inner(a: Any, b: Any, *, precision: Any = None, preferred_element_type: Any = None) -> Any:
    """The inner product over the last axes of `a` and `b` (a scalar operand multiplies).

    Args:
      a, b: the operands.
      precision, preferred_element_type: as `lax.dot_general`'s.

    Returns:
      The product.
    """
    return _contract_last_axis(
        "inner", a, b, precision, preferred_element_type, b_second_last=False
    )


def outer(a: Any, b: Any, out: Any = None) -> Any:
    """The outer product of the flattened arrays."""
    check_arraylike("outer", a, b)
    a, b = reshape(a, (-1,)), reshape(b, (-1,))
    return multiply(expand_dims(a, 1), expand_dims(b, 0))


@takes_out_sharding(exempt=True)
def tensordot(
    a: Any, b: Any, axes: Any = 2, *, precision: Any = None, preferred_element_type: Any = None
) -> Any:
    """Sums products over the given axes (an int N means the last N of a, first N of b)."""
    check_arraylike("tensordot", a, b)
    canonicalize_precision(precision)
    (a, b), weak = _product_operands(a, b)
    a_nd, b_nd = get_aval(a).ndim, get_aval(b).ndim
    if isinstance(axes, (int, np.integer)):
        if axes > min(a_nd, b_nd):
            raise ShapeError(
                f"Number of tensordot axes (axes {axes}) exceeds input ranks "
                f"({get_aval(a).shape} and {get_aval(b).shape})"
            )
        ca, cb = tuple(range(a_nd - axes, a_nd)), tuple(range(axes))
    elif isinstance(axes, (list, tuple)) and len(axes) == 2:  # JAX's checks and messages
        ax_a, ax_b = axes
        ints = (int, np.integer)
        if isinstance(ax_a, ints) and isinstance(ax_b, ints):
            ax_a, ax_b = (ax_a,), (ax_b,)
        elif not (isinstance(ax_a, (list, tuple)) and isinstance(ax_b, (list, tuple))):
            raise TypeError(
                "tensordot requires both axes lists to be either ints, tuples or lists, got "
                f"{ax_a} and {ax_b}"
            )
        elif len(ax_a) != len(ax_b):
            raise ShapeError(
                f"tensordot requires axes lists to have equal length, got {ax_a} and {ax_b}."
            )
        ca = tuple(canonicalize_axis(x, a_nd) for x in ax_a)
        cb = tuple(canonicalize_axis(x, b_nd) for x in ax_b)
    else:
        raise TypeError(
            "tensordot axes argument must be an int, a pair of ints, or a pair of lists/tuples "
            "of ints."
        )
    _check_contract("tensordot", a, b, ca, cb)
    pet = _result_dtype(a, preferred_element_type)
    out = la.dot_general(a, b, ((ca, cb), ((), ())), preferred_element_type=pet)
    return _as_result(out, preferred_element_type, weak)


def diagonal(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Any:
    """The `offset` diagonal of the planes given by `axis1` and `axis2` (as the last axis).

    Each plane is flattened and the diagonal read with one strided slice: element `(i, i + k)`
    of an `(n, m)` plane is at `i * (m + 1) + k` (exact picks, as a gather would make). As in
    JAX, the diagonal of a 2-D array is strongly typed (of more dimensions it keeps the weak
    type)."""
    check_arraylike("diagonal", a)
    a = ensure_array(a)
    nd = get_aval(a).ndim
    if nd < 2:
        raise ValueError("diagonal requires an array of at least two dimensions.")
    a1, a2 = canonicalize_axis(axis1, nd), canonicalize_axis(axis2, nd)
    if a1 == a2:
        raise TypeError(
            f"diagonal: axis1 and axis2 are both axis {a1} of the operand; pass two different axes"
        )
    if nd == 2:
        a = convert_element_type(a, get_aval(a).dtype)
    a = moveaxis(a, (a1, a2), (-2, -1))
    *batch, n, m = get_aval(a).shape
    count = max(0, min(n, m - offset) if offset >= 0 else min(n + offset, m))
    start = offset if offset >= 0 else -offset * m
    flat = reshape(a, (*batch, n * m))
    if count == 0:
        return slice_in_dim(flat, 0, 0, axis=-1)
    return slice_in_dim(flat, start, start + (count - 1) * (m + 1) + 1, m + 1, axis=-1)


def trace(
    a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None, out: Any = None
) -> Any:
    """The sum along a diagonal."""
    check_arraylike("trace", a)
    nd = get_aval(ensure_array(a)).ndim
    a1, a2 = canonicalize_axis(axis1, nd), canonicalize_axis(axis2, nd)  # JAX's order
    if a1 == a2:
        raise ValueError(f"axis1 and axis2 can not be same. axis1={axis1} and axis2={axis2}")
    axis1, axis2 = a1, a2
    return _sum(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype)


@library_jit
def kron(a: Any, b: Any) -> Any:
    """The Kronecker product."""
    check_arraylike("kron", a, b)
    a, b = promote_dtypes(a, b)
    na, nb = get_aval(a).ndim, get_aval(b).ndim
    nd = max(na, nb)
    a = reshape(a, (1,) * (nd - na) + get_aval(a).shape)
    b = reshape(b, (1,) * (nd - nb) + get_aval(b).shape)
    sa, sb = get_aval(a).shape, get_aval(b).shape
    a_ex = reshape(a, tuple(v for d in sa for v in (d, 1)))
    b_ex = reshape(b, tuple(v for d in sb for v in (1, d)))
    return reshape(multiply(a_ex, b_ex), tuple(x * y for x, y in zip(sa, sb)))


def vecdot(
    x1: Any,
    x2: Any,
    /,
    *,
    axis: int = -1,
    precision: Any = None,
    preferred_element_type: Any = None,
) -> Any:
    """Dot products of vectors along `axis` (broadcasting the others), conjugating `x1` when
    complex (the array API's definition)."""
    check_arraylike("jnp.vecdot", x1, x2)
    canonicalize_precision(precision)
    x1, x2 = promote_dtypes(x1, x2)
    s1, s2 = get_aval(x1).shape, get_aval(x2).shape
    if s1[canonicalize_axis(axis, len(s1))] != s2[canonicalize_axis(axis, len(s2))]:
        raise ValueError(f"axes must match; got shapes {s1} and {s2} with {axis=}")
    # The products and their sum in the preferred dtype, else the operands' (int8 sums wrap
    # in int8, as JAX's dot_general)
    pet = np.dtype(_result_dtype(x1, preferred_element_type))
    x1, x2 = convert_element_type(x1, pet), convert_element_type(x2, pet)
    if pet.kind == "c":
        x1 = conjugate(x1)
    # `axis` counts in each operand's own rank (JAX moves it last in both), the rest broadcast
    x1, x2 = moveaxis(x1, axis, -1), moveaxis(x2, axis, -1)
    return _sum(multiply(x1, x2), axis=-1, dtype=pet if pet.kind in "iub" else None)


def matvec(x1: Any, x2: Any, /) -> Any:
    """Batched matrix-vector product."""
    check_arraylike("matvec", x1, x2)
    return squeeze(matmul(x1, expand_dims(x2, -1)), -1)


def vecmat(x1: Any, x2: Any, /) -> Any:
    """Batched vector-matrix product (the vector conjugated, as in JAX)."""
    check_arraylike("matvec", x1, x2)  # (the name JAX 0.10.2 reports)
    return squeeze(matmul(expand_dims(conjugate(x1), -2), x2), -2)


@library_jit(static_argnames=("axisa", "axisb", "axisc", "axis"))
def cross(
    a: Any, b: Any, axisa: int = -1, axisb: int = -1, axisc: int = -1, axis: int | None = None
) -> Any:
    """Cross product of 3-vectors (2-vectors are padded with a zero z component)."""
    check_arraylike("cross", a, b)
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = promote_dtypes(a, b)
    a, b = moveaxis(a, axisa, -1), moveaxis(b, axisb, -1)
    if get_aval(a).shape[-1] not in (2, 3) or get_aval(b).shape[-1] not in (2, 3):
        raise ValueError(
            "Dimension must be either 2 or 3 for cross product\n"
            f"The vectors' axes have sizes {get_aval(a).shape[-1]} and {get_aval(b).shape[-1]}."
        )
    ca = [a[..., i] for i in range(get_aval(a).shape[-1])]
    cb = [b[..., i] for i in range(get_aval(b).shape[-1])]
    if len(ca) == 2 and len(cb) == 2:
        return subtract(multiply(ca[0], cb[1]), multiply(ca[1], cb[0]))
    zero_a, zero_b = ca[0] * 0, cb[0] * 0
    ca += [zero_a] * (3 - len(ca))
    cb += [zero_b] * (3 - len(cb))
    out = stack(
        [
            subtract(multiply(ca[1], cb[2]), multiply(ca[2], cb[1])),
            subtract(multiply(ca[2], cb[0]), multiply(ca[0], cb[2])),
            subtract(multiply(ca[0], cb[1]), multiply(ca[1], cb[0])),
        ],
        -1,
    )
    return moveaxis(out, -1, axisc)


# ---------------------------------------------------------------------------------------------
# einsum: parse, then contract pairwise left to right with dot_general


def _parse_einsum(subscripts: str, shapes: list[tuple[int, ...]]) -> tuple[list[str], str]:
    subscripts = subscripts.replace(" ", "")
    if "->" in subscripts:
        lhs, out = subscripts.split("->")
        explicit = True
    else:
        lhs, out, explicit = subscripts, "", False
    ins = lhs.split(",")
    if len(ins) != len(shapes):
        raise ValueError(
            f"Number of einsum subscripts, {len(ins)}, must be equal to the number of operands, "
            f"{len(shapes)}.\neinsum {subscripts!r}: give one operand per comma-separated term."
        )
    used = set(subscripts) - set(",.->")
    spare = iter(c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" if c not in used)
    ell_nd = 0
    for s, shp in zip(ins, shapes):
        if "..." in s:
            ell_nd = max(ell_nd, len(shp) - (len(s) - 3))
    ell = "".join(next(spare) for _ in range(ell_nd))
    fixed = []
    for i, (given, shp) in enumerate(zip(ins, shapes)):
        s = given
        if "..." in s:
            k = len(shp) - (len(s) - 3)
            s = s.replace("...", ell[ell_nd - k :] if k else "")
        if len(s) != len(shp):
            raise ValueError(
                f"Einstein sum subscript {given!r} does not contain the correct number of indices "
                f"for operand {i}.\nOperand {i} has shape {shp} (rank {len(shp)})."
            )
        fixed.append(s)
    if explicit:
        out = out.replace("...", ell)
        for c in out:
            if not any(c in f for f in fixed):
                raise ValueError(f"Output character {c!r} did not appear in the input")
    else:
        counts: dict[str, int] = {}
        for s in fixed:
            for c in s:
                counts[c] = counts.get(c, 0) + 1
        out = ell + "".join(sorted(c for c, n in counts.items() if n == 1 and c not in ell))
    return fixed, out


def _label_sum(x: Any, axes: tuple[int, ...], dtype: Any) -> Any:
    """einsum's sum over `axes`, as JAX's: in the operand's dtype, unless the product's dtype
    `dtype` promotes it (int8 operands wrap, bools are or'ed), then in that dtype."""
    if dtypes.result_type(x, dtype) != get_aval(x).dtype:
        x = convert_element_type(x, dtype)
    if get_aval(x).dtype == np.bool_:
        return _any(x, axis=axes)
    return _sum(x, axis=axes, dtype=get_aval(x).dtype)


def _sum_uniques(x: Any, s: str, keep: set[str], dtype: Any) -> tuple[Any, str]:
    """Sums out, in one reduction, the labels that occur once in `s` and not in `keep`."""
    drop = tuple(i for i, c in enumerate(s) if c not in keep and s.count(c) == 1)
    if drop:
        x = _label_sum(x, drop, dtype)
        s = "".join(c for i, c in enumerate(s) if i not in drop)
    return x, s


def _sum_repeats(x: Any, s: str, keep: set[str], dtype: Any) -> tuple[Any, str]:
    """Contracts each repeated label against a Kronecker delta, as JAX's `sum_repeats`: the
    entries off the diagonal are selected to zero and summed out (all of the label's axes when
    it is not kept, all but its last otherwise)."""
    for c in dict.fromkeys(s):
        axes = tuple(i for i, d in enumerate(s) if d == c)
        if len(axes) == 1:
            continue
        shape = get_aval(x).shape
        base = tuple(shape[i] for i in axes)
        iotas = [sh.iota(np.uint32, base, k) for k in range(len(base))]
        eye = functools.reduce(ew.bitwise_and, map(ew.eq, iotas[:-1], iotas[1:]))
        eye = sh.broadcast_in_dim(eye, shape, axes)
        x = ew.select_n(eye, ew.full_like(x, 0), x)
        if c in keep:
            x, s = _label_sum(x, axes[:-1], dtype), s.replace(c, "", len(axes) - 1)
        else:
            x, s = _label_sum(x, axes, dtype), s.replace(c, "")
    return x, s


def _einsum_single(x: Any, s: str, keep: set[str], dtype: Any) -> tuple[Any, str]:
    """Sums out the labels not in `keep` and contracts repeated ones (JAX's order)."""
    return _sum_repeats(*_sum_uniques(x, s, keep, dtype), keep, dtype)


_LABELS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _interleaved(args: tuple) -> tuple[str, tuple]:
    """The subscripts string and operands of einsum's sublist form `(op0, sublist0, op1,
    sublist1, ..., [output sublist])`: labels are non-negative ints, `Ellipsis` for `...`."""

    def letters(sublist: Any) -> str:
        try:
            labels = list(sublist)
        except TypeError:
            raise TypeError(
                f"einsum's sublist form takes operands each followed by a list of int labels, "
                f"got {sublist!r} where a sublist belongs"
            ) from None
        out = []
        for label in labels:
            if label is Ellipsis:
                out.append("...")
            elif isinstance(label, (int, np.integer)) and label >= 0:
                # opt_einsum's symbols, as JAX's: letters, then characters from U+00C0 on
                out.append(_LABELS[label] if label < len(_LABELS) else chr(label + 140))
            else:
                raise ValueError(
                    f"einsum sublist labels must be non-negative ints or Ellipsis, got {label!r}"
                )
        return "".join(out)

    operands, sublists = args[0:-1:2] if len(args) % 2 else args[0::2], args[1::2]
    spec = ",".join(letters(sub) for sub in sublists[: len(operands)])
    if len(args) % 2:
        spec += "->" + letters(args[-1])
    return spec, tuple(operands)


def einsum_path(subscripts: Any, *operands: Any, optimize: Any = "auto") -> tuple[list, PathInfo]:
    """The pairwise contraction order for an `einsum` and a report of its cost
    (`jnp.einsum_path`).

    JAX asks opt_einsum; this asks `numpy.einsum_path` with opt_einsum's choice for "auto"
    (an exhaustive search up to four operands, greedy beyond), so paths agree with JAX's up to
    four operands; the report is opt_einsum's (`PathInfo`: FLOP counts, speedup, largest
    intermediate, one line per contraction). numbax's `einsum` contracts three or more
    operands in this path's order (left to right with `optimize=False`).

    Args:
        subscripts: the `einsum` subscripts (or the first operand of the sublist form).
        *operands: the arrays (only their shapes and dtypes are read).
        optimize: "auto"/True, False (left to right), "optimal", "greedy", or a path.

    Returns:
        `(path, info)`: `path` a list of operand-index tuples, as `einsum(optimize=)` takes;
        `info` the `PathInfo` report (print it).
    """
    if not isinstance(subscripts, str):
        subscripts, operands = _interleaved((subscripts, *operands))
    check_arraylike("einsum_path", *operands)
    shapes = [tuple(get_aval(o).shape) for o in operands]
    label_sizes(subscripts, shapes)
    given = optimize
    if optimize is False:  # left to right, as opt_einsum (and numbax's einsum) contracts
        optimize = [(0, 1)] * (len(operands) - 1) or [(0,)]  # one operand: opt_einsum's [(0,)]
    if optimize == "auto" or optimize is True:
        optimize = "optimal" if len(operands) <= 4 else "greedy"
    elif isinstance(optimize, list) and optimize[:1] != ["einsum_path"]:
        optimize = ["einsum_path", *optimize]
    if isinstance(given, list) or len(operands) <= 2 and optimize in ("optimal", "greedy"):
        path = list(optimize[1:]) if isinstance(given, list) else [tuple(range(len(operands)))]
    else:
        shells = [
            np.broadcast_to(np.zeros((), get_aval(o).dtype), s) for o, s in zip(operands, shapes)
        ]
        path = list(np.einsum_path(subscripts, *shells, optimize=optimize)[0][1:])
    return path, PathInfo(subscripts, shapes, path)


@takes_out_sharding(exempt=True)
def einsum(
    subscripts: str,
    *operands: Any,
    out: Any = None,
    optimize: Any = "auto",
    precision: Any = None,
    preferred_element_type: Any = None,
    _dot_general: Any = None,
) -> Any:
    """Einstein summation (`"ij,jk->ik"`, with `...` broadcasting), contracted pairwise with
    `dot_general` in `einsum_path`'s order for `optimize` (opt_einsum's, as JAX's: for
    `"ij,jk,kl->il"` of (200, 5), (5, 100), (100, 10) operands, `jk,kl` first). numpy's
    sublist form, `einsum(x, [0, 1], y, [1, 2], [0, 2])` (an `Ellipsis` for `...`), is the
    same call spelled with integer labels.
    `_dot_general` (JAX's hook, used by Flax's `Fp8Einsum`) replaces `lax.dot_general`: it is
    called as `_dot_general(x, y, dimension_numbers, precision,
    preferred_element_type=...)`, with the operands' result dtype when none is given."""
    if not isinstance(subscripts, str):
        subscripts, operands = _interleaved((subscripts, *operands))
    check_arraylike("einsum", *operands)
    canonicalize_precision(precision)
    ops, weak = _product_operands(*operands)
    shapes = [get_aval(o).shape for o in ops]
    ins, out_s = _parse_einsum(subscripts, shapes)
    sizes: dict[str, int] = {}
    for i, (s, shp) in enumerate(zip(ins, shapes)):
        for c, d in zip(s, shp):
            if sizes.get(c, 1) not in (1, d) and d != 1:
                raise ShapeError(  # opt_einsum's words (JAX's), its order of the two sizes
                    f"Size of label {c!r} for operand {i} ({sizes[c]}) does not match previous "
                    f"terms ({d}).\neinsum {subscripts!r}: the operands' shapes are {shapes}."
                )
            sizes[c] = d if sizes.get(c, 1) == 1 else sizes[c]  # a size 1 broadcasts (to 0 too)
    ops = [
        broadcast_to(o, tuple(sizes[c] for c in s))
        if get_aval(o).shape != tuple(sizes[c] for c in s)
        else o
        for o, s in zip(ops, ins)
    ]

    want = _result_dtype(ops[0], preferred_element_type)

    def pair(a: tuple[Any, str], b: tuple[Any, str], others: list[str]) -> tuple[Any, str]:
        """`a` and `b` contracted over the labels no other term or the output has."""
        keep = set(out_s).union(*map(set, others))
        (x, xs), (y, ys) = a, b
        # JAX's order: the unique labels of the right operand, then the left's, then the
        # repeated ones of each
        y, ys = _sum_uniques(y, ys, keep | set(xs), want)
        x, xs = _sum_uniques(x, xs, keep | set(ys), want)
        y, ys = _sum_repeats(y, ys, keep | set(xs), want)
        x, xs = _sum_repeats(x, xs, keep | set(ys), want)
        shared = [c for c in xs if c in ys]
        batch = [c for c in shared if c in keep]
        contract = [c for c in shared if c not in keep]
        dn = (
            (tuple(xs.index(c) for c in contract), tuple(ys.index(c) for c in contract)),
            (tuple(xs.index(c) for c in batch), tuple(ys.index(c) for c in batch)),
        )
        if _dot_general is None:
            x = la.dot_general(x, y, dn, preferred_element_type=want)
        else:
            x = _dot_general(x, y, dn, precision, preferred_element_type=want)
        return x, (
            "".join(batch)
            + "".join(c for c in xs if c not in shared)
            + "".join(c for c in ys if c not in shared)
        )

    if len(ops) == 1:
        x, xs = _einsum_single(ops[0], ins[0], set(out_s), want)
    elif len(ops) == 2 or optimize is False:  # left to right
        x, xs = ops[0], ins[0]
        for k in range(1, len(ops)):
            x, xs = pair((x, xs), (ops[k], ins[k]), ins[k + 1 :])
    else:  # opt_einsum's order, as JAX's: each step contracts two terms, appended last
        terms = list(zip(ops, ins))
        path = einsum_path(
            ",".join(ins) + "->" + out_s, *ops, optimize="auto" if optimize is None else optimize
        )[0]
        for step in path:  # (a step of three or more terms is folded left to right)
            if len(step) > 2 and isinstance(optimize, list):
                raise NotImplementedError(  # JAX's, for a path given by the caller
                    "jax.numpy.einsum does not support simultaneous contraction of 3 or more "
                    "operands. Typically this means you've passed an unsupported path to the "
                    "einsum optimize parameter."
                )
            chosen = [terms[k] for k in sorted(step)]
            rest = [t for k, t in enumerate(terms) if k not in step]
            new = chosen[0]
            for m in range(1, len(chosen)):
                others = [t[1] for t in rest] + [t[1] for t in chosen[m + 1 :]]
                new = pair(new, chosen[m], others)
            terms = [*rest, new]
        ((x, xs),) = terms
    x, xs = _einsum_single(x, xs, set(out_s), want)
    if len(ops) == 1 and preferred_element_type is not None:
        x = convert_element_type(x, preferred_element_type)
    return _as_result(transpose(x, tuple(xs.index(c) for c in out_s)), preferred_element_type, weak)
