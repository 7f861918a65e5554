"""`lax.gather` / `lax.scatter*` with XLA dimension numbers, against answers recorded from JAX.

Every case is a table row: operand `arange(n) - 3` in the given shape and dtype, the indices, the
dimension-number fields and the window sizes (gather) or updates shape (scatter, updates
`2 * (arange(n) % 7 - 2)`). The wanted values were recorded with `jax.lax` 0.10.2 on CPU.
"""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax

NAN = float("nan")

# (id, operand shape, dtype, indices, dimension numbers, slice sizes, mode, fill_value)
GATHER = [
    ("take_rows", (4, 3), "float32", [[2], [0], [3]], ((1,), (0,), (0,)), (1, 3), None, None),
    ("take_cols", (2, 3, 4), "float32", [[1], [0]], ((0, 2), (1,), (1,)), (2, 1, 4), None, None),
    (
        "two_axes",
        (2, 3, 4),
        "float32",
        [[1, 3], [0, 0]],
        ((1,), (0, 2), (0, 2)),
        (1, 3, 1),
        None,
        None,
    ),
    ("offset_first", (3, 4), "float32", [[1], [2]], ((0,), (0,), (0,)), (1, 4), None, None),
    (
        "batch_2d",
        (4, 2),
        "float32",
        [[[1], [3]], [[0], [9]]],
        ((2,), (0,), (0,)),
        (1, 2),
        None,
        None,
    ),
    (
        "window_clip",
        (5, 6),
        "float32",
        [[1, 2], [4, 5], [-1, 0]],
        ((1, 2), (), (0, 1)),
        (2, 3),
        "clip",
        None,
    ),
    (
        "window_fill",
        (5, 6),
        "float32",
        [[1, 2], [4, 5], [-1, 0], [3, 3]],
        ((1, 2), (), (0, 1)),
        (2, 3),
        "fill",
        None,
    ),
    (
        "window_promise",
        (5, 6),
        "float32",
        [[1, 2], [4, 5]],
        ((1, 2), (), (0, 1)),
        (2, 3),
        "promise_in_bounds",
        None,
    ),
    ("int_default_clamps", (4,), "int32", [[5], [1], [-1]], ((), (0,), (0,)), (1,), None, None),
    ("int_fill_value", (4,), "int32", [[5], [1]], ((), (0,), (0,)), (1,), "fill", -7),
    ("uint_indices", (4, 2), "float32", [[3], [200]], ((1,), (0,), (0,)), (1, 2), "clip", None),
    (
        "take_along_axis",
        (2, 3, 4),
        "float32",
        [[[[3]], [[0]], [[1]]], [[[2]], [[2]], [[0]]]],
        ((), (2,), (2,), (0, 1), (0, 1)),
        (1, 1, 1),
        None,
        None,
    ),
    (
        "vmapped_rows",
        (2, 3, 4),
        "float32",
        [[1, 0], [2, 0]],
        ((1, 2), (), (1, 2), (0,), (0,)),
        (1, 1, 4),
        None,
        None,
    ),
]
# (id, operand shape, dtype, indices, dimension numbers, updates shape, mode)
SCATTER = [
    ("at_cols", (2, 3, 4), "float32", [[1], [0], [1]], ((0, 2), (1,), (1,)), (2, 3, 4), None),
    ("at_rows_oob", (4, 3), "float32", [[2], [0], [5]], ((1,), (0,), (0,)), (3, 3), None),
    ("at_rows_clip", (4, 3), "float32", [[2], [0], [5]], ((1,), (0,), (0,)), (3, 3), "clip"),
    ("window_drop", (5, 6), "float32", [[1, 2], [4, 5]], ((1, 2), (), (0, 1)), (2, 2, 3), None),
    ("window_clip", (5, 6), "float32", [[1, 2], [4, 5]], ((1, 2), (), (0, 1)), (2, 2, 3), "clip"),
    ("window_first", (3, 4), "float32", [[0], [2]], ((0,), (1,), (1,)), (3, 2), None),
    ("batching", (2, 3), "float32", [[1], [2]], ((), (1,), (1,), (0,), (0,)), (2,), None),
]
KINDS = ["scatter", "scatter_add", "scatter_sub", "scatter_mul", "scatter_min", "scatter_max"]

