"""bfloat16 (`ml_dtypes.bfloat16`) against answers recorded from JAX 0.10.2 / Flax / Optax
(reference venv, never imported here).

bfloat16 values are compared bit for bit through their uint16 view where JAX's result does not
depend on how XLA fuses the computation; where it does (XLA keeps fused intermediates in
float32), to one bfloat16 ulp.
"""

import warnings

import ml_dtypes
import numpy as np
import pytest

import core
import core.numpy as jnp
import nn
import optim
from core import dtypes, random
from core.jit.errors import NumpyFallbackWarning
from core.nn import initializers

BF = jnp.bfloat16
K0 = random.PRNGKey(0)


def _bits(x):
    return np.asarray(x).view(np.uint16).tolist()


def _f32(x):
    return np.asarray(x).astype(np.float32)


# ---------------------------------------------------------------------------------------------
# The type


def test_scalar_type_and_dtype():
    x = BF(1.5)
    assert x.dtype == ml_dtypes.bfloat16 and float(x) == 1.5 and x.shape == ()
    assert repr(x) == "Array(1.5, dtype=bfloat16)"
    assert jnp.dtype("bfloat16") == BF == dtypes.bfloat16 == np.dtype(ml_dtypes.bfloat16)
    assert dtypes.short_name(BF) == "bf16"
    with core.enable_x64():
        assert dtypes.canonicalize_dtype(BF) == dtypes.bfloat16
    assert dtypes.canonicalize_dtype(BF) == dtypes.bfloat16


def test_finfo():
    fi = jnp.finfo(BF)
    assert (fi.bits, fi.nmant, fi.nexp, fi.dtype) == (16, 7, 8, dtypes.bfloat16)
    assert float(fi.eps) == 0.0078125
    assert float(fi.max) == pytest.approx(3.38953e38, rel=1e-5)
    assert float(fi.min) == -float(fi.max)
    assert float(fi.tiny) == float(fi.smallest_normal) == pytest.approx(1.17549e-38, rel=1e-5)
    assert float(fi.resolution) == pytest.approx(0.0100098, rel=1e-5)


@pytest.mark.parametrize(
    "sup, expected",
    [
        (np.floating, True),
        (np.inexact, True),
        (np.number, True),
        (np.generic, True),
        (np.integer, False),
        (np.complexfloating, False),
        (BF, True),
        (jnp.float32, False),
    ],
)
def test_issubdtype(sup, expected):
    assert jnp.issubdtype(BF, sup) is expected
    assert jnp.issubdtype(dtypes.bfloat16, sup) is expected


@pytest.mark.parametrize(
    "other, expected",
    [
        (jnp.float16, jnp.float32),
        (jnp.float32, jnp.float32),
        (jnp.float64, jnp.float64),  # promote_types does not canonicalize (JAX 0.10.2)
        (jnp.int8, BF),
        (jnp.int32, BF),
        (jnp.int64, BF),
        (jnp.uint8, BF),
        (jnp.bool_, BF),
        (jnp.complex64, jnp.complex64),
        (BF, BF),
    ],
)
def test_promote_types(other, expected):
    assert jnp.promote_types(BF, other) == expected
    assert jnp.promote_types(other, BF) == expected


def test_promote_types_x64():
    with core.enable_x64():
        assert jnp.promote_types(BF, jnp.float64) == jnp.float64
        assert jnp.promote_types(BF, jnp.int64) == BF


@pytest.mark.parametrize("other, expected", [(1.0, BF), (1, BF), (1j, jnp.complex64), (True, BF)])
def test_result_type_with_python_scalars(other, expected):
    assert jnp.result_type(BF, other) == expected


# ---------------------------------------------------------------------------------------------
# Arithmetic and reductions (eager: numpy ufuncs on ml_dtypes arrays)


def test_astype():
    f = jnp.asarray([1.7, -2.5, 3.1e3], jnp.float32).astype(BF)
    assert f.dtype == BF and _f32(f).tolist() == [1.703125, -2.5, 3104.0]
    i = jnp.asarray([1.7, -2.5, 300.7], BF).astype(jnp.int32)
    assert i.dtype == jnp.int32 and np.asarray(i).tolist() == [1, -2, 300]
    assert jnp.asarray([1, 2], BF).astype(jnp.float16).dtype == jnp.float16
    c = jnp.asarray([1.7, -2.5], BF).astype(jnp.complex64)
    np.testing.assert_array_equal(np.asarray(c), np.array([1.703125, -2.5], np.complex64))


