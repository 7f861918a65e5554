"""`jnp.where`'s broadcasting errors name the shapes JAX names: all three when the condition
has a shape, x's and y's when it is a scalar."""

import pytest

import core.numpy as jnp

# JAX 0.10.2's first lines (ValueError)
CASES = [
    ((2, 3), (3, 3), (2, 3), "shapes=[(2, 3), (3, 3), (2, 3)]"),
    ((2, 3), (2, 3), (3, 3), "shapes=[(2, 3), (2, 3), (3, 3)]"),
    ((), (3, 3), (2, 3), "shapes=[(3, 3), (2, 3)]"),
    ((4,), (2, 1), (3, 1), "shapes=[(4,), (2, 1), (3, 1)]"),
]


@pytest.mark.parametrize("cond,x,y,names", CASES)
def test_mismatch_names_jaxs_shapes(cond, x, y, names):
    with pytest.raises(ValueError) as info:
        jnp.where(jnp.ones(cond) > 0, jnp.ones(x), jnp.ones(y))
    assert str(info.value).split("\n")[0] == f"Incompatible shapes for broadcasting: {names}"
