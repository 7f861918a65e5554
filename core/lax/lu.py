"""LU's rules and solves on `triangular_solve_p`: `lu_p`'s jvp, `lu_pivots_to_permutation_p`,
and JAX's `_lu_solve` (`jax/_src/lax/linalg.py`).

`lu_p` itself is declared with the decompositions (`core/prims/decompositions.py`: impl,
abstract evaluation, batching, and its numba lowering calling LAPACK's getrf); its jvp is JAX's
(De Hoog, Anderssen and Lukas: with `L` and `U` padded square, `L^-1 P da U^-1` split into its
strict lower part, times `L` on the left, and its upper part, times `U` on the right), two
`triangular_solve`s, so it is defined here, next to `core/lax/triangular.py`, a layer above
the primitives. `lu_pivots_to_permutation_p` turns getrf's row swaps into the permutation
(JAX's primitive; numpy's loop eagerly, `jit` compiles its composition: a `fori_loop` of two
swaps). `lu_solve` is JAX's `_lu_solve`, a `@jit` function: the right-hand side permuted and
two triangular solves (`trans` 1 and 2 solve with the transpose, then un-permute with a
`sort_key_val`), vmapped over the broadcast batch axes. `solve` is JAX's `lax_linalg._solve`
(`lu` and a `custom_linear_solve` of two `lu_solve`s), which `jnp.linalg.solve` and `inv` call,
and `cofactor_solve` is JAX's `jnp.linalg._cofactor_solve`, `jnp.linalg.det`'s jvp:
`core.numpy` sits below this module (which imports it), so this module registers both with
`core.numpy.linalg` when it loads (`import core` loads it, through `core.lax.linalg`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import core.numpy as jnp
from core import api, lax
from core.ad_util import Zero
from core.avals import ShapedArray
from core.errors import DTypeError, ShapeError
from core.interpreters import batching
from core.interpreters.jvp import tangent_aval
from core.jit.library import library_jit
from core.lax.triangular import triangular_solve
from core.numpy import linalg as jnp_linalg
from core.numpy._util import promote_dtypes_inexact
from core.primitive import Primitive
from core.prims.decompositions import lu_p, pivots_to_permutation
from core.trace import get_aval

__all__ = [
    "lu",
    "lu_p",
    "lu_pivots_to_permutation",
    "lu_pivots_to_permutation_p",
    "cofactor_solve",
    "lu_solve",
    "solve",
]


# ---------------------------------------------------------------------------------------------
# lu_p's jvp


def _lu_jvp_inner(lu: Any, a_dot: Any, permutation: Any) -> Any:
    m, n = get_aval(a_dot).shape
    dtype = get_aval(a_dot).dtype
    k = min(m, n)
    zero = jnp.zeros((), dtype)
    l_ = lax.pad(jnp.tril(lu[:, :k], -1), zero, ((0, 0, 0), (0, m - k, 0)))
    l_ = l_ + jnp.eye(m, dtype=dtype)
    u_eye = lax.pad(jnp.eye(n - k, dtype=dtype), zero, ((k, 0, 0), (k, 0, 0)))
    u = lax.pad(jnp.triu(lu[:k, :]), zero, ((0, n - k, 0), (0, 0, 0))) + u_eye
    la = triangular_solve(
        l_, a_dot[permutation], left_side=True, transpose_a=False, lower=True, unit_diagonal=True
    )
    lau = triangular_solve(u, la, left_side=False, transpose_a=False, lower=False)
    highest = lax.Precision.HIGHEST
    l_dot = jnp.matmul(l_, jnp.tril(lau, -1), precision=highest)
    return l_dot + jnp.matmul(jnp.triu(lau), u, precision=highest)


def _lu_jvp(primals: tuple, tangents: tuple) -> tuple[list, list]:
    (a,), (a_dot,) = primals, tangents
    lu, pivots, permutation = lu_p.bind(a)
    if type(a_dot) is Zero:
        lu_dot = Zero(tangent_aval(get_aval(lu)))
    else:
        fun = _lu_jvp_inner
        for _ in get_aval(a).shape[:-2]:
            fun = api.vmap(fun)
        lu_dot = fun(lu, a_dot, permutation)
    zeros = [Zero(tangent_aval(get_aval(v))) for v in (pivots, permutation)]
    return [lu, pivots, permutation], [lu_dot, *zeros]


lu_p.def_jvp(_lu_jvp)


def lu(x: Any) -> tuple[Any, Any, Any]:
    """The LU decomposition with partial pivoting, `P x = L U` (`jax.lax.linalg.lu`).

    Args:
        x: matrices `(..., m, n)` of an inexact dtype.

    Returns:
        `(lu, pivots, permutation)`: `L` (unit diagonal implied) below and `U` on and above the
        diagonal of `lu`; int32 row swaps `pivots (..., min(m, n))` (row `i` was swapped with
        row `pivots[i]` at step `i`); the int32 row permutation `permutation (..., m)`.
    """
    return tuple(lu_p.bind(x))


# ---------------------------------------------------------------------------------------------
# lu_pivots_to_permutation_p

lu_pivots_to_permutation_p = Primitive("lu_pivots_to_permutation")


def _pivots_impl(pivots: np.ndarray, *, permutation_size: int) -> np.ndarray:
    return pivots_to_permutation(pivots, permutation_size)


def _pivots_abstract_eval(pivots: ShapedArray, *, permutation_size: int) -> ShapedArray:
    if pivots.ndim < 1:
        raise ShapeError(
            f"lu_pivots_to_permutation needs pivots of rank >= 1, got shape {pivots.shape}"
        )
    if pivots.dtype != np.int32:
        raise DTypeError(f"lu_pivots_to_permutation needs int32 pivots, got {pivots.dtype}")
    if not permutation_size >= pivots.shape[-1]:
        raise ValueError(
            f"Output permutation size {permutation_size} has to exceed the trailing dimension "
            f"of the pivots. Got pivots size {pivots.shape[-1]}"
        )
    return ShapedArray((*pivots.shape[:-1], permutation_size), pivots.dtype)


def _pivots_composition(swaps: Any, *, permutation_size: int) -> Any:
    """JAX's generic lowering: swap entries `i` and `swaps[..., i]` for each step `i`."""
    shape = get_aval(swaps).shape
    axis = len(shape) - 1
    perm = lax.broadcasted_iota(np.int32, (*shape[:-1], permutation_size), axis)
    if permutation_size == 0 or shape[-1] == 0:
        return perm

    def body(i: Any, perm: Any) -> Any:
        j = lax.dynamic_index_in_dim(swaps, i, axis=axis, keepdims=True)
        x = lax.dynamic_index_in_dim(perm, i, axis=axis, keepdims=True)
        y = jnp.take_along_axis(perm, j, axis=axis)
        here = lax.broadcasted_iota(np.int32, get_aval(perm).shape, axis)
        return jnp.where(here == i, y, jnp.where(here == j, x, perm))

    return lax.fori_loop(np.int32(0), np.int32(shape[-1]), body, perm)


