"""jnp.repeat with traced repeats (a running count and `searchsorted`): values as JAX gives
them (recorded), padded or truncated to `total_repeat_length`."""

import numpy as np
import pytest

import core
import core.numpy as jnp


@pytest.mark.parametrize("length, want", [(7, [0, 2, 2, 2, 2, 2, 2]), (3, [0, 2, 2])])
def test_repeat_traced_repeats(length, want):
    fn = core.jit(
        lambda r: jnp.repeat(jnp.arange(3), r, total_repeat_length=length), backend="python"
    )
    np.testing.assert_array_equal(fn(jnp.array([1, 0, 3])), want)


def test_repeat_traced_repeats_needs_a_length():
    with pytest.raises(core.errors.ConcretizationTypeError, match="total_repeat_length"):
        core.jit(lambda r: jnp.repeat(jnp.arange(3), r), backend="python")(jnp.array([1, 0, 3]))
