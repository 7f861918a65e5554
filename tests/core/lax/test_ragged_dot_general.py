"""`lax.ragged_dot_general` and `RaggedDotDimensionNumbers` give JAX 0.10.2's values in the
three ragged modes, with batch dimensions, under `grad` and `jit`
(`jax_ragged_dot_general.npz`, recorded by `record_ragged_dot_general.py`), and JAX's errors."""

from __future__ import annotations

import pathlib
import re

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
    with pytest.raises(TypeError, match="got 5 for lhs of rank 2"):
        lax.ragged_dot_general(x, w, gs, bad)


# JAX 0.10.2's shape-rule TypeErrors, in its order (found by JAX's lax_test). Each row: lhs,
# rhs and group_sizes shapes, dot dimension numbers, lhs ragged dims, rhs group dims, message.
_NT = (((1,), (1,)), ((), ()))
_MM = (((1,), (0,)), ((), ()))


@pytest.mark.parametrize(
    "ls, rs, gs, dn, ragged, group, message",
    [
        ((6, 4), (2, 4, 3), (2,), _NT, (0, 1), (0,), "expects exactly one lhs ragged dimension."),
        ((6, 4), (2, 4, 3), (2,), _NT, (3,), (0,), "got 3 for lhs of rank 2."),
        ((6, 4), (2, 4, 3), (), _NT, (0,), (0,), "expected rank of group_sizes to be >=1."),
        ((6, 4), (2, 4, 3), (3, 2), _NT, (0,), (0,), "to have shape (2,), got (3, 2)."),
        ((6, 4), (4, 3), (2,), _MM, (1,), (0,), "requires zero group dimensions in the rhs"),
        ((6, 4), (4, 3), (2,), _MM, (0,), (), "requires exactly one rhs group dimension"),
        ((6, 4), (2, 4, 3), (2,), _NT, (0,), (5,), "got 5 for rhs of rank 3."),
        ((6, 4), (2, 4, 3), (2,), _NT, (0,), (1,), "distinct from contracting and batch"),
        ((6, 4), (2, 4, 3), (3,), _NT, (0,), (0,), "group dimension size to be 3, got 2."),
    ],
)
def test_shape_errors_as_jax(ls, rs, gs, dn, ragged, group, message):
    rdn = lax.RaggedDotDimensionNumbers(dn, ragged, group)
    args = np.ones(ls, np.float32), np.ones(rs, np.float32), np.ones(gs, np.int32)
    with pytest.raises(TypeError, match=re.escape(message)):
        lax.ragged_dot_general(*args, rdn)
