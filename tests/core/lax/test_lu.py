"""`lu_p` and its companions (core/lax/lu.py, core/prims/decompositions.py): the factors
against scipy's getrf for a table of shapes and dtypes, JAX's result dtypes, the permutation,
`lu_solve` for the three `trans` values, the jvp against central differences, and one jitted
program (getrf in the kernel, the pivots' permutation and the triangular solves compiled)
against the eager values. (`jax.lax.linalg.lu`'s recorded results: tests/core/lax/
test_linalg.py; the derivative and batching rules: the `lu` cases of prim_cases.py.)"""

import warnings

import numpy as np
import pytest
import scipy.linalg as sl

import core
import core.numpy as jnp
from core.jit.api import compile_count
from core.lax import lu as lax_lu

RNG = np.random.default_rng(0)
SQUARE = RNG.normal(size=(4, 4)).astype(np.float32)
TALL = RNG.normal(size=(5, 3)).astype(np.float32)
WIDE = RNG.normal(size=(3, 5)).astype(np.float32)
SINGULAR = np.array([[0, 1, 2], [0, 2, 4], [0, 3, 7]], np.float32)  # a zero pivot column
CPLX = (RNG.normal(size=(3, 3)) + 1j * RNG.normal(size=(3, 3))).astype(np.complex64)
BATCH = RNG.normal(size=(2, 3, 3)).astype(np.float32)
B = RNG.normal(size=(4, 2)).astype(np.float32)

MATRICES = {
    "square": SQUARE,
    "tall": TALL,
    "wide": WIDE,
    "singular": SINGULAR,
    "complex": CPLX,
    "float64": SQUARE.astype(np.float64),
}


def _scipy_lu(a):
    """scipy's getrf: the packed factors, 0-based int32 pivots, and the permutation."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sl.LinAlgWarning)  # the singular case
        lu_, piv = sl.lu_factor(a, check_finite=False)
    perm = np.arange(a.shape[0])
    for i, p in enumerate(piv):
        perm[[i, p]] = perm[[p, i]]
    return lu_, piv.astype(np.int32), perm.astype(np.int32)


@pytest.mark.parametrize("name", sorted(MATRICES))
def test_factors_are_getrfs(name):
    a = MATRICES[name]
    with core.enable_x64(a.dtype == np.float64):
        lu_, piv, perm = lax_lu.lu(a)
    want_lu, want_piv, want_perm = _scipy_lu(a)
    assert lu_.dtype == a.dtype and piv.dtype == perm.dtype == np.int32
    assert piv.shape == (min(a.shape),) and perm.shape == (a.shape[0],)
    np.testing.assert_array_equal(piv, want_piv)
    np.testing.assert_array_equal(perm, want_perm)
    np.testing.assert_allclose(lu_, want_lu, rtol=1e-5, atol=1e-6)


def test_batched_and_empty():
    lu_, piv, perm = lax_lu.lu(BATCH)
    for i in range(2):
        want_lu, want_piv, want_perm = _scipy_lu(BATCH[i])
        np.testing.assert_allclose(lu_[i], want_lu, rtol=1e-5, atol=1e-6)
        np.testing.assert_array_equal(piv[i], want_piv)
        np.testing.assert_array_equal(perm[i], want_perm)
    lu_, piv, perm = lax_lu.lu(np.zeros((3, 0), np.float32))
    assert lu_.shape == (3, 0) and piv.shape == (0,)
    np.testing.assert_array_equal(perm, [0, 1, 2])


def test_pivots_to_permutation():
    pivots = np.array([[2, 2, 3], [0, 3, 3]], np.int32)
    got = lax_lu.lu_pivots_to_permutation(pivots, 5)
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, [[2, 0, 3, 1, 4], [0, 3, 1, 2, 4]])  # JAX 0.10.2
    with pytest.raises(ValueError, match="Output permutation size 2 has to exceed"):
        lax_lu.lu_pivots_to_permutation(pivots, 2)


@pytest.mark.parametrize("trans", [0, 1, 2])
@pytest.mark.parametrize("rhs", [B, B[:, 0]], ids=["matrix", "vector"])
def test_lu_solve(trans, rhs):
    lu_, _, perm = lax_lu.lu(SQUARE)
    got = lax_lu.lu_solve(lu_, perm, rhs, trans)
    np.testing.assert_allclose(got, sl.lu_solve(sl.lu_factor(SQUARE), rhs, trans), rtol=1e-4)


def test_jvp_matches_central_differences():
    a = SQUARE.astype(np.float64)
    t = RNG.normal(size=a.shape)
    with core.enable_x64():
        _, got = core.jvp(lambda a: lax_lu.lu(a)[0], (a,), (t,))
    eps = 1e-6
    num = (_scipy_lu(a + eps * t)[0] - _scipy_lu(a - eps * t)[0]) / (2 * eps)
    np.testing.assert_allclose(got, num, rtol=1e-6, atol=1e-8)


def _program(a, b, batch):
    lu_, piv, perm = lax_lu.lu(a)
    return (
        lu_,
        piv,
        perm,
        lax_lu.lu_pivots_to_permutation(piv, 4),
        lax_lu.lu(batch)[0],
        lax_lu.lu(a[:3])[0],
        jnp.linalg.solve(a, b),
        jnp.linalg.inv(batch),
        jnp.linalg.slogdet(a),
        jnp.linalg.det(a),
    )


def test_jit_matches_eager():
    before = compile_count()
    got = core.jit(_program)(SQUARE, B, BATCH)
    assert compile_count() == before + 1
    want = _program(SQUARE, B, BATCH)
    for g, w in zip(core.tree.leaves(got), core.tree.leaves(want), strict=True):
        assert g.dtype == w.dtype
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(got[6], np.linalg.solve(SQUARE, B), rtol=1e-4)
    np.testing.assert_allclose(got[7], np.linalg.inv(BATCH), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(got[9], np.linalg.det(SQUARE), rtol=1e-5)
