"""Avals against JAX 0.10.2: `ShapeDtypeStruct.like` (external-callbacks.md's
`pure_callback` result shapes) and `ShapedArray.str_short`'s forms."""

import numpy as np
import pytest

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


def test_str_short_defaults_to_long_dtype_names():
    # JAX 0.10.2: str_short() spells the dtype out; short_dtypes=True abbreviates it
    cases = [
        (core.core.ShapedArray((2, 3), jnp.float32), {}, "float32[2,3]"),
        (core.core.ShapedArray((2, 3), jnp.float32), {"short_dtypes": True}, "f32[2,3]"),
        (core.core.ShapedArray((), jnp.bfloat16), {}, "bfloat16[]"),
        (core.core.ShapedArray((4,), jnp.int8), {"short_dtypes": True}, "i8[4]"),
        (core.typeof(core.random.key(0)), {}, "key<fry>[]"),
    ]
    for aval, kwargs, text in cases:
        assert aval.str_short(**kwargs) == text


def test_shape_dtype_struct_len_update_and_missing_dtype():
    s = core.ShapeDtypeStruct((4, 3), jnp.float32, weak_type=True)
    assert len(s) == 4  # JAX 0.10.2
    assert repr(s.update(shape=(1,))) == (
        "ShapeDtypeStruct(shape=(1,), dtype=float32, weak_type=True)"
    )
    assert repr(s.update(dtype=jnp.int8, weak_type=False)) == (
        "ShapeDtypeStruct(shape=(4, 3), dtype=int8)"
    )
    with pytest.raises(TypeError, match="len\\(\\) of unsized object"):
        len(core.ShapeDtypeStruct((), jnp.float32))
    with pytest.raises(ValueError, match="^ShapeDtypeStruct: dtype must be specified."):
        core.ShapeDtypeStruct((2,), None)
    assert repr(type(s)) == "<class 'core.ShapeDtypeStruct'>"
