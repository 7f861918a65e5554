"""Result dtypes of core.numpy against the dtypes JAX gives (recorded from JAX 0.x in
jax_dtypes.json: unary/binary ufuncs, reductions, and weak Python scalars)."""

import json
import pathlib
import re
import warnings

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import dtypes, lax

TABLE = json.loads((pathlib.Path(__file__).parent / "jax_dtypes.json").read_text())


def _run(fn):
    try:
        return str(fn().dtype)
    except (TypeError, ValueError):
        return "error"


@pytest.mark.parametrize("case", sorted(TABLE["unary"]))
def test_unary_dtype(case):
    name, dt = case.split(":")
    got = _run(lambda: getattr(jnp, name)(jnp.ones((2,), dt)))
    want = TABLE["unary"][case]
    assert got == want or (want == "error" and got != "error" and name in _LENIENT)


@pytest.mark.parametrize("case", sorted(TABLE["binary"]))
def test_binary_dtype(case):
    name, d1, d2 = case.split(":")
    got = _run(lambda: getattr(jnp, name)(jnp.ones((2,), d1), jnp.ones((2,), d2)))
    want = TABLE["binary"][case]
    assert got == want or (want == "error" and name in _LENIENT)


@pytest.mark.parametrize("case", sorted(TABLE["reduce"]))
def test_reduction_dtype(case):
    name, dt = case.split(":")
    got = _run(lambda: getattr(jnp, name)(jnp.ones((2,), dt)))
    want = TABLE["reduce"][case]
    assert got == want or (want == "error" and name in _LENIENT)


# Functions where JAX rejects some dtypes that we accept (a superset is harmless).
_LENIENT = {
    "sign",
    "ptp",
    "floor_divide",
    "mod",
    "subtract",
    "sinc",
    "invert",
    "isclose",
    "left_shift",
    "right_shift",
    "bitwise_and",
    "heaviside",
    "copysign",
    "hypot",
    "arctan2",
    "logaddexp",
    "fmax",
    "fmin",
    "power",
    "negative",
    "abs",
    "cumprod",
    "cumsum",
    "var",
    "std",
    "mean",
    "median",
    "nanmean",
    "signbit",
    "round",
    "trunc",
    "add",
    "multiply",
    "maximum",
    "minimum",
    "prod",
    "sum",
    "nansum",
}


@pytest.mark.parametrize("case", sorted(TABLE["weak"]))
def test_weak_scalar_promotion(case):
    dt, scalar = case.split(":")
    out = jnp.ones((2,), dt) + eval(scalar)
    assert [str(out.dtype), bool(out.weak_type)] == TABLE["weak"][case]


@pytest.mark.parametrize(
    "expr, dtype, weak",
    [
        (lambda: jnp.array(1.0), "float32", True),
        (lambda: jnp.array(1), "int32", True),
        (lambda: jnp.array([1.0]), "float32", False),
        (lambda: jnp.arange(3), "int32", False),
        (lambda: jnp.arange(3.0), "float32", False),
        (lambda: jnp.float32(2) * 3, "float32", False),
        (lambda: jnp.ones(2, jnp.int32) / 2, "float32", False),
        (lambda: jnp.ones(2, jnp.int8) + 300, "int8", False),
        (lambda: jnp.mean(jnp.arange(4)), "float32", False),
        (lambda: jnp.zeros(2, jnp.uint8) + jnp.zeros(2, jnp.int8), "int16", False),
    ],
)
def test_defaults_and_weak_types(expr, dtype, weak):
    out = expr()
    assert str(out.dtype) == dtype and out.weak_type == weak


def test_x64_mode():
    with core.enable_x64():
        assert jnp.array(1.0).dtype == np.float64
        assert jnp.arange(3).dtype == np.int64
        assert (jnp.ones(2, jnp.float32) + 1.0).dtype == np.float32
        assert jnp.sum(jnp.ones(3, jnp.int32)).dtype == np.int64  # promoted to the default int
        assert jnp.array([1.5], jnp.float64).dtype == np.float64
    assert jnp.array(1.0).dtype == np.float32
    assert jnp.array(np.ones(2)).dtype == np.float32


@pytest.mark.parametrize(
    "a, b, want",
    [
        ("int8", "uint8", "int16"),
        ("float16", "int32", "float16"),
        ("bool", "int8", "int8"),
        ("uint32", "int32", "int32"),
        ("float32", "int32", "float32"),
    ],
)
def test_promote_types(a, b, want):
    # x64 off: int64 canonicalizes to int32 (as JAX's uint32 + int32).
    assert str(jnp.promote_types(a, b)) == want


