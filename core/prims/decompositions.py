"""Matrix decompositions on the last two axes: cholesky, qr, svd, eigh, inv, slogdet, lu.

Each impl is numpy's `linalg` routine (batched over leading axes), so batching just moves the
batch axis to the front. JVPs follow the standard formulas (as in JAX's `linalg.py`) for
cholesky, qr, eigh, inv and slogdet; `svd` has no derivative yet. numba supports the same
`np.linalg` calls, which is how these lower under `jit`.
`lu` is JAX's `lu_p` (results `lu, pivots, permutation`): its impl is LAPACK getrf's algorithm
in numpy (numpy has no LU), its lowering calls getrf, and its jvp, JAX's two triangular solves,
is defined by `core/lax/lu.py` next to `triangular_solve_p`, which sits in the layer above.
The rules are written on primitives (`dot_general`, `select_n`, ...; the small matrix helpers
below), never on `core.numpy`, which sits above this layer (core/README.md).
`eigh`'s `algorithm`, `svd`'s and `eig`'s `implementation` take JAX's enums
(`EighImplementation`, `SvdAlgorithm`, `EigImplementation`): jaxprs print them, and the ones
JAX's CPU lacks raise JAX's errors when the program runs or compiles (`check_cpu_algorithm`),
as JAX's CPU lowerings do; LAPACK computes the others (numbax's gesdd for `SvdAlgorithm.QR`,
which JAX computes by gesvd: equal to rounding, up to the singular vectors' signs).
"""

from __future__ import annotations

import enum
from typing import Any

import numpy as np

from core import dtypes
from core.array import Array
from core.avals import ShapedArray
from core.errors import DTypeError, LinalgDtypeError, ShapeError
from core.interpreters import batching
from core.primitive import Primitive
from core.prims import indexing
from core.prims.elementwise import (
    add,
    complex_p,
    div,
    eq,
    full_like,
    imag_p,
    mul,
    neg,
    real_p,
    select_n,
    sub,
)
from core.prims.linalg import dot_general
from core.prims.shapes import broadcast_in_dim, convert_element_type, reshape, transpose, zeros_like
from core.trace import get_aval


class EigImplementation(enum.Enum):
    """Enum for eigendecomposition algorithm."""

    CUSOLVER = "cusolver"
    MAGMA = "magma"
    LAPACK = "lapack"


class EighImplementation(enum.Enum):
    """Implementation for symmetric/Hermitian eigendecomposition."""

    QR = "qr"
    JACOBI = "jacobi"
    QDWH = "qdwh"


class SvdAlgorithm(enum.Enum):
    """Enum for SVD algorithm."""

    DEFAULT = "default"
    QR = "QR"
    JACOBI = "Jacobi"
    POLAR = "polar"
    DIVIDE_AND_CONQUER = "divide_and_conquer"


def check_cpu_algorithm(name: str, params: dict[str, Any]) -> None:
    """Raises JAX's CPU lowering's error when `eigh`'s, `svd`'s or `eig`'s algorithm is one
    only a GPU or TPU runs (the impl and the numba lowering call this, so eager calls and
    `jit` raise it when the program runs or compiles, as JAX's do; tracing accepts it).

    Args:
      name: the primitive's name ("eigh", "svd" or "eig").
      params: its parameters.
    """
    if name == "eigh":
        if params["algorithm"] == EighImplementation.QDWH:
            raise NotImplementedError("QDWH implementation is only supported on TPU")
        if params["algorithm"] == EighImplementation.JACOBI:
            raise NotImplementedError("Jacobi implementation is not supported on CPU")
    elif name == "svd":
        cpu = (None, SvdAlgorithm.DEFAULT, SvdAlgorithm.QR, SvdAlgorithm.DIVIDE_AND_CONQUER)
        if params["algorithm"] not in cpu:
            raise NotImplementedError(
                "The SVD Jacobi and Polar algorithms are not implemented on CPU."
            )
    elif params["implementation"] not in (None, EigImplementation.LAPACK):
        raise ValueError("Only the lapack implementation is supported on CPU.")


