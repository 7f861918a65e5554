"""`optim.nnls`, `optim.losses.make_fenchel_young_loss`, `multiclass_sparsemax_loss`,
`ranking_softmax_loss` and `optim.assignment.base_hungarian_algorithm` against Optax 0.2.8
(`more_cases.compute`, recorded by `record_more.py` into `optax_more.json`), plus the
formulas they must satisfy."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import core
import core.numpy as jnp
import optim
from core.scipy.special import logsumexp
from optim.errors import LossInputError, NnlsShapeError
from tests.optim.more_cases import B_VEC, COSTS, SCORES, A, compute

EXPECTED = json.loads((pathlib.Path(__file__).parent / "optax_more.json").read_text())["values"]


@pytest.fixture(scope="module")
def ours():
    return compute(optim, jnp, logsumexp, core.grad)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_matches_optax(ours, name):
    if isinstance(EXPECTED[name], str):  # a dtype
        assert ours[name] == EXPECTED[name]
        return
    np.testing.assert_allclose(
        np.asarray(ours[name], np.float64), np.asarray(EXPECTED[name]), rtol=1e-5, atol=1e-6
    )


def test_nnls_solves_the_kkt_conditions():
    x = np.asarray(optim.nnls(jnp.asarray(A), jnp.asarray(B_VEC), 2000), np.float64)
    g = A.T.astype(np.float64) @ (A @ x - B_VEC)
    assert (x >= 0).all()
    np.testing.assert_allclose(g[x > 1e-6], 0, atol=1e-4)  # free coordinates: zero gradient
    assert (g[x <= 1e-6] >= -1e-4).all()  # clamped ones: the gradient pushes outwards


def test_fenchel_young_of_logsumexp_is_softmax_cross_entropy():
    fy = optim.losses.make_fenchel_young_loss(logsumexp)
    labels = np.eye(5, dtype=np.float32)[[0, 3, 4, 1]]
    np.testing.assert_allclose(
        fy(jnp.asarray(SCORES), jnp.asarray(labels)),
        optim.losses.softmax_cross_entropy(jnp.asarray(SCORES), jnp.asarray(labels)),
        rtol=1e-6,
    )


def test_sparsemax_loss_is_zero_at_a_confident_label():
    scores = jnp.asarray([[5.0, 0.0, 0.0], [0.0, 0.0, 5.0]])
    np.testing.assert_allclose(
        optim.losses.multiclass_sparsemax_loss(scores, jnp.asarray([0, 2])), [0.0, 0.0]
    )


def test_base_hungarian_is_optimal():
    for c in COSTS:
        i, j = optim.assignment.base_hungarian_algorithm(jnp.asarray(c))
        k, m = optim.assignment.hungarian_algorithm(jnp.asarray(c))
        np.testing.assert_allclose(c[np.asarray(i), np.asarray(j)].sum(), c[k, m].sum(), rtol=1e-6)


def test_errors():
    with pytest.raises(LossInputError, match="floating"):
        optim.losses.ranking_softmax_loss(jnp.ones((2, 3), jnp.int32), jnp.ones((2, 3)))
    with pytest.raises(NnlsShapeError, match=r"\(M, N\)"):
        optim.nnls(jnp.ones(3), jnp.ones(3), 5)
