"""core.scipy.cluster.vq.vq against `jax.scipy.cluster.vq.vq` 0.10.2's results (recorded once
with `/opt/ref/bin/python`): 2-D and 1-D observations, integer inputs, jit, errors."""

import numpy as np
import pytest

import core
from core.scipy.cluster.vq import vq
from core.scipy.errors import ShapeMismatchError

O = np.float32([[1.0, 2.0, 0.5], [-1.0, 0.3, 2.0], [0.0, 0.0, 0.0], [3.0, -2.0, 1.0]])
C = np.float32([[0.9, 2.1, 0.4], [0.0, 0.1, -0.1], [2.5, -1.5, 1.5]])
CASES = [
    (
        O,
        C,
        [0, 1, 1, 2],
        [0.17320503294467926, 2.3345234394073486, 0.1414213627576828, 0.8660253882408142],
    ),
    (np.float32([0.2, 3.1, -1.0]), np.float32([0.0, 3.0]), [0, 1, 0], [0.2, 0.0999999046, 1.0]),
    (np.int32([[1, 2], [5, 5]]), np.int32([[0, 0], [4, 4]]), [0, 1], [2.2360680103, 1.4142135381]),
]


@pytest.mark.parametrize("obs,code_book,want_code,want_dist", CASES)
def test_matches_jax(obs, code_book, want_code, want_dist):
    code, dist = vq(obs, code_book)
    assert code.dtype == np.int32 and dist.dtype == np.float32
    np.testing.assert_array_equal(code, want_code)
    np.testing.assert_allclose(dist, want_dist, rtol=1e-6)


def test_jit_and_errors():
    code, dist = core.jit(vq)(O, C)
    np.testing.assert_array_equal(code, CASES[0][2])
    with pytest.raises(ShapeMismatchError, match="same rank"):
        vq(O, C[0])
    with pytest.raises(ShapeMismatchError, match="ndim different"):
        vq(O[None], C[None])
