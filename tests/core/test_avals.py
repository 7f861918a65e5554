"""`ShapeDtypeStruct` against JAX 0.10.2: `ShapeDtypeStruct.like` (external-callbacks.md's
`pure_callback` result shapes)."""

import numpy as np

import core
import core.numpy as jnp


def test_like_takes_shape_dtype_weak_type_and_a_committed_sharding():
    like = core.ShapeDtypeStruct.like
    # JAX's reprs
    assert repr(like(jnp.arange(5.0))) == "ShapeDtypeStruct(shape=(5,), dtype=float32)"
    assert repr(like(1.0)) == "ShapeDtypeStruct(shape=(), dtype=float32, weak_type=True)"
    assert repr(like(np.ones(3))) == "ShapeDtypeStruct(shape=(3,), dtype=float32)"
    struct = core.ShapeDtypeStruct((2,), jnp.int8)
    assert like(struct) == struct
    placed = core.device_put(jnp.ones(3), core.devices()[0])
    assert like(placed).sharding == placed.sharding
    seen = []
    core.jit(lambda x: seen.append(like(x)))(jnp.ones((2, 3), jnp.int32))
    assert seen == [core.ShapeDtypeStruct((2, 3), jnp.int32)]
