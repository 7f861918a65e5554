"""core.numpy arithmetic helpers (gcd, lcm, fabs, angle, pow) against JAX's answers and numpy."""

import json
import pathlib

import numpy as np
import pytest

import core
import core.numpy as jnp
from tests.core.numpy import complex_multiply_cases
from tests.core.numpy.known_answers import check

# (id, thunk, expected) with expected values/dtypes/weak types recorded from JAX 0.10.2.
KNOWN = [
    (
        "gcd",
        lambda: jnp.gcd(jnp.array([12, -18, 0, 7, 0]), jnp.array([8, 12, 5, 0, 0])),
        ([4, 6, 5, 7, 0], "int32", False),
    ),
    ("gcd_scal", lambda: jnp.gcd(12, jnp.array([4, 9, 10])), ([4, 3, 2], "int32", False)),
    (
        "gcd_u8",
        lambda: jnp.gcd(jnp.array([12, 200], jnp.uint8), jnp.array([18, 150], jnp.uint8)),
        ([6, 50], "uint8", False),
    ),
    ("gcd_w", lambda: jnp.gcd(12, 18), (6, "int32", True)),
    (
        "lcm",
        lambda: jnp.lcm(jnp.array([4, -6, 0, 7]), jnp.array([6, 4, 5, 3])),
        ([12, 12, 0, 21], "int32", False),
    ),
    ("lcm_i16", lambda: jnp.lcm(jnp.array([4, 6], jnp.int16), 10), ([20, 30], "int16", False)),
    ("fabs", lambda: jnp.fabs(jnp.array([-1, 2, -3])), ([1.0, 2.0, 3.0], "float32", False)),
    (
        "fabs_f",
        lambda: jnp.fabs(jnp.array([-1.5, 2.0], jnp.float16)),
        ([1.5, 2.0], "float16", False),
    ),
    ("fabs_w", lambda: jnp.fabs(-2), (2.0, "float32", True)),
    (
        "angle",
        lambda: jnp.angle(jnp.array([1.0, -2.0, 0.0])),
        ([0.0, 3.1415927410125732, 0.0], "float32", False),
    ),
    (
        "angle_int",
        lambda: jnp.angle(jnp.array([1, -2, 0])),
        ([0.0, 3.1415927410125732, 0.0], "float32", False),
    ),
    (
        "angle_deg",
        lambda: jnp.angle(jnp.array([-1.0, 3.0]), deg=True),
        ([180.0, 0.0], "float32", False),
    ),
    ("angle_scal", lambda: jnp.angle(-1.0), (3.1415927410125732, "float32", False)),
    (
        "angle_c",
        lambda: jnp.angle(jnp.array([1 + 1j, -1j, -1 + 0j], jnp.complex64)),
        ([0.7853981852531433, -1.5707963705062866, 3.1415927410125732], "float32", False),
    ),
    (
        "angle_f16",
        lambda: jnp.angle(jnp.array([-1.0], jnp.float16)),
        ([3.140625], "float16", False),
    ),
    ("pow", lambda: jnp.pow(jnp.arange(4), 2), ([0, 1, 4, 9], "int32", False)),
    (
        "pow_f",
        lambda: jnp.pow(jnp.array([2.0, 3.0]), jnp.array([0.5, -1.0])),
        ([1.4142135381698608, 0.3333333432674408], "float32", False),
    ),
    ("angle_pyint", lambda: jnp.angle(2), (0.0, "float32", False)),
    ("angle_pyfloat", lambda: jnp.angle(-2.0), (3.1415927410125732, "float32", False)),
    ("fabs_pyf", lambda: jnp.fabs(-2.0), (2.0, "float32", True)),
    ("lcm_w", lambda: jnp.lcm(4, 6), (12, "int32", True)),
    ("gcd_i8", lambda: jnp.gcd(jnp.int8(4), 6), (2, "int8", False)),
    ("pow_w", lambda: jnp.pow(2, 3), (8, "int32", True)),
    ("pow_neg", lambda: jnp.pow(jnp.array([2, 3]), jnp.array([2, 0])), ([4, 1], "int32", False)),
]


