"""select_n's checks as JAX 0.10.2's lax.select_n (messages recorded from JAX): the shape rule
before the dtype rule, any integer `which` (indices past the last case pick the last), and a
boolean `which` for at most two cases."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax


@pytest.mark.parametrize(
    "which, cases, want",
    [
        (jnp.uint8(1), [np.zeros(2), np.ones(2)], [1.0, 1.0]),
        (jnp.array([2, 0], jnp.int8), [np.zeros(2), np.ones(2), np.full(2, 2.0)], [2.0, 0.0]),
        (jnp.array([5, 1], jnp.uint32), [np.zeros(2), np.ones(2)], [1.0, 1.0]),
    ],
)
def test_select_n_takes_any_integer_which(which, cases, want):
    got = lax.select_n(which, *(jnp.array(c, jnp.float32) for c in cases))
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize(
    "which, cases, message",
    [
        (
            [0, 1],
            [np.zeros(2), np.ones(3)],
            "select cases must have the same shapes, got [(2,), (3,)].",
        ),
        (
            [0, 1, 0],
            [np.zeros(2), np.ones(2, np.int32)],
            "select `which` must be scalar or have the same shape as cases, got `which` shape "
            "(3,) but case shape (2,).",
        ),
        (
            [0, 1],
            [np.zeros(2), np.ones(2, np.int32)],
            "lax.select requires arguments to have the same dtypes, got float32, int32. (Tip: "
            "jnp.where is a similar function that does automatic type promotion on inputs).",
        ),
        (
            [0.0, 1.0],
            [np.zeros(2), np.ones(2)],
            "select `which` must be boolean or integer type, got float32.",
        ),
        (
            [True, False],
            [np.zeros(2)] * 3,
            "select with boolean `which` cannot have > 2 cases.",
        ),
    ],
)
def test_select_n_errors(which, cases, message):
    cases = [jnp.array(c, np.float32 if c.dtype == np.float64 else c.dtype) for c in cases]
    with pytest.raises(TypeError) as e:
        lax.select_n(jnp.array(which), *cases)
    assert str(e.value).split("\n")[0] == message


def test_select_n_needs_a_case():
    with pytest.raises(ValueError, match=r"^select_n\(\) must have at least one case$"):
        lax.select_n(jnp.array([0, 1]))


_INF, _NAN = np.inf, np.nan
_RECIPROCAL_OF = [
    complex(_NAN, _INF), complex(_INF, _NAN), complex(_INF, _INF), complex(-_INF, -_INF),
    complex(-_INF, _NAN), complex(_INF, 1.5), complex(-2.5, -_INF), complex(0, 0),
    complex(_NAN, 0), complex(2, -4),
]  # fmt: skip
# JAX 0.10.2 printed (complex64 and complex128 alike): XLA's complex division of 1 by z
_RECIPROCAL = {
    -1: [(0.0, -0.0), (0.0, 0.0), (0.0, -0.0), (-0.0, 0.0), (-0.0, -0.0), (0.0, 0.0),
         (-0.0, 0.0), (_INF, _NAN), (_NAN, _NAN), (0.1, 0.2)],
    -2: [(_NAN, _NAN), (_NAN, _NAN), (0.0, -0.0), (0.0, -0.0), (_NAN, _NAN), (0.0, -0.0),
         (-0.0, -0.0), (_INF, _NAN), (_NAN, _NAN), (-0.03, 0.04)],
}  # fmt: skip


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("y", [-1, -2])
def test_negative_integer_pow_of_complex_infinities_is_xlas_division(y, dtype):
    """Eager `integer_pow(z, -1)` (`jnp.reciprocal`) divided as numpy: nan where XLA's 0."""
    x = np.array(_RECIPROCAL_OF, dtype)
    with core.enable_x64():
        got = np.asarray(lax.integer_pow(x, y))
    want = np.array([complex(*p) for p in _RECIPROCAL[y]], dtype)
    assert got.dtype == dtype
    np.testing.assert_allclose(got, want, rtol=1e-6)
    zeros = want == 0
    np.testing.assert_array_equal(np.signbit(got.real[zeros]), np.signbit(want.real[zeros]))
    np.testing.assert_array_equal(np.signbit(got.imag[zeros]), np.signbit(want.imag[zeros]))


@pytest.mark.parametrize("dtype", ["int4", "int2"])
def test_abs_refuses_sub_byte_integers_as_jax(dtype):
    # JAX 0.10.2's abs is its one unop without narrow integers (neg, sign, // keep them)
    x = jnp.array([1, -1], dtype=dtype)
    with pytest.raises(TypeError, match=f"abs does not accept dtype {dtype}. Support for narrow"):
        lax.abs(x)
    assert np.asarray(lax.neg(x)).astype(int).tolist() == [-1, 1]


@pytest.mark.parametrize("jit", [False, True])
def test_complex_square_where_the_parts_cancel(jit):
    # JAX 0.10.2's values (its lax_test accuracy check): the real part is 0 where |a| = |b| is
    # finite; (a - b)(a + b) gave 0 * inf = nan at the largest floats
    m = float(np.finfo(np.float32).max)
    x = np.array([m + 1j * m, -m + 1j * m, 2 - 2j, 3 + 4j, np.inf + 1j], np.complex64)
    inf = np.inf
    want = [complex(0, inf), complex(0, -inf), complex(0, -8), -7 + 24j, complex(inf, inf)]
    got = (core.jit(lax.square) if jit else lax.square)(x)
    np.testing.assert_array_equal(np.asarray(got), np.array(want, np.complex64))
