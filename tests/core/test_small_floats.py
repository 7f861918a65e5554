"""The small floats (`jnp.float8_e4m3fn`, `float8_e5m2`, ... float6, float4: `ml_dtypes`' types)
against JAX 0.10.2's answers in `jax_small_floats.json` (recorded by `record_small_floats.py`;
JAX is not imported here): promotion (none to other floats: `TypePromotionError`), `finfo`,
and the values of arithmetic, math, reductions, casts, `grad` and `jit`."""

import json
import math
import pathlib
import warnings

import ml_dtypes
import numpy as np
import pytest

import core
import core.numpy as jnp
from core import dtypes
from core.jit.errors import NumpyFallbackWarning

ANSWERS = json.loads((pathlib.Path(__file__).parent / "jax_small_floats.json").read_text())
SMALL = list(dtypes.SMALL_FLOAT_NAMES)
COMPUTED = [a for a in SMALL if a.startswith("float8")]  # XLA's CPU computes no float6/float4


def _floats(x) -> list:
    return [None if math.isnan(v) else v for v in np.asarray(x, np.float32).ravel().tolist()]


def _outcome(fn, values=True):
    try:
        out = fn()
    except Exception as e:  # noqa: BLE001  (compared with JAX's outcome)
        return {"error": type(e).__name__, "message": str(e)}
    return {"dtype": str(out.dtype), "values": _floats(out)} if values else {"dtype": str(out)}


def test_names_are_ml_dtypes_types():
    for name in SMALL:
        t = getattr(jnp, name)
        assert t == np.dtype(getattr(ml_dtypes, name)) == jnp.dtype(name)
        assert jnp.issubdtype(t, jnp.floating) and jnp.issubdtype(t, jnp.inexact)
        assert not jnp.issubdtype(t, jnp.integer) and not jnp.issubdtype(t, jnp.bfloat16)
        assert jnp.issubdtype(t, t) and dtypes.kind(np.dtype(t)) == "f"
    assert not jnp.issubdtype(jnp.bfloat16, jnp.float8_e4m3fn)
    x = jnp.float8_e4m3fn(1.7)
    assert repr(x) == "Array(1.75, dtype=float8_e4m3fn)"


@pytest.mark.parametrize("pair", sorted(ANSWERS["promote"]))
def test_promote_types(pair):
    a, b = pair.split(",")
    got = _outcome(lambda: jnp.promote_types(a, b), values=False)
    assert got == ANSWERS["promote"][pair]


@pytest.mark.parametrize("case", sorted(ANSWERS["weak"]))
def test_python_scalars(case):
    a, label = case.split(",")
    scalar = {"int": 2, "float": 2.0, "complex": 2j, "bool": True}[label]
    expected = ANSWERS["weak"][case]
    got = _outcome(lambda: core.eval_shape(lambda: jnp.zeros(3, a) + scalar).dtype, values=False)
    assert got == expected


def test_mixing_with_other_floats_raises():
    x = jnp.ones(3, jnp.float8_e4m3fn)
    for other in (jnp.ones(3), jnp.ones(3, jnp.float8_e5m2), jnp.ones(3, jnp.bfloat16)):
        with pytest.raises(dtypes.TypePromotionError, match="8-bit floats do not support"):
            x + other
    with pytest.raises(ValueError, match="6-bit floats"):
        jnp.promote_types(jnp.float6_e2m3fn, jnp.float32)
    with pytest.raises(ValueError, match="4-bit floats"):
        jnp.promote_types(jnp.float4_e2m1fn, jnp.float16)
    np.testing.assert_array_equal(x.astype(jnp.float32) + jnp.ones(3), [2, 2, 2])


@pytest.mark.parametrize("name", SMALL)
def test_finfo(name):
    fi = jnp.finfo(getattr(jnp, name))
    for field, value in ANSWERS["finfo"][name].items():
        assert float(getattr(fi, field)) == value, field


def _case(name: str, op: str):
    values = np.asarray(ANSWERS["VALUES"], np.float32)
    x, y = jnp.asarray(values).astype(name), jnp.asarray(values[::-1]).astype(name)
    long = jnp.asarray(np.linspace(0.1, 3.0, 64, dtype=np.float32)).astype(name)
    special = {
        "astype": lambda: x,
        "to_float32": lambda: x.astype(jnp.float32),
        "long_sum": lambda: jnp.sum(long),
        "long_mean": lambda: jnp.mean(long),
        "dot": lambda: jnp.dot(long, long),
        "grad": lambda: core.grad(lambda v: jnp.sum(v * v).astype(jnp.float32))(x),
        "jit_mul": lambda: core.jit(lambda p, q: p * q + p)(x, y),
    }
    if op in special:
        return special[op]
    fn = getattr(jnp, op)
    binary = op in ("add", "multiply", "subtract", "divide", "maximum")
    return (lambda: fn(x, y)) if binary else (lambda: fn(x))


# Sums accumulate in float32 and round once (as numbax does for bfloat16); XLA on the CPU adds
# float8 values in float8 (each step through float16) in an order of its own, so its sums of
# more than a few elements differ from any fixed order: these are checked against float64 sums.
ACCUMULATING = {"sum", "mean", "var", "cumsum", "long_sum", "long_mean", "dot"}
# JAX's transpose adds a zero, which float8_e8m0fnu (powers of two only) cannot hold: NaN.
SKIPPED = {"float8_e8m0fnu,grad"}
VALUE_CASES = sorted(
    k for k in ANSWERS["values"] if "," in k and k.split(",")[1] not in ACCUMULATING
)


@pytest.mark.parametrize("case", sorted(set(VALUE_CASES) - SKIPPED))
def test_values(case):
    name, op = case.split(",")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumpyFallbackWarning)
        got = _outcome(_case(name, op))
    assert got == ANSWERS["values"][case]


@pytest.mark.parametrize("name", ["float8_e3m4", "float8_e4m3b11fnuz"])
def test_var_computes_in_the_float8_dtype_as_jax(name):
    """JAX's var computes float8 values in their own dtype (it upcasts only float16 and
    bfloat16): the squares of VALUES overflow float8_e3m4 (inf) and float8_e4m3b11fnuz (NaN,
    it has no inf) in JAX and here alike; where they do not, the sums' order differs (above)."""
    assert _outcome(_case(name, "var")) == ANSWERS["values"][f"{name},var"]


@pytest.mark.parametrize("name", COMPUTED)
@pytest.mark.parametrize("op", sorted(ACCUMULATING - {"var"}))
def test_sums_round_once(name, op):
    values = np.asarray(ANSWERS["VALUES"], np.float32)
    long = np.linspace(0.1, 3.0, 64, dtype=np.float32)
    x64 = (long if op in ("long_sum", "long_mean", "dot") else values).astype(name)
    x64 = x64.astype(np.float64)
    exact = {
        "sum": np.sum,
        "long_sum": np.sum,
        "mean": np.mean,
        "long_mean": np.mean,
        "cumsum": np.cumsum,
        "dot": lambda v: np.dot(v, v),
    }[op](x64)
    got = _case(name, op)()
    assert got.dtype == np.dtype(name)
    want = np.asarray(exact).astype(name).astype(np.float32)  # NaNs compare as float32 NaNs
    np.testing.assert_array_equal(np.asarray(got, np.float32), want)


def test_jaxpr_prints_short_names():
    jaxpr = core.make_jaxpr(lambda v: v * v)(jnp.ones(2, jnp.float8_e4m3fn))
    assert str(jaxpr) == ANSWERS["jaxpr"]
