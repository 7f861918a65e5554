"""`eig`: eigenvalues and eigenvectors of general (non-symmetric) square matrices.

Outputs are complex (complex64 for float32 input), batched over leading axes, like
`jax.lax.linalg.eig`: `[w]`, then the left eigenvectors `vl` (`vl[..., i]^H a = w_i
vl[..., i]^H`) if asked, then the right ones `vr` (`a vr[..., i] = w_i vr[..., i]`) if asked,
each column of unit norm. The impl is LAPACK's geev through `np.linalg.eig` (as JAX's CPU
kernel); left eigenvectors are the conjugated rows of `inv(vr)`, normalized the same way.
The eigenvalues are differentiable (`dw = diag(inv(vr) da vr)`); the eigenvectors, as JAX's,
only with `enable_eigvec_derivs=True` (JAX's perturbation formula, under LAPACK's
normalization: unit columns whose largest component is real; valid for distinct eigenvalues).
`implementation` takes JAX's `EigImplementation`:
any but LAPACK raises JAX's CPU error when the program runs. numba has no complex-output
`eig`, so under `jit` the numba back end calls the impl from the kernel
(`core/jit/host_calls.py`).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from core.ad_util import Zero
from core.avals import ShapedArray
from core.errors import NumbaxError
from core.primitive import Primitive
from core.prims.decompositions import (
    EigImplementation,
    _check_matrix,
    _cols,
    _diagonal,
    _front_batcher,
    _matrix_const,
    _mH,
    _mm,
    _rows,
    check_cpu_algorithm,
    inv_p,
)
from core.prims.elementwise import (
    abs_p,
    add,
    complex_p,
    div,
    eq,
    full_like,
    imag_p,
    mul,
    neg,
    real_p,
    sub,
)
from core.prims.reductions import argmax, reduce_sum_p
from core.prims.shapes import convert_element_type, iota
from core.trace import get_aval


class EigenvectorDerivativeError(NumbaxError, NotImplementedError):
    """A derivative of the eigenvectors of `eig` was asked for.

    Failing code: ``jvp(lambda a: jnp.linalg.eig(a)[1], (m,), (t,))``. Fix: differentiate the
    eigenvalues (``jnp.linalg.eigvals``), use ``jnp.linalg.eigh`` for symmetric matrices, or opt
    in with ``lax.linalg.eig(a, enable_eigvec_derivs=True)`` (valid for distinct eigenvalues).
    """


eig_p = Primitive("eig", multiple_results=True)


def _complex_dtype(dtype: np.dtype) -> np.dtype:
    return np.result_type(dtype, np.complex64)


def _unit_columns(v: np.ndarray) -> np.ndarray:
    """Columns scaled to unit 2-norm with their largest component real (LAPACK's convention)."""
    v = v / np.linalg.norm(v, axis=-2, keepdims=True)
    big = np.take_along_axis(v, np.abs(v).argmax(axis=-2)[..., None, :], axis=-2)
    return v * (np.conj(big) / np.maximum(np.abs(big), np.finfo(v.real.dtype).tiny))


def _eig_impl(x, *, compute_left_eigenvectors, compute_right_eigenvectors, **params):
    check_cpu_algorithm("eig", params)
    cdt = _complex_dtype(x.dtype)
    # LAPACK's geev gives NaNs for a matrix holding a NaN or an infinity (numpy refuses it):
    # such matrices are solved as identities and their results set to NaN afterwards
    bad = ~np.isfinite(x).all(axis=(-2, -1))
    if bad.any():
        x = np.where(bad[..., None, None], np.eye(x.shape[-1], dtype=x.dtype), x)
    if x.size == 0:
        w, vr = np.zeros(x.shape[:-1], cdt), np.zeros(x.shape, cdt)
    else:
        w, vr = np.linalg.eig(x)
    outs = [np.asarray(w, cdt)]
    if compute_left_eigenvectors:
        vl = np.conj(np.swapaxes(np.linalg.inv(vr), -1, -2)) if x.size else vr
        outs.append(np.asarray(_unit_columns(vl) if x.size else vl, cdt))
    if compute_right_eigenvectors:
        outs.append(np.asarray(vr, cdt))
    if bad.any():
        nan = np.array(complex(np.nan, np.nan), cdt)
        outs = [np.where(bad.reshape(bad.shape + (1,) * (o.ndim - bad.ndim)), nan, o) for o in outs]
    return outs


def _eig_abstract_eval(x, *, compute_left_eigenvectors, compute_right_eigenvectors, **_):
    _check_matrix("eig", x, square=True)
    cdt = _complex_dtype(x.dtype)
    n_vectors = int(compute_left_eigenvectors) + int(compute_right_eigenvectors)
    return [ShapedArray(x.shape[:-1], cdt)] + [ShapedArray(x.shape, cdt)] * n_vectors


def _conj(x):
    if get_aval(x).dtype.kind != "c":
        return x
    return complex_p.bind(real_p.bind(x), neg(imag_p.bind(x)))


def _eig_vec_jvp(w, v, da):
    """JAX's `_eig_vec_jvp`: `(dw, dv)` from nondegenerate perturbation theory, `dv_j = u_j +
    c_j v_j` with `c_j` fixing LAPACK's normalization (`Re(v_j^H dv_j) = 0` and the largest
    component `v_kj` staying real)."""
    shape = get_aval(v).shape
    nd = len(shape)
    eye = _matrix_const(np.eye(shape[-1]), v)
    gap = add(eye, sub(_rows(w, shape), _cols(w, shape)))  # 1 + w_j - w_i
    f = sub(div(full_like(gap, 1), gap), eye)
    p = _mm(inv_p.bind(v), _mm(da, v))
    u = _mm(v, mul(f, p))
    k = argmax(real_p.bind(abs_p.bind(v)), nd - 2, np.int32)  # |v| of complex v is complex
    mask = convert_element_type(eq(iota(np.int32, shape, nd - 2), _rows(k, shape)), v.dtype)

    def colsum(x):
        return reduce_sum_p.bind(x, axes=(nd - 2,))

    re = neg(real_p.bind(colsum(mul(_conj(v), u))))
    im = div(neg(imag_p.bind(colsum(mul(mask, u)))), real_p.bind(colsum(mul(mask, v))))
    return _diagonal(p), add(u, mul(v, _rows(complex_p.bind(re, im), shape)))


def _eig_jvp(primals, tangents, *, compute_left_eigenvectors, compute_right_eigenvectors, **params):
    (x,), (t,) = primals, tangents
    vectors = compute_left_eigenvectors or compute_right_eigenvectors
    if vectors and not params["enable_eigvec_derivs"]:
        raise EigenvectorDerivativeError(
            "Derivatives of non-symmetric eigenvectors are only valid under assumptions on the "
            "input that JAX cannot check (see the enable_eigvec_derivs argument to "
            "jax.lax.linalg.eig). Pass enable_eigvec_derivs=True to jax.lax.linalg.eig to opt "
            "in. See https://github.com/jax-ml/jax/issues/2748 for discussion. (numbax "
            "differentiates the eigenvalues alone: `jnp.linalg.eigvals`.)"
        )
    outs = eig_p.bind(
        x,
        compute_left_eigenvectors=compute_left_eigenvectors,
        compute_right_eigenvectors=True,
        **params,
    )
    w, vr = outs[0], outs[-1]
    primal = [w, *outs[1:]] if compute_right_eigenvectors else [w, *outs[1:-1]]
    if type(t) is Zero:
        return primal, [Zero(get_aval(o)) for o in primal]
    dt = convert_element_type(t, get_aval(w).dtype)
    if not vectors:  # diag(solve(vr, dt vr))
        return [w], [_diagonal(_mm(inv_p.bind(vr), _mm(dt, vr)))]
    dw, dvr = _eig_vec_jvp(w, vr, dt)
    tangent = [dw]
    if compute_left_eigenvectors:
        tangent.append(_eig_vec_jvp(_conj(w), outs[1], _mH(dt))[1])
    if compute_right_eigenvectors:
        tangent.append(dvr)
    return primal, tangent


eig_p.def_impl(_eig_impl)
eig_p.def_abstract_eval(_eig_abstract_eval)
eig_p.def_jvp(_eig_jvp)
_front_batcher(eig_p)


def eig(
    x: Any,
    *,
    compute_left_eigenvectors: bool = True,
    compute_right_eigenvectors: bool = True,
    enable_eigvec_derivs: bool = False,
    implementation: EigImplementation | None = None,
    use_magma: bool | None = None,
) -> list[Any]:
    """`lax.linalg.eig`: eigenvalues and (optionally) left/right eigenvectors of square matrices.

    Args:
      x: float or complex array of shape `(..., n, n)`.
      compute_left_eigenvectors: also return the left eigenvectors.
      compute_right_eigenvectors: also return the right eigenvectors.
      enable_eigvec_derivs: JAX's opt-in to eigenvector derivatives (without it they raise
        `EigenvectorDerivativeError`).
      implementation: an `EigImplementation`; CPU runs LAPACK (None) alone.
      use_magma: deprecated (a DeprecationWarning, as JAX's): MAGMA if True, else LAPACK.

    Returns:
      `[w, vl, vr]` (without the ones not asked for), complex.
    """
    if use_magma is not None:
        warnings.warn(
            "use_magma is deprecated, please use implementation=EigImplementation.MAGMA instead.",
            DeprecationWarning,
            stacklevel=2,
        )
        implementation = EigImplementation.MAGMA if use_magma else EigImplementation.LAPACK
    return eig_p.bind(
        x,
        compute_left_eigenvectors=bool(compute_left_eigenvectors),
        compute_right_eigenvectors=bool(compute_right_eigenvectors),
        enable_eigvec_derivs=enable_eigvec_derivs,
        implementation=implementation,
    )