@pytest.mark.parametrize("name, thunk, want", KNOWN, ids=[c[0] for c in KNOWN])
def test_known_answers(name, thunk, want):
    check(thunk(), want)


INTS = np.array([0, 1, -4, 6, 35, -49, 120, 97], np.int32)


@pytest.mark.parametrize("name", ["gcd", "lcm"])
@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint16])
def test_gcd_lcm_match_numpy(name, dtype):
    x = np.abs(INTS).astype(dtype) if np.dtype(dtype).kind == "u" else INTS.astype(dtype)
    y = x[::-1].reshape(2, 1, 4)
    x = x.reshape(2, 4)
    if dtype == np.int8:
        x, y = x % 20, y % 20
    got = getattr(jnp, name)(x, y)
    want = getattr(np, name)(x, y)
    np.testing.assert_array_equal(np.asarray(got), want)
    assert np.asarray(got).dtype == want.dtype


@pytest.mark.parametrize(
    "x",
    [np.array([1.0, -2.0, 0.0, -0.0], np.float32), np.array([3, -4], np.int32), np.float32(-2.5)],
)
@pytest.mark.parametrize("deg", [False, True])
def test_angle_matches_numpy(x, deg):
    np.testing.assert_allclose(np.asarray(jnp.angle(x, deg=deg)), np.angle(x, deg=deg), rtol=1e-6)


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda: jnp.gcd(np.ones(2, np.float32), 2), ValueError),
        (lambda: jnp.lcm(1.5, 2), ValueError),
        (lambda: jnp.fabs(np.array([1 + 1j], np.complex64)), TypeError),
    ],
)
def test_errors(call, error):
    with pytest.raises(error):
        call()


