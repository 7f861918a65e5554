"""JAX 0.10.2's reshape rule over Explicit mesh axes (`core/sharding_reshape.py`): singleton
axes, splits and merges, the ambiguous reshapes' `ShardingTypeError`, `out_sharding`, eagerly
and under `jit` (types recorded on JAX with eight CPU devices)."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.errors import ReshapeShardingError
from core.sharding import AxisType, reshard
from core.sharding import PartitionSpec as P
from core.sharding_reshape import reshape_spec

A = np.arange(64.0, dtype=np.float32).reshape(8, 8)


@pytest.fixture(autouse=True)
def mesh():
    mesh = core.make_mesh((2, 4), ("X", "Y"), axis_types=(AxisType.Explicit,) * 2)
    with core.set_mesh(mesh):
        yield mesh


@pytest.mark.parametrize(
    "value, spec, shape, want",
    [
        (A, P("X", "Y"), (64,), "float32[64@(X,Y)]"),
        (A, P("X", None), (64,), "float32[64@X]"),
        (A, P(None, "X"), (2, 4, 8), "float32[2,4,8@X]"),
        (A, P("X", None), (8, 2, 4), "float32[8@X,2,4]"),
        (np.arange(8.0), P("Y"), (4, 2), "float32[4@Y,2]"),
        (np.ones((8, 1, 4)), P("X", None, "Y"), (8, 4, 1), "float32[8@X,4@Y,1]"),
    ],
)
def test_reshape_types(value, spec, shape, want):
    out = reshard(value.astype(np.float32), spec).reshape(shape)
    assert str(core.typeof(out)) == want
    np.testing.assert_array_equal(out, value.reshape(shape))


@pytest.mark.parametrize(
    "value, spec, shape, operand",
    [
        (A, P("X", "Y"), (4, 16), "float32[8@X,8@Y]"),
        (A, P(None, "X"), (64,), "float32[8,8@X]"),
        (np.arange(8.0), P("Y"), (2, 4), "float32[8@Y]"),
        (np.arange(16.0), P(("X", "Y")), (4, 4), "float32[16@(X,Y)]"),
    ],
)
def test_ambiguous_reshapes(value, spec, shape, operand):
    x = reshard(value.astype(np.float32), spec)
    with pytest.raises(ReshapeShardingError) as info:
        x.reshape(shape)
    assert str(info.value) == (
        "This reshape is not supported. Please specify the sharding of the output via the "
        f"`out_sharding` argument of jax.lax.reshape. Got operand type: {operand}, new sizes: "
        f"{shape}"
    )


def test_out_sharding_and_jit():
    x = reshard(A, P("X", "Y"))
    with pytest.raises(ReshapeShardingError):
        core.jit(lambda v: v.reshape(4, 16))(x)
    out = core.jit(lambda v: jnp.reshape(v, (4, 16), out_sharding=P("X", None)))(x)
    assert str(core.typeof(out)) == "float32[4@X,16]"
    np.testing.assert_array_equal(out, A.reshape(4, 16))


def test_creation_out_sharding():
    assert str(core.typeof(jnp.zeros((8, 8), out_sharding=P("X", None)))) == "float32[8@X,8]"
    assert str(core.typeof(jnp.ones((8,), out_sharding=P("Y")))) == "float32[8@Y]"
    assert str(core.typeof(jnp.full((8, 8), 2.0, out_sharding=P(None, "X")))) == ("~float32[8,8@X]")


def test_reshape_spec_alone():
    sizes = {"X": 2, "Y": 4}
    assert reshape_spec((("X",), ("Y",)), (8, 8), (64,), sizes) == (("X", "Y"),)
    assert reshape_spec((None, None), (8, 8), (4, 16), sizes) == (None, None)
    assert reshape_spec((("X",), ("Y",)), (8, 8), (4, 16), sizes) is None
