"""core.numpy `frompyfunc`/`ufunc` (call, reduce, accumulate, at, reduceat, outer) against
JAX's answers and numpy's ufunc methods."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from tests.core.numpy.known_answers import check

# (id, thunk, expected) with expected values/dtypes/weak types recorded from JAX 0.10.2.
KNOWN = [
    (
        "call",
        lambda: jnp.frompyfunc(lambda a, b: a * 2 + b, 2, 1)(
            jnp.arange(3), jnp.arange(2).reshape(2, 1)
        ),
        ([[0, 2, 4], [1, 3, 5]], "int32", False),
    ),
    (
        "call2out",
        lambda: jnp.frompyfunc(lambda a: (a + 1, a * 2.0), 1, 2)(jnp.arange(3)),
        [([1, 2, 3], "int32", False), ([0.0, 2.0, 4.0], "float32", True)],
    ),
    (
        "reduce0",
        lambda: jnp.frompyfunc(jnp.add, 2, 1, identity=0).reduce(jnp.arange(6).reshape(2, 3)),
        ([3, 5, 7], "int32", False),
    ),
    (
        "reduce1",
        lambda: jnp.frompyfunc(jnp.maximum, 2, 1).reduce(
            jnp.array([[1.0, 5.0, 2.0], [4.0, 0.0, 3.0]]), axis=1
        ),
        ([5.0, 4.0], "float32", False),
    ),
    (
        "reduce_none",
        lambda: jnp.frompyfunc(jnp.add, 2, 1).reduce(
            jnp.arange(6).reshape(2, 3), axis=None, keepdims=True
        ),
        ([[15]], "int32", False),
    ),
    (
        "reduce_init",
        lambda: jnp.frompyfunc(jnp.multiply, 2, 1).reduce(jnp.arange(1.0, 4.0), initial=10.0),
        (60.0, "float32", False),
    ),
    (
        "reduce_where",
        lambda: jnp.frompyfunc(jnp.add, 2, 1, identity=0).reduce(
            jnp.arange(4), where=jnp.array([True, False, True, True])
        ),
        (5, "int32", False),
    ),
    (
        "reduce_empty",
        lambda: jnp.frompyfunc(jnp.add, 2, 1, identity=0).reduce(jnp.zeros((0, 2))),
        ([0.0, 0.0], "float32", False),
    ),
    (
        "reduce_keep",
        lambda: jnp.frompyfunc(jnp.add, 2, 1).reduce(
            jnp.arange(6).reshape(2, 3), axis=-1, keepdims=True
        ),
        ([[3], [12]], "int32", False),
    ),
    (
        "reduce_dtype",
        lambda: jnp.frompyfunc(jnp.add, 2, 1).reduce(jnp.arange(4), dtype=jnp.float32),
        (6.0, "float32", False),
    ),
    (
        "accum",
        lambda: jnp.frompyfunc(jnp.add, 2, 1).accumulate(jnp.arange(6).reshape(2, 3), axis=1),
        ([[0, 1, 3], [3, 7, 12]], "int32", False),
    ),
    (
        "accum0",
        lambda: jnp.frompyfunc(jnp.bitwise_or, 2, 1).accumulate(jnp.array([1, 2, 8, 1])),
        ([1, 3, 11, 11], "int32", False),
    ),
    (
        "accum_f",
        lambda: jnp.frompyfunc(lambda a, b: a * 0.5 + b, 2, 1).accumulate(jnp.arange(4)),
        ([0.0, 1.0, 2.5, 4.25], "float32", False),
    ),
    (  # a bool-valued ufunc's results cast to the accumulator's dtype
        "accum_logical_dtype",
        lambda: jnp.logical_and.accumulate(jnp.array([3, 0, 2]), dtype=jnp.float32),
        ([3.0, 0.0, 0.0], "float32", False),
    ),
    (
        "accum_logical_int",
        lambda: jnp.logical_xor.accumulate(jnp.array([True, True, False]), dtype=jnp.int32),
        ([1, 0, 0], "int32", False),
    ),
    (
        "at",
        lambda: jnp.frompyfunc(jnp.add, 2, 1).at(
            jnp.zeros(4), jnp.array([0, 2, 0]), jnp.array([1.0, 2.0, 3.0]), inplace=False
        ),
        ([4.0, 0.0, 2.0, 0.0], "float32", False),
    ),
    (
        "at_unary",
        lambda: jnp.frompyfunc(lambda a: a * 10, 1, 1).at(
            jnp.arange(4), jnp.array([1, 1]), inplace=False
        ),
        ([0, 100, 2, 3], "int32", False),
    ),
    (
        "at_scalar",
        lambda: jnp.frompyfunc(jnp.add, 2, 1).at(jnp.arange(4.0), 2, 5.0, inplace=False),
        ([0.0, 1.0, 7.0, 3.0], "float32", False),
    ),
    (
        "at_2d",
        lambda: jnp.frompyfunc(jnp.multiply, 2, 1).at(
            jnp.ones((2, 3)), (jnp.array([0, 1]), jnp.array([2, 2])), 3.0, inplace=False
        ),
        ([[1.0, 1.0, 3.0], [1.0, 1.0, 3.0]], "float32", False),
    ),
    (
        "reduceat",
        lambda: jnp.frompyfunc(jnp.add, 2, 1).reduceat(jnp.arange(8), jnp.array([0, 4, 1, 5])),
        ([6, 4, 10, 18], "int32", False),
    ),
    (
        "reduceat2d",
        lambda: jnp.frompyfunc(jnp.maximum, 2, 1).reduceat(
            jnp.arange(12.0).reshape(3, 4), jnp.array([0, 2]), axis=1
        ),
        ([[1.0, 3.0], [5.0, 7.0], [9.0, 11.0]], "float32", False),
    ),
    (
        "outer",
        lambda: jnp.frompyfunc(jnp.subtract, 2, 1).outer(
            jnp.arange(3), jnp.arange(4).reshape(2, 2)
        ),
        ([[[0, -1], [-2, -3]], [[1, 0], [-1, -2]], [[2, 1], [0, -1]]], "int32", False),
    ),
    ("repr", lambda: repr(jnp.frompyfunc(jnp.add, 2, 1)), "<jnp.ufunc 'add'>"),
    (
        "attrs",
        lambda: [
            jnp.frompyfunc(jnp.add, 2, 1, identity=0).identity,
            jnp.frompyfunc(jnp.add, 2, 1).nin,
            jnp.frompyfunc(jnp.add, 2, 1).nout,
            jnp.frompyfunc(jnp.add, 2, 1).nargs,
            jnp.frompyfunc(jnp.add, 2, 1) == jnp.frompyfunc(jnp.add, 2, 1),
        ],
        [0, 2, 1, 2, True],
    ),
]


@pytest.mark.parametrize("name, thunk, want", KNOWN, ids=[c[0] for c in KNOWN])
def test_known_answers(name, thunk, want):
    check(thunk(), want)


X = np.arange(1, 13, dtype=np.float32).reshape(3, 4) % 5
UFUNCS = [("add", 0), ("multiply", 1), ("maximum", None), ("subtract", None)]


@pytest.mark.parametrize("name, identity", UFUNCS)
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_methods_match_numpy(name, identity, axis):
    uf, ref = jnp.frompyfunc(getattr(jnp, name), 2, 1, identity=identity), getattr(np, name)
    np.testing.assert_allclose(np.asarray(uf.reduce(X, axis=axis)), ref.reduce(X, axis=axis))
    np.testing.assert_allclose(
        np.asarray(uf.accumulate(X, axis=axis)), ref.accumulate(X, axis=axis)
    )
    idx = np.array([0, 2, 1])
    np.testing.assert_allclose(
        np.asarray(uf.reduceat(X, idx, axis=axis)), ref.reduceat(X, idx, axis=axis)
    )
    np.testing.assert_allclose(np.asarray(uf.outer(X[0], X[:2, 1])), ref.outer(X[0], X[:2, 1]))
    want = X.copy()
    ref.at(want, (np.array([0, 2, 0]), np.array([1, 1, 1])), np.float32(3.0))
    got = uf.at(X, (np.array([0, 2, 0]), np.array([1, 1, 1])), 3.0, inplace=False)
    np.testing.assert_allclose(np.asarray(got), want)


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda u: u.at(X, 0, 1.0), NotImplementedError),
        (lambda u: u.reduce(X, out=X), NotImplementedError),
        (lambda u: u.reduce(X, where=X > 1), ValueError),
        (lambda u: u.reduce(np.zeros((0, 2))), ValueError),
        (lambda u: u.reduce(X, axis=(0, 1)), NotImplementedError),
        (lambda u: u.accumulate(X, axis=None), ValueError),
        (lambda u: u.reduceat(X, np.zeros((1, 1), np.int32)), ValueError),
        (lambda u: u(X, X, out=X), NotImplementedError),
        (lambda u: jnp.frompyfunc(jnp.negative, 1, 1).reduce(X), ValueError),
        (lambda u: jnp.frompyfunc(jnp.divmod, 2, 2).outer(X, X), ValueError),
    ],
)
def test_errors(call, error):
    with pytest.raises(error):
        call(jnp.frompyfunc(jnp.maximum, 2, 1))


def test_under_jit_and_grad():
    uf = jnp.frompyfunc(lambda a, b: a * b + 1.0, 2, 1)

    def f(x):
        return uf.reduce(x, axis=0).sum() + uf.accumulate(x, axis=1)[0, -1]

    x = jnp.arange(6.0).reshape(2, 3) / 4
    np.testing.assert_allclose(float(core.jit(f)(x)), float(f(x)), rtol=1e-6)
    g = core.grad(lambda v: jnp.frompyfunc(jnp.multiply, 2, 1).reduce(v))(
        jnp.array([2.0, 3.0, 4.0])
    )
    np.testing.assert_allclose(np.asarray(g), [12.0, 8.0, 6.0])
    assert jnp.frompyfunc(jnp.add, 2, 1) == jnp.frompyfunc(jnp.add, 2, 1)
    assert hash(jnp.frompyfunc(jnp.add, 2, 1)) == hash(jnp.frompyfunc(jnp.add, 2, 1))
    assert isinstance(jnp.frompyfunc(jnp.add, 2, 1), jnp.ufunc)


@pytest.mark.parametrize("attr", ["nargs", "nin", "nout", "identity", "_func"])
@pytest.mark.parametrize(
    "make", [lambda: jnp.frompyfunc(lambda a, b: a + b, 2, 1, identity=0), lambda: jnp.add]
)
def test_properties_are_read_only(make, attr):
    # JAX 0.10.2: the properties read, and setting one raises AttributeError
    uf = make()
    getattr(uf, attr)
    with pytest.raises(AttributeError):
        setattr(uf, attr, None)
