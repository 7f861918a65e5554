"""Known answers from a differential run of `core.lax` against `jax.lax` (JAX 0.10.2): each
case below once differed from JAX. Values were recorded from JAX, not computed here."""

import numpy as np
import pytest

import core
from core import lax

X = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
BIG = np.array([np.inf, -np.inf, np.nan, 1e30, -1e30, 2147483520.0, 3.7, -3.7], np.float32)
C = np.array([complex(np.nan, 0), np.inf, complex(0, np.inf), 1 + 2j], np.complex64)
INF = float("inf")


@pytest.mark.parametrize(
    "x, want",
    [
        (np.array([-1, -2, 5, -(2**31), 0], np.int32), [32, 31, 2, 1, 0]),
        (np.array([-1, -128], np.int8), [8, 1]),
        (np.array([255, 6], np.uint8), [8, 2]),
    ],
)
def test_population_count_counts_twos_complement_bits(x, want):
    got = lax.population_count(x)
    assert got.dtype == x.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize(
    "dtype, want",
    [
        ("int32", [2147483647, -2147483648, 0, 2147483647, -2147483648, 2147483520, 3, -3]),
        ("uint32", [4294967295, 0, 0, 4294967295, 0, 2147483520, 3, 0]),
        ("uint8", [255, 0, 0, 255, 0, 255, 3, 0]),
        ("int16", [32767, -32768, 0, 32767, -32768, 32767, 3, -3]),
    ],
)
def test_convert_float_to_int_saturates(dtype, want):
    np.testing.assert_array_equal(lax.convert_element_type(BIG, dtype), want)


