"""`triangular_solve_p`: JAX's triangular solve primitive, `op(a) x = b` (`left_side`) or
`x op(a) = b` for triangular `a (..., m, m)` and matrices `b` of the same batch shape.

Jaxprs print one `triangular_solve` equation with JAX's parameters. Its rules are JAX's: `b`
enters linearly (the jvp in `b` is the solve of the tangent, the transpose a solve with
`op(a)` transposed), the jvp in `a` is `-op(a)^-1 op(da) x` (or `-x op(da) op(a)^-1`) with
`da` masked to `a`'s triangle, each product taken in the cheaper order, as JAX orders them;
batching moves the batch axes to the front. What `jit` compiles and the eager impl evaluate
is the composition `_triangular_solve`: forward or back substitution in a `fori_loop` over
rows (reading a row with `dynamic_index_in_dim`, writing the solved row with
`dynamic_update_index_in_dim`), so the values are those of numbax's substitution loops.

The module sits in the `lax` layer over `core.numpy` (as `core/lax/linalg.py` does) and is
not imported by `core/lax/__init__.py`; `core.scipy.linalg` and `core.lax.linalg` bind it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import core.numpy as jnp
from core import lax
from core.ad_util import Zero
from core.array import Array
from core.avals import ShapedArray
from core.errors import ShapeError
from core.interpreters import batching
from core.primitive import Primitive
from core.trace import eval_trace, get_aval, set_current_trace

triangular_solve_p = Primitive("triangular_solve")


def _mT(x: Any) -> Any:
    return jnp.swapaxes(x, -1, -2)


def _triangle(x: Any, lower: bool, k: int) -> Any:
    """`jnp.tril(x, k)` (`lower`) or `jnp.triu(x, k)` from iotas (a composition closes over no
    array, so no constant mask)."""
    shape = get_aval(x).shape
    rows = lax.broadcasted_iota(np.int32, shape, len(shape) - 2) + np.int32(k)
    cols = lax.broadcasted_iota(np.int32, shape, len(shape) - 1)
    keep = cols <= rows if lower else cols >= rows
    return jnp.where(keep, x, jnp.zeros_like(x))


def _substitute(a: Any, b: Any, lower: bool, unit_diagonal: bool) -> Any:
    """Solves `a x = b` for triangular `a (..., n, n)` and `b (..., n, k)` (same batch shape)."""
    n = get_aval(a).shape[-1]
    if n == 0:  # no rows: nothing to substitute (the loop body would slice an empty axis)
        return b
    row_axis = get_aval(a).ndim - 2
    strict = _triangle(a, lower, -1 if lower else 1)
    diag = None if unit_diagonal else jnp.diagonal(a, axis1=-2, axis2=-1)[..., None]

    def body(j: Any, x: Any) -> Any:
        i = j if lower else n - 1 - j
        row = lax.dynamic_index_in_dim(strict, i, axis=row_axis, keepdims=True)
        rhs = lax.dynamic_index_in_dim(b, i, axis=row_axis, keepdims=True)
        xi = rhs - jnp.matmul(row, x)
        if diag is not None:
            xi = xi / lax.dynamic_index_in_dim(diag, i, axis=row_axis, keepdims=True)
        return lax.dynamic_update_index_in_dim(x, xi, i, row_axis)

    return lax.fori_loop(0, n, body, jnp.zeros_like(b))


def _triangular_solve(
    a: Any, b: Any, *, left_side, lower, transpose_a, conjugate_a, unit_diagonal
) -> Any:
    """The primitive as a composition: substitution on `op(a)` (`x op(a) = b` solved as
    `op(a)^T x^T = b^T`)."""
    if conjugate_a and get_aval(a).dtype.kind == "c":
        a = jnp.conj(a)
    if not left_side:
        b, transpose_a = _mT(b), not transpose_a
    if transpose_a:
        a, lower = _mT(a), not lower
    x = _substitute(a, b, lower, unit_diagonal)
    return x if left_side else _mT(x)


def _impl(a: np.ndarray, b: np.ndarray, **params: Any) -> np.ndarray:
    with set_current_trace(eval_trace):
        return np.asarray(_triangular_solve(Array(a), Array(b), **params))


def _abstract_eval(a: ShapedArray, b: ShapedArray, *, left_side: bool, **_: Any) -> ShapedArray:
    if a.ndim < 2 or a.shape[-1] != a.shape[-2] or b.ndim != a.ndim:
        raise ShapeError(
            "triangular_solve requires square matrices a (..., m, m) and b of the same rank, "
            f"got a {a.shape} and b {b.shape}"
        )
    if a.shape[:-2] != b.shape[:-2]:
        raise ShapeError(
            "triangular_solve requires both arguments to have equal batch dimensions, got "
            f"{a.shape} and {b.shape}"
        )
    m = b.shape[-2] if left_side else b.shape[-1]
    if m != a.shape[-1]:
        raise ShapeError(
            f"triangular_solve: a {a.shape} does not match the {'rows' if left_side else 'columns'}"
            f" of b {b.shape}"
        )
    if a.dtype != b.dtype:
        raise TypeError(
            f"triangular_solve needs operands of one dtype, got {a.dtype} and {b.dtype}"
        )
    return ShapedArray(b.shape, b.dtype)


def _jvp(primals: tuple, tangents: tuple, **params: Any) -> tuple[Any, Any]:
    (a, b), (ta, tb) = primals, tangents
    x = triangular_solve_p.bind(a, b, **params)
    out = Zero(get_aval(x)) if type(tb) is Zero else triangular_solve_p.bind(a, tb, **params)
    if type(ta) is Zero:
        return x, out
    k = 1 if params["unit_diagonal"] else 0
    ga = jnp.negative(_triangle(ta, params["lower"], -k if params["lower"] else k))
    ga = _mT(ga) if params["transpose_a"] else ga
    ga = jnp.conj(ga) if params["conjugate_a"] else ga

    def a_inverse(rhs: Any) -> Any:
        return triangular_solve_p.bind(a, rhs, **params)

    m, n = get_aval(b).shape[-2:]
    if params["left_side"]:  # A^-1 (dA X) or (A^-1 dA) X, whichever is cheaper (JAX's)
        da = a_inverse(jnp.matmul(ga, x)) if m > n else jnp.matmul(a_inverse(ga), x)
    else:  # (X dA) A^-1 or X (dA A^-1)
        da = a_inverse(jnp.matmul(x, ga)) if m < n else jnp.matmul(x, a_inverse(ga))
    return x, da if type(out) is Zero else jnp.add(out, da)


def _transpose(ct: Any, a: Any, b: Any, *, transpose_a: bool, **params: Any) -> list:
    if type(ct) is Zero:
        return [None, Zero(b.aval)]
    return [None, triangular_solve_p.bind(a, ct, transpose_a=not transpose_a, **params)]


def _batch(args: tuple, dims: tuple, **params: Any) -> tuple[Any, int]:
    size = next(get_aval(x).shape[d] for x, d in zip(args, dims) if d is not None)
    a, b = (batching.moveaxis(x, d, 0, size) for x, d in zip(args, dims))
    return triangular_solve_p.bind(a, b, **params), 0


triangular_solve_p.def_impl(_impl)
triangular_solve_p.def_abstract_eval(_abstract_eval)
triangular_solve_p.def_jvp(_jvp)
triangular_solve_p.def_transpose(_transpose)
triangular_solve_p.linear = True  # in b
triangular_solve_p.def_batch(_batch)
triangular_solve_p.def_composition(_triangular_solve)


def triangular_solve(
    a: Any,
    b: Any,
    *,
    left_side: bool = False,
    lower: bool = False,
    transpose_a: bool = False,
    conjugate_a: bool = False,
    unit_diagonal: bool = False,
) -> Any:
    """Solves `op(a) x = b` (`left_side`) or `x op(a) = b` (`jax.lax.linalg.triangular_solve`).

    Args:
        a: triangular matrices `(..., m, m)`; the other triangle is ignored.
        b: `(..., m, n)` if `left_side` else `(..., n, m)`; one dimension less for a vector.
        left_side: which of the two equations to solve (JAX's default False: `x op(a) = b`).
        lower: use the lower triangle of `a`.
        transpose_a: `op` transposes `a`.
        conjugate_a: `op` conjugates `a` (no effect on real `a`).
        unit_diagonal: assume ones on the diagonal.

    Returns:
        `x`, shaped and typed like `b`.
    """
    conjugate_a = bool(conjugate_a) and get_aval(a).dtype.kind == "c"
    singleton = get_aval(b).ndim == get_aval(a).ndim - 1
    if singleton:
        b = jnp.expand_dims(b, -1 if left_side else -2)
    out = triangular_solve_p.bind(
        a,
        b,
        left_side=bool(left_side),
        lower=bool(lower),
        transpose_a=bool(transpose_a),
        conjugate_a=conjugate_a,
        unit_diagonal=bool(unit_diagonal),
    )
    if singleton:
        out = out[..., 0] if left_side else out[..., 0, :]
    return out
