"""core.scipy.linalg: LU and solves against scipy.linalg, shapes, batching and derivatives."""

import numpy as np
import pytest
import scipy.linalg as sl

import core
from core.scipy import linalg
from core.scipy.errors import ModeError
from core.test_util import check_grads

RNG = np.random.RandomState(0)
SQUARE = RNG.standard_normal((4, 4)).astype(np.float32)
WIDE = RNG.standard_normal((3, 5)).astype(np.float32)
TALL = RNG.standard_normal((5, 3)).astype(np.float32)
SPD = (SQUARE @ SQUARE.T + 4 * np.eye(4)).astype(np.float32)
B = RNG.standard_normal((4, 2)).astype(np.float32)


@pytest.mark.parametrize("a", [SQUARE, WIDE, TALL], ids=["square", "wide", "tall"])
def test_lu_matches_scipy(a):
    p, l_, u = linalg.lu(a)
    wp, wl, wu = sl.lu(a)
    np.testing.assert_array_equal(p, wp)
    np.testing.assert_allclose(l_, wl, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(u, wu, rtol=1e-5, atol=1e-6)
    pl, u2 = linalg.lu(a, permute_l=True)
    np.testing.assert_allclose(pl @ u2, a, rtol=1e-5, atol=1e-5)


def test_lu_factor_matches_scipy():
    lu_, piv = linalg.lu_factor(SQUARE)
    wlu, wpiv = sl.lu_factor(SQUARE)
    assert piv.dtype == np.int32
    np.testing.assert_array_equal(piv, wpiv)
    np.testing.assert_allclose(lu_, wlu, rtol=1e-5, atol=1e-6)


@pytest.mark.filterwarnings("ignore::scipy.linalg.LinAlgWarning")
def test_lu_singular_column_left_unscaled():
    a = np.float32([[0.0, 1.0], [0.0, 2.0]])
    lu_, piv = linalg.lu_factor(a)
    wlu, wpiv = sl.lu_factor(a, check_finite=False)
    np.testing.assert_array_equal(piv, wpiv)
    np.testing.assert_allclose(lu_, wlu)


@pytest.mark.parametrize("trans", [0, 1, 2])
@pytest.mark.parametrize("rhs", [B, B[:, 0]], ids=["matrix", "vector"])
def test_lu_solve(trans, rhs):
    x = linalg.lu_solve(linalg.lu_factor(SQUARE), rhs, trans=trans)
    want = sl.lu_solve(sl.lu_factor(SQUARE), rhs, trans=trans)
    np.testing.assert_allclose(x, want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("lower", [True, False])
def test_cho_solve(lower):
    c = linalg.cho_factor(SPD, lower=lower)
    assert c[1] is lower
    want = sl.cho_solve(sl.cho_factor(SPD, lower=lower), B)
    np.testing.assert_allclose(linalg.cho_solve(c, B), want, rtol=1e-4, atol=1e-5)


def test_decompositions_follow_scipy_conventions():
    q, r = linalg.qr(WIDE)
    assert q.shape == (3, 3) and r.shape == (3, 5)
    q, r = linalg.qr(TALL, mode="economic")
    assert q.shape == (5, 3) and r.shape == (3, 3)
    (r,) = linalg.qr(TALL, mode="r")
    assert r.shape == (5, 3)
    w = linalg.eigh(SPD, eigvals_only=True)
    np.testing.assert_allclose(w, sl.eigh(SPD, eigvals_only=True), rtol=1e-5)
    s = linalg.svd(WIDE, compute_uv=False)
    np.testing.assert_allclose(s, sl.svd(WIDE, compute_uv=False), rtol=1e-5)
    np.testing.assert_allclose(linalg.cholesky(SPD), sl.cholesky(SPD), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(
    "call,exc",
    [
        (lambda: linalg.solve_triangular(SQUARE, B, trans="X"), ModeError),
        (lambda: linalg.solve(SQUARE, B, assume_a="banded"), ModeError),
        (lambda: linalg.qr(SQUARE, mode="raw"), ModeError),
        (lambda: linalg.eigh(SPD, SPD), NotImplementedError),
    ],
)
def test_errors(call, exc):
    with pytest.raises(exc):
        call()


def test_batched_solves_and_vmap():
    a = np.stack([SQUARE, SPD])
    # like JAX, `b` with one axis fewer than `a` is a batch of vectors, so stack the rhs too
    x = linalg.solve_triangular(a, np.stack([B, B]), lower=True)
    want = np.stack([sl.solve_triangular(m, B, lower=True) for m in a])
    np.testing.assert_allclose(x, want, rtol=1e-4, atol=1e-5)
    p, l_, u = core.vmap(linalg.lu)(a)
    np.testing.assert_allclose(p @ l_ @ u, a, rtol=1e-5, atol=1e-5)
    e = core.vmap(linalg.expm)(a / 4)
    np.testing.assert_allclose(e, [sl.expm(m / 4) for m in a], rtol=1e-4, atol=1e-5)


def test_expm_too_many_squarings_is_nan():
    big = np.float32([[1e6, 0.0], [0.0, 1.0]])
    assert np.isnan(np.asarray(linalg.expm(big, max_squarings=4))).all()


@pytest.mark.parametrize(
    "fn",
    [
        lambda a, b: linalg.solve_triangular(a, b, lower=True),
        lambda a, b: linalg.solve_triangular(a, b, trans=1),
        lambda a, b: linalg.lu_solve(linalg.lu_factor(a), b),
        lambda a, b: linalg.expm(a / 4) @ b,
        lambda a, b: linalg.cho_solve(linalg.cho_factor(a @ a.T + 4 * np.eye(4)), b),
    ],
    ids=["solve_triangular", "solve_triangular_T", "lu_solve", "expm", "cho_solve"],
)
def test_grads(fn):
    with core.enable_x64():
        a = SQUARE.astype(np.float64) + 3 * np.eye(4)
        check_grads(fn, (a, B.astype(np.float64)), order=1, modes=("fwd", "rev"))


def test_jit_solve_triangular():
    f = core.jit(lambda a, b: linalg.solve_triangular(a, b, lower=True))
    want = sl.solve_triangular(SPD, B, lower=True)
    np.testing.assert_allclose(f(SPD, B), want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("lower", [True, False])
def test_eigh_symmetrizes_its_input_as_jax(lower):
    # jax.scipy.linalg.eigh([[1, 5], [-7, 1]], lower=...) reads (a + a^T) / 2: [0., 2.]
    a = np.array([[1.0, 5.0], [-7.0, 1.0]], np.float32)
    np.testing.assert_allclose(
        linalg.eigh(a, lower=lower, eigvals_only=True), [0.0, 2.0], atol=1e-6
    )


def test_cho_solve_and_schur_errors_as_jax():
    # JAX 0.10.2: jit(cho_solve) traces the `lower` flag, a non-hashable static argument
    # (ValueError); schur of a vector is a TypeError, of a non-square matrix a ValueError
    c_and_lower = linalg.cho_factor(SPD)
    with pytest.raises(ValueError, match="^Non-hashable static arguments are not supported"):
        core.jit(linalg.cho_solve)(c_and_lower, np.ones(SPD.shape[0], np.float32))
    with pytest.raises(
        TypeError, match=r"^Input 0 to schur must have rank at least 2, but got shape=\(3,\)"
    ):
        linalg.sqrtm(np.ones(3, np.float32))
    with pytest.raises(ValueError, match="must be a square matrix"):
        linalg.schur(np.ones((2, 3), np.float32))


@pytest.mark.parametrize("mode", ["full", "economic", "r"])
def test_qr_with_pivoting_as_jax(mode):
    # jax.scipy.linalg.qr([[1, 2], [3, 4], [5, 6]], pivoting=True): p = [1, 0] in every mode,
    # (q, r, p) or (r, p); batched pivots are LAPACK geqp3's (scipy's, as JAX's CPU backend)
    a = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32)
    out = linalg.qr(a, mode=mode, pivoting=True)
    assert len(out) == (2 if mode == "r" else 3)
    np.testing.assert_array_equal(out[-1], [1, 0])
    assert out[-1].dtype == np.int32
    if mode != "r":
        np.testing.assert_allclose(out[0] @ out[1], a[:, [1, 0]], atol=1e-5)
    b = np.random.RandomState(0).randn(2, 4, 5).astype(np.float32)
    q, r, p = linalg.qr(b, mode="economic", pivoting=True)
    np.testing.assert_array_equal(p, [sl.qr(m, pivoting=True)[2] for m in b])
    np.testing.assert_allclose(
        q @ r, np.take_along_axis(b, np.asarray(p)[:, None, :], -1), atol=1e-5
    )
