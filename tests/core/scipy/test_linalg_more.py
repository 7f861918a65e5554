"""`core.scipy.linalg` hessenberg, polar and the special matrices (pascal, invpascal,
invhilbert, helmert, hadamard, dft, fiedler, fiedler_companion, leslie, convolution_matrix)
against JAX 0.10.2 (`jax_linalg_more.json`, recorded by `record_linalg_more.py`): shapes,
dtypes and values (decompositions to float32 rounding)."""

import json
import pathlib

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.scipy import linalg as L

A = json.loads((pathlib.Path(__file__).parent / "jax_linalg_more.json").read_text())


def _check(got, want, rtol=1e-6, atol=1e-6):
    got = np.asarray(got)
    assert list(got.shape) == want["shape"] and str(got.dtype) == want["dtype"]
    expected = np.asarray(want["re"]) + (1j * np.asarray(want["im"]) if want["im"] else 0)
    np.testing.assert_allclose(got.ravel(), expected, rtol=rtol, atol=atol)


def test_hessenberg():
    a = jnp.asarray(np.asarray(A["a"], np.float32))
    h, q = L.hessenberg(a, calc_q=True)
    _check(h, A["hessenberg_h"], 1e-4, 1e-5)
    _check(q, A["hessenberg_q"], 1e-4, 1e-5)
    _check(L.hessenberg(a), A["hessenberg_only"], 1e-4, 1e-5)


@pytest.mark.parametrize("n", [2, 4, 6])
def test_complex_hessenberg_has_a_real_subdiagonal_as_lapack(n):
    # LAPACK's gehrd (and JAX's) applies n - 1 reflectors: the last makes H[n-1, n-2] real.
    rng = np.random.default_rng(n)
    a = (rng.normal(size=(n, n)) + 1j * rng.normal(size=(n, n))).astype(np.complex64)
    h, q = L.hessenberg(a, calc_q=True)
    h, q = np.asarray(h), np.asarray(q)
    np.testing.assert_array_equal(np.imag(np.diagonal(h, -1)), 0)
    np.testing.assert_allclose(q @ h @ q.conj().T, a, atol=2e-6)
    if n > 2:  # scipy returns a 2 x 2 matrix as it is; JAX reduces it
        scipy_linalg = pytest.importorskip("scipy.linalg")
        np.testing.assert_allclose(h, scipy_linalg.hessenberg(a), atol=2e-6)


@pytest.mark.parametrize("side", ["right", "left"])
@pytest.mark.parametrize("method", ["qdwh", "svd"])
def test_polar(side, method):
    x = np.asarray(A["tall"], np.float32)
    x = x if side == "right" else np.swapaxes(x, -1, -2)
    u, p = L.polar(jnp.asarray(x), side, method=method)
    _check(u, A[f"polar_{side}_{method}"]["u"], 1e-4, 1e-5)
    _check(p, A[f"polar_{side}_{method}"]["p"], 1e-4, 1e-5)


def test_polar_errors():
    with pytest.raises(NotImplementedError, match="method='qdwh' only supports"):
        L.polar(jnp.ones((2, 3)))
    with pytest.raises(ValueError, match="either 'right' or 'left'"):
        L.polar(jnp.ones((3, 2)), "up")


KERNEL = [1.0, 2.0, 3.0]
MATRICES = {
    "pascal": lambda: L.pascal(5),
    "pascal_lower": lambda: L.pascal(4, "lower"),
    "invpascal": lambda: L.invpascal(4),
    "invpascal_upper": lambda: L.invpascal(4, "upper"),
    "invhilbert": lambda: L.invhilbert(4),
    "helmert": lambda: L.helmert(4),
    "helmert_full": lambda: L.helmert(4, full=True),
    "hadamard": lambda: L.hadamard(8),
    "hadamard_f32": lambda: L.hadamard(2, jnp.float32),
    "dft": lambda: L.dft(3),
    "dft_sqrtn": lambda: L.dft(4, "sqrtn"),
    "fiedler": lambda: L.fiedler(jnp.asarray([1.0, 4.0, -2.0])),
    "fiedler_companion": lambda: L.fiedler_companion(jnp.asarray([2.0, 1.0, -3.0, 4.0, 5.0])),
    "leslie": lambda: L.leslie(jnp.asarray([0.1, 2.0, 1.0]), jnp.asarray([0.2, 0.8])),
    **{
        f"convolution_matrix_{m}": (lambda m=m: L.convolution_matrix(jnp.asarray(KERNEL), 5, m))
        for m in ("full", "valid", "same")
    },
}


@pytest.mark.parametrize("name", sorted(MATRICES))
def test_special_matrices(name):
    # invhilbert's binomials are exp(lgamma(...)): JAX's and numbax's lgamma differ by ulps.
    _check(MATRICES[name](), A[name], 1e-5 if name == "invhilbert" else 2e-6, 2e-5)


def test_special_matrix_errors():
    with pytest.raises(ValueError, match="power of 2"):
        L.hadamard(6)
    with pytest.raises(ValueError, match="Expected kind"):
        L.pascal(3, "diag")
    with pytest.raises(ValueError, match="one less than the length of f"):
        L.leslie(jnp.ones(3), jnp.ones(3))
    with pytest.raises(ValueError, match="complex floating-point"):
        L.dft(3, dtype=jnp.float32)


def test_funm_and_rsf2csf_under_strict_promotion():
    # JAX 0.10.2 runs them under jax_numpy_dtype_promotion='strict' (complex64 for float32)
    a = np.random.default_rng(0).normal(size=(4, 4)).astype(np.float32)
    want = L.funm(a, jnp.exp)
    with core.config.override("jax_numpy_dtype_promotion", "strict"):
        got = L.funm(a, jnp.exp)
        t, _ = L.rsf2csf(*L.schur(a))
    assert got.dtype == np.complex64 and t.dtype == np.complex64
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def test_complex_expm_frechet_under_strict_promotion():
    a = (np.random.default_rng(0).normal(size=(3, 3)) * (1 + 1j)).astype(np.complex64)
    want = L.expm_frechet(a, a)
    with core.config.override("jax_numpy_dtype_promotion", "strict"):
        got = L.expm_frechet(a, a)  # JAX 0.10.2 runs it so (the scale 2**-s cast to complex)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w))
