"""`core.scipy.linalg`: dense linear algebra, like `jax.scipy.linalg`.

Decompositions come from `core.numpy.linalg` (the primitives of `core/prims/decompositions.py`).
What has no primitive is composed from existing ones, so it differentiates, batches and jits
like any other composition:

* `solve_triangular` binds JAX's `triangular_solve` primitive (`core/lax/triangular.py`,
  compiled as substitution loops); `cho_solve` is two of them, as JAX's.
* `lu`/`lu_factor` bind JAX's `lu_p` (LAPACK getrf's LU with partial pivoting,
  `core/prims/decompositions.py`), `lu_solve` is JAX's: `lu_pivots_to_permutation_p` and two
  triangular solves (`core/lax/lu.py`).
* `hessenberg` is `core/lax/householder.py`'s reduction; `polar` takes the SVD (for both of
  JAX's methods); the special matrices (`pascal`, `helmert`, `dft`, ...) are JAX's formulas.
* `expm_frechet` is the `jvp` of `expm` (JAX's way); `eigh_tridiagonal` forms the matrix for
  `eigh`; `solve_sylvester`'s "schur" method solves the Kronecker form of the equation (no
  Schur decomposition yet) and its "eigen" method is JAX's.
* `expm` is Pade scaling and squaring (Higham 2005): degree 7 in float32, degree 13 in float64,
  scaled so that `|A|_1 / 2^s` is below the degree's theta, then squared `s` times inside a
  `max_squarings`-step loop (`where(i < s, r @ r, r)`); NaN when more squarings are needed.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

import core.numpy as jnp
from core import api, dtypes, lax
from core.avals import ShapeDtypeStruct
from core.callbacks import pure_callback
from core.custom_derivatives import custom_jvp
from core.errors import DTypeError, ShapeError
from core.jit.library import library_jit
from core.lax import householder, schur_qr
from core.lax import lu as lax_lu
from core.lax.triangular import triangular_solve
from core.numpy._util import promote_args_inexact, promote_dtypes, promote_dtypes_inexact
from core.scipy import special
from core.scipy.errors import (
    ExpmDTypeError,
    ModeError,
    SchurDTypeError,
    SchurGradientError,
    ShapeMismatchError,
)
from core.trace import Tracer, get_aval

__all__ = [
    "polar",
    "pascal",
    "leslie",
    "invpascal",
    "invhilbert",
    "hessenberg",
    "helmert",
    "hadamard",
    "fiedler_companion",
    "fiedler",
    "dft",
    "convolution_matrix",
    "block_diag",
    "cho_factor",
    "cho_solve",
    "cholesky",
    "circulant",
    "companion",
    "det",
    "eigh",
    "eigh_tridiagonal",
    "expm",
    "expm_frechet",
    "funm",
    "hankel",
    "hilbert",
    "inv",
    "lu",
    "lu_factor",
    "lu_solve",
    "qr",
    "qr_multiply",
    "rsf2csf",
    "schur",
    "solve",
    "solve_sylvester",
    "sqrtm",
    "solve_triangular",
    "svd",
    "toeplitz",
]


def _shape(x: Any) -> tuple[int, ...]:
    return get_aval(x).shape


def _mT(x: Any) -> Any:
    return jnp.swapaxes(x, -1, -2)


def _trans_code(trans: int | str, first_line: str) -> int:
    codes = {0: 0, 1: 1, 2: 2, "N": 0, "T": 1, "C": 2}
    if trans not in codes:
        raise ModeError(f"{first_line}\ntrans must be 0, 1, 2, 'N', 'T' or 'C'.")
    return codes[trans]


def _vector_rhs(a_shape: tuple[int, ...], b_shape: tuple[int, ...]) -> bool:
    """JAX's rule for `b` as vectors: 1-D, or one axis fewer than `a` ending in `n` (a batch of
    vectors, deprecated in JAX); otherwise `b` is `(..., n, k)` matrices."""
    return len(b_shape) == 1 or (len(a_shape) == len(b_shape) + 1 and a_shape[-1] == b_shape[-1])


def _core_dim_error(got: int, n: int, signature: str, what: str) -> ShapeMismatchError:
    """JAX's error for right-hand sides of `got` rows against `(n, n)` matrices (its
    `jnp.vectorize` of the solve, named by `signature`), with the fix after it."""
    return ShapeMismatchError(
        f"inconsistent size for core dimension 'n': {got} vs {n} on vectorized function with "
        f"excluded=frozenset() and signature='{signature}'\n"
        f"{what}: b needs {n} rows (its last axis when it is a vector), one per row of the "
        "matrix."
    )


def _vmap_leading(fn, n_leading: int):
    for _ in range(n_leading):
        fn = api.vmap(fn)
    return fn


# ---------------------------------------------------------------------------------------------
# Triangular and Cholesky solves


def solve_triangular(
    a: Any,
    b: Any,
    trans: int | str = 0,
    lower: bool = False,
    unit_diagonal: bool = False,
    overwrite_b: bool = False,
    debug: Any = None,
    check_finite: bool = True,
) -> Any:
    """Solves `op(a) x = b` for a triangular matrix `a`.

    Args:
      a: triangular matrices `(..., n, n)`; the other triangle is ignored.
      b: right-hand sides `(..., n)` or `(..., n, k)`.
      trans: 0/"N" solves `a x = b`, 1/"T" solves `a^T x = b`, 2/"C" solves `a^H x = b`.
      lower: use the lower triangle of `a` (else the upper).
      unit_diagonal: assume ones on the diagonal (the stored diagonal is ignored).
      overwrite_b: ignored (arrays are immutable).
      debug: ignored.
      check_finite: ignored.

    Returns:
      `x` shaped like `b`.
    """
    del overwrite_b, debug, check_finite
    return _solve_triangular(
        a, b, _trans_code(trans, f"Invalid 'trans' value {trans}"), bool(lower), bool(unit_diagonal)
    )


@library_jit(static_argnums=(2, 3, 4))
def _solve_triangular(a: Any, b: Any, trans: int, lower: bool, unit_diagonal: bool) -> Any:
    """JAX's jitted part: one `triangular_solve` of `b` as a matrix (batch shapes broadcast)."""
    a, b = promote_dtypes_inexact(a, b)
    vector = _vector_rhs(_shape(a), _shape(b))
    if vector:
        b = b[..., None]
    n = _shape(a)[-1]
    if _shape(b)[-2] != n:
        sig = "(n,n),(n)->(n)" if vector else "(n,n),(n,k)->(n,k)"
        raise _core_dim_error(_shape(b)[-2], n, sig, "solve_triangular")
    batch = jnp.broadcast_shapes(_shape(a)[:-2], _shape(b)[:-2])
    a = jnp.broadcast_to(a, batch + (n, n))
    b = jnp.broadcast_to(b, batch + _shape(b)[-2:])
    x = triangular_solve(
        a,
        b,
        left_side=True,
        lower=lower,
        transpose_a=trans > 0,
        conjugate_a=trans == 2,
        unit_diagonal=unit_diagonal,
    )
    return x[..., 0] if vector else x


def cholesky(
    a: Any, lower: bool = False, overwrite_a: bool = False, check_finite: bool = True
) -> Any:
    """The Cholesky factor of symmetric positive definite matrices.

    Args:
      a: matrices `(..., n, n)`.
      lower: return `L` with `a = L L^T` (else the upper factor `U = L^T`, scipy's default).
      overwrite_a: ignored.
      check_finite: ignored.

    Returns:
      The triangular factor (NaN when `a` is not positive definite).
    """
    del overwrite_a, check_finite
    (a,) = promote_dtypes_inexact(jnp.asarray(a))
    # JAX factors the triangle it reads (lower of a, or of a^H), unsymmetrized: derivatives
    # flow into that triangle only
    low = lax.linalg.cholesky(
        a if lower else jnp.conj(jnp.matrix_transpose(a)), symmetrize_input=False
    )
    return low if lower else jnp.conj(_mT(low))


def cho_factor(
    a: Any, lower: bool = False, overwrite_a: bool = False, check_finite: bool = True
) -> tuple[Any, bool]:
    """The Cholesky factorization in the form `cho_solve` takes.

    Args:
      a: symmetric positive definite matrices `(..., n, n)`.
      lower: factor as `L L^T` (else `U^T U`).
      overwrite_a: ignored.
      check_finite: ignored.

    Returns:
      `(c, lower)` with `c` the triangular factor (the other triangle zero).
    """
    return cholesky(a, lower=lower, overwrite_a=overwrite_a, check_finite=check_finite), lower


