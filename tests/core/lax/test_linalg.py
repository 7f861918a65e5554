"""core.lax.linalg against `jax.lax.linalg`'s recorded results (linalg_answers.py), a table of
(function, args, kwargs). Eigenvectors and singular vectors are compared up to each vector's
sign (LAPACK builds may pick either); the rest value by value. Plus grad, vmap and jit through
the functions that are compositions, and JAX's CPU errors."""

import numpy as np
import pytest
import scipy.linalg as sl

import core
from core import lax
from core.lax.linalg import UnsupportedOptionError
from tests.core.lax.linalg_answers import RESULTS

RNG = np.random.RandomState(0)
A = np.round(RNG.randn(4, 4), 2).astype(np.float32)
SPD = (A @ A.T + 4 * np.eye(4)).astype(np.float32)
NONSYM = SPD + np.triu(np.ones((4, 4), np.float32), 1)
TALL = np.round(RNG.randn(5, 3), 2).astype(np.float32)
B = np.round(RNG.randn(4, 2), 2).astype(np.float32)
DL = np.float32([0, 1, 2, 1])
D = np.float32([4, 5, 6, 7])
DU = np.float32([1, 2, 1, 0])
CASES = [
    ("cholesky", (SPD,), {}),
    ("cholesky", (NONSYM,), {}),
    ("cholesky", (NONSYM,), {"symmetrize_input": False}),
    ("eigh", (SPD,), {}),
    ("eigh", (NONSYM,), {"symmetrize_input": False, "lower": False}),
    ("lu", (A,), {}),
    ("lu", (TALL,), {}),
    ("lu", (TALL.T,), {}),
    ("lu_pivots_to_permutation", (np.int32([2, 2, 3]), 5), {}),
    ("qr", (TALL,), {}),
    ("qr", (TALL,), {"full_matrices": False}),
    ("svd", (TALL,), {}),
    ("svd", (TALL,), {"full_matrices": False}),
    ("svd", (A,), {"compute_uv": False}),
    ("triangular_solve", (SPD, B.T), {"lower": True}),
    ("triangular_solve", (SPD, B), {"left_side": True, "lower": True}),
    ("triangular_solve", (SPD, B), {"left_side": True, "lower": False, "transpose_a": True}),
    ("triangular_solve", (SPD, B[:, 0]), {"left_side": True, "unit_diagonal": True}),
    ("triangular_solve", (SPD, B[:, 0]), {"lower": True, "transpose_a": True}),
    ("tridiagonal_solve", (DL, D, DU, B), {}),
    (
        "symmetric_product",
        (TALL, np.eye(5, dtype=np.float32)),
        {"alpha": 2.0, "beta": 0.5, "symmetrize_output": True},
    ),
]
# Which outputs hold vectors (columns, or rows for svd's vh) known only up to sign.
SIGNED = {"eigh": {0: "cols"}, "svd": {0: "cols", 2: "rows"}, "qr": {0: "cols", 1: "rows"}}


def _unsign(x: np.ndarray, ref: np.ndarray, how: str) -> np.ndarray:
    axis = -2 if how == "cols" else -1
    dots = np.sum(x * ref, axis=axis, keepdims=True)
    return x * np.where(dots < 0, -1, 1)


