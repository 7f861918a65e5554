"""core.scipy.sparse.linalg (cg, bicgstab, gmres) against JAX's recorded results
(sparse_answers.py): matrices and functions as operators, preconditioners, early stops on
maxiter, x0/atol, pytrees, and gradients (implicit, through custom_linear_solve); plus jit and
the errors."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.scipy.errors import ModeError, NotAnOperatorError, ShapeMismatchError
from core.scipy.sparse import linalg as spl
from tests.core.scipy.sparse_answers import GMRES, RESULTS

RNG = np.random.RandomState(2)
G = np.round(RNG.randn(5, 5), 2).astype(np.float32)
SPD = (G @ G.T + 5 * np.eye(5)).astype(np.float32)
NS = (G + 6 * np.eye(5)).astype(np.float32)
B = np.round(RNG.randn(5), 2).astype(np.float32)
D = np.diag(SPD).copy()


def _tree_cg():
    x = spl.cg(lambda t: {"a": SPD[:2, :2] @ t["a"], "b": 3.0 * t["b"]}, {"a": B[:2], "b": B[2:]})[
        0
    ]
    return jnp.concatenate([x["a"], x["b"]])


CASES = [
    lambda: spl.cg(SPD, B)[0],
    lambda: spl.cg(lambda x: SPD @ x, B, maxiter=2)[0],
    lambda: spl.cg(SPD, B, M=lambda x: x / D, tol=1e-3)[0],
    lambda: spl.cg(SPD, B, x0=np.ones(5, np.float32), atol=1e-2, tol=0.0)[0],
    lambda: spl.bicgstab(NS, B)[0],
    lambda: spl.bicgstab(lambda x: NS @ x, B, maxiter=2)[0],
    lambda: spl.bicgstab(NS, B, M=lambda x: x / np.diag(NS))[0],
    _tree_cg,
    lambda: core.grad(lambda b: spl.cg(SPD, b)[0].sum())(B),
    lambda: core.grad(lambda b: spl.bicgstab(NS, b)[0].sum())(B),
]


@pytest.mark.parametrize("i", range(len(CASES)))
def test_matches_jax(i):
    got = np.asarray(CASES[i]())
    want = RESULTS[i]
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-6)


GMRES_CASES = [
    lambda: spl.gmres(NS, B)[0],
    lambda: spl.gmres(NS, B, solve_method="incremental")[0],
    lambda: spl.gmres(lambda x: NS @ x, B, restart=2, maxiter=3)[0],
    lambda: spl.gmres(NS, B, restart=2, maxiter=3, solve_method="incremental")[0],
    lambda: spl.gmres(NS, B, M=lambda x: x / np.diag(NS), tol=1e-3)[0],
    lambda: core.grad(lambda b: spl.gmres(NS, b)[0].sum())(B),
]


@pytest.mark.parametrize("i", range(len(GMRES_CASES)))
def test_gmres_matches_jax(i):
    got = np.asarray(GMRES_CASES[i]())
    assert got.dtype == GMRES[i].dtype and got.shape == GMRES[i].shape
    np.testing.assert_allclose(got, GMRES[i], rtol=2e-5, atol=2e-6)


def test_info_and_jit():
    x, info = spl.cg(SPD, B)
    assert info is None
    x, info = spl.gmres(NS, B)
    assert np.asarray(info) == 0
    np.testing.assert_allclose(core.jit(lambda b: spl.cg(SPD, b)[0])(B), RESULTS[0], rtol=2e-5)


def test_errors():
    with pytest.raises(ShapeMismatchError, match="square matrix"):
        spl.cg(G[:3], B)
    with pytest.raises(ShapeMismatchError, match="matching shapes"):
        spl.cg(SPD, B, x0=np.zeros(4, np.float32))
    with pytest.raises(NotAnOperatorError):
        spl.bicgstab(3.0, B)
    with pytest.raises(ModeError, match="invalid solve_method"):
        spl.gmres(NS, B, solve_method="qr")