def test_dtype_helpers():
    assert jnp.finfo(jnp.float32).eps == np.finfo(np.float32).eps
    assert jnp.iinfo(jnp.int8).max == 127
    assert jnp.issubdtype(jnp.float32, jnp.floating)
    assert jnp.result_type(jnp.int8, 1.0) == np.float32
    assert jnp.can_cast(jnp.int8, jnp.int32) and not jnp.can_cast(jnp.float32, jnp.int32)
    assert jnp.isdtype(jnp.float32, "real floating") and not jnp.isdtype(jnp.int8, "bool")
    assert jnp.isscalar(3.0) and jnp.isscalar(jnp.array(1)) and not jnp.isscalar(jnp.ones(2))


# JAX 0.10.2 (x64 off): finfo and iinfo describe the dtype as given, not canonicalized; an
# array gives its dtype's, a Python int value int64's, a float value raises
@pytest.mark.parametrize(
    "call, want",
    [
        (lambda: jnp.finfo(float).eps, np.finfo(np.float64).eps),
        (lambda: jnp.finfo(jnp.float64).bits, 64),
        (lambda: jnp.finfo(complex).dtype, np.dtype("float64")),
        (lambda: jnp.finfo("complex64").dtype, np.dtype("float32")),
        (lambda: jnp.finfo(jnp.ones(2, "float16")).dtype, np.dtype("float16")),
        (lambda: jnp.finfo(jnp.bfloat16).eps, 0.0078125),
        (lambda: jnp.iinfo(int).max, 2**63 - 1),
        (lambda: jnp.iinfo(np.uint64).max, 2**64 - 1),
        (lambda: jnp.iinfo(1).bits, 64),
        (lambda: jnp.iinfo(jnp.ones(2, "int16")).min, -32768),
        (lambda: jnp.iinfo(jnp.int4).min, -8),
    ],
)
def test_finfo_iinfo_are_not_canonicalized(call, want):
    assert call() == want


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: jnp.finfo(1.0), TypeError, "Cannot interpret '1.0' as a data type"),
        (lambda: jnp.finfo("int32"), ValueError, "not inexact"),
    ],
)
def test_finfo_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