@pytest.mark.parametrize("i", range(len(CASES)), ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_matches_jax(i):
    name, args, kwargs = CASES[i]
    got = getattr(lax.linalg, name)(*args, **kwargs)
    want = RESULTS[i]
    signed = SIGNED.get(name, {}) if isinstance(want, tuple) else {}
    if not isinstance(want, tuple):
        got, want = (got,), (want,)
    assert len(got) == len(want)
    for k, (g, w) in enumerate(zip(got, want)):
        g = np.asarray(g)
        assert g.dtype == w.dtype and g.shape == w.shape, (k, g.dtype, g.shape)
        if k in signed:
            g = _unsign(g, w, signed[k])
        if g.dtype.kind == "i":
            np.testing.assert_array_equal(g, w)
        else:
            np.testing.assert_allclose(g, w, rtol=2e-5, atol=2e-5)


def test_transformations():
    chol = core.jit(core.vmap(lax.linalg.cholesky))(np.stack([SPD, 2 * SPD]))
    np.testing.assert_allclose(chol[1], np.sqrt(2) * RESULTS[0], rtol=1e-5, atol=1e-5)
    solve = core.jit(lambda a, b: lax.linalg.tridiagonal_solve(DL, a, DU, b))
    np.testing.assert_allclose(solve(D, B), RESULTS[19], rtol=1e-5, atol=1e-6)
    # d/db of sum(x) for A x = b is A^-T 1; for the triangular solve x L = b it is L^-1 1.
    tri = np.tril(SPD)
    g = core.grad(lambda b: lax.linalg.triangular_solve(SPD, b, lower=True).sum())(B.T)
    np.testing.assert_allclose(g, np.linalg.solve(tri, np.ones((4, 2))).T, rtol=1e-4)
    full = np.diag(D) + np.diag(DL[1:], -1) + np.diag(DU[:-1], 1)
    g = core.grad(lambda b: lax.linalg.tridiagonal_solve(DL, D, DU, b).sum())(B)
    np.testing.assert_allclose(g, np.linalg.solve(full.T, np.ones((4, 2))), rtol=1e-4)


@pytest.mark.parametrize(
    "call",
    [
        lambda: lax.linalg.qr(TALL, pivoting=True),
        lambda: lax.linalg.eigh(SPD, subset_by_index=(1, 3)),
        lambda: lax.linalg.svd(A, subset_by_index=(0, 2)),
    ],
)
def test_unsupported_options_raise(call):
    with pytest.raises(UnsupportedOptionError):
        call()


F32_3 = np.zeros(3, np.float32)
# JAX 0.10.2's errors (its standard linalg checks: ranks (1, 1, 1, 2), batch axes, the core
# shapes, then the dtypes, in that order)
TRIDIAGONAL_ERRORS = [
    ((F32_3, F32_3, F32_3, F32_3),
     "Input 3 to tridiagonal_solve must have rank at least 2, but got shape=(3,)"),
    ((np.float32(0), F32_3, F32_3, B[:3]),
     "Input 0 to tridiagonal_solve must have rank at least 1, but got shape=()"),
    ((F32_3, F32_3, F32_3, np.ones((2, 3, 1), np.float32)),
     "All inputs to tridiagonal_solve must have the same number of batch dimensions, but got "
     "[0, 0, 0, 1] batch dimensions for the inputs."),
    ((F32_3, F32_3, F32_3[:2], B[:3]),
     "tridiagonal_solve requires that all diagonal arguments have the same shape."),
    ((F32_3, F32_3, F32_3, B),
     "tridiagonal_solve requires that the leading ndim-1 dimensions of b equal the dimensions "
     "of the diagonal arguments."),
    ((F32_3, F32_3, F32_3, np.ones((3, 1), np.int32)),
     "tridiagonal_solve does not accept dtype int32 at position 3. Accepted dtypes at "
     "position 3 are subtypes of floating, complexfloating."),
    ((F32_3.astype(bool), F32_3, F32_3, B[:3]),
     "tridiagonal_solve does not accept dtype bool at position 0. Accepted dtypes at "
     "position 0 are subtypes of floating, complexfloating."),
    ((F32_3.astype(np.complex64), F32_3, F32_3, B[:3]),
     "lax.tridiagonal_solve requires arguments to have the same dtypes, got complex64, "
     "float32, float32, float32."),
]  # fmt: skip


@pytest.mark.parametrize("args, message", TRIDIAGONAL_ERRORS)
def test_tridiagonal_solve_errors_are_jaxs(args, message):
    with pytest.raises(TypeError) as info:
        lax.linalg.tridiagonal_solve(*args)
    assert str(info.value) == message


def test_import_forms():
    from core.lax import linalg

    assert linalg is core.lax.linalg


@pytest.mark.parametrize("shape", [(6, 4), (5, 5)])
def test_qdwh_polar_decomposition(shape):
    x = np.random.default_rng(1).normal(size=shape)
    with core.enable_x64():
        u, h, num_iters, converged = core.lax.linalg.qdwh(x)
    want_u, want_h = sl.polar(x)
    np.testing.assert_allclose(np.asarray(u), want_u, atol=1e-12)
    np.testing.assert_allclose(np.asarray(h), want_h, atol=1e-12)
    assert bool(converged) and int(num_iters) == 6  # as JAX 0.10.2's, both shapes
    with pytest.raises(ValueError, match="M >= N"):
        core.lax.linalg.qdwh(np.ones((2, 3)))


def test_tridiagonal_solve_of_an_empty_system():
    empty = np.zeros(0, np.float32)  # JAX 0.10.2: the empty (0, 1) solution
    out = lax.linalg.tridiagonal_solve(empty, empty, empty, np.zeros((0, 1), np.float32))
    assert out.shape == (0, 1) and out.dtype == np.float32


# (dl, d, du, b, perturb_singular, JAX 0.10.2's float32 solution): LAPACK's gtsv pivots rows,
# a singular system is NaN, and perturb_singular grows tiny pivots by eps * max|U| steps.
PIVOTING_CASES = [
    ([0, 2, -2, 3], [1, 4, 1, -1], [2, -1, 1, 0], [1, 2, 3, 4], False, [8, -3.5, 0, -4]),
    ([0, 1, -6, 1], [1, -1, 2, 1], [2, 1, -1, 0], [1, 2, -1, -2], False, [5, -2, -5, 3]),
    ([9, 1], [1, 3], [3, 9], [1, 4], False, [np.nan, np.nan]),
    ([0, 1], [1, 3], [3, 0], [1, 4], True, [-2.516582e07, 8.388608e06]),
    ([0, 0, 0], [0, 0, 0], [0, 0, 0], [1, 1, 1], True, [8.507059e37] * 3),
    ([0, 0, 0], [5, 0, 2], [7, 1, 0], [1, 1, 1], True, [-8.388606e05, 5.991863e05, 0.5]),
    ([0, 0], [-0.0, 2], [0, 0], [1, 1], True, [-4.194304e06, 0.5]),
    ([0, 0], [1e-37, 1], [0, 0], [1e3, 1], True, [8.388608e09, 1]),
    ([0, 0], [1e-37, 1], [0, 0], [1, 1], True, [1e37, 1]),
    ([0, 0], [0, 1], [0, 0], [1e35, 1], True, [5.120313e37, 1]),
    ([0], [0], [0], [1e10], True, [4.95176e37]),
]


@pytest.mark.parametrize("dl, d, du, b, perturb, want", PIVOTING_CASES)
def test_tridiagonal_solve_pivots_and_perturbs_as_jax(dl, d, du, b, perturb, want):
    args = [np.float32(v) for v in (dl, d, du)] + [np.float32(b)[:, None]]
    got = lax.linalg.tridiagonal_solve(*args, perturb_singular=perturb)
    np.testing.assert_allclose(np.asarray(got)[:, 0], want, rtol=2e-6)


def test_tridiagonal_solve_nans_only_the_singular_systems_of_a_batch():
    dl, d, du = np.float32([[0, 1], [0, 1]]), np.float32([[1, 3], [1, 4]]), np.float32([[3, 0]] * 2)
    b = np.float32([[[1, 2], [4, 5]], [[1, 0], [4, 1]]])
    got = np.asarray(core.jit(lax.linalg.tridiagonal_solve)(dl, d, du, b))
    assert np.isnan(got[0]).all()
    np.testing.assert_allclose(got[1], [[-8, -3], [3, 1]], rtol=1e-6)


def test_tridiagonal_solve_perturbed_grad_and_complex():
    d = np.float32([1, 0.5, 2])
    dl, du, b = np.float32([0, 2, 1]), np.float32([1, 3, 0]), np.float32([[1], [2], [3]])
    g = core.grad(lambda d: lax.linalg.tridiagonal_solve(dl, d, du, b, perturb_singular=True).sum())
    np.testing.assert_allclose(np.asarray(g(d)), [1 / 3, -0.25, -0.1875], rtol=1e-5)  # JAX's
    c = np.complex64
    with core.config.override("jax_numpy_dtype_promotion", "strict"):
        got = lax.linalg.tridiagonal_solve(
            c([0, 1j]), c([1, 3j]), c([3, 0]), c([[1], [4]]), perturb_singular=True
        )
    want = [-3.355443e07 + 8.388608e06j, 1.118481e07 - 2.796203e06j]  # JAX 0.10.2's
    np.testing.assert_allclose(np.asarray(got)[:, 0], want, rtol=2e-6)
