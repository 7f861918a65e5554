"""The built-in ufuncs (`jnp.add`, `jnp.maximum`, ...) and their methods, against JAX.

Every expected value, dtype, shape and error class was recorded from JAX 0.10.2 running the same
expression (`jax`/`jax.numpy` in place of `core`/`core.numpy`).
"""

import math

import numpy as np
import pytest

import core as jax
import core.numpy as jnp
from core.array import Array

# (name, expression, ("array", value, dtype, shape) | ("value", value) | ("error", class name))
CASES = [
    (
        "add.reduce default axis",
        "jnp.add.reduce(jnp.arange(6).reshape(2, 3))",
        ("array", [3, 5, 7], "int32", (3,)),
    ),
    (
        "add.reduce axis None",
        "jnp.add.reduce(jnp.arange(6).reshape(2, 3), axis=None)",
        ("array", 15, "int32", ()),
    ),
    (
        "add.reduce tuple axes keepdims",
        "jnp.add.reduce(jnp.arange(6.0).reshape(2, 3), axis=(0, 1), keepdims=True)",
        ("array", [[15.0]], "float32", (1, 1)),
    ),
    ("add.reduce int8", "jnp.add.reduce(jnp.arange(4, dtype=jnp.int8))", ("array", 6, "int32", ())),
    (
        "add.reduce bool",
        "jnp.add.reduce(jnp.array([True, True, False]))",
        ("array", 2, "int32", ()),
    ),
    (
        "add.reduce dtype initial",
        "jnp.add.reduce(jnp.arange(4), dtype=jnp.float32, initial=10)",
        ("array", 16.0, "float32", ()),
    ),
    (
        "add.reduce where",
        "jnp.add.reduce(jnp.arange(4.0), where=jnp.array([True, False, True, True]))",
        ("array", 5.0, "float32", ()),
    ),
    (
        "multiply.reduce axis 1",
        "jnp.multiply.reduce(jnp.arange(1.0, 7.0).reshape(2, 3), axis=1)",
        ("array", [6.0, 120.0], "float32", (2,)),
    ),
    (
        "maximum.reduce",
        "jnp.maximum.reduce(jnp.array([[1.0, 5.0], [3.0, 2.0]]), axis=1)",
        ("array", [5.0, 3.0], "float32", (2,)),
    ),
    (
        "minimum.reduce initial",
        "jnp.minimum.reduce(jnp.array([4, 2, 7]), initial=3)",
        ("array", 2, "int32", ()),
    ),
    (
        "maximum.reduce where initial",
        "jnp.maximum.reduce(jnp.array([4.0, 9.0, 7.0]), where=jnp.arange(3) != 1, initial=0.0)",
        ("array", 7.0, "float32", ()),
    ),
    (
        "logical_and.reduce",
        "jnp.logical_and.reduce(jnp.array([[True, False], [True, True]]), axis=1)",
        ("array", [False, True], "bool", (2,)),
    ),
    (
        "logical_or.reduce ints",
        "jnp.logical_or.reduce(jnp.array([0, 0, 3]))",
        ("array", True, "bool", ()),
    ),
    (
        "logical_xor.reduce",
        "jnp.logical_xor.reduce(jnp.array([True, True, True]))",
        ("array", True, "bool", ()),
    ),
    (
        "bitwise_and.reduce",
        "jnp.bitwise_and.reduce(jnp.array([7, 5, 13]))",
        ("array", 5, "int32", ()),
    ),
    (
        "bitwise_or.reduce axis 1",
        "jnp.bitwise_or.reduce(jnp.array([[1, 2], [4, 8]]), axis=1)",
        ("array", [3, 12], "int32", (2,)),
    ),
    (
        "bitwise_xor.reduce uint8",
        "jnp.bitwise_xor.reduce(jnp.array([1, 3, 6], dtype=jnp.uint8))",
        ("array", 4, "uint8", ()),
    ),
    (
        "logaddexp.reduce",
        "jnp.logaddexp.reduce(jnp.array([0.0, 1.0, 2.0]))",
        ("array", 2.4076058864593506, "float32", ()),
    ),
    (
        "logaddexp2.reduce",
        "jnp.logaddexp2.reduce(jnp.array([0.0, 1.0, 2.0]))",
        ("array", 2.8073549270629883, "float32", ()),
    ),
    ("subtract.reduce", "jnp.subtract.reduce(jnp.arange(5.0))", ("array", -10.0, "float32", ())),
    (
        "subtract.reduce axis 1",
        "jnp.subtract.reduce(jnp.arange(6).reshape(2, 3), axis=1)",
        ("array", [-3, -6], "int32", (2,)),
    ),
    (
        "add.accumulate",
        "jnp.add.accumulate(jnp.arange(5))",
        ("array", [0, 1, 3, 6, 10], "int32", (5,)),
    ),
    (
        "add.accumulate int8",
        "jnp.add.accumulate(jnp.arange(4, dtype=jnp.int8))",
        ("array", [0, 1, 3, 6], "int8", (4,)),
    ),
    (
        "add.accumulate bool",
        "jnp.add.accumulate(jnp.array([True, False, True]))",
        ("array", [1, 1, 2], "int32", (3,)),
    ),
    (
        "multiply.accumulate axis 1",
        "jnp.multiply.accumulate(jnp.arange(1, 7).reshape(2, 3), axis=1)",
        ("array", [[1, 2, 6], [4, 20, 120]], "int32", (2, 3)),
    ),
    (
        "subtract.accumulate",
        "jnp.subtract.accumulate(jnp.arange(5.0))",
        ("array", [0.0, -1.0, -3.0, -6.0, -10.0], "float32", (5,)),
    ),
    (
        "maximum.accumulate",
        "jnp.maximum.accumulate(jnp.array([1.0, 3.0, 2.0, 5.0]))",
        ("array", [1.0, 3.0, 3.0, 5.0], "float32", (4,)),
    ),
    (
        "bitwise_or.accumulate",
        "jnp.bitwise_or.accumulate(jnp.array([[1, 2, 4], [4, 1, 2]]), axis=1)",
        ("array", [[1, 3, 7], [4, 5, 7]], "int32", (2, 3)),
    ),
    (
        "add.at",
        "jnp.add.at(jnp.zeros(4), jnp.array([0, 0, 2]), 1.0, inplace=False)",
        ("array", [2.0, 0.0, 1.0, 0.0], "float32", (4,)),
    ),
    (
        "add.at bool",
        "jnp.add.at(jnp.array([False, True, False]), jnp.array([0, 0]), True, inplace=False)",
        ("array", [True, True, False], "bool", (3,)),
    ),
    (
        "multiply.at",
        "jnp.multiply.at(jnp.arange(1.0, 5.0), jnp.array([1, 1]), 3.0, inplace=False)",
        ("array", [1.0, 18.0, 3.0, 4.0], "float32", (4,)),
    ),
    (
        "subtract.at",
        "jnp.subtract.at(jnp.ones(3, dtype=jnp.int32), jnp.array([2]), 5, inplace=False)",
        ("array", [1, 1, -4], "int32", (3,)),
    ),
    (
        "maximum.at",
        "jnp.maximum.at(jnp.array([1.0, 5.0, 2.0]), jnp.array([0, 2]), 3.0, inplace=False)",
        ("array", [3.0, 5.0, 3.0], "float32", (3,)),
    ),
    (
        "negative.at",
        "jnp.negative.at(jnp.arange(4.0), jnp.array([1, 3]), inplace=False)",
        ("array", [0.0, -1.0, 2.0, -3.0], "float32", (4,)),
    ),
    (
        "add.outer",
        "jnp.add.outer(jnp.arange(2), jnp.arange(3))",
        ("array", [[0, 1, 2], [1, 2, 3]], "int32", (2, 3)),
    ),
    (
        "multiply.outer 2d",
        "jnp.multiply.outer(jnp.arange(4.0).reshape(2, 2), jnp.array([1.0, 10.0]))",
        ("array", [[[0.0, 0.0], [1.0, 10.0]], [[2.0, 20.0], [3.0, 30.0]]], "float32", (2, 2, 2)),
    ),
    (
        "add.reduceat",
        "jnp.add.reduceat(jnp.arange(8), jnp.array([0, 4, 1, 5]))",
        ("array", [6, 4, 10, 18], "int32", (4,)),
    ),
    (
        "maximum.reduceat",
        "jnp.maximum.reduceat(jnp.array([3.0, 1.0, 4.0, 1.0, 5.0]), jnp.array([0, 2]))",
        ("array", [3.0, 5.0], "float32", (2,)),
    ),
    ("add call", "jnp.add(jnp.arange(3), 2)", ("array", [2, 3, 4], "int32", (3,))),
    (
        "negative call",
        "jnp.negative(jnp.arange(3.0))",
        ("array", [-0.0, -1.0, -2.0], "float32", (3,)),
    ),
    ("identity add", "jnp.add.identity", ("value", 0)),
    ("identity bitwise_and", "jnp.bitwise_and.identity", ("value", -1)),
    ("identity logaddexp", "jnp.logaddexp.identity", ("value", -math.inf)),
    ("identity maximum", "jnp.maximum.identity", ("value", None)),
    ("identity logical_and", "jnp.logical_and.identity", ("value", True)),
    (
        "attrs add",
        "(jnp.add.nin, jnp.add.nout, jnp.add.nargs, jnp.add.__name__, repr(jnp.add))",
        ("value", (2, 1, 2, "add", "<jnp.ufunc 'add'>")),
    ),
    (
        "attrs negative",
        "(jnp.negative.nin, jnp.negative.nout, jnp.negative.__name__, repr(jnp.negative))",
        ("value", (1, 1, "negative", "<jnp.ufunc 'negative'>")),
    ),
    ("maximum.reduce empty", "jnp.maximum.reduce(jnp.zeros((0,)))", ("error", "ValueError")),
    ("subtract.reduce empty", "jnp.subtract.reduce(jnp.zeros((0,)))", ("error", "ValueError")),
    (
        "add.reduce empty",
        "jnp.add.reduce(jnp.zeros((0, 2)))",
        ("array", [0.0, 0.0], "float32", (2,)),
    ),
    (
        "maximum.reduce where no initial",
        "jnp.maximum.reduce(jnp.arange(3.0), where=jnp.array([True, False, True]))",
        ("error", "ValueError"),
    ),
    (
        "add.at inplace",
        "jnp.add.at(jnp.zeros(3), jnp.array([0]), 1.0)",
        ("error", "NotImplementedError"),
    ),
    ("negative.reduce", "jnp.negative.reduce(jnp.arange(3.0))", ("error", "ValueError")),
    ("add out", "jnp.add(jnp.arange(3), 1, out=jnp.zeros(3))", ("error", "NotImplementedError")),
    (
        "add.accumulate axis None",
        "jnp.add.accumulate(jnp.arange(4), axis=None)",
        ("array", [0, 1, 3, 6], "int32", (4,)),
    ),
    (
        "isinstance",
        "(isinstance(jnp.add, jnp.ufunc), isinstance(jnp.sin, jnp.ufunc))",
        ("value", (True, False)),
    ),
    (
        "jit of add.reduce",
        "jax.jit(lambda x: jnp.add.reduce(x, axis=1))(jnp.arange(6.0).reshape(2, 3))",
        ("array", [3.0, 12.0], "float32", (2,)),
    ),
    (
        "grad of multiply.reduce",
        "jax.grad(lambda x: jnp.multiply.reduce(x))(jnp.array([1.0, 2.0, 3.0]))",
        ("array", [6.0, 3.0, 2.0], "float32", (3,)),
    ),
    (
        "grad of logaddexp.reduce",
        "jax.grad(lambda x: jnp.logaddexp.reduce(x))(jnp.array([0.0, 1.0]))",
        ("array", [0.2689414322376251, 0.7310585975646973], "float32", (2,)),
    ),
]


