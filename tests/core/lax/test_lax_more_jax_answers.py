"""`core.lax` answers recorded with JAX 0.10.2 where a differential run (tools/jax_differential
lax_more) found numbax's different: the errors' classes and first lines (integer_pow of integers
to negative powers, polygamma's operand dtypes, bitwise ops naming their primitive, bool
bitcasts, reduce_precision's bit counts, slicing, concatenation, reductions over axes out of
range, collectives over unbound names, reverse-mode through while_loop), and the values of
optimization_barrier and stop_gradient on Python scalars, psum over no axes and cond's weak
types (the first branch's)."""

from __future__ import annotations

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax

I4 = jnp.arange(4)

ERRORS = [
    (
        lambda: lax.integer_pow(I4, -1),
        TypeError,
        "Integers cannot be raised to negative powers, got integer_pow(int32[4], -1)",
    ),
    (
        lambda: lax.integer_pow(jnp.arange(4, dtype=jnp.uint8), -2),
        TypeError,
        "Integers cannot be raised to negative powers, got integer_pow(uint8[4], -2)",
    ),
    (
        lambda: lax.integer_pow(3, -1),
        TypeError,
        "Integers cannot be raised to negative powers, got integer_pow(~int32[], -1)",
    ),
    (
        lambda: lax.integer_pow(jnp.array([True, False]), 2),
        TypeError,
        "integer_pow does not accept dtype bool. Accepted dtypes are subtypes of integer, "
        "floating, complexfloating.",
    ),
    (
        lambda: lax.polygamma(1, 2.5),
        TypeError,
        "polygamma does not accept dtype int32 at position 0. Accepted dtypes at position 0 are "
        "subtypes of floating.",
    ),
    (
        lambda: lax.polygamma(1.0, 2),
        TypeError,
        "polygamma does not accept dtype int32 at position 1. Accepted dtypes at position 1 are "
        "subtypes of floating.",
    ),
    (
        lambda: lax.polygamma(jnp.float32(1), jnp.float16(2.5)),
        TypeError,
        "lax.polygamma requires arguments to have the same dtypes, got float32, float16.",
    ),
    (
        lambda: lax.bitwise_or(jnp.array([1.0]), jnp.array([2.0])),
        TypeError,
        "or does not accept dtype float32 at position 0. Accepted dtypes at position 0 are "
        "subtypes of integer, bool.",
    ),
    (
        lambda: lax.bitwise_or(jnp.array([1], jnp.int8), jnp.array([1.0])),
        TypeError,
        "or does not accept dtype float32 at position 1. Accepted dtypes at position 1 are "
        "subtypes of integer, bool.",
    ),
    (
        lambda: lax.bitcast_convert_type(jnp.array([True, False]), jnp.uint8),
        TypeError,
        "lax.bitcast_convert_type does not support bool or complex values unless the operand "
        "and destination types match. Got operand dtype=bool, new_dtype=dtype('uint8'). "
        "Consider using the arr.view() method instead.",
    ),
    (
        lambda: lax.reduce_precision(jnp.array([1.5]), exponent_bits=0, mantissa_bits=3),
        ValueError,
        "reduce_precision: exponent_bits must be positive; got 0",
    ),
    (
        lambda: lax.reduce_precision(jnp.array([1.5]), exponent_bits=5, mantissa_bits=-1),
        ValueError,
        "reduce_precision: mantissa_bits must be non-negative; got -1",
    ),
    (
        lambda: lax.map(lambda x: x, I4, batch_size=2.0),
        TypeError,
        "'float' object cannot be interpreted as an integer",
    ),
    (
        lambda: lax.dynamic_slice(jnp.arange(10), (jnp.array([9]),), (1,)),
        TypeError,
        "start_indices arguments to dynamic_slice must be scalars,  got indices "
        "(ShapedArray(int32[1]),)",
    ),
    (
        lambda: lax.dynamic_update_slice(I4, jnp.ones(1, jnp.int32), (jnp.array([1]),)),
        TypeError,
        "start_indices arguments to dynamic_update_slice must be scalars, got indices "
        "(ShapedArray(int32[1]),)",
    ),
    (
        lambda: lax.slice(jnp.arange(10), (5,), (2,)),
        TypeError,
        "slice slice_sizes must be greater than or equal to zero, got slice_sizes of (-3,).",
    ),
    (
        lambda: lax.index_in_dim(jnp.ones((3, 4)), 5, axis=1),
        IndexError,
        "index 5 is out of bounds for axis 1 with size 4",
    ),
    (
        lambda: lax.expand_dims(jnp.arange(3), (3,)),
        ValueError,
        "axis 3 is out of bounds for array of dimension 2",
    ),
    (
        lambda: lax.squeeze(jnp.ones((1, 3, 1)), (3,)),
        ValueError,
        "axis 3 is out of bounds for array of dimension 3",
    ),
    (
        lambda: lax.concatenate([jnp.ones((2, 2)), jnp.ones((2, 3))], 2),
        TypeError,
        "concatenate dimension out of bounds: dimension 2 for shapes (2, 2), (2, 3).",
    ),
    (
        lambda: lax.concatenate([], 0),
        ValueError,
        "concatenate requires a non-empty sequences of arrays",
    ),
    (
        lambda: lax.reduce(jnp.ones((2, 3)), 0.0, lax.add, (2,)),
        ValueError,
        "reduction axes (2,) contains out-of-bounds indices for float32[2,3].",
    ),
    (
        lambda: lax.reduce(jnp.ones((2, 3)), 0.0, lax.add, (-1,)),
        ValueError,
        "reduction axes (-1,) contains out-of-bounds indices for float32[2,3].",
    ),
    (lambda: lax.psum(1, "i"), NameError, "unbound axis name: i"),
    (
        lambda: lax.axis_index("i"),
        NameError,
        "Found an unbound axis name: i. To fix this, please call axis_index under `jax.shard_map`.",
    ),
    (
        lambda: lax.pmax(1.0, "i"),
        NameError,
        "Found an unbound axis name: i. To fix this, please call psum under `jax.shard_map`.",
    ),
    (
        lambda: core.vmap(lambda x: lax.pmean(x, "j"), axis_name="i")(jnp.ones(2)),
        NameError,
        "Found an unbound axis name: j. To fix this, please call psum under `jax.shard_map`.",
    ),
    (
        lambda: core.vmap(lambda x: lax.all_gather(x, "j"), axis_name="i")(jnp.ones(2)),
        NameError,
        "unbound axis name: j",
    ),
    (
        lambda: core.grad(lambda x: lax.while_loop(lambda c: c < 10.0, lambda c: c * 2.0, x))(1.5),
        ValueError,
        "Reverse-mode differentiation does not work for lax.while_loop or lax.fori_loop with "
        "dynamic start/stop values. Try using lax.scan, or using fori_loop with static "
        "start/stop.",
    ),
]


