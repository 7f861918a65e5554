"""core.numpy functional updates (insert, delete, place, put, put_along_axis, fill_diagonal)."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.errors import ConcretizationTypeError
from tests.core.numpy.known_answers import check

# (id, thunk, expected) with expected values/dtypes/weak types recorded from JAX 0.10.2.
KNOWN = [
    (
        "fill_diag",
        lambda: jnp.fill_diagonal(jnp.zeros((3, 4)), 5, inplace=False),
        ([[5.0, 0.0, 0.0, 0.0], [0.0, 5.0, 0.0, 0.0], [0.0, 0.0, 5.0, 0.0]], "float32", False),
    ),
    (
        "fill_diag_arr",
        lambda: jnp.fill_diagonal(jnp.zeros((4, 3), jnp.int32), jnp.array([1, 2]), inplace=False),
        ([[1, 0, 0], [0, 2, 0], [0, 0, 1], [0, 0, 0]], "int32", False),
    ),
    (
        "fill_diag_3d",
        lambda: jnp.fill_diagonal(jnp.zeros((2, 2, 2)), 1.5, inplace=False),
        ([[[1.5, 0.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 1.5]]], "float32", False),
    ),
    ("insert_int", lambda: jnp.insert(jnp.arange(5), 2, 9), ([0, 1, 9, 2, 3, 4], "int32", False)),
    (
        "insert_list",
        lambda: jnp.insert(jnp.arange(5.0), jnp.array([1, 3, -1]), jnp.array([7.0, 8.0, 9.0])),
        ([0.0, 7.0, 1.0, 2.0, 8.0, 3.0, 9.0, 4.0], "float32", False),
    ),
    (
        "insert_axis",
        lambda: jnp.insert(jnp.arange(6).reshape(2, 3), 1, jnp.array([10, 20]), axis=1),
        ([[0, 10, 1, 2], [3, 20, 4, 5]], "int32", False),
    ),
    (
        "insert_axis_scal",
        lambda: jnp.insert(jnp.arange(6).reshape(2, 3), 1, 5, axis=0),
        ([[0, 1, 2], [5, 5, 5], [3, 4, 5]], "int32", False),
    ),
    (
        "insert_slice",
        lambda: jnp.insert(jnp.arange(4), slice(0, 4, 2), jnp.array([-1, -2])),
        ([-1, 0, 1, -2, 2, 3], "int32", False),
    ),
    (
        "insert_none",
        lambda: jnp.insert(jnp.arange(6).reshape(2, 3), 2, jnp.array([1.7, 2.2])),
        ([0, 1, 1, 2, 2, 3, 4, 5], "int32", False),
    ),
    (
        "insert_2d_idx_seq",
        lambda: jnp.insert(
            jnp.arange(6).reshape(2, 3), jnp.array([1]), jnp.array([[10], [20]]), axis=1
        ),
        ([[0, 10, 1, 2], [3, 20, 4, 5]], "int32", False),
    ),
    ("delete_int", lambda: jnp.delete(jnp.arange(5), 1), ([0, 2, 3, 4], "int32", False)),
    (
        "delete_neg",
        lambda: jnp.delete(jnp.arange(6).reshape(2, 3), -1, axis=1),
        ([[0, 1], [3, 4]], "int32", False),
    ),
    (
        "delete_slice",
        lambda: jnp.delete(jnp.arange(7), slice(1, None, 2)),
        ([0, 2, 4, 6], "int32", False),
    ),
    (
        "delete_arr",
        lambda: jnp.delete(jnp.arange(6.0), jnp.array([0, 2, 2])),
        ([1.0, 3.0, 4.0, 5.0], "float32", False),
    ),
    (
        "delete_mask",
        lambda: jnp.delete(jnp.arange(4), jnp.array([True, False, True, False])),
        ([1, 3], "int32", False),
    ),
    (
        "delete_unique",
        lambda: jnp.delete(jnp.arange(6), jnp.array([4, 1]), assume_unique_indices=True),
        ([0, 2, 3, 5], "int32", False),
    ),
    (
        "delete_none",
        lambda: jnp.delete(jnp.arange(6).reshape(2, 3), jnp.array([1, 4])),
        ([0, 2, 3, 5], "int32", False),
    ),
    (
        "place",
        lambda: jnp.place(
            jnp.arange(6.0).reshape(2, 3),
            jnp.arange(6).reshape(2, 3) > 2,
            jnp.array([10.0, 20.0]),
            inplace=False,
        ),
        ([[0.0, 1.0, 2.0], [10.0, 20.0, 10.0]], "float32", False),
    ),
    (
        "place_int",
        lambda: jnp.place(
            jnp.arange(5), jnp.array([1, 0, 1, 0, 1]), jnp.array([-1, -2, -3, -4]), inplace=False
        ),
        ([-1, 1, -2, 3, -3], "int32", False),
    ),
    (
        "put",
        lambda: jnp.put(jnp.zeros(5), jnp.array([1, 7, -1]), 3.0, inplace=False),
        ([0.0, 3.0, 0.0, 0.0, 3.0], "float32", False),
    ),
    (
        "put_clip",
        lambda: jnp.put(
            jnp.zeros(5), jnp.array([1, 7, -1]), jnp.array([1.0, 2.0]), mode="clip", inplace=False
        ),
        ([1.0, 1.0, 0.0, 0.0, 2.0], "float32", False),
    ),
    (
        "put_wrap",
        lambda: jnp.put(
            jnp.zeros(5), jnp.array([1, 7, -1]), jnp.array([1.0, 2.0]), mode="wrap", inplace=False
        ),
        ([0.0, 1.0, 2.0, 0.0, 1.0], "float32", False),
    ),
    (
        "put_2d",
        lambda: jnp.put(jnp.zeros((2, 3), jnp.int32), jnp.array([1, 7, -1]), 5, inplace=False),
        ([[0, 5, 0], [0, 0, 5]], "int32", False),
    ),
    (
        "pala",
        lambda: jnp.put_along_axis(
            jnp.zeros((2, 3)), jnp.array([[0], [2]]), 9.0, axis=1, inplace=False
        ),
        ([[9.0, 0.0, 0.0], [0.0, 0.0, 9.0]], "float32", False),
    ),
    (
        "pala0",
        lambda: jnp.put_along_axis(
            jnp.arange(6).reshape(2, 3),
            jnp.array([[1, 0, 1]]),
            jnp.array([[7, 8, 9]]),
            axis=0,
            inplace=False,
        ),
        ([[0, 8, 2], [7, 4, 9]], "int32", False),
    ),
    (
        "pala_none",
        lambda: jnp.put_along_axis(
            jnp.arange(6.0).reshape(2, 3), jnp.array([5, 0]), -1.0, axis=None, inplace=False
        ),
        ([[-1.0, 1.0, 2.0], [3.0, 4.0, -1.0]], "float32", False),
    ),
    ("ins_w", lambda: jnp.insert(jnp.arange(3.0), 1, 5), ([0.0, 5.0, 1.0, 2.0], "float32", False)),
    (
        "ins_empty",
        lambda: jnp.insert(
            jnp.arange(3), jnp.array([], dtype=jnp.int32), jnp.array([], dtype=jnp.int32)
        ),
        ([0, 1, 2], "int32", False),
    ),
    (
        "place_w",
        lambda: jnp.place(jnp.arange(3.0), jnp.array([True, False, True]), 7, inplace=False),
        ([7.0, 1.0, 7.0], "float32", False),
    ),
    (
        "pala_neg",
        lambda: jnp.put_along_axis(
            jnp.zeros((2, 2)),
            jnp.array([[1], [0]]),
            jnp.array([[5.0], [6.0]]),
            axis=-1,
            inplace=False,
        ),
        ([[0.0, 5.0], [6.0, 0.0]], "float32", False),
    ),
    (
        "del_empty",
        lambda: jnp.delete(jnp.arange(3), jnp.array([], dtype=jnp.int32)),
        ([0, 1, 2], "int32", False),
    ),
    (
        "ins_zero_axis",
        lambda: jnp.insert(jnp.zeros((2, 0)), 0, 1.0, axis=1),
        ([[1.0], [1.0]], "float32", False),
    ),
    (
        "fill_diag_w",
        lambda: jnp.fill_diagonal(jnp.zeros((2, 2), jnp.int32), 2.7, inplace=False),
        ([[2, 0], [0, 2]], "int32", False),
    ),
    (
        "put_w",
        lambda: jnp.put(jnp.arange(3), jnp.array([0]), 9.9, inplace=False),
        ([9, 1, 2], "int32", False),
    ),
    (
        "delete_2d_none_mask",
        lambda: jnp.delete(jnp.arange(4).reshape(2, 2), jnp.array([True, False, False, True])),
        ([1, 2], "int32", False),
    ),
]


@pytest.mark.parametrize("name, thunk, want", KNOWN, ids=[c[0] for c in KNOWN])
def test_known_answers(name, thunk, want):
    check(thunk(), want)


A = np.arange(12, dtype=np.float32).reshape(3, 4)


@pytest.mark.parametrize(
    "obj, values, axis",
    [
        (0, 5.0, None),
        (12, [1.0, 2.0], None),
        ([1, 1, 5], [7.0, 8.0, 9.0], None),
        (slice(1, 3), -1.0, 1),
        (2, [[1.0], [2.0], [3.0]], 1),
        ([0, 3], [[1.0, 2.0, 3.0, 4.0]], 0),
        (-1, 0.5, 0),
    ],
)
def test_insert_matches_numpy(obj, values, axis):
    index = np.asarray(obj) if isinstance(obj, list) else obj  # jnp takes no lists, as JAX
    got = jnp.insert(A, index, np.asarray(values, np.float32), axis=axis)
    np.testing.assert_array_equal(np.asarray(got), np.insert(A, obj, values, axis=axis))


@pytest.mark.parametrize(
    "obj, axis",
    [
        (0, None),
        (-1, 1),
        (slice(None, None, 2), 0),
        ([0, 2], 1),
        ([5, 0, 5], None),
        (np.array([True, False, True]), 0),
    ],
)
def test_delete_matches_numpy(obj, axis):
    got = jnp.delete(A, np.asarray(obj) if isinstance(obj, list) else obj, axis=axis)
    np.testing.assert_array_equal(np.asarray(got), np.delete(A, obj, axis=axis))


@pytest.mark.parametrize(
    "ind, mode", [([0, 5, -1], "clip"), ([0, 13, -15], "wrap"), ([2, 11], None)]
)
def test_put_matches_numpy(ind, mode):
    want = A.copy()
    np.put(want, ind, [10.0, 20.0], mode=mode or "raise")
    got = jnp.put(A, jnp.array(ind), jnp.array([10.0, 20.0]), mode=mode, inplace=False)
    np.testing.assert_array_equal(np.asarray(got), want)


def test_place_and_fill_diagonal_match_numpy():
    mask = A % 3 == 0
    want = A.copy()
    np.place(want, mask, [-1.0, -2.0, -3.0])
    got = jnp.place(A, mask, jnp.array([-1.0, -2.0, -3.0]), inplace=False)
    np.testing.assert_array_equal(np.asarray(got), want)
    want = A.copy()
    np.fill_diagonal(want, [7.0, 8.0])
    got = jnp.fill_diagonal(A, jnp.array([7.0, 8.0]), inplace=False)
    np.testing.assert_array_equal(np.asarray(got), want)


def test_put_along_axis_inverts_take_along_axis():
    idx = np.argsort(A * np.array([1, -1, 1, -1], np.float32), axis=1)[:, :2]
    want = A.copy()
    np.put_along_axis(want, idx, 0.0, axis=1)
    got = jnp.put_along_axis(A, idx, 0.0, axis=1, inplace=False)
    np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda: jnp.place(A, A > 1, 0.0), ValueError),
        (lambda: jnp.put(A, [0], 0.0), ValueError),
        (lambda: jnp.put_along_axis(A, np.zeros((3, 1), np.int32), 0.0, axis=1), ValueError),
        (lambda: jnp.fill_diagonal(A, 0.0), NotImplementedError),
        (lambda: jnp.fill_diagonal(A, 0.0, wrap=True, inplace=False), NotImplementedError),
        (lambda: jnp.fill_diagonal(np.zeros(3), 0.0, inplace=False), ValueError),
        (lambda: jnp.fill_diagonal(np.zeros((2, 2, 3)), 0.0, inplace=False), ValueError),
        (
            lambda: jnp.put(A, np.zeros(1, int), 1.0, mode="raise", inplace=False),
            NotImplementedError,
        ),
        (lambda: jnp.put(A, np.zeros(1, int), 1.0, mode="bad", inplace=False), ValueError),
        (lambda: jnp.place(A, np.ones(3, bool), 1.0, inplace=False), ValueError),
        (lambda: jnp.place(A, A > 1, np.zeros(0), inplace=False), ValueError),
        (
            lambda: jnp.put_along_axis(A, np.zeros(3, np.int32), 0.0, axis=1, inplace=False),
            ValueError,
        ),
        (lambda: jnp.insert(A, np.array([[1]]), 0.0), ValueError),
        (lambda: jnp.insert(A, np.array([1.5]), 0.0), ValueError),
        (lambda: jnp.delete(A, np.array([1.5])), ValueError),
        (lambda: jnp.delete(A, np.array([True]), axis=0), ValueError),
    ],
)
def test_errors(call, error):
    with pytest.raises(error):
        call()


def test_delete_traced_indices_need_assume_unique():
    with pytest.raises(ConcretizationTypeError, match="assume_unique_indices"):
        core.jit(lambda i: jnp.delete(jnp.arange(4.0), i))(jnp.array([1]))


def test_under_jit_vmap_grad():
    def f(x, i):
        y = jnp.insert(x, i, 9.0)
        y = jnp.delete(y, jnp.array([0]), assume_unique_indices=True)
        return jnp.put(y, i, 0.0, inplace=False)

    x, i = jnp.arange(4.0), jnp.array([1, 3])
    np.testing.assert_array_equal(np.asarray(core.jit(f)(x, i)), np.asarray(f(x, i)))
    np.testing.assert_array_equal(np.asarray(f(x, i)), [9.0, 0.0, 2.0, 0.0, 3.0])
    rows = core.vmap(lambda r: jnp.fill_diagonal(r, 5.0, inplace=False))(jnp.zeros((2, 2, 2)))
    np.testing.assert_array_equal(np.asarray(rows), np.tile(np.diag([5.0, 5.0]), (2, 1, 1)))
    g = core.grad(lambda v: (jnp.insert(v, 1, 5.0) * jnp.arange(4.0)).sum())(jnp.arange(3.0))
    np.testing.assert_array_equal(np.asarray(g), [0.0, 2.0, 3.0])
    g = core.grad(lambda s: jnp.fill_diagonal(jnp.ones((2, 3)), s, inplace=False).sum())(2.0)
    assert float(g) == 2.0