def test_arithmetic_dtypes_and_values():
    x = jnp.arange(5, dtype=BF)
    for y in (x + 1.0, x * 2, jnp.exp(x)):
        assert y.dtype == BF
    assert (jnp.arange(5, dtype=jnp.int32) + x).dtype == BF
    assert (jnp.ones(5, jnp.float16) + x).dtype == jnp.float32
    assert (jnp.asarray(1.5, BF) + jnp.asarray(2, jnp.int8)).dtype == BF
    assert _f32(jnp.exp(x)).tolist() == [1.0, 2.71875, 7.375, 20.125, 54.5]
    assert _f32(jnp.sqrt(jnp.asarray([2.0], BF))).tolist() == [1.4140625]
    assert _f32(jnp.log(jnp.asarray([3.0], BF))).tolist() == [1.1015625]
    assert _f32(jnp.floor(jnp.asarray([1.7, -1.2], BF))).tolist() == [1.0, -2.0]
    assert _f32(jnp.linspace(0, 1, 5, dtype=BF)).tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
    mm = jnp.matmul(jnp.ones((2, 3), BF), jnp.ones((3, 2), BF))
    assert mm.dtype == BF and _f32(mm).tolist() == [[3.0, 3.0], [3.0, 3.0]]
    assert jnp.dot(x, x).dtype == BF and float(jnp.dot(x, x)) == 30.0
    assert jnp.concatenate([jnp.ones(2, BF), jnp.zeros(2, jnp.float32)]).dtype == jnp.float32


@pytest.mark.parametrize(
    "fn, expected",
    [
        (jnp.sum, 100.0),  # accumulated in float32 (bfloat16 steps would stop at 32)
        (jnp.mean, 0.10009765625),
        (jnp.max, 0.10009765625),
    ],
)
def test_reductions_of_many_small_values(fn, expected):
    out = fn(jnp.full((1000,), 0.1, BF))
    assert out.dtype == BF and float(out) == expected


def test_statistics():
    v = jnp.asarray(np.linspace(-3, 7, 37), BF)
    assert [float(f(v)) for f in (jnp.mean, jnp.var, jnp.std, jnp.sum)] == [
        2.0,
        8.8125,
        2.96875,
        74.0,
    ]
    assert float(jnp.var(v, ddof=1)) == 9.0625
    assert float(jnp.prod(v[:5])) == -81.5
    assert float(jnp.prod(jnp.full((10,), 1.1, BF))) == 2.625
    assert float(jnp.var(jnp.arange(100, dtype=BF))) == 832.0
    m = jnp.mean(jnp.asarray(np.linspace(0, 1, 6).reshape(2, 3), BF), axis=0)
    assert m.dtype == BF and _bits(m) == [16026, 16128, 16179]
    for f in (jnp.sum, jnp.mean, jnp.var, jnp.std, jnp.cumsum, jnp.prod, jnp.max):
        assert f(jnp.arange(4, dtype=BF)).dtype == BF
    assert int(jnp.argmin(jnp.asarray([1.5, -2, 3], BF))) == 1


# ---------------------------------------------------------------------------------------------
# Random numbers and initializers: JAX's bits


@pytest.mark.parametrize(
    "sample, expected",
    [
        (lambda: random.uniform(K0, (6,), BF), [16166, 16146, 15904, 15952, 16182, 16004]),
        (
            lambda: random.uniform(K0, (6,), BF, minval=-2, maxval=3),
            [16288, 16216, 49052, 49020, 16328, 48950],
        ),
        (lambda: random.normal(K0, (6,), BF), [16070, 15931, 49024, 48979, 16144, 48933]),
        (
            lambda: random.truncated_normal(K0, -1.0, 1.0, (6,), BF),
            [16004, 15868, 48928, 48904, 16061, 48859],
        ),
        (lambda: random.exponential(K0, (6,), BF), [16262, 16216, 15918, 15977, 16287, 16025]),
        (
            lambda: random.uniform(K0, (6,), jnp.float16),
            [13560, 13008, 11008, 14656, 13168, 13972],
        ),
        (
            lambda: initializers.lecun_normal()(K0, (3, 2), BF),
            [[15986, 15840], [48927, 48900], [16048, 48846]],
        ),
        (
            lambda: initializers.glorot_uniform()(K0, (3, 2), BF),
            [[16038, 15902], [48960, 48934], [16108, 48904]],
        ),
    ],
    ids=[
        "uniform",
        "uniform_range",
        "normal",
        "truncated_normal",
        "exponential",
        "uniform_f16",
        "lecun_normal",
        "glorot_uniform",
    ],
)
def test_samplers_match_jax_bits(sample, expected):
    out = sample()
    assert out.dtype in (BF, jnp.float16)
    assert _bits(out) == expected


