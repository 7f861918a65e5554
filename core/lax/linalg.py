"""`core.lax.linalg`: the `jax.lax.linalg` functions, with JAX's signatures and result orders.

In JAX these are the decomposition primitives; here most are thin wrappers: `cholesky`, `eigh`,
`qr`, `svd`, `eig` and `lu` bind the primitives of `core/prims/decompositions.py` and `eig.py`
(after JAX's symmetrization `(x + x^H) / 2`), `triangular_solve` binds JAX's primitive
(`core/lax/triangular.py`), `lu_pivots_to_permutation` too (`core/lax/lu.py`),
`tridiagonal_solve` binds JAX's primitive (LAPACK's pivoted gtsv as two `lax.scan`s), the
Householder reductions (`hessenberg`, `tridiagonal`, `householder_product`, `ormqr`) live in
`core/lax/householder.py`, and `cholesky_update` and `symmetric_product` bind JAX's
primitives, computed as JAX's CPU lowerings write them (Givens rotations; `alpha A A^T + beta
C`). JAX differentiates none of these three (numbax differentiates their compositions), and
batches no `cholesky_update` (numbax neither). The rest are compositions, so `grad`, `vmap`
and `jit` apply as usual. `EigImplementation`, `EighImplementation` and `SvdAlgorithm` are
JAX's enums (`core/prims/decompositions.py`).

Why `core/lax/__init__.py` does not import this module: it builds on `core.scipy.linalg`, which
imports `core.lax`, so importing it there would close an import cycle. `core/__init__.py`
imports it instead, so `core.lax.linalg.cholesky` resolves after `import core`, and
`from core.lax import linalg` works as in JAX.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import core.numpy as jnp
from core import lax
from core.ad_util import Zero, add_any, instantiate
from core.avals import ShapedArray
from core.interpreters import batching
from core.lax.householder import (
    hessenberg,
    hessenberg_p,
    householder_product,
    householder_product_p,
    linalg_abstract_eval,
    linalg_primitive,
    ormqr,
    ormqr_p,
    tridiagonal,
    tridiagonal_p,
)
from core.lax.lu import lu, lu_p, lu_pivots_to_permutation, lu_pivots_to_permutation_p
from core.lax.triangular import triangular_solve, triangular_solve_p
from core.numpy.linalg import tril_factor
from core.primitive import Primitive
from core.prims import decompositions as dec
from core.prims.decompositions import (
    EighImplementation,
    EigImplementation,
    SvdAlgorithm,
    cholesky_p,
    eigh_p,
    qr_p,
    svd_p,
)
from core.prims.eig import eig, eig_p
from core.scipy.errors import UnsupportedOptionError
from core.scipy.linalg import _schur, solve_triangular
from core.trace import get_aval

__all__ = [
    "EigImplementation",
    "EighImplementation",
    "SvdAlgorithm",
    "UnsupportedOptionError",
    "cholesky_p",
    "cholesky_update_p",
    "eig_p",
    "eigh_p",
    "lu_p",
    "lu_pivots_to_permutation_p",
    "qr_p",
    "svd_p",
    "hessenberg_p",
    "householder_product_p",
    "ormqr_p",
    "schur_p",
    "symmetric_product_p",
    "triangular_solve_p",
    "tridiagonal_p",
    "tridiagonal_solve_p",
    "cholesky",
    "cholesky_update",
    "eig",
    "eigh",
    "hessenberg",
    "householder_product",
    "lu",
    "lu_pivots_to_permutation",
    "ormqr",
    "qdwh",
    "schur",
    "qr",
    "svd",
    "symmetric_product",
    "triangular_solve",
    "tridiagonal",
    "tridiagonal_solve",
]


def _cpu_only(name: str, subset_by_index: Any) -> None:
    if subset_by_index is not None:
        raise UnsupportedOptionError(
            f"{name}: subset_by_index is not implemented on CPU (as in JAX); pass None and "
            "slice the result."
        )


def _symmetrize(x: Any) -> Any:
    return (x + jnp.conj(jnp.swapaxes(x, -1, -2))) / 2


def cholesky(x: Any, *, symmetrize_input: bool = True) -> Any:
    """The lower Cholesky factor `L` with `x = L L^H` (`jax.lax.linalg.cholesky`).

    Args:
        x: Hermitian positive-definite matrices `(..., n, n)`.
        symmetrize_input: factor `(x + x^H) / 2` (else only the lower triangle is read; the
            derivative is JAX's, of the whole tangent as if it were Hermitian).

    Returns:
        `L`, shaped and typed like `x`; NaNs where the factorization fails.
    """
    x = _symmetrize(x) if symmetrize_input else x
    return tril_factor(dec.cholesky(x))


def eigh(
    x: Any,
    *,
    lower: bool = True,
    symmetrize_input: bool = True,
    sort_eigenvalues: bool = True,
    subset_by_index: tuple[int, int] | None = None,
    implementation: EighImplementation | None = None,
) -> tuple[Any, Any]:
    """The eigendecomposition of Hermitian matrices (`jax.lax.linalg.eigh`).

    Args:
        x: Hermitian (real symmetric) matrices `(..., n, n)`.
        lower: the triangle read when `symmetrize_input` is False.
        symmetrize_input: decompose `(x + x^H) / 2`.
        sort_eigenvalues: the primitive's parameter; the eigenvalues are always ascending
            (as on JAX's CPU).
        subset_by_index: None (JAX's CPU raises otherwise, as here).
        implementation: None or `EighImplementation.QR` (JAX's CPU's); JACOBI and QDWH raise
            JAX's NotImplementedError when the program runs.

    Returns:
        `(v, w)`: eigenvectors `v[..., :, i]` (dtype of `x`) and ascending eigenvalues `w`
        (real).
    """
    _cpu_only("eigh", subset_by_index)
    if symmetrize_input:
        x = _symmetrize(x)
    return dec.eigh(x, lower=lower, sort_eigenvalues=sort_eigenvalues, algorithm=implementation)


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
    algorithm: SvdAlgorithm | None = None,
) -> Any:
    """The singular value decomposition `x = U diag(s) V^H` (`jax.lax.linalg.svd`).

    Args:
        x: matrices `(..., m, n)`.
        full_matrices: square `U` and `V^H` if True, else `k = min(m, n)` columns/rows.
        compute_uv: return the singular vectors too.
        subset_by_index: None (JAX's CPU raises otherwise, as here).
        algorithm: an `SvdAlgorithm` (LAPACK's divide and conquer computes None, DEFAULT, QR
            and DIVIDE_AND_CONQUER); JACOBI and POLAR raise JAX's NotImplementedError when the
            program runs.

    Returns:
        `(u, s, vh)` if `compute_uv`, else `s` (descending).
    """
    _cpu_only("svd", subset_by_index)
    return dec.svd(x, full_matrices=full_matrices, compute_uv=compute_uv, algorithm=algorithm)


def _symmetric_product_shape(a: tuple, c: tuple, **_: Any) -> tuple:
    # JAX's shape rule and message (which names the primitive `symmetric_update`)
    if a[0] != c[1] or c[0] != c[1]:
        raise ValueError(
            "symmetric_update expects a rectangular matrix of shape (m, n) and a square matrix "
            f"of shape (n, n). Got shapes {a} and {c}."
        )
    return c


def _symmetric_product(a: Any, c: Any, *, alpha: float, beta: float) -> Any:
    # JAX's CPU lowering: the whole product (not only its lower triangle)
    return alpha * jnp.matmul(a, jnp.swapaxes(a, -1, -2), precision="highest") + beta * c


symmetric_product_p = linalg_primitive(
    "symmetric_product",
    _symmetric_product,
    linalg_abstract_eval("symmetric_product", "f", (2, 2), _symmetric_product_shape),
    False,
)


def symmetric_product(
    a_matrix: Any,
    c_matrix: Any,
    *,
    alpha: float = 1.0,
    beta: float = 0.0,
    symmetrize_output: bool = False,
) -> Any:
    """`alpha A A^T + beta C` (`jax.lax.linalg.symmetric_product`): JAX's primitive.

    Args:
        a_matrix: matrices `(..., m, n)`.
        c_matrix: symmetric matrices `(..., m, m)`.
        alpha: the scale of `A A^T`.
        beta: the scale of `C`.
        symmetrize_output: rebuild the upper triangle from the lower one, as JAX does (the
            CPU computes the whole matrix, so the values do not change).

    Returns:
        The `(..., m, m)` product.
    """
    product = symmetric_product_p.bind(a_matrix, c_matrix, alpha=alpha, beta=beta)
    if not symmetrize_output:
        return product
    # The lower triangle is the reliable one: mirror it (diagonal excluded) onto the upper.
    mirrored = jnp.matrix_transpose(tril_factor(product, -1))
    return tril_factor(product) + mirrored


def _pivot_size(x: Any) -> Any:
    """LAPACK's size of a pivot candidate: `|x|`, `|re| + |im|` for complex `x` (`cabs1`)."""
    if jnp.iscomplexobj(x):
        return jnp.abs(jnp.real(x)) + jnp.abs(jnp.imag(x))
    return jnp.abs(x)


def _gtsv_factor(dl: Any, d: Any, du: Any, b: Any) -> tuple[Any, Any, Any, Any]:
    """LAPACK's gtsv elimination with partial pivoting, one `scan` over the rows (axis 0; the
    diagonals `(m, ..., 1)`, `b` `(m, ..., k)`): row `i` is swapped with row `i + 1` when the
    subdiagonal entry below the pivot is larger. Returns the rows of `U` (its diagonal, first
    and second superdiagonals) and the transformed `b`; a zero pivot (a singular matrix) is
    left in `U`'s diagonal, and nothing is eliminated below it."""

    def eliminate(carry, row):
        d_i, du_i, b_i = carry
        dl_n, d_n, du_n, b_n = row
        swap = _pivot_size(d_i) < _pivot_size(dl_n)
        keep = ~swap & (d_i != 0)
        fact_keep = jnp.where(keep, dl_n / jnp.where(keep, d_i, 1), 0)
        fact_swap = d_i / jnp.where(swap, dl_n, 1)
        u_row = (
            jnp.where(swap, dl_n, d_i),
            jnp.where(swap, d_n, du_i),
            jnp.where(swap, du_n, jnp.zeros_like(du_n)),
            jnp.where(swap, b_n, b_i),
        )
        carry = (
            jnp.where(swap, du_i - fact_swap * d_n, d_n - fact_keep * du_i),
            jnp.where(swap, -fact_swap * du_n, du_n),
            jnp.where(swap, b_i - fact_swap * b_n, b_n - fact_keep * b_i),
        )
        return carry, u_row

    first = (d[0], du[0] if get_aval(du).shape[0] > 1 else jnp.zeros_like(du[0]), b[0])
    last, (u_d, u_du, u_du2, u_b) = lax.scan(eliminate, first, (dl[1:], d[1:], du[1:], b[1:]))
    last_row = (last[0], jnp.zeros_like(last[1]), jnp.zeros_like(last[1]), last[2])
    rows = [
        jnp.concatenate([u, jnp.expand_dims(v, 0)])
        for u, v in zip((u_d, u_du, u_du2, u_b), last_row)
    ]
    return tuple(rows)


def _perturbed_pivot(pivot: Any, num: Any, tol: Any) -> Any:
    """LAPACK's dlagts (job -1) perturbation of a back-substitution pivot, as JAX's CPU kernel
    applies it: while the pivot is 0 (a subnormal counts as 0: XLA flushes them) or `num /
    pivot` would exceed `1 / tiny`, add `tol`, `2 tol`, `4 tol`, ... with the pivot's sign;
    the number of steps `k` (the pivot grows by `(2^k - 1) tol`) is solved for directly."""
    tiny = float(jnp.finfo(get_aval(tol).dtype).tiny)
    size = jnp.abs(pivot)
    size = jnp.where(size < tiny, 0, size)
    over = jnp.abs(num) * tiny

    def bad(a: Any) -> Any:
        return (a < tiny) | ((a < 1) & (over > a))

    need = jnp.maximum(tiny, jnp.minimum(1, over))
    steps = jnp.maximum(jnp.ceil(jnp.log2((need - size) / tol + 1)), 1)
    grown = size + (2**steps - 1) * tol
    grown = jnp.where(bad(grown), size + (2 ** (steps + 1) - 1) * tol, grown)  # rounding
    if jnp.iscomplexobj(pivot):
        mag = jnp.abs(pivot)
        mag = mag.astype(get_aval(pivot).dtype)
        unit = jnp.where(size == 0, 1, pivot / jnp.where(size == 0, 1, mag))
    else:
        unit = jnp.copysign(jnp.ones_like(pivot), pivot)
    return jnp.where(bad(size), unit * grown.astype(get_aval(pivot).dtype), pivot)


def _gtsv(dl: Any, d: Any, du: Any, b: Any, *, perturb_singular: bool) -> Any:
    """`tridiagonal_solve` as JAX's CPU kernels compute it (the composition `jit` compiles):
    LAPACK's gtsv (Gaussian elimination with partial pivoting, `_gtsv_factor`, then back
    substitution through `U`'s two superdiagonals as a reverse `scan`). A singular system's
    solution is NaN; with `perturb_singular`, pivots that are 0 or would overflow the quotient
    are perturbed by multiples of `eps * max|U|` (the smallest normal number if `U` is 0;
    `_perturbed_pivot`), so that the solution stays finite."""
    if get_aval(b).shape[-2] == 0:  # JAX's: an empty system's (empty) solution
        return b
    du = jnp.asarray(du).at[..., -1].set(0)  # the ends are outside the matrix: never read
    dl, d, du = (jnp.moveaxis(v, -1, 0)[..., None] for v in (dl, d, du))
    u_d, u_du, u_du2, u_b = _gtsv_factor(dl, d, du, jnp.moveaxis(b, -2, 0))
    if perturb_singular:
        info = jnp.finfo(get_aval(b).dtype)
        size = jnp.maximum(jnp.maximum(jnp.abs(u_d), jnp.abs(u_du)), jnp.abs(u_du2)).max(0)
        tol = jnp.where(size == 0, info.tiny, info.eps * size)

    def substitute(carry, row):
        x1, x2 = carry
        d_i, du_i, du2_i, b_i = row
        num = b_i - du_i * x1 - du2_i * x2
        if perturb_singular:
            d_i = _perturbed_pivot(d_i, num, tol)
        x_i = num / d_i
        return (x_i, x1), x_i

    zero = jnp.zeros_like(u_b[0])
    _, x = lax.scan(substitute, (zero, zero), (u_d, u_du, u_du2, u_b), reverse=True)
    x = jnp.moveaxis(x, 0, -2)
    if perturb_singular:
        return x
    singular = jnp.expand_dims((u_d == 0).any(0), -1)  # LAPACK's info > 0: JAX's NaNs
    return jnp.where(singular, jnp.array(np.nan, get_aval(b).dtype), x)


def _tridiagonal_solve_shape(dl, d, du, b, *, perturb_singular):
    # JAX's core shape rule and messages (after its rank and batch checks)
    if dl != d or dl != du:
        raise TypeError(
            "tridiagonal_solve requires that all diagonal arguments have the same shape."
        )
    if dl != b[:-1]:
        raise TypeError(
            "tridiagonal_solve requires that the leading ndim-1 dimensions of b equal the "
            "dimensions of the diagonal arguments."
        )
    return b


def _tridiagonal_product(dl: Any, d: Any, du: Any, b: Any) -> Any:
    y = lax.reshape(d, (*get_aval(d).shape, 1)) * b
    y = y.at[..., 1:, :].add(dl[..., 1:, None] * b[..., :-1, :])
    return y.at[..., :-1, :].add(du[..., :-1, None] * b[..., 1:, :])


def _tridiagonal_solve_jvp(primals, tangents, *, perturb_singular):
    # JAX's: solve for the tangent of b minus the diagonals' tangents times the answer
    *diags, _ = primals
    *diags_dot, b_dot = tangents
    ans = tridiagonal_solve_p.bind(*primals, perturb_singular=perturb_singular)
    if all(type(t) is Zero for t in diags_dot):
        rhs = b_dot
    else:
        matvec_dot = _tridiagonal_product(*map(instantiate, diags_dot), ans)
        rhs = add_any(b_dot, lax.neg(matvec_dot))
    ans_dot = tridiagonal_solve_p.bind(*diags, instantiate(rhs), perturb_singular=perturb_singular)
    return ans, ans_dot


def _tridiagonal_solve_transpose(ct, dl, d, du, b, *, perturb_singular):
    # JAX's: linear in b alone; the transposed system swaps (and shifts) the off-diagonals
    if type(ct) is Zero:
        return [None, None, None, Zero(b.aval)]
    n = du.ndim - 1
    dl_t = lax.concatenate((lax.full_like(du[..., -1:], 0), du[..., :-1]), n)
    du_t = lax.concatenate((dl[..., 1:], lax.full_like(dl[..., :1], 0)), n)
    return [
        None,
        None,
        None,
        tridiagonal_solve_p.bind(dl_t, d, du_t, ct, perturb_singular=perturb_singular),
    ]


def _tridiagonal_solve_batch(args, dims, *, perturb_singular):
    # the batch axes in front (JAX's rule, but for its flattening of a batched b alone)
    size = next(get_aval(x).shape[k] for x, k in zip(args, dims) if k is not None)
    args = [batching.moveaxis(x, k, 0, size) for x, k in zip(args, dims)]
    return tridiagonal_solve_p.bind(*args, perturb_singular=perturb_singular), 0


tridiagonal_solve_p = Primitive("tridiagonal_solve", linear=True)
tridiagonal_solve_p.def_composed(_gtsv)
# JAX's standard linalg checks: ranks (1, 1, 1, 2), batch axes, the core shapes, then dtypes
tridiagonal_solve_p.def_abstract_eval(
    linalg_abstract_eval("tridiagonal_solve", "fc", (1, 1, 1, 2), _tridiagonal_solve_shape)
)
tridiagonal_solve_p.def_jvp(_tridiagonal_solve_jvp)
tridiagonal_solve_p.def_transpose(_tridiagonal_solve_transpose)
tridiagonal_solve_p.def_batch(_tridiagonal_solve_batch)


def tridiagonal_solve(dl: Any, d: Any, du: Any, b: Any, *, perturb_singular: bool = False) -> Any:
    """Solves the tridiagonal system `A X = B` (`jax.lax.linalg.tridiagonal_solve`): JAX's
    primitive, computed as its CPU kernel (LAPACK's gtsv: partial pivoting; `_gtsv`).

    Args:
        dl: the lower diagonals `(..., m)`, `dl[..., i] = A[i, i-1]` (`dl[..., 0]` is ignored).
        d: the diagonals `(..., m)`.
        du: the upper diagonals `(..., m)`, `du[..., i] = A[i, i+1]` (`du[..., m-1]` is
            ignored).
        b: the right-hand sides `(..., m, n)`.
        perturb_singular: perturb tiny pivots by `eps * max|U|` so that a singular system's
            solution is finite (else it is NaN), as JAX's CPU kernel does.

    Returns:
        `X`, shaped and typed like `b`.
    """
    return tridiagonal_solve_p.bind(dl, d, du, b, perturb_singular=bool(perturb_singular))


def _cholesky_update(r: Any, z: Any) -> Any:
    r, z = jnp.asarray(r), jnp.asarray(z)
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


def _cholesky_update_shape(r: tuple, w: tuple) -> tuple:
    # JAX's shape rule and message
    if r[0] != r[1] or w[0] != r[1]:
        raise ValueError(
            "Rank-1 update to Cholesky decomposition takes a square matrix and a vector of the "
            f"same size as input. Got shapes {r} and {w} instead"
        )
    return r


cholesky_update_p = linalg_primitive(
    "cholesky_update",
    _cholesky_update,
    linalg_abstract_eval("cholesky_update", "f", (2, 1), _cholesky_update_shape, batchable=False),
    False,
    batchable=False,
)


def cholesky_update(r_matrix: Any, w_vector: Any) -> Any:
    """The Cholesky factor of `R^T R + w w^T` from `R`'s, in O(n^2) (Givens rotations;
    `jax.lax.linalg.cholesky_update`): JAX's primitive (no batching rule, as JAX's).

    Args:
        r_matrix: an upper-triangular `R (n, n)` with `A = R^T R`.
        w_vector: the update `w (n,)`.

    Returns:
        The new upper-triangular factor `(n, n)`.
    """
    return cholesky_update_p.bind(r_matrix, w_vector)


# ---------------------------------------------------------------------------------------------
# QDWH polar decomposition


def _qdwh_coefficients(eps: float, max_iterations: int) -> tuple[list, list]:
    """The dynamically weighted Halley coefficients `(a, b, c)` of each step, from the lower
    bound `l = eps` on the smallest singular value (Nakatsukasa, Bai and Gygi 2010), split into
    the QR-based steps (`c > 100`) and the Cholesky-based ones."""
    low, tol = eps, 10.0 * eps / 2.0
    qr_steps, chol_steps = [], []
    k = 0
    while low + tol < 1 and k < max_iterations:
        k += 1
        l2 = low * low
        dd = (4 * (1 / l2 - 1) / l2) ** (1 / 3)
        sqd = (1.0 + dd) ** (1 / 2)
        a = sqd + (2 - dd + 2 * (2 - l2) / (l2 * sqd)) ** (1 / 2)
        b = (a - 1) ** 2 / 4
        c = a + b - 1
        low = low * (a + b * l2) / (1 + c * l2)
        (qr_steps if c > 100 else chol_steps).append((a, b, c))
    return qr_steps, chol_steps


def _qdwh_qr_step(u: Any, a: float, b: float, c: float) -> Any:
    m, n = u.shape
    e = b / c
    y = jnp.concatenate([np.sqrt(c) * u, jnp.eye(n, dtype=u.dtype)], axis=0)
    q, _ = jnp.linalg.qr(y)
    q1, q2 = q[:m], jnp.conj(q[m:]).T
    return e * u + (a - e) / np.sqrt(c) * (q1 @ q2)


def _qdwh_cholesky_step(u: Any, a: Any, b: Any, c: Any) -> Any:
    n = u.shape[1]
    e = b / c
    x = c * (jnp.conj(u).T @ u) + jnp.eye(n, dtype=u.dtype)
    y = jnp.linalg.cholesky(x)  # x = y y^H; u x^{-1} = (x^{-1} u^H)^H, two triangular solves
    zt = solve_triangular(y, jnp.conj(u).T, lower=True)
    zt = solve_triangular(y, zt, lower=True, trans="C")
    return e * u + (a - e) * jnp.conj(zt).T


def qdwh(
    x: Any,
    *,
    is_hermitian: bool = False,
    max_iterations: int | None = None,
    eps: float | None = None,
    dynamic_shape: tuple[int, int] | None = None,
) -> tuple[Any, Any, Any, Any]:
    """The polar decomposition `x = u h` by the QR-based dynamically weighted Halley
    iteration, as `jax.lax.linalg.qdwh`.

    JAX's algorithm: the matrix scaled by `1 / sqrt(|x|_1 |x|_inf)`, the weighted steps of
    precomputed coefficients (QR-based while `c > 100`, then Cholesky-based), further
    Cholesky steps of weights (3, 1, 3) while the iterate still moves by more than
    `(5 eps)^(1/3)` (at most `max_iterations` steps in all), a Newton-Schulz polish, and
    `h = (u^H x + (u^H x)^H) / 2`.

    Args:
      x: an `(m, n)` matrix of full rank, `m >= n`.
      is_hermitian: unused (as in JAX).
      max_iterations: the largest number of steps (default 10).
      eps: the tolerance scale (default: the dtype's machine epsilon).
      dynamic_shape: only the full shape (padded inputs are not supported).

    Returns:
      `(u, h, num_iters, is_converged)`.
    """
    del is_hermitian
    max_iterations = 10 if max_iterations is None else int(max_iterations)
    x = jnp.asarray(x)
    m, n = x.shape
    if m < n:
        raise ValueError("The input matrix of shape M x N must have M >= N.")
    if dynamic_shape is not None and tuple(dynamic_shape) != (m, n):
        raise UnsupportedOptionError("qdwh with a dynamic_shape smaller than the matrix")
    eps = float(np.finfo(x.dtype).eps) if eps is None else float(eps)
    one_norm = jnp.linalg.norm(x, ord=1)
    inf_norm = jnp.linalg.norm(x, ord=np.inf)
    scale = jnp.where(one_norm == 0, 1.0, lax.rsqrt(one_norm) * lax.rsqrt(inf_norm))
    u = x * scale.astype(x.dtype)
    qr_steps, chol_steps = _qdwh_coefficients(eps, max_iterations)
    tol_norm = np.cbrt(10.0 * eps / 2.0)
    for a, b, c in qr_steps:
        u = _qdwh_qr_step(u, a, b, c)
    moving = jnp.asarray(True)
    for a, b, c in chol_steps:
        prev, u = u, _qdwh_cholesky_step(u, a, b, c)
        moving = jnp.linalg.norm(u - prev) > tol_norm

    def cond(state):
        k, _, moving = state
        return moving & (k < max_iterations)

    def body(state):
        k, u, _ = state
        new = _qdwh_cholesky_step(u, 3.0, 1.0, 3.0)
        return k + 1, new, jnp.linalg.norm(new - u) > tol_norm

    k0 = jnp.asarray(len(qr_steps) + len(chol_steps), np.int32)
    num_iters, u, moving = lax.while_loop(cond, body, (k0, u, moving))
    u = 1.5 * u - 0.5 * u @ (jnp.conj(u).T @ u)
    h = jnp.conj(u).T @ x
    h = (h + jnp.conj(h).T) / 2
    return u, h, num_iters, jnp.logical_not(moving)


def schur(
    x: Any,
    *,
    compute_schur_vectors: bool = True,
    sort_eig_vals: bool = False,
    select_callable: Any = None,
) -> list[Any]:
    """The Schur decomposition `x = Q U Q^H`, as `jax.lax.linalg.schur`: the real Schur form
    for real `x` (2x2 blocks for complex eigenvalue pairs), triangular for complex `x`
    (`core/lax/schur_qr.py` on the host; not differentiable, as in JAX).

    Args:
      x: `(..., m, m)` matrices.
      compute_schur_vectors: also return `Q`.
      sort_eig_vals: unused (as in JAX's CPU lowering, which sorts nothing).
      select_callable: unused (as in JAX).

    Returns:
      `[U, Q]`, or `[U]` without the vectors (lists, as JAX returns).
    """
    return schur_p.bind(
        jnp.asarray(x),
        compute_schur_vectors=bool(compute_schur_vectors),
        sort_eig_vals=bool(sort_eig_vals),
        select_callable=select_callable,
    )


def _schur_composition(x: Any, *, compute_schur_vectors: bool, **_unused: Any) -> list[Any]:
    t, q = _schur(x, False)
    return [t, q] if compute_schur_vectors else [t]


def _schur_abstract_eval(x: ShapedArray, *, compute_schur_vectors: bool, **_unused: Any):
    if x.ndim < 2 or x.shape[-1] != x.shape[-2] or x.dtype.kind not in "fc":
        raise ValueError(
            f"Argument to Schur decomposition must have shape [..., n, n], got {x.shape}"
        )
    return [ShapedArray(x.shape, x.dtype)] * (2 if compute_schur_vectors else 1)


schur_p = linalg_primitive("schur", _schur_composition, _schur_abstract_eval, True)
