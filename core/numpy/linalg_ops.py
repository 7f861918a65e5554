"""Products: dot, matmul, vdot, inner, outer, tensordot, einsum (all via `dot_general`)."""

from __future__ import annotations

from typing import Any

from core.numpy._util import canonicalize_axis, ensure_array, promote_dtypes
from core.numpy.shapes import expand_dims, reshape, squeeze
from core.prims import linalg as la
from core.trace import get_aval
from core.errors import ShapeError


def matmul(a: Any, b: Any, *, precision: Any = None, preferred_element_type: Any = None) -> Any:
    """Matrix product with numpy's broadcasting of leading (batch) dimensions."""
    from core.numpy._util import broadcast_shapes, broadcast_to

    a, b = promote_dtypes(a, b)
    a_nd, b_nd = get_aval(a).ndim, get_aval(b).ndim
    if a_nd == 0 or b_nd == 0:
        raise ValueError("matmul: input operands must not be scalars (use * for scalars)")
    if a_nd <= 2 and b_nd <= 2:  # no batch dimensions: one dot_general, no reshapes
        ca, cb = a_nd - 1, 0
        _check_contract("matmul", a, b, ca, cb if b_nd == 1 else b_nd - 2)
        return la.dot_general(a, b, (((ca,), (cb,)), ((), ())),
                              preferred_element_type=preferred_element_type)
    if a_nd == 1:
        a = expand_dims(a, 0)
    if b_nd == 1:
        b = expand_dims(b, 1)
    sa, sb = get_aval(a).shape, get_aval(b).shape
    if sa[-1] != sb[-2]:
        raise ShapeError(
            f"matmul: contracting dimensions differ: lhs shape {sa} has {sa[-1]}, rhs shape "
            f"{sb} has {sb[-2]}"
        )
    batch = broadcast_shapes(sa[:-2], sb[:-2])
    nb = len(batch)
    if nb and sa[:-2] != batch:
        a = broadcast_to(a, (*batch, *sa[-2:]))
    if nb and sb[:-2] != batch:
        b = broadcast_to(b, (*batch, *sb[-2:]))
    dims = (((nb + 1,), (nb,)), (tuple(range(nb)), tuple(range(nb))))
    out = la.dot_general(a, b, dims, preferred_element_type=preferred_element_type)
    if a_nd == 1:
        out = squeeze(out, -2)
    if b_nd == 1:
        out = squeeze(out, -1)
    return out


def dot(a: Any, b: Any, *, precision: Any = None, preferred_element_type: Any = None) -> Any:
    """numpy's `dot`: scalar product, matmul, or sum over the last axis of a and the
    second-to-last of b."""
    a, b = promote_dtypes(a, b)
    a_nd, b_nd = get_aval(a).ndim, get_aval(b).ndim
    if a_nd == 0 or b_nd == 0:
        from core.numpy.ufuncs import multiply

        return multiply(a, b)
    contract_b = 0 if b_nd == 1 else b_nd - 2
    _check_contract("dot", a, b, a_nd - 1, contract_b)
    return la.dot_general(a, b, (((a_nd - 1,), (contract_b,)), ((), ())),
                          preferred_element_type=preferred_element_type)


def _check_contract(name, a, b, ia, ib):
    sa, sb = get_aval(a).shape, get_aval(b).shape
    if sa[ia] != sb[ib]:
        raise ShapeError(
            f"{name}: shapes {sa} and {sb} are not aligned: {sa[ia]} (dim {ia}) != {sb[ib]} (dim {ib})"
        )


def vdot(a: Any, b: Any, *, precision: Any = None, preferred_element_type: Any = None) -> Any:
    return dot(reshape(a, (-1,)), reshape(b, (-1,)), preferred_element_type=preferred_element_type)


def inner(a: Any, b: Any, *, precision: Any = None, preferred_element_type: Any = None) -> Any:
    a, b = promote_dtypes(a, b)
    a_nd, b_nd = get_aval(a).ndim, get_aval(b).ndim
    if a_nd == 0 or b_nd == 0:
        from core.numpy.ufuncs import multiply

        return multiply(a, b)
    _check_contract("inner", a, b, a_nd - 1, b_nd - 1)
    return la.dot_general(a, b, (((a_nd - 1,), (b_nd - 1,)), ((), ())),
                          preferred_element_type=preferred_element_type)


def outer(a: Any, b: Any, out: Any = None) -> Any:
    from core.numpy.ufuncs import multiply

    a, b = reshape(a, (-1,)), reshape(b, (-1,))
    return multiply(expand_dims(a, 1), expand_dims(b, 0))


def tensordot(a: Any, b: Any, axes: Any = 2, *, precision: Any = None,
              preferred_element_type: Any = None) -> Any:
    """Sums products over the given axes (an int N means the last N of a, first N of b)."""
    a, b = promote_dtypes(a, b)
    a_nd, b_nd = get_aval(a).ndim, get_aval(b).ndim
    if isinstance(axes, int):
        ca, cb = tuple(range(a_nd - axes, a_nd)), tuple(range(axes))
    else:
        ax_a, ax_b = axes
        ca = tuple(canonicalize_axis(x, a_nd) for x in ((ax_a,) if isinstance(ax_a, int) else ax_a))
        cb = tuple(canonicalize_axis(x, b_nd) for x in ((ax_b,) if isinstance(ax_b, int) else ax_b))
    for i, j in zip(ca, cb):
        _check_contract("tensordot", a, b, i, j)
    return la.dot_general(a, b, ((ca, cb), ((), ())), preferred_element_type=preferred_element_type)

