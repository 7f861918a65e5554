"""`jnp.max`/`jnp.min` with `where=` and `initial=`: the masked elements hold the operation's
identity (-inf, an integer type's bound, False/True) and `initial` joins the result
afterwards, as JAX, so a tie between `initial` and an element splits the derivative in two.
Also the result dtypes of `promote_integers=False`, the scalar-`initial` check and `average`'s
weights along several axes, as JAX 0.10.2 gives them."""

from __future__ import annotations

import numpy as np
import pytest

import core as jax
import core.numpy as jnp

T, F = True, False

# (function, x, where, initial, gradient) as JAX 0.10.2 printed them
GRADS = [
    (jnp.max, [1.0, 3.0, 2.0], [T, F, T], 2.0, [0.0, 0.0, 0.5]),
    (jnp.min, [1.0, 0.0, 1.0], [T, F, T], 1.0, [0.25, 0.0, 0.25]),
    (jnp.nanmax, [1.0, np.nan, 1.0], [T, T, T], 1.0, [0.25, 0.0, 0.25]),
]


@pytest.mark.parametrize("fn, x, where, initial, want", GRADS)
def test_grad_ties_with_initial(fn, x, where, initial, want):
    g = jax.grad(lambda v: fn(v, where=jnp.array(where), initial=initial))(jnp.array(x))
    np.testing.assert_array_equal(np.asarray(g), np.array(want, np.float32))


# (function, x, dtype, where, initial, value) as JAX 0.10.2 printed them
VALUES = [
    (jnp.max, [1, 5, 2], np.int32, [T, F, T], 0, 2),
    (jnp.max, [1, 5, 2], np.uint8, [T, F, T], 3, 3),
    (jnp.min, [1, 5, 2], np.int8, [F, F, F], 3, 3),
    (jnp.min, [T, F], np.bool_, [F, T], True, False),
    (jnp.max, [T, F], np.bool_, [F, T], False, False),
    (jnp.max, [1.0, 5.0], np.float32, [T, F], np.nan, np.nan),
]


@pytest.mark.parametrize("fn, x, dtype, where, initial, want", VALUES)
def test_values(fn, x, dtype, where, initial, want):
    out = fn(jnp.array(x, dtype), where=jnp.array(where), initial=initial)
    assert out.dtype == dtype
    np.testing.assert_array_equal(np.asarray(out), want)


# (method, q, gradient with respect to q, weak_type) as JAX 0.10.2 printed them for
# jnp.quantile(jnp.array([1.0, 2.0, 4.0]), q): linear interpolation multiplies q by a strongly
# typed n - 1, the others' zero gradient keeps q's weak type
QUANTILE_Q = [
    ("linear", 0.5, 0.0, False),
    ("linear", 0.4, 2.0, False),
    ("lower", 0.4, 0.0, True),
]


@pytest.mark.parametrize("method, q, want, weak", QUANTILE_Q)
def test_quantile_grad_q(method, q, want, weak):
    a = jnp.array([1.0, 2.0, 4.0])
    g = jax.grad(lambda v: jnp.quantile(a, v, method=method))(q)
    assert g.dtype == np.float32 and g.weak_type is weak
    assert float(g) == want


# (function, dtype, x64) -> JAX 0.10.2's result dtype with promote_integers=False
PROMOTE_FALSE = [
    (jnp.sum, jnp.bool_, False, "int32"),
    (jnp.prod, jnp.bool_, False, "int32"),
    (jnp.sum, jnp.bool_, True, "int32"),
    (jnp.sum, jnp.int8, False, "int8"),
    (jnp.prod, jnp.uint8, True, "uint8"),
]


@pytest.mark.parametrize("fn, dtype, x64, want", PROMOTE_FALSE)
def test_promote_integers_false_counts_booleans_in_int32(fn, dtype, x64, want):
    with jax.enable_x64(x64):
        out = fn(jnp.array([1, 0, 1], dtype), promote_integers=False)
        assert out.dtype == np.dtype(want)
        assert int(out) == (2 if fn is jnp.sum else 0)


@pytest.mark.parametrize("fn", [jnp.sum, jnp.prod, jnp.max, jnp.min])
@pytest.mark.parametrize("shape", [(3,), (1, 2, 3)])
def test_initial_must_be_a_scalar(fn, shape):
    with pytest.raises(ValueError) as info:
        fn(jnp.ones((2, 3)), initial=jnp.ones(shape))
    assert str(info.value) == f"initial value must be a scalar. Got array of shape {shape}"


