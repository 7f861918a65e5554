"""core.scipy.special: dtypes, edge values, errors and derivatives."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.scipy import special
from core.scipy.errors import SeriesOrderError, UnsupportedDTypeError
from core.test_util import check_grads


@pytest.mark.parametrize(
    "fn,args",
    [
        (special.gammaln, (3,)),
        (special.digamma, (2,)),
        (special.expit, (1,)),
        (special.xlogy, (2, 3)),
        (special.erf, (np.int32(1),)),
        (special.i0, (1,)),
    ],
)
def test_ints_promote_to_float32(fn, args):
    assert fn(*args).dtype == np.float32


def test_float64_under_x64():
    with core.enable_x64():
        out = special.ndtri(np.float64([1e-300, 0.3]))
        assert out.dtype == np.float64
        # scipy.special.ndtri(1e-300), ndtri(0.3)
        np.testing.assert_allclose(out, [-37.0470962993612, -0.5244005127080407], rtol=1e-7)
        lnd = special.log_ndtr(np.float64([-30.0, 9.0]))
        # scipy.special.log_ndtr(-30), log_ndtr(9)
        np.testing.assert_allclose(lnd, [-454.32124395, -1.1285884059538406e-19], rtol=1e-9)


@pytest.mark.parametrize(
    "fn,x,exc",
    [
        (lambda x: special.polygamma(x, 2.5), 1.0, ValueError),  # JAX: integer orders only
        # JAX's "<name> does not support complex-valued inputs."
        *[
            (fn, np.complex64([1j]), ValueError)
            for fn in (special.gammasgn, special.entr, special.exp1)
        ],
        *[
            (lambda x, fn=fn: fn(x, 1.0), np.complex64([1j]), ValueError)
            for fn in (special.beta, special.poch, special.rel_entr, special.kl_div)
        ],
        (lambda x: special.betainc(x, 1.0, 0.5), np.complex64([1j]), ValueError),
        (lambda x: special.polygamma(x, 2.5), np.array([True]), ValueError),
        (lambda x: special.log_ndtr(x, series_order=31), 1.0, SeriesOrderError),
        (lambda x: special.log_ndtr(x, series_order=2.0), 1.0, SeriesOrderError),
        (special.ndtr, np.float16(1.0), UnsupportedDTypeError),
        (lambda x: special.zeta(x), 2.0, NotImplementedError),
        (lambda x: special.factorial(x, exact=True), 3.0, NotImplementedError),
    ],
)
def test_errors(fn, x, exc):
    with pytest.raises(exc):
        fn(x)


@pytest.mark.parametrize(
    "fn,args",
    [
        (special.xlogy, (np.float64([0.5, 2.0]), np.float64([1.5, 0.3]))),
        (special.xlog1py, (np.float64([0.5, 2.0]), np.float64([1.5, 0.3]))),
        (special.log_ndtr, (np.float64([-30.0, -3.0, 0.5, 9.0]),)),
        (special.ndtri, (np.float64([0.1, 0.3, 0.8]),)),
        (special.logit, (np.float64([0.2, 0.7]),)),
        (special.entr, (np.float64([0.2, 1.7]),)),
        (special.rel_entr, (np.float64([0.2, 1.7]), np.float64([0.5, 0.4]))),
        (special.gamma, (np.float64([-1.5, 0.7, 3.2]),)),
        (lambda a: special.multigammaln(a, 3), (np.float64([2.5, 4.0]),)),
    ],
)
def test_grads(fn, args):
    with core.enable_x64():
        check_grads(fn, args, order=2, modes=("fwd", "rev"), eps=1e-4)


def test_exp1_grad():
    # first order only: JAX 0.10.2's exp1 (expn(1, x)) has no second derivative (a TypeError)
    with core.enable_x64():
        check_grads(special.exp1, (np.float64([0.3, 2.5]),), order=1, modes=("fwd", "rev"))


def test_xlogy_grad_at_zero_is_finite():
    # JAX: grad(xlogy, 1)(0., 0.) is nan (0 / 0) but grad w.r.t. x at y > 0 is log(y).
    g = core.grad(lambda x: special.xlogy(x, 2.0))(0.0)
    np.testing.assert_allclose(g, np.log(2.0), rtol=1e-6)
    assert special.xlogy(0.0, 0.0) == 0.0


def test_log_ndtr_grad_in_far_tail():
    # d/dx log Phi(x) ~ -x for x -> -inf; JAX: grad(log_ndtr)(-40.) == 40.0254
    g = core.grad(special.log_ndtr)(np.float32(-40.0))
    np.testing.assert_allclose(g, 40.0254, rtol=1e-5)


def test_vmap_and_jit():
    x = np.float32([[0.1, 0.5], [0.9, 0.999]])
    want = np.stack([special.ndtri(row) for row in x])
    np.testing.assert_allclose(core.vmap(special.ndtri)(x), want, rtol=1e-6)
    np.testing.assert_allclose(core.jit(special.ndtri)(x), want, rtol=1e-5)


def test_logsumexp_return_sign():
    out, sign = special.logsumexp(jnp.array([1.0, 2.0]), b=jnp.array([1.0, -2.0]), return_sign=True)
    # jax.scipy.special.logsumexp([1., 2.], b=[1., -2.], return_sign=True)
    np.testing.assert_allclose(out, 2.48988, rtol=1e-6)
    assert sign == -1.0


def test_loggamma_is_nan_where_gamma_is_not_positive_as_jax():
    # JAX 0.10.2: jax.scipy.special.loggamma(x) is lgamma(x) where x > 0, else NaN.
    out = special.loggamma(np.array([-2.5, -1, 0, 0.5, 3], np.float32))
    np.testing.assert_allclose(out, [np.nan, np.nan, np.nan, 0.5723649, 0.6931472], rtol=1e-6)
    assert special.loggamma(np.array([1, 2], np.int8)).dtype == np.float32


# JAX 0.10.2 at these points: Lanczos with reflection, NaN+NaNj at the poles 0 and -2.
Z = np.array([1 + 2j, -1.5 + 0.5j, 0j, -2 + 0j, 3 + 0j, -3.7 + 0.1j], np.complex64)
NANJ = complex(np.nan, np.nan)
COMPLEX_GAMMA = {
    "gamma": [
        0.15190403163433075 + 0.01980491727590561j,
        0.9379151463508606 + 0.34920546412467957j,
        NANJ,
        NANJ,
        2 + 0j,
        0.2337074875831604 - 0.017273686826229095j,
    ],
    "loggamma": [
        -1.8760786056518555 + 0.12964653968811035j,
        0.0008154213428497314 - 5.9267659187316895j,
        NANJ,
        NANJ,
        0.6931471824645996 + 0j,
        -1.4509605169296265 - 12.640148162841797j,
    ],
}


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("name", sorted(COMPLEX_GAMMA))
def test_gamma_and_loggamma_of_complex_as_jax(name, jit):
    fn = getattr(special, name)
    out = (core.jit(fn) if jit else fn)(Z)
    assert out.dtype == np.complex64
    np.testing.assert_allclose(out, COMPLEX_GAMMA[name], rtol=1e-5, atol=1e-6)


def test_complex_loggamma_of_infinite_or_huge_values_returns():
    # JAX's shift loop runs ~2**31 steps there; numbax caps it (no hang)
    z = np.array([complex(-np.inf, 1), complex(-1e30, 1), complex(np.inf, 0)], np.complex64)
    assert special.loggamma(z).shape == (3,)


@pytest.mark.parametrize("fn", [special.ndtr, special.ndtri, special.log_ndtr])
def test_normal_cdf_functions_refuse_integers_and_return_strong_types_as_jax(fn):
    with pytest.raises(TypeError):
        fn(np.array([1, 2], np.int32))
    with pytest.raises(TypeError):
        fn(True)
    assert not fn(0.25).weak_type  # JAX 0.10.2: float32, weak_type=False


# JAX 0.10.2: the gradient at a Python float, its value and weak type. log_ndtr's custom jvp
# multiplies the tangent by `_lax_const`s with `lax` ops (no promotion cast), so it comes out
# strong, and so do the functions built on it by `lax` ops; ndtr's stays weak.
def _truncnorm_logpdf(x):
    return core.scipy.stats.truncnorm.logpdf(x, -1.0, 1.0)


GRAD_WEAK_TYPES = [
    (special.log_ndtr, -3.0, 3.2830963, False),
    (special.log_ndtr, -30.0, 30.032578, False),
    (lambda x: special.log_ndtr(x, series_order=0), -30.0, 29.999601, False),
    (core.scipy.stats.norm.logcdf, 3.0, 0.0044378387, False),
    (core.scipy.stats.norm.logsf, 3.0, -3.2830963, False),
    (_truncnorm_logpdf, 0.3, -0.3, False),
    (special.ndtr, -3.0, 0.0044318507, True),
]


@pytest.mark.parametrize("fn, x, want, weak", GRAD_WEAK_TYPES)
def test_grad_weak_types_at_python_floats_as_jax(fn, x, want, weak):
    g = core.grad(fn)(x)
    np.testing.assert_allclose(g, want, rtol=1e-6)
    assert (g.dtype, g.weak_type) == (np.float32, weak)


BETALN_A = [0.5, 1e-5, 2.0, 1e3, 7.9]
BETALN_B = [1e6, 50.0, 8.0, 1e10, 0.1]
# JAX 0.10.2 (float64 under x64, then float32): betaln's Stirling-difference branch from b >= 8
BETALN_JAX = {
    np.float64: [
        -6.335390211057437,
        11.512880672998092,
        -4.276664827013747,
        -17120.630556681273,
        2.051817158677598,
    ],
    np.float32: [
        -6.335390567779541,
        11.512880325317383,
        -4.276664733886719,
        -17120.62890625,
        2.0518174171447754,
    ],
}


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_betaln_is_jaxs_bit_for_bit(dtype):
    with core.enable_x64():
        a = jnp.array(BETALN_A, dtype)
        b = jnp.array(BETALN_B, dtype)
        eager = np.asarray(special.betaln(a, b))
        jitted = np.asarray(core.jit(special.betaln)(a, b))
    want = np.array(BETALN_JAX[dtype], dtype)
    np.testing.assert_array_equal(eager, want)
    np.testing.assert_array_equal(jitted, want)


def test_fresnel_and_sici_of_16_bit_floats_and_nan():
    # JAX 0.10.2: fresnel(float16 [1, 2, 5]) (numbax once gave NaN beyond 1.5); sici(nan) is NaN
    x = jnp.array([1.0, 2.0, 5.0], jnp.float16)
    s, c = special.fresnel(x)
    assert s.dtype == c.dtype == jnp.float16
    np.testing.assert_array_equal(s, np.array([0.4382, 0.3435, 0.4993], np.float16))
    np.testing.assert_array_equal(c, np.array([0.78, 0.4883, 0.5635], np.float16))
    si, ci = special.sici(jnp.array([np.nan, -np.inf, np.inf]))
    np.testing.assert_array_equal(si, np.array([np.nan, -np.pi / 2, np.pi / 2], np.float32))
    np.testing.assert_array_equal(ci, [np.nan, np.nan, 0.0])


def test_owens_t_of_float16_is_float32_accurate():
    # JAX 0.10.2: owens_t(float16 [1, 0.3, 2], 0.5) = [0.04306469, 0.07029568, 0.00862508] (f32)
    out = special.owens_t(jnp.array([1.0, 0.3, 2.0], jnp.float16), 0.5)
    assert out.dtype == jnp.float32
    np.testing.assert_allclose(out, [0.04306469, 0.07029568, 0.00862508], rtol=2e-6)
