"""`lax.ragged_dot_general` and `RaggedDotDimensionNumbers` give JAX 0.10.2's values in the
three ragged modes, with batch dimensions, under `grad` and `jit`
(`jax_ragged_dot_general.npz`, recorded by `record_ragged_dot_general.py`), and JAX's errors."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

import core
from core import lax
from tests.core.lax.ragged_dot_general_cases import run

ANSWERS = np.load(pathlib.Path(__file__).parent / "jax_ragged_dot_general.npz")


@pytest.fixture(scope="module")
def got():
    return run(core, lax)


@pytest.mark.parametrize("case", sorted(ANSWERS.files))
def test_values_are_jaxs(got, case):
    assert got[case].shape == ANSWERS[case].shape
    np.testing.assert_allclose(got[case], ANSWERS[case], rtol=1e-5, atol=1e-5)


def test_dimension_numbers_and_errors():
    dn = lax.RaggedDotDimensionNumbers([[[1], [1]], [[], []]], [0], [0])
    assert repr(dn) == (
        "RaggedDotDimensionNumbers(dot_dimension_numbers=(((1,), (1,)), ((), ())), "
        "lhs_ragged_dimensions=(0,), rhs_group_dimensions=(0,))"
    )
    x, w, gs = np.ones((4, 2), np.float32), np.ones((2, 2, 3), np.float32), np.array([2, 2])
    with pytest.raises(NotImplementedError, match="Unimplemented group_offset support"):
        lax.ragged_dot_general(x, w, gs, dn, group_offset=np.array([0]))
    bad = lax.RaggedDotDimensionNumbers((([1], [1]), ([], [])), [5], [0])
    with pytest.raises(TypeError, match="lhs_ragged_dim 5 not found"):
        lax.ragged_dot_general(x, w, gs, bad)
