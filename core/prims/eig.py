"""`eig`: eigenvalues and eigenvectors of general (non-symmetric) square matrices.

Outputs are complex (complex64 for float32 input), batched over leading axes, like
`jax.lax.linalg.eig`: `[w]`, then the left eigenvectors `vl` (`vl[..., i]^H a = w_i
vl[..., i]^H`) if asked, then the right ones `vr` (`a vr[..., i] = w_i vr[..., i]`) if asked,
each column of unit norm. The impl is LAPACK's geev through `np.linalg.eig` (as JAX's CPU
kernel); left eigenvectors are the conjugated rows of `inv(vr)`, normalized the same way.
Only eigenvalues are differentiable (`dw = diag(inv(vr) da vr)`); JAX also refuses eigenvector
derivatives by default, and numbax does with `enable_eigvec_derivs=True` too (partial: JAX's
perturbation formula is not written here). `implementation` takes JAX's `EigImplementation`:
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
    _diagonal,
    _front_batcher,
    _mm,
    check_cpu_algorithm,
    inv_p,
)
from core.prims.shapes import convert_element_type
from core.trace import get_aval


class EigenvectorDerivativeError(NumbaxError, NotImplementedError):
    """A derivative of the eigenvectors of `eig` was asked for.

    Failing code: ``jvp(lambda a: jnp.linalg.eig(a)[1], (m,), (t,))``. Fix: differentiate the
    eigenvalues (``jnp.linalg.eigvals``), or use ``jnp.linalg.eigh`` for symmetric matrices.
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
    return outs


def _eig_abstract_eval(x, *, compute_left_eigenvectors, compute_right_eigenvectors, **_):
    _check_matrix("eig", x, square=True)
    cdt = _complex_dtype(x.dtype)
    n_vectors = int(compute_left_eigenvectors) + int(compute_right_eigenvectors)
    return [ShapedArray(x.shape[:-1], cdt)] + [ShapedArray(x.shape, cdt)] * n_vectors


def _eig_jvp(primals, tangents, *, compute_left_eigenvectors, compute_right_eigenvectors, **params):
    (x,), (t,) = primals, tangents
    if (compute_left_eigenvectors or compute_right_eigenvectors) and params["enable_eigvec_derivs"]:
        raise EigenvectorDerivativeError(
            "numbax does not implement the derivatives of non-symmetric eigenvectors "
            "(enable_eigvec_derivs=True). Differentiate the eigenvalues "
            "(`jnp.linalg.eigvals`), or use `jnp.linalg.eigh` for symmetric matrices."
        )
    if compute_left_eigenvectors or compute_right_eigenvectors:
        raise EigenvectorDerivativeError(
            "Derivatives of non-symmetric eigenvectors are only valid under assumptions on the "
            "input that JAX cannot check (see the enable_eigvec_derivs argument to "
            "jax.lax.linalg.eig). Pass enable_eigvec_derivs=True to jax.lax.linalg.eig to opt "
            "in. See https://github.com/jax-ml/jax/issues/2748 for discussion. (numbax "
            "differentiates the eigenvalues alone: `jnp.linalg.eigvals`.)"
        )
    w, vr = eig_p.bind(
        x, compute_left_eigenvectors=False, compute_right_eigenvectors=True, **params
    )
    if type(t) is Zero:
        return [w], [Zero(get_aval(w))]
    dt = convert_element_type(t, get_aval(w).dtype)
    dw = _diagonal(_mm(inv_p.bind(vr), _mm(dt, vr)))  # diag(solve(vr, dt vr))
    return [w], [dw]


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
      enable_eigvec_derivs: JAX's opt-in to eigenvector derivatives (numbax raises
        `EigenvectorDerivativeError` for them either way).
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