def _pivots_jvp(primals: tuple, tangents: tuple, **params: Any) -> tuple[Any, Any]:
    out = lu_pivots_to_permutation_p.bind(*primals, **params)
    return out, Zero(tangent_aval(get_aval(out)))


def _pivots_batch(args: tuple, dims: tuple, **params: Any) -> tuple[Any, int]:
    (x,), (d,) = args, dims
    x = batching.moveaxis(x, d, 0, get_aval(x).shape[d])
    return lu_pivots_to_permutation_p.bind(x, **params), 0


lu_pivots_to_permutation_p.def_impl(_pivots_impl)
lu_pivots_to_permutation_p.def_abstract_eval(_pivots_abstract_eval)
lu_pivots_to_permutation_p.def_jvp(_pivots_jvp)
lu_pivots_to_permutation_p.def_batch(_pivots_batch)
lu_pivots_to_permutation_p.def_composition(_pivots_composition)


def lu_pivots_to_permutation(pivots: Any, permutation_size: int) -> Any:
    """The permutation that LU's row swaps `pivots` amount to
    (`jax.lax.linalg.lu_pivots_to_permutation`).

    Args:
        pivots: int32 row swaps `(..., k)`.
        permutation_size: the permutation's length `m >= k`.

    Returns:
        The int32 permutation `(..., permutation_size)`.
    """
    return lu_pivots_to_permutation_p.bind(
        jnp.asarray(pivots), permutation_size=int(permutation_size)
    )


# ---------------------------------------------------------------------------------------------
# JAX's _lu_solve


def _lu_solve_core(lu: Any, permutation: Any, b: Any, trans: int) -> Any:
    """Solves `op(P L U) x = b` from the packed factors (`op` by `trans`: 0 none, 1 transpose,
    2 conjugate transpose), `b` of shape `(m, ...)` solved as `m x k` columns."""
    b_shape = get_aval(b).shape
    rows = get_aval(lu).shape[0]
    columns = jnp.reshape(b, (rows, math.prod(b_shape[1:])))

    def lower(x, **kw):  # L has a unit diagonal
        return triangular_solve(lu, x, left_side=True, lower=True, unit_diagonal=True, **kw)

    def upper(x, **kw):
        return triangular_solve(lu, x, left_side=True, lower=False, **kw)

    if trans == 0:  # P L U x = b: permute b's rows, then L, then U
        x = upper(lower(columns[permutation, :]))
    elif trans in (1, 2):  # U^T L^T P^T x = b: U^T, then L^T, then undo the row permutation
        adjoint = {"transpose_a": True, "conjugate_a": trans == 2}
        solved = lower(upper(columns, **adjoint), **adjoint)
        x = jnp.zeros_like(solved).at[permutation, :].set(solved)
    else:
        raise ValueError(f"'trans' value must be 0, 1, or 2, got {trans}")
    return jnp.reshape(x, b_shape)


