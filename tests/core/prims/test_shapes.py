"""Shape checks of the shape primitives (broadcast_in_dim, transpose) and of dot_general:
JAX 0.10.2's exception classes and first lines (jax/_src/lax/lax.py's shape rules, in their
order), found by the differential run (lax_ops, jnp_arrays); numbax's fix follows on later
lines."""

from __future__ import annotations

import numpy as np
import pytest

import core.numpy as jnp
from core import lax

ONES = np.ones((2, 3, 4), np.float32)

CASES = [
    (
        lambda: lax.broadcast_in_dim(jnp.arange(3), (3, 2), (1,)),
        "broadcast_in_dim operand dimension sizes must either be 1, or be equal to their "
        "corresponding dimensions in the target broadcast shape; got operand of shape (3,), "
        "target broadcast shape (3, 2), broadcast_dimensions (1,)",
    ),
    (
        lambda: lax.broadcast_in_dim(jnp.arange(3), (2, 3, 4), (1, 1)),
        "broadcast_in_dim broadcast_dimensions must have length equal to operand ndim; got "
        "broadcast_dimensions (1, 1) for operand ndim 1.",
    ),
    (
        lambda: lax.broadcast_in_dim(jnp.arange(3), (3,), (2,)),
        "broadcast_in_dim broadcast_dimensions must be a subset of output dimensions, got (2,) "
        "for operand ndim 1 and shape (3,).",
    ),
    (
        lambda: jnp.zeros((2, -1)),
        "broadcast_in_dim shape must have every element be nonnegative, got (2, -1).",
    ),
    (
        lambda: jnp.repeat(np.ones((3, 4)), -1, axis=0),
        "broadcast_in_dim shape must have every element be nonnegative, got (3, -1, 4).",
    ),
    (
        lambda: jnp.zeros(2.5),
        "Shapes must be 1D sequences of concrete values of integer type, got (2.5,).",
    ),
    (
        lambda: lax.transpose(ONES, (2, 0, 0)),
        "transpose permutation isn't a permutation of operand dimensions, got permutation "
        "(2, 0, 0) for operand shape (2, 3, 4).",
    ),
    (
        lambda: jnp.transpose(ONES, (0, 1)),
        "transpose permutation isn't a permutation of operand dimensions, got permutation "
        "(0, 1) for operand shape (2, 3, 4).",
    ),
    (
        lambda: lax.dot_general(ONES, np.ones((2, 3, 5), np.float32), (((2,), (1,)), ((0,), (0,)))),
        "dot_general requires contracting dimensions to have the same shape, got (4,) and (3,).",
    ),
    (
        lambda: lax.dot_general(ONES, np.ones((3, 4, 5), np.float32), (((2,), (1,)), ((0,), (0,)))),
        "dot_general requires lhs batch dimensions and rhs batch dimensions to have the same "
        "shape, got (2,) and (3,).",
    ),
]


@pytest.mark.parametrize("call, first_line", CASES)
def test_shape_errors_start_with_jaxs_line(call, first_line):
    with pytest.raises(TypeError) as info:
        call()
    assert str(info.value).split("\n")[0] == first_line


def test_valid_shapes_still_compute():
    np.testing.assert_array_equal(
        lax.broadcast_in_dim(jnp.arange(3), (2, 3), (1,)), np.broadcast_to(np.arange(3), (2, 3))
    )
    np.testing.assert_array_equal(lax.transpose(ONES, (2, 0, 1)), ONES.transpose(2, 0, 1))