def cho_solve(
    c_and_lower: tuple[Any, bool], b: Any, overwrite_b: bool = False, check_finite: bool = True
) -> Any:
    """Solves `a x = b` given the Cholesky factorization of `a` from `cho_factor`.

    Args:
      c_and_lower: `(c, lower)` as returned by `cho_factor`.
      b: right-hand sides `(..., n)` or `(..., n, k)`.
      overwrite_b: ignored.
      check_finite: ignored.

    Returns:
      `x` shaped like `b`.
    """
    del overwrite_b, check_finite
    c, lower = c_and_lower
    # a traced flag reaches the static argument as it is: JAX's non-hashable static error
    return _cho_solve(c, b, lower if isinstance(lower, Tracer) else bool(lower))


@library_jit(static_argnames=("lower",))
def _cho_solve(c: Any, b: Any, lower: bool) -> Any:
    """JAX's jitted part: two triangular solves, `L` then `L^H` (`U^H` then `U`)."""
    c, b = promote_dtypes_inexact(c, b)
    vector = _vector_rhs(_shape(c), _shape(b))
    if vector:
        b = b[..., None]
    n = _shape(c)[-1]
    if _shape(b)[-2] != n:
        sig = "(n,n),(n)->(n)" if vector else "(n,n),(n,k)->(n,k)"
        raise _core_dim_error(_shape(b)[-2], n, sig, "cho_solve")
    batch = jnp.broadcast_shapes(_shape(c)[:-2], _shape(b)[:-2])
    c = jnp.broadcast_to(c, batch + (n, n))
    b = jnp.broadcast_to(b, batch + _shape(b)[-2:])
    b = triangular_solve(
        c, b, left_side=True, lower=lower, transpose_a=not lower, conjugate_a=not lower
    )
    if vector:  # JAX solves vectors one triangle at a time: its jaxpr squeezes and re-expands
        b = b[..., 0][..., None]
    x = triangular_solve(c, b, left_side=True, lower=lower, transpose_a=lower, conjugate_a=lower)
    return x[..., 0] if vector else x


# ---------------------------------------------------------------------------------------------
# LU with partial pivoting: JAX's `lu_p` (`core/lax/lu.py`)


@library_jit(static_argnames=("overwrite_a", "check_finite"))
def lu_factor(a: Any, overwrite_a: bool = False, check_finite: bool = True) -> tuple[Any, Any]:
    """The LU factorization with partial pivoting in LAPACK's packed form.

    Args:
      a: matrices `(..., m, n)`.
      overwrite_a: ignored.
      check_finite: ignored.

    Returns:
      `(lu, piv)`: `lu` holds `U` and the strictly lower part of unit-lower `L`; row `i` was
      interchanged with row `piv[i]` (int32) at step `i`.
    """
    del overwrite_a, check_finite
    (a,) = promote_dtypes_inexact(jnp.asarray(a))
    lu_, pivots, _ = lax_lu.lu(a)
    return lu_, pivots


@library_jit(static_argnums=(1,))
def _lu(a: Any, permute_l: bool) -> tuple[Any, Any] | tuple[Any, Any, Any]:
    (a,) = promote_dtypes_inexact(jnp.asarray(a))
    lu_, _, permutation = lax_lu.lu(a)
    dtype = get_aval(a).dtype
    m, n = _shape(a)[-2:]
    rows = permutation[..., None, :] == jnp.arange(m, dtype=permutation.dtype)[:, None]
    p = jnp.real(jnp.array(rows, dtype=dtype))
    k = min(m, n)
    l_ = jnp.tril(lu_, -1)[..., :, :k] + jnp.eye(m, k, dtype=dtype)
    u = jnp.triu(lu_)[..., :k, :]
    if permute_l:
        return jnp.matmul(p, l_, precision=lax.Precision.HIGHEST), u
    return p, l_, u


@library_jit(static_argnames=("permute_l", "overwrite_a", "check_finite"))
def lu(
    a: Any, permute_l: bool = False, overwrite_a: bool = False, check_finite: bool = True
) -> tuple[Any, Any] | tuple[Any, Any, Any]:
    """The LU decomposition with partial pivoting, `a = p @ l @ u`.

    Args:
      a: matrices `(..., m, n)`.
      permute_l: return `(p @ l, u)` instead of `(p, l, u)`.
      overwrite_a: ignored.
      check_finite: ignored.

    Returns:
      `(p, l, u)`: permutation `p (..., m, m)`, unit lower `l (..., m, k)`, upper
      `u (..., k, n)` with `k = min(m, n)`; or `(p @ l, u)`.
    """
    del overwrite_a, check_finite
    return _lu(a, permute_l)


@library_jit(static_argnames=("trans", "overwrite_b", "check_finite"))
def lu_solve(
    lu_and_piv: tuple[Any, Any],
    b: Any,
    trans: int = 0,
    overwrite_b: bool = False,
    check_finite: bool = True,
) -> Any:
    """Solves `a x = b` (or `a^T x = b`) given `lu_factor(a)`.

    Args:
      lu_and_piv: `(lu, piv)` from `lu_factor` for square `a (..., n, n)`.
      b: right-hand sides `(n,)` or `(..., n, k)` (`(..., n)` beside a batch of `lu` is a
        batch of vectors, as JAX still reads it).
      trans: 0 solves `a x = b`, 1 `a^T x = b`, 2 `a^H x = b`.
      overwrite_b: ignored.
      check_finite: ignored.

    Returns:
      `x` shaped like `b` (with the broadcast batch axes).
    """
    del overwrite_b, check_finite
    lu_, pivots = lu_and_piv
    lu_, b = promote_dtypes_inexact(jnp.asarray(lu_), jnp.asarray(b))
    code = _trans_code(trans, f"'trans' value must be 0, 1, or 2, got {trans}")
    lu_shape, b_shape = _shape(lu_), _shape(b)
    perm = lax_lu.lu_pivots_to_permutation(pivots, lu_shape[-2])
    vector = len(b_shape) == 1 or (
        len(lu_shape) == len(b_shape) + 1 and lu_shape[-1] == b_shape[-1]
    )
    n = lu_shape[-1]
    if len(lu_shape) == 2 and len(b_shape) in (1, 2) and b_shape[0] != n:
        sig = "(n,n),(n),(n)->(n)" if vector else "(n,n),(n),(n,k)->(n,k)"
        raise _core_dim_error(b_shape[0], n, sig, "lu_solve")
    if vector and len(lu_shape) > 2:  # JAX's vectorize maps a vector over lu's batch
        return lax_lu.lu_solve(lu_, perm, b[..., None], code)[..., 0]
    return lax_lu.lu_solve(lu_, perm, b, code)


# ---------------------------------------------------------------------------------------------
# Decompositions and solvers re-exposed with scipy's signatures


def det(a: Any, overwrite_a: bool = False, check_finite: bool = True) -> Any:
    """The determinant of square matrices.

    Args:
      a: matrices `(..., n, n)`.
      overwrite_a: ignored.
      check_finite: ignored.

    Returns:
      `det(a)` of shape `(...)`.
    """
    return jnp.linalg.det(a)


def inv(a: Any, overwrite_a: bool = False, check_finite: bool = True) -> Any:
    """The inverse of square matrices.

    Args:
      a: matrices `(..., n, n)`.
      overwrite_a: ignored.
      check_finite: ignored.

    Returns:
      `a^-1`.
    """
    return jnp.linalg.inv(a)


def solve(
    a: Any,
    b: Any,
    lower: bool = False,
    overwrite_a: bool = False,
    overwrite_b: bool = False,
    debug: bool = False,
    check_finite: bool = True,
    assume_a: str = "gen",
) -> Any:
    """Solves `a x = b` for square `a`.

    Args:
      a: matrices `(..., n, n)`.
      b: right-hand sides `(..., n)` or `(..., n, k)`.
      lower: with `assume_a="pos"`, read the lower triangle of `a` (else the upper).
      overwrite_a: ignored.
      overwrite_b: ignored.
      debug: ignored.
      check_finite: ignored.
      assume_a: "gen", "sym", "her" (general solve) or "pos" (Cholesky solve).

    Returns:
      `x` shaped like `b`.
    """
    if assume_a not in ("gen", "sym", "her", "pos"):
        raise ModeError(
            f"Expected assume_a to be one of ['gen', 'sym', 'her', 'pos']; got {assume_a!r}"
        )
    a, b = promote_dtypes_inexact(a, b)
    if assume_a == "pos":
        a_shape, b_shape = _shape(a), _shape(b)
        if not (
            len(a_shape) >= 2
            and len(b_shape) in (len(a_shape), len(a_shape) - 1)
            and a_shape[-1] == a_shape[-2] == b_shape[len(a_shape) - 2]
        ):  # JAX's check of its Cholesky solve (no batch broadcasting)
            raise ShapeMismatchError(
                "The arguments to solve must have shapes a=[..., m, m] and b=[..., m, k] or "
                f"b=[..., m]; got a={a_shape} and b={b_shape}\nassume_a='pos' takes b with a's "
                "batch axes (or none of a vector's): broadcast b first, or use assume_a='gen'."
            )
        return _pos_solve(a, b, bool(lower))
    return jnp.linalg.solve(a, b)