@library_jit(static_argnums=(3,))
def _lu_solve(lu: Any, permutation: Any, b: Any, trans: int) -> Any:
    lu_shape, b_shape = get_aval(lu).shape, get_aval(b).shape
    if len(lu_shape) < 2 or lu_shape[-1] != lu_shape[-2]:
        raise ValueError(
            f"last two dimensions of LU decomposition must be equal, got shape {lu_shape}"
        )
    if len(b_shape) < 1:
        raise ValueError(f"b matrix must have rank >= 1, got shape {b_shape}")
    rhs_vector = len(lu_shape) == len(b_shape) + 1
    if rhs_vector:
        if b_shape[-1] != lu_shape[-1]:
            raise ValueError(
                "When LU decomposition matrix and b have the same number of dimensions, last "
                f"axis of LU decomposition matrix (shape {lu_shape}) and b array (shape "
                f"{b_shape}) must match"
            )
        b = b[..., None]
    elif b_shape[-2] != lu_shape[-1]:
        raise ValueError(
            "When LU decomposition matrix and b different numbers of dimensions, last axis of "
            f"LU decomposition matrix (shape {lu_shape}) and second to last axis of b array "
            f"(shape {b_shape}) must match"
        )
    p_shape, b_shape = get_aval(permutation).shape, get_aval(b).shape
    batch = jnp.broadcast_shapes(lu_shape[:-2], p_shape[:-1], b_shape[:-2])
    lu = jnp.broadcast_to(lu, (*batch, *lu_shape[-2:]))
    permutation = jnp.broadcast_to(permutation, (*batch, p_shape[-1]))
    b = jnp.broadcast_to(b, (*batch, *b_shape[-2:]))

    def fun(lu: Any, permutation: Any, b: Any) -> Any:
        return _lu_solve_core(lu, permutation, b, trans)

    for _ in batch:
        fun = api.vmap(fun)
    x = fun(lu, permutation, b)
    return x[..., 0] if rhs_vector else x


def lu_solve(lu: Any, permutation: Any, b: Any, trans: int = 0) -> Any:
    """Solves `a x = b` (`trans` 0), `a^T x = b` (1) or `a^H x = b` (2) from `lu(a)`'s factors
    (JAX's `lax.linalg.lu_solve`, with its broadcasting).

    Args:
        lu: the packed factors `(..., n, n)`.
        permutation: the int32 row permutation `(..., n)`.
        b: right-hand sides `(..., n)` (one fewer axis than `lu`) or `(..., n, k)`.
        trans: which system to solve.

    Returns:
        `x`, shaped like `b` (with the broadcast batch axes).
    """
    return _lu_solve(lu, permutation, b, trans)


# ---------------------------------------------------------------------------------------------
# JAX's lax_linalg._solve: jnp.linalg.solve's core (registered with core.numpy.linalg)


def _broadcasted_matvec(a: Any, b: Any) -> Any:
    """`a @ b` of `(..., n, m)` matrices and `(..., m)` vectors, batch axes broadcast."""
    a_shape, b_shape = get_aval(a).shape, get_aval(b).shape
    batch = jnp.broadcast_shapes(a_shape[:-2], b_shape[:-1])
    nb = len(batch)
    a = jnp.broadcast_to(a, (*batch, *a_shape[-2:]))
    b = jnp.broadcast_to(b, (*batch, b_shape[-1]))
    dims = (([nb + 1], [nb]), (list(range(nb)), list(range(nb))))
    return lax.dot_general(a, b, dimension_numbers=dims, precision=lax.Precision.HIGHEST)


def _check_solve_shapes(a_shape: tuple, b_shape: tuple) -> None:
    nd = len(a_shape)
    if not (
        nd >= 2 and len(b_shape) in (nd, nd - 1) and a_shape[-1] == a_shape[-2] == b_shape[nd - 2]
    ):
        raise ValueError(
            "The arguments to solve must have shapes a=[..., m, m] and b=[..., m, k] or "
            f"b=[..., m]; got a={a_shape} and b={b_shape}"
        )


