"""core.numpy bit functions (bitwise_count, packbits, unpackbits, Array.view and byteswap) and
float representation helpers (frexp, ldexp, spacing, nextafter) against JAX's answers and
numpy."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from tests.core.numpy.known_answers import check

# (id, thunk, expected) with expected values/dtypes/weak types recorded from JAX 0.10.2.
KNOWN = [
    (
        "spacing_negzero",
        lambda: jnp.spacing(jnp.array([-0.0, 0.0])),
        ([-1e-45, 1e-45], "float32", False),
    ),
    (
        "ldexp",
        lambda: jnp.ldexp(jnp.arange(5.0), 10),
        ([0.0, 1024.0, 2048.0, 3072.0, 4096.0], "float32", False),
    ),
    (
        "ldexp_int",
        lambda: jnp.ldexp(jnp.array([1, 2, 3]), jnp.array([-1, 0, 200])),
        ([0.5, 2.0, np.inf], "float32", False),
    ),
    ("ldexp_w", lambda: jnp.ldexp(1.5, 3), (12.0, "float32", False)),
    (
        "ldexp_f16",
        lambda: jnp.ldexp(jnp.array([1.0, 3.0], jnp.float16), jnp.array([2, -3])),
        ([4.0, 0.375], "float16", False),
    ),
    (
        "frexp_special",
        lambda: jnp.frexp(jnp.array([jnp.inf, -jnp.inf, jnp.nan, -0.0])),
        [([np.inf, -np.inf, np.nan, -0.0], "float32", False), ([0, 0, 0, 0], "int32", False)],
    ),
    (
        "frexp_int",
        lambda: jnp.frexp(jnp.array([1, 6, -8])),
        [([0.5, 0.75, -0.5], "float32", False), ([1, 3, 4], "int32", False)],
    ),
    (
        "frexp_f16",
        lambda: jnp.frexp(jnp.array([1.0, 3.0, 1e-6, 6e4], jnp.float16)),
        [
            ([0.5, 0.75, 0.53125, 0.91552734375], "float16", False),
            ([1, 2, -19, 16], "int32", False),
        ],
    ),
    ("frexp_w", lambda: jnp.frexp(3.0), [(0.75, "float32", False), (2, "int32", False)]),
    (
        "spacing_int",
        lambda: jnp.spacing(jnp.array([1, 1000])),
        ([1.1920928955078125e-07, 6.103515625e-05], "float32", False),
    ),
    (
        "spacing_f16",
        lambda: jnp.spacing(jnp.array([1.0, -1.0, 0.0], jnp.float16)),
        ([0.0009765625, 0.00048828125, 5.960464477539063e-08], "float16", False),
    ),
    (
        "nextafter",
        lambda: jnp.nextafter(
            jnp.array([1.0, 3.0, -2.0, 0.0, 0.0]), jnp.array([2.0, 0.0, 5.0, 1.0, -1.0])
        ),
        (
            [
                1.0000001192092896,
                2.999999761581421,
                -1.9999998807907104,
                1.401298464324817e-45,
                -1.401298464324817e-45,
            ],
            "float32",
            False,
        ),
    ),
    ("nextafter_w", lambda: jnp.nextafter(2, 3), (2.000000238418579, "float32", True)),
    (
        "nextafter_eq",
        lambda: jnp.nextafter(jnp.array([1.0, jnp.nan]), jnp.array([1.0, 2.0])),
        ([1.0, np.nan], "float32", False),
    ),
    (
        "bitcount",
        lambda: jnp.bitwise_count(jnp.array([0, 1, 7, -1, -8, 255])),
        ([0, 1, 3, 1, 1, 8], "uint8", False),
    ),
    (
        "bitcount_u",
        lambda: jnp.bitwise_count(jnp.array([3, 255], jnp.uint8)),
        ([2, 8], "uint8", False),
    ),
    ("bitcount_b", lambda: jnp.bitwise_count(jnp.array([True, False])), ([1, 0], "uint8", False)),
    (
        "bitcount_i64",
        lambda: jnp.bitwise_count(jnp.array([2**31 - 1], jnp.int32)),
        ([31], "uint8", False),
    ),
    ("bitcount_w", lambda: jnp.bitwise_count(7), (3, "uint8", False)),
    (
        "packbits",
        lambda: jnp.packbits(jnp.array([1, 0, 1, 1, 0, 0, 0, 1, 1])),
        ([177, 128], "uint8", False),
    ),
    (
        "packbits_little",
        lambda: jnp.packbits(jnp.array([1, 0, 1, 1, 0, 0, 0, 1, 1]), bitorder="little"),
        ([141, 1], "uint8", False),
    ),
    (
        "packbits_axis",
        lambda: jnp.packbits(jnp.array([[1, 0, 1], [0, 1, 1]], dtype=bool), axis=1),
        ([[160], [96]], "uint8", False),
    ),
    (
        "packbits_axis0",
        lambda: jnp.packbits(jnp.array([[1, 0, 1], [0, 1, 1]]), axis=0),
        ([[128, 64, 192]], "uint8", False),
    ),
    (
        "unpackbits",
        lambda: jnp.unpackbits(jnp.array([5, 255], jnp.uint8)),
        ([0, 0, 0, 0, 0, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1], "uint8", False),
    ),
    (
        "unpackbits_little",
        lambda: jnp.unpackbits(jnp.array([5, 128], jnp.uint8), bitorder="little"),
        ([1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], "uint8", False),
    ),
    (
        "unpackbits_axis",
        lambda: jnp.unpackbits(jnp.array([[5], [3]], jnp.uint8), axis=1),
        ([[0, 0, 0, 0, 0, 1, 0, 1], [0, 0, 0, 0, 0, 0, 1, 1]], "uint8", False),
    ),
    (
        "unpackbits_axis0",
        lambda: jnp.unpackbits(jnp.array([[5, 3]], jnp.uint8), axis=0),
        ([[0, 0], [0, 0], [0, 0], [0, 0], [0, 0], [1, 0], [0, 1], [1, 1]], "uint8", False),
    ),
    (
        "unpackbits_count",
        lambda: jnp.unpackbits(jnp.array([7], jnp.uint8), count=3),
        ([0, 0, 0], "uint8", False),
    ),
    (
        "unpackbits_count_neg",
        lambda: jnp.unpackbits(jnp.array([7, 1], jnp.uint8), count=-4),
        ([0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0], "uint8", False),
    ),
    (
        "unpackbits_count_big",
        lambda: jnp.unpackbits(jnp.array([7], jnp.uint8), count=10),
        ([0, 0, 0, 0, 0, 1, 1, 1, 0, 0], "uint8", False),
    ),
    ("spacing_w", lambda: jnp.spacing(1.0), (1.1920928955078125e-07, "float32", False)),
    ("frexp_pyint", lambda: jnp.frexp(2), [(0.5, "float32", False), (2, "int32", False)]),
    ("ldexp_pyint", lambda: jnp.ldexp(2, 3), (16.0, "float32", False)),
    (
        "ldexp_i8",
        lambda: jnp.ldexp(jnp.array([3.0]), jnp.array([2], jnp.int8)),
        ([12.0], "float32", False),
    ),
    ("bc_u16", lambda: jnp.bitwise_count(jnp.uint16(7)), (3, "uint8", False)),
    ("pack_0d", lambda: jnp.packbits(jnp.array(True)), ([128], "uint8", False)),
    ("unpack_0d", lambda: jnp.unpackbits(jnp.uint8(3)), ([0, 0, 0, 0, 0, 0, 1, 1], "uint8", False)),
    (
        "nextafter_mixed",
        lambda: jnp.nextafter(jnp.array([1.0], jnp.float16), 2),
        ([1.0009765625], "float16", False),
    ),
    (
        "nextafter_int",
        lambda: jnp.nextafter(jnp.array([1, 2]), 3),
        ([1.0000001192092896, 2.000000238418579], "float32", False),
    ),
]


@pytest.mark.parametrize("name, thunk, want", KNOWN, ids=[c[0] for c in KNOWN])
def test_known_answers(name, thunk, want):
    check(thunk(), want)


# Subnormals included: numpy computes them exactly, as we do (XLA on CPU flushes them to zero,
# so JAX gives frexp(1e-40) == (0.5, -149) and ldexp(3.0, -140) == 0).
F32 = np.array([1.0, -3.0, 0.1, 1e-40, -2.5e-42, 3e38, 0.0, -0.0, np.inf, -np.inf, 7.5], np.float32)
F16 = np.array([1.0, -3.0, 1e-6, 6e4, -2e-7, 0.0, np.inf], np.float16)


@pytest.mark.parametrize("x", [F32, F16], ids=["f32", "f16"])
def test_frexp_matches_numpy(x):
    m, e = jnp.frexp(x)
    wm, we = np.frexp(x)
    np.testing.assert_array_equal(np.asarray(m), wm)
    np.testing.assert_array_equal(np.asarray(e), we)
    assert np.asarray(m).dtype == x.dtype and np.asarray(e).dtype == np.int32


@pytest.mark.parametrize(
    "x, e",
    [
        (F32, np.array([0, 1, -1, 100, 30, -1, 5, 2, 3, 1, -160], np.int32)),
        (np.float32([1e-30, 3.0, 1.5, 1.0]), np.int32([100, -140, 127, -149])),
        (F16, np.array([0, 3, 20, -16, 1, 2, -1], np.int32)),
    ],
)
def test_ldexp_matches_numpy(x, e):
    got = jnp.ldexp(x, e)
    np.testing.assert_array_equal(np.asarray(got), np.ldexp(x, e))
    assert np.asarray(got).dtype == x.dtype


@pytest.mark.parametrize("x", [F32[np.isfinite(F32)], F16[np.isfinite(F16)]], ids=["f32", "f16"])
def test_spacing_and_nextafter_match_numpy(x):
    nz = x[~((x == 0) & np.signbit(x))]  # spacing(-0.0): numpy says +tiny, JAX (and we) -tiny
    np.testing.assert_array_equal(np.asarray(jnp.spacing(nz)), np.spacing(nz))
    for direction in (np.inf, -np.inf, 0.0):
        to = np.full_like(x, direction)
        np.testing.assert_array_equal(np.asarray(jnp.nextafter(x, to)), np.nextafter(x, to))


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.uint8, np.uint32])
def test_bitwise_count_matches_numpy(dtype):
    info = np.iinfo(dtype)
    x = np.array([info.min, info.max, 0, 1, 5, info.max // 3], dtype)
    got = jnp.bitwise_count(x)
    np.testing.assert_array_equal(np.asarray(got), np.bitwise_count(x))
    assert np.asarray(got).dtype == np.uint8


@pytest.mark.parametrize("bitorder", ["big", "little"])
@pytest.mark.parametrize(
    "shape, axis", [((13,), None), ((3, 10), 1), ((9, 2), 0), ((2, 3, 4), -1), ((2, 3, 4), None)]
)
def test_packbits_roundtrip_matches_numpy(shape, axis, bitorder):
    bits = (np.arange(np.prod(shape)).reshape(shape) * 7 % 3 == 0).astype(np.int32)
    packed = jnp.packbits(bits, axis=axis, bitorder=bitorder)
    want = np.packbits(bits, axis=axis, bitorder=bitorder)
    np.testing.assert_array_equal(np.asarray(packed), want)
    count = bits.size if axis is None else shape[axis]
    got = jnp.unpackbits(packed, axis=axis, count=count, bitorder=bitorder)
    np.testing.assert_array_equal(
        np.asarray(got), np.unpackbits(want, axis=axis, count=count, bitorder=bitorder)
    )


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda: jnp.packbits(np.ones(3, np.float32)), TypeError),
        (lambda: jnp.packbits(np.ones(3, np.int32), bitorder="middle"), ValueError),
        (lambda: jnp.unpackbits(np.ones(3, np.int32)), TypeError),
        (lambda: jnp.bitwise_count(np.ones(2, np.float32)), TypeError),
        (lambda: jnp.ldexp(np.ones(2, np.float32), np.ones(2, np.float32)), ValueError),
        (lambda: jnp.frexp(np.ones(2, np.complex64)), TypeError),
    ],
)
def test_errors(call, error):
    with pytest.raises(error):
        call()


@pytest.mark.parametrize("x1, x2", [(np.ones(2, np.complex64), np.ones(2)), (1j, 1.0)])
def test_nextafter_rejects_complex_with_jaxs_message(x1, x2):
    # JAX 0.10.2 checks the promoted operands: always "at position 0"
    with pytest.raises(TypeError) as info:
        jnp.nextafter(x1, x2)
    assert str(info.value).split("\n")[0] == (
        "nextafter does not accept dtype complex64 at position 0. "
        "Accepted dtypes at position 0 are subtypes of floating."
    )


def test_under_jit_vmap_grad():
    x = jnp.array([3.0, 0.1, -6.0])
    m, e = core.jit(jnp.frexp)(x)
    np.testing.assert_array_equal(np.asarray(core.jit(jnp.ldexp)(m, e)), np.asarray(x))
    # d mantissa / dx = 2**-e (JAX gets this from a custom_jvp; here it is the product rule).
    g = core.grad(lambda v: jnp.frexp(v)[0].sum())(x)
    np.testing.assert_array_equal(np.asarray(g), 2.0 ** -np.frexp(np.asarray(x))[1])
    g = core.grad(lambda v: jnp.ldexp(v, jnp.array([2, -3, 0])).sum())(x)
    np.testing.assert_array_equal(np.asarray(g), [4.0, 0.125, 1.0])
    rows = core.vmap(jnp.packbits)(jnp.array([[1, 0, 1], [0, 0, 1]]))
    np.testing.assert_array_equal(np.asarray(rows), [[160], [32]])
    np.testing.assert_array_equal(
        np.asarray(core.jit(jnp.bitwise_count)(jnp.array([7, -1]))), [3, 1]
    )


def test_bit_functions_take_bfloat16():
    # jax 0.10.2; numbax asked numpy's finfo about bfloat16 ("not inexact") before
    x = jnp.asarray(np.array([0.3, 1.5, -2.25, 7.0, 1e-3], jnp.bfloat16))
    mant, exp = jnp.frexp(x)
    assert mant.dtype == jnp.bfloat16
    want = [0.601562, 0.75, -0.5625, 0.875, 0.511719]  # printed with 6 digits
    np.testing.assert_allclose(np.float32(mant), want, rtol=1e-5)
    np.testing.assert_array_equal(exp, [-1, 1, 2, 3, -9])
    ldexp = jnp.ldexp(x, jnp.array([1, 2, 3, 4, 5]))
    np.testing.assert_allclose(np.float32(ldexp), [0.601562, 6, -18, 112, 0.0319824], rtol=1e-5)
    spacing = np.float32(jnp.spacing(x))
    np.testing.assert_array_equal(spacing, [2**-9, 2**-7, -(2**-6), 2**-5, 2**-17])


@pytest.mark.parametrize(
    "src,dst",
    [("float32", "int32"), ("float32", "uint8"), ("int8", "int16"), ("float32", "complex64"),
     ("complex64", "float32"), ("int8", "bool"), ("bool", "uint8"), ("uint16", "int8")],
)  # fmt: skip
def test_view_reinterprets_the_bits_as_numpy_and_jax(src, dst):
    # JAX 0.10.2 gives numpy's little-endian view: the last axis resized for other widths
    x = (np.arange(8) % 2 if "bool" in src + dst else np.arange(8)).astype(src)
    got = jnp.asarray(x).view(dst)
    assert got.dtype == np.dtype(dst)
    np.testing.assert_array_equal(got, x.view(dst))
    np.testing.assert_array_equal(core.jit(lambda a: a.view(dst))(x), x.view(dst))


def test_byteswap_reverses_each_elements_bytes():
    x = np.array([0, 1, 2, 3, 4], np.int32)
    np.testing.assert_array_equal(jnp.asarray(x).byteswap(), x.byteswap())
    c = np.array([1 + 2j, 3 - 4j], np.complex64)
    np.testing.assert_array_equal(jnp.asarray(c).byteswap(), c.byteswap())
    assert jnp.asarray(x).byteswap().byteswap().tolist() == x.tolist()


# JAX 0.10.2's byteswap takes no arguments: numpy's `inplace` is Python's TypeError.
def test_byteswap_takes_no_inplace_argument():
    with pytest.raises(TypeError, match="unexpected keyword argument 'inplace'"):
        jnp.arange(2.0).byteswap(inplace=True)


@pytest.mark.parametrize(
    "dtype, first_line",  # JAX 0.10.2 printed (it counts the bits of |x|, a float)
    [
        ("complex64", "population_count does not accept dtype float32."),
        ("complex128", "population_count does not accept dtype float64."),
        ("float32", "population_count does not accept dtype float32."),
    ],
)
def test_bitwise_count_of_inexact_names_the_float(dtype, first_line):
    with core.enable_x64(), pytest.raises(TypeError) as e:
        jnp.bitwise_count(jnp.ones(2, dtype))
    assert str(e.value).startswith(first_line + " Accepted dtypes are subtypes of integer.")


@pytest.mark.parametrize(
    "fn, x, want",
    [
        # JAX 0.10.2: grad at a Python float is weakly typed (frexp works on a strong copy of
        # its input, whose conversion transposes back to the weak type); the values are 2**-2
        # and 2**3
        (lambda x: jnp.frexp(x)[0], 3.0, 0.25),
        (lambda x: jnp.ldexp(x, 3), 1.5, 8.0),
    ],
    ids=["frexp", "ldexp"],
)
def test_gradients_at_python_floats_are_weak(fn, x, want):
    g = core.grad(fn)(x)
    assert g.dtype == np.float32 and g.weak_type and float(g) == want
    m, e = jnp.frexp(3.0)  # JAX: the mantissa is strongly typed
    assert not m.weak_type and e.dtype == np.int32