def _pos_solve(a: Any, b: Any, lower: bool) -> Any:
    """JAX's Cholesky solve: `custom_linear_solve` of the product with `a` (so derivatives
    flow through all of `a`), solved with `cho_solve` of the factor of `a`'s `lower` (or
    upper) triangle; matrix right-hand sides are mapped one column at a time."""
    factors = cho_factor(lax.stop_gradient(a), lower=lower)

    def matvec(x: Any) -> Any:
        return jnp.einsum("...ij,...j->...i", a, x, precision=lax.Precision.HIGHEST)

    def solve_one(x: Any) -> Any:
        return lax.custom_linear_solve(
            matvec, x, solve=lambda _, y: cho_solve(factors, y), symmetric=True
        )

    a_nd, b_nd = len(_shape(a)), len(_shape(b))
    if a_nd == b_nd + 1:
        return solve_one(b)
    return api.vmap(solve_one, b_nd - 1, max(a_nd, b_nd) - 1)(b)


def eigh(
    a: Any,
    b: Any = None,
    lower: bool = True,
    eigvals_only: bool = False,
    overwrite_a: bool = False,
    overwrite_b: bool = False,
    turbo: bool = True,
    eigvals: None = None,
    type: int = 1,  # noqa: A002  (scipy's name)
    check_finite: bool = True,
) -> Any:
    """Eigenvalues (ascending) and eigenvectors of symmetric/Hermitian matrices.

    Args:
      a: matrices `(..., n, n)`; `(a + a^H) / 2` is decomposed, as JAX's (both triangles are
        read).
      b: must be None (the generalized problem is not supported, as in JAX).
      lower: the triangle the decomposition would read unsymmetrized (no effect, as in JAX).
      eigvals_only: return only the eigenvalues.
      overwrite_a: ignored.
      overwrite_b: ignored.
      turbo: ignored.
      eigvals: must be None.
      type: must be 1.
      check_finite: ignored.

    Returns:
      `(w, v)` with `a v = v diag(w)`, or `w` alone.
    """
    unsupported = [
        (b is not None, "b=None case of eigh is implemented"),
        (type != 1, "type=1 case of eigh is implemented."),
        (eigvals is not None, "eigvals=None case of eigh is implemented."),
    ]
    for bad, what in unsupported:
        if bad:
            raise NotImplementedError(
                f"Only the {what}\nnumbax's eigh solves the standard problem a v = w v of all "
                "eigenvalues."
            )
    # JAX's lax eigh symmetrizes its input: both triangles are read, whatever `lower`
    w, v = jnp.linalg.eigh(a, UPLO="L" if lower else "U")
    return w if eigvals_only else (w, v)


def qr(
    a: Any,
    overwrite_a: bool = False,
    lwork: Any = None,
    mode: str = "full",
    pivoting: bool = False,
    check_finite: bool = True,
) -> tuple[Any, ...]:
    """The QR decomposition `a = q r`.

    Args:
      a: matrices `(..., m, n)`.
      overwrite_a: ignored.
      lwork: ignored.
      mode: "full" (`q (m, m)`), "economic" (`q (m, k)`) or "r" (only `r`).
      pivoting: also return the column permutation `p` with `a[..., p] = q r` (LAPACK's
        geqp3 pivots: the column of largest remaining norm first).
      check_finite: ignored.

    Returns:
      `(q, r)`, or `(r,)` when `mode == "r"` (scipy's tuple); `p` (int32) last when
      `pivoting`.
    """
    if mode not in ("full", "economic", "r"):
        raise ModeError(
            f"Unsupported QR decomposition mode {mode!r}\nuse mode='full', 'economic' or 'r'."
        )
    piv = ()
    if pivoting:
        a = jnp.asarray(a)
        p = _qr_pivots(a)
        a = jnp.take_along_axis(a, p[..., None, :], axis=-1)
        piv = (p,)
    q, r = jnp.linalg.qr(a, mode="reduced" if mode == "economic" else "complete")
    if mode == "r":
        return (r, *piv)
    return (q, r, *piv)


def _qr_pivots(a: Any) -> Any:
    """The column permutation of LAPACK's pivoted QR (geqp3, through scipy on the host, as
    JAX's CPU backend calls it), int32 of shape `(..., n)`."""
    (a,) = promote_dtypes_inexact(a)
    if a.ndim < 2:
        raise TypeError(f"Input 0 to qr must have rank at least 2, but got shape={a.shape}")

    def host(x: np.ndarray) -> np.ndarray:
        flat = np.asarray(x).reshape(-1, *x.shape[-2:])
        from scipy import linalg as scipy_linalg  # noqa: PLC0415 (scipy: on first use)

        pivots = [scipy_linalg.qr(m, mode="r", pivoting=True)[1] for m in flat]
        return np.asarray(pivots, np.int32).reshape(x.shape[:-2] + (x.shape[-1],))

    out = ShapeDtypeStruct(a.shape[:-2] + (a.shape[-1],), np.dtype(np.int32))
    return pure_callback(host, out, a, vmap_method="broadcast_all")


def svd(
    a: Any,
    full_matrices: bool = True,
    compute_uv: bool = True,
    overwrite_a: bool = False,
    check_finite: bool = True,
    lapack_driver: str = "gesdd",
) -> Any:
    """The singular value decomposition `a = u diag(s) vh`.

    Args:
      a: matrices `(..., m, n)`.
      full_matrices: square `u` and `vh` (else `(m, k)` and `(k, n)`).
      compute_uv: also return `u` and `vh`.
      overwrite_a: ignored.
      check_finite: ignored.
      lapack_driver: ignored.

    Returns:
      `(u, s, vh)` or `s` (descending).
    """
    return jnp.linalg.svd(a, full_matrices=full_matrices, compute_uv=compute_uv)


# ---------------------------------------------------------------------------------------------
# Matrix exponential

_PADE7 = (17297280.0, 8648640.0, 1995840.0, 277200.0, 25200.0, 1512.0, 56.0, 1.0)
_PADE13 = (
    64764752532480000.0,
    32382376266240000.0,
    7771770303897600.0,
    1187353796428800.0,
    129060195264000.0,
    10559470521600.0,
    670442572800.0,
    33522128640.0,
    1323241920.0,
    40840800.0,
    960960.0,
    16380.0,
    182.0,
    1.0,
)
_THETA7 = 3.925724783138660
_THETA13 = 5.371920351148152