# JAX's words for a non-square operand, by primitive
_NOT_SQUARE = {
    "cholesky": "The input to cholesky must be a square matrix. Got shape {}.",
    "eig": "The input to eig must be a square matrix. Got shape {}.",
    "eigh": "Argument to symmetric eigendecomposition must have shape [..., n, n], got shape {}",
}


def _check_matrix(name: str, x: ShapedArray, square: bool) -> None:
    if x.ndim < 2:
        raise ShapeError(
            f"Input 0 to {name} must have rank at least 2, but got shape={x.shape}\n"
            f"{name} takes matrices in the last two axes."
        )
    if square and x.shape[-1] != x.shape[-2]:
        raise ShapeError(
            _NOT_SQUARE.get(
                name, "{} needs square matrices in the last two axes, got shape {}"
            ).format(*((x.shape[-2:],) if name in _NOT_SQUARE else (name, x.shape)))
            + f"\n{name} takes square matrices (..., n, n)."
        )
    if x.dtype in (np.float16, dtypes.bfloat16):
        raise LinalgDtypeError(  # JAX's first line is the repr of its error's arguments
            f"(KeyError({x.dtype.type!r}), 'Unsupported dtype {x.dtype}.')\n{name} computes in "
            "float32, float64, complex64 or complex128 (as LAPACK); convert first, "
            "x.astype(jnp.float32)."
        )
    if x.dtype.kind not in "fc":
        raise DTypeError(f"{name} needs a floating-point array, got {x.dtype}")


def _front_batcher(prim: Primitive) -> None:
    def rule(args, dims, **params):
        (x,), (d,) = args, dims
        x = batching.moveaxis(x, d, 0, get_aval(x).shape[d])
        out = prim.bind(x, **params)
        return out, ([0] * len(out) if prim.multiple_results else 0)

    prim.def_batch(rule)


def _mT(x):
    """The matrix transpose of the last two axes."""
    nd = get_aval(x).ndim
    return transpose(x, (*range(nd - 2), nd - 1, nd - 2))


def _mH(x):
    """The conjugate transpose of the last two axes (the transpose for real dtypes)."""
    xt = _mT(x)
    if get_aval(x).dtype.kind != "c":
        return xt
    return complex_p.bind(real_p.bind(xt), neg(imag_p.bind(xt)))


def _real_dtype(dtype: np.dtype) -> np.dtype:
    """The dtype of the real part: eigenvalues of Hermitian matrices are real."""
    return (
        np.dtype(np.float64 if dtype == np.complex128 else np.float32)
        if dtype.kind == "c"
        else dtype
    )


def _mm(a, b):
    """`a @ b` for stacks of matrices with the same batch shape (one `dot_general`)."""
    nb = get_aval(a).ndim - 2
    batch = tuple(range(nb))
    return dot_general(a, b, (((nb + 1,), (nb,)), (batch, batch)))


def _diagonal(x):
    """The main diagonals of a stack of square matrices: every (n+1)-th element of each
    flattened matrix (exact picks, as a gather would make)."""
    *b, n, _ = get_aval(x).shape
    flat = reshape(x, (*b, n * n))
    nd = len(b) + 1
    return indexing.slice(flat, (0,) * nd, (*b, n * n), (*[1] * len(b), n + 1))


def _matrix_const(value: np.ndarray, x) -> Any:
    """The (n, m) numpy array `value` broadcast to `x`'s shape: a mask stays bool, numbers
    take `x`'s dtype."""
    shape = get_aval(x).shape
    nd = len(shape)
    if value.dtype != np.bool_:
        value = value.astype(get_aval(x).dtype)
    return broadcast_in_dim(Array(value), shape, (nd - 2, nd - 1))


def _tril(x, k: int = 0):
    """`x` with the entries above diagonal `k` of its last two axes zeroed."""
    n, m = get_aval(x).shape[-2:]
    mask = _matrix_const(np.tri(n, m, k, dtype=bool), x)
    return select_n(mask, zeros_like(x), x)


