"""sort (one and several keys), argsort, top_k and the cumulative reductions through the public
API under `jit` (numba) against the numpy backend: values and dtypes, NaNs last, stable ties."""

import numpy as np
import pytest

import core.numpy as jnp
from core import lax
from tests.core.jit.backends import compare


def sort_ops(x, y):
    """x, y: (3, 4) of one dtype (lax's cumulative reductions take numbers only, as JAX's)."""
    cum = (
        {}
        if x.dtype == jnp.bool_
        else {
            "cumsum": lax.cumsum(x, axis=1),
            "cumprod": lax.cumprod(x, axis=0, reverse=True),
            "cummax": lax.cummax(x, axis=1, reverse=True),
            "cummin": lax.cummin(x, axis=0),
        }
    )
    return cum | {
        "sort0": jnp.sort(x, axis=0),
        "sort1": jnp.sort(x),
        "argsort": jnp.argsort(x, axis=0),
        "argsort_desc": jnp.argsort(x, descending=True),
        "two_keys": lax.sort((x, y, jnp.arange(12).reshape(3, 4)), dimension=1, num_keys=2),
        "key_val": lax.sort_key_val(x, y, dimension=0),
        "top_k": lax.top_k(x, 3),
        "jnp_cumsum": jnp.cumsum(x, axis=0),
    }


def _values(dtype):
    x = np.array([[3, -1, 3, 0], [2, 2, -5, 3], [1, 3, 3, -1]])
    y = np.array([[1, 0, 0, 1], [0, 1, 1, 0], [1, 1, 0, 0]])
    if dtype == np.bool_:
        return x > 0, y > 0
    if np.dtype(dtype).kind == "u":
        x = np.abs(x)
    x, y = x.astype(dtype), y.astype(dtype)
    if np.dtype(dtype).kind == "f":
        x[0, 1], x[2, 0], x[1, 1] = np.nan, -0.0, 0.0
    return x, y


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.uint8, np.bool_])
def test_sorting_matches_numpy_backend(dtype):
    compare(sort_ops, *_values(dtype))


def test_known_answers():
    """NaN sorts last (first in top_k), ties keep index order; values checked against JAX."""
    x = np.array([2.0, np.nan, 1.0, 2.0, -1.0], np.float32)

    def f(x):
        return jnp.argsort(x), lax.top_k(x, 3)[1], lax.cummax(x)

    order, top, running = compare(f, x)
    np.testing.assert_array_equal(order, [4, 2, 0, 3, 1])
    np.testing.assert_array_equal(top, [1, 0, 3])
    np.testing.assert_array_equal(running, [2, np.nan, np.nan, np.nan, np.nan])