def test_under_jit_vmap_grad():
    x, y = jnp.array([12, 18, 0]), jnp.array([8, 12, 5])
    np.testing.assert_array_equal(np.asarray(core.jit(jnp.gcd)(x, y)), [4, 6, 5])
    np.testing.assert_array_equal(np.asarray(core.vmap(jnp.lcm)(x, y)), [24, 36, 0])
    g = core.grad(lambda v: jnp.fabs(v).sum())(jnp.array([-2.0, 3.0]))
    np.testing.assert_array_equal(np.asarray(g), [-1.0, 1.0])
    g = core.grad(lambda v: jnp.pow(v, 3.0))(2.0)
    np.testing.assert_allclose(float(g), 12.0)


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: x - x,
        lambda x: x + (-x),
        lambda x: x * 0,
        lambda x: x * 1e38,
        lambda x: x / 0,
        lambda x: jnp.log(x - x),
        lambda x: jnp.sqrt(-x),
        lambda x: jnp.exp(x * 100),
    ],
)
def test_eager_inf_and_nan_arithmetic_is_silent(fn):
    """JAX returns inf/nan without numpy's RuntimeWarnings; so do eager primitives."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = fn(jnp.array([np.inf, 1e38, 1.0], jnp.float32))
    assert out.dtype == np.float32


@pytest.mark.parametrize("name", ["sin", "cos", "tan"])
def test_trigonometric_impls_of_inf_are_silent(name):
    """sin/cos/tan of inf are nan without numpy's 'invalid value' RuntimeWarning (the impls run
    eagerly inside `checkify`'s interpreter, which printed one for debugging.md's
    `checked_f(jnp.array([jnp.inf, 1]), 0)`)."""
    import warnings

    from core.prims import elementwise as ew

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = getattr(ew, f"{name}_p").impl(np.array([np.inf, 1.0], np.float32))
    assert np.isnan(out[0]) and out.dtype == np.float32


@pytest.mark.parametrize(
    "dtype", [np.bool_, np.int8, np.int16, np.uint32, np.float32, np.complex64]
)
def test_where_on_large_arrays_keeps_every_bit(dtype):
    """Large eager selects take a branchless bit blend: the same bits as numpy's where (nan
    payloads and -0.0 included)."""
    rng = np.random.default_rng(0)
    n = 5000  # above the blend's size threshold
    special = np.array([np.nan, -0.0, np.inf, 1.5], np.float32)
    a = (rng.standard_normal(n) * 10).astype(dtype)
    b = (rng.standard_normal(n) * 10).astype(dtype)
    if dtype == np.float32:
        a[:4], b[:4] = special, -special
    cond = rng.random(n) > 0.5
    got = np.asarray(jnp.where(jnp.asarray(cond), jnp.asarray(a), jnp.asarray(b)))
    want = np.where(cond, a, b)
    assert got.dtype == want.dtype
    u = f"u{want.dtype.itemsize}"
    np.testing.assert_array_equal(got.view(u), want.view(u))


def test_power_rounds_like_jax():
    # JAX 0.10.2's bits. A concrete integer exponent (also a 0-d integer array) is repeated
    # squaring; a traced or array exponent is XLA's pow, computed in double precision.
    bits = lambda a: np.asarray(a).view(np.uint32).tolist()  # noqa: E731
    three = jnp.asarray(3, jnp.int32)
    assert bits(0.999**three) == 1065302936 and bits(jnp.power(0.999, 6)) == 1065252806
    assert bits(jnp.float32(1.1) ** 7) == 1073311634
    assert bits(core.jit(lambda c: 0.999**c)(three)) == 1065302935
    ts = jnp.array([3, 6, 7, 872, 1500])
    assert bits(0.999**ts) == [1065302935, 1065252805, 1065236129, 1054211024, 1046761851]
    x, y = jnp.array([0.3, 1.7, 2.5, 0.999]), jnp.array([2.2, -1.3, 7.1, 1234.5])
    want = [1032904776, 1056992592, 1143421661, 1049945194]
    assert bits(x**y) == want and bits(core.jit(lambda a, b: a**b)(x, y)) == want


_X = np.array([[15.0, 3.0, 7.0], [1.0, 22.0, 0.7]], np.float32)
_COUNTS = (np.arange(100)[:, None] < np.array([15, 33, 7])).astype(np.float32)


@pytest.mark.parametrize(
    "call,bits",
    [  # float32 bits of JAX 0.10.2's eager results (15 / 100: 0.14999999 is 1041865113)
        (lambda: jnp.asarray(_X) / 100, [1041865113, 1022739087, 1032805417, 1008981770,
                                         1046562734, 1004888129]),
        (lambda: jnp.asarray(_X) / jnp.asarray([[100.0], [3.0]]),
         [1041865113, 1022739087, 1032805417, 1051372203, 1089120939, 1047457519]),
        (lambda: jnp.asarray(_X) / jnp.asarray([100.0, 3.0, 10.0]),
         [1041865113, 1065353216, 1060320051, 1008981770, 1089120939, 1032805417]),
        (lambda: jnp.mean(jnp.asarray(_COUNTS), axis=0), [1041865113, 1051260354, 1032805417]),
        (lambda: jnp.mean(jnp.asarray(_COUNTS[:, 0])), [1041865113]),
        # no broadcast, no constant: a correctly rounded division
        (lambda: jnp.asarray(_X) / jnp.asarray([[100.0, 3.0, 7.0], [10.0, 3.0, 100.0]]),
         [1041865114, 1065353216, 1065353216, 1036831949, 1089120939, 1004888129]),
        (lambda: jnp.float32(15.0) / 100, [1041865114]),
    ],
)  # fmt: skip
def test_eager_division_rounds_like_jax(call, bits):
    """XLA multiplies by the reciprocal of a broadcast or constant divisor; eager numbax too."""
    np.testing.assert_array_equal(np.asarray(call()).view(np.uint32).ravel(), bits)


_X16 = np.arange(-4, 8).reshape(2, 6)


@pytest.mark.parametrize(
    "call,bits",
    [  # 16-bit patterns of JAX 0.10.2's eager results: XLA's CPU code computes bfloat16 in
        # float32 (5 / 3 is 1.6640625, 16341; not 5 * bf16(1 / 3) = 1.671875), float16 in float16
        (lambda: jnp.asarray(_X16, jnp.bfloat16) / 3,
         [49067, 49024, 48939, 48811, 0, 16043, 16171, 16256, 16299, 16341, 16384, 16405]),
        (lambda: jnp.asarray(_X16, jnp.bfloat16) / jnp.asarray([[3.0], [7.0]], jnp.bfloat16),
         [49067, 49024, 48939, 48811, 0, 16043, 16018, 16091, 16146, 16183, 16219, 16256]),
        (lambda: jnp.mean(jnp.asarray(_X16, jnp.bfloat16), axis=0),
         [49024, 0, 16256, 16384, 16448, 16512]),
        (lambda: jnp.asarray(_X16, jnp.float16) / 3,
         [48469, 48128, 47445, 46421, 0, 13653, 14677, 15360, 15701, 16042, 16384, 16554]),
    ],
)  # fmt: skip
def test_eager_16_bit_division_rounds_like_jax(call, bits):
    np.testing.assert_array_equal(np.asarray(call()).view(np.uint16).ravel(), bits)


# Complex products bit for bit with JAX (`jax_complex_multiply.json`, recorded by
# `record_complex_multiply.py`): XLA's two fused multiply-adds, and the swapped operands of a
# right operand broadcast along the minor axis.
COMPLEX_PRODUCTS = json.loads(
    (pathlib.Path(__file__).parent / "jax_complex_multiply.json").read_text()
)


COMPLEX_CASES = list(complex_multiply_cases.SHAPES)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("name", COMPLEX_CASES)
def test_complex_multiply_rounds_like_xla(name, dtype):
    x, y = complex_multiply_cases.operands(name, dtype)
    real, imag = COMPLEX_PRODUCTS[f"{dtype}|{name}"]
    with core.enable_x64():
        for got in (jnp.multiply(x, y), jnp.asarray(x) * y):
            got = np.asarray(got).ravel()
            assert got.dtype == dtype
            np.testing.assert_array_equal(got.real, real)
            np.testing.assert_array_equal(got.imag, imag)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_multiply_under_jit_rounds_like_xla(dtype):
    with core.enable_x64():
        ops = {name: complex_multiply_cases.operands(name, dtype) for name in COMPLEX_CASES}
        outs = core.jit(lambda ops: {k: jnp.multiply(*v) for k, v in ops.items()})(ops)
        for name, got in outs.items():
            real, imag = COMPLEX_PRODUCTS[f"{dtype}|{name}"]
            np.testing.assert_array_equal(np.asarray(got).real.ravel(), real)
            np.testing.assert_array_equal(np.asarray(got).imag.ravel(), imag)


# Operands that do not broadcast fail in the primitive with JAX 0.10.2's TypeError and first
# line, also for the divisions (whose eager rounding path looks at the broadcast shape first).
@pytest.mark.parametrize(
    ("fn", "prim"),
    [
        (jnp.true_divide, "div"),
        (jnp.divide, "div"),
        (jnp.remainder, "rem"),
        (jnp.add, "add"),
        (jnp.atan2, "atan2"),
    ],
)
def test_non_broadcasting_operands_are_jaxs_type_error(fn, prim):
    with pytest.raises(TypeError) as info:
        fn(jnp.ones(2), jnp.ones(3))
    assert str(info.value) == f"{prim} got incompatible shapes for broadcasting: (2,), (3,)."
