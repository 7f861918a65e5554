"""dynamic_slice and dynamic_update_slice check their operands with JAX 0.10.2's messages
(recorded from JAX)."""

import pytest

import core.numpy as jnp
from core import lax

A = jnp.arange(10).reshape(2, 5)


@pytest.mark.parametrize(
    "call, message",
    [
        (
            lambda: lax.dynamic_slice(A, (0, 0), (3, 2)),
            "slice slice_sizes must be less than or equal to operand shape, got slice_sizes "
            "(3, 2) for operand shape (2, 5).",
        ),
        (
            lambda: lax.dynamic_slice(A, (0, 0), (1, -1)),
            "slice slice_sizes must be greater than or equal to zero, got slice_sizes of (1, -1).",
        ),
        (
            lambda: lax.dynamic_slice(A, (0,), (1, 2)),
            "Length of slice indices must match number of operand dimensions (1 vs (2, 5))",
        ),
        (
            lambda: lax.dynamic_slice(A, (0, 1.0), (1, 2)),
            "index arguments to dynamic_slice must be integers of the same type, got: int32, "
            "float32",
        ),
        (
            lambda: lax.dynamic_update_slice(A, jnp.array([[7.5]]), (0, 0)),
            "lax.dynamic_update_slice requires arguments to have the same dtypes, got int32, "
            "float32.",
        ),
        (
            lambda: lax.dynamic_update_slice(A, jnp.array([7]), (0, 0)),
            "dynamic_update_slice update must have the same rank as operand, got update shape "
            "(1,) for operand shape (2, 5).",
        ),
        (
            lambda: lax.dynamic_update_slice(A, jnp.ones((3, 1), jnp.int32), (0, 0)),
            "dynamic_update_slice update shape must be smaller than operand shape, got update "
            "shape (3, 1) for operand shape (2, 5).",
        ),
        (
            lambda: lax.dynamic_update_slice(A, jnp.ones((1, 1), jnp.int32), (0,)),
            "Length of slice indices must match number of operand dimensions (1 vs (2, 5))",
        ),
    ],
)
def test_dynamic_slice_errors(call, message):
    with pytest.raises((TypeError, ValueError)) as e:
        call()
    assert str(e.value).split("\n")[0] == message
