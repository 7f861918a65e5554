"""Lowerings of elementwise primitives under jit against JAX 0.10.2's jitted values."""

import hashlib

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.jit import vecmath as vm

INF, NAN = float("inf"), float("nan")

# complex64 operands: zero, signed-zero and infinite divisors, infinite and nan dividends
A = [1 + 2j, -1.5 + 0.5j, 1 + 0j, 0j, complex(INF, 0), complex(INF, 1), complex(NAN, 0), 2 - 3j,
     complex(0, -INF), -1 + 0j, 1e30 + 1e30j, 3 + 0j]  # fmt: skip
B = [0j, -1.5 + 0.5j, complex(-0.0, 0), 0j, 1 + 1j, complex(INF, 0), 1 + 0j, complex(0, INF),
     2 + 0j, complex(-0.0, -0.0), 1e-30 + 1e30j, 3 + 4j]  # fmt: skip
N = NAN
COMPLEX = {
    "div": (lambda x, y: x / y,
            [complex(INF, INF), 1 + 8.940697071579962e-09j, complex(-INF, N), complex(N, N),
             complex(INF, -INF), complex(N, N), complex(N, N), complex(-0.0, -0.0),
             complex(N, -INF), complex(INF, N), 1 - 1j,
             0.36000001430511475 - 0.47999998927116394j]),
    "reciprocal": (lambda x, y: jnp.reciprocal(y),
                   [complex(INF, N), -0.6000000238418579 - 0.20000001788139343j, complex(-INF, N),
                    complex(INF, N), 0.5 - 0.5j, 0j, 1 + 0j, complex(0, -0.0), 0.5 + 0j,
                    complex(-INF, N), -1.0000000031710769e-30j,
                    0.11999999731779099 - 0.1599999964237213j]),
    "lt": (lambda x, y: x < y, [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 1]),
    "le": (lambda x, y: x <= y, [0, 1, 0, 1, 0, 0, 0, 0, 1, 1, 0, 1]),
    "gt": (lambda x, y: x > y, [1, 0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 0]),
    "ge": (lambda x, y: x >= y, [1, 1, 1, 1, 1, 1, 0, 1, 0, 0, 1, 0]),
    "max": (jnp.maximum,
            [1 + 2j, -1.5 + 0.5j, 1 + 0j, 0j, complex(INF, 0), complex(INF, 1), 1 + 0j, 2 - 3j,
             2 + 0j, complex(-0.0, -0.0), 1e30 + 1e30j, 3 + 4j]),
    "min": (jnp.minimum,
            [0j, -1.5 + 0.5j, complex(-0.0, 0), 0j, 1 + 1j, complex(INF, 0), 1 + 0j,
             complex(0, INF), complex(0, -INF), -1 + 0j, 1e-30 + 1e30j, 3 + 0j]),
    "sign": (lambda x, y: jnp.sign(x),
             [0.4472135901451111 + 0.8944271802902222j, -0.9486832618713379 + 0.3162277638912201j,
              1 + 0j, 0j, complex(N, 0), complex(N, 0), complex(N, N),
              0.5547001957893372 - 0.8320503234863281j, complex(0, N), -1 + 0j,
              0.7071068286895752 + 0.7071068286895752j, 1 + 0j]),
    "isclose": (jnp.isclose, [0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(COMPLEX))
def test_complex_operations_match_jax(name):
    """Complex division (numba's raised ZeroDivisionError), lexicographic order (numba has no
    complex `<`), sign and the tolerance of isclose, as XLA computes them."""
    fn, want = COMPLEX[name]
    a, b = np.array(A, np.complex64), np.array(B, np.complex64)
    got = np.asarray(core.jit(fn)(a, b))
    want = np.array(want, got.dtype)
    # Smith's division rounds 1 ulp apart where XLA's contraction differs (the last case)
    np.testing.assert_allclose(got, want, rtol=2e-7, atol=0)


RSQRT_X = [0.0, -0.0, INF, -INF, NAN, -1.0, 2.5, 1e-30, 3e38, 1e-40, -1e-40, 4.0,
           1.1754944e-38, 1.17e-38]  # fmt: skip
RSQRT_WANT = {
    np.float32: [INF, -INF, 0.0, NAN, NAN, NAN, 0.6324555277824402, 999999986991104.0,
                 5.773502248239631e-20, INF, -INF, 0.5, 9.223372036854776e18, INF],
    np.float64: [INF, -INF, 0.0, NAN, NAN, NAN, 0.6324555320336759, 1e15,
                 5.773502691896257e-20, 1e20, NAN, 0.5, 9.223371843921341e18,
                 9.245003270420484e18],
}  # fmt: skip
# sha256 (first 16 hex digits) of JAX 0.10.2's jitted results on RSQRT_X + 4096 random values,
# on this project's AMD CPU with AVX-512 (XLA's rsqrt depends on the CPU: see vm.rsqrt_f32)
RSQRT_DIGESTS = {
    (np.float32, "rsqrt"): "d57ec1bdf79ce1eb",
    (np.float32, "one_over_sqrt"): "d57ec1bdf79ce1eb",
    (np.float32, "a_over_sqrt"): "79b99896ec13de9f",
    (np.float64, "rsqrt"): "6255a90eee1e06b7",
    (np.float64, "one_over_sqrt"): "6255a90eee1e06b7",
    (np.float64, "a_over_sqrt"): "1e254639599391eb",
}
RSQRT_FUNCTIONS = {
    "rsqrt": core.lax.rsqrt,
    "one_over_sqrt": lambda v: 1 / jnp.sqrt(v),  # XLA rewrites a / sqrt(b) as a * rsqrt(b)
    "a_over_sqrt": lambda v: (v + 1) / jnp.sqrt(v),
}


def _rsqrt_inputs(dtype):
    rng = np.random.default_rng(0)
    return np.concatenate(
        [np.array(RSQRT_X, dtype), (10.0 ** rng.uniform(-30, 30, 4096)).astype(dtype)]
    )


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_rsqrt_edges_match_jax(dtype):
    """XLA's rsqrt keeps the hardware estimate at the edges: +-inf at zeros and denormals, nan
    below zero, 0 at inf."""
    with core.enable_x64(dtype == np.float64):
        got = np.asarray(core.jit(core.lax.rsqrt)(np.array(RSQRT_X, dtype)))
    np.testing.assert_allclose(got, np.array(RSQRT_WANT[dtype], dtype), rtol=1e-6)


@pytest.mark.skipif(
    (vm.RSQRT_STEPS, vm.RSQRT64_STEPS) != (1, 2),
    reason="JAX's bits were recorded on an AMD CPU with AVX-512",
)
@pytest.mark.parametrize(("dtype", "name"), sorted(RSQRT_DIGESTS, key=str))
def test_rsqrt_is_xlas_bit_for_bit(dtype, name):
    """rsqrt, and a division by a square root, give JAX's jitted bits (its estimate and Newton
    steps; XLA's algebraic simplifier turns `a / sqrt(b)` into `a * rsqrt(b)`)."""
    with core.enable_x64(dtype == np.float64):
        got = np.asarray(core.jit(RSQRT_FUNCTIONS[name])(_rsqrt_inputs(dtype)))
        eager = np.asarray(core.lax.rsqrt(_rsqrt_inputs(dtype)))  # the same kernel, op by op
    assert got.dtype == dtype
    assert hashlib.sha256(got.tobytes()).hexdigest()[:16] == RSQRT_DIGESTS[(dtype, name)]
    assert hashlib.sha256(eager.tobytes()).hexdigest()[:16] == RSQRT_DIGESTS[(dtype, "rsqrt")]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_rsqrt_is_within_two_ulp(dtype):
    """On every CPU (estimate and Newton steps, or a plain division)."""
    x = _rsqrt_inputs(dtype)[len(RSQRT_X) :]
    with core.enable_x64(dtype == np.float64):
        got = np.asarray(core.jit(core.lax.rsqrt)(x)).astype(np.float64)
    exact = 1 / np.sqrt(x.astype(np.longdouble))
    assert np.all(np.abs(got - exact) <= 2 * np.spacing(got.astype(dtype)).astype(np.float64))


def integer_operands(dtype: str) -> tuple[np.ndarray, np.ndarray]:
    """The limits, zero, one, small numbers, and shift amounts past the width (or negative)."""
    info, signed = np.iinfo(dtype), dtype[0] == "i"
    a = [info.min, info.max, 0, -1 if signed else 1, 1, 7, info.min + 1, 2]
    b = [-1 if signed else 3, 2, 0, info.bits, info.bits + 1, -3 if signed else 70, 3, 0]
    return np.array(a, dtype), np.array(b, dtype)


# JAX 0.10.2 printed (jitted, x64) for integer_operands: shift_right_logical, shift_right_arithmetic
# and jnp.power (int64: the logical shift's uint64 and int64 branches made a float64 and lost
# bits; uint64: the arithmetic shift and power did not compile)
INTEGER_EDGES = {
    "int8": ([0, 31, 0, 0, 0, 0, 16, 2], [-1, 31, 0, -1, 0, 0, -16, 2],
             [0, 1, 1, 1, 1, 103, -127, 1]),
    "uint8": ([0, 63, 0, 0, 0, 0, 0, 2], [0, 255, 0, 0, 0, 0, 0, 2], [0, 1, 1, 1, 1, 145, 1, 1]),
    "int32": ([0, 536870911, 0, 0, 0, 0, 268435456, 2], [-1, 536870911, 0, -1, 0, 0, -268435456, 2],
              [0, 1, 1, 1, 1, 1336734823, -2147483647, 1]),
    "uint32": ([0, 1073741823, 0, 0, 0, 0, 0, 2], [0, 4294967295, 0, 0, 0, 0, 0, 2],
               [0, 1, 1, 1, 1, 117649, 1, 1]),
    "int64": ([0, 2305843009213693951, 0, 0, 0, 0, 1152921504606846976, 2],
              [-1, 2305843009213693951, 0, -1, 0, 0, -1152921504606846976, 2],
              [0, 1, 1, 1, 1, 5706116606739674215, -9223372036854775807, 1]),
    "uint64": ([0, 4611686018427387903, 0, 0, 0, 0, 0, 2],
               [0, 18446744073709551615, 0, 0, 0, 0, 0, 2], [0, 1, 1, 1, 1, 117649, 1, 1]),
}  # fmt: skip


@pytest.mark.parametrize("dtype", list(INTEGER_EDGES))
def test_integer_shifts_and_power_at_the_edges(dtype):
    from core import lax  # noqa: PLC0415

    def f(x, y):
        return (
            lax.shift_right_logical(x, y),
            lax.shift_right_arithmetic(x, y),
            jnp.power(x, y),
        )

    with core.enable_x64():
        got = core.jit(f)(*integer_operands(dtype))
    for g, want in zip(got, INTEGER_EDGES[dtype]):
        assert g.dtype == dtype
        np.testing.assert_array_equal(np.asarray(g), np.array(want, dtype))
