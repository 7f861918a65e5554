"""`fori_loop`'s index type as JAX 0.10.2 gives it (default 32-bit mode), and the type errors it
raises for bounds of different types (weak loop carries: test_weak_carry.py)."""

import numpy as np
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
    ((0.0, 3.0), ("int32", True)),  # float bounds of one type: int(lower) .. int(upper)
    ((0.5, 3.0), ("int32", True)),
    ((jnp.float32(0), jnp.float32(3)), ("int32", True)),
]
FORI_INDEX_TRACED = [  # (lower, traced upper)
    (0, 3, ("int32", True)),
    (0, jnp.int32(3), ("int32", True)),
    (jnp.int32(0), jnp.int32(3), ("int32", False)),
    (0, jnp.int8(3), ("int8", False)),
    (jnp.int8(0), jnp.int8(3), ("int8", False)),
    (0.0, 3.0, ("float32", True)),
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


_BR3 = [lambda x: x, lambda x: x * 2, lambda x: x * 3]
# (call, exception class, first line of JAX 0.10.2's message) from a differential run
# (tools/jax_differential): numbax raises JAX's class with JAX's first line.
FIRST_LINES = [
    (lambda: lax.scan(lambda c, x: (c, x), 0.0, jnp.arange(5.0), length=4), ValueError,
     "scan got `length` argument of 4 which disagrees with leading axis sizes [5]."),
    (lambda: lax.scan(lambda c, x: (c + 1, c), 0, None), ValueError,
     "scan got no values to scan over and `length` not provided."),
    (lambda: lax.scan(lambda c, x: (c, x), 0.0, (jnp.arange(3.0), jnp.arange(4.0))), ValueError,
     "scan got values with different leading axis sizes: 3, 4."),
    (lambda: lax.scan(lambda c, x: (c, x), 0.0, 3.0), ValueError,
     "scan got value with no leading axis to scan over: 3.0."),
    (lambda: lax.scan(lambda c, x: c + x, 0.0, jnp.arange(3.0)), TypeError,
     "scan body output must be a pair, got float32[]."),
    (lambda: lax.scan(lambda c, x: (c + x,), 0.0, jnp.arange(3.0)), TypeError,
     "scan body output must be a pair, got (ShapedArray(float32[]),)."),
    (lambda: lax.scan(lambda c, x: (c, x), 0.0, jnp.arange(5.0), unroll=-1), ValueError,
     "`unroll` must be a `bool` or a non-negative `int`."),
    (lambda: lax.scan(1, 0.0, jnp.arange(3.0)), TypeError,
     "lax.scan: f argument should be a callable."),
    (lambda: lax.map(lambda t: t, (jnp.arange(3.0), jnp.arange(4))), ValueError,
     "scan got values with different leading axis sizes: 3, 4."),
    (lambda: lax.while_loop(lambda c: jnp.array([True, False]), lambda c: c + 1, 0), TypeError,
     "cond_fun must return a boolean scalar, but got output type(s) [ShapedArray(bool[2])]."),
    (lambda: lax.while_loop(lambda c: c, lambda c: c - 1, 3), TypeError,
     "cond_fun must return a boolean scalar, but got output type(s) "
     "[ShapedArray(int32[], weak_type=True)]."),
    (lambda: lax.while_loop(lambda c: (c < 3, c), lambda c: c + 1, 0), TypeError,
     "cond_fun must return a boolean scalar, but got pytree PyTreeDef((*, *))."),
    (lambda: lax.fori_loop(jnp.int8(0), jnp.int16(4), lambda i, c: c + i, 0), TypeError,
     "lower and upper arguments to fori_loop must have equal types, got int8 and int16"),
    (lambda: core.jit(lambda n: lax.fori_loop(0, n, lambda i, c: c + i, 0, unroll=2))(6),
     ValueError,
     "Can only use `unroll` in `fori_loop` if the loop bounds are statically known."),
    (lambda: lax.cond(jnp.array([True, False]), lambda: 1, lambda: 2), TypeError,
     "Pred must be a scalar, got [ True False] of shape (2,)."),
    (lambda: lax.cond(1 + 2j, lambda: 1, lambda: 2), TypeError,
     "Pred type must be either boolean or number, got complex64."),
    (lambda: lax.cond("a", lambda: 1, lambda: 2), TypeError,
     "Pred must be a scalar, got a of type <class 'str'>"),
    (lambda: lax.cond((1.0, 1.0), lambda: 1, lambda: 2), TypeError,
     "Pred must be a scalar, got (1.0, 1.0) of type <class 'tuple'>"),
    (lambda: lax.cond(print, lambda: 1, lambda: 2), TypeError,
     "Pred type must be either boolean or number, got <built-in function print>."),
    (lambda: lax.switch(print, _BR3, 5), TypeError,
     "Index type must be an integer, got <built-in function print>."),
    (lambda: lax.switch("foo", _BR3, 5), TypeError, "Index type must be an integer, got foo."),
    (lambda: lax.switch((1.0, 1.0), _BR3, 5), TypeError,
     "Branch index must be scalar, got (1.0, 1.0) of shape (2,)."),
    (lambda: lax.cond(True, lambda: 1, lambda: 2.0), TypeError,
     "cond branches must have equal output types but they differ."),
    (lambda: lax.cond(True, lambda: jnp.ones(2), lambda: jnp.ones(3)), TypeError,
     "cond branches must have equal output types but they differ."),
    (lambda: lax.cond(True, lambda: (1.0, 2.0), lambda: [1.0, 2.0]), TypeError,
     "cond branch outputs must have the same pytree structure, but they differ:"),
    (lambda: lax.cond(True, 1, lambda: 2), TypeError,
     "lax.cond: true_fun and false_fun arguments should be callable."),
    (lambda: lax.switch(True, _BR3, 5), TypeError,
     "Index type must be an integer, got True as bool"),
    (lambda: lax.switch(1.0, _BR3, 5), TypeError,
     "Index type must be an integer, got 1.0 as float32"),
    (lambda: lax.switch(jnp.array([1, 2]), _BR3, 5), TypeError,
     "Branch index must be scalar, got [1 2] of shape (2,)."),
    (lambda: lax.switch(0, [], 5), ValueError, "Empty branch sequence"),
    (lambda: lax.switch(0, [lambda: 1, lambda: 2.0]), TypeError,
     "switch branches must have equal output types but they differ."),
    (lambda: lax.switch(0, [lambda: (1.0,), lambda: 1.0]), TypeError,
     "switch branch outputs must have the same pytree structure, but they differ:"),
    (lambda: lax.switch(1, [lambda: 1, 2]), TypeError,
     "lax.switch: branches argument should be a sequence of callables."),
    (lambda: lax.fori_loop(0, 1, 42, 0), TypeError,
     "lax.fori_loop: body_fun argument should be callable."),
    (lambda: lax.while_loop(42, 42, 0), TypeError,
     "lax.while_loop: body_fun and cond_fun arguments should be callable."),
    (lambda: lax.associative_scan(42, 0), TypeError,
     "lax.associative_scan: fn argument should be callable."),
    (lambda: lax.associative_scan(jnp.add, jnp.arange(12).reshape(3, 4), axis=2), ValueError,
     "axis 2 is out of bounds for array of dimension 2"),
    (lambda: lax.associative_scan(jnp.add, jnp.float32(1)), ValueError,
     "axis 0 is out of bounds for array of dimension 0"),
    (lambda: lax.associative_scan(lambda a, b: (a[0] + b[0], a[1] + b[1]),
                                  (jnp.arange(5.0), jnp.arange(4.0))), ValueError,
     "Array inputs to associative_scan must have the same first dimension. "
     "(saw: [(5,), (4,)])"),
]  # fmt: skip


@pytest.mark.parametrize("case", range(len(FIRST_LINES)))
def test_errors_have_jaxs_first_lines(case):
    run, cls, first = FIRST_LINES[case]
    with pytest.raises(cls) as info:
        run()
    assert str(info.value).split("\n")[0] == first


def test_map_batch_size_zero_maps_one_at_a_time():
    np.testing.assert_array_equal(lax.map(lambda x: x * 2, jnp.arange(5.0), batch_size=0),
                                  [0.0, 2.0, 4.0, 6.0, 8.0])  # fmt: skip


def test_a_traced_scan_length_is_jaxs_concretization_error():
    f = core.jit(lambda n, x: lax.scan(lambda c, z: (c, z), x, (), n))
    with pytest.raises(core.errors.ConcretizationTypeError) as info:
        f(3, 1.0)
    assert str(info.value).split("\n")[1] == (  # JAX 0.10.2's second line
        "The `length` argument to `scan` expects a concrete `int` value. For scan-like "
        "iteration with a dynamic length, use `while_loop` or `fori_loop`."
    )
