"""`optim.assignment.hungarian_algorithm`: Optax's outputs (recorded from Optax 0.2.8) and the
optimal cost (against SciPy's `linear_sum_assignment`)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import linear_sum_assignment

import core
import core.numpy as jnp
from optim.assignment import hungarian_algorithm

C_SQUARE = np.array([[4.0, 1.0, 3.0], [2.0, 0.0, 5.0], [3.0, 2.0, 2.0]], np.float32)
C_WIDE = np.array([[7.0, 3.0, 1.0, 8.0], [2.0, 9.0, 4.0, 4.0], [6.0, 5.0, 3.0, 1.0]], np.float32)

CASES = [
    ("square", C_SQUARE, [1, 0, 2], [0, 1, 2]),
    ("wide", C_WIDE, [2, 1, 0], [3, 0, 2]),
    ("tall", C_WIDE.T, [3, 0, 2], [2, 1, 0]),
]


@pytest.mark.parametrize("name, cost, rows, cols", CASES, ids=[c[0] for c in CASES])
def test_matches_optax(name, cost, rows, cols):
    i, j = hungarian_algorithm(jnp.asarray(cost))
    assert np.asarray(i).tolist() == rows and np.asarray(j).tolist() == cols


@pytest.mark.parametrize("shape", [(5, 5), (4, 6), (6, 3)])
def test_optimal_cost(shape):
    cost = np.random.RandomState(sum(shape)).rand(*shape).astype(np.float32)
    i, j = hungarian_algorithm(jnp.asarray(cost))
    r, c = linear_sum_assignment(cost)
    assert len(set(np.asarray(i).tolist())) == len(r) == len(set(np.asarray(j).tolist()))
    assert cost[np.asarray(i), np.asarray(j)].sum() == pytest.approx(cost[r, c].sum(), rel=1e-6)


def test_empty_and_jit():
    i, j = hungarian_algorithm(jnp.zeros((0, 3)))
    assert i.shape == j.shape == (0,)
    i, j = core.jit(hungarian_algorithm)(jnp.asarray(C_SQUARE))
    assert np.asarray(i).tolist() == [1, 0, 2] and np.asarray(j).tolist() == [0, 1, 2]
