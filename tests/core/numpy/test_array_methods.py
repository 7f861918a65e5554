"""Array methods and operators as JAX 0.10.2's (answers and messages recorded from JAX): `copy`
and `deepcopy` give a new buffer and work on tracers, `in` needs a 1-D array and a scalar,
`tobytes` gives numpy's bytes and is a concretization error under `jit`."""

import copy
import operator
import warnings
from typing import Any, NamedTuple

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.errors import ConcretizationTypeError, TracerBoolConversionError


@pytest.mark.parametrize("copier", [copy.copy, copy.deepcopy])
def test_copy_makes_a_new_buffer_and_traces(copier):
    x = jnp.arange(3.0)
    y = copier(x)
    assert y.unsafe_buffer_pointer() != x.unsafe_buffer_pointer()
    x.delete()
    np.testing.assert_array_equal(y, [0.0, 1.0, 2.0])
    np.testing.assert_array_equal(core.jit(copier)(y), [0.0, 1.0, 2.0])


def test_contains():
    x = jnp.arange(3.0)
    assert 2.0 in x
    assert 5 not in x
    with pytest.raises(TracerBoolConversionError):
        core.jit(lambda a: 1.0 in a)(x)


@pytest.mark.parametrize(
    "arr, query, error, message",
    [
        (np.arange(3.0), None, TypeError, "unsupported operand type <class 'NoneType'>"),
        (np.arange(3.0), "a", TypeError, "unsupported operand type <class 'str'>"),
        (np.arange(3.0), np.zeros(2), ValueError, r"query value must be a scalar, got query.sh"),
        (np.zeros((2, 2)), 1.0, ValueError, r"must be one-dimensional, got arr.shape=\(2, 2\)"),
    ],
)
def test_contains_errors(arr, query, error, message):
    with pytest.raises(error, match=message):
        query in jnp.asarray(arr)  # noqa: B015  (the operator is the test)


def test_tobytes():
    assert jnp.array([1, 2], dtype=jnp.int16).tobytes() == b"\x01\x00\x02\x00"
    assert jnp.arange(4, dtype=jnp.int8).reshape(2, 2).tobytes("F") == b"\x00\x02\x01\x03"
    with pytest.raises(ConcretizationTypeError, match=r"The tobytes\(\) method was called on"):
        core.jit(lambda a: a.tobytes())(jnp.arange(3.0))


class _Wrapped(NamedTuple):
    """A NamedTuple with its own `*`: Array's operators defer to it, as JAX's do."""

    arr: Any

    def __mul__(self, other):
        return _Wrapped(self.arr * other)

    def __rmul__(self, other):
        return _Wrapped(other * self.arr)


@pytest.mark.parametrize("fn", [operator.mul, core.jit(operator.mul)])
def test_operators_defer_to_tuple_subclasses(fn):
    a, b = _Wrapped(jnp.ones(2)), jnp.arange(2.0)
    for out in (fn(a, b), fn(b, a)):
        assert isinstance(out, _Wrapped)
        np.testing.assert_array_equal(out.arr, [0.0, 1.0])
    with pytest.raises(
        TypeError, match=r"unsupported operand type\(s\) for \*: 'Array' and 'tuple'"
    ):
        b * (1.0, 2.0)  # an exact tuple still raises (JAX 0.10.2: 'ArrayImpl' and 'tuple')


