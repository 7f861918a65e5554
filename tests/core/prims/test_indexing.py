"""lax.pad and lax.concatenate check their operands as JAX 0.10.2 (messages recorded from
JAX): pad's value must have the operand's dtype (a Python 0 is int32), then JAX's shape rules."""

import numpy as np
import pytest

import core.numpy as jnp
from core import lax

P = jnp.arange(1, 7).reshape(2, 3)


@pytest.mark.parametrize(
    "call, message",
    [
        (
            lambda: lax.pad(jnp.ones(2), 0, [(1, 1, 0)]),
            "pad operand and padding_value must be same dtype: got float32 and int32.",
        ),
        (
            lambda: lax.pad(P, 0.5, [(0, 0, 0), (1, 0, 0)]),
            "pad operand and padding_value must be same dtype: got int32 and float32.",
        ),
        (
            lambda: lax.pad(jnp.ones(2), jnp.ones(2), [(1, 1, 0)]),
            "padding_value must be a scalar; got np.shape(padding_value)=(2,)",
        ),
        (
            lambda: lax.pad(P, 0, [(0, 0, 0)]),
            "length of padding_config must equal the number of axes of operand, got "
            "padding_config ((0, 0, 0),) for operand shape (2, 3)",
        ),
        (
            lambda: lax.pad(P, 0, [(0, 0, -1), (0, 0, 0)]),
            "interior padding in padding_config must be nonnegative, got padding_config "
            "((0, 0, -1), (0, 0, 0))",
        ),
        (
            lambda: lax.pad(P, 0, [(-3, 0, 0), (0, 0, 0)]),
            "Dimension size after padding is not at least 0, got result shape (-1, 3), for "
            "padding_config ((-3, 0, 0), (0, 0, 0)) and operand shape (2, 3)",
        ),
        (
            lambda: lax.concatenate([jnp.ones(2), jnp.zeros(3, jnp.int32)], 0),
            "lax.concatenate requires arguments to have the same dtypes, got float32, int32. "
            "(Tip: jnp.concatenate is a similar function that does automatic type promotion on "
            "inputs).",
        ),
        (
            lambda: lax.concatenate([jnp.ones((2, 1)), jnp.zeros((3, 2))], 0),
            "Cannot concatenate arrays with shapes that differ in dimensions other than the one "
            "being concatenated: concatenating along dimension 0 for shapes (2, 1), (3, 2).",
        ),
        (
            lambda: lax.concatenate([jnp.ones((2, 1)), jnp.zeros(3)], 0),
            "Cannot concatenate arrays with different numbers of dimensions: got (2, 1), (3,).",
        ),
    ],
)
def test_pad_and_concatenate_errors(call, message):
    with pytest.raises((TypeError, ValueError)) as e:
        call()
    assert str(e.value).split("\n")[0] == message


def test_pad_with_negative_and_interior_padding():
    got = lax.pad(P, -1, [(-1, 0, 0), (-1, -1, 1)])
    np.testing.assert_array_equal(got, [[-1, 5, -1]])  # JAX 0.10.2's answer
