"""The array intrinsics of core/jit/runtime.py, called from numba code as generated kernels do."""

import numpy as np
import pytest
from numba import njit

from core.jit import runtime as rt

rng = np.random.default_rng(0)


def test_allocation_reshape_copy_and_flat_access():
    @njit
    def f(x):
        y = rt.copy(x)  # writable copy of a read-only array
        rt.st(y, 5, rt.ld(x, 0) + np.float32(100))
        flat = rt.reshape(y, (6,))
        mask = rt.full((2, 2), True, np.bool_)
        rt.st(mask, 3, False)
        z = rt.empty((), np.int32)
        rt.st(z, 0, np.int32(-4))
        return y, flat, mask, z, rt.reshape(x, (3, 2))

    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    x.flags.writeable = False
    y, flat, mask, z, back = f(x)
    want = x.copy()
    want[1, 2] = 100
    np.testing.assert_array_equal(y, want)
    np.testing.assert_array_equal(flat, want.reshape(6))
    assert flat.ctypes.data == y.ctypes.data  # a view, not a copy
    np.testing.assert_array_equal(mask, [[True, True], [True, False]])
    assert z.shape == () and z[()] == -4
    np.testing.assert_array_equal(back, x.reshape(3, 2))
    assert not back.flags.writeable


@pytest.mark.parametrize(
    "cond, a, b, want",
    [
        (True, np.int32(3), np.float32(0.5), 3.0),
        (False, np.int32(3), np.float32(0.5), 0.5),
        (1.0 > 2.0, np.int64(-1), np.int32(9), 9),
    ],
)
def test_where_unifies_its_operands(cond, a, b, want):
    got = njit(lambda c, x, y: rt.where(c, x, y))(cond, a, b)
    assert got == want and isinstance(got, type(want))


@pytest.mark.parametrize(
    "x, want",  # JAX 0.10.2's jitted lax.digamma of float32
    [(-3e38, np.nan), (-np.inf, np.nan), (-2.0, np.nan), (-0.0, np.nan), (np.inf, np.inf),
     (1e30, 69.07755), (-1.5, 0.70315664), (1e-30, -1e30)],
)  # fmt: skip
def test_digamma_poles_beyond_int64(x, want):
    """Whole x <= 0 are poles (nan) also where floor(x) leaves int64's range (-3e38 gave 86.5)."""
    got = njit(lambda v: rt.digamma(v))(np.float32(x))
    np.testing.assert_allclose(np.float32(got), want, rtol=1e-6)
