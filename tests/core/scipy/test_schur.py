"""The Schur decomposition (core/lax/schur_qr.py through core/scipy/linalg.py's `schur`) and
the functions built on it: rsf2csf, sqrtm, funm, lax.linalg.schur. The Schur form is not
unique, so the decompositions are checked by their defining properties; the matrix functions
against scipy.linalg."""

import numpy as np
import pytest
import scipy.linalg as sl

import core
import core.numpy as jnp
from core.lax import schur_qr
from core.scipy import linalg as la

RNG = np.random.default_rng(0)


def _matrices():
    out = []
    for n in (1, 2, 3, 5, 8, 20):
        a = RNG.normal(size=(n, n))
        out += [(f"random{n}", a), (f"symmetric{n}", a + a.T), (f"triangular{n}", np.triu(a))]
        if n > 1:
            out += [
                (f"jordan{n}", np.diag(np.ones(n - 1), 1)),  # defective: one eigenvalue 0
                (f"rotation{n}", np.roll(np.eye(n), 1, axis=0)),  # eigenvalues on the circle
            ]
    return out


MATRICES = _matrices()


def _quasi_triangular(t):
    """Zero below the first subdiagonal, no two consecutive subdiagonal entries, and each
    2x2 block in standard form (equal diagonals, off-diagonals of opposite signs)."""
    n = t.shape[0]
    if n > 2 and np.abs(np.tril(t, -2)).max() != 0:
        return False
    sub = np.diag(t, -1)
    blocks = [i for i in range(n - 1) if sub[i] != 0]
    no_chains = all(i + 1 not in blocks for i in blocks)
    standard = all(t[i, i] == t[i + 1, i + 1] and t[i, i + 1] * t[i + 1, i] < 0 for i in blocks)
    return no_chains and standard


@pytest.mark.parametrize("name, a", MATRICES, ids=[m[0] for m in MATRICES])
def test_real_and_complex_schur_forms(name, a):
    n = a.shape[0]
    t, z = schur_qr.real_schur(a)
    np.testing.assert_allclose(z @ t @ z.T, a, atol=1e-12 * max(1, np.abs(a).max()))
    np.testing.assert_allclose(z.T @ z, np.eye(n), atol=1e-13)
    assert _quasi_triangular(t)
    np.testing.assert_allclose(
        np.sort_complex(np.linalg.eigvals(t)), np.sort_complex(np.linalg.eigvals(a)), atol=1e-6
    )
    b = a + 1j * RNG.normal(size=a.shape)
    t, z = schur_qr.complex_schur(b)
    np.testing.assert_allclose(z @ t @ z.conj().T, b, atol=1e-12 * max(1, np.abs(b).max()))
    np.testing.assert_allclose(z.conj().T @ z, np.eye(n), atol=1e-13)
    assert np.abs(np.tril(t, -1)).max(initial=0.0) == 0.0


def test_schur_api_dtypes_batches_jit_and_vmap():
    a = RNG.normal(size=(3, 4, 4)).astype(np.float32)
    for fn in (la.schur, core.jit(la.schur), core.vmap(la.schur)):
        t, z = fn(a)
        assert (t.dtype, z.dtype) == (np.float32, np.float32)
        np.testing.assert_allclose(np.einsum("bij,bjk,blk->bil", z, t, z), a, atol=2e-5)
    t, z = la.schur(a[0], output="complex")
    assert t.dtype == np.complex64 and np.abs(np.tril(np.asarray(t), -1)).max() == 0
    (u,) = core.lax.linalg.schur(a[0], compute_schur_vectors=False)
    np.testing.assert_allclose(u, la.schur(a[0])[0])
    with pytest.raises(ValueError, match="'real' or 'complex'"):
        la.schur(a[0], output="quasi")
    with pytest.raises(ValueError, match="must be a square matrix"):
        la.schur(np.ones((2, 3)))


A = RNG.normal(size=(5, 5))
SPD = A @ A.T + np.eye(5)
SHIFTED = A + 4 * np.eye(5)  # no eigenvalue on the negative real axis: one principal root

# (name, numbax call, scipy call)
CASES = [
    ("rsf2csf", lambda: la.rsf2csf(*sl.schur(A)), lambda: sl.rsf2csf(*sl.schur(A))),
    ("sqrtm_spd", lambda: la.sqrtm(SPD), lambda: sl.sqrtm(SPD)),
    ("sqrtm_general", lambda: la.sqrtm(SHIFTED), lambda: sl.sqrtm(SHIFTED)),
    ("funm_exp", lambda: la.funm(A, jnp.exp), lambda: sl.expm(A)),
    (
        "funm_trig",
        lambda: la.funm(SPD, lambda x: jnp.sin(x) + 2 * jnp.cos(x)),
        lambda: sl.funm(SPD, lambda x: np.sin(x) + 2 * np.cos(x)),
    ),
]


@pytest.mark.parametrize("name, ours, theirs", CASES, ids=[c[0] for c in CASES])
def test_matches_scipy_in_float64(name, ours, theirs):
    with core.enable_x64():
        got = ours()
    want = theirs()
    got, want = (got, want) if isinstance(want, tuple) else ((got,), (want,))
    for g, w in zip(got, want):
        assert np.asarray(g).dtype == np.complex128  # complex, as JAX returns
        np.testing.assert_allclose(np.asarray(g), w, atol=1e-12)


def test_rsf2csf_of_numbax_schur_and_funm_error_estimate():
    with core.enable_x64():
        t, z = la.rsf2csf(*la.schur(A))
        f, err = la.funm(SPD, jnp.exp, disp=False)
    t, z = np.asarray(t), np.asarray(z)
    np.testing.assert_allclose(z @ t @ z.conj().T, A, atol=1e-12)
    assert np.abs(np.tril(t, -1)).max() == 0
    assert float(err) < 1e-12
    with pytest.raises(ValueError, match="must match"):
        la.rsf2csf(np.eye(2), np.eye(3))
    with pytest.raises(NotImplementedError, match="Blocked"):
        la.sqrtm(A, blocksize=2)
    with pytest.raises(ValueError, match="square"):
        la.funm(np.ones(3), jnp.exp)