@pytest.mark.parametrize(
    "fn, want",
    [
        (lambda: lax.dynamic_slice(X, (-1, -2, 0), (1, 2, 2)), [[[16.0, 17.0], [20.0, 21.0]]]),
        (lambda: lax.dynamic_slice_in_dim(X, -2, 2, -1)[0, 0], [2.0, 3.0]),
        (lambda: lax.dynamic_slice(X[0], (np.int64(1), np.int32(2)), (1, 2)), [[6.0, 7.0]]),
        (
            lambda: lax.dynamic_update_slice(X[0], -np.ones((2, 2), np.float32), (-1, -1)),
            [[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, -1.0, -1.0], [8.0, 9.0, -1.0, -1.0]],
        ),
        (lambda: lax.slice_in_dim(X[0, 0], -3, None), [1.0, 2.0, 3.0]),
        (lambda: lax.select(np.bool_(False), X[0, 0], -X[0, 0]), [-0.0, -1.0, -2.0, -3.0]),
        (lambda: lax.select_n(np.int32(1), X[0, 0], -X[0, 0]), [-0.0, -1.0, -2.0, -3.0]),
        (lambda: lax.reduce_max(np.zeros((0, 2), np.float32), (0,)), [-INF, -INF]),
        (lambda: lax.reduce_min(np.zeros((0, 2), np.int32), (0,)), [2147483647] * 2),
        (lambda: lax.reduce_max(np.zeros((0, 2), np.uint8), (0,)), [0, 0]),
        (lambda: lax.reduce_min(np.zeros((0, 2), bool), (0,)), [True, True]),
        (lambda: lax.real(C), [np.nan, INF, 0.0, 1.0]),
        (lambda: lax.imag(C), [0.0, 0.0, INF, 2.0]),
        (
            lambda: lax.conj(C),
            [complex(np.nan, -0.0), complex(INF, -0.0), complex(0, -INF), 1 - 2j],
        ),
        (lambda: lax.conj(np.array([1.0, -0.0], np.float32)), [1 + 0j, complex(-0.0, 0.0)]),
        (
            lambda: lax.complex(np.float32([INF, 1]), np.float32([1, INF])),
            [complex(INF, 1), complex(1, INF)],
        ),
        (lambda: lax.full(3, 1.0), [1.0, 1.0, 1.0]),
        (lambda: lax.full_like(X, 2.5, None, (2,)), [2.5, 2.5]),
        (
            lambda: lax.add(np.float32([[1], [2]]), np.float32([[10, 20, 30]])),
            [[11.0, 21.0, 31.0], [12.0, 22.0, 32.0]],
        ),
        (lambda: lax.mul(np.float32([1, 2]), np.float32(3)), [3.0, 6.0]),
        (lambda: lax.pow(np.float32([2, 3]), np.int32([3, -1])), [8.0, 0.3333333432674408]),
        (lambda: lax.abs(np.complex64([3 + 4j, -1j])), [5.0, 1.0]),
        (lambda: lax.reduce_and(np.int32([[1, 3], [3, 1], [7, 5]]), (0,)), [1, 1]),
        (lambda: lax.reduce_or(np.int32([[1, 3], [3, 1], [7, 5]]), (0,)), [7, 7]),
        (lambda: lax.reduce_and(np.zeros((0, 2), np.uint8), (0,)), [255, 255]),
        (
            lambda: lax.bitcast_convert_type(np.float32([1.0, -2.5]), np.uint8),
            [[0, 0, 128, 63], [0, 0, 32, 192]],
        ),
        (lambda: lax.bitcast_convert_type(np.uint8([[0, 0, 128, 63]]), np.float32), [1.0]),
        (lambda: lax.bitcast_convert_type(np.int32([1, -1]), np.int16), [[1, 0], [-1, -1]]),
        (lambda: lax.top_k(np.float32([[1, 5], [4, 2], [3, 6]]), 2, axis=0)[0], [[4, 6], [3, 5]]),
        (lambda: lax.top_k(np.float32([[1, 5], [4, 2], [3, 6]]), 2, axis=0)[1], [[1, 2], [2, 0]]),
        (lambda: lax.sign(np.float32([-0.0, 0.0, -2])), [-0.0, 0.0, -1.0]),
        (lambda: lax.dot(np.float32([[1, 2], [3, 4]]), np.int32([[1], [2]])), [[5.0], [11.0]]),
        (lambda: lax.pad(np.float32(1), np.float32(0), ()), 1.0),
        (lambda: lax.lgamma(np.float32([-INF])), [INF]),
        (lambda: lax.erf_inv(np.float32([-0.0])), [-0.0]),
        (
            lambda: lax.cumlogsumexp(np.array([0.0, 1.0, 2.0, 3.0], np.float32)),
            [0.0, 1.3132617473602295, 2.4076061248779297, 3.440189838409424],
        ),
        (
            lambda: lax.round(np.float32([0.5, 1.5, -0.5]), lax.RoundingMethod.TO_NEAREST_EVEN),
            [0.0, 2.0, -0.0],
        ),
    ],
)
def test_known_answers(fn, want):
    got = np.asarray(fn())
    want = np.asarray(want, dtype=got.dtype)
    np.testing.assert_allclose(got, want, rtol=1e-6)
    if got.dtype.kind in "fc":  # the signs of zeros too
        np.testing.assert_array_equal(np.signbit(got.real), np.signbit(want.real))
        np.testing.assert_array_equal(np.signbit(got.imag), np.signbit(want.imag))


@pytest.mark.parametrize(
    "fn, dtype, weak",
    [
        (lambda: lax.reduce_sum(2.0, ()), "float32", True),
        (lambda: lax.reduce_max(2.0, ()), "float32", True),
        (lambda: lax.full(3, 1.0), "float32", True),
        (lambda: lax.full_like(X, 2, np.int32), "int32", False),
        (lambda: lax.full_like(1.0, 2), "float32", True),
        (lambda: lax.real(C), "float32", False),
        (lambda: lax.conj(np.float32(1)), "complex64", False),
        (lambda: lax.transpose(2.0, ()), "float32", True),
        (lambda: lax.add(2, 3), "int32", True),
        (lambda: lax.add(np.float32([1]), 2.0), "float32", False),
        (lambda: lax.abs(np.complex64([1j])), "float32", False),
    ],
)
def test_dtypes_and_weak_types(fn, dtype, weak):
    out = fn()
    assert out.dtype == np.dtype(dtype)
    assert core.dtypes.is_weakly_typed(out) is weak