@pytest.mark.parametrize("fn, cls, first_line", ERRORS)
def test_errors_have_jaxs_class_and_first_line(fn, cls, first_line):
    with pytest.raises(cls) as info:
        fn()
    assert str(info.value).splitlines()[0] == first_line


def _kind(x):
    """(type name, dtype, weak type) of a value, the way the differential compares them."""
    if isinstance(x, core.Array):
        return ("Array", str(x.dtype), x.aval.weak_type)
    return (type(x).__name__, None, None)


VALUES = [
    # optimization_barrier gives arrays, Python scalars weakly typed
    (lambda: lax.optimization_barrier((1, jnp.float32(2)))[0], ("Array", "int32", True)),
    (lambda: lax.optimization_barrier(1.5), ("Array", "float32", True)),
    (lambda: lax.optimization_barrier([True])[0], ("Array", "bool", False)),
    (lambda: lax.optimization_barrier(np.arange(3)), ("Array", "int32", False)),
    # stop_gradient hands Python scalars back as they are, outside transformations
    (lambda: lax.stop_gradient(3), ("int", None, None)),
    (lambda: lax.stop_gradient({"a": 1.0})["a"], ("float", None, None)),
    (lambda: lax.stop_gradient(jnp.float32(2)), ("Array", "float32", False)),
    (lambda: core.jit(lambda: lax.stop_gradient(1.0))(), ("Array", "float32", True)),
    # cond's outputs have its first branch's (the false one's) weak types
    (lambda: lax.cond(True, lambda: jnp.float32(1), lambda: 2.0), ("Array", "float32", True)),
    (lambda: lax.cond(False, lambda: jnp.float32(1), lambda: 2.0), ("Array", "float32", True)),
    (lambda: lax.cond(True, lambda: 2.0, lambda: jnp.float32(1)), ("Array", "float32", False)),
    (lambda: lax.switch(1, [lambda: 2.0, lambda: jnp.float32(1)]), ("Array", "float32", True)),
    (
        lambda: core.jit(lambda p: lax.cond(p, lambda: jnp.float32(1), lambda: 2.0))(True),
        ("Array", "float32", True),
    ),
]


@pytest.mark.parametrize("fn, kind", VALUES)
def test_values_have_jaxs_types(fn, kind):
    assert _kind(fn()) == kind


def test_cond_jaxpr_keeps_branches_unconverted():
    text = str(core.make_jaxpr(lambda p: lax.cond(p, lambda: jnp.float32(1), lambda: 2.0))(True))
    assert "convert_element_type[new_dtype=float32" not in text  # as JAX's: no conversions


def test_psum_over_no_axes_is_the_identity():
    x = jnp.arange(3.0)
    assert core.vmap(lambda v: lax.psum(v, ()), axis_name="i")(x).tolist() == [0.0, 1.0, 2.0]