def _rows(v, shape):
    """The vectors `v` (`(*b, k)`) as the rows of `shape` (`(*b, m, k)`): `v[..., None, :]`."""
    nb = len(shape) - 2
    return broadcast_in_dim(v, shape, (*range(nb), nb + 1))


def _cols(v, shape):
    """The vectors `v` (`(*b, k)`) as the columns of `shape` (`(*b, k, k)`): `v[..., :, None]`."""
    nb = len(shape) - 2
    return broadcast_in_dim(v, shape, (*range(nb), nb))


# ---------------------------------------------------------------------------------------------
# inv

inv_p = Primitive("inv")


def _inv_impl(x):
    """numpy's inverse; a singular matrix gives NaNs instead of `LinAlgError`, as under `jit`
    (and as JAX, whose LU-based inverse never raises)."""
    try:
        return np.linalg.inv(x).astype(x.dtype)
    except np.linalg.LinAlgError:
        out = np.empty_like(x)
        flat, res = x.reshape(-1, *x.shape[-2:]), out.reshape(-1, *x.shape[-2:])
        for i, m in enumerate(flat):
            try:
                res[i] = np.linalg.inv(m)
            except np.linalg.LinAlgError:
                res[i] = np.nan
        return out


inv_p.def_impl(_inv_impl)


def _inv_abstract_eval(x):
    _check_matrix("inv", x, True)
    return ShapedArray(x.shape, x.dtype)


def _inv_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    out = inv_p.bind(x)
    return out, neg(_mm(_mm(out, t), out))


inv_p.def_abstract_eval(_inv_abstract_eval)
inv_p.def_jvp(_inv_jvp)
_front_batcher(inv_p)


# ---------------------------------------------------------------------------------------------
# lu: JAX's `lu_p`, `P a = L U` with partial pivoting -> (lu, pivots, permutation)

lu_p = Primitive("lu", multiple_results=True)