def solve(a: Any, b: Any) -> Any:
    """Solves `a x = b` as JAX's `lax.linalg._solve`: `lu` of `stop_gradient(a)` and a
    `custom_linear_solve` whose solves are `lu_solve`s (the transposed one with `trans=1`), so
    derivatives reuse the factorization.

    Args:
        a: square matrices `(..., m, m)`.
        b: `(..., m)` or `(..., m, k)`, its leading axes of size 1 broadcast to `a`'s.

    Returns:
        `x`, shaped like the broadcast `b`.
    """
    a_shape, b_shape = get_aval(a).shape, get_aval(b).shape
    _check_solve_shapes(a_shape, b_shape)
    out_shape = tuple(
        d_a if d_b == 1 else d_b for d_a, d_b in zip((*a_shape[:-1], 1), b_shape, strict=False)
    )
    b = lax.broadcast_in_dim(b, out_shape, tuple(range(len(b_shape))))
    lu_, _, permutation = lu_p.bind(lax.stop_gradient(a))

    def custom_solve(b: Any) -> Any:
        return lax.custom_linear_solve(
            lambda x: _broadcasted_matvec(a, x),
            b,
            solve=lambda _, x: lu_solve(lu_, permutation, x, trans=0),
            transpose_solve=lambda _, x: lu_solve(lu_, permutation, x, trans=1),
        )

    if len(a_shape) == len(b_shape) + 1:
        return custom_solve(b)
    return api.vmap(custom_solve, len(b_shape) - 1, max(len(a_shape), len(b_shape)) - 1)(b)


def cofactor_solve(a: Any, b: Any) -> tuple[Any, Any]:
    """`(det(a), det(a) solve(a, b))`, finite for singular `a` (JAX's `_cofactor_solve`,
    `jnp.linalg.det`'s jvp): from `a`'s LU factors, the last pivot replaced by the inverse of the
    product of the others, so at rank n - 1 the result is the adjugate times `b`; below rank
    n - 1 (a solve with the factors gives a NaN or an infinity) it is zero.

    Args:
      a: square matrices `(..., m, m)`, possibly singular.
      b: matrices `(..., m, m)`.

    Returns:
      `det(a)` and `adj(a) @ b`.
    """
    (a,) = promote_dtypes_inexact(a)
    (b,) = promote_dtypes_inexact(b)
    a_shape, b_shape = get_aval(a).shape, get_aval(b).shape
    if not (len(a_shape) >= 2 and a_shape[-1] == a_shape[-2] and b_shape[-2:] == a_shape[-2:]):
        raise ValueError(
            "The arguments to _cofactor_solve must have shapes a=[..., m, m] and b=[..., m, m]; "
            f"got a={a_shape} and b={b_shape}"
        )
    if a_shape[-1] == 1:
        return a[..., 0, 0], b
    lu_, pivots, permutation = lu_p.bind(a)
    dtype = get_aval(a).dtype
    batch = jnp.broadcast_shapes(a_shape[:-2], b_shape[:-2])
    x = jnp.broadcast_to(b, (*batch, *b_shape[-2:]))
    lu_ = jnp.broadcast_to(lu_, (*batch, *a_shape[-2:]))
    # the partial determinants: [..., -1] the whole one, [..., -2] det(u) / u_nn
    diag = jnp.diagonal(lu_, axis1=-2, axis2=-1)
    iota = lax.expand_dims(
        jnp.arange(a_shape[-1], dtype=pivots.dtype), tuple(range(pivots.ndim - 1))
    )
    parity = jnp.count_nonzero(pivots != iota, axis=-1)
    sign = jnp.asarray(-2 * (parity % 2) + 1, dtype=dtype)
    partial_det = jnp.cumprod(diag, axis=-1) * sign[..., None]
    lu_ = lu_.at[..., -1, -1].set(1.0 / partial_det[..., -2])
    permutation = jnp.broadcast_to(permutation, (*batch, a_shape[-1]))
    iotas = jnp.ix_(*(lax.iota(np.int32, n) for n in (*batch, 1)))
    # matrices of rank below n - 1 give zeros
    d = jnp.ones(get_aval(x).shape[:-1], get_aval(x).dtype)
    d = triangular_solve(lu_, d, left_side=True, lower=False)
    d = jnp.any(jnp.logical_or(jnp.isnan(d), jnp.isinf(d)), axis=-1)
    d = jnp.tile(d[..., None, None], d.ndim * (1,) + get_aval(x).shape[-2:])
    x = jnp.where(d, jnp.zeros_like(x), x)
    x = x[(*iotas[:-1], permutation, slice(None))]
    x = triangular_solve(lu_, x, left_side=True, lower=True, unit_diagonal=True)
    x = jnp.concatenate(
        (x[..., :-1, :] * partial_det[..., -1, None, None], x[..., -1:, :]), axis=-2
    )
    x = triangular_solve(lu_, x, left_side=True, lower=False)
    x = jnp.where(d, jnp.zeros_like(x), x)
    return partial_det[..., -1], x


jnp_linalg.register_lu_solves(solve, cofactor_solve)