@pytest.mark.parametrize(
    "call, error, message",
    [  # JAX 0.10.2's errors
        (lambda: jnp.zeros(3, dtype=jnp.arange(2)), ValueError, "Passing an array as a dtype"),
        (lambda: jnp.arange(3).astype(jnp.arange(2)), ValueError, "instead of dtype=arr use"),
        (lambda: jnp.zeros(3, dtype=np.arange(2)), TypeError, "Cannot construct a dtype from"),
        (lambda: core.jit(lambda d: jnp.zeros(2, d))(jnp.arange(2)), ValueError, "Passing an"),
        (lambda: dtypes.itemsize_bits(None), ValueError, "dtype cannot be None"),
    ],
)
def test_array_as_dtype_raises(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_scalar_types_survive_copies():
    """As JAX's `jnp.float32` (a class), copies are the object itself, so `copy.deepcopy` of a
    module or config holding a dtype works."""
    import copy

    assert copy.copy(jnp.float32) is jnp.float32
    assert copy.deepcopy({"dtype": jnp.bfloat16})["dtype"] is jnp.bfloat16


# JAX 0.10.2: Python ints that the target integer dtype cannot hold raise OverflowError (numpy
# integer arrays wrap silently, as in JAX).
_TOO_LARGE = "Python int {} too large to convert to {}"
_OUT_OF_BOUNDS = "Python integer {} out of bounds for {}"


@pytest.mark.parametrize(
    "make, x64, message",
    [
        (lambda: jnp.array(2**40), False, _TOO_LARGE.format(2**40, "int32")),
        (lambda: jnp.asarray(2**31), False, _TOO_LARGE.format(2**31, "int32")),
        (lambda: jnp.array(-(2**31) - 1), False, _TOO_LARGE.format(-(2**31) - 1, "int32")),
        (lambda: jnp.array([1, 2**40]), False, _OUT_OF_BOUNDS.format(2**40, "int32")),
        (lambda: jnp.array((2**40,)), False, _OUT_OF_BOUNDS.format(2**40, "int32")),
        (lambda: jnp.array(2**40, dtype=jnp.int32), False, _OUT_OF_BOUNDS.format(2**40, "int32")),
        (lambda: jnp.array(300, dtype=jnp.uint8), False, _OUT_OF_BOUNDS.format(300, "uint8")),
        (lambda: jnp.array(-1, dtype=jnp.uint32), True, _OUT_OF_BOUNDS.format(-1, "uint32")),
        (lambda: jnp.int32(2**40), True, _OUT_OF_BOUNDS.format(2**40, "int32")),
        (lambda: jnp.array(2**63), True, _TOO_LARGE.format(2**63, "int64")),
        (lambda: jnp.array(2**64), True, "too large to convert"),
        (lambda: jnp.array(-(2**63) - 1), True, "too large to convert"),
        (lambda: jnp.ones(3, jnp.int32) + 2**40, False, "out of bounds for int32"),
    ],
)
def test_out_of_range_python_ints_overflow_like_jax(make, x64, message):
    with core.enable_x64(x64), pytest.raises(OverflowError, match=re.escape(message)):
        make()


def test_in_range_python_ints_and_numpy_ints_convert_like_jax():
    assert int(jnp.array(2**31 - 1)) == 2**31 - 1 and int(jnp.array(-(2**31))) == -(2**31)
    assert float(jnp.array(2**40, dtype=jnp.float32)) == 2.0**40
    np.testing.assert_array_equal(jnp.array(np.array([2**40])), [0])  # numpy ints wrap
    with core.enable_x64():
        assert int(jnp.array(2**40)) == 2**40 and jnp.array(2**40).dtype == np.int64
        assert int(jnp.array(2**64 - 1, dtype=jnp.uint64)) == 2**64 - 1


@pytest.mark.parametrize(  # JAX 0.10.2's answers
    "dtype, bits",
    [
        (jnp.bool_, 8),
        (jnp.float6_e2m3fn, 6),
        (jnp.float4_e2m1fn, 4),
        (jnp.float8_e4m3fn, 8),
        (jnp.bfloat16, 16),
        (jnp.complex64, 64),
        ("int64", 64),
    ],
)
def test_itemsize_bits(dtype, bits):
    assert core.dtypes.itemsize_bits(dtype) == bits


@pytest.mark.parametrize(
    "x, typ",
    [
        (True, bool),
        (1, int),
        (1.0, float),
        (1j, complex),
        (jnp.ones(2, jnp.bfloat16), float),
        (jnp.ones(2, jnp.float8_e4m3fn), float),
        (jnp.ones(1, jnp.uint8), int),
        (np.bool_(1), bool),
    ],
)
def test_scalar_type_of(x, typ):
    assert core.dtypes.scalar_type_of(x) is typ


# A 64-bit dtype asked for without x64: JAX 0.10.2 truncates it with a UserWarning naming the
# function ("Explicitly requested dtype float64 requested in zeros is not available, ...").
_F64, _I64 = jnp.float64, jnp.int64
TRUNCATED_64_BIT = [
    ("zeros", lambda: jnp.zeros(2, _F64)),
    ("ones", lambda: jnp.ones(2, _F64)),
    ("empty", lambda: jnp.empty(2, _F64)),
    ("full", lambda: jnp.full(2, 1.0, _F64)),
    ("zeros_like", lambda: jnp.zeros_like(jnp.ones(2), _F64)),
    ("ones_like", lambda: jnp.ones_like(jnp.ones(2), _F64)),
    ("full_like", lambda: jnp.full_like(jnp.ones(2), 1, _F64)),
    ("array", lambda: jnp.array([1.0], _F64)),
    ("asarray", lambda: jnp.asarray([1.0], _F64)),
    ("arange", lambda: jnp.arange(3, dtype=_I64)),
    ("linspace", lambda: jnp.linspace(0, 1, 3, dtype=_F64)),
    ("logspace", lambda: jnp.logspace(0, 1, 3, dtype=_F64)),
    ("geomspace", lambda: jnp.geomspace(1, 2, 3, dtype=_F64)),
    ("eye", lambda: jnp.eye(2, dtype=_F64)),
    ("identity", lambda: jnp.identity(2, _F64)),
    ("tri", lambda: jnp.tri(2, dtype=_F64)),
    ("indices", lambda: jnp.indices((2,), dtype=_I64)),
    ("astype", lambda: jnp.ones(2).astype(_F64)),
    ("astype", lambda: jnp.astype(jnp.ones(2), _F64)),
    ("sum", lambda: jnp.sum(jnp.ones(2), dtype=_F64)),
    ("mean", lambda: jnp.mean(jnp.ones(2), dtype=_F64)),
    ("var", lambda: jnp.var(jnp.ones(2), dtype=_F64)),
    ("cumsum", lambda: jnp.cumsum(jnp.ones(2), dtype=_F64)),
]


@pytest.mark.parametrize("name, make", TRUNCATED_64_BIT)
def test_truncated_64_bit_dtype_warns_naming_the_function(name, make):
    with pytest.warns(UserWarning, match=f"requested in {name} is not available, and will be"):
        out = make()
    assert out.dtype.itemsize == 4


@pytest.mark.parametrize("name, make", TRUNCATED_64_BIT[::5])
def test_explicit_x64_dtypes_error_mode_raises_jaxs_value_error(name, make):
    # JAX 0.10.2 under jax_explicit_x64_dtypes='error'
    message = f"^Explicitly requested dtype .*64 requested in {name} is not available. To enable"
    with core.config.override("jax_explicit_x64_dtypes", "error"):
        with pytest.raises(ValueError, match=message):
            make()
        jnp.asarray(np.ones(2)), jnp.zeros(2, float)  # not an explicit 64-bit request
    assert core.config.explicit_x64_dtypes == "warn"
    with pytest.raises(NotImplementedError, match="'allow' is not implemented"):
        core.config.update("jax_explicit_x64_dtypes", "allow")


def test_32_bit_and_default_dtypes_do_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        jnp.ones(2, jnp.float32), jnp.ones(2), jnp.asarray(np.ones(2)), jnp.array(np.ones(2))
        jnp.zeros((), dtype=int), jnp.zeros(2, float), jnp.zeros(2, complex)
        jnp.fromfunction(lambda i: i, (3,))


def test_strict_promotion_allows_only_weak_types_as_jax():
    # JAX 0.10.2: docs/type_promotion.rst's "Strict dtype promotion", also under jit (the
    # mode is part of the cache key) and in jnp.promote_types
    x, y = jnp.float32(1), jnp.int32(1)
    add = core.jit(lambda a, b: a + b)
    assert add(x, y).dtype == np.float32
    with core.numpy_dtype_promotion("strict"):
        for f in (lambda: x + y, lambda: add(x, y), lambda: jnp.promote_types("int8", "int16")):
            with pytest.raises(core.dtypes.TypePromotionError, match="when jax_numpy_dtype_pro"):
                f()
        z = x + 1
        assert (z.dtype, z.weak_type) == (np.float32, False)
        assert jnp.result_type(1, 1.0) == np.float32 and jnp.promote_types(int, "uint8") == "uint8"
        with pytest.raises(core.dtypes.TypePromotionError):
            jnp.asarray(True) + 1  # bool meets nothing in the strict lattice
    assert add(x, y).dtype == np.float32


def test_result_type_takes_python_types_as_weak_and_scalar_types():
    # JAX 0.10.2: jnp.result_type(np.int8, int) is int8, result_type(float, float16) float16
    assert jnp.result_type(np.int8, int) == np.int8
    assert jnp.result_type(float, np.float16) == np.float16
    assert jnp.result_type(int) == np.int32
    # core.dtypes stands for JAX's private jax._src.dtypes, which programs import
    assert dtypes.lattice_result_type(int) == (np.dtype("int32"), True)
    assert dtypes.lattice_result_type(np.bool_, int) == (np.dtype("int32"), True)
    assert dtypes.lattice_result_type(jnp.bfloat16, np.float16) == (np.dtype("float32"), False)


def _weak(value, dtype):
    return lax.convert_element_type(value, dtype, weak_type=True)  # JAX: lax._convert_element_type


# JAX 0.10.2: one argument keeps its own dtype and weak type; weakly typed arguments alone join
# their dtypes (weak int16 and weak int8 give a weak int16); a weak result of `result_type` is
# the default dtype of its kind (a weak uint8 gives uint32); None stands for the default float.
@pytest.mark.parametrize(
    "call, want",
    [
        (lambda: dtypes.lattice_result_type(_weak(0, np.int16)), ("int16", True)),
        (
            lambda: dtypes.lattice_result_type(_weak(0, np.int16), _weak(0, np.int8)),
            ("int16", True),
        ),
        (
            lambda: dtypes.lattice_result_type(_weak(0, np.uint8), _weak(0, np.int8)),
            ("int16", True),
        ),
        (lambda: dtypes.lattice_result_type(_weak(0, np.int16), 1), ("int32", True)),
        (lambda: dtypes.lattice_result_type(_weak(0, jnp.bfloat16), 1.0), ("float32", True)),
        (lambda: dtypes.lattice_result_type(_weak(0, np.bool_)), ("bool", False)),
        (lambda: dtypes.lattice_result_type(np.int32, _weak(0, np.int32)), ("int32", False)),
        (lambda: jnp.result_type(_weak(0, np.uint8)), "uint32"),
        (lambda: jnp.result_type(_weak(0, jnp.bfloat16)), "float32"),
        (lambda: jnp.result_type(None), "float32"),
        (lambda: dtypes.result_type(1.0, return_weak_type_flag=True), ("float32", True)),
        (lambda: dtypes.result_type(np.float32, return_weak_type_flag=True), ("float32", False)),
        (lambda: _weak(0, np.int16) + _weak(1, np.int8), ("int16", True)),
        (lambda: _weak(0, jnp.bfloat16) + _weak(1, np.int16), ("bfloat16", True)),
        (lambda: _weak(0, jnp.int4) + np.int8(1), ("int8", False)),
        (lambda: _weak(0, jnp.int4) + np.bool_(True), ("int32", True)),
        (lambda: jnp.where(True, _weak(0, np.int16), _weak(1, np.int8)), ("int16", True)),
    ],
)
def test_weak_arguments_promote_as_jax(call, want):
    got = call()
    if hasattr(got, "aval"):
        got = (got.dtype, got.weak_type)
    if isinstance(got, tuple):
        got = (str(got[0]), got[1])
    assert got == (want if isinstance(want, tuple) else np.dtype(want))


# JAX 0.10.2: the extended and sub-byte types are numpy scalar types below their parents only
@pytest.mark.parametrize(
    "a, b, expected",
    [
        (jnp.bfloat16, object, False),
        ("bfloat16", object, False),
        (jnp.float8_e4m3fn, np.generic, True),
        (jnp.bfloat16, np.float64, False),
        (jnp.int4, object, False),
        (jnp.int4, np.signedinteger, True),
        (jnp.uint2, np.signedinteger, False),
        (dtypes.extended, np.generic, True),
        (dtypes.prng_key, np.number, False),
    ],
)
def test_issubdtype_of_extended_types(a, b, expected):
    assert jnp.issubdtype(a, b) is expected


# JAX 0.10.2's jnp.isdtype: the extended dtypes are of their kinds; bad kinds raise.
@pytest.mark.parametrize(
    "dtype, kind, expected",
    [
        (jnp.bfloat16, "real floating", True),
        (jnp.float8_e4m3fn, "numeric", True),
        (jnp.int4, "signed integer", True),
        (jnp.uint2, "integral", True),
        (jnp.uint2, "signed integer", False),
        (jnp.bfloat16, ("bool", "real floating"), True),
        (jnp.float16, "complex floating", False),
        (jnp.float32, (jnp.float32, jnp.float16), True),
    ],
)
def test_isdtype_kinds_of_extended_dtypes(dtype, kind, expected):
    assert jnp.isdtype(dtype, kind) is expected


@pytest.mark.parametrize(
    "kind, error, message",
    [  # JAX 0.10.2's errors
        (jnp.floating, TypeError, "Expected kind to be a dtype, string, or tuple; got kind="),
        (["real floating"], TypeError, r"Expected kind to be a dtype, string, or tuple; got kind="),
        ("floating", ValueError, "Unrecognized kind='floating' expected one of"),
    ],
)
def test_isdtype_bad_kinds(kind, error, message):
    with pytest.raises(error, match=message):
        jnp.isdtype(jnp.float32, kind)


@pytest.mark.parametrize(
    "make, message",
    [  # JAX 0.10.2's first lines
        (lambda: jnp.array([1, 2], dtype=np.object_), "got dtype <class 'numpy.object_'> in array"),
        (lambda: jnp.asarray([1, 2], dtype=object), "got dtype <class 'object'> in asarray"),
        (lambda: jnp.zeros(2, dtype=object), "got dtype <class 'object'> in zeros"),
    ],
)
def test_object_dtype_is_refused_as_jax_does(make, message):
    first = "^JAX only supports number, bool, and string dtypes, "
    with pytest.raises(TypeError, match=first + message):
        make()


def test_none_in_a_list_is_not_a_value():
    # JAX 0.10.2: ValueError: None is not a valid value for jnp.array
    with pytest.raises(ValueError, match="^None is not a valid value for jnp.array"):
        jnp.array([1, None])


def test_structured_dtype_has_jaxs_message():
    with pytest.raises(TypeError, match=r"JAX only supports number, bool, and string dtypes, got"):
        jnp.array(3, [("a", "<i4"), ("b", "<i4")])


def test_issubdtype_takes_jaxs_keyword_names():
    assert jnp.issubdtype(arg1=jnp.bfloat16, arg2=jnp.floating)
    assert not jnp.issubdtype(arg1=jnp.int32, arg2=jnp.floating)