@pytest.mark.parametrize(
    "fn, error",
    [
        (lambda: lax.real(np.float32(1)), TypeError),
        (lambda: lax.imag(np.int32(1)), TypeError),
        (lambda: lax.select_n(np.int32(0)), ValueError),
        (lambda: lax.full((3,), np.ones(3, np.float32)), TypeError),
        (lambda: lax.cumlogsumexp(np.float32(2)), ValueError),
        # jax.lax does not promote: a Python int is int32, and dtypes must then agree.
        (lambda: lax.add(np.float32([1, 2]), 2), TypeError),
        (lambda: lax.add(np.uint8([1, 2]), 2), TypeError),
        (lambda: lax.add(np.float16([1, 2]), 2.0), TypeError),
        (lambda: lax.add(np.float32([1, 2]), np.int32([1, 2])), TypeError),
        (lambda: lax.add(2**40, 1), OverflowError),
        (lambda: lax.mul(np.bool_([True]), np.bool_([True])), TypeError),
        (lambda: lax.lt(np.complex64([1]), np.complex64([1])), TypeError),
        (lambda: lax.nextafter(np.int32([1]), np.int32([1])), TypeError),
        (lambda: lax.mulhi(np.float32([1]), np.float32([1])), TypeError),
        (lambda: lax.conj(np.int32([1])), TypeError),
        # Only rank-0 operands and size-1 dimensions broadcast; both errors are TypeErrors.
        (lambda: lax.add(np.float32([1, 2, 3, 4]), np.float32([1, 2, 3])), TypeError),
        (lambda: lax.add(np.ones((2, 3), np.float32), np.ones(3, np.float32)), TypeError),
        (lambda: lax.reduce_and(np.float32([1]), (0,)), TypeError),
        (lambda: lax.bitcast_convert_type(np.uint8([1, 2, 3]), np.int32), ValueError),
        (lambda: lax.concatenate([], 0), ValueError),
        (lambda: lax.argmax(X, 1, np.float32), TypeError),
        (lambda: lax.broadcasted_iota(np.int32, (2, 3), -1), ValueError),
        (lambda: lax.broadcasted_iota(np.int32, (2, 3), 2), ValueError),
        (lambda: lax.expand_dims(X, (5,)), ValueError),
        # no complex32: half floats raise, as JAX's conj/complex
        (lambda: lax.conj(np.float16([1])), TypeError),
        (lambda: lax.complex(np.float16([1]), np.float16([1])), TypeError),
        # JAX's igamma/igammac/betainc/zeta primitives take one dtype (a Python float is f32)
        (lambda: lax.igamma(np.float16([1]), 1.0), TypeError),
        (lambda: lax.igammac(1.0, np.float16([1])), TypeError),
        (lambda: lax.betainc(np.float16([1]), 1.0, 0.5), TypeError),
        (lambda: lax.zeta(np.float32([2]), np.float16([1])), TypeError),
    ],
)
def test_errors(fn, error):
    with pytest.raises(error):
        fn()


def test_complex_parts_differentiate_like_jax():
    x = np.float32(1.5)
    # jax.grad of real/imag((x + 2xi)(x + xi)): -3.0 and 9.0.
    assert core.grad(lambda x: lax.real(lax.complex(x, x * 2) * lax.complex(x, x)))(x) == -3.0
    assert core.grad(lambda x: lax.imag(lax.complex(x, x * 2) * lax.complex(x, x)))(x) == 9.0


# JAX 0.10.2: lax.atan2 of complex operands, XLA's -i log((y + i x) / sqrt(y^2 + x^2)).
ATAN2_C = (
    np.array([1 + 2j, -1.5 + 0.5j, 1j, -2 + 0j], np.complex64),
    np.array([1 + 0j, 2 - 1j, 0j, 1j], np.complex64),
)
ATAN2_C_WANT = [
    1.338972568511963 + 0.40235933661460876j,
    -0.6138862371444702 - 0.06706592440605164j,
    1.570796251296997 + 0j,
    -1.5707963705062866 + 0.5493061542510986j,
]


@pytest.mark.parametrize("jit", [False, True])
def test_complex_atan2(jit):
    f = core.jit(lax.atan2) if jit else lax.atan2
    np.testing.assert_allclose(f(*ATAN2_C), ATAN2_C_WANT, rtol=2e-6)
    assert core.numpy.arctan2(np.float32([1, -2]), 1j).dtype == np.complex64


