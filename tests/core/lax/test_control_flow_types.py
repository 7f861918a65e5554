"""`fori_loop`'s index type as JAX 0.10.2 gives it (default 32-bit mode), and the type errors it
raises for bounds of different types (weak loop carries: test_weak_carry.py)."""

import pytest

import core
import core.numpy as jnp
from core import lax

# (lower, upper) -> the loop index's (dtype, weak) under JAX 0.10.2. Concrete bounds become
# Python ints (a weakly typed int32 index, whatever the bounds' dtypes); traced bounds keep the
# bounds' dtype, a weak bound taking the strong one's.
FORI_INDEX_EAGER = [
    ((0, 3), ("int32", True)),
    ((jnp.int32(0), 3), ("int32", True)),
    ((0, jnp.int32(3)), ("int32", True)),
    ((jnp.int8(0), jnp.int8(3)), ("int32", True)),
]
FORI_INDEX_TRACED = [  # (lower, traced upper)
    (0, 3, ("int32", True)),
    (0, jnp.int32(3), ("int32", True)),
    (jnp.int32(0), jnp.int32(3), ("int32", False)),
    (0, jnp.int8(3), ("int8", False)),
    (jnp.int8(0), jnp.int8(3), ("int8", False)),
]


@pytest.mark.parametrize("bounds, expected", FORI_INDEX_EAGER)
def test_fori_loop_index_type_with_concrete_bounds(bounds, expected):
    out = lax.fori_loop(*bounds, lambda i, x: i, 0)
    assert (out.dtype.name, out.weak_type) == expected
    assert int(out) == 2


@pytest.mark.parametrize("lower, upper, expected", FORI_INDEX_TRACED)
def test_fori_loop_index_type_with_traced_bounds(lower, upper, expected):
    closed = core.make_jaxpr(lambda n: lax.fori_loop(lower, n, lambda i, x: i, 0))(upper)
    (aval,) = closed.out_avals
    assert (aval.dtype.name, aval.weak_type) == expected


@pytest.mark.parametrize("bounds", [(jnp.int16(0), jnp.int8(3)), (0, jnp.uint8(3)), (0, 3.0)])
def test_fori_loop_bounds_of_different_types_raise(bounds):
    with pytest.raises(TypeError, match="fori_loop"):
        lax.fori_loop(*bounds, lambda i, x: x, 0)
