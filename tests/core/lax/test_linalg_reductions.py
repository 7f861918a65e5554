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
        # all n - 1 reflectors: the last one (LAPACK's) makes h[3, 2] real
        assert np.imag(np.asarray(h)[3, 2]) == 0
        q = linalg.householder_product(jnp.asarray(np.asarray(h)[1:, :-1]), taus)
        full = np.eye(4, dtype=complex)
        full[1:, 1:] = np.asarray(q)
        hess = np.triu(np.asarray(h), -1)
        np.testing.assert_allclose(full @ hess @ full.conj().T, z, atol=1e-10)


def test_cholesky_update_has_no_batching_rule_as_jax():
    r, w = _f32(A["chol"]["r"]), _f32(A["chol"]["w"])
    with pytest.raises(NotImplementedError, match="Batching rule for 'cholesky_update'"):
        core.vmap(linalg.cholesky_update)(r[None], w[None])


def test_symmetric_product_values():
    a, c = np.asarray(A["tall"], np.float32), np.asarray(A["sym"][0], np.float32)[:2, :2]
    for sym in (False, True):  # the CPU computes the whole product, as JAX's
        got = linalg.symmetric_product(a[:2], c, alpha=2.0, beta=0.5, symmetrize_output=sym)
        np.testing.assert_allclose(got, 2.0 * a[:2] @ a[:2].T + 0.5 * c, **TOL)
    got = core.vmap(lambda x: linalg.symmetric_product(x, jnp.eye(5), beta=-1.0))(_f32([a]))
    np.testing.assert_allclose(got[0], a @ a.T - np.eye(5), **TOL)


# JAX 0.10.2's errors (the primitives' shape and dtype rules)
_ONES = lambda *s, dtype=np.float32: np.ones(s, dtype)  # noqa: E731
ERRORS = [
    (
        lambda: linalg.ormqr(_ONES(3, 3, dtype=np.int32), _ONES(2), _ONES(3, 3)),
        TypeError,
        "ormqr does not accept dtype int32 at position 0. Accepted dtypes at position 0 are "
        "subtypes of floating, complexfloating.",
    ),
    (
        lambda: linalg.ormqr(_ONES(3, 3), _ONES(2), _ONES(3, 3, dtype=np.complex64)),
        TypeError,
        "lax.ormqr requires arguments to have the same dtypes, got float32, float32, complex64.",
    ),
    (
        lambda: linalg.ormqr(_ONES(2, 3, 3), _ONES(2), _ONES(2, 3, 3)),
        TypeError,
        "All inputs to ormqr must have the same number of batch dimensions, but got [1, 0, 1] "
        "batch dimensions for the inputs.",
    ),
    (
        lambda: linalg.ormqr(_ONES(3, 3), _ONES(2), _ONES(3, 2), left=False),
        ValueError,
        "ormqr with left=False expects c to have the same number of columns as the Householder "
        "matrix a has rows. Got a shape (3, 3) and c shape (3, 2).",
    ),
    (
        lambda: linalg.cholesky_update(
            _ONES(2, 2, dtype=np.complex64), _ONES(2, dtype=np.complex64)
        ),
        TypeError,
        "cholesky_update does not accept dtype complex64 at position 0. Accepted dtypes at "
        "position 0 are subtypes of floating.",
    ),
    (
        lambda: linalg.cholesky_update(_ONES(1, 2, 2), _ONES(1, 2)),
        TypeError,
        "Input 0 to cholesky_update must have a rank of exactly 2, but got shape=(1, 2, 2)",
    ),
    (
        lambda: linalg.symmetric_product(_ONES(3), _ONES(2, 2)),
        TypeError,
        "Input 0 to symmetric_product must have rank at least 2, but got shape=(3,)",
    ),
    (
        lambda: linalg.symmetric_product(_ONES(2, 3), _ONES(3, 3)),
        ValueError,
        "symmetric_update expects a rectangular matrix of shape (m, n) and a square matrix of "
        "shape (n, n). Got shapes (2, 3) and (3, 3).",
    ),
    (
        lambda: linalg.symmetric_product(_ONES(2, 3), _ONES(2, 2, dtype=np.float16)),
        TypeError,
        "lax.symmetric_product requires arguments to have the same dtypes, got float32, float16.",
    ),
]


@pytest.mark.parametrize("i", range(len(ERRORS)))
def test_errors_are_jaxs(i):
    fun, kind, message = ERRORS[i]
    with pytest.raises(kind) as info:
        fun()
    assert str(info.value) == message


# JAX 0.10.2 on the CPU: the algorithms only a GPU or TPU has raise when the program runs
_H = np.linspace(-1, 1, 9, dtype=np.float32).reshape(3, 3) + np.eye(3, dtype=np.float32)
ALGORITHMS = [
    (
        lambda x: linalg.eigh(x, implementation=linalg.EighImplementation.JACOBI),
        NotImplementedError,
        "Jacobi implementation is not supported on CPU",
    ),
    (
        lambda x: linalg.eigh(x, implementation=linalg.EighImplementation.QDWH),
        NotImplementedError,
        "QDWH implementation is only supported on TPU",
    ),
    (
        lambda x: linalg.svd(x, algorithm=linalg.SvdAlgorithm.POLAR),
        NotImplementedError,
        "The SVD Jacobi and Polar algorithms are not implemented on CPU.",
    ),
    (
        lambda x: linalg.eig(x, implementation=linalg.EigImplementation.MAGMA),
        ValueError,
        "Only the lapack implementation is supported on CPU.",
    ),
    (lambda x: linalg.eigh(x, implementation=linalg.EighImplementation.QR)[1], None, None),
    (lambda x: linalg.svd(x, algorithm=linalg.SvdAlgorithm.QR)[1], None, None),
    (lambda x: linalg.svd(x, algorithm=linalg.SvdAlgorithm.DIVIDE_AND_CONQUER)[1], None, None),
    (lambda x: linalg.eig(x, implementation=linalg.EigImplementation.LAPACK)[0], None, None),
]


@pytest.mark.parametrize("i", range(len(ALGORITHMS)))
@pytest.mark.parametrize("jitted", [False, True])
def test_algorithms_on_the_cpu(i, jitted):
    fun, kind, message = ALGORITHMS[i]
    core.make_jaxpr(fun)(_H)  # tracing accepts every algorithm, as JAX's does
    run = core.jit(fun) if jitted else fun
    if kind is None:
        sym = (_H + _H.T) / 2  # eigh decomposes the Hermitian part
        want = {
            4: np.linalg.eigvalsh(sym),
            5: np.linalg.svd(_H, compute_uv=False),
            6: np.linalg.svd(_H, compute_uv=False),
        }
        if i in want:
            np.testing.assert_allclose(run(_H), want[i], **TOL)
        else:
            got = np.sort_complex(np.asarray(run(_H)))
            np.testing.assert_allclose(got, np.sort_complex(np.linalg.eigvals(_H)), **TOL)
        return
    with pytest.raises(kind) as info:
        run(_H)
    assert str(info.value) == message


def test_eig_use_magma_is_deprecated():
    with pytest.warns(DeprecationWarning, match="use_magma is deprecated"):
        w = linalg.eig(_H, use_magma=False, compute_right_eigenvectors=False)[0]
    np.testing.assert_allclose(
        np.sort_complex(np.asarray(w)), np.sort_complex(np.linalg.eigvals(_H)), **TOL
    )