def test_jit_lowerings_match_eager():
    got = core.jit(lambda a, b: lax.conj(lax.complex(a, b)))(
        np.float32([1, INF]), np.float32([2, 3])
    )
    np.testing.assert_array_equal(got, [1 - 2j, complex(INF, -3)])
    i = np.int32(-1)
    got = core.jit(lambda x, i: lax.dynamic_slice(x, (i, 0, 0), (1, 2, 2)))(X, i)
    np.testing.assert_array_equal(got, X[1:, :2, :2])
    got = core.jit(lambda x: lax.population_count(x))(np.array([-1, 5], np.int32))
    np.testing.assert_array_equal(got, [32, 2])


@pytest.mark.parametrize(
    "fn, want",
    [
        (lambda: lax.broadcast_shapes((2, 1), (3,)), (2, 3)),
        (
            lambda: [np.asarray(a).tolist() for a in lax.unstack(np.arange(6).reshape(2, 3), 1)],
            [[0, 3], [1, 4], [2, 5]],
        ),
        (
            lambda: [
                np.asarray(a).tolist()
                for a in lax.approx_max_k(np.float32([[1, 5, 3], [4, 2, 6]]), 2)
            ],
            [[[5.0, 3.0], [6.0, 4.0]], [[1, 2], [2, 0]]],
        ),
        (
            lambda: [
                np.asarray(a).tolist()
                for a in lax.approx_min_k(
                    np.float32([[1, 5, 3], [4, 2, 6]]), 2, reduction_dimension=0
                )
            ],
            [[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[0, 1, 0], [1, 0, 1]]],
        ),
        (lambda: lax.dtype(np.float64), np.dtype("float32")),
        (lambda: lax.dtype(2), np.dtype("int32")),
        (lambda: lax.add_p.name, "add"),
        (lambda: lax.while_p.name, "while"),
    ],
)
def test_added_names(fn, want):
    assert fn() == want


def test_added_names_errors():
    with pytest.raises(ValueError):
        lax.broadcast_shapes((2,), (3,))


@pytest.mark.parametrize(
    "fn, first_line",
    [
        (
            lambda: lax.add(np.array([True]), np.array([False])),
            "add does not accept dtype bool at position 0. Accepted dtypes at position 0 are "
            "subtypes of integer, floating, complexfloating.",
        ),
        (
            lambda: lax.exp(np.arange(3)),
            "exp does not accept dtype int32. Accepted dtypes are subtypes of floating, "
            "complexfloating.",
        ),
        (
            lambda: lax.bitwise_not(np.ones(2, np.float32)),
            "not does not accept dtype float32. Accepted dtypes are subtypes of integer, bool.",
        ),
        (
            lambda: lax.abs(np.array([True])),
            "abs does not accept dtype bool. Accepted dtypes are subtypes of floating, "
            "complexfloating, signedinteger.",
        ),
        (
            lambda: core.numpy.ceil(np.array([1j])),
            "ceil does not accept dtype complex64. Accepted dtypes are subtypes of floating.",
        ),
        (
            lambda: core.numpy.trunc(np.array([1j])),
            "lt does not accept dtype complex64 at position 0. Accepted dtypes at position 0 "
            "are subtypes of integer, floating, bool.",
        ),
        (
            lambda: lax.dynamic_slice(X[0], (np.int8(-3), np.uint8(2)), (1, 2)),
            "index arguments to dynamic_slice must be integers of the same type, got: int8, uint8",
        ),
        (  # a Python int is an int32 start: it does not adapt to an int8 one
            lambda: lax.dynamic_slice(X[0], (np.int8(1), 2), (1, 2)),
            "index arguments to dynamic_slice must be integers of the same type, got: int8, int32",
        ),
        (
            lambda: lax.dynamic_slice(X[0], (True, 1), (1, 2)),
            "index arguments to dynamic_slice must be integers of the same type, got: bool, int32",
        ),
        (
            lambda: lax.dynamic_update_slice(X[0], X[0, :1, :2], (np.int8(1), np.int16(1))),
            "index arguments to dynamic_update_slice must be integers of the same type, got "
            "int8, int16",
        ),
    ],
)
def test_dtype_errors_have_jaxs_first_line(fn, first_line):
    with pytest.raises(TypeError) as info:
        fn()
    assert str(info.value).split("\n")[0] == first_line
