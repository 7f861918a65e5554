"""`core.numpy.linalg`: norms (compositions) and decompositions (the primitives of
`core/prims/decompositions.py`). Inputs are promoted to the default float dtype like JAX.

As in JAX, `slogdet` and `det` (beyond 3x3) take JAX's `lu` primitive's factors, with JAX's
custom_jvp rules: `tr(a^-1 da)` for `slogdet`, and for `det` JAX's cofactor solve (`det(a)
a^-1 da` from the LU factors, finite at singular matrices: the adjugate's trace at rank n - 1,
zero below). `solve` and `inv` are JAX's LU solve; it and the cofactor solve live in
`core/lax/lu.py` (on `triangular_solve_p`), which sits above this package and registers them
here when it loads.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from core import dtypes
from core.array import Array
from core.avals import ShapeDtypeStruct
from core.callbacks import pure_callback
from core.custom_derivatives import custom_jvp
from core.jit.errors import static_hash_error
from core.jit.library import library_jit
from core.numpy import linalg_ops, shapes
from core.numpy import reductions as r
from core.numpy import ufuncs as uf
from core.numpy._util import (
    broadcast_to,
    canonicalize_axis,
    check_arraylike,
    ensure_array,
    promote_dtypes_inexact,
)
from core.numpy.creation import arange, array, eye
from core.numpy.functional import vectorize
from core.numpy.linalg_ops import matvec  # noqa: F401  (re-exported)
from core.numpy.shapes import expand_dims, moveaxis
from core.numpy.ufuncs import add, exp, multiply
from core.numpy.where import where
from core.prims import decompositions as dec
from core.prims import eig as eig_prim
from core.prims import elementwise as ew
from core.prims import shapes as sh
from core.trace import Tracer, get_aval

__all__ = [
    "EighResult",
    "QRResult",
    "SVDResult",
    "SlogdetResult",
    "cholesky",
    "cond",
    "cross",
    "det",
    "diagonal",
    "eig",
    "eigh",
    "eigvals",
    "eigvalsh",
    "inv",
    "lstsq",
    "matmul",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "matrix_transpose",
    "multi_dot",
    "norm",
    "outer",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "svd",
    "svdvals",
    "tensordot",
    "tensorinv",
    "tensorsolve",
    "trace",
    "vecdot",
    "vector_norm",
]


class SlogdetResult(NamedTuple):
    sign: Any
    logabsdet: Any


class QRResult(NamedTuple):
    Q: Any
    R: Any


class SVDResult(NamedTuple):
    U: Any
    S: Any
    Vh: Any


class EighResult(NamedTuple):
    eigenvalues: Any
    eigenvectors: Any


def _inexact(a: Any) -> Any:
    return promote_dtypes_inexact(ensure_array(a))[0]


def _sum_squares(x: Any, **kwargs: Any) -> Any:
    """The sum of `|x|**2` (of a complex `x`: `real(x * conj(x))`, real, as JAX's)."""
    if get_aval(x).dtype.kind == "c":
        return r.sum(uf.real(uf.multiply(x, uf.conj(x))), **kwargs)
    return r.sum(uf.multiply(x, x), **kwargs)


def vector_norm(x: Any, /, *, axis: Any = None, keepdims: bool = False, ord: Any = 2) -> Any:
    """The vector `ord`-norm over `axis` (all axes when None).

    As JAX's, the max (`inf`), min (`-inf`) and 1-norms keep an integer or boolean input's
    dtype (a boolean's 1-norm counts in the default integer), the 2-norm of one is the root
    of its squares summed in integers (float64 under x64), the 0-norm needs an inexact input
    (JAX's count is of `finfo(x.dtype)`); the other orders are computed in the input's
    inexact dtype.
    """
    check_arraylike("jnp.linalg.vector_norm", x)
    if isinstance(ord, str):
        hint = {"inf": "Use 'jax.numpy.inf' instead.", "-inf": "Use '-jax.numpy.inf' instead."}
        raise ValueError(f"Invalid order '{ord}' for vector norm.{hint.get(ord, '')}")
    x = ensure_array(x) if ord in (np.inf, -np.inf, 0, 1, 2, None) else _inexact(x)
    if ord is None or ord == 2:
        return uf.sqrt(_sum_squares(x, axis=axis, keepdims=keepdims))
    if ord == 0:
        count = dtypes.finfo(get_aval(x).dtype).dtype  # ValueError: "... not inexact"
        return r.sum(uf.not_equal(x, 0), axis=axis, keepdims=keepdims, dtype=count)
    a = uf.abs(x)
    if ord == np.inf:  # as JAX, with initial 0: a zero vector's derivative halves at the tie
        return r.max(a, axis=axis, keepdims=keepdims, initial=0)
    if ord == -np.inf:
        return r.min(a, axis=axis, keepdims=keepdims)
    if ord == 1:
        return r.sum(a, axis=axis, keepdims=keepdims)
    p = float(ord)
    return uf.power(r.sum(uf.power(a, p), axis=axis, keepdims=keepdims), 1.0 / p)


def matrix_norm(x: Any, /, *, keepdims: bool = False, ord: Any = "fro") -> Any:
    """The matrix norm of the last two axes ("fro", "nuc", 1, -1, 2, -2, inf, -inf)."""
    check_arraylike("jnp.linalg.matrix_norm", x)
    return norm(x, ord=ord, axis=(-2, -1), keepdims=keepdims)


@library_jit(static_argnames=("ord", "axis", "keepdims"))
def norm(x: Any, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Any:
    """Vector or matrix norm, like `numpy.linalg.norm`."""
    check_arraylike("jnp.linalg.norm", x)
    x = _inexact(x)
    nd = get_aval(x).ndim
    if axis is None:
        if ord is None:
            out = uf.sqrt(_sum_squares(x))
            return out.reshape((1,) * nd) if keepdims else out
        axis = tuple(range(nd))
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    axes = tuple(canonicalize_axis(a, nd) for a in axes)
    if len(axes) == 1:
        return vector_norm(x, axis=axes[0], keepdims=keepdims, ord=2 if ord is None else ord)
    if len(axes) != 2:
        raise ValueError(f"Invalid axis {axis} for norm: give one or two axes")
    r0, c0 = axes
    if ord is None or ord == "fro":
        return uf.sqrt(_sum_squares(x, axis=axes, keepdims=keepdims))
    a = uf.abs(x)
    if ord in (1, -1):
        col = r.sum(a, axis=r0, keepdims=True)
        fn = functools.partial(r.max, initial=0.0) if ord == 1 else r.min  # JAX's: 0 if empty
        out = fn(col, axis=(r0, c0), keepdims=True)
    elif ord in (np.inf, -np.inf):
        row = r.sum(a, axis=c0, keepdims=True)
        fn = functools.partial(r.max, initial=0.0) if ord == np.inf else r.min
        out = fn(row, axis=(r0, c0), keepdims=True)
    elif ord in (2, -2, "nuc"):
        s = dec.svd(moveaxis(x, (r0, c0), (-2, -1)), compute_uv=False)
        if ord == 2:  # JAX's: 0 for an empty matrix (singular values are never negative)
            out = r.max(s, axis=-1, initial=0.0)
        else:
            out = {-2: r.min, "nuc": r.sum}[ord](s, axis=-1)
        if keepdims:
            out = expand_dims(out, sorted(axes))
        return out
    else:
        raise ValueError(f"Invalid order '{ord}' for matrix norm.")
    if keepdims:
        return out
    return out.reshape(tuple(d for i, d in enumerate(get_aval(out).shape) if i not in axes))


@library_jit
def inv(a: Any) -> Any:
    """The inverse of square matrices (last two axes): `solve(a, I)`, as JAX's."""
    check_arraylike("jnp.linalg.inv", a)
    arr = ensure_array(a)
    shape = get_aval(arr).shape
    if len(shape) < 2 or shape[-1] != shape[-2]:
        raise ValueError(f"Argument to inv must have shape [..., n, n], got {shape}.")
    identity = eye(shape[-1], dtype=get_aval(arr).dtype)
    return solve(arr, sh.broadcast_in_dim(identity, shape, (len(shape) - 2, len(shape) - 1)))


def _slogdet_small_values(a: Any) -> tuple[Any, Any]:
    """JAX's analytic slogdet of 1x1 and 2x2 matrices (no LU)."""
    if get_aval(a).shape[-1] == 1:
        det_ = a[..., 0, 0]
    else:
        a00, a01, a10, a11 = a[..., 0, 0], a[..., 0, 1], a[..., 1, 0], a[..., 1, 1]
        det_ = a00 * a11 - a01 * a10
    abs_det = uf.abs(det_)
    return uf.sign(det_), uf.real(uf.log(abs_det))


def _with_slogdet_jvp(sign: Any, ans: Any, ans_dot: Any, x: Any) -> tuple[tuple, tuple]:
    """JAX's tangents of `(sign, log|det|)` from `tr(x^-1 dx)`: the sign's is zero for real
    `x`, the imaginary part of the trace (times the sign) for complex `x`."""
    if get_aval(x).dtype.kind == "c":
        sign_dot = multiply(ans_dot - uf.real(ans_dot).astype(get_aval(ans_dot).dtype), sign)
        ans_dot = uf.real(ans_dot)
    else:
        sign_dot = sh.zeros_like(sign)
    return (sign, ans), (sign_dot, ans_dot)


@custom_jvp
def _slogdet_small(a: Any) -> tuple[Any, Any]:
    return _slogdet_small_values(a)


@_slogdet_small.defjvp
def _slogdet_small_jvp(primals: tuple, tangents: tuple) -> tuple[tuple, tuple]:
    (x,), (g,) = primals, tangents
    sign, ans = _slogdet_small(x)
    if get_aval(x).shape[-1] == 1:
        ans_dot = g[..., 0, 0] / x[..., 0, 0]
    else:
        x00, x01, x10, x11 = x[..., 0, 0], x[..., 0, 1], x[..., 1, 0], x[..., 1, 1]
        det_ = x00 * x11 - x01 * x10
        ans_dot = (g[..., 0, 0] * x11 - g[..., 0, 1] * x10 - g[..., 1, 0] * x01
                   + g[..., 1, 1] * x00) / det_  # fmt: skip
    return _with_slogdet_jvp(sign, ans, ans_dot, x)


@custom_jvp
def _slogdet_lu(a: Any) -> tuple[Any, Any]:
    """JAX's: the diagonal of `U` gives `log|det|` and, with the parity of the row swaps, the
    sign (zero, and `-inf`, when a pivot is zero)."""
    dtype = get_aval(a).dtype
    lu_, pivot, _ = dec.lu_p.bind(a)
    diag = linalg_ops.diagonal(lu_, 0, -2, -1)
    is_zero = r.any(diag == array(0, dtype=dtype), axis=-1)
    iota = expand_dims(
        arange(get_aval(a).shape[-1], dtype=pivot.dtype), tuple(range(pivot.ndim - 1))
    )
    parity = r.count_nonzero(pivot != iota, axis=-1)
    if dtype.kind == "c":
        sign = r.prod(diag / uf.abs(diag).astype(diag.dtype), axis=-1)
    else:
        sign = array(1, dtype=dtype)
        parity = parity + r.count_nonzero(diag < 0, axis=-1)
    sign = where(is_zero, array(0, dtype=dtype), sign * array(-2 * (parity % 2) + 1, dtype=dtype))
    logdet = where(
        is_zero, array(-np.inf, dtype=dtype), r.sum(uf.log(uf.abs(diag)).astype(dtype), axis=-1)
    )
    return sign, uf.real(logdet)


@_slogdet_lu.defjvp
def _slogdet_jvp(primals: tuple, tangents: tuple) -> tuple[tuple, tuple]:
    (x,), (g,) = primals, tangents
    sign, ans = slogdet(x)
    ans_dot = linalg_ops.trace(solve(x, g), 0, -1, -2)
    return _with_slogdet_jvp(sign, ans, ans_dot, x)


@library_jit(static_argnames=("method",))
def slogdet(a: Any, *, method: str | None = None) -> SlogdetResult:
    """`SlogdetResult(sign, logabsdet)` of square matrices.

    Args:
      a: array of shape `(..., n, n)`.
      method: "lu" (None: JAX's analytic formulas for n = 1, 2, else LU, `lu_p`) or "qr"
        (Householder QR: the product of R's diagonal, its sign flipped by every reflection
        made; real matrices only), as JAX's.

    Returns:
      The sign (or phase) and the log of the absolute value of the determinant.
    """
    check_arraylike("jnp.linalg.slogdet", a)
    a = _inexact(a)
    shape = get_aval(a).shape
    if len(shape) < 2 or shape[-1] != shape[-2]:
        raise ValueError(f"Argument to slogdet() must have shape [..., n, n], got {shape}")
    if method is None or method == "lu":
        if shape[-1] in (1, 2):
            return SlogdetResult(*_slogdet_small(a))
        return SlogdetResult(*_slogdet_lu(a))
    if method != "qr":
        raise ValueError(
            f"Unknown slogdet method '{method}'. Supported methods are 'lu' (`None`), and 'qr'."
        )
    if get_aval(a).dtype.kind == "c":
        raise NotImplementedError("slogdet method='qr' not implemented for complex inputs")
    n = get_aval(a).shape[-1]
    h, taus = _qr_raw(a)
    diag = linalg_ops.diagonal(h, 0, -2, -1)
    logabsdet = r.sum(uf.log(uf.abs(diag)), axis=-1)
    sign = r.prod(uf.sign(diag), axis=-1)
    flips = r.prod(where(taus[..., : n - 1] != 0, -1, 1), axis=-1).astype(get_aval(sign).dtype)
    return SlogdetResult(multiply(sign, flips), logabsdet)


def _det_small(a: Any) -> Any:
    """The determinant of 2x2 or 3x3 matrices by the explicit products (JAX's `_det_2x2`,
    `_det_3x3`), differentiated through them."""
    e = lambda i, j: a[..., i, j]  # noqa: E731
    if get_aval(a).shape[-1] == 2:
        return e(0, 0) * e(1, 1) - e(0, 1) * e(1, 0)
    return (
        e(0, 0) * e(1, 1) * e(2, 2)
        + e(0, 1) * e(1, 2) * e(2, 0)
        + e(0, 2) * e(1, 0) * e(2, 1)
        - e(0, 2) * e(1, 1) * e(2, 0)
        - e(0, 0) * e(1, 2) * e(2, 1)
        - e(0, 1) * e(1, 0) * e(2, 2)
    )


@custom_jvp
def _det(a: Any) -> Any:
    sign, logdet = slogdet(a)
    return sign * exp(logdet).astype(sign.dtype)


@_det.defjvp
def _det_jvp(primals: tuple, tangents: tuple) -> tuple[Any, Any]:
    # JAX's: det(x) tr(x^-1 g) as the trace of the cofactor solve (finite at singular x)
    (x,), (g,) = primals, tangents
    y, z = _LU_SOLVES["cofactor_solve"](x, g)
    return y, linalg_ops.trace(z, 0, -1, -2)


@library_jit
def det(a: Any) -> Any:
    """The determinant of square matrices, as JAX's: 2x2 and 3x3 ones by the explicit products
    (also for float16/bfloat16, which LU does not take), larger ones from `slogdet` with JAX's
    custom jvp (the cofactor solve, so gradients at singular matrices are the adjugate's).

    Args:
      a: array of shape `(..., n, n)`.

    Returns:
      The determinants, shaped `a.shape[:-2]`.
    """
    check_arraylike("jnp.linalg.det", a)
    a = _inexact(a)
    shape = get_aval(a).shape
    if len(shape) >= 2 and shape[-2:] in ((2, 2), (3, 3)):
        return _det_small(a)
    if len(shape) >= 2 and shape[-1] == shape[-2]:
        return _det(a)
    raise ValueError(f"Argument to _det() must have shape [..., n, n], got {shape}")


def _symmetrize(a: Any) -> Any:
    """`(a + a^H) / 2`: the Hermitian part, which JAX decomposes (so gradients are Hermitian)."""
    return uf.true_divide(add(a, _h(a)), 2)


def tril_factor(a: Any, k: int = 0) -> Any:
    """`a` with zeros above its `k`-th diagonal (of its last two axes), as JAX's
    `lax.linalg._tril` masks the factor of `cholesky_p`: `iota(0) + k >= iota(1)` selects it."""
    aval = get_aval(a)
    *lead, n, m = aval.shape
    rows = ew.add(sh.iota(np.int32, (n, m), 0), np.int32(k))
    mask = ew.ge(rows, sh.iota(np.int32, (n, m), 1))
    nd = len(lead)
    mask = sh.broadcast_in_dim(mask, aval.shape, (nd, nd + 1))
    return ew.select_n(mask, ew.full_like(a, 0), a)


def _h(a: Any) -> Any:
    """The conjugate transpose of the last two axes: `lax.transpose` with JAX's permutation, so
    an operand of fewer than two axes raises JAX's TypeError (its permutation's negative
    entries are not axes)."""
    nd = get_aval(a).ndim
    t = sh.transpose(a, (*range(nd - 2), nd - 1, nd - 2))
    return uf.conjugate(t) if get_aval(a).dtype.kind == "c" else t


@library_jit(static_argnames=("upper", "symmetrize_input"))
def cholesky(a: Any, *, upper: bool = False, symmetrize_input: bool = True) -> Any:
    """The Cholesky factor (lower by default; NaNs when `a` is not positive definite) of the
    Hermitian part of `a` (of its lower triangle with `symmetrize_input=False`)."""
    check_arraylike("jnp.linalg.cholesky", a)
    a = _inexact(a)
    low = tril_factor(dec.cholesky(_symmetrize(a) if symmetrize_input else a))
    return _h(low) if upper else low


def _qr_raw_host(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    h, taus = np.linalg.qr(np.asarray(x), mode="raw")
    return h.astype(x.dtype), taus.astype(x.dtype)


def _qr_raw(a: Any) -> tuple[Any, Any]:
    """LAPACK's geqrf on the host (numpy's raw mode, through `pure_callback`: eagerly, under
    `jit` and `vmap`; not differentiable, as JAX's): `h` is `(..., n, m)` (transposed), R on
    and above its diagonal, the Householder reflectors below, and their factors `taus`."""
    *b, m, n = get_aval(a).shape
    shapes = (
        ShapeDtypeStruct((*b, n, m), get_aval(a).dtype),
        ShapeDtypeStruct((*b, min(m, n)), get_aval(a).dtype),
    )
    return pure_callback(_qr_raw_host, shapes, a, vmap_method="broadcast_all")


@library_jit(static_argnames=("mode",))
def qr(a: Any, mode: str = "reduced") -> Any:
    """QR decomposition; `mode` is "reduced" ("full" is its old NumPy name, as JAX takes it),
    "complete", "r" or "raw" (`(h, taus)`: LAPACK's Householder form, `h` transposed, for
    `lax.linalg.ormqr(h.mT, taus, c)`)."""
    check_arraylike("jnp.linalg.qr", a)
    if mode not in ("reduced", "full", "complete", "r", "raw"):
        raise ValueError(f"Unsupported QR decomposition mode {mode!r}")
    if mode == "raw":
        return _qr_raw(_inexact(a))
    q, r = dec.qr(_inexact(a), full_matrices=mode == "complete")
    return r if mode == "r" else QRResult(q, r)


@library_jit(static_argnames=("full_matrices", "compute_uv", "hermitian", "subset_by_index"))
def svd(
    a: Any,
    full_matrices: bool = True,
    compute_uv: bool = True,
    hermitian: bool = False,
    subset_by_index: tuple[int, int] | None = None,
) -> Any:
    """Singular value decomposition `SVDResult(U, S, Vh)`, or `S` alone.

    Args:
      a: array of shape `(..., m, n)`.
      full_matrices: square `U` and `Vh` (else `k = min(m, n)` columns/rows).
      compute_uv: also compute `U` and `Vh`.
      hermitian: accepted (the general SVD is computed).
      subset_by_index: TPU-only in JAX; on the CPU only None (else NotImplementedError, as
        JAX's CPU back end).

    Returns:
      `SVDResult(U, S, Vh)`, or `S`.
    """
    check_arraylike("jnp.linalg.svd", a)
    if subset_by_index is not None:
        raise NotImplementedError("subset_by_index not implemented for CPU and GPU")
    out = dec.svd(_inexact(a), full_matrices, compute_uv)
    return SVDResult(*out) if compute_uv else out


def diagonal(x: Any, /, *, offset: int = 0) -> Any:
    """The `offset` diagonals of the matrices on the last two axes (`jnp.diagonal` reads axes 0
    and 1)."""
    check_arraylike("jnp.linalg.diagonal", x)
    return linalg_ops.diagonal(x, offset, -2, -1)


def trace(x: Any, /, *, offset: int = 0, dtype: Any = None) -> Any:
    """The sums of the `offset` diagonals of the matrices on the last two axes."""
    check_arraylike("jnp.linalg.trace", x)
    return linalg_ops.trace(x, offset, -2, -1, dtype)


def svdvals(x: Any, /) -> Any:
    check_arraylike("jnp.linalg.svdvals", x)
    return svd(x, compute_uv=False)


@library_jit(static_argnames=("UPLO", "symmetrize_input"))
def eigh(a: Any, UPLO: str | None = None, symmetrize_input: bool = True) -> EighResult:
    """`EighResult(eigenvalues, eigenvectors)` of symmetric matrices (eigenvalues ascending)."""
    check_arraylike("jnp.linalg.eigh", a)
    if UPLO not in (None, "L", "U"):
        raise ValueError(
            f"UPLO must be one of None, 'L', or 'U', got {UPLO}\nUPLO names the triangle read: "
            "'L' (lower, the default) or 'U' (upper)."
        )
    a = _inexact(a)
    if symmetrize_input:
        a = _symmetrize(a)
    v, w = dec.eigh(a, lower=UPLO in (None, "L"))
    return EighResult(w, v)


class EigResult(NamedTuple):
    eigenvalues: Any
    eigenvectors: Any


def eig(a: Any) -> EigResult:
    """Eigenvalues and right eigenvectors of general square matrices (complex results).

    Args:
      a: array of shape `(..., n, n)`; integers are promoted to the default float.

    Returns:
      `EigResult(eigenvalues, eigenvectors)` with `a @ v[..., :, i] = w[..., i] v[..., :, i]`;
      only the eigenvalues are differentiable (as in JAX).
    """
    check_arraylike("jnp.linalg.eig", a)
    w, v = eig_prim.eig(_inexact(a), compute_left_eigenvectors=False)
    return EigResult(w, v)


@library_jit
def eigvals(a: Any) -> Any:
    """Eigenvalues of general square matrices (complex, differentiable)."""
    check_arraylike("jnp.linalg.eigvals", a)
    (w,) = eig_prim.eig(
        _inexact(a), compute_left_eigenvectors=False, compute_right_eigenvectors=False
    )
    return w


@library_jit(static_argnames=("UPLO", "symmetrize_input"))
def eigvalsh(a: Any, UPLO: str | None = "L", *, symmetrize_input: bool = True) -> Any:
    """The eigenvalues of symmetric matrices, ascending (see `eigh`)."""
    check_arraylike("jnp.linalg.eigvalsh", a)
    return eigh(a, UPLO, symmetrize_input)[0]


# JAX's `lax_linalg._solve` (lu and a custom_linear_solve of triangular solves) and its
# `_cofactor_solve`, registered by `core/lax/lu.py`, which builds on this package (`import core`
# loads it).
_LU_SOLVES: dict[str, Callable[[Any, Any], Any]] = {}


def register_lu_solves(
    solve: Callable[[Any, Any], Any], cofactor_solve: Callable[[Any, Any], tuple[Any, Any]]
) -> None:
    """Registers the solves on LU factors that this package's functions call.

    Args:
      solve: `solve(a, b)`, the solve of one system (`b` a vector or a matrix), for `solve`.
      cofactor_solve: `cofactor_solve(a, b) -> (det(a), adj(a) @ b)` for `det`'s jvp.
    """
    _LU_SOLVES.update(solve=solve, cofactor_solve=cofactor_solve)


@library_jit
def solve(a: Any, b: Any) -> Any:
    """Solves `a @ x = b` (`b` a vector or a stack of matrices), as JAX's: LU with partial
    pivoting and two triangular solves (`core/lax/lu.py`), mapped over the batch axes.

    Args:
      a: square matrices `(..., n, n)`.
      b: `(n,)` or `(..., n, k)`.

    Returns:
      `x`, `(..., n)` or `(..., n, k)`.
    """
    check_arraylike("jnp.linalg.solve", a, b)
    a, b = promote_dtypes_inexact(a, b)
    a_shape, b_shape = get_aval(a).shape, get_aval(b).shape
    if len(a_shape) < 2:
        raise ValueError(f"left hand array must be at least two dimensional; got a.shape={a_shape}")
    if (
        len(b_shape) > 1
        and len(a_shape) == len(b_shape) + 1
        and a_shape[-1] == b_shape[-1]
        and a_shape[-1] != b_shape[-2]
    ):
        raise ValueError(
            f"Invalid shapes for solve: {a_shape}, {b_shape}. Prior to JAX v0.5.0, this would "
            "have been treated as a batched 1-dimensional solve. To recover this behavior, use "
            "solve(a, b[..., None]).squeeze(-1)."
        )
    signature = "(m,m),(m)->(m)" if len(b_shape) == 1 else "(m,m),(m,n)->(m,n)"
    return vectorize(_LU_SOLVES["solve"], signature=signature)(a, b)


def pinv(a: Any, rtol: Any = None, hermitian: bool = False, *, rcond: Any = None) -> Any:
    """The Moore-Penrose pseudo-inverse, from the SVD as in NumPy and JAX.

    Args:
      a: array of shape `(..., m, n)`.
      rtol: singular values up to `rtol` times the largest count as zero (default
        `10 * max(m, n) * eps`); `rcond` is its older name.
      hermitian: accepted for NumPy compatibility (the SVD is used either way).

    Returns:
      The `(..., n, m)` pseudo-inverse.
    """
    check_arraylike("jnp.linalg.pinv", a)
    if rcond is not None:
        if rtol is not None:
            raise ValueError("pinv: only one of rtol and rcond may be specified.")
        rtol = rcond
    a = _inexact(a)
    dtype = get_aval(a).dtype
    m, n = get_aval(a).shape[-2:]
    if rtol is None:
        rtol = 10.0 * max(m, n) * float(np.finfo(dtype).eps)
    u, s, vh = dec.svd(a, False, True)
    rtol = expand_dims(ensure_array(rtol), -1)
    rtol = rtol.reshape((1,) * (get_aval(s).ndim - get_aval(rtol).ndim) + get_aval(rtol).shape)
    cutoff = multiply(rtol, s[..., 0:1])  # equal ranks: no rank promotion
    s = where(s > cutoff, s, np.inf).astype(dtype)  # no implicit real-to-complex promotion
    return matmul(_h(vh), uf.divide(_h(u), expand_dims(s, -1)))


def lstsq(a: Any, b: Any, rcond: Any = None, *, numpy_resid: bool = False) -> tuple:
    """The least-squares solution of `a @ x = b`, from the SVD of `a` as in JAX.

    Args:
      a: `(m, n)` matrix.
      b: `(m,)` or `(m, k)` right-hand side.
      rcond: relative cutoff for small singular values (default `eps * max(m, n)`).
      numpy_resid: give empty residuals where NumPy does (rank < n or m <= n).

    Returns:
      `(x, residuals, rank, s)`; the residuals are the squared norms of `b - a @ x` per column.
    """
    check_arraylike("jnp.linalg.lstsq", a, b)
    a, b = promote_dtypes_inexact(a, b)
    sa, sb = get_aval(a).shape, get_aval(b).shape
    if sa[0] != sb[0]:
        raise ValueError("Leading dimensions of input arrays must match")
    if len(sa) != 2:
        raise TypeError(f"{len(sa)}-dimensional array given. Array must be two-dimensional")
    if len(sb) not in (1, 2):
        raise TypeError(f"{len(sb)}-dimensional array given. Array must be one or two-dimensional")
    m, n = sa
    vector = len(sb) == 1
    if vector:
        b = expand_dims(b, 1)
    eps = float(np.finfo(get_aval(a).dtype).eps)
    rcond = eps * max(m, n) if rcond is None else where(ensure_array(rcond) < 0, eps, rcond)
    u, s, vt = dec.svd(a, False, True)
    mask = (s > 0) & (s >= multiply(rcond, s[:1]))  # (s[:1]: no singular values for 0 rows)
    rank = r.sum(mask)
    safe_s = where(mask, s, 1).astype(get_aval(a).dtype)  # no implicit real-to-complex promotion
    s_inv = expand_dims(where(mask, uf.divide(1, safe_s), 0), 1)
    x = matmul(_h(vt), multiply(s_inv, matmul(_h(u), b)))
    if numpy_resid and (int(rank) < n or m <= n):
        resid = ensure_array(np.zeros(0, get_aval(a).dtype))
    else:
        resid = uf.square(norm(uf.subtract(b, matmul(a, x)), axis=0))
    return (x.ravel() if vector else x), resid, rank, s


def matrix_rank(M: Any, rtol: Any = None, *, hermitian: bool = False, tol: Any = None) -> Any:
    """The number of singular values above `rtol` (default `max(m, n) * eps` times the largest).

    Args:
      M: array of shape `(..., m, n)` (a vector has rank 1 unless it is all zeros).
      rtol: the cutoff relative to the largest singular value; `tol` is its older name.
      hermitian: accepted for NumPy compatibility.

    Returns:
      int32 ranks of shape `M.shape[:-2]`.
    """
    check_arraylike("jnp.linalg.matrix_rank", M)
    if tol is not None:
        if rtol is not None:
            raise ValueError("matrix_rank: only one of tol or rtol may be specified.")
        rtol = tol
    M = _inexact(M)
    aval = get_aval(M)
    if aval.ndim < 2:
        return r.any(M != 0).astype(np.int32)
    s = dec.svd(M, False, False)
    if rtol is None:
        rtol = multiply(r.max(s, axis=-1), max(aval.shape[-2:]) * float(np.finfo(aval.dtype).eps))
    return r.sum(s > expand_dims(ensure_array(rtol), -1), axis=-1)


def cond(x: Any, p: Any = None) -> Any:
    """The condition number of matrices in the `p`-norm (2 by default), as in JAX.

    Args:
      x: array of shape `(..., m, n)`; square unless `p` is None, 2 or -2.
      p: the norm (None, 2, -2, "fro", "nuc", 1, -1, inf, -inf).

    Returns:
      The condition numbers; inf (not NaN) for singular matrices without NaNs.
    """
    check_arraylike("cond", x)
    x = _inexact(x)
    shape = get_aval(x).shape
    if len(shape) < 2:
        raise ValueError(f"jnp.linalg.cond: input array must be at least 2D; got arr.shape={shape}")
    if shape[-1] == 0 or shape[-2] == 0:
        raise ValueError(f"jnp.linalg.cond: input array must not be empty; got arr.shape={shape}")
    if p is None or p == 2:
        s = dec.svd(x, False, False)
        return uf.divide(s[..., 0], s[..., -1])
    if p == -2:
        s = dec.svd(x, False, False)
        out = uf.divide(s[..., -1], s[..., 0])
    else:
        if shape[-2] != shape[-1]:
            raise ValueError(f"jnp.linalg.cond: for {p=}, array must be square; got {shape=}")
        out = multiply(norm(x, ord=p, axis=(-2, -1)), norm(inv(x), ord=p, axis=(-2, -1)))
    return where(uf.isnan(out) & ~r.any(uf.isnan(x), axis=(-2, -1)), np.inf, out)


def tensorinv(a: Any, ind: int = 2) -> Any:
    """The inverse of `a` for `tensordot(..., ind)`: shape `a.shape[ind:] + a.shape[:ind]`."""
    check_arraylike("tensorinv", a)
    a = _inexact(a)
    shape = get_aval(a).shape
    if ind <= 0:
        raise ValueError(f"ind must be a positive integer; got {ind=}")
    rows, cols = int(np.prod(shape[:ind])), int(np.prod(shape[ind:]))
    if rows != cols:
        raise ValueError(  # JAX 0.10.2's words
            "tensorinv is only possible when the product of the first `ind` dimensions equals "
            f"that of the remaining dimensions. got arr.shape={shape} with {ind=}."
        )
    return inv(a.reshape(rows, cols)).reshape(shape[ind:] + shape[:ind])


def tensorsolve(a: Any, b: Any, axes: tuple[int, ...] | None = None) -> Any:
    """The `x` with `tensordot(a, x, x.ndim) == b`.

    Args:
      a: array whose leading axes match `b.shape` and whose trailing axes give `x`'s shape.
      b: right-hand side.
      axes: axes of `a` moved to the end first.

    Returns:
      `x` of shape `a.shape[b.ndim:]`.
    """
    check_arraylike("tensorsolve", a, b)
    a, b = promote_dtypes_inexact(a, b)
    if axes is not None:
        nd = get_aval(a).ndim
        axes = [canonicalize_axis(ax, nd) for ax in axes]
        a = moveaxis(a, axes, range(nd - len(axes), nd))
    a_shape, b_shape = get_aval(a).shape, get_aval(b).shape
    out_shape = a_shape[len(b_shape) :]
    size = int(np.prod(out_shape))
    # JAX 0.10.2's checks and words
    if a_shape[: len(b_shape)] != b_shape:
        raise ValueError(
            "After moving axes to end, leading shape of a must match shape of b. got "
            f"a.shape={a_shape}, b.shape={b_shape}"
        )
    if size != int(np.prod(b_shape)):
        raise ValueError(
            "Input arrays must have prod(a.shape[:b.ndim]) == prod(a.shape[b.ndim:]); got "
            f"a.shape={a_shape}, b.ndim={len(b_shape)}."
        )
    return solve(a.reshape(size, size), b.ravel()).reshape(out_shape)


@library_jit(static_argnames=("n",))
def matrix_power(a: Any, n: int) -> Any:
    """`a` multiplied by itself `n` times (negative `n` inverts first), the products in
    JAX's order (`(a @ a) @ a` for 3; then squarings, the result multiplied on the right), so
    the last bits are JAX's."""
    check_arraylike("jnp.linalg.matrix_power", a)
    a = ensure_array(a)
    shape = get_aval(a).shape
    if len(shape) < 2:
        raise TypeError(
            f"{len(shape)}-dimensional array given. Array must be at least two-dimensional"
        )
    if shape[-2] != shape[-1]:
        raise TypeError("Last 2 dimensions of the array must be square")
    if isinstance(n, (Array, Tracer)):  # JAX's n is a static argument of its jit
        raise static_hash_error(n, matrix_power)
    try:
        n = operator.index(n)
    except TypeError as err:
        raise TypeError(f"exponent must be an integer, got {n}") from err
    if n == 0:
        return broadcast_to(eye(shape[-1], dtype=get_aval(a).dtype), shape)
    if n < 0:
        a, n = inv(a), -n
    if n <= 3:
        return (a, matmul(a, a), matmul(matmul(a, a), a))[n - 1]
    z = result = None
    while n > 0:
        z = a if z is None else matmul(z, z)
        n, bit = divmod(n, 2)
        if bit:
            result = z if result is None else matmul(result, z)
    return result


def multi_dot(arrays: Any, *, precision: Any = None) -> Any:
    """The product of a chain of matrices (`jnp.linalg.multi_dot`), multiplied in the order
    that needs the fewest flops (the matrix-chain dynamic program), as JAX's einsum orders it.

    Args:
        arrays: 2-D arrays; the first and last may be 1-D (a row and a column vector).
        precision: passed to each `matmul`.

    Returns:
        The product (1-D or 0-D where the end arrays are vectors).
    """
    check_arraylike("jnp.linalg.multi_dot", *arrays)
    if len(arrays) == 1:
        # JAX's ensure_arraylike returns a lone argument unwrapped: a one-array list is
        # taken as the list of that array's rows
        arrays = arrays[0]
    arrs = [ensure_array(a) for a in arrays]
    shapes_ = [get_aval(a).shape for a in arrs]
    if len(arrs) < 2:
        raise ValueError(f"multi_dot requires at least two arrays; got len(arrays)={len(arrs)}")
    if not (
        len(shapes_[0]) in (1, 2)
        and len(shapes_[-1]) in (1, 2)
        and all(len(sh_) == 2 for sh_ in shapes_[1:-1])
    ):
        raise ValueError(
            "multi_dot: input arrays must all be two-dimensional, except for the first and last "
            f"array which may be 1 or 2 dimensional. Got array shapes {shapes_}"
        )
    if any(a[-1] != b[0] for a, b in zip(shapes_[:-1], shapes_[1:])):
        raise ValueError(
            "multi_dot: last dimension of each array must match first dimension of following "
            f"array. Got array shapes {shapes_}"
        )
    # p[i], p[i + 1]: the rows and columns of array i (a vector end counts as size 1)
    p = [shapes_[0][0] if len(shapes_[0]) == 2 else 1] + [s_[-1] for s_ in shapes_[:-1]]
    p.append(shapes_[-1][-1] if len(shapes_[-1]) == 2 else 1)
    n = len(arrs)
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j], split[i][j] = min(
                (cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1], k) for k in range(i, j)
            )

    def product(i: int, j: int) -> Any:
        if i == j:
            return arrs[i]
        k = split[i][j]
        return linalg_ops.matmul(product(i, k), product(k + 1, j), precision=precision)

    return product(0, n - 1)


# The array API's spellings of `jnp` functions, with JAX's names in their argument errors.


def matmul(
    x1: Any, x2: Any, /, *, precision: Any = None, preferred_element_type: Any = None
) -> Any:
    """`jnp.matmul` under the array API's name."""
    check_arraylike("jnp.linalg.matmul", x1, x2)
    return linalg_ops.matmul(
        x1, x2, precision=precision, preferred_element_type=preferred_element_type
    )


def outer(x1: Any, x2: Any, /) -> Any:
    """The outer product of two vectors (JAX's `jnp.linalg.outer` refuses other ranks; use
    `jnp.outer`, which flattens, for them)."""
    check_arraylike("jnp.linalg.outer", x1, x2)
    n1, n2 = get_aval(ensure_array(x1)).ndim, get_aval(ensure_array(x2)).ndim
    if n1 != 1 or n2 != 1:
        raise ValueError(
            f"Input arrays must be one-dimensional, but they are x1.ndim={n1} x2.ndim={n2}\n"
            "Use jnp.outer to flatten them first."
        )
    return linalg_ops.outer(x1, x2)


def cross(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
    """`jnp.cross` of 3-vectors along `axis` (the array API's: no 2-vectors, as JAX's; JAX
    names its argument errors after `outer`)."""
    check_arraylike("jnp.linalg.outer", x1, x2)
    s1, s2 = get_aval(ensure_array(x1)).shape, get_aval(ensure_array(x2)).shape
    if s1[axis] != 3 or s2[axis] != 3:
        raise ValueError(
            "Both input arrays must be (arrays of) 3-dimensional vectors, but they have "
            f"x1.shape[axis]={s1[axis]} and x2.shape[axis]={s2[axis]}\nUse jnp.cross for "
            "2-vectors."
        )
    return linalg_ops.cross(x1, x2, axis=axis)


def tensordot(
    x1: Any,
    x2: Any,
    /,
    *,
    axes: Any = 2,
    precision: Any = None,
    preferred_element_type: Any = None,
    out_sharding: Any = None,
) -> Any:
    """`jnp.tensordot` under the array API's name."""
    check_arraylike("jnp.linalg.tensordot", x1, x2)
    return linalg_ops.tensordot(
        x1,
        x2,
        axes,
        precision=precision,
        preferred_element_type=preferred_element_type,
        out_sharding=out_sharding,
    )


def vecdot(
    x1: Any,
    x2: Any,
    /,
    *,
    axis: int = -1,
    precision: Any = None,
    preferred_element_type: Any = None,
) -> Any:
    """`jnp.vecdot` under the array API's name."""
    check_arraylike("jnp.linalg.vecdot", x1, x2)
    return linalg_ops.vecdot(
        x1, x2, axis=axis, precision=precision, preferred_element_type=preferred_element_type
    )


def matrix_transpose(x: Any, /) -> Any:
    """Swaps the last two axes."""
    check_arraylike("jnp.linalg.matrix_transpose", x)
    return shapes.matrix_transpose(x)