def _lu_one(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """LAPACK getrf's LU of one `(m, n)` matrix, in place: the pivot of column k is the first
    row of largest `|re| + |im|` (`i?amax`) at or below k; a zero pivot leaves its column
    unscaled; the multipliers are the column times the pivot's reciprocal."""
    m, n = a.shape
    pivots = np.zeros(min(m, n), np.int32)
    tiny = np.finfo(a.real.dtype).tiny
    for k in range(min(m, n)):
        col = a[k:, k]
        p = k + int(np.argmax(np.abs(col.real) + np.abs(col.imag)))
        pivots[k] = p
        if p != k:
            a[[k, p]] = a[[p, k]]
        pivot = a[k, k]
        if pivot != 0:
            if abs(pivot) >= tiny:
                a[k + 1 :, k] *= 1 / pivot
            else:
                a[k + 1 :, k] /= pivot
        a[k + 1 :, k + 1 :] -= np.outer(a[k + 1 :, k], a[k, k + 1 :])
    return a, pivots


def pivots_to_permutation(pivots: np.ndarray, m: int) -> np.ndarray:
    """The int32 permutation `(..., m)` the row swaps `pivots (..., k)` make of `range(m)`."""
    perm = np.broadcast_to(np.arange(m, dtype=np.int32), (*pivots.shape[:-1], m)).copy()
    count = int(np.prod(pivots.shape[:-1], dtype=np.int64))
    flat, piv = perm.reshape(count, m), pivots.reshape(count, pivots.shape[-1])
    for row, swaps in zip(flat, piv):
        for i, j in enumerate(swaps):
            row[i], row[j] = row[j], row[i]
    return perm


def _lu_impl(x):
    *b, m, n = x.shape
    out = np.array(x, copy=True)
    pivots = np.zeros((*b, min(m, n)), np.int32)
    count = int(np.prod(b, dtype=np.int64))
    flat, piv = out.reshape(count, m, n), pivots.reshape(count, min(m, n))
    for i in range(count):
        flat[i], piv[i] = _lu_one(flat[i])
    return [out, pivots, pivots_to_permutation(pivots, m)]


def _lu_abstract_eval(x):
    _check_matrix("lu", x, False)
    *b, m, n = x.shape
    i32 = np.dtype(np.int32)
    return [
        ShapedArray(x.shape, x.dtype),
        ShapedArray((*b, min(m, n)), i32),
        ShapedArray((*b, m), i32),
    ]


lu_p.def_impl(_lu_impl)
lu_p.def_abstract_eval(_lu_abstract_eval)
_front_batcher(lu_p)  # the jvp (triangular solves) is core/lax/lu.py's


# ---------------------------------------------------------------------------------------------
# cholesky (lower)

cholesky_p = Primitive("cholesky")


def _cholesky_impl(x):
    try:
        return np.linalg.cholesky(x).astype(x.dtype)
    except np.linalg.LinAlgError:  # JAX returns NaNs for non-positive-definite inputs
        return np.full(x.shape, np.nan, x.dtype)


def _cholesky_abstract_eval(x):
    _check_matrix("cholesky", x, True)
    return ShapedArray(x.shape, x.dtype)


def _cholesky_jvp(primals, tangents):
    # dL = L * Phi(L^-1 dA L^-H), Phi = lower triangle with the diagonal halved.
    (x,), (t,) = primals, tangents
    L = cholesky_p.bind(x)
    Linv = inv_p.bind(L)
    inner = _mm(_mm(Linv, t), _mH(Linv))
    n = get_aval(x).shape[-1]
    phi = mul(_tril(inner), _matrix_const(1 - 0.5 * np.eye(n), inner))
    return L, _mm(L, phi)


cholesky_p.def_impl(_cholesky_impl)
cholesky_p.def_abstract_eval(_cholesky_abstract_eval)
cholesky_p.def_jvp(_cholesky_jvp)
_front_batcher(cholesky_p)


# ---------------------------------------------------------------------------------------------
# qr

qr_p = Primitive("qr", multiple_results=True)


def _qr_impl(x, *, full_matrices, **_):
    q, r = np.linalg.qr(x, mode="complete" if full_matrices else "reduced")
    return [q.astype(x.dtype), r.astype(x.dtype)]


def _qr_abstract_eval(x, *, full_matrices, **_):
    _check_matrix("qr", x, False)
    *b, m, n = x.shape
    k = m if full_matrices else min(m, n)
    return [ShapedArray((*b, m, k), x.dtype), ShapedArray((*b, k, n), x.dtype)]


def _thin_qr_jvp(q, r, dx):
    """JAX's `_thin_qr_jvp` (m >= n): `dX R^-1` split by `Q^H` into a skew-Hermitian part
    and an upper triangle, with the imaginary diagonal kept for complex matrices."""
    dx_rinv = _mm(dx, inv_p.bind(r))
    qt_dx_rinv = _mm(_mH(q), dx_rinv)
    lower = _tril(qt_dx_rinv, -1)
    do = sub(lower, _mH(lower))
    if get_aval(q).dtype.kind == "c":
        ident = _matrix_const(np.eye(get_aval(r).shape[-1]), qt_dx_rinv)
        re = convert_element_type(real_p.bind(qt_dx_rinv), get_aval(q).dtype)
        do = add(do, mul(ident, sub(qt_dx_rinv, re)))
    dq = add(_mm(q, sub(do, qt_dx_rinv)), dx_rinv)
    dr = _mm(sub(qt_dx_rinv, do), r)
    return dq, dr


def _qr_jvp(primals, tangents, *, full_matrices, **params):
    (x,), (t,) = primals, tangents
    q, r = qr_p.bind(x, full_matrices=full_matrices, **params)
    *b, m, n = get_aval(x).shape
    if full_matrices and m > n:
        raise NotImplementedError(
            "qr derivatives of tall matrices need full_matrices=False (mode='reduced')"
        )
    if m >= n:
        return [q, r], list(_thin_qr_jvp(q, r, t))

    # JAX's wide case: X = [X1 X2], X1 = Q R1 (square), R2 = Q^H X2
    def cols(a, lo, hi):
        return indexing.slice(a, (0,) * (len(b) + 1) + (lo,), (*b, m, hi))

    dq, dr1 = _thin_qr_jvp(q, cols(r, 0, m), cols(t, 0, m))
    dr2 = add(_mm(_mH(dq), cols(x, m, n)), _mm(_mH(q), cols(t, m, n)))
    return [q, r], [dq, indexing.concatenate([dr1, dr2], len(b) + 1)]


qr_p.def_impl(_qr_impl)
qr_p.def_abstract_eval(_qr_abstract_eval)
qr_p.def_jvp(_qr_jvp)
_front_batcher(qr_p)


# ---------------------------------------------------------------------------------------------
# eigh (symmetric eigen-decomposition; eigenvalues ascending)

eigh_p = Primitive("eigh", multiple_results=True)


def _eigh_impl(x, *, lower, **params):
    check_cpu_algorithm("eigh", params)
    w, v = np.linalg.eigh(x, UPLO="L" if lower else "U")
    return [v.astype(x.dtype), w.astype(_real_dtype(x.dtype))]


def _eigh_abstract_eval(x, *, lower, **_):
    _check_matrix("eigh", x, True)
    return [ShapedArray(x.shape, x.dtype), ShapedArray(x.shape[:-1], _real_dtype(x.dtype))]


def _eigh_jvp(primals, tangents, **params):
    (x,), (t,) = primals, tangents
    v, w = eigh_p.bind(x, **params)
    vt_dx_v = _mm(_mH(v), _mm(t, v))
    dw = _diagonal(vt_dx_v)
    if get_aval(x).dtype.kind == "c":  # real eigenvalues: the diagonal of a Hermitian product
        dw = real_p.bind(dw)
    shape = get_aval(x).shape
    gap = sub(_rows(w, shape), _cols(w, shape))  # w_j - w_i
    off = _matrix_const(~np.eye(shape[-1], dtype=bool), gap)
    safe = select_n(off, full_like(gap, 1), gap)
    f = select_n(off, zeros_like(gap), div(full_like(safe, 1), safe))
    dv = _mm(v, mul(convert_element_type(f, get_aval(x).dtype), vt_dx_v))
    return [v, w], [dv, dw]


eigh_p.def_impl(_eigh_impl)
eigh_p.def_abstract_eval(_eigh_abstract_eval)
eigh_p.def_jvp(_eigh_jvp)
_front_batcher(eigh_p)


# ---------------------------------------------------------------------------------------------
# svd

svd_p = Primitive("svd", multiple_results=True)


def _svd_impl(x, *, full_matrices, compute_uv, **params):
    check_cpu_algorithm("svd", params)
    real = _real_dtype(x.dtype)
    if not compute_uv:
        return [np.linalg.svd(x, compute_uv=False).astype(real)]
    u, s, vh = np.linalg.svd(x, full_matrices=full_matrices)
    return [s.astype(real), u.astype(x.dtype), vh.astype(x.dtype)]


def _svd_abstract_eval(x, *, full_matrices, compute_uv, **_):
    _check_matrix("svd", x, False)
    *b, m, n = x.shape
    k = min(m, n)
    s = ShapedArray((*b, k), _real_dtype(x.dtype))  # singular values are real, as JAX's
    if not compute_uv:
        return [s]
    um, vn = (m, n) if full_matrices else (k, k)
    return [s, ShapedArray((*b, m, um), x.dtype), ShapedArray((*b, vn, n), x.dtype)]


def _svd_jvp(primals, tangents, *, full_matrices, compute_uv, **params):
    # JAX's rule: dS = U^H dA V; ds = Re diag(dS); dU, dV from the off-diagonal part of dS
    # (and, for complex matrices, dU's diagonal phase term from dS's anti-Hermitian part).
    (a,), (da,) = primals, tangents
    *_, m, n = get_aval(a).shape
    if compute_uv and full_matrices and m != n:
        raise NotImplementedError(
            "differentiating svd with full_matrices=True needs a square matrix; use "
            "full_matrices=False"
        )
    s, u, vt = svd_p.bind(a, full_matrices=False, compute_uv=True, **params)
    dtype = get_aval(a).dtype
    cplx = dtype.kind == "c"

    def like_a(x):  # real factors in the complex products (JAX's astype(A.dtype))
        return convert_element_type(x, dtype) if cplx else x

    v = _mH(vt)
    ds_mat = _mm(_mH(u), _mm(da, v))
    ds = _diagonal(ds_mat)
    if cplx:
        ds = real_p.bind(ds)
    if not compute_uv:
        return [s], [ds]
    kk = get_aval(ds_mat).shape
    s_row, s_col = _rows(s, kk), _cols(s, kk)
    ident = _matrix_const(np.eye(kk[-1]), s_row)
    f = sub(div(full_like(ident, 1), add(mul(add(s_row, s_col), sub(s_row, s_col)), ident)), ident)
    f, s_row_c, s_col_c = like_a(f), like_a(s_row), like_a(s_col)
    dss, sds = mul(s_row_c, ds_mat), mul(s_col_c, ds_mat)
    du_inner = mul(f, add(dss, _mH(dss)))
    if cplx:  # 0.5 (dS - dS^H) diag(1 / s), 0 where s is 0
        zero, one = eq(s_row, full_like(s_row, 0)), full_like(s_row, 1)
        s_inv = select_n(zero, div(one, select_n(zero, s_row, one)), zeros_like(s_row))
        s_inv_mat = like_a(mul(s_inv, ident))
        half = full_like(ds_mat, 0.5)
        du_inner = add(du_inner, mul(mul(half, sub(ds_mat, _mH(ds_mat))), s_inv_mat))
    du = _mm(u, du_inner)
    dv = _mm(v, mul(f, add(sds, _mH(sds))))
    if m > n:
        dav = _mm(da, v)
        s_div = like_a(_rows(s, get_aval(dav).shape))
        du = add(du, div(sub(dav, _mm(u, _mm(_mH(u), dav))), s_div))
    if n > m:
        dau = _mm(_mH(da), u)
        s_div = like_a(_rows(s, get_aval(dau).shape))
        dv = add(dv, div(sub(dau, _mm(v, _mm(vt, dau))), s_div))
    return [s, u, vt], [ds, du, _mH(dv)]


svd_p.def_impl(_svd_impl)
svd_p.def_abstract_eval(_svd_abstract_eval)
svd_p.def_jvp(_svd_jvp)
_front_batcher(svd_p)


def inv(a: Any) -> Any:
    return inv_p.bind(a)


def cholesky(a: Any) -> Any:
    return cholesky_p.bind(a)


def qr(a: Any, full_matrices: bool = False) -> tuple[Any, Any]:
    """Returns `(q, r)`; JAX's parameters (no pivoting; `use_magma` is for GPUs)."""
    return tuple(qr_p.bind(a, full_matrices=bool(full_matrices), pivoting=False, use_magma=None))


def eigh(
    a: Any,
    lower: bool = True,
    sort_eigenvalues: bool = True,
    algorithm: EighImplementation | None = None,
) -> tuple[Any, Any]:
    """Returns (eigenvectors, eigenvalues) like `lax.linalg.eigh`; JAX's parameters (the
    eigenvalues always ascending, the whole spectrum)."""
    return tuple(
        eigh_p.bind(
            a,
            lower=bool(lower),
            sort_eigenvalues=sort_eigenvalues,
            subset_by_index=None,
            algorithm=algorithm,
        )
    )


def svd(
    a: Any,
    full_matrices: bool = True,
    compute_uv: bool = True,
    algorithm: SvdAlgorithm | None = None,
) -> Any:
    """Returns `(u, s, vh)` (`s` without `compute_uv`); the primitive's results are JAX's
    `(s, u, vh)`, with JAX's parameters (the whole spectrum)."""
    out = svd_p.bind(
        a,
        full_matrices=bool(full_matrices),
        compute_uv=bool(compute_uv),
        subset_by_index=None,
        algorithm=algorithm,
    )
    return (out[1], out[0], out[2]) if compute_uv else out[0]