def test_zeros_initializer_dtype():
    z = initializers.zeros(K0, (3, 2), BF)
    assert z.dtype == BF and _f32(z).tolist() == [[0.0, 0.0]] * 3


# ---------------------------------------------------------------------------------------------
# Transformations


def test_grad_through_bfloat16():
    x = jnp.arange(4, dtype=BF) / 3
    g = core.grad(lambda x: jnp.sum(jnp.tanh(x) ** 2))(x)
    assert g.dtype == BF
    # JAX: [0, 0.578125, 0.769531, 0.640625]; XLA keeps the fused chain in float32, numpy
    # rounds every op to bfloat16, so allow one bfloat16 ulp.
    np.testing.assert_allclose(_f32(g), [0.0, 0.578125, 0.76953125, 0.640625], rtol=2**-7)
    g2 = core.grad(lambda x: (x * x).sum())(jnp.arange(5, dtype=BF))
    assert g2.dtype == BF and _f32(g2).tolist() == [0.0, 2.0, 4.0, 6.0, 8.0]


def test_jit_compiles_bfloat16():
    # numba compiles it (core/jit/narrow.py; tests/core/jit/test_narrow_jit.py has the
    # table against JAX's bits); these are JAX's jitted values
    x = jnp.arange(4, dtype=BF) / 3
    f = core.jit(lambda x: jnp.sin(x) * 2 + x.sum())
    with warnings.catch_warnings():
        warnings.simplefilter("error", NumpyFallbackWarning)
        y = f(x)
    assert y.dtype == BF and _f32(y).tolist() == [2.0, 2.65625, 3.25, 3.6875]


# ---------------------------------------------------------------------------------------------
# nn and optim


def test_dense_bfloat16_params_and_compute():
    m = nn.Dense(3, dtype=BF, param_dtype=BF)
    params = m.init(K0, jnp.ones((2, 4), BF))
    assert params["params"]["kernel"].dtype == BF and params["params"]["bias"].dtype == BF
    out = m.apply(params, jnp.ones((2, 4), BF))
    assert out.dtype == BF and _bits(out) == [[16270, 48764, 16338]] * 2

    m32 = nn.Dense(3, dtype=BF)
    p32 = m32.init(K0, jnp.ones((2, 4)))
    assert p32["params"]["kernel"].dtype == jnp.float32
    o32 = m32.apply(p32, jnp.ones((2, 4)))
    assert o32.dtype == BF and _f32(o32).tolist() == [[0.390625, 0.859375, 0.408203125]] * 2


def test_adam_mu_dtype():
    m = nn.Dense(3, dtype=BF, param_dtype=BF)
    x = jnp.ones((2, 4), BF)
    params = m.init(K0, x)
    opt = optim.adam(1e-2, mu_dtype=BF)
    state = opt.init(params)
    grads = core.grad(lambda p: jnp.sum(m.apply(p, x).astype(jnp.float32)))(params)
    updates, state = opt.update(grads, state, params)
    adam_state = state[0]
    mu, nu = adam_state.mu["params"]["kernel"], adam_state.nu["params"]["kernel"]
    assert mu.dtype == BF and nu.dtype == BF
    assert _f32(mu).tolist() == [[0.2001953125] * 3] * 4
    assert _f32(nu).tolist() == [[0.003997802734375] * 3] * 4
    upd = updates["params"]["bias"]
    assert upd.dtype == BF and _f32(upd).tolist() == [-0.010009765625] * 3
