"""core.numpy layout helpers (resize, rollaxis, reshape's -1, permute_dims) against JAX's
answers and numpy."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.errors import ShapeError
from tests.core.numpy.known_answers import check

# (id, thunk, expected) with expected values/dtypes/weak types recorded from JAX 0.10.2.
KNOWN = [
    (
        "resize",
        lambda: jnp.resize(jnp.arange(4), (3, 3)),
        ([[0, 1, 2], [3, 0, 1], [2, 3, 0]], "int32", False),
    ),
    (
        "resize_small",
        lambda: jnp.resize(jnp.arange(6.0).reshape(2, 3), 4),
        ([0.0, 1.0, 2.0, 3.0], "float32", False),
    ),
    (
        "resize_empty",
        lambda: jnp.resize(jnp.array([], dtype=jnp.int32), (2, 2)),
        ([[0, 0], [0, 0]], "int32", False),
    ),
    ("resize_scal", lambda: jnp.resize(2.0, 3), ([2.0, 2.0, 2.0], "float32", True)),
]


@pytest.mark.parametrize("name, thunk, want", KNOWN, ids=[c[0] for c in KNOWN])
def test_known_answers(name, thunk, want):
    check(thunk(), want)


A = np.arange(12, dtype=np.float32).reshape(3, 4)


@pytest.mark.parametrize("new_shape", [(2, 3), 7, (4, 4), (0,), (1, 0, 2)])
def test_resize_matches_numpy(new_shape):
    np.testing.assert_array_equal(np.asarray(jnp.resize(A, new_shape)), np.resize(A, new_shape))


@pytest.mark.parametrize("axis, start", [(0, 0), (2, 0), (0, 3), (1, -1), (-1, 1), (1, 2)])
def test_rollaxis_matches_numpy(axis, start):
    x = np.zeros((2, 3, 4), np.float32)
    assert jnp.rollaxis(x, axis, start).shape == np.rollaxis(x, axis, start).shape


@pytest.mark.parametrize(
    "call", [lambda: jnp.resize(A, (-1, 2)), lambda: jnp.rollaxis(A, 0, 5)], ids=["neg", "start"]
)
def test_errors(call):
    with pytest.raises(ValueError):
        call()


def test_under_jit_and_grad():
    f = core.jit(lambda x: jnp.rollaxis(jnp.resize(x, (2, 3)), 1))
    np.testing.assert_array_equal(
        np.asarray(f(jnp.arange(4.0))), [[0.0, 3.0], [1.0, 0.0], [2.0, 1.0]]
    )
    g = core.grad(lambda x: jnp.resize(x, 5).sum())(jnp.arange(2.0))
    np.testing.assert_array_equal(np.asarray(g), [3.0, 2.0])


def test_reshape_and_ravel_in_fortran_order_like_jax():
    z = np.arange(24).reshape(2, 3, 4)
    for shape in [(4, 6), (24,), (2, 2, 6), (-1, 3)]:
        np.testing.assert_array_equal(
            jnp.reshape(z, shape, order="F"), np.reshape(z, shape, order="F")
        )
    x = jnp.arange(6).reshape(2, 3)
    want = [[0, 4], [3, 2], [1, 5]]  # JAX 0.10.2
    np.testing.assert_array_equal(x.reshape((3, 2), order="F"), want)
    np.testing.assert_array_equal(x.reshape(3, 2, order="F"), want)
    for flat in (jnp.ravel(x, order="F"), x.ravel(order="F"), x.flatten(order="F")):
        np.testing.assert_array_equal(flat, [0, 3, 1, 4, 2, 5])
    g = core.grad(
        lambda a: (jnp.reshape(a, (3, 2), order="F") * jnp.arange(6.0).reshape(3, 2)).sum()
    )
    np.testing.assert_array_equal(g(jnp.ones((2, 3))), [[0, 4, 3], [2, 1, 5]])


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda x: jnp.reshape(x, (3, 2), order="A"), NotImplementedError, "order=A"),
        (lambda x: jnp.reshape(x, (3, 2), order="K"), ValueError, "'order' argument: K"),
        (lambda x: jnp.ravel(x, order="K"), NotImplementedError, "order='K'"),
        (lambda x: x.flatten(order="X"), ValueError, "'order' argument: X"),
    ],
)
def test_reshape_orders_jax_refuses(call, error, match):
    with pytest.raises(error, match=match):
        call(jnp.arange(6).reshape(2, 3))


# A -1 beside a zero-sized axis cannot be inferred: JAX 0.10.2 divides by zero (its
# ZeroDivisionError, first line recorded); numbax's error is also a ShapeError.
@pytest.mark.parametrize(
    ("shape", "new"), [((0, 4), (2, 0, -1)), ((0, 4), (-1, 0)), ((6,), (0, -1))]
)
def test_minus_one_beside_a_zero_size_is_jaxs_zero_division(shape, new):
    with pytest.raises(ZeroDivisionError, match="^integer modulo by zero") as info:
        jnp.reshape(jnp.zeros(shape), new)
    assert isinstance(info.value, ShapeError)


# permute_dims is lax.transpose: JAX 0.10.2 takes a negative axis as given, a TypeError;
# transpose normalizes it.
def test_permute_dims_takes_no_negative_axes():
    x = jnp.zeros((2, 3, 4))
    with pytest.raises(TypeError, match="got permutation \\(-1, -3, -2\\) for operand shape"):
        jnp.permute_dims(x, (-1, -3, -2))
    assert jnp.transpose(x, (-1, -3, -2)).shape == (4, 2, 3)
    assert jnp.permute_dims(x, [2, 0, 1]).shape == (4, 2, 3)
