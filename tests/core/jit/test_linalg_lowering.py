"""The matrix decompositions under `jit` (numba) against the numpy backend: values and dtypes.

Each test jits one function computing several decompositions, so few programs are compiled.
"""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.prims import decompositions as dec
from tests.core.jit.backends import compare

rng = np.random.default_rng(0)


def spd(batch, n, dtype):
    a = rng.normal(size=(*batch, n, n))
    return (a @ np.swapaxes(a, -1, -2) + n * np.eye(n)).astype(dtype)


def square_ops(a):
    la = jnp.linalg
    return {
        "inv": la.inv(a),
        "slogdet": la.slogdet(a),
        "cholesky": la.cholesky(a),
        "eigh_lower": la.eigh(a, symmetrize_input=False),
        "eigh_upper": la.eigh(a, UPLO="U", symmetrize_input=False),
        "svd": la.svd(a),
        "svdvals": la.svd(a, compute_uv=False),
        "qr": la.qr(a),
    }


@pytest.mark.parametrize(
    "a, tol",
    [
        # a lower triangle that differs from the upper one: eigh must read the right one
        (spd((2,), 3, np.float32) + np.triu(np.ones((3, 3), np.float32), 1), 2e-4),
        (spd((), 4, np.float64), 1e-9),  # no batch: slogdet gives scalars
    ],
    ids=["float32-batched", "float64-single"],
)
def test_square_decompositions(a, tol):
    # leaves in key order: cholesky, eigh_lower (w, v), eigh_upper (w, v), inv, qr (q, r),
    # slogdet (sign, logabs), svd (u, s, vh), svdvals
    compare(square_ops, a, vectors={2: -2, 4: -2, 10: -2, 12: -1}, rtol=tol, atol=tol)


@pytest.mark.parametrize("shape", [(4, 3), (2, 3, 4)], ids=["tall", "wide-batched"])
def test_rectangular_qr_and_svd(shape):
    """Tall complete QR runs the inline Householder kernel; wide ones numba's reduced mode."""
    a = rng.normal(size=shape)

    def f(x):
        la = jnp.linalg
        return la.qr(x, "complete"), la.qr(x), la.svd(x), la.svd(x, full_matrices=False)

    q, r, *_ = compare(f, a, vectors={4: -2, 6: -1, 7: -2, 9: -1}, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(q @ r[..., : q.shape[-1], :], a, atol=1e-12)


def test_complete_qr_float32_and_zero_column():
    """A column already zero below the diagonal has no reflector (tau = 0), as in LAPACK."""
    a = rng.normal(size=(5, 3)).astype(np.float32)
    a[1:, 0] = 0
    compare(lambda x: jnp.linalg.qr(x, "complete"), a, rtol=1e-5, atol=1e-5)


def test_complex_decompositions():
    a = (rng.normal(size=(3, 3)) + 1j * rng.normal(size=(3, 3))).astype(np.complex64)
    h = a @ a.conj().T + 3 * np.eye(3, dtype=np.complex64)

    def f(x, y):
        return (
            dec.inv(x),
            jnp.linalg.slogdet(x),  # through lu_p, as JAX's
            dec.eigh(y, lower=False),
            dec.cholesky(y),
            dec.svd(x, full_matrices=True, compute_uv=False),
        )

    compare(f, a, h, vectors={3: -2}, rtol=2e-4, atol=2e-4)


def test_failures_give_nan():
    """A singular matrix's inverse is JAX 0.10.2's (LU's zero pivot divides: infinities), and
    non-finite inputs give NaN where numba's LAPACK wrappers raise; a batch with a matrix that
    is not positive definite has a Cholesky factor NaN on and below the diagonal (zeros above:
    JAX's mask of the factor), like the numpy impl and JAX 0.10.2."""
    singular = np.array([[[1.0, 2.0], [2.0, 4.0]], [[2.0, 0.0], [0.0, 2.0]]])
    nan = np.array([[np.nan, 0.0], [0.0, 1.0]])

    def f(s, n):
        return jnp.linalg.inv(s), jnp.linalg.cholesky(s), jnp.linalg.svd(n, compute_uv=False)

    with core.enable_x64():
        inv, chol, sv = (np.asarray(x) for x in core.jit(f)(singular, nan))
        want = np.asarray(core.jit(jnp.linalg.cholesky, backend="python")(singular))
    np.testing.assert_array_equal(inv[0], [[-np.inf, np.inf], [np.inf, -np.inf]])
    np.testing.assert_allclose(inv[1], np.eye(2) / 2)
    lower = np.tri(2, dtype=bool)
    for factor in (chol, want):
        assert np.isnan(factor[:, lower]).all() and (factor[:, ~lower] == 0).all()
    assert np.isnan(sv).all()


def test_empty_matrices():
    def f(e, t):
        return jnp.linalg.inv(e), jnp.linalg.slogdet(e), jnp.linalg.svd(t, compute_uv=False)

    compare(f, np.zeros((2, 0, 0), np.float32), np.zeros((3, 0), np.float32))
