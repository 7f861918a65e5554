"""Lowerings of elementwise primitives under jit against JAX 0.10.2's jitted values."""

import numpy as np
import pytest

import core
import core.numpy as jnp

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


RSQRT_X = [0.0, -0.0, INF, -INF, NAN, -1.0, 2.5, 1e-30, 3e38, 1e-40, -1e-40, 4.0]
RSQRT_WANT = [INF, -INF, 0.0, NAN, NAN, NAN, 0.6324555277824402, 999999986991104.0,
              5.773502248239631e-20, INF, -INF, 0.5]  # fmt: skip


def test_rsqrt_edges_match_jax():
    """1/sqrt under `arcp` is an estimate and a Newton step (nan at 0 and inf, -inf at
    denormals): zeros, denormals and inf take XLA's values."""
    got = np.asarray(core.jit(core.lax.rsqrt)(np.array(RSQRT_X, np.float32)))
    np.testing.assert_allclose(got, np.array(RSQRT_WANT, np.float32), rtol=3e-7)
