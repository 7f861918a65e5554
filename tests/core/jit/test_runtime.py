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


# JAX 0.10.2 printed these, eagerly and under jit, on int8/16/32/64 (MIN, MAX: the limits) and
# uint8/16/32/64 (MAX): XLA's integer division wraps MIN / -1 to MIN, x / 0 is -1 (all ones)
_SIGNED_OPERANDS = (["MIN", "MIN", "MAX", 5, -5, 0, "MIN", 7, -7], [-1, 1, -1, 0, 0, 0, 0, -2, 2])
_SIGNED = {
    "div": ["MIN", "MIN", "-MAX", -1, -1, -1, -1, -3, -3],
    "rem": [0, 0, 0, 5, -5, 0, "MIN", 1, -1],
    "floor_divide": ["MIN", "MIN", "-MAX", -2, -2, -1, -2, -4, -4],
    "mod": [0, 0, 0, 0, 0, 0, 0, -1, 1],
    "fmod": [0, 0, 0, 0, 0, 0, 0, 1, -1],
}
_UNSIGNED_OPERANDS = (["MAX", 5, 0, "MAX", 7], [0, 0, 0, 1, "MAX"])
_UNSIGNED = {
    "div": ["MAX", "MAX", "MAX", "MAX", 0],
    "rem": ["MAX", 5, 0, 0, 7],
    "floor_divide": ["MAX", "MAX", "MAX", "MAX", 0],
    "mod": [0, 0, 0, 0, 7],
    "fmod": [0, 0, 0, 0, 7],
}
_INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")


def _limits(values: list, dtype: np.dtype) -> np.ndarray:
    info = np.iinfo(dtype)
    named = {"MIN": info.min, "MAX": info.max, "-MAX": -info.max}
    return np.array([named.get(v, v) if isinstance(v, str) else v for v in values], dtype)


def _division_edges(x, y):
    import core.numpy as jnp  # noqa: PLC0415 (this module's other tests need numba only)
    from core import lax  # noqa: PLC0415

    return {
        "div": lax.div(x, y),
        "rem": lax.rem(x, y),
        "floor_divide": jnp.floor_divide(x, y),
        "mod": jnp.mod(x, y),
        "fmod": jnp.fmod(x, y),
    }


@pytest.mark.parametrize("mode", ["eager", "jit", "jit-numba"])
@pytest.mark.parametrize("dtype", _INTS)
def test_integer_division_edges_as_xla(dtype, mode):
    """MIN / -1 is MIN under jit too (the int64 one gave numba's 0), x / 0 and x % 0 XLA's."""
    import core  # noqa: PLC0415
    from core.config import config  # noqa: PLC0415

    dtype = np.dtype(dtype)
    operands, want = (_SIGNED_OPERANDS, _SIGNED) if dtype.kind == "i" else (
        _UNSIGNED_OPERANDS, _UNSIGNED)  # fmt: skip
    x, y = (_limits(v, dtype) for v in operands)
    with core.enable_x64():
        if mode == "eager":
            got = _division_edges(x, y)
        elif mode == "jit":
            got = core.jit(_division_edges)(x, y)
        else:
            numba_only = config.override("jit_lean_loops", False)
            with numba_only, config.override("jit_lean_shells", False):
                got = core.jit(_division_edges)(x, y)
    for name, values in want.items():
        assert got[name].dtype == dtype, name
        np.testing.assert_array_equal(np.asarray(got[name]), _limits(values, dtype), err_msg=name)


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64])
def test_idiv_of_the_minimum_by_minus_one(dtype):
    """numba's `//` gives 0; rt.idiv the minimum (in int64, the callers cast to their width)."""
    lo = np.iinfo(dtype).min
    got = njit(lambda a, b: (rt.idiv(a, b), rt.irem(a, b)))(dtype(lo), dtype(-1))
    assert np.int64(got[0]).astype(dtype) == lo and got[1] == 0


def test_lapack_through_element_pointers():
    """`rt.ptr(a, flat)` hands LAPACK's wrappers (`rt.lapack.*`) an element's address: potrf
    factors the second matrix of a batch in place, as numpy's cholesky (upper triangle in
    LAPACK's column-major view is the lower one of the C array)."""

    @njit
    def f(a):
        info = rt.lapack.potrf_float64(np.int8(ord("d")), np.int8(ord("U")), 2, rt.ptr(a, 4), 2)
        return info

    spd = np.array([[4.0, 2.0], [2.0, 3.0]])
    a = np.stack([np.eye(2), spd])
    assert f(a) == 0
    np.testing.assert_allclose(np.tril(a[1]), np.linalg.cholesky(spd), rtol=1e-15)
    np.testing.assert_array_equal(a[0], np.eye(2))
