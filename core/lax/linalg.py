"""`core.lax.linalg`: the `jax.lax.linalg` functions, with JAX's signatures and result orders.

In JAX these are the decomposition primitives; here most are thin wrappers: `cholesky`, `eigh`,
`qr`, `svd` and `eig` bind the primitives of `core/prims/decompositions.py` and `eig.py` (after
JAX's symmetrization `(x + x^H) / 2`), `lu` and `triangular_solve` reuse `core.scipy.linalg`'s
pivoted LU and substitution loops, `tridiagonal_solve` is the Thomas algorithm as two
`lax.scan`s, and the Householder reductions (`hessenberg`, `tridiagonal`,
`householder_product`, `ormqr`; LAPACK's gehrd, sytrd/hetrd, orgqr, ormqr) and
`cholesky_update` (Givens rotations, as JAX writes it) are loops of rank-1 updates on `jnp`,
with LAPACK's sign conventions, so their values agree with JAX's to rounding. Everything is a
composition, so `grad`, `vmap` and `jit` apply as usual.

Why `core/lax/__init__.py` does not import this module: it builds on `core.scipy.linalg`, which
imports `core.lax`, so importing it there would close an import cycle. `core/__init__.py`
imports it instead, so `core.lax.linalg.cholesky` resolves after `import core`, and
`from core.lax import linalg` works as in JAX.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import core.numpy as jnp
from core import api, lax
from core.prims import decompositions as dec
from core.prims.eig import eig
from core.scipy.errors import UnsupportedOptionError
from core.scipy.linalg import _lu, _pivots_to_permutation, solve_triangular
from core.trace import get_aval

__all__ = [
    "UnsupportedOptionError",
    "cholesky",
    "cholesky_update",
    "eig",
    "eigh",
    "hessenberg",
    "householder_product",
    "lu",
    "lu_pivots_to_permutation",
    "ormqr",
    "qr",
    "svd",
    "symmetric_product",
    "triangular_solve",
    "tridiagonal",
    "tridiagonal_solve",
]


def _cpu_only(name: str, subset_by_index: Any, implementation: Any) -> None:
    if subset_by_index is not None:
        raise UnsupportedOptionError(
            f"{name}: subset_by_index is not implemented on CPU (as in JAX); pass None and "
            "slice the result."
        )
    if implementation is not None:
        raise UnsupportedOptionError(
            f"{name}: implementation={implementation!r} is not available on CPU; pass None."
        )


def _symmetrize(x: Any) -> Any:
    return (x + jnp.conj(jnp.swapaxes(x, -1, -2))) / 2


def cholesky(x: Any, *, symmetrize_input: bool = True) -> Any:
    """The lower Cholesky factor `L` with `x = L L^H` (`jax.lax.linalg.cholesky`).

    Args:
        x: Hermitian positive-definite matrices `(..., n, n)`.
        symmetrize_input: factor `(x + x^H) / 2` (else only the lower triangle is read).

    Returns:
        `L`, shaped and typed like `x`; NaNs where the factorization fails.
    """
    x = _symmetrize(x) if symmetrize_input else jnp.tril(x)
    return jnp.tril(dec.cholesky(x))


def eigh(
    x: Any,
    *,
    lower: bool = True,
    symmetrize_input: bool = True,
    sort_eigenvalues: bool = True,
    subset_by_index: tuple[int, int] | None = None,
    implementation: Any = None,
) -> tuple[Any, Any]:
    """The eigendecomposition of Hermitian matrices (`jax.lax.linalg.eigh`).

    Args:
        x: Hermitian (real symmetric) matrices `(..., n, n)`.
        lower: the triangle read when `symmetrize_input` is False.
        symmetrize_input: decompose `(x + x^H) / 2`.
        sort_eigenvalues: accepted; the eigenvalues are always ascending.
        subset_by_index: None (JAX's CPU raises otherwise, as here).
        implementation: None (JAX's CPU default, QR-based).

    Returns:
        `(v, w)`: eigenvectors `v[..., :, i]` (dtype of `x`) and ascending eigenvalues `w`
        (real).
    """
    del sort_eigenvalues
    _cpu_only("eigh", subset_by_index, implementation)
    if symmetrize_input:
        x = _symmetrize(x)
    return dec.eigh(x, lower=lower)


def lu(x: Any) -> tuple[Any, Any, Any]:
    """The LU decomposition with partial pivoting, `P x = L U` (`jax.lax.linalg.lu`).

    Args:
        x: matrices `(..., m, n)`.

    Returns:
        `(lu, pivots, permutation)`: `L` (unit diagonal implied) below and `U` on and above the
        diagonal of `lu`; int32 row swaps `pivots (..., min(m, n))`; the int32 row permutation
        `permutation (..., m)`.
    """
    return _lu(x)


def lu_pivots_to_permutation(pivots: Any, permutation_size: int) -> Any:
    """The permutation that LU's row swaps `pivots` amount to.

    Args:
        pivots: int32 row swaps `(..., k)`.
        permutation_size: the permutation's length `m >= k`.

    Returns:
        The int32 permutation `(..., permutation_size)`.
    """
    return _pivots_to_permutation(jnp.asarray(pivots, np.int32), permutation_size)


def qr(
    x: Any, *, pivoting: bool = False, full_matrices: bool = True, use_magma: bool | None = None
) -> tuple[Any, Any]:
    """The QR decomposition `x = Q R` (`jax.lax.linalg.qr`).

    Args:
        x: matrices `(..., m, n)`.
        pivoting: column pivoting (not implemented: only False).
        full_matrices: `Q (..., m, m)` and `R (..., m, n)` if True, else `Q (..., m, k)` and
            `R (..., k, n)` with `k = min(m, n)`.
        use_magma: ignored (GPU only in JAX).

    Returns:
        `(q, r)`.
    """
    del use_magma
    if pivoting:
        raise UnsupportedOptionError(
            "lax.linalg.qr(pivoting=True) is not implemented; use pivoting=False."
        )
    return dec.qr(x, full_matrices=full_matrices)


def svd(
    x: Any,
    *,
    full_matrices: bool = True,
    compute_uv: bool = True,
    subset_by_index: tuple[int, int] | None = None,
    algorithm: Any = None,
) -> Any:
    """The singular value decomposition `x = U diag(s) V^H` (`jax.lax.linalg.svd`).

    Args:
        x: matrices `(..., m, n)`.
        full_matrices: square `U` and `V^H` if True, else `k = min(m, n)` columns/rows.
        compute_uv: return the singular vectors too.
        subset_by_index: None (JAX's CPU raises otherwise, as here).
        algorithm: accepted and ignored (LAPACK's divide and conquer is used).

    Returns:
        `(u, s, vh)` if `compute_uv`, else `s` (descending).
    """
    del algorithm
    _cpu_only("svd", subset_by_index, None)
    return dec.svd(x, full_matrices=full_matrices, compute_uv=compute_uv)


def symmetric_product(
    a_matrix: Any,
    c_matrix: Any,
    *,
    alpha: float = 1.0,
    beta: float = 0.0,
    symmetrize_output: bool = False,
) -> Any:
    """`alpha A A^T + beta C` (`jax.lax.linalg.symmetric_product`).

    Args:
        a_matrix: matrices `(..., m, n)`.
        c_matrix: symmetric matrices `(..., m, m)`.
        alpha: the scale of `A A^T`.
        beta: the scale of `C`.
        symmetrize_output: accepted; the whole result is always computed.

    Returns:
        The `(..., m, m)` product.
    """
    del symmetrize_output
    return alpha * jnp.matmul(a_matrix, jnp.swapaxes(a_matrix, -1, -2)) + beta * c_matrix


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
    if conjugate_a and jnp.iscomplexobj(a):
        a = jnp.conj(a)
    singleton = np.ndim(b) == np.ndim(a) - 1
    if singleton:
        b = jnp.expand_dims(b, -1 if left_side else -2)
    if left_side:
        out = solve_triangular(
            a, b, trans=1 if transpose_a else 0, lower=lower, unit_diagonal=unit_diagonal
        )
    else:
        # x op(a) = b  <=>  op(a)^T x^T = b^T
        out = solve_triangular(
            a,
            jnp.swapaxes(b, -1, -2),
            trans=0 if transpose_a else 1,
            lower=lower,
            unit_diagonal=unit_diagonal,
        )
        out = jnp.swapaxes(out, -1, -2)
    if singleton:
        out = out[..., 0] if left_side else out[..., 0, :]
    return out


def tridiagonal_solve(dl: Any, d: Any, du: Any, b: Any, *, perturb_singular: bool = False) -> Any:
    """Solves the tridiagonal system `A X = B` (`jax.lax.linalg.tridiagonal_solve`).

    Thomas's algorithm (elimination without pivoting): a forward `scan` over the rows
    eliminates the lower diagonal, a reverse `scan` substitutes back.

    Args:
        dl: the lower diagonals `(..., m)`, `dl[..., i] = A[i, i-1]` (`dl[..., 0]` is 0).
        d: the diagonals `(..., m)`.
        du: the upper diagonals `(..., m)`, `du[..., i] = A[i, i+1]` (`du[..., m-1]` is 0).
        b: the right-hand sides `(..., m, n)`.
        perturb_singular: not implemented (only False).

    Returns:
        `X`, shaped and typed like `b`.
    """
    if perturb_singular:
        raise UnsupportedOptionError(
            "tridiagonal_solve(perturb_singular=True) is not implemented; pass False."
        )
    shapes = [get_aval(jnp.asarray(v)).shape for v in (dl, d, du)]
    b_shape = get_aval(jnp.asarray(b)).shape
    if len(set(shapes)) != 1 or len(b_shape) < 2 or b_shape[:-1] != shapes[0]:
        raise ValueError(
            f"tridiagonal_solve: dl, d, du must share a shape (..., m) and b be (..., m, n); "
            f"got {shapes[0]}, {shapes[1]}, {shapes[2]} and {b_shape}."
        )
    dl, d, du = (jnp.moveaxis(v, -1, 0)[..., None] for v in (dl, d, du))
    rows = jnp.moveaxis(b, -2, 0)

    def eliminate(carry, row):
        c_prev, y_prev = carry
        dl_i, d_i, du_i, b_i = row
        denom = d_i - dl_i * c_prev
        c_i, y_i = du_i / denom, (b_i - dl_i * y_prev) / denom
        return (c_i, y_i), (c_i, y_i)

    init = (jnp.zeros_like(d[0]), jnp.zeros_like(rows[0]))
    _, (c, y) = lax.scan(eliminate, init, (dl, d, du, rows))

    def substitute(x_next, row):
        c_i, y_i = row
        x_i = y_i - c_i * x_next
        return x_i, x_i

    _, x = lax.scan(substitute, jnp.zeros_like(rows[0]), (c, y), reverse=True)
    return jnp.moveaxis(x, 0, -2)


# ---------------------------------------------------------------------------------------------
# Householder reductions (LAPACK's gehrd, sytrd/hetrd, orgqr, ormqr), written on `jnp`: every
# step is a rank-1 update, so `grad`, `vmap` and `jit` apply.


def _reflector(alpha: Any, x: Any) -> tuple[Any, Any, Any]:
    """LAPACK's `larfg`: `(beta, tau, v)` with `H^H [alpha, x] = [beta, 0...]`, `beta` real,
    `H = I - tau [1, v] [1, v]^H`; `tau = 0` (H = I) when `x` is zero and `alpha` real."""
    xnorm = jnp.sqrt(jnp.sum(jnp.abs(x) ** 2))
    ar, ai = jnp.real(alpha), jnp.imag(alpha)
    identity = (xnorm == 0) & (ai == 0)
    norm = jnp.sqrt(ar * ar + ai * ai + xnorm * xnorm)
    beta = jnp.where(identity, ar, -jnp.where(ar >= 0, 1.0, -1.0) * norm)
    safe = jnp.where(identity, 1.0, beta)
    if jnp.iscomplexobj(alpha):
        tau = lax.complex((safe - ar) / safe, -ai / safe)
    else:
        tau = (safe - ar) / safe
    tau = jnp.where(identity, jnp.zeros_like(tau), tau)
    scale = jnp.where(identity, jnp.ones_like(alpha), 1 / (alpha - safe.astype(alpha.dtype)))
    return beta, tau, x * scale


def _unbatched(fn: Any, core_ranks: tuple[int, ...]) -> Any:
    """`fn` of unbatched matrices/vectors, mapped with `vmap` over the leading batch axes."""

    def mapped(*args):
        args = [jnp.asarray(a) for a in args]
        extra = get_aval(args[0]).ndim - core_ranks[0]
        f = fn
        for _ in range(extra):
            f = api.vmap(f)
        return f(*args)

    return mapped


def _two_sided(s: Any, v: Any, tau: Any) -> Any:
    """`H^H S H` for `H = I - tau v v^H`."""
    vh = jnp.conj(v)
    s = s - jnp.conj(tau) * jnp.outer(v, vh @ s)
    return s - tau * jnp.outer(s @ v, vh)


def _hessenberg(a: Any) -> tuple[Any, Any]:
    n = get_aval(a).shape[-1]
    taus = []
    for i in range(n - 2):
        beta, tau, v = _reflector(a[i + 1, i], a[i + 2 :, i])
        w = jnp.concatenate([jnp.ones((1,), a.dtype), v])
        right = a[:, i + 1 :]
        a = a.at[:, i + 1 :].set(right - tau * jnp.outer(right @ w, jnp.conj(w)))
        low = a[i + 1 :, i + 1 :]
        a = a.at[i + 1 :, i + 1 :].set(low - jnp.conj(tau) * jnp.outer(w, jnp.conj(w) @ low))
        a = a.at[i + 1, i].set(beta.astype(a.dtype)).at[i + 2 :, i].set(v)
        taus.append(tau)
    taus += [jnp.zeros((), a.dtype)] * (n - 1 - len(taus))
    return a, jnp.stack(taus) if taus else jnp.zeros((0,), a.dtype)


def hessenberg(a: Any) -> tuple[Any, Any]:
    """Reduces square matrices to upper Hessenberg form (`jax.lax.linalg.hessenberg`,
    LAPACK's gehrd).

    Args:
        a: float or complex matrices `(..., n, n)`.

    Returns:
        `(a, taus)`: the Hessenberg matrix in the upper triangle and first subdiagonal of `a`,
        the Householder reflectors below it; `taus (..., n - 1)` their scalar factors.
    """
    return _unbatched(_hessenberg, (2,))(a)


def _tridiagonal(a: Any, lower: bool) -> tuple[Any, Any, Any, Any]:
    n = get_aval(a).shape[-1]
    tri = jnp.tril(a) if lower else jnp.triu(a)
    off = jnp.tril(a, -1) if lower else jnp.triu(a, 1)
    s = tri + jnp.conj(off.T)
    s = s - jnp.diag(1j * jnp.imag(jnp.diagonal(s))) if jnp.iscomplexobj(s) else s
    out, e, taus = a, [], [jnp.zeros((), a.dtype)] * max(n - 1, 0)
    steps = range(n - 1) if lower else range(n - 1, 0, -1)
    for c in steps:
        if lower:
            alpha, x = s[c + 1, c], s[c + 2 :, c]
        else:
            alpha, x = s[c - 1, c], s[: c - 1, c]
        beta, tau, v = _reflector(alpha, x)
        one = jnp.ones((1,), a.dtype)
        if lower:
            w = jnp.concatenate([one, v])
            sub = _two_sided(s[c + 1 :, c + 1 :], w, tau)
            s = s.at[c + 1 :, c + 1 :].set(sub)
            out = out.at[c + 1, c].set(beta.astype(a.dtype)).at[c + 2 :, c].set(v)
            e.append(beta)
            taus[c] = tau
        else:
            w = jnp.concatenate([v, one])
            s = s.at[:c, :c].set(_two_sided(s[:c, :c], w, tau))
            out = out.at[c - 1, c].set(beta.astype(a.dtype)).at[: c - 1, c].set(v)
            e.insert(0, beta)
            taus[c - 1] = tau
    d = jnp.real(jnp.diagonal(s))
    out = out.at[jnp.arange(n), jnp.arange(n)].set(d.astype(a.dtype))
    e = jnp.stack(e) if e else jnp.zeros((0,), d.dtype)
    taus = jnp.stack(taus) if taus else jnp.zeros((0,), a.dtype)
    return out, d, e.astype(d.dtype), taus


def tridiagonal(a: Any, *, lower: bool = True) -> tuple[Any, Any, Any, Any]:
    """Reduces symmetric/Hermitian matrices to tridiagonal form (`jax.lax.linalg.tridiagonal`,
    LAPACK's sytrd/hetrd).

    Args:
        a: float or complex matrices `(..., n, n)`; only the `lower` (or upper) triangle is read.
        lower: which triangle to read and to write the result into.

    Returns:
        `(a, d, e, taus)`: `a` with the tridiagonal matrix on its diagonal and first sub- (or
        super-) diagonal and the Householder reflectors beyond it (the other triangle as given);
        the real diagonal `d (..., n)`, off-diagonal `e (..., n - 1)`, and the reflectors'
        scalar factors `taus (..., n - 1)`.
    """
    return _unbatched(lambda x: _tridiagonal(x, lower), (2,))(a)


def _reflectors(a: Any, taus: Any) -> list[tuple[Any, Any]]:
    m = get_aval(a).shape[0]
    rows = jnp.arange(m)
    out = []
    for i in range(get_aval(taus).shape[-1]):
        v = jnp.where(rows > i, a[:, i], jnp.where(rows == i, 1, 0).astype(a.dtype))
        out.append((v, taus[i]))
    return out


def _householder_product(a: Any, taus: Any) -> Any:
    m, n = get_aval(a).shape
    q = jnp.eye(m, n, dtype=a.dtype)
    for v, tau in reversed(_reflectors(a, taus)):
        q = q - tau * jnp.outer(v, jnp.conj(v) @ q)
    return q


def householder_product(a: Any, taus: Any) -> Any:
    """The product `Q = H_0 H_1 ... H_{k-1}` of Householder reflectors
    (`jax.lax.linalg.householder_product`, LAPACK's orgqr).

    Args:
        a: matrices `(..., m, n)` holding reflector `i` below the diagonal of column `i`.
        taus: the reflectors' scalar factors `(..., k)`, `k <= min(m, n)`.

    Returns:
        The first `n` columns of `Q`, shaped like `a`.
    """
    return _unbatched(_householder_product, (2, 1))(a, taus)


def _ormqr(a: Any, taus: Any, c: Any, left: bool, transpose: bool) -> Any:
    steps = _reflectors(a, taus)
    if left != transpose:
        steps = steps[::-1]
    for v, tau in steps:
        t = jnp.conj(tau) if transpose else tau
        if left:
            c = c - t * jnp.outer(v, jnp.conj(v) @ c)
        else:
            c = c - t * jnp.outer(c @ v, jnp.conj(v))
    return c


def ormqr(a: Any, taus: Any, c: Any, *, left: bool = True, transpose: bool = False) -> Any:
    """Multiplies `c` by the `Q` of Householder reflectors without forming it
    (`jax.lax.linalg.ormqr`, LAPACK's ormqr/unmqr).

    Args:
        a: the reflectors `(..., m, n)`, as for `householder_product`.
        taus: their scalar factors `(..., k)`.
        c: the matrices `(..., m, p)` (`left`) or `(..., p, m)`.
        left: `Q @ c` (else `c @ Q`).
        transpose: use `Q^H` instead of `Q`.

    Returns:
        The product, shaped like `c`.
    """
    return _unbatched(lambda x, t, y: _ormqr(x, t, y, left, transpose), (2, 1, 2))(a, taus, c)


def _cholesky_update(r: Any, z: Any) -> Any:
    n = get_aval(z).shape[0]
    for k in range(n):
        x, y = r[k, k], z[k]

        def rotation(x, y):
            den = jnp.maximum(jnp.abs(x), jnp.abs(y))
            x, y = x / den, y / den
            rh = 1 / jnp.sqrt(x * x + y * y)
            return x * rh, -y * rh

        c, s = lax.cond(y == 0, lambda x, y: (jnp.ones_like(x), jnp.zeros_like(x)), rotation, x, y)
        row = c * r[k, :] - s * z
        z = c * z + s * r[k, :]
        r = r.at[k, :].set(row)
    return r


def cholesky_update(r_matrix: Any, w_vector: Any) -> Any:
    """The Cholesky factor of `R^T R + w w^T` from `R`'s, in O(n^2) (Givens rotations;
    `jax.lax.linalg.cholesky_update`).

    Args:
        r_matrix: an upper-triangular `R (n, n)` with `A = R^T R`.
        w_vector: the update `w (n,)`.

    Returns:
        The new upper-triangular factor `(n, n)`.
    """
    r, w = jnp.asarray(r_matrix), jnp.asarray(w_vector)
    rs, ws = get_aval(r).shape, get_aval(w).shape
    if len(rs) != 2 or rs[0] != rs[1] or ws != rs[:1]:
        raise ValueError(
            "Rank-1 update to Cholesky decomposition takes a square matrix and a vector of the "
            f"same size as input. Got shapes {rs} and {ws} instead"
        )
    return _cholesky_update(r, w)