def _pade(a: Any, coeffs: tuple[float, ...]) -> tuple[Any, Any]:
    """`(u, v)` with `u` the odd and `v` the even part of the Pade numerator."""
    n = _shape(a)[-1]
    eye = jnp.broadcast_to(jnp.eye(n, dtype=get_aval(a).dtype), _shape(a))
    a2 = jnp.matmul(a, a)
    powers = [eye, a2]
    while len(powers) < (len(coeffs) + 1) // 2:
        powers.append(jnp.matmul(powers[-1], a2))
    odd = sum(coeffs[2 * j + 1] * powers[j] for j in range(len(coeffs) // 2))
    even = sum(coeffs[2 * j] * powers[j] for j in range(len(coeffs) // 2))
    return jnp.matmul(a, odd), even


def expm(
    A: Any,  # noqa: N803  (JAX's and scipy's name)
    *,
    upper_triangular: bool = False,
    max_squarings: int = 16,
) -> Any:
    """The matrix exponential by Pade scaling and squaring.

    Args:
      A: square matrices `(..., n, n)`.
      upper_triangular: accepted for JAX compatibility (the general algorithm is used).
      max_squarings: the most squarings allowed; inputs needing more give NaN.

    Returns:
      `exp(A)`.
    """
    (a,) = promote_dtypes_inexact(A)
    if len(_shape(a)) < 2 or _shape(a)[-1] != _shape(a)[-2]:
        raise ShapeMismatchError(
            f"Expected A to be a (batched) square matrix, got A.shape={_shape(a)}."
        )
    if get_aval(a).dtype in (np.float16, dtypes.bfloat16):
        raise ExpmDTypeError(get_aval(a).dtype)
    if _shape(a)[-1] == 0:  # JAX's: the empty matrices themselves (no norm to scale by)
        return a
    double = get_aval(a).dtype in (np.float64, np.complex128)
    coeffs, theta = (_PADE13, _THETA13) if double else (_PADE7, _THETA7)
    norm = jnp.max(jnp.sum(jnp.abs(a), axis=-2), axis=-1)
    safe_norm = jnp.where(norm > 0, norm, jnp.ones_like(norm))
    s = jnp.maximum(jnp.ceil(jnp.log2(safe_norm / theta)), 0.0)
    s = jnp.where(jnp.isfinite(s), s, jnp.full_like(s, max_squarings + 1))
    scaled = a / (2.0**s)[..., None, None].astype(get_aval(a).dtype)  # complex a: no join
    u, v = _pade(scaled, coeffs)
    r = jnp.linalg.solve(v - u, v + u)

    def square(i: Any, r: Any) -> Any:
        return jnp.where((i < s)[..., None, None], jnp.matmul(r, r), r)

    r = lax.fori_loop(0, max_squarings, square, r)
    too_big = (s > max_squarings)[..., None, None]
    return jnp.where(too_big, jnp.full_like(r, np.nan), r)


# ---------------------------------------------------------------------------------------------
# Special matrices


def block_diag(*arrs: Any) -> Any:
    """A block-diagonal matrix from the given blocks.

    Args:
      *arrs: arrays of rank at most 2 (scalars and vectors become `(1, 1)`/`(1, n)` blocks).

    Returns:
      The `(sum rows, sum cols)` matrix with the blocks on its diagonal, zeros elsewhere.
    """
    if not arrs:
        return jnp.zeros((1, 0))
    blocks = [jnp.atleast_2d(jnp.asarray(x)) for x in arrs]
    for x in blocks:
        if len(_shape(x)) > 2:
            raise ShapeMismatchError(f"block_diag takes arrays of rank <= 2, got shape {_shape(x)}")
    dtype = jnp.result_type(*blocks)
    total = sum(_shape(x)[1] for x in blocks)
    rows, left = [], 0
    for x in blocks:
        c = _shape(x)[1]
        rows.append(jnp.pad(x.astype(dtype), ((0, 0), (left, total - left - c))))
        left += c
    return jnp.concatenate(rows, axis=0)


def _broadcast_leading(c: Any, r: Any) -> tuple[Any, Any]:
    """Promotes `c (..., m)` and `r (..., n)` to one dtype and one batch shape."""
    c, r = promote_dtypes(jnp.atleast_1d(c), jnp.atleast_1d(r))
    batch = jnp.broadcast_shapes(_shape(c)[:-1], _shape(r)[:-1])
    return jnp.broadcast_to(c, batch + _shape(c)[-1:]), jnp.broadcast_to(r, batch + _shape(r)[-1:])


def toeplitz(c: Any, r: Any = None) -> Any:
    """A Toeplitz matrix: constant diagonals, first column `c`, first row `r`.

    Args:
      c: first column, `(..., m)`.
      r: first row, `(..., n)` (its first element is ignored); defaults to `conj(c)`.

    Returns:
      `t (..., m, n)` with `t[i, j] = c[i - j]` for `i >= j` and `r[j - i]` otherwise.
    """
    c = jnp.asarray(c)
    c, r = _broadcast_leading(c, jnp.conj(c) if r is None else r)
    m, n = _shape(c)[-1], _shape(r)[-1]
    vals = jnp.concatenate([jnp.flip(r[..., 1:], axis=-1), c], axis=-1)
    idx = np.arange(m)[:, None] - np.arange(n)[None, :] + n - 1
    # never weakly typed (JAX builds it with a convolution, which drops weak types)
    return lax.convert_element_type(vals[..., idx], vals.dtype)


def hankel(c: Any, r: Any = None) -> Any:
    """A Hankel matrix: constant anti-diagonals, first column `c`, last row `r`.

    Args:
      c: first column, `(..., m)`.
      r: last row, `(..., n)` (its first element is ignored); defaults to zeros like `c`.

    Returns:
      `h (..., m, n)` with `h[i, j] = c[i + j]` for `i + j < m` and `r[i + j - m + 1]` otherwise.
    """
    c = jnp.asarray(c)
    if len(_shape(c)) == 0:
        raise ShapeMismatchError("hankel: c must be at least 1-dimensional, got a scalar")
    c, r = _broadcast_leading(c, jnp.zeros_like(c) if r is None else r)
    m, n = _shape(c)[-1], _shape(r)[-1]
    vals = jnp.concatenate([c, r[..., 1:]], axis=-1)
    idx = np.arange(m)[:, None] + np.arange(n)[None, :]
    return vals[..., idx]


def circulant(c: Any) -> Any:
    """A circulant matrix whose first column is `c`.

    Args:
      c: first column, `(..., n)`.

    Returns:
      `(..., n, n)` with `out[i, j] = c[(i - j) mod n]`.
    """
    c = jnp.atleast_1d(jnp.asarray(c))
    n = _shape(c)[-1]
    idx = (np.arange(n)[:, None] - np.arange(n)[None, :]) % n
    return c[..., idx]


def companion(a: Any) -> Any:
    """The companion matrix of the polynomial with coefficients `a` (highest power first).

    Args:
      a: coefficients `(..., n)` with `n >= 2`.

    Returns:
      `(..., n - 1, n - 1)`: first row `-a[1:] / a[0]`, ones on the subdiagonal.
    """
    (a,) = promote_args_inexact("companion", a)
    a = jnp.atleast_1d(a)
    n = _shape(a)[-1]
    if n < 2:
        raise ShapeMismatchError(
            f"The length of `a` along the last axis must be at least 2; got shape {_shape(a)}."
        )
    first = -a[..., 1:] / a[..., :1]
    sub = jnp.eye(n - 1, k=-1, dtype=get_aval(a).dtype)
    top = (np.arange(n - 1) == 0)[:, None]
    return jnp.where(top, first[..., None, :], sub)


def hilbert(n: int) -> Any:
    """The Hilbert matrix of order `n`.

    Args:
      n: the size, a Python int.

    Returns:
      `(n, n)` floats with `h[i, j] = 1 / (i + j + 1)`.
    """
    i = jnp.arange(n, dtype=dtypes.default_float())[:, None]
    return 1.0 / (i + i.T + 1.0)


# ---------------------------------------------------------------------------------------------
# Hessenberg form, polar decomposition and special matrices, as JAX writes them


def hessenberg(
    a: Any, *, calc_q: bool = False, overwrite_a: bool = False, check_finite: bool = True
) -> Any:
    """The upper Hessenberg form `H = Q^H a Q` (`jax.scipy.linalg.hessenberg`).

    Args:
        a: square matrices `(..., n, n)`.
        calc_q: also return the unitary `Q`.
        overwrite_a, check_finite: accepted for compatibility.

    Returns:
        `H`, or `(H, Q)` with `calc_q`.
    """
    a = jnp.asarray(a)
    n = get_aval(a).shape[-1]
    if n == 0:
        return (jnp.zeros_like(a), jnp.zeros_like(a)) if calc_q else jnp.zeros_like(a)
    packed, taus = householder.hessenberg(a)
    h = jnp.triu(packed, -1)
    if not calc_q:
        return h
    q = householder.householder_product(packed[..., 1:, :-1], taus)
    batch, dt = get_aval(packed).shape[:-2], packed.dtype
    q = jnp.block(
        [
            [jnp.ones((*batch, 1, 1), dt), jnp.zeros((*batch, 1, n - 1), dt)],
            [jnp.zeros((*batch, n - 1, 1), dt), q],
        ]
    )
    return h, q


def _polar_2d(a: Any, side: str, method: str) -> tuple[Any, Any]:
    m, n = get_aval(a).shape
    if method == "qdwh":
        if not ((m >= n and side == "right") or (m < n and side == "left")):
            raise NotImplementedError(
                "method='qdwh' only supports mxn matrices where m < n where side='right' and "
                f"m >= n side='left', got {(m, n)} with side={side!r}"
            )
        if a.dtype.kind not in "fc":  # JAX's qdwh asks finfo of the dtype
            raise ValueError(
                f"data type {a.dtype.type} not inexact\n"
                "polar decomposes float or complex matrices: convert first, a.astype(float)."
            )
    elif method != "svd":
        raise ValueError(f"Unknown polar decomposition method {method}.")
    elif a.dtype.kind not in "fc":
        raise DTypeError(
            f"svd does not accept dtype {a.dtype} at position 0. Accepted dtypes at position 0 "
            "are subtypes of floating, complexfloating.\nConvert first: a.astype(float)."
        )
    u, s, vh = jnp.linalg.svd(a, full_matrices=False)
    s = s.astype(u.dtype)
    unitary = u @ vh
    if side == "right":
        return unitary, (jnp.conj(vh.T) * s[None, :]) @ vh
    return unitary, (u * s[None, :]) @ jnp.conj(u.T)


def polar(
    a: Any,
    side: str = "right",
    *,
    method: str = "qdwh",
    eps: float | None = None,
    max_iterations: int | None = None,
) -> tuple[Any, Any]:
    """The polar decomposition `a = U P` (`side="right"`) or `a = P U`
    (`jax.scipy.linalg.polar`).

    JAX's default `method="qdwh"` iterates to the SVD's answer; here both methods take the SVD
    (the same factors to rounding; `qdwh`'s shape restrictions are kept).

    Args:
        a: matrices `(..., m, n)`.
        side: "right" (`P` is `n x n`) or "left" (`P` is `m x m`).
        method: "qdwh" or "svd".
        eps, max_iterations: `qdwh`'s tolerances (accepted; the SVD needs none).

    Returns:
        `(U, P)`: `U` with orthonormal columns (or rows), `P` Hermitian positive semi-definite.
    """
    matrices = jnp.asarray(a)
    if matrices.ndim < 2:
        raise ValueError("The input `a` must be at least a 2-D array.")
    if side not in ("right", "left"):
        raise ValueError("The argument `side` must be either 'right' or 'left'.")
    hermitian_factor = _POLAR_HERMITIAN_SHAPE[side]

    def one(matrix):
        return _polar_2d(matrix, side, method)

    return jnp.vectorize(one, signature=f"(m,n)->(m,n),{hermitian_factor}")(matrices)


_POLAR_HERMITIAN_SHAPE = {"right": "(n,n)", "left": "(m,m)"}


def leslie(f: Any, s: Any) -> Any:
    """The Leslie matrix: fecundities `f` in the first row, survivals `s` below the diagonal
    (`jax.scipy.linalg.leslie`).

    Args:
        f: fecundities `(..., n)`, `n >= 2`.
        s: survival rates `(..., n - 1)`.

    Returns:
        The matrices `(..., n, n)`.
    """
    f, s = jnp.atleast_1d(f), jnp.atleast_1d(s)
    if f.shape[-1] < 2:
        raise ValueError(
            f"The length of f along the last axis must be at least 2; got shape {f.shape}."
        )
    if s.shape[-1] != f.shape[-1] - 1:
        raise ValueError(
            "Incorrect lengths for f and s. The length of s along the last axis must be one "
            f"less than the length of f; got f shape {f.shape} and s shape {s.shape}."
        )

    def one(f: Any, s: Any) -> Any:
        f, s = promote_dtypes(f, s)
        return jnp.diag(s, k=-1).at[0].set(f)

    return jnp.vectorize(one, signature="(n),(m)->(n,n)")(f, s)


def fiedler(a: Any) -> Any:
    """The Fiedler matrix `|a_i - a_j|` (`jax.scipy.linalg.fiedler`).

    Args:
        a: values `(..., n)`.

    Returns:
        The matrices `(..., n, n)`.
    """
    arr = jnp.atleast_1d(a)
    return jnp.abs(arr[..., None] - arr[..., None, :])


def fiedler_companion(a: Any) -> Any:
    """The Fiedler companion matrix of the polynomial with coefficients `a`, highest first
    (`jax.scipy.linalg.fiedler_companion`).

    Args:
        a: coefficients `(..., n + 1)`.

    Returns:
        The matrices `(..., n, n)` whose eigenvalues are the polynomial's roots.
    """
    (a,) = promote_args_inexact("fiedler_companion", a)
    a = jnp.atleast_1d(a)
    if a.shape[-1] == 0:
        raise ValueError(
            "fiedler_companion requires the last axis of 'a' to have nonzero length, but got "
            f"an array of shape {a.shape}."
        )

    def one(a: Any) -> Any:
        n = a.shape[0] - 1
        if n == 0:
            return jnp.zeros((0, 0), a.dtype)
        a = a / a[0]
        if n == 1:
            return -a[1:].reshape(1, 1)
        i, j = jnp.arange(n)[:, None], jnp.arange(n)[None, :]
        even, odd = i % 2 == 0, i % 2 == 1
        one_, zero = jnp.array(1, dtype=a.dtype), jnp.array(0, dtype=a.dtype)
        conditions = [
            (i == 0) & (j == 0),
            (i == 1) & (j == 0),
            (j == i + 1) & even,
            (j == i + 2) & even,
            (j == i - 1) & even & (i >= 2),
            (j == i - 2) & odd & (i >= 3),
        ]
        choices = [-a[1], one_, -a[jnp.minimum(i + 2, n)], one_, -a[jnp.minimum(i + 1, n)], one_]
        return jnp.select(conditions, choices, default=zero)

    return jnp.vectorize(one, signature="(n)->(m,m)")(a)


def convolution_matrix(a: Any, n: int, mode: str = "full") -> Any:
    """The Toeplitz matrix `T` with `T @ v == convolve(a, v, mode)` for `v` of length `n`
    (`jax.scipy.linalg.convolution_matrix`).

    Args:
        a: the kernel `(..., m)`.
        n: the length of the vectors convolved.
        mode: "full", "valid" or "same".

    Returns:
        The matrices `(..., rows, n)`.
    """
    n = int(n)
    if n <= 0:
        raise ValueError(f"n must be a positive integer; got {n}.")
    arr = jnp.asarray(a)
    if arr.ndim == 0:
        raise ValueError("convolution_matrix: a must be at least 1-dimensional, got a scalar.")
    m = arr.shape[-1]
    if m < 1:
        raise ValueError(f"len(a) must be at least 1; got shape {arr.shape}.")
    if mode not in ("full", "valid", "same"):
        raise ValueError(f"mode must be one of 'full', 'valid', 'same'; got {mode!r}.")
    pad = [(0, 0)] * (arr.ndim - 1) + [(0, n - 1)]
    az, raz = jnp.pad(arr, pad), jnp.pad(jnp.flip(arr, axis=-1), pad)
    length = m + n - 1
    if mode == "same":
        trim = min(n, m) - 1
        tb, te = trim // 2, trim - trim // 2
    elif mode == "valid":
        tb = te = min(n, m) - 1
    else:
        tb = te = 0
    return toeplitz(az[..., tb : length - te], raz[..., length - n - tb : length - tb])


def _binom(n: Any, k: Any) -> Any:
    return jnp.exp(lax.lgamma(n + 1.0) - lax.lgamma(n - k + 1.0) - lax.lgamma(k + 1.0))


def _kind(kind: str | None) -> str:
    kind = "symmetric" if kind is None else kind
    if kind not in ("symmetric", "lower", "upper"):
        raise ValueError(f"Expected kind to be one of: ['symmetric', 'lower', 'upper']; got {kind}")
    return kind


def pascal(n: int, kind: str | None = None) -> Any:
    """The Pascal matrix of binomial coefficients (`jax.scipy.linalg.pascal`; float32).

    Args:
        n: the size.
        kind: "symmetric" (default), "lower" or "upper".

    Returns:
        The `(n, n)` matrix.
    """
    kind = _kind(kind)
    a = jnp.arange(n, dtype=np.float32)
    lower = _binom(a[:, None], a[None, :])
    if kind == "lower":
        return lower
    return lower.T if kind == "upper" else jnp.dot(lower, lower.T)


def invpascal(n: int, kind: str | None = None) -> Any:
    """The inverse of the Pascal matrix (`jax.scipy.linalg.invpascal`).

    Args:
        n: the size.
        kind: "symmetric" (default), "lower" or "upper".

    Returns:
        The `(n, n)` matrix, in the default float dtype.
    """
    kind = _kind(kind)
    a = jnp.arange(n, dtype=dtypes.default_float())
    i, j = a[:, None], a[None, :]
    inv = (-1.0) ** (i - j) * _binom(i, j)
    if kind == "lower":
        return inv
    return inv.T if kind == "upper" else jnp.dot(inv.T, inv)


def invhilbert(n: int) -> Any:
    """The inverse of the Hilbert matrix (`jax.scipy.linalg.invhilbert`).

    Args:
        n: the size.

    Returns:
        The `(n, n)` matrix, in the default float dtype.
    """
    a = jnp.arange(n, dtype=dtypes.default_float())
    i, j = a[:, None], a[None, :]
    s = i + j
    return (
        (-1.0) ** s
        * (s + 1.0)
        * special.comb(n + i, n - j - 1)
        * special.comb(n + j, n - i - 1)
        * special.comb(s, i) ** 2
    )


def helmert(n: int, full: bool = False) -> Any:
    """The Helmert matrix (`jax.scipy.linalg.helmert`).

    Args:
        n: the number of columns.
        full: include the first row `1 / sqrt(n)` (an `n x n` orthogonal matrix).

    Returns:
        The `(n - 1, n)` (or `(n, n)`) matrix, in the default float dtype.
    """
    if n < 1:
        raise ValueError(f"n must be a positive integer; got {n}.")
    i, j = jnp.arange(n - 1)[:, None], jnp.arange(n)[None, :]
    k = (i + 1).astype(dtypes.default_float())
    denom = jnp.sqrt(k * (k + 1))
    h = jnp.where(j <= i, 1.0 / denom, jnp.where(j == i + 1, -k / denom, jnp.zeros_like(denom)))
    if full:
        h = jnp.concatenate([jnp.full((1, n), 1.0 / np.sqrt(n), dtype=h.dtype), h], axis=0)
    return h


def hadamard(n: int, dtype: Any = int) -> Any:
    """The Hadamard matrix of size `n`, a power of 2 (`jax.scipy.linalg.hadamard`).

    Args:
        n: the size.
        dtype: the dtype (default: the default int).

    Returns:
        The `(n, n)` matrix of +1 and -1.
    """
    if n < 1 or not math.log2(n).is_integer():
        raise ValueError(f"n must be a positive power of 2; got {n}.")
    h = jnp.ones((1, 1), dtype=dtype)
    for _ in range(int(math.log2(n))):
        h = jnp.block([[h, h], [h, -h]])
    return h


def dft(n: int, scale: str | None = None, *, dtype: Any = None) -> Any:
    """The discrete Fourier transform matrix (`jax.scipy.linalg.dft`).

    Args:
        n: the size.
        scale: None, "sqrtn" or "n" (divide by `sqrt(n)` or `n`).
        dtype: a complex dtype (default: the default complex).

    Returns:
        The `(n, n)` matrix `exp(-2 pi i j k / n)`.
    """
    if scale is not None and scale not in ("sqrtn", "n"):
        raise ValueError(f"scale must be None, 'sqrtn', or 'n'; got {scale!r}.")
    dtype = _dft_dtype(dtype)
    k = jnp.arange(n, dtype=dtype)
    roots = jnp.exp(-2j * np.pi * k[:, None] * k[None, :] / n)  # row j, column l: w^(j l)
    if scale is None:
        return roots
    return roots / (jnp.sqrt(n) if scale == "sqrtn" else n)


def _dft_dtype(dtype: Any) -> np.dtype:
    """`dft`'s complex dtype: the default complex, or a checked canonical `dtype`."""
    if dtype is None:
        return dtypes.default_complex()
    dtype = dtypes.canonicalize_dtype(dtype)
    if not dtypes.issubdtype(dtype, np.complexfloating):
        raise ValueError(f"dtype must be a complex floating-point type; got {dtype}.")
    return dtype


# ---------------------------------------------------------------------------------------------
# JAX's newer scipy.linalg functions, composed from the ones above


def expm_frechet(
    A: Any,  # noqa: N803  (scipy's names)
    E: Any,  # noqa: N803
    *,
    method: str | None = None,
    compute_expm: bool = True,
) -> Any:
    """The Frechet derivative of the matrix exponential at `A` in the direction `E`, as
    `jax.scipy.linalg.expm_frechet` (JAX's way: the `jvp` of `expm`).

    Args:
      A: `(..., n, n)` matrices.
      E: the directions, `A`'s shape.
      method: ignored (as in JAX).
      compute_expm: also return `expm(A)`.

    Returns:
      `(expm(A), L(A, E))`, or `L(A, E)` when `compute_expm` is False.
    """
    del method
    a, e = jnp.asarray(A), jnp.asarray(E)
    if a.ndim < 2 or a.shape[-2] != a.shape[-1]:
        raise ValueError(f"expected A to be a (batched) square matrix, got A.shape={a.shape}")
    if e.ndim < 2 or e.shape[-2] != e.shape[-1]:
        raise ValueError(f"expected E to be a (batched) square matrix, got E.shape={e.shape}")
    if a.shape != e.shape:
        raise ValueError(
            f"expected A and E to be the same shape, got A.shape={a.shape} E.shape={e.shape}"
        )
    expm_a, frechet = api.jvp(lambda m: expm(m, max_squarings=16), (a,), (e,))
    return (expm_a, frechet) if compute_expm else frechet


def eigh_tridiagonal(
    d: Any,
    e: Any,
    *,
    eigvals_only: bool = False,
    select: str = "a",
    select_range: tuple[float, float] | None = None,
    tol: float | None = None,
    key: Any = None,
) -> Any:
    """Eigenvalues (and vectors) of the symmetric tridiagonal matrix with diagonal `d` and
    off-diagonal `e`, as `jax.scipy.linalg.eigh_tridiagonal`.

    The matrix is formed and handed to `eigh` (JAX bisects Sturm sequences and runs inverse
    iteration; the eigenvalues agree to rounding, eigenvectors up to sign).

    Args:
      d: `(n,)` diagonal (float32, float64, or complex: its real part is read).
      e: `(n - 1,)` off-diagonal (above the diagonal; its conjugate below), `d`'s dtype.
      eigvals_only: only the eigenvalues.
      select: "a" (all) or "i" (indices `select_range[0]` to `select_range[1]`, inclusive).
      select_range: the index range for `select="i"`.
      tol: the eigenvalues' absolute tolerance: None (rounding: the dense solver's values),
        or a coarser one, where they are bisected until known to it, as JAX's.
      key: ignored (no random starting vectors are needed).

    Returns:
      The ascending eigenvalues, or `(eigenvalues, eigenvectors)` (vectors in columns).
    """
    del key
    d, e = jnp.asarray(d), jnp.asarray(e)
    if d.dtype != e.dtype:
        raise TypeError(
            f"diagonal and off-diagonal values must have same dtype, got {d.dtype} and {e.dtype}"
        )
    if d.dtype not in (np.float32, np.float64, np.complex64, np.complex128):
        raise TypeError(
            "Only float32 and float64 inputs are supported as inputs to "
            f"jax.scipy.linalg.eigh_tridiagonal, got {d.dtype} and {e.dtype}"
        )
    n = d.shape[0]
    if d.ndim != 1 or e.shape != (n - 1,):
        # JAX 0.10.2's first line (from its Sturm sequence's first addition), then the fix
        got = e.shape[:1] and (e.shape[0] + 1,)
        raise ShapeError(
            f"add got incompatible shapes for broadcasting: {d.shape}, {got}.\n"
            f"eigh_tridiagonal takes a diagonal d of shape (n,) and an off-diagonal e of shape "
            f"(n - 1,); got d.shape={d.shape}, e.shape={e.shape}."
        )
    if select == "a":
        lo, hi = 0, n - 1
    elif select == "i":
        if select_range is None:
            raise ValueError("for select='i', select_range must be specified.")
        if select_range[0] > select_range[1]:
            raise ValueError("Got empty index range in select_range.")
        lo, hi = int(select_range[0]), int(select_range[1])
    elif select == "v":
        raise NotImplementedError("eigh_tridiagonal(..., select='v') is not implemented")
    else:
        raise ValueError("'select must have a value in {'a', 'i', 'v'}.")
    # a complex pair is a Hermitian matrix: the diagonal's real part, `e` above, conj(e) below
    a = jnp.diag(jnp.real(d)).astype(d.dtype) + jnp.diag(e, 1) + jnp.diag(jnp.conj(e), -1)
    w, v = jnp.linalg.eigh(a)
    w, v = w[lo : hi + 1], v[:, lo : hi + 1]
    if tol is not None and n > 1:
        # a tolerance coarser than rounding: bisect as JAX does, stopping where it stops
        w = _bisected_eigenvalues(jnp.real(d), jnp.abs(e), np.arange(lo, hi + 1), tol)
    return w if eigvals_only else (w, v)


def _sturm_count(d: Any, e_sq: Any, x: Any, pivmin: Any, first_pivot: Any) -> Any:
    """How many eigenvalues of the tridiagonal matrix (diagonal `d`, squared off-diagonal
    `e_sq`) lie below each shift `x`: the negative pivots of `T - x I`'s LDL^T recurrence, each
    pivot kept at least `pivmin` away from zero (a zero first pivot becomes `first_pivot`)."""
    q = d[0] - x
    count = (q < 0).astype(np.int32)
    q = jnp.where(d[0] == x, first_pivot, q)

    def step(i: Any, carry: tuple) -> tuple:
        q, count = carry
        q = d[i] - e_sq[i - 1] / q - x
        small = q <= pivmin
        return jnp.where(small, jnp.minimum(q, -pivmin), q), count + small.astype(np.int32)

    return lax.fori_loop(1, d.shape[0], step, (q, count))[1]


def _bisected_eigenvalues(d: Any, e_abs: Any, targets: np.ndarray, tol: float) -> Any:
    """The eigenvalues numbered `targets` (ascending) by parallel bisection of Sturm counts
    from a slightly widened Gershgorin interval, halving until every interval is narrower than
    `max(tol, eps * norm)` or the mantissa's bits are used up (JAX's stopping rule)."""
    info = np.finfo(d.dtype)
    e_sq = e_abs * e_abs
    radius = jnp.concatenate([e_abs[:1], e_abs[:-1] + e_abs[1:], e_abs[-1:]])
    top, bottom = jnp.max(d + radius), jnp.min(d - radius)
    norm = jnp.maximum(jnp.abs(bottom), jnp.abs(top))
    safe_min = max(1 / info.max, (1 + info.eps) * info.tiny)
    pivmin = (safe_min * jnp.maximum(1, jnp.max(e_sq))).astype(d.dtype)
    first_pivot = jnp.square(info.eps * e_abs[0])
    width = jnp.maximum(tol, info.eps * norm)
    widen = d.shape[0] * 2.1 * info.eps * norm
    shape = targets.shape
    lower = jnp.broadcast_to(bottom - widen - 4.2 * pivmin, shape)
    upper = jnp.broadcast_to(top + widen + 2.1 * pivmin, shape)

    def going(state: tuple) -> Any:
        i, lower, _, upper = state
        return (i < info.nmant + 1) & (width < jnp.max(upper - lower))

    def halve(state: tuple) -> tuple:
        i, lower, mid, upper = state
        below = _sturm_count(d, e_sq, mid, pivmin, first_pivot) <= targets
        lower, upper = jnp.where(below, mid, lower), jnp.where(below, upper, mid)
        return i + 1, lower, 0.5 * (lower + upper), upper

    start = (0, lower, 0.5 * (upper + lower), upper)
    return lax.while_loop(going, halve, start)[2]


def qr_multiply(
    a: Any,
    c: Any,
    mode: str = "right",
    pivoting: bool = False,
    conjugate: bool = False,
    overwrite_a: bool = False,
    overwrite_c: bool = False,
) -> tuple[Any, ...]:
    """The QR decomposition of `a` with `Q` multiplied into `c`, as
    `jax.scipy.linalg.qr_multiply`.

    Args:
      a: `(..., m, n)` matrices.
      c: `mode="left"`: `(..., k, p)` (`k = min(m, n)`; 1-D: a column); `mode="right"`:
        `(..., p, m)` (1-D: a row).
      mode: "left" (`Q @ c`) or "right" (`c @ Q`).
      pivoting: not supported (column-pivoted QR).
      conjugate: use `conj(Q)`.
      overwrite_a, overwrite_c: ignored.

    Returns:
      `(Q @ c or c @ Q, R)` with `R` of shape `(..., k, n)`.
    """
    del overwrite_a, overwrite_c
    if pivoting:
        raise NotImplementedError("qr_multiply with pivoting=True is not supported")
    a, c = promote_dtypes_inexact(jnp.asarray(a), jnp.asarray(c))
    if mode not in ("right", "left"):
        raise ValueError(f"mode must be 'right' or 'left', got {mode!r}")
    onedim = c.ndim == 1
    if onedim:
        c = c[:, None] if mode == "left" else c[None, :]
    m, n = a.shape[-2:]
    k = min(m, n)
    if mode == "left" and c.shape[-2] != k:
        raise ValueError(
            f"Array shapes are not compatible for Q @ c operation: a has shape "
            f"{tuple(a.shape)} so Q has {k} columns, but c has {c.shape[-2]} rows (expected {k})."
        )
    if mode == "right" and c.shape[-1] != m:
        raise ValueError(
            f"Array shapes are not compatible for c @ Q operation: a has shape "
            f"{tuple(a.shape)} so Q has {m} rows, but c has {c.shape[-1]} columns (expected {m})."
        )
    q, r = jnp.linalg.qr(a, mode="reduced")
    if conjugate:
        q = jnp.conj(q)
    out = q @ c if mode == "left" else c @ q
    if onedim:
        out = out.ravel()
    return out, r


def _solve_sylvester_2d(a: Any, b: Any, c: Any, method: str, tol: float) -> Any:
    m, n = c.shape
    if method == "schur":
        # The Bartels-Stewart solution is the unique one; numbax solves the equivalent
        # Kronecker system (I (x) A + B^T (x) I) vec(X) = vec(C) directly (no Schur form yet).
        kron = jnp.kron(jnp.eye(n, dtype=a.dtype), a) + jnp.kron(b.T, jnp.eye(m, dtype=a.dtype))
        x = jnp.linalg.solve(kron, c.T.reshape(-1)).reshape(n, m).T
    elif method == "eigen":
        ra, ua = jnp.linalg.eig(a)
        rb, ub = jnp.linalg.eig(b)
        f = jnp.linalg.solve(ua, c.astype(ra.dtype) @ ub)
        x = ua @ (f / (ra[:, None] + rb[None, :])) @ jnp.linalg.inv(ub)
    else:
        raise ValueError(
            f'Unrecognized method {method}. The two valid methods are either "schur" or "eigen".'
        )
    if not jnp.iscomplexobj(c):
        x = x.real
    close = jnp.abs(jnp.linalg.eigvals(a)[:, None] + jnp.linalg.eigvals(b)[None, :]) < tol
    return jnp.where(jnp.any(close), jnp.full_like(x, np.nan), x)


def solve_sylvester(
    A: Any,  # noqa: N803  (scipy's names)
    B: Any,  # noqa: N803
    C: Any,  # noqa: N803
    *,
    method: str = "schur",
    tol: float = 1e-8,
) -> Any:
    """The solution `X` of the Sylvester equation `A X + X B = C`, as
    `jax.scipy.linalg.solve_sylvester`.

    Args:
      A: `(..., m, m)`.
      B: `(..., n, n)`.
      C: `(..., m, n)` (batch dimensions broadcast).
      method: "schur" (the exact linear solve: numbax solves the Kronecker form) or "eigen"
        (JAX's eigendecomposition method, fast but inaccurate for ill-conditioned `A`, `B`).
      tol: NaNs are returned when some `|eig(A)_i + eig(B)_j| < tol` (no unique solution).

    Returns:
      `X`, `(..., m, n)`.
    """
    a, b, c = promote_dtypes_inexact(jnp.asarray(A), jnp.asarray(B), jnp.asarray(C))
    m, n = c.shape[-2:]
    if a.shape[-2:] != (m, m) or b.shape[-2:] != (n, n):
        raise ValueError(
            f"Incompatible shapes for Sylvester equation:\nA: {a.shape}\nB: {b.shape}\nC: {c.shape}"
        )
    if method not in ("schur", "eigen"):
        raise ValueError(
            f'Unrecognized method {method}. The two valid methods are either "schur" or "eigen".'
        )
    solve_one = jnp.vectorize(
        lambda a, b, c: _solve_sylvester_2d(a, b, c, method, tol),
        signature="(m,m),(n,n),(m,n)->(m,n)",
    )
    return solve_one(a, b, c)


# ---------------------------------------------------------------------------------------------
# The Schur decomposition and the matrix functions built on it
#
# `schur` runs `core/lax/schur_qr.py`'s numpy QR algorithm on the host through `pure_callback`
# (so it works eagerly, under `jit` and `vmap`, and, like JAX's, is not differentiable).
# `rsf2csf`, `sqrtm` and `funm` are compositions on its result: Givens rotations of the 2x2
# blocks, Bjorck and Hammarling's triangular square root, Parlett's recurrence (Golub and Van
# Loan, Algorithm 11.1.1), each a Python loop over the static matrix size.


def _schur_host(complex_out: bool, dtype: np.dtype) -> Any:
    def host(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        x = np.asarray(x)
        n = x.shape[-1]
        flat = x.reshape(-1, n, n)
        ts, zs = np.empty(flat.shape, dtype), np.empty(flat.shape, dtype)
        for i, m in enumerate(flat):
            t, z = schur_qr.complex_schur(m) if complex_out else schur_qr.real_schur(m)
            ts[i], zs[i] = t, z
        return ts.reshape(x.shape), zs.reshape(x.shape)

    return host


def _schur(a: Any, complex_out: bool) -> tuple[Any, Any]:
    (a,) = promote_dtypes_inexact(jnp.asarray(a))
    if a.ndim < 2:
        raise TypeError(
            f"Input 0 to schur must have rank at least 2, but got shape={a.shape}. Pass a "
            "square matrix (or a batch of them)."
        )
    if a.shape[-1] != a.shape[-2]:
        raise ValueError(f"The input to schur must be a square matrix. Got shape {a.shape}.")
    complex_out = complex_out or jnp.iscomplexobj(a)
    dt = np.dtype(jnp.result_type(a.dtype, np.complex64)) if complex_out else np.dtype(a.dtype)
    if complex_out:
        a = a.astype(dt)
    if a.shape[-1] == 0:  # JAX's: empty Schur factors
        return a, a
    return _schur_call(a, complex_out, dt)


@functools.partial(custom_jvp, nondiff_argnums=(1, 2))
def _schur_call(a: Any, complex_out: bool, dt: np.dtype) -> tuple[Any, Any]:
    shape = ShapeDtypeStruct(a.shape, dt)
    return pure_callback(
        _schur_host(complex_out, dt), (shape, shape), a, vmap_method="broadcast_all"
    )


@_schur_call.defjvp
def _schur_jvp(complex_out: bool, dt: np.dtype, primals: tuple, tangents: tuple) -> tuple:
    raise SchurGradientError(
        "Differentiation rule for 'schur' not implemented\nschur (and sqrtm and funm, built on "
        "it) has no derivative, as in JAX: differentiate expm, eigh or svd instead, or "
        "stop_gradient the matrix."
    )


def schur(a: Any, output: str = "real") -> list[Any]:
    """The Schur decomposition `a = Z T Z^H`, as `jax.scipy.linalg.schur`.

    Args:
      a: `(..., n, n)` matrices.
      output: "real" (for real `a`: `T` quasi upper triangular, with 2x2 blocks for complex
        eigenvalue pairs) or "complex" (`T` upper triangular, complex).

    Returns:
      `[T, Z]` (a list, as JAX returns), `Z` orthogonal (unitary).
    """
    if output not in ("real", "complex"):
        raise ValueError(f"Expected 'output' to be either 'real' or 'complex', got {output=}.")
    a = jnp.asarray(a)
    if not jnp.issubdtype(a.dtype, jnp.inexact):
        raise SchurDTypeError(
            f"schur does not accept dtype {a.dtype} at position 0. Accepted dtypes at position 0 "
            "are subtypes of floating, complexfloating.\nconvert a to a float dtype first."
        )
    return list(_schur(a, output == "complex"))


def _rsf2csf_2d(t: Any, z: Any) -> tuple[Any, Any]:
    dt = jnp.result_type(t.dtype, z.dtype)  # its complex counterpart (no strict-mode join)
    dt = dt if dt.kind == "c" else np.dtype(np.complex128 if dt == np.float64 else np.complex64)
    t, z = t.astype(dt), z.astype(dt)
    eps = float(np.finfo(dt).eps)
    n = t.shape[0]
    for m in range(n - 1, 0, -1):
        a, b, c, d = t[m - 1, m - 1], t[m - 1, m], t[m, m - 1], t[m, m]
        live = jnp.abs(c) > eps * (jnp.abs(a) + jnp.abs(d))
        mu = (a + d) / 2 + jnp.sqrt(((a - d) / 2) ** 2 + b * c) - d  # first eigenvalue - d
        r = jnp.sqrt(jnp.abs(mu) ** 2 + jnp.abs(c) ** 2).astype(dt)
        r = jnp.where(live, r, 1.0)
        cs = jnp.where(live, mu / r, 1.0)
        sn = jnp.where(live, c / r, 0.0)
        g = jnp.stack([jnp.stack([jnp.conj(cs), sn]), jnp.stack([-sn, cs])])
        t = t.at[m - 1 : m + 1, m - 1 :].set(g @ t[m - 1 : m + 1, m - 1 :])
        t = t.at[: m + 1, m - 1 : m + 1].set(t[: m + 1, m - 1 : m + 1] @ jnp.conj(g).T)
        z = z.at[:, m - 1 : m + 1].set(z[:, m - 1 : m + 1] @ jnp.conj(g).T)
        t = t.at[m, m - 1].set(0.0)
    return t, z


def rsf2csf(T: Any, Z: Any, check_finite: bool = True) -> tuple[Any, Any]:  # noqa: N803
    """The complex Schur form from a real one, as `jax.scipy.linalg.rsf2csf`.

    Args:
      T: `(..., n, n)` real Schur forms.
      Z: their Schur vectors (batch dimensions broadcast with `T`'s).
      check_finite: ignored.

    Returns:
      `(T, Z)`: upper triangular complex `T` and unitary `Z` with the same product.
    """
    del check_finite
    t, z = jnp.asarray(T), jnp.asarray(Z)
    if t.ndim < 2 or t.shape[-1] != t.shape[-2]:
        raise ValueError("Input 'T' must be square.")
    if z.ndim < 2 or z.shape[-1] != z.shape[-2]:
        raise ValueError("Input 'Z' must be square.")
    if t.shape[-1] != z.shape[-1]:
        raise ValueError(f"Input array shapes must match: Z: {z.shape} vs. T: {t.shape}")
    return jnp.vectorize(_rsf2csf_2d, signature="(n,n),(n,n)->(n,n),(n,n)")(t, z)


def _sqrtm_triu(t: Any) -> Any:
    """The upper triangular square root of an upper triangular `t` (Bjorck and Hammarling)."""
    n = t.shape[0]
    d = jnp.sqrt(jnp.diag(t))
    u = jnp.diag(d)
    for j in range(n):
        for i in range(j - 1, -1, -1):
            s = u[i, i + 1 : j] @ u[i + 1 : j, j] if j > i + 1 else jnp.zeros((), t.dtype)
            value = jnp.where(t[i, j] == s, 0.0, (t[i, j] - s) / (d[i] + d[j]))
            u = u.at[i, j].set(value)
    return u


def sqrtm(A: Any, blocksize: int = 1) -> Any:  # noqa: N803
    """The principal matrix square root, as `jax.scipy.linalg.sqrtm` (complex output).

    The complex Schur form's triangular root (Bjorck and Hammarling 1983), transformed back.

    Args:
      A: an `(n, n)` matrix.
      blocksize: must be 1 (the blocked algorithm is not implemented, as in JAX).

    Returns:
      the complex square root.
    """
    if blocksize > 1:
        raise NotImplementedError("Blocked version is not implemented yet.")
    t, z = _schur(A, True)
    root = _sqrtm_triu(t)
    return z @ root @ jnp.conj(z).T


def funm(A: Any, func: Any, disp: bool = True) -> Any:  # noqa: N803
    """`func` of a matrix through its Schur form, as `jax.scipy.linalg.funm`.

    `func` applied to the eigenvalues (the diagonal of the complex Schur form), the rest of the
    triangular result from Parlett's recurrence (Golub and Van Loan, Algorithm 11.1.1); poor
    for close eigenvalues, as scipy's.

    Args:
      A: an `(n, n)` matrix.
      func: a function of an array of (complex) eigenvalues, elementwise.
      disp: True: return the result; False: also an error estimate.

    Returns:
      the complex matrix function, or `(F, err)` when `disp` is False.
    """
    a = jnp.asarray(A)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError("expected square array_like input")
    t, z = rsf2csf(*schur(a))
    n = t.shape[0]
    f = jnp.diag(func(jnp.diag(t))).astype(t.dtype)
    minden = jnp.abs(t[0, 0])
    for p in range(1, n):
        for i in range(n - p):
            j = i + p
            s = t[i, j] * (f[j, j] - f[i, i])
            if j > i + 1:
                s = s + t[i, i + 1 : j] @ f[i + 1 : j, j] - f[i, i + 1 : j] @ t[i + 1 : j, j]
            den = t[j, j] - t[i, i]
            s = jnp.where(den != 0, s / jnp.where(den != 0, den, 1.0), s)
            f = f.at[i, j].set(s)
            minden = jnp.minimum(minden, jnp.abs(den))
    f = z @ f @ jnp.conj(z).T
    if disp:
        return f
    tol = float(np.finfo(f.dtype).eps)
    minden = jnp.where(minden == 0.0, tol, minden)
    err = jnp.where(
        jnp.any(jnp.isinf(f)),
        np.inf,
        jnp.minimum(1, jnp.maximum(tol, (tol / minden) * jnp.linalg.norm(jnp.triu(t, 1), 1))),
    )
    return f, err
