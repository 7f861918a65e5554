"""`lax.linalg.hessenberg`, `tridiagonal`, `householder_product`, `ormqr` and `cholesky_update`
against JAX 0.10.2 (LAPACK on the CPU; `jax_linalg_reductions.json`, recorded by
`record_linalg_reductions.py`): the same values to float32 rounding, batched, and gradients."""

import json
import pathlib

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.lax import linalg
from core.test_util import check_grads

A = json.loads((pathlib.Path(__file__).parent / "jax_linalg_reductions.json").read_text())
TOL = {"rtol": 2e-4, "atol": 2e-5}


def _f32(x):
    return jnp.asarray(np.asarray(x, np.float32))


def test_hessenberg():
    h, taus = linalg.hessenberg(_f32(A["square"]))
    np.testing.assert_allclose(h, A["hessenberg"]["a"], **TOL)
    np.testing.assert_allclose(taus, A["hessenberg"]["taus"], **TOL)


@pytest.mark.parametrize("lower", [True, False])
def test_tridiagonal(lower):
    want = A[f"tridiagonal_{lower}"]
    a, d, e, taus = linalg.tridiagonal(_f32(A["sym"]), lower=lower)
    for got, key in [(a, "a"), (d, "d"), (e, "e"), (taus, "taus")]:
        np.testing.assert_allclose(got, want[key], **TOL, err_msg=key)


def test_householder_product_and_ormqr():
    qa, qt = _f32(A["geqrf"]["a"]), _f32(A["geqrf"]["taus"])
    np.testing.assert_allclose(linalg.householder_product(qa, qt), A["householder_product"], **TOL)
    c = np.asarray(A["c"], np.float32)
    for left, transpose, cc in [(True, False, c), (True, True, c), (False, False, c.T[:, :5])]:
        got = linalg.ormqr(qa, qt, _f32(cc), left=left, transpose=transpose)
        np.testing.assert_allclose(got, A[f"ormqr_{left}_{transpose}"], **TOL)


def test_cholesky_update():
    r, w = _f32(A["chol"]["r"]), _f32(A["chol"]["w"])
    np.testing.assert_allclose(linalg.cholesky_update(r, w), A["cholesky_update"], **TOL)
    with pytest.raises(ValueError, match="Got shapes"):
        linalg.cholesky_update(r, w[:3])


def test_gradients_and_complex_hessenberg():
    x = np.asarray(A["square"][0], np.float64)
    with core.enable_x64():
        check_grads(lambda m: linalg.hessenberg(m)[0], (jnp.asarray(x),), order=1, modes=["rev"])
        rng = np.random.default_rng(0)
        z = rng.normal(size=(4, 4)) + 1j * rng.normal(size=(4, 4))
        h, taus = linalg.hessenberg(jnp.asarray(z))
        q = linalg.householder_product(jnp.asarray(np.asarray(h)[1:, :-1]), taus[:-1])
        full = np.eye(4, dtype=complex)
        full[1:, 1:] = np.asarray(q)
        hess = np.triu(np.asarray(h), -1)
        np.testing.assert_allclose(full @ hess @ full.conj().T, z, atol=1e-10)
