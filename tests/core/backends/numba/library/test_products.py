"""The kernels' matrix product `lib.dot` (core/backends/numba/library/products.py), called
from numba code as generated kernels call it, against numpy: every operand layout, BLAS dtypes,
an empty inner dimension, and the threaded bands (one call of `gemm_bands`) from Python."""

import numpy as np
import pytest
from numba import njit

from core.backends.numba import library as lib
from core.jit import runtime as rt

rng = np.random.default_rng(0)


@njit
def _products(a, b):
    ab = rt.empty((a.shape[0], b.shape[1]), a.dtype)
    lib.dot(a, b, ab)
    atb = rt.empty((a.shape[1], b.shape[1]), a.dtype)
    lib.dot(rt.copy(a[: b.shape[0]]).T, b, atb)
    abt = rt.empty((a.shape[0], a.shape[0]), a.dtype)
    lib.dot(a, a.T, abt)
    return ab, atb, abt


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64])
def test_dot_in_every_layout(dtype):
    a = rng.standard_normal((5, 4)).astype(dtype)
    b = rng.standard_normal((4, 3)).astype(dtype)
    a.flags.writeable = False  # kernel arguments are read-only
    ab, atb, abt = _products(a, b)
    np.testing.assert_allclose(ab, a @ b, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(atb, a[:4].T @ b, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(abt, a @ a.T, rtol=1e-5, atol=1e-5)


def test_dot_with_an_empty_inner_dimension_is_zero():
    @njit
    def f(a, b):
        out = rt.full((a.shape[0], b.shape[1]), 7.0, np.float32)
        lib.dot(a, b, out)
        return out

    out = f(np.ones((3, 0), np.float32), np.ones((0, 2), np.float32))
    np.testing.assert_array_equal(out, np.zeros((3, 2), np.float32))