@pytest.mark.parametrize("name,expr,expected", CASES, ids=[c[0] for c in CASES])
def test_builtin_ufuncs_match_jax(name, expr, expected):
    scope = {"jax": jax, "jnp": jnp}
    if expected[0] == "error":
        with pytest.raises(Exception) as info:
            eval(expr, scope)
        assert type(info.value).__name__ == expected[1]
        return
    got = eval(expr, scope)
    if expected[0] == "value":
        assert got == expected[1]
        return
    assert isinstance(got, Array)
    assert (str(got.dtype), got.shape) == expected[2:]
    np.testing.assert_allclose(np.asarray(got), np.asarray(expected[1]), rtol=1e-6)


def test_calling_a_builtin_ufunc_runs_the_plain_function():
    """`jnp.add(x, y)` is the elementwise function itself, with JAX's promotion (no `vectorize`:
    a Python scalar stays weakly typed)."""
    x = jnp.arange(3, dtype=jnp.int8)
    assert jnp.add(x, 1).dtype == jnp.int8
    assert jnp.add.reduce is not jnp.multiply.reduce
    assert jnp.frompyfunc(jnp.add, 2, 1, identity=0).reduce(jnp.arange(4)) == 6


def test_builtin_ufuncs_are_hashable_static_arguments():
    f = jax.jit(lambda op, x: op.reduce(x), static_argnums=0)
    np.testing.assert_array_equal(f(jnp.maximum, jnp.array([1.0, 4.0, 2.0])), 4.0)
    np.testing.assert_array_equal(f(jnp.add, jnp.array([1.0, 4.0, 2.0])), 7.0)
    assert jnp.add == jnp.add and hash(jnp.add) == hash(jnp.add) and jnp.add != jnp.multiply
