"""Dynamic indexing (gather, scatter, dynamic_slice, dynamic_update_slice, rev) through the
public API under `jit` (numba) against the numpy backend, for every dtype: values and dtypes.

One jitted function applies every indexing form (a subset for the rarer dtypes), so few
programs are compiled.
Indices include negative (wrapped by `core.numpy`), out-of-bounds (clamped on reads, dropped
on `.at[]` updates) and repeated ones (combined in order).
"""

import numpy as np
import pytest

import core.numpy as jnp
from core import lax
from tests.core.jit.backends import compare

ROWS = np.array([2, -1, 0, 2, 7, -9], np.int32)  # repeats, negatives, out of bounds
COLS = np.array([[0, 3], [1, -2]], np.int32)


def indexing_ops(x, rows, cols, start, v):
    """x: (3, 4); v: a (4,) row of x's dtype; start: an int32 scalar."""
    return {
        "rows": x[rows],
        "cols": x[:, cols],
        "pairs": x[rows[:4], rows[:4] + 1],
        "scalar": x[start, 1],
        "take_fill": jnp.take(x, rows, axis=1, mode="fill", fill_value=0),
        "take_along": jnp.take_along_axis(x, cols[:1], axis=1),
        "set": x.at[rows].set(jnp.broadcast_to(v, (6, 4))),
        "add": x.at[rows, 1].add(v[0]),
        "mul": x.at[:, cols].multiply(x[0, 0]),
        "min": x.at[rows[:3]].min(v),
        "max": x.at[rows[:3]].max(v),
        "clip": x.at[rows, 0].add(v[1], mode="clip"),
        "flip": jnp.flip(x, 0),
        "reversed": x[::-1, ::-2],
        "dslice": lax.dynamic_slice(x, (start, start - 1), (2, 3)),
        "dupdate": lax.dynamic_update_slice(x, x[:2, :2], (start, start + 5)),
    }


def _values(dtype):
    x = np.array([[1, -2, 3, 0], [5, 1, -7, 2], [4, 4, -1, 6]])
    if dtype == np.bool_:
        return x > 0, np.array([True, False, True, False])
    if np.dtype(dtype).kind == "u":
        x = np.abs(x)
    v = np.array([9, 0, 2, 1])
    if np.dtype(dtype).kind == "f":
        x, v = x + 0.5, v - 0.25
        x[1, 2] = np.nan
    return x.astype(dtype), v.astype(dtype)


def few_ops(x, rows, cols, start, v):
    """A subset of `indexing_ops` (one of each primitive and scatter kind) for the other dtypes.
    A bool array adds and multiplies Python ints (int32 scatters, as JAX: bool ones raise)."""
    boolean = x.dtype == jnp.bool_
    return {
        "rows": x[rows],
        "take_fill": jnp.take(x, rows, axis=1, mode="fill", fill_value=0),
        "add": x.at[rows, 1].add(1 if boolean else v[0]),
        "max": x.at[rows[:3]].max(v),
        "mul": x.at[:, cols].multiply(0 if boolean else x[0, 0]),
        "reversed": x[::-1, ::-2],
        "dslice": lax.dynamic_slice(x, (start, start - 1), (2, 3)),
        "dupdate": lax.dynamic_update_slice(x, x[:2, :2], (start, start + 5)),
    }


@pytest.mark.parametrize(
    "ops, dtype",
    [
        (indexing_ops, np.float32),
        (indexing_ops, np.int32),
        (few_ops, np.float64),
        (few_ops, np.uint8),
        (few_ops, np.bool_),
    ],
)
def test_indexing_matches_numpy_backend(ops, dtype):
    x, v = _values(dtype)
    compare(ops, x, ROWS, COLS, np.int32(2), v)


def test_scatter_drops_out_of_bounds_and_clamps_slices():
    """Known answers (numpy semantics, checked against JAX)."""
    x = np.zeros((3, 2), np.float32)
    idx = np.array([0, 3, 0, -4], np.int32)

    def f(x, i):
        return x.at[i].add(1.0), lax.dynamic_slice(x + 1, (i[1], np.int32(0)), (2, 2))

    added, window = compare(f, x, idx)
    np.testing.assert_array_equal(added, [[2, 2], [0, 0], [0, 0]])
    np.testing.assert_array_equal(window, np.ones((2, 2)))


def test_embedding_lookup_and_gradient():
    """The gather of an embedding table and its scatter-add transpose, in one program."""
    import core

    table = np.arange(12, dtype=np.float32).reshape(6, 2)
    ids = np.array([[1, 1], [5, 0]], np.int32)

    def loss(t, i):
        return jnp.sum(jnp.take(t, i, axis=0) ** 2)

    grad = compare(core.grad(loss), table, ids)[0]
    want = np.zeros_like(table)
    np.add.at(want, ids.reshape(-1), 2 * table[ids.reshape(-1)])
    np.testing.assert_allclose(grad, want)