# recorded from jax.lax
GATHER_WANT = {
    "take_rows": [[3.0, 4.0, 5.0], [-3.0, -2.0, -1.0], [6.0, 7.0, 8.0]],
    "take_cols": [
        [[1.0, 2.0, 3.0, 4.0], [-3.0, -2.0, -1.0, 0.0]],
        [[13.0, 14.0, 15.0, 16.0], [9.0, 10.0, 11.0, 12.0]],
    ],
    "two_axes": [[12.0, 16.0, 20.0], [-3.0, 1.0, 5.0]],
    "offset_first": [[1.0, 5.0], [2.0, 6.0], [3.0, 7.0], [4.0, 8.0]],
    "batch_2d": [[[-1.0, 0.0], [3.0, 4.0]], [[-3.0, -2.0], [3.0, 4.0]]],
    "window_clip": [
        [[5.0, 6.0, 7.0], [11.0, 12.0, 13.0]],
        [[18.0, 19.0, 20.0], [24.0, 25.0, 26.0]],
        [[-3.0, -2.0, -1.0], [3.0, 4.0, 5.0]],
    ],
    "window_fill": [
        [[5.0, 6.0, 7.0], [11.0, 12.0, 13.0]],
        [[NAN, NAN, NAN], [NAN, NAN, NAN]],
        [[NAN, NAN, NAN], [NAN, NAN, NAN]],
        [[18.0, 19.0, 20.0], [24.0, 25.0, 26.0]],
    ],
    "window_promise": [
        [[5.0, 6.0, 7.0], [11.0, 12.0, 13.0]],
        [[18.0, 19.0, 20.0], [24.0, 25.0, 26.0]],
    ],
    "int_default_clamps": [0, -2, -3],
    "int_fill_value": [-7, -2],
    "uint_indices": [[3.0, 4.0], [3.0, 4.0]],
    "take_along_axis": [[[0.0], [1.0], [6.0]], [[11.0], [15.0], [17.0]]],
    "vmapped_rows": [[[1.0, 2.0, 3.0, 4.0]], [[17.0, 18.0, 19.0, 20.0]]],
}
SCATTER_WANT = {
    "at_cols": {
        "scatter": [
            [[4.0, 6.0, 8.0, -4.0], [-2.0, 0.0, 2.0, 4.0], [5.0, 6.0, 7.0, 8.0]],
            [[0.0, 2.0, 4.0, 6.0], [8.0, -4.0, -2.0, 0.0], [17.0, 18.0, 19.0, 20.0]],
        ],
        "scatter_add": [
            [[1.0, 4.0, 7.0, -4.0], [-5.0, 0.0, 5.0, 10.0], [5.0, 6.0, 7.0, 8.0]],
            [[9.0, 12.0, 15.0, 18.0], [27.0, 18.0, 9.0, 14.0], [17.0, 18.0, 19.0, 20.0]],
        ],
        "scatter_sub": [
            [[-7.0, -8.0, -9.0, 4.0], [7.0, 4.0, 1.0, -2.0], [5.0, 6.0, 7.0, 8.0]],
            [[9.0, 8.0, 7.0, 6.0], [-1.0, 10.0, 21.0, 18.0], [17.0, 18.0, 19.0, 20.0]],
        ],
        "scatter_mul": [
            [[-12.0, -12.0, -8.0, -0.0], [8.0, -0.0, 0.0, 32.0], [5.0, 6.0, 7.0, 8.0]],
            [[0.0, 20.0, 44.0, 72.0], [624.0, -448.0, 120.0, -0.0], [17.0, 18.0, 19.0, 20.0]],
        ],
        "scatter_min": [
            [[-3.0, -2.0, -1.0, -4.0], [-4.0, -2.0, 0.0, 2.0], [5.0, 6.0, 7.0, 8.0]],
            [[0.0, 2.0, 4.0, 6.0], [6.0, -4.0, -4.0, -2.0], [17.0, 18.0, 19.0, 20.0]],
        ],
        "scatter_max": [
            [[4.0, 6.0, 8.0, 0.0], [1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]],
            [[9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0], [17.0, 18.0, 19.0, 20.0]],
        ],
    },
    "at_rows_oob": {
        "scatter": [[2.0, 4.0, 6.0], [0.0, 1.0, 2.0], [-4.0, -2.0, 0.0], [6.0, 7.0, 8.0]],
        "scatter_add": [[-1.0, 2.0, 5.0], [0.0, 1.0, 2.0], [-1.0, 2.0, 5.0], [6.0, 7.0, 8.0]],
        "scatter_sub": [[-5.0, -6.0, -7.0], [0.0, 1.0, 2.0], [7.0, 6.0, 5.0], [6.0, 7.0, 8.0]],
        "scatter_mul": [[-6.0, -8.0, -6.0], [0.0, 1.0, 2.0], [-12.0, -8.0, 0.0], [6.0, 7.0, 8.0]],
        "scatter_min": [[-3.0, -2.0, -1.0], [0.0, 1.0, 2.0], [-4.0, -2.0, 0.0], [6.0, 7.0, 8.0]],
        "scatter_max": [[2.0, 4.0, 6.0], [0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]],
    },
    "at_rows_clip": {
        "scatter": [[2.0, 4.0, 6.0], [0.0, 1.0, 2.0], [-4.0, -2.0, 0.0], [8.0, -4.0, -2.0]],
        "scatter_add": [[-1.0, 2.0, 5.0], [0.0, 1.0, 2.0], [-1.0, 2.0, 5.0], [14.0, 3.0, 6.0]],
        "scatter_sub": [[-5.0, -6.0, -7.0], [0.0, 1.0, 2.0], [7.0, 6.0, 5.0], [-2.0, 11.0, 10.0]],
        "scatter_mul": [
            [-6.0, -8.0, -6.0],
            [0.0, 1.0, 2.0],
            [-12.0, -8.0, 0.0],
            [48.0, -28.0, -16.0],
        ],
        "scatter_min": [[-3.0, -2.0, -1.0], [0.0, 1.0, 2.0], [-4.0, -2.0, 0.0], [6.0, -4.0, -2.0]],
        "scatter_max": [[2.0, 4.0, 6.0], [0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [8.0, 7.0, 8.0]],
    },
    "window_drop": {
        "scatter": [
            [-3.0, -2.0, -1.0, 0.0, 1.0, 2.0],
            [3.0, 4.0, -4.0, -2.0, 0.0, 8.0],
            [9.0, 10.0, 2.0, 4.0, 6.0, 14.0],
            [15.0, 16.0, 17.0, 18.0, 19.0, 20.0],
            [21.0, 22.0, 23.0, 24.0, 25.0, 26.0],
        ],
        "scatter_add": [
            [-3.0, -2.0, -1.0, 0.0, 1.0, 2.0],
            [3.0, 4.0, 1.0, 4.0, 7.0, 8.0],
            [9.0, 10.0, 13.0, 16.0, 19.0, 14.0],
            [15.0, 16.0, 17.0, 18.0, 19.0, 20.0],
            [21.0, 22.0, 23.0, 24.0, 25.0, 26.0],
        ],
        "scatter_sub": [
            [-3.0, -2.0, -1.0, 0.0, 1.0, 2.0],
            [3.0, 4.0, 9.0, 8.0, 7.0, 8.0],
            [9.0, 10.0, 9.0, 8.0, 7.0, 14.0],
            [15.0, 16.0, 17.0, 18.0, 19.0, 20.0],
            [21.0, 22.0, 23.0, 24.0, 25.0, 26.0],
        ],
        "scatter_mul": [
            [-3.0, -2.0, -1.0, 0.0, 1.0, 2.0],
            [3.0, 4.0, -20.0, -12.0, 0.0, 8.0],
            [9.0, 10.0, 22.0, 48.0, 78.0, 14.0],
            [15.0, 16.0, 17.0, 18.0, 19.0, 20.0],
            [21.0, 22.0, 23.0, 24.0, 25.0, 26.0],
        ],
        "scatter_min": [
            [-3.0, -2.0, -1.0, 0.0, 1.0, 2.0],
            [3.0, 4.0, -4.0, -2.0, 0.0, 8.0],
            [9.0, 10.0, 2.0, 4.0, 6.0, 14.0],
            [15.0, 16.0, 17.0, 18.0, 19.0, 20.0],
            [21.0, 22.0, 23.0, 24.0, 25.0, 26.0],
        ],
        "scatter_max": [
            [-3.0, -2.0, -1.0, 0.0, 1.0, 2.0],
            [3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
            [9.0, 10.0, 11.0, 12.0, 13.0, 14.0],
            [15.0, 16.0, 17.0, 18.0, 19.0, 20.0],
            [21.0, 22.0, 23.0, 24.0, 25.0, 26.0],
        ],
    },
    "window_clip": {
        "scatter": [
            [-3.0, -2.0, -1.0, 0.0, 1.0, 2.0],
            [3.0, 4.0, -4.0, -2.0, 0.0, 8.0],
            [9.0, 10.0, 2.0, 4.0, 6.0, 14.0],
            [15.0, 16.0, 17.0, 8.0, -4.0, -2.0],
            [21.0, 22.0, 23.0, 0.0, 2.0, 4.0],
        ],
        "scatter_add": [
            [-3.0, -2.0, -1.0, 0.0, 1.0, 2.0],
            [3.0, 4.0, 1.0, 4.0, 7.0, 8.0],
            [9.0, 10.0, 13.0, 16.0, 19.0, 14.0],
            [15.0, 16.0, 17.0, 26.0, 15.0, 18.0],
            [21.0, 22.0, 23.0, 24.0, 27.0, 30.0],
        ],
        "scatter_sub": [
            [-3.0, -2.0, -1.0, 0.0, 1.0, 2.0],
            [3.0, 4.0, 9.0, 8.0, 7.0, 8.0],
            [9.0, 10.0, 9.0, 8.0, 7.0, 14.0],
            [15.0, 16.0, 17.0, 10.0, 23.0, 22.0],
            [21.0, 22.0, 23.0, 24.0, 23.0, 22.0],
        ],
        "scatter_mul": [
            [-3.0, -2.0, -1.0, 0.0, 1.0, 2.0],
            [3.0, 4.0, -20.0, -12.0, 0.0, 8.0],
            [9.0, 10.0, 22.0, 48.0, 78.0, 14.0],
            [15.0, 16.0, 17.0, 144.0, -76.0, -40.0],
            [21.0, 22.0, 23.0, 0.0, 50.0, 104.0],
        ],
        "scatter_min": [
            [-3.0, -2.0, -1.0, 0.0, 1.0, 2.0],
            [3.0, 4.0, -4.0, -2.0, 0.0, 8.0],
            [9.0, 10.0, 2.0, 4.0, 6.0, 14.0],
            [15.0, 16.0, 17.0, 8.0, -4.0, -2.0],
            [21.0, 22.0, 23.0, 0.0, 2.0, 4.0],
        ],
        "scatter_max": [
            [-3.0, -2.0, -1.0, 0.0, 1.0, 2.0],
            [3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
            [9.0, 10.0, 11.0, 12.0, 13.0, 14.0],
            [15.0, 16.0, 17.0, 18.0, 19.0, 20.0],
            [21.0, 22.0, 23.0, 24.0, 25.0, 26.0],
        ],
    },
    "window_first": {
        "scatter": [[-4.0, -2.0, -2.0, 0.0], [0.0, 2.0, 2.0, 4.0], [4.0, 6.0, 6.0, 8.0]],
        "scatter_add": [[-7.0, -2.0, -3.0, 0.0], [1.0, 2.0, 5.0, 4.0], [9.0, 6.0, 13.0, 8.0]],
        "scatter_sub": [[1.0, -2.0, 1.0, 0.0], [1.0, 2.0, 1.0, 4.0], [1.0, 6.0, 1.0, 8.0]],
        "scatter_mul": [[12.0, -2.0, 2.0, 0.0], [0.0, 2.0, 6.0, 4.0], [20.0, 6.0, 42.0, 8.0]],
        "scatter_min": [[-4.0, -2.0, -2.0, 0.0], [0.0, 2.0, 2.0, 4.0], [4.0, 6.0, 6.0, 8.0]],
        "scatter_max": [[-3.0, -2.0, -1.0, 0.0], [1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]],
    },
    "batching": {
        "scatter": [[-3.0, -4.0, -1.0], [0.0, 1.0, -2.0]],
        "scatter_add": [[-3.0, -6.0, -1.0], [0.0, 1.0, 0.0]],
        "scatter_sub": [[-3.0, 2.0, -1.0], [0.0, 1.0, 4.0]],
        "scatter_mul": [[-3.0, 8.0, -1.0], [0.0, 1.0, -4.0]],
        "scatter_min": [[-3.0, -4.0, -1.0], [0.0, 1.0, -2.0]],
        "scatter_max": [[-3.0, -2.0, -1.0], [0.0, 1.0, 2.0]],
    },
}


def _operand(shape, dtype):
    return (np.arange(np.prod(shape)) - 3).reshape(shape).astype(dtype)


def _updates(shape, dtype):
    return (np.arange(np.prod(shape)) % 7 - 2).reshape(shape).astype(dtype) * 2


def _indices(cid, idx):
    return np.array(idx, np.uint8 if cid == "uint_indices" else np.int32)


@pytest.mark.parametrize(
    "cid,shape,dtype,idx,dn,sizes,mode,fill", GATHER, ids=[c[0] for c in GATHER]
)
def test_gather(cid, shape, dtype, idx, dn, sizes, mode, fill):
    out = lax.gather(
        _operand(shape, dtype),
        _indices(cid, idx),
        lax.GatherDimensionNumbers(*dn),
        sizes,
        mode=mode,
        fill_value=fill,
    )
    want = np.array(GATHER_WANT[cid], dtype)
    assert out.dtype == want.dtype
    np.testing.assert_array_equal(np.asarray(out), want)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("cid,shape,dtype,idx,dn,ushape,mode", SCATTER, ids=[c[0] for c in SCATTER])
def test_scatter(cid, shape, dtype, idx, dn, ushape, mode, kind):
    out = getattr(lax, kind)(
        _operand(shape, dtype),
        np.array(idx, np.int32),
        _updates(ushape, dtype),
        lax.ScatterDimensionNumbers(*dn),
        mode=mode,
    )
    np.testing.assert_array_equal(np.asarray(out), np.array(SCATTER_WANT[cid][kind], dtype))


_X = np.arange(12.0, dtype=np.float32).reshape(4, 3)
_ROWS = lax.GatherDimensionNumbers((1,), (0,), (0,))
_SET_ROWS = lax.ScatterDimensionNumbers((1,), (0,), (0,))


def test_gather_grad_fills_nothing_back():
    idx = np.array([[2], [0], [2], [7]])
    f = lambda x: jnp.sum(lax.gather(x, idx, _ROWS, (1, 3), mode="fill", fill_value=0.0) * _X)  # noqa: E731
    want = [[3.0, 4.0, 5.0], [0.0, 0.0, 0.0], [6.0, 8.0, 10.0], [0.0, 0.0, 0.0]]
    np.testing.assert_array_equal(np.asarray(core.grad(f)(_X)), want)


@pytest.mark.parametrize(
    "kind,want_x,want_u",
    [  # recorded with jax.grad (scatter_mul with unique_indices=True, as JAX requires)
        (
            "scatter",
            [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [9.0, 10.0, 11.0]],
            [[6.0, 7.0, 8.0], [0.0, 1.0, 2.0], [0.0, 0.0, 0.0], [3.0, 4.0, 5.0]],
        ),
        (
            "scatter_mul",
            [[0.0, 5.0, 12.0], [30.0, 44.0, 60.0], [6.0, 14.0, 24.0], [9.0, 10.0, 11.0]],
            [[42.0, 56.0, 72.0], [0.0, 2.0, 6.0], [0.0, 0.0, 0.0], [12.0, 20.0, 30.0]],
        ),
    ],
)
def test_scatter_grads(kind, want_x, want_u):
    idx = np.array([[2], [0], [7], [1]])
    x = _X + 1 if kind == "scatter_mul" else _X

    def f(x, u):
        return jnp.sum(getattr(lax, kind)(x, idx, u, _SET_ROWS, unique_indices=True) * _X)

    gx, gu = core.grad(f, (0, 1))(x, _X + 1)
    np.testing.assert_array_equal(np.asarray(gx), want_x)
    np.testing.assert_array_equal(np.asarray(gu), want_u)


def test_vmap_and_jit():
    xs = np.arange(24.0, dtype=np.float32).reshape(2, 4, 3)
    ids = np.array([[[1], [3]], [[0], [0]]])
    want = [[[3.0, 4.0, 5.0], [9.0, 10.0, 11.0]], [[12.0, 13.0, 14.0], [12.0, 13.0, 14.0]]]
    g = lambda a, i: lax.gather(a, i, _ROWS, (1, 3))  # noqa: E731
    np.testing.assert_array_equal(np.asarray(core.vmap(g)(xs, ids)), want)
    np.testing.assert_array_equal(np.asarray(core.jit(core.vmap(g))(xs, ids)), want)
    cid, shape, dtype, idx, dn, ushape, mode = SCATTER[3]
    s = core.jit(
        lambda x, u: lax.scatter_add(x, np.array(idx), u, lax.ScatterDimensionNumbers(*dn))
    )
    out = s(_operand(shape, dtype), _updates(ushape, dtype))
    np.testing.assert_array_equal(np.asarray(out), SCATTER_WANT[cid]["scatter_add"])


def test_scatter_apply():
    dn = lax.ScatterDimensionNumbers((), (0,), (0,))
    f = lambda v: v * 3 + 1  # noqa: E731
    out = lax.scatter_apply(jnp.arange(5.0), np.array([[1], [3], [9]]), f, dn, update_shape=(3,))
    np.testing.assert_array_equal(np.asarray(out), [0.0, 4.0, 2.0, 10.0, 4.0])


@pytest.mark.parametrize(
    "call,err,match",
    [
        (
            lambda: lax.gather(_X, np.array([[1]]), _ROWS, (1, 3), mode="one_hot"),
            lax.GatherScatterUnsupportedError,
            "ONE_HOT",
        ),
        (
            lambda: lax.gather(_X, np.array([[1]]), _ROWS, (1, 3), mode="bogus"),
            ValueError,
            "Unknown gather mode",
        ),
        (
            lambda: lax.gather(_X, np.array([[1, 0]]), _ROWS, (1, 3)),
            core.errors.ShapeError,
            "Gather op has 1 elements in start_index_map",
        ),
        (
            lambda: lax.gather(_X, np.array([[1]]), _ROWS, (2, 3)),
            core.errors.ShapeError,
            "can only collapse slice dims with bound 1",
        ),
        (
            lambda: lax.gather(
                _X, np.array([[1]]), lax.GatherDimensionNumbers((0, 1), (0,), (0,)), (1, 3)
            ),
            core.errors.ShapeError,
            "must either be a offset dimension",
        ),
        (
            lambda: lax.scatter(_X, np.array([[1]]), np.ones((2, 3), np.float32), _SET_ROWS),
            core.errors.ShapeError,
            "Bounds of the scatter dimensions of updates",
        ),
    ],
)
def test_errors(call, err, match):
    with pytest.raises(err, match=match):
        call()