# average of arange(24.).reshape(2, 3, 4) with weights 1, 2, ... of the axes' sizes, in the
# order the axes are given: (axis, weights' shape, JAX 0.10.2's average, its weights' sum)
AVERAGES = [
    ((1, 2), (3, 4), [7.333333969116211, 19.33333396911621], 78.0),
    ((2, 0), (4, 2), [8.722222328186035, 12.722222328186035, 16.72222328186035], 36.0),
    ((2, 1, 0), (4, 3, 2), 12.766666412353516, 300.0),
    ((0, 2), (2, 4), [10.44444465637207, 14.44444465637207, 18.44444465637207], 36.0),
    (-1, (4,), [[2.0, 6.0, 10.0], [14.0, 18.0, 22.0]], 10.0),
]


@pytest.mark.parametrize("axis, wshape, want, wsum", AVERAGES)
@pytest.mark.parametrize("keepdims", [False, True])
def test_average_weights_along_several_axes(axis, wshape, want, wsum, keepdims):
    x = np.arange(24.0).reshape(2, 3, 4)
    w = np.arange(1.0, 1 + np.prod(wshape)).reshape(wshape)
    avg, total = jnp.average(x, axis=axis, weights=w, returned=True, keepdims=keepdims)
    kept = np.mean(x, axis=axis, keepdims=keepdims).shape
    assert avg.shape == total.shape == kept
    np.testing.assert_allclose(np.asarray(avg).reshape(np.shape(want)), want, rtol=1e-6)
    np.testing.assert_array_equal(total, np.full(kept, wsum))


def test_average_weights_in_another_order_is_jaxs_error():
    with pytest.raises(ValueError, match="^Shape of weights must be consistent with shape of a"):
        jnp.average(np.ones((2, 3, 4)), axis=(1, 2), weights=np.ones((4, 3)))


@pytest.mark.parametrize("dtype", ["uint32", "uint8", "int32", "float32", "bfloat16", "bool"])
@pytest.mark.parametrize("fn", [jnp.min, jnp.max, jnp.sum, jnp.prod])
def test_masked_elements_are_filled_in_the_operands_dtype(fn, dtype):
    # JAX 0.10.2: min of uint32 with where= fills with 2**32 - 1 in uint32 (no int32 overflow)
    x = np.array([[1], [2], [3]]).astype(dtype)
    mask = np.array([[True], [False], [True]])
    got = fn(jnp.asarray(x), axis=-2, where=mask, initial=1, keepdims=True)
    want = getattr(np, fn.__name__)(x, axis=-2, where=mask, initial=1, keepdims=True)
    np.testing.assert_array_equal(np.asarray(got, np.float64), np.asarray(want, np.float64))


WHERE_CHECKED = ["sum", "nansum", "prod", "nanprod", "min", "max", "nanmin", "nanmax", "any"]
WHERE_CHECKED += ["all", "mean", "nanmean", "var", "nanvar", "std", "nanstd"]


@pytest.mark.parametrize("name", WHERE_CHECKED)
def test_integer_where_is_jaxs_value_error(name):
    # JAX 0.10.2: "jnp.NAME: where must be None or a boolean array; got where.dtype=dtype('int32')."
    kw = {"initial": 0.0} if name in ("min", "max", "nanmin", "nanmax") else {}
    msg = rf"jnp.{name}: where must be None or a boolean array; got where.dtype=dtype\('int32'\)"
    with pytest.raises(ValueError, match=msg):
        getattr(jnp, name)(jnp.zeros(4), where=jnp.ones(4, int), **kw)


def test_mean_with_a_16_bit_dtype_sums_in_that_dtype():
    # JAX 0.10.2: only a mean without `dtype` upcasts float16 to float32 (1.095 vs 1.1 here)
    x = jnp.full(10000, 1.1, jnp.float16)
    jaxpr = jax.make_jaxpr(lambda v: jnp.mean(v, dtype="float16"))(x)
    eqns = [str(e.primitive) for e in jaxpr.eqns]
    assert eqns == ["reduce_sum", "div"]
    assert float(jnp.mean(x, dtype="float16")) == np.float16(1.095)
    assert float(jnp.mean(x)) == np.float16(1.1)
