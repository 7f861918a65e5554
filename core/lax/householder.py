"""Householder reductions, as LAPACK computes them: `hessenberg` (gehrd), `tridiagonal`
(sytrd/hetrd), `householder_product` (orgqr) and `ormqr` (ormqr/unmqr), the
`jax.lax.linalg` functions that JAX runs on LAPACK.

`hessenberg`, `tridiagonal` and `householder_product` bind JAX's primitives
(`linalg_primitive`), whose compositions are these loops. Each is a loop of rank-1 updates
written on `jnp` (so `grad`, `vmap` and `jit` apply) with
LAPACK's conventions: reflectors `H = I - tau v v^H` with `v[0] = 1` implied, `beta` real and of
the sign opposite to `alpha` (`larfg`), reflectors stored where the reduction zeroed the
matrix. Values agree with JAX's to rounding. Batches are mapped with `vmap`. A module of its own
so that `core.scipy.linalg` (below `core.lax.linalg`, which imports it) can build on it too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import core.numpy as jnp
from core import api, lax
from core.ad_util import instantiate
from core.avals import ShapedArray
from core.errors import DTypeError, ShapeError
from core.interpreters import batching
from core.interpreters.jvp import jvp_flat
from core.primitive import Primitive
from core.trace import get_aval

__all__ = [
    "hessenberg",
    "hessenberg_p",
    "householder_product",
    "householder_product_p",
    "linalg_abstract_eval",
    "linalg_primitive",
    "ormqr",
    "ormqr_p",
    "tridiagonal",
    "tridiagonal_p",
]


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


def linalg_primitive(
    name: str,
    composition: Callable,
    abstract_eval: Callable,
    multiple_results: bool,
    batchable: bool = True,
) -> Primitive:
    """JAX's linear-algebra primitive `name` that numbax computes by `composition` (jnp
    loops, or a host call): jaxprs print JAX's one equation, eager calls and `jit` run the
    composition (`Primitive.def_composition`), and the jvp is the composition's (JAX defines
    none for these; numbax's loops differentiate). Batching moves every batch axis to the
    front, which the composition maps over (JAX's rule).

    Args:
      name: JAX's name.
      composition: `composition(*operands, **params)` on operands with leading batch axes.
      abstract_eval: the shape and dtype rule.
      multiple_results: as JAX's primitive.
      batchable: whether it has a batching rule (JAX's `supports_batching`; without one,
        `vmap` raises `PrimitiveRuleError`, as JAX's NotImplementedError).

    Returns:
      The primitive.
    """
    prim = Primitive(name, multiple_results=multiple_results)

    def jvp(primals, tangents, **params):
        outs = prim.bind(*primals, **params)
        tangents = [instantiate(t) for t in tangents]

        def fun(*xs):
            out = composition(*xs, **params)
            return list(out) if multiple_results else [out]

        touts = jvp_flat(fun, primals, tangents)[1]
        return outs, touts if multiple_results else touts[0]

    def batch(args, dims, **params):
        size = next(get_aval(x).shape[d] for x, d in zip(args, dims) if d is not None)
        out = prim.bind(*[batching.moveaxis(x, d, 0, size) for x, d in zip(args, dims)], **params)
        return out, [0] * len(out) if multiple_results else 0

    prim.def_composed(composition)
    prim.def_abstract_eval(abstract_eval)
    prim.def_jvp(jvp)
    if batchable:
        prim.def_batch(batch)
    return prim


def linalg_abstract_eval(
    name: str, kinds: str, ranks: tuple[int, ...], shape_rule: Callable, batchable: bool = True
) -> Callable:
    """The abstract eval of JAX's `standard_linalg_primitive` `name`, with its messages: every
    operand of rank `ranks[i]` or more (exactly, without `batchable`) and as many batch axes as
    the first, of one dtype of `kinds` ("f", "fc"); the result is the first's batch axes and
    `shape_rule(*core_shapes, **params)`, of the operands' dtype.

    Args:
      name: JAX's name of the primitive.
      kinds: the accepted dtype kinds.
      ranks: the rank of each operand's core (its last axes).
      shape_rule: the result's core shape from the operands' (raises JAX's ValueError).
      batchable: whether leading batch axes are accepted (JAX's `supports_batching`).

    Returns:
      `abstract_eval(*avals, **params) -> ShapedArray`.
    """
    accepted = "floating" if kinds == "f" else "floating, complexfloating"

    def abstract_eval(*avals: ShapedArray, **params: Any) -> ShapedArray:
        for i, (rank, a) in enumerate(zip(ranks, avals)):
            if a.ndim < rank or (not batchable and a.ndim != rank):
                how = "rank at least" if a.ndim < rank else "a rank of exactly"
                raise TypeError(
                    f"Input {i} to {name} must have {how} {rank}, but got shape={a.shape}"
                )
        counts = [a.ndim - rank for rank, a in zip(ranks, avals)]
        if len(set(counts)) > 1:
            raise TypeError(
                f"All inputs to {name} must have the same number of batch dimensions, but got "
                f"{counts} batch dimensions for the inputs."
            )
        # JAX's order: the whole shape rule, then the dtype rule
        out = shape_rule(*(a.shape[n:] for a, n in zip(avals, counts)), **params)
        for i, a in enumerate(avals):
            if a.dtype.kind not in kinds:
                raise TypeError(
                    f"{name} does not accept dtype {a.dtype} at position {i}. Accepted dtypes at "
                    f"position {i} are subtypes of {accepted}."
                )
        if len({a.dtype for a in avals}) > 1:
            raise TypeError(
                f"lax.{name} requires arguments to have the same dtypes, got "
                f"{', '.join(str(a.dtype) for a in avals)}."
            )
        return ShapedArray((*avals[0].shape[: counts[0]], *out), avals[0].dtype)

    return abstract_eval


# JAX's words for a non-square operand, by primitive
_NOT_SQUARE = {
    "hessenberg": "Argument to Hessenberg reduction must have shape [..., n, n], got shape {}",
    "tridiagonal": "The input to tridiagonal must be a square matrix. Got shape {}.",
}


def _square(name: str, a: ShapedArray) -> None:
    """JAX's checks of a square float or complex operand, in its order and words (the fix on
    the next line)."""
    if a.ndim < 2:
        raise ShapeError(
            f"Input 0 to {name} must have rank at least 2, but got shape={a.shape}\n"
            f"{name} takes matrices (..., n, n)."
        )
    if a.dtype.kind not in "fc":
        raise DTypeError(
            f"{name} does not accept dtype {a.dtype} at position 0. Accepted dtypes at position "
            f"0 are subtypes of floating, complexfloating.\nConvert first: x.astype(jnp.float32)."
        )
    if a.shape[-1] != a.shape[-2]:
        raise ShapeError(
            _NOT_SQUARE[name].format(a.shape[-2:]) + f"\n{name} takes square matrices (..., n, n)."
        )


def _two_sided(s: Any, v: Any, tau: Any) -> Any:
    """`H^H S H` for `H = I - tau v v^H`."""
    vh = jnp.conj(v)
    s = s - jnp.conj(tau) * jnp.outer(v, vh @ s)
    return s - tau * jnp.outer(s @ v, vh)


def _hessenberg(a: Any) -> tuple[Any, Any]:
    n = get_aval(a).shape[-1]
    taus = []
    for i in range(n - 1):  # the last reflector (no x) makes a complex subdiagonal real
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
    return tuple(hessenberg_p.bind(a))


def _hessenberg_abstract_eval(a: ShapedArray) -> list[ShapedArray]:
    _square("hessenberg", a)
    n = a.shape[-1]
    return [ShapedArray(a.shape, a.dtype), ShapedArray((*a.shape[:-2], max(n - 1, 0)), a.dtype)]


hessenberg_p = linalg_primitive(
    "hessenberg", _unbatched(_hessenberg, (2,)), _hessenberg_abstract_eval, True
)


def _tridiagonal(a: Any, lower: bool) -> tuple[Any, Any, Any, Any]:
    n = get_aval(a).shape[-1]
    tri = jnp.tril(a) if lower else jnp.triu(a)
    off = jnp.tril(a, -1) if lower else jnp.triu(a, 1)
    s = tri + jnp.conj(off.T)
    if jnp.iscomplexobj(s):  # a real diagonal (no real-to-complex promotion: strict mode)
        diag = jnp.diagonal(s)
        s = s - jnp.diag(diag - jnp.real(diag).astype(get_aval(s).dtype))
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
    return tuple(tridiagonal_p.bind(jnp.asarray(a), lower=bool(lower)))


def _tridiagonal_abstract_eval(a: ShapedArray, *, lower: bool) -> list[ShapedArray]:
    _square("tridiagonal", a)
    batch, n = a.shape[:-2], a.shape[-1]
    real = np.dtype(np.finfo(a.dtype).dtype)
    return [
        ShapedArray(a.shape, a.dtype),
        ShapedArray((*batch, n), real),
        ShapedArray((*batch, max(n - 1, 0)), real),
        ShapedArray((*batch, max(n - 1, 0)), a.dtype),
    ]


tridiagonal_p = linalg_primitive(
    "tridiagonal",
    lambda a, *, lower: _unbatched(lambda x: _tridiagonal(x, lower), (2,))(a),
    _tridiagonal_abstract_eval,
    True,
)


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
    return householder_product_p.bind(a, taus)


def _householder_product_abstract_eval(a: ShapedArray, taus: ShapedArray) -> ShapedArray:
    if a.ndim < 2 or a.dtype.kind not in "fc" or taus.dtype != a.dtype:
        raise ValueError(
            "householder_product requires float or complex matrices (..., m, n) and taus of "
            f"their dtype, got {a.dtype}{list(a.shape)} and {taus.dtype}{list(taus.shape)}"
        )
    m, n = a.shape[-2:]
    if taus.shape[:-1] != a.shape[:-2] or not taus.shape[-1] <= min(m, n) or m < n:
        raise ValueError(
            "householder_product requires a of shape (..., m, n), m >= n, and taus of shape "
            f"(..., k), k <= n, got {list(a.shape)} and {list(taus.shape)}"
        )
    return ShapedArray(a.shape, a.dtype)


householder_product_p = linalg_primitive(
    "householder_product",
    _unbatched(_householder_product, (2, 1)),
    _householder_product_abstract_eval,
    False,
)


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


def _ormqr_shape(a: tuple, taus: tuple, c: tuple, *, left: bool, transpose: bool) -> tuple:
    # JAX's shape rule and messages
    if left and c[0] != a[0]:
        raise ValueError(
            "ormqr with left=True expects c to have the same number of rows as the Householder "
            f"matrix a. Got a shape {a} and c shape {c}."
        )
    if not left and c[1] != a[0]:
        raise ValueError(
            "ormqr with left=False expects c to have the same number of columns as the "
            f"Householder matrix a has rows. Got a shape {a} and c shape {c}."
        )
    return c


def _ormqr_batched(a: Any, taus: Any, c: Any, *, left: bool, transpose: bool) -> Any:
    return _unbatched(lambda x, t, y: _ormqr(x, t, y, left, transpose), (2, 1, 2))(a, taus, c)


ormqr_p = linalg_primitive(
    "ormqr",
    _ormqr_batched,
    linalg_abstract_eval("ormqr", "fc", (2, 1, 2), _ormqr_shape),
    False,
)


def ormqr(a: Any, taus: Any, c: Any, *, left: bool = True, transpose: bool = False) -> Any:
    """Multiplies `c` by the `Q` of Householder reflectors without forming it
    (`jax.lax.linalg.ormqr`, LAPACK's ormqr/unmqr): JAX's `ormqr_p`, computed by one rank-1
    update per reflector.

    Args:
        a: the reflectors `(..., m, n)`, as for `householder_product`.
        taus: their scalar factors `(..., k)`.
        c: the matrices `(..., m, p)` (`left`) or `(..., p, m)`.
        left: `Q @ c` (else `c @ Q`).
        transpose: use `Q^H` instead of `Q`.

    Returns:
        The product, shaped like `c`.
    """
    return ormqr_p.bind(a, taus, c, left=left, transpose=transpose)
