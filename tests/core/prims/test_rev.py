"""lax.rev's dimensions as JAX 0.10.2 checks them (messages recorded from JAX)."""

import numpy as np
import pytest

import core.numpy as jnp
from core import lax

X = jnp.arange(6).reshape(2, 3)


@pytest.mark.parametrize(
    "dims, message",
    [
        ((-1,), "rev dimensions must have every element be nonnegative, got (-1,)."),
        ((0, 0), "rev dimensions must be unique, got (0, 0)."),
        (
            (2,),
            "rev dimensions must all be less than operand ndim, got dimensions (2,) for operand "
            "ndim 2.",
        ),
    ],
)
def test_rev_dimension_errors(dims, message):
    with pytest.raises(TypeError) as e:
        lax.rev(X, dims)
    assert str(e.value) == message


def test_rev_takes_dimensions_in_any_order():
    np.testing.assert_array_equal(lax.rev(X, (1, 0)), [[5, 4, 3], [2, 1, 0]])
