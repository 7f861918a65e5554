"""Polynomials as 1-D coefficient arrays, highest power first (numpy's `poly*` convention).

Products and divisions are composites of `convolve` and static-length loops of `.at[...]`
updates, so they work under `jit`/`grad`/`vmap`. `polyfit` solves its least-squares problem
with a QR factorization (differentiable; a rank-deficient Vandermonde matrix is not handled).
`roots` (and `poly` of a square matrix) take the eigenvalues of a companion matrix (the `eig`
primitive); `roots` needs a concrete input only to strip leading zeros, as in JAX.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from core import dtypes
from core.errors import ConcretizationTypeError
from core.jit.library import library_jit
from core.numpy import creation as cr
from core.numpy import linalg
from core.numpy import reductions as rd
from core.numpy import shapes as shp
from core.numpy import ufuncs as uf
from core.numpy._util import check_arraylike, ensure_array, promote_dtypes, promote_dtypes_inexact
from core.numpy.linalg import eigvals
from core.numpy.linalg_ops import dot, outer
from core.numpy.statistics import convolve
from core.numpy.where import where
from core.prims.sorting import sort_key_val
from core.trace import Tracer, get_aval


def _len(x: Any) -> int:
    """`len(x)`, with Python's TypeError for a 0-d array (JAX's polynomial functions call
    `len`)."""
    shape = get_aval(x).shape
    if not shape:
        raise TypeError("len() of unsized object")
    return shape[0]


def _complex_dtype(dt: np.dtype) -> np.dtype:
    return (
        dt
        if dt.kind == "c"
        else (np.dtype(np.complex128) if dt.itemsize == 8 else np.dtype(np.complex64))
    )


@library_jit(static_argnames=("N", "increasing"))
def vander(x: Any, N: int | None = None, increasing: bool = False) -> Any:
    """The Vandermonde matrix of `x`: column j is `x ** (N - 1 - j)` (or `x ** j`).

    Args:
        x: 1-D array.
        N: number of columns (static; `len(x)` by default).
        increasing: whether powers increase from left to right.

    Returns:
        An array of shape `(len(x), N)` with the dtype of `x`.
    """
    check_arraylike("vander", x)
    x = ensure_array(x)
    if get_aval(x).ndim != 1:
        raise ValueError(f"x must be a one-dimensional array; got shape {get_aval(x).shape}")
    N = _len(x) if N is None else operator.index(N)
    if N < 0:
        raise ValueError(f"N must be nonnegative; got {N}")
    powers = np.arange(N)
    if not increasing:
        powers = powers[::-1]
    pw = cr.asarray(powers.astype(get_aval(x).dtype))
    return uf.power(x[:, None], pw[None, :])


def polyval(p: Any, x: Any, *, unroll: int = 16) -> Any:
    """Evaluates the polynomial `p` at `x` by Horner's rule.

    Args:
        p: coefficients, highest power first (the rows of a 2-D `p` broadcast against `x`
            as numpy's and JAX's `y * x + p[i]` does).
        x: where to evaluate.
        unroll: accepted for JAX compatibility (the loop is always unrolled).

    Returns:
        Values of the broadcast shape of `x` and `p[0]`, with the promoted dtype of `p` and
        `x`.
    """
    check_arraylike("polyval", p, x)
    p, x = promote_dtypes(p, x)
    y = cr.zeros(get_aval(x).shape, get_aval(x).dtype)
    for i in range(get_aval(p).shape[0]):
        y = uf.add(uf.multiply(y, x), p[i])
    return y


def polyadd(a1: Any, a2: Any) -> Any:
    """Sum of two polynomials (the shorter one is aligned to the constant term).

    Args:
        a1: coefficients of the first polynomial.
        a2: coefficients of the second polynomial.

    Returns:
        The coefficients of `a1 + a2`, in the promoted dtype.
    """
    check_arraylike("polyadd", a1, a2)
    a1, a2 = promote_dtypes(a1, a2)
    # `shape[0]`, as JAX reads the lengths: a 0-d operand is its IndexError, not `len`'s error
    n1, n2 = get_aval(a1).shape[0], get_aval(a2).shape[0]
    if n2 <= n1:
        return a1.at[-n2:].add(a2)
    return a2.at[-n1:].add(a1)


def polysub(a1: Any, a2: Any) -> Any:
    """Difference of two polynomials.

    Args:
        a1: coefficients of the first polynomial.
        a2: coefficients of the polynomial to subtract.

    Returns:
        The coefficients of `a1 - a2`, in the promoted dtype.
    """
    check_arraylike("polysub", a1, a2)
    a1, a2 = promote_dtypes(a1, a2)
    return polyadd(a1, uf.negative(a2))


def _trim_leading_zeros(a: Any) -> Any:
    if isinstance(a, Tracer):
        raise ConcretizationTypeError(
            "trim_leading_zeros=True on a traced polynomial",
            "The result's length would depend on the values; keep the default "
            "trim_leading_zeros=False under jit.",
        )
    nz = np.flatnonzero(np.asarray(a))
    return a[nz[0] :] if nz.size else a[:0]


def polymul(a1: Any, a2: Any, *, trim_leading_zeros: bool = False) -> Any:
    """Product of two polynomials (a full convolution of the coefficients).

    Args:
        a1: coefficients of the first polynomial.
        a2: coefficients of the second polynomial.
        trim_leading_zeros: drop leading zero coefficients first, like numpy (concrete
            inputs only).

    Returns:
        The coefficients of `a1 * a2`, in an inexact dtype.
    """
    check_arraylike("polymul", a1, a2)
    a1, a2 = promote_dtypes_inexact(a1, a2)
    if trim_leading_zeros and (_len(a1) > 1 or _len(a2) > 1):
        a1, a2 = _trim_leading_zeros(a1), _trim_leading_zeros(a2)
    if _len(a1) == 0:
        a1 = cr.zeros(1, get_aval(a2).dtype)
    if _len(a2) == 0:
        a2 = cr.zeros(1, get_aval(a1).dtype)
    return convolve(a1, a2, mode="full")


def polydiv(u: Any, v: Any, *, trim_leading_zeros: bool = False) -> tuple[Any, Any]:
    """Quotient and remainder of polynomial long division `u / v`.

    Args:
        u: coefficients of the dividend.
        v: coefficients of the divisor (leading coefficient non-zero).
        trim_leading_zeros: drop the remainder's leading (near-)zeros like numpy (concrete
            inputs only); by default the remainder keeps the length of `u`.

    Returns:
        `(q, r)` in an inexact dtype.
    """
    check_arraylike("polydiv", u, v)
    u, v = promote_dtypes_inexact(u, v)
    m, n = _len(u) - 1, _len(v) - 1
    scale = uf.divide(1.0, v[0])
    q = cr.zeros(max(m - n + 1, 1), get_aval(u).dtype)
    for k in range(m - n + 1):
        d = uf.multiply(scale, u[k])
        q = q.at[k].set(d)
        u = u.at[k : k + n + 1].add(uf.multiply(uf.negative(d), v))
    if trim_leading_zeros:
        if isinstance(u, Tracer):
            _trim_leading_zeros(u)
        tol = np.sqrt(dtypes.finfo(get_aval(u).dtype).eps)
        with np.errstate(invalid="ignore"):  # (JAX's test: a NaN is no zero, so it stays)
            big = np.flatnonzero(~(np.abs(np.asarray(u)) < tol))
        u = u[big[0] :] if big.size else u[:0]
    return q, u


def polyder(p: Any, m: int = 1) -> Any:
    """The `m`-th derivative of a polynomial.

    Args:
        p: coefficients.
        m: order of the derivative (static, >= 0).

    Returns:
        The coefficients of the derivative, in an inexact dtype (numpy keeps ints).
    """
    check_arraylike("polyder", p)
    m = operator.index(m)
    (p,) = promote_dtypes_inexact(p)
    if m < 0:
        raise ValueError(f"Order of derivative must be positive\npolyder: got m={m}")
    if m == 0:
        return p
    n = _len(p)
    coeff = np.prod(np.arange(m, n)[None, :] - np.arange(m)[:, None], axis=0)[::-1]
    return uf.multiply(p[:-m], cr.asarray(coeff.astype(get_aval(p).dtype)))


def polyint(p: Any, m: int = 1, k: Any = None) -> Any:
    """The `m`-th antiderivative of a polynomial.

    Args:
        p: coefficients.
        m: order of integration (static, >= 0).
        k: integration constants: a scalar or `m` values (0 by default).

    Returns:
        The coefficients of the antiderivative, in an inexact dtype.
    """
    check_arraylike("polyint", p, *(() if k is None else (k,)))
    m = operator.index(m)
    p, k = promote_dtypes_inexact(p, 0 if k is None else k)
    if m < 0:
        raise ValueError(f"Order of integral must be positive (see polyder); got {m}")
    k = shp.atleast_1d(k)
    if _len(k) == 1:
        k = cr.full((m,), k[0], get_aval(k).dtype)
    if get_aval(k).shape != (m,):
        raise ValueError(
            f"k must be a scalar or a rank-1 array of length 1 or m.\nGot shape "
            f"{get_aval(k).shape} for m={m}."
        )
    if m == 0:
        return p
    grid = np.arange(_len(p) + m)[None, :] - np.arange(m)[:, None]
    coeff = np.prod(np.maximum(1, grid), axis=0)[::-1].astype(get_aval(p).dtype)
    return uf.true_divide(shp.concatenate([p, k]), cr.asarray(coeff))


def poly(seq_of_zeros: Any) -> Any:
    """Coefficients of the monic polynomial with the given roots.

    Args:
        seq_of_zeros: 1-D array of roots, or a square matrix (its eigenvalues are the roots;
            concrete matrices only, complex result as in JAX).

    Returns:
        `len(roots) + 1` coefficients, in an inexact dtype.
    """
    check_arraylike("poly", seq_of_zeros)
    (z,) = promote_dtypes_inexact(seq_of_zeros)
    z = shp.atleast_1d(z)
    shape = get_aval(z).shape
    if len(shape) == 2 and shape[0] == shape[1] and shape[0] != 0:
        return poly(eigvals(z))
    if len(shape) != 1:
        raise ValueError(f"input must be 1d or non-empty square 2d array.\nGot shape {shape}.")
    dt = get_aval(z).dtype
    if shape[0] == 0:
        return cr.ones((), dt)
    a = cr.ones((1,), dt)
    for k in range(shape[0]):
        a = convolve(a, shp.stack([cr.ones((), dt), uf.negative(z[k])]), mode="full")
    return a


def _companion_roots(p: Any) -> Any:
    """The eigenvalues of the companion matrix of `p` (no leading zero): its roots."""
    n = get_aval(p).shape[0]
    if n < 2:
        return cr.zeros((0,), _complex_dtype(get_aval(p).dtype))
    a = cr.eye(n - 1, k=-1, dtype=get_aval(p).dtype)
    a = a.at[0, :].set(uf.negative(uf.true_divide(p[1:], p[0])))
    return eigvals(a)


def roots(p: Any, *, strip_zeros: bool = True) -> Any:
    """Roots of a polynomial: the eigenvalues of its companion matrix.

    Args:
        p: 1-D coefficients, highest power first.
        strip_zeros: drop leading zeros (needs a concrete `p`); with False, each leading zero
            gives a NaN root instead, and `roots` works under `jit`/`vmap`/`grad`.

    Returns:
        The complex roots.
    """
    check_arraylike("roots", p)
    (p,) = promote_dtypes_inexact(p)
    p = shp.atleast_1d(p)
    if get_aval(p).ndim != 1:
        raise ValueError(f"Input must be a rank-1 array.\nGot shape {get_aval(p).shape}.")
    n = get_aval(p).shape[0]
    if n < 2:
        return cr.zeros((0,), _complex_dtype(get_aval(p).dtype))
    is_zero = uf.equal(p, 0)
    lead = where(rd.all(is_zero), n, rd.argmin(is_zero))
    if strip_zeros:
        if isinstance(lead, Tracer):
            raise ConcretizationTypeError(
                "the number of leading zeros in jnp.roots",
                "To use jnp.roots under jit, pass strip_zeros=False (leading zeros then give "
                "NaN roots).",
            )
        return _companion_roots(p[int(lead) :])
    r = _companion_roots(shp.roll(where(lead == n, 1.0, p), -lead))
    r = sort_key_val(uf.equal(r, 0), r)[1]
    return where(cr.arange(n - 1) < n - 1 - lead, r, complex(np.nan, np.nan))


def polyfit(
    x: Any,
    y: Any,
    deg: int,
    rcond: float | None = None,
    full: bool = False,
    w: Any = None,
    cov: bool | str = False,
) -> Any:
    """Least-squares polynomial fit of degree `deg` to the points `(x, y)`.

    Args:
        x: 1-D sample points.
        y: samples, shape (N,) or (N, K) for K fits at once.
        deg: degree (static).
        rcond: relative cutoff on singular values for the reported rank (default
            `len(x) * eps`); the solve itself assumes full rank.
        full: also return `(residuals, rank, singular_values, rcond)`.
        w: per-point weights (applied to the unsquared residuals).
        cov: also return the covariance of the coefficients (`"unscaled"`: without the
            residual variance factor).

    Returns:
        The `deg + 1` coefficients (highest power first), or the tuples described above.
    """
    check_arraylike("polyfit", x, y)
    x, y = ensure_array(x), ensure_array(y)
    deg = int(deg)  # as JAX: concrete_or_error(int, deg), so 1.5 fits a line
    order = deg + 1
    if deg < 0:
        raise ValueError(f"expected deg >= 0; got {deg}")
    if get_aval(x).ndim != 1:
        raise TypeError("expected 1D vector for x")
    if get_aval(x).size == 0:
        raise TypeError("expected non-empty vector for x")
    if get_aval(y).ndim not in (1, 2):
        raise TypeError("expected 1D or 2D array for y")
    if _len(x) != _len(y):
        raise TypeError(f"expected x and y to have same length; got {_len(x)} and {_len(y)}")
    x, y = promote_dtypes_inexact(x, y)
    if rcond is None:
        rcond = _len(x) * float(dtypes.finfo(get_aval(x).dtype).eps)
    lhs = vander(x, order)
    rhs = y
    if w is not None:
        (w,) = promote_dtypes_inexact(w)
        if get_aval(w).ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if _len(w) != _len(y):
            raise TypeError("expected w and y to have the same length")
        lhs = uf.multiply(lhs, w[:, None])
        rhs = uf.multiply(rhs, w[:, None] if get_aval(rhs).ndim == 2 else w)
    scale = uf.sqrt(rd.sum(uf.multiply(lhs, lhs), axis=0))
    lhs = uf.divide(lhs, scale[None, :])
    underdetermined = _len(x) < order
    if underdetermined:  # QR's r is not square: JAX's minimum-norm `lstsq`, its outputs
        c, l_resids, l_rank, l_s = linalg.lstsq(lhs, rhs, rcond=rcond)
    else:
        q, r = linalg.qr(lhs)
        c = dot(linalg.inv(r), dot(q.T, rhs))
    c = uf.divide(c, scale[:, None] if get_aval(c).ndim > 1 else scale)
    if full and underdetermined:
        return c, l_resids, l_rank, l_s, ensure_array(float(rcond))
    if full:
        resid_vec = uf.subtract(
            rhs, dot(lhs, uf.multiply(c, scale[:, None] if get_aval(c).ndim > 1 else scale))
        )
        resids = shp.atleast_1d(rd.sum(uf.multiply(resid_vec, resid_vec), axis=0))
        s = linalg.svdvals(lhs)
        rank = rd.sum(uf.greater(s, uf.multiply(rcond, rd.max(s))), dtype=dtypes.default_int())
        return c, resids, rank, s, ensure_array(float(rcond))
    if cov:
        vbase = uf.divide(linalg.inv(dot(lhs.T, lhs)), outer(scale, scale))
        if cov == "unscaled":
            fac: Any = cr.asarray(1.0, dtype=get_aval(x).dtype)
        else:
            if _len(x) <= order:
                raise ValueError(
                    "the number of data points must exceed order to scale the covariance matrix"
                )
            scaled_c = uf.multiply(c, scale[:, None] if get_aval(c).ndim > 1 else scale)
            res = uf.subtract(rhs, dot(lhs, scaled_c))
            fac = uf.divide(rd.sum(uf.multiply(res, res), axis=0), _len(x) - order)
        if get_aval(y).ndim == 1:
            return c, uf.multiply(vbase, fac)
        return c, uf.multiply(vbase[:, :, None], shp.atleast_1d(fac)[None, None, :])
    return c