@pytest.mark.parametrize(  # JAX 0.10.2's values and warnings (None is the default float dtype)
    "dtype, want, warns",
    [
        ("float32", [1.5, -3.7], True),
        ("int32", [1, -3], True),
        ("float16", [1.5, -3.69921875], True),
        (None, [1.5, -3.7], True),
        ("bool", [True, True], False),
    ],
)
def test_astype_from_complex(dtype, want, warns):
    z = jnp.array([1.5 + 2j, -3.7 - 1j], jnp.complex64)
    for convert in (lambda: jnp.astype(z, dtype), lambda: z.astype(dtype)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got = convert()
        messages = [str(w.message) for w in caught if w.category is DeprecationWarning]
        assert bool(messages) == warns
        assert all(
            m.startswith("Casting from complex to real dtypes will soon raise") for m in messages
        )
        assert not [w for w in caught if w.category is np.exceptions.ComplexWarning]
        np.testing.assert_allclose(got, np.array(want, dtype=got.dtype), rtol=1e-6)


@pytest.mark.parametrize("copy_", [True, False])
def test_astype_copy_of_the_same_dtype(copy_):
    x = jnp.arange(3, dtype="int32")
    for y in (x.astype("int32", copy=copy_), jnp.astype(x, "int32", copy=copy_)):
        assert (y.unsafe_buffer_pointer() != x.unsafe_buffer_pointer()) == copy_


INT4S = [0, 1, -1, 7, -8, 3, 2, 5] * 4


@pytest.mark.parametrize(  # JAX 0.10.2's answers: two 4-bit values a byte, the first low
    "x, dtype, shape, head",
    [
        (jnp.array(INT4S, jnp.int4), jnp.int8, (16,), [16, 127, 56, 82]),
        (jnp.array(INT4S, jnp.int4), jnp.int16, (8,), [32528, 21048, 32528, 21048]),
        (jnp.array(INT4S, jnp.int4), jnp.int32, (4,), [1379434256] * 4),
        (jnp.array(INT4S, jnp.int4), jnp.bool_, (16,), [True, True, True, True]),
        (jnp.array([True, False, True, True] * 4), jnp.uint4, (32,), [1, 0, 0, 0]),
        (jnp.array([16, 127, -8], jnp.int8), jnp.int4, (6,), [0, 1, -1, 7]),
    ],
)
def test_view_to_and_from_4_bit_dtypes(x, dtype, shape, head):
    for view in (lambda a: a.view(dtype), core.jit(lambda a: a.view(dtype))):
        got = view(x)
        assert got.shape == shape and got.dtype == dtype
        np.testing.assert_array_equal(np.asarray(got[:4]), head)


def test_byteswap_of_complex_under_strict_promotion():
    z = np.array([1 + 2j, 3 - 4j], np.complex64)
    with core.numpy_dtype_promotion("strict"):
        for x in (jnp.asarray(z), jnp.asarray(z[0])):
            got = x.byteswap()
            assert got.dtype == np.complex64
            np.testing.assert_array_equal(got, np.asarray(x).byteswap())


# JAX 0.10.2: `<<` and `>>` are jnp.left_shift/right_shift, which promote bools to the default int
@pytest.mark.parametrize(
    "call, values, dtype, weak",
    [
        (lambda b: b << True, [2, 0], "int32", False),
        (lambda b: True << b, [2, 1], "int32", False),
        (lambda b: b >> b, [0, 0], "int32", False),
        (lambda b: b << 1, [2, 0], "int32", True),
        (lambda b: b << np.int8(1), [2, 0], "int8", False),
        (lambda b: jnp.array([-8, 8], jnp.int8) >> 2, [-2, 2], "int8", False),
        (lambda b: jnp.array([248, 8], jnp.uint8) >> 2, [62, 2], "uint8", False),
    ],
)
def test_shift_operators(call, values, dtype, weak):
    out = call(jnp.array([True, False]))
    assert (str(out.dtype), out.weak_type) == (dtype, weak)
    np.testing.assert_array_equal(out, values)


def test_to_device_commits_a_copy_to_the_device_or_sharding():
    # JAX 0.10.2 (8 CPU devices): x.to_device(d) is device_put(x, d)
    x = jnp.ones((2, 10))
    assert x.to_device(core.devices()[-1]).device == core.devices()[-1]
    sharding = core.sharding.NamedSharding(core.make_mesh((2,), ("x",)), core.P("x"))
    assert x.to_device(sharding).sharding == sharding
    with pytest.raises(NotImplementedError, match="^stream argument of array.to_device()"):
        x.to_device(core.devices()[0], stream=1)
