"""`core.numpy.linalg`: norms (compositions) and decompositions (the primitives of
`core/prims/decompositions.py`). Inputs are promoted to the default float dtype like JAX."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from core.numpy import reductions as r
from core.numpy import ufuncs as uf
from core.numpy._util import canonicalize_axis, ensure_array, promote_dtypes_inexact
from core.numpy.creation import eye
from core.numpy.linalg_ops import diagonal, matmul, matvec, outer, trace, vecdot  # noqa: F401
from core.numpy.shapes import broadcast_to, expand_dims, matrix_transpose, moveaxis
from core.numpy.ufuncs import add, exp, multiply
from core.prims import decompositions as dec
from core.prims import eig as eig_prim
from core.trace import get_aval

__all__ = [
    "cholesky",
    "det",
    "diagonal",
    "eig",
    "eigh",
    "eigvals",
    "eigvalsh",
    "inv",
    "matmul",
    "matrix_norm",
    "matrix_power",
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
    "trace",
    "vecdot",
    "vector_norm",
]


def _inexact(a: Any) -> Any:
    return promote_dtypes_inexact(ensure_array(a))[0]


def vector_norm(x: Any, /, *, axis: Any = None, keepdims: bool = False, ord: Any = 2) -> Any:
    """The vector `ord`-norm over `axis` (all axes when None)."""
    x = _inexact(x)
    if axis is None:
        shape = get_aval(x).shape
        x = x.ravel()
        out = vector_norm(x, axis=0, ord=ord)
        return out.reshape((1,) * len(shape)) if keepdims else out
    a = uf.abs(x)
    if ord is None or ord == 2:
        return uf.sqrt(r.sum(uf.multiply(x, x), axis=axis, keepdims=keepdims))
    if ord == np.inf:
        return r.max(a, axis=axis, keepdims=keepdims)
    if ord == -np.inf:
        return r.min(a, axis=axis, keepdims=keepdims)
    if ord == 0:
        return r.sum(a != 0, axis=axis, keepdims=keepdims, dtype=get_aval(x).dtype)
    if ord == 1:
        return r.sum(a, axis=axis, keepdims=keepdims)
    p = float(ord)
    return uf.power(r.sum(uf.power(a, p), axis=axis, keepdims=keepdims), 1.0 / p)


def matrix_norm(x: Any, /, *, keepdims: bool = False, ord: Any = "fro") -> Any:
    """The matrix norm of the last two axes ("fro", "nuc", 1, -1, 2, -2, inf, -inf)."""
    return norm(x, ord=ord, axis=(-2, -1), keepdims=keepdims)


def norm(x: Any, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Any:
    """Vector or matrix norm, like `numpy.linalg.norm`."""
    x = _inexact(x)
    nd = get_aval(x).ndim
    if axis is None:
        if ord is None:
            out = uf.sqrt(r.sum(uf.multiply(x, x)))
            return out.reshape((1,) * nd) if keepdims else out
        axis = tuple(range(nd))
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    axes = tuple(canonicalize_axis(a, nd) for a in axes)
    if len(axes) == 1:
        return vector_norm(x, axis=axes[0], keepdims=keepdims, ord=2 if ord is None else ord)
    if len(axes) != 2:
        raise ValueError(f"Invalid axis {axis} for norm: give one or two axes")
    r0, c0 = axes
    a = uf.abs(x)
    if ord is None or ord == "fro":
        return uf.sqrt(r.sum(uf.multiply(x, x), axis=axes, keepdims=keepdims))
    if ord in (1, -1):
        col = r.sum(a, axis=r0, keepdims=True)
        fn = r.max if ord == 1 else r.min
        out = fn(col, axis=(r0, c0), keepdims=True)
    elif ord in (np.inf, -np.inf):
        row = r.sum(a, axis=c0, keepdims=True)
        fn = r.max if ord == np.inf else r.min
        out = fn(row, axis=(r0, c0), keepdims=True)
    elif ord in (2, -2, "nuc"):
        s = dec.svd(moveaxis(x, (r0, c0), (-2, -1)), compute_uv=False)
        out = {2: r.max, -2: r.min, "nuc": r.sum}[ord](s, axis=-1)
        if keepdims:
            out = expand_dims(out, sorted(axes))
        return out
    else:
        raise ValueError(f"Invalid order {ord!r} for matrix norm")
    if keepdims:
        return out
    return out.reshape(tuple(d for i, d in enumerate(get_aval(out).shape) if i not in axes))


def inv(a: Any) -> Any:
    """The inverse of square matrices (last two axes)."""
    return dec.inv(_inexact(a))


def slogdet(a: Any) -> tuple[Any, Any]:
    """`(sign, log|det|)` of square matrices."""
    return dec.slogdet(_inexact(a))


def det(a: Any) -> Any:
    """The determinant of square matrices."""
    sign, logabs = slogdet(a)
    return multiply(sign, exp(logabs))


def cholesky(a: Any, *, upper: bool = False) -> Any:
    """The Cholesky factor (lower by default; NaNs when `a` is not positive definite)."""
    low = dec.cholesky(_inexact(a))
    return matrix_transpose(low) if upper else low


def qr(a: Any, mode: str = "reduced") -> Any:
    """QR decomposition; `mode` is "reduced", "complete" or "r"."""
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"Unsupported QR decomposition mode {mode!r}")
    q, r = dec.qr(_inexact(a), full_matrices=mode == "complete")
    return r if mode == "r" else (q, r)


def svd(
    a: Any, full_matrices: bool = True, compute_uv: bool = True, hermitian: bool = False
) -> Any:
    """Singular value decomposition `(u, s, vh)`, or `s` alone (no derivative yet)."""
    return dec.svd(_inexact(a), full_matrices, compute_uv)


def svdvals(x: Any, /) -> Any:
    return svd(x, compute_uv=False)


def eigh(a: Any, UPLO: str | None = None, symmetrize_input: bool = True) -> tuple[Any, Any]:
    """Eigenvalues (ascending) and eigenvectors of symmetric matrices: `(w, v)`."""
    a = _inexact(a)
    if symmetrize_input:
        a = multiply(add(a, matrix_transpose(a)), 0.5)
    v, w = dec.eigh(a, lower=UPLO in (None, "L"))
    return w, v


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
    w, v = eig_prim.eig(_inexact(a), compute_left_eigenvectors=False)
    return EigResult(w, v)


def eigvals(a: Any) -> Any:
    """Eigenvalues of general square matrices (complex, differentiable)."""
    (w,) = eig_prim.eig(
        _inexact(a), compute_left_eigenvectors=False, compute_right_eigenvectors=False
    )
    return w


def eigvalsh(a: Any, UPLO: str | None = "L") -> Any:
    return eigh(a, UPLO)[0]


def solve(a: Any, b: Any) -> Any:
    """Solves `a @ x = b` (`b` a vector or a stack of matrices)."""
    a, b = promote_dtypes_inexact(a, b)
    if get_aval(b).ndim == 1:
        return matvec(dec.inv(a), b)
    return matmul(dec.inv(a), b)


def pinv(a: Any, rtol: Any = None, hermitian: bool = False) -> Any:
    """The Moore-Penrose pseudo-inverse, via `(a^T a)^-1 a^T` for full column rank inputs."""
    a = _inexact(a)
    at = matrix_transpose(a)
    m, n = get_aval(a).shape[-2:]
    if m >= n:
        return matmul(dec.inv(matmul(at, a)), at)
    return matmul(at, dec.inv(matmul(a, at)))


def matrix_power(a: Any, n: int) -> Any:
    """`a` multiplied by itself `n` times (negative `n` inverts first)."""
    a = ensure_array(a)
    if n < 0:
        a, n = inv(a), -n
    m = get_aval(a).shape[-1]

    result = broadcast_to(eye(m, dtype=get_aval(a).dtype), get_aval(a).shape)
    base = a
    while n:
        if n & 1:
            result = matmul(result, base)
        n >>= 1
        if n:
            base = matmul(base, base)
    return result


def multi_dot(arrays: Any, *, precision: Any = None) -> Any:
    """Chained matrix products, left to right."""
    arrays = list(arrays)
    out = arrays[0]
    for a in arrays[1:]:
        out = matmul(out, a)
    return out
