"""core.random's extra distributions (core/random_distributions.py) against values recorded from
JAX 0.10.2 (`jax.random`, default partitionable threefry; recorded with the reference venv, never
imported here).

Integer-valued samples and samples made only of IEEE-exact float ops are compared bit for bit.
Closed-form transforms behind `log`/`exp`/`tan`/`pow` are compared to a few float32 ulps (numpy's
and XLA's transcendental functions round differently in the last bit), and the rejection samplers
built on gamma to 1e-5 (the same draws, then a few transcendental ops more).
"""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import random
from core.errors import PRNGKeyError, RandomArgumentError, ShapeError
from core.random_distributions import random_gamma_grad


def F32(x):
    return np.asarray(x, np.float32)


def _np(x):
    """A value as numpy: keys by their uint32 data."""
    return np.asarray(random.key_data(x) if isinstance(x, random.PRNGKeyArray) else x)


# Known answers

EXACT = [
    pytest.param(
        0, lambda k: random.geometric(k, 0.3, (4,)), np.int32, [1, 1, 4, 3], id="geometric"
    ),
    pytest.param(
        5,
        lambda k: random.geometric(k, F32([0.1, 0.5, 0.9]), (2, 3)),
        np.int32,
        [[8, 1, 1], [23, 1, 1]],
        id="geometric-p-array",
    ),
    pytest.param(
        0,
        lambda k: random.triangular(k, 0.0, 0.3, 2.0, (4,)),
        np.float32,
        [1.5781798, 1.7301326, 0.49327874, 0.65592885],
        id="triangular",
    ),
    pytest.param(
        1,
        lambda k: random.triangular(k, F32([-1.0, 0.0]), 0.5, F32([[1.0], [3.0]])),
        np.float32,
        [[0.14712572, 0.5171713], [0.646106, 0.9476776]],
        id="triangular-arrays",
    ),
    pytest.param(
        0, lambda k: random.poisson(k, 3.0, (4,)), np.int32, [0, 0, 4, 4], id="poisson-knuth"
    ),
    pytest.param(
        7,
        lambda k: random.poisson(k, F32([0.0, 0.5, 9.9, 10.0, 57.0, 1000.0])),
        np.int32,
        [0, 1, 9, 16, 56, 1002],
        id="poisson-mixed",
    ),
    pytest.param(
        3,
        lambda k: random.poisson(k, 2.0, (3,), dtype=np.uint8),
        np.uint8,
        [0, 2, 1],
        id="poisson-uint8",
    ),
    pytest.param(
        0,
        lambda k: random.binomial(k, 10.0, 0.3, (4,)),
        np.float32,
        [2.0, 2.0, 1.0, 2.0],
        id="binomial-inversion",
    ),
    pytest.param(
        2,
        lambda k: random.binomial(k, F32([100.0, 50.0, 1000.0, 30.0]), F32([0.4, 0.8, 0.5, 0.9])),
        np.float32,
        [46.0, 40.0, 501.0, 28.0],
        id="binomial-btrs",
    ),
    pytest.param(
        4,
        lambda k: random.binomial(
            k, F32([5.0, -1.0, np.inf, 0.0, 7.5]), F32([0.5, 0.5, 0.5, 0.5, 1.0])
        ),
        np.float32,
        [3.0, np.nan, np.inf, 0.0, 7.0],
        id="binomial-edges",
    ),
    pytest.param(
        0,
        lambda k: random.multinomial(k, 20.0, F32([0.2, 0.3, 0.5])),
        np.float32,
        [1.0, 6.0, 13.0],
        id="multinomial",
    ),
    pytest.param(
        9,
        lambda k: random.multinomial(k, F32([10.0, 100.0]), F32([[0.1, 0.9], [0.6, 0.4]])),
        np.float32,
        [[0.0, 10.0], [54.0, 46.0]],
        id="multinomial-batch",
    ),
    pytest.param(  # any dtype, as JAX's `counts.astype(dtype)`
        0,
        lambda k: random.multinomial(k, 10.0, F32([0.2, 0.8]), dtype=np.int32),
        np.int32,
        [1, 9],
        id="multinomial-int32",
    ),
    pytest.param(
        0,
        lambda k: random.multinomial(k, 10, np.array([0.2, 0.8], np.float16)),
        np.float32,
        [2.0, 8.0],
        id="multinomial-default-dtype",
    ),
]

CLOSE = [
    pytest.param(
        0,
        lambda k: random.cauchy(k, (4,)),
        np.float32,
        [6.0274944, 14.837895, -0.58172226, -0.09874987],
        id="cauchy",
    ),
    pytest.param(
        1,
        lambda k: random.lognormal(k, 0.5, (4,)),
        np.float32,
        [0.9256875, 1.0432633, 0.9342696, 0.9254103],
        id="lognormal",
    ),
    pytest.param(2, lambda k: random.lognormal(k), np.float32, 1.4341526, id="lognormal-default"),
    pytest.param(
        0,
        lambda k: random.lognormal(k, dtype=np.complex64),
        np.complex64,
        -0.31656384 - 2.009093j,
        id="lognormal-complex",
    ),
    pytest.param(
        0,
        lambda k: random.pareto(k, F32([[1.0], [3.0]]), (2, 2)),
        np.float32,
        [[19.1084, 46.685074], [1.1441185, 1.2346528]],
        id="pareto",
    ),
    pytest.param(
        3,
        lambda k: random.rayleigh(k, 2.0, (4,)),
        np.float32,
        [4.5633144, 0.714711, 1.8598683, 0.44435212],
        id="rayleigh",
    ),
    pytest.param(
        0,
        lambda k: random.weibull_min(k, 2.0, 1.5, (4,)),
        np.float32,
        [4.1139336, 4.9072957, 1.0928195, 1.4734783],
        id="weibull_min",
    ),
    pytest.param(
        4,
        lambda k: random.weibull_min(k, F32([1.0, 2.0]), 3.0),
        np.float32,
        [1.2856065, 2.571213],
        id="weibull_min-broadcast",
    ),
    pytest.param(
        5,
        lambda k: random.maxwell(k, (4,)),
        np.float32,
        [1.5477763, 1.9501745, 2.7911575, 3.182646],
        id="maxwell",
    ),
    pytest.param(
        0,
        lambda k: random.double_sided_maxwell(k, 1.0, 2.0, (4,)),
        np.float32,
        [4.091442, 4.1482553, -3.165061, 5.5848346],
        id="double_sided_maxwell",
    ),
    pytest.param(
        6,
        lambda k: random.double_sided_maxwell(k, F32([0.0, 1.0]), 2.0, (2,)),
        np.float32,
        [[3.4134958, -2.9352422], [3.5340035, 3.614173]],
        id="double_sided_maxwell-params",
    ),
]

REJECTION = [
    pytest.param(
        0,
        lambda k: random.gamma(k, 2.5, (4,)),
        np.float32,
        [2.078842, 2.2727783, 1.5440423, 4.702054],
        id="gamma",
    ),
    pytest.param(
        42,
        lambda k: random.gamma(k, F32([0.3, 1.0, 5.0, 0.01])),
        np.float32,
        [0.43624744, 0.33158407, 7.432342, 0.0],
        id="gamma-small-a",
    ),
    pytest.param(
        1,
        lambda k: random.gamma(k, F32([0.5, 2.0]), (2, 2)),
        np.float32,
        [[0.022276787, 1.3505915], [0.010292719, 2.1417391]],
        id="gamma-broadcast",
    ),
    pytest.param(
        0,
        lambda k: random.loggamma(k, F32([0.1, 1.0, 4.0, 1e-3])),
        np.float32,
        [-1.4369853, -0.31981286, 1.0423257, -1889.724],
        id="loggamma",
    ),
    pytest.param(
        0,
        lambda k: random.beta(k, 2.0, 3.0, (4,)),
        np.float32,
        [0.23627362, 0.49045956, 0.6837948, 0.5423442],
        id="beta",
    ),
    pytest.param(
        3,
        lambda k: random.beta(k, F32([0.1, 0.5]), F32([[0.2], [4.0]])),
        np.float32,
        [[4.0090157e-08, 0.996512], [0.0018506953, 0.067775585]],
        id="beta-small",
    ),
    pytest.param(
        0,
        lambda k: random.dirichlet(k, F32([0.5, 1.0, 2.0]), (2,)),
        np.float32,
        [[0.3228507, 0.26508135, 0.4120679], [0.020176543, 0.43457922, 0.5452442]],
        id="dirichlet",
    ),
    pytest.param(
        0,
        lambda k: random.chisquare(k, 3.0, (4,)),
        np.float32,
        [2.205084, 2.4899669, 1.4557135, 6.424535],
        id="chisquare",
    ),
    pytest.param(
        0,
        lambda k: random.f(k, 3.0, 5.0, (4,)),
        np.float32,
        [2.5797074, 0.19219677, 0.1597769, 0.38842028],
        id="f",
    ),
    pytest.param(
        0,
        lambda k: random.t(k, 4.0, (4,)),
        np.float32,
        [0.7160013, -2.417441, -1.414403, -1.6585885],
        id="t",
    ),
    pytest.param(
        0,
        lambda k: random.generalized_normal(k, 1.5, (4,)),
        np.float32,
        [1.0603918, 0.08920828, -1.3751338, 0.5591429],
        id="generalized_normal",
    ),
    pytest.param(
        0,
        lambda k: random.ball(k, 3, 2, (2,)),
        np.float32,
        [[0.91715974, 0.39274216, 0.011653502], [-0.8613651, 0.31684825, -0.06285544]],
        id="ball",
    ),
    pytest.param(
        1, lambda k: random.ball(k, 2, 1.0), np.float32, [-0.24623394, 0.28113493], id="ball-p1"
    ),
]


# Gradients with respect to the gamma shape parameter (implicit reparameterization)
GRAD_A = [0.3, 1.0, 2.5, 7.0, 0.05, 30.0]
GAMMA_GRAD = [2.2258236, 0.99277365, 0.83078825, 1.2524103, 3.994679e-06, 1.0209414]
LOGGAMMA_GRAD = [3.5371535, 1.3669204, 0.53806055, 0.11789937, 356.16174, 0.03301196]
BETA_GRAD = [0.4252034, 0.57750106, 0.04918541, 0.014541631, 1.1685194e-12, 0.0018114133]
RGG_X = [0.1, 0.5, 3.0, 9.0, 1e-08, 25.0]
RANDOM_GAMMA_GRAD = [0.78940463, 0.8069793, 1.1692619, 1.1581842, 3.5845674e-06, 0.9166818]


@pytest.mark.parametrize("seed, fn, dtype, expected", EXACT)
def test_matches_jax_exactly(seed, fn, dtype, expected):
    out = fn(random.key(seed))
    assert _np(out).dtype == dtype
    np.testing.assert_array_equal(_np(out), np.array(expected, dtype))


@pytest.mark.parametrize("seed, fn, dtype, expected", CLOSE)
def test_closed_forms_match_jax_to_ulps(seed, fn, dtype, expected):
    out = fn(random.key(seed))
    assert _np(out).dtype == dtype
    np.testing.assert_allclose(_np(out), np.array(expected, dtype), rtol=2e-6, atol=1e-7)


# The float32 bits of JAX 0.10.2's samples for key(3) where the order of XLA's CPU arithmetic
# shows in the last bit: maxwell's three squares summed as (z0^2 + z2^2) + z1^2 (numbax summed
# them in index order: position 7 differed), and the multiply-adds of wald and
# double_sided_maxwell contracted into FMAs (wald's positions 1, 9, 10 and 11 differed).
WALD_MEANS = np.linspace(0.1, 5.0, 2000).astype(np.float32)[:12]
FMA_BITS = [
    pytest.param(
        lambda k: random.maxwell(k, (12,)),
        [1074356487, 1074023232, 1069650235, 1070783011, 1073924833, 1067515735, 1066718538,
         1072318872, 1061312839, 1065016352, 1071990342, 1069981884],
        id="maxwell",
    ),
    pytest.param(
        lambda k: random.wald(k, WALD_MEANS),
        [1027887888, 1031055391, 1035420298, 1041663473, 1037247830, 1033806115, 1035350076,
         1030445860, 1049310035, 1043917808, 1027787745, 1041646847],
        id="wald",
    ),
    pytest.param(
        lambda k: random.double_sided_maxwell(k, 1.0, 2.0, (12,)),
        [1088287636, 3220970098, 1089778890, 3232035985, 1068129788, 1078636997, 1081680017,
         1085451102, 3222712939, 3231836455, 1081445663, 3222907963],
        id="double_sided_maxwell",
    ),
]  # fmt: skip


@pytest.mark.parametrize("fn, bits", FMA_BITS)
def test_xla_arithmetic_order_gives_jaxs_bits(fn, bits):
    out = _np(fn(random.key(3)))[:12]
    assert out.dtype == np.float32 and out.view(np.uint32).tolist() == bits


@pytest.mark.parametrize("seed, fn, dtype, expected", REJECTION)
def test_rejection_samplers_match_jax(seed, fn, dtype, expected):
    out = fn(random.key(seed))
    assert _np(out).dtype == dtype
    np.testing.assert_allclose(_np(out), np.array(expected, dtype), rtol=1e-5, atol=1e-30)


# JAX's gamma and loggamma draws (PRNGKey(seed), shape (4,)), bit for bit: numbax contracts the
# sampler's `1 + x * c` into an FMA as XLA does. For shapes whose `c = (1/3) / sqrt(d)` XLA
# computes with its approximate `rsqrt` (a hardware estimate and Newton steps) one ulp away
# from numpy's division, a fraction of the draws differ (a = 0.1 and 7.5: 8% to 27%).
GAMMA_BITS = [
    ("gamma", 0.5, 0, [0.8845648, 1.0290775, 0.04707421, 0.073225014]),
    ("gamma", 0.5, 1, [0.022276787, 0.55809987, 0.010292719, 1.5135912]),
    ("gamma", 1.0, 0, [0.6184863, 0.7262849, 0.35100988, 2.3936055]),
    ("gamma", 1.0, 1, [0.37028864, 0.47469407, 2.1694462, 0.98214763]),
    ("gamma", 3.0, 0, [2.5691018, 2.784202, 1.9683666, 5.406139]),
    ("gamma", 3.0, 1, [2.016189, 2.2610354, 5.095909, 3.2569966]),
    ("gamma", 30.0, 0, [29.338413, 30.054749, 27.171661, 37.333965]),
    ("gamma", 30.0, 1, [27.354784, 28.261448, 36.57136, 31.544233]),
    ("loggamma", 0.5, 0, [-0.12265953, 0.028662786, -3.05603, -2.6142182]),
    ("loggamma", 0.5, 1, [-3.80421, -0.58321726, -4.5763183, 0.41448504]),
    ("loggamma", 1.0, 0, [-0.48048025, -0.31981286, -1.0469409, 0.8728008]),
    ("loggamma", 1.0, 1, [-0.99347246, -0.74508476, 0.774472, -0.018013626]),
    ("loggamma", 3.0, 0, [0.94355625, 1.0239613, 0.677204, 1.687535]),
    ("loggamma", 3.0, 1, [0.70120907, 0.81582284, 1.628438, 1.1808054]),
    ("loggamma", 30.0, 0, [3.3788977, 3.4030206, 3.3021746, 3.6199033]),
    ("loggamma", 30.0, 1, [3.3088913, 3.3414984, 3.5992653, 3.4513907]),
]


@pytest.mark.parametrize("name, a, seed, expected", GAMMA_BITS)
def test_gamma_draws_bit_equal_to_jax(name, a, seed, expected):
    out = _np(getattr(random, name)(random.PRNGKey(seed), a, (4,)))
    np.testing.assert_array_equal(out.view(np.uint32), F32(expected).view(np.uint32))


def test_gamma_grad_matches_jax():
    a = jnp.array(GRAD_A, jnp.float32)
    k = random.key(0)
    g = core.grad(lambda a: random.gamma(k, a).sum())(a)
    np.testing.assert_allclose(_np(g), GAMMA_GRAD, rtol=1e-5)
    g = core.grad(lambda a: random.loggamma(k, a).sum())(a)
    np.testing.assert_allclose(_np(g), LOGGAMMA_GRAD, rtol=1e-5)
    g = core.grad(lambda a: random.beta(k, a, 2.0).sum())(a)
    np.testing.assert_allclose(_np(g), BETA_GRAD, rtol=1e-5)


def test_random_gamma_grad_matches_jax():
    # Both branches: the series (x <= max(1, a)) and the continued fraction (x > max(1, a)).
    out = random_gamma_grad(jnp.array(GRAD_A, jnp.float32), jnp.array(RGG_X, jnp.float32))
    np.testing.assert_allclose(_np(out), RANDOM_GAMMA_GRAD, rtol=1e-5)
    edge = random_gamma_grad(F32([1.0, -1.0, 2.0]), F32([0.0, 1.0, np.nan]))
    np.testing.assert_array_equal(_np(edge), [0.0, np.nan, np.nan])


def test_gamma_grad_is_the_implicit_derivative():
    # d x / d a = -(d CDF(x; a) / d a) / pdf(x; a): check against central differences of the CDF.
    from scipy import special

    a, x = 2.5, 1.7
    h = 1e-6
    dcdf_da = (special.gammainc(a + h, x) - special.gammainc(a - h, x)) / (2 * h)
    pdf = np.exp((a - 1) * np.log(x) - x - special.gammaln(a))
    got = float(random_gamma_grad(F32(a), F32(x)))
    np.testing.assert_allclose(got, -dcdf_da / pdf, rtol=1e-4)


# ---------------------------------------------------------------------------------------------
# Moments of a few thousand samples

N = 4000


def _moments(x):
    x = _np(x).astype(np.float64)
    return x.mean(), x.var()


@pytest.mark.parametrize(
    "fn, mean, var",
    [
        (lambda k: random.gamma(k, 2.5, (N,)), 2.5, 2.5),
        (lambda k: random.gamma(k, 0.3, (N,)), 0.3, 0.3),
        (lambda k: np.exp(_np(random.loggamma(k, 0.3, (N,)))), 0.3, 0.3),
        (lambda k: random.beta(k, 2.0, 3.0, (N,)), 0.4, 0.04),
        (lambda k: random.chisquare(k, 3.0, (N,)), 3.0, 6.0),
        (lambda k: random.f(k, 5.0, 10.0, (N,)), 1.25, None),
        (lambda k: random.t(k, 5.0, (N,)), 0.0, 5.0 / 3.0),
        (lambda k: random.generalized_normal(k, 2.0, (N,)), 0.0, 0.5),
        (
            lambda k: random.lognormal(k, 0.5, (N,)),
            np.exp(0.125),
            (np.exp(0.25) - 1) * np.exp(0.25),
        ),
        (lambda k: random.pareto(k, 4.0, (N,)), 4.0 / 3.0, 4.0 / 9.0 / 2.0),
        (lambda k: random.rayleigh(k, 2.0, (N,)), 2.0 * np.sqrt(np.pi / 2), (4 - np.pi) / 2 * 4),
        (lambda k: random.wald(k, 1.5, (N,)), 1.5, 1.5**3),
        (lambda k: random.weibull_min(k, 1.0, 2.0, (N,)), np.sqrt(np.pi) / 2, 1 - np.pi / 4),
        (lambda k: random.maxwell(k, (N,)), 2 * np.sqrt(2 / np.pi), 3 - 8 / np.pi),
        (lambda k: random.double_sided_maxwell(k, 1.0, 2.0, (N,)), 1.0, 12.0),
        (lambda k: random.geometric(k, 0.3, (N,)), 1 / 0.3, 0.7 / 0.09),
        (lambda k: random.triangular(k, 0.0, 0.3, 2.0, (N,)), 2.3 / 3, (4 + 0.09 - 0.6) / 18),
        (lambda k: random.poisson(k, 3.0, (N,)), 3.0, 3.0),
        (lambda k: random.poisson(k, 40.0, (N,)), 40.0, 40.0),
        (lambda k: random.binomial(k, 20.0, 0.3, (N,)), 6.0, 4.2),
        (lambda k: random.binomial(k, 100.0, 0.4, (N,)), 40.0, 24.0),
        (lambda k: random.binomial(k, 100.0, 0.9, (N,)), 90.0, 9.0),
    ],
)
def test_moments(fn, mean, var):
    m, v = _moments(fn(random.key(11)))
    sd = np.sqrt(var) if var is not None else abs(mean)
    assert abs(m - mean) < 5 * sd / np.sqrt(N), (m, mean)
    if var is not None:
        assert abs(v - var) < 0.15 * var, (v, var)


def test_cauchy_quartiles():
    x = _np(random.cauchy(random.key(3), (N,)))
    np.testing.assert_allclose(np.percentile(x, [25, 50, 75]), [-1.0, 0.0, 1.0], atol=0.1)


def test_dirichlet_multinomial_and_ball_constraints():
    alpha = F32([0.5, 1.0, 2.5])
    d = _np(random.dirichlet(random.key(0), alpha, (N,)))
    assert d.shape == (N, 3)
    np.testing.assert_allclose(d.sum(-1), 1.0, rtol=1e-5)
    np.testing.assert_allclose(d.mean(0), alpha / alpha.sum(), atol=0.02)
    m = _np(random.multinomial(random.key(1), 20.0, F32([0.2, 0.3, 0.5]), shape=(N, 3)))
    np.testing.assert_array_equal(m.sum(-1), 20.0)
    np.testing.assert_allclose(m.mean(0), [4.0, 6.0, 10.0], atol=0.15)
    b = _np(random.ball(random.key(2), 3, 2, (N,)))
    r = np.linalg.norm(b, axis=-1)
    assert r.max() <= 1.0
    np.testing.assert_allclose(np.mean(r**3), 0.5, atol=0.03)  # uniform in the ball: r^3 ~ U(0, 1)


# ---------------------------------------------------------------------------------------------
# Signatures: shapes, dtypes, errors


@pytest.mark.parametrize(
    "fn, shape, dtype",
    [
        (lambda k: random.gamma(k, F32([1.0, 2.0])), (2,), np.float32),
        (lambda k: random.beta(k, F32([1.0, 2.0]), F32([[1.0], [3.0]])), (2, 2), np.float32),
        (lambda k: random.dirichlet(k, F32([[1.0, 2.0, 3.0]] * 2)), (2, 3), np.float32),
        (lambda k: random.dirichlet(k, F32([1.0, 2.0]), (4, 3)), (4, 3, 2), np.float32),
        (lambda k: random.poisson(k, F32([1.0, 20.0])), (2,), np.int32),
        (lambda k: random.binomial(k, 5.0, F32([0.1, 0.5, 0.7])), (3,), np.float32),
        (lambda k: random.multinomial(k, 5.0, F32([0.5, 0.5])), (2,), np.float32),
        (lambda k: random.geometric(k, 0.5), (), np.int32),
        (lambda k: random.weibull_min(k, F32([1.0, 2.0]), 1.0, (3, 1)), (3, 2), np.float32),
        (lambda k: random.double_sided_maxwell(k, F32([0.0, 1.0]), 1.0), (2, 2), np.float32),
        (lambda k: random.ball(k, 4, 1.5, (2, 3)), (2, 3, 4), np.float32),
        (lambda k: random.loggamma(k, 1.0, (2,), dtype=jnp.float16), (2,), np.float16),
        (lambda k: random.cauchy(k, (2,), dtype=jnp.float16), (2,), np.float16),
        (lambda k: random.geometric(k, 0.5, (2,), dtype=jnp.int8), (2,), np.int8),
    ],
)
def test_shapes_and_dtypes(fn, shape, dtype):
    out = _np(fn(random.key(0)))
    assert out.shape == shape and out.dtype == dtype


@pytest.mark.parametrize(
    "fn, error",
    [
        (lambda k: random.gamma(k, 1.0, dtype=jnp.int32), RandomArgumentError),
        (lambda k: random.beta(k, 1.0, 1.0, dtype=jnp.uint8), RandomArgumentError),
        (lambda k: random.cauchy(k, dtype=jnp.int32), RandomArgumentError),
        (lambda k: random.poisson(k, 1.0, dtype=jnp.float32), RandomArgumentError),
        (lambda k: random.geometric(k, 0.5, dtype=jnp.float32), RandomArgumentError),
        (lambda k: random.binomial(k, 3.0, 0.5, dtype=jnp.int32), RandomArgumentError),
        (lambda k: random.dirichlet(k, 1.0), RandomArgumentError),
        (lambda k: random.pareto(k, F32([1.0, 2.0, 3.0]), (2,)), ShapeError),
        (lambda k: random.gamma(k, F32([1.0, 2.0]), (3,)), ShapeError),
        (lambda k: random.gamma(jnp.zeros(2, jnp.float32), 1.0), PRNGKeyError),
        (lambda k: random.key_dtype("philox"), RandomArgumentError),
    ],
)
def test_errors(fn, error):
    with pytest.raises(error):
        fn(random.key(0))


def test_key_utilities():
    k = random.key(3)
    np.testing.assert_array_equal(_np(random.clone(k)), _np(k))
    assert random.key_impl(random.split(k, 2)) == "threefry2x32"
    assert random.key_dtype() == k.dtype and str(k.dtype) == "key<fry>"


# ---------------------------------------------------------------------------------------------
# Transformations


def test_vmap_over_keys_matches_a_loop():
    keys = random.split(random.key(1), 3)
    for fn in (
        lambda k: random.gamma(k, F32([0.5, 3.0])),
        lambda k: random.poisson(k, F32([4.0, 40.0])),
        lambda k: random.binomial(k, 20.0, 0.6, (2,)),
    ):
        batched = _np(core.vmap(fn)(keys))
        np.testing.assert_array_equal(batched, np.stack([_np(fn(keys[i])) for i in range(3)]))


def test_vmap_over_gamma_shape_parameter():
    out = core.vmap(lambda a: random.gamma(random.key(0), a))(F32([0.5, 3.0]))
    expected = [float(random.gamma(random.key(0), a)) for a in (0.5, 3.0)]
    np.testing.assert_array_equal(_np(out), F32(expected))


@pytest.mark.parametrize(
    "fn",
    [
        pytest.param(lambda k: random.cauchy(k, (3,)), id="cauchy"),
        pytest.param(lambda k: random.poisson(k, F32([3.0, 30.0])), id="poisson"),
        pytest.param(lambda k: random.binomial(k, F32([5.0, 100.0]), 0.3), id="binomial"),
    ],
)
def test_jit_matches_eager(fn):
    k = random.key(0)
    np.testing.assert_allclose(_np(core.jit(fn)(k)), _np(fn(k)), rtol=2e-6)


def test_jit_gamma_and_its_gradient():
    k = random.key(0)
    a = F32([0.3, 2.5])
    np.testing.assert_allclose(
        _np(core.jit(random.gamma)(k, a)), _np(random.gamma(k, a)), rtol=1e-6
    )
    grad = core.grad(lambda a: random.gamma(k, a).sum())
    np.testing.assert_allclose(_np(core.jit(grad)(a)), _np(grad(a)), rtol=1e-6)


def test_x64_mode():
    k = random.key(0)
    with core.enable_x64():
        g = random.gamma(k, np.array([0.3, 2.5]))
        assert g.dtype == np.float64
        np.testing.assert_allclose(_np(g), [0.01796465549854392, 1.5385596967070414], rtol=1e-13)
        b = random.beta(k, 2.0, 3.0, (2,))
        np.testing.assert_allclose(_np(b), [0.3279560651142136, 0.6138090084766978], rtol=1e-13)
        t = random.t(k, 3.0, (2,))
        np.testing.assert_allclose(_np(t), [1.4011588834378865, -0.6072461160668968], rtol=1e-13)
        c = random.cauchy(k, (2,))
        np.testing.assert_allclose(_np(c), [-0.2619295066536063, -1.2378460184296847], rtol=1e-14)
        p = random.poisson(k, np.array([3.0, 30.0]))
        assert p.dtype == np.int64 and _np(p).tolist() == [0, 27]
        n = random.binomial(k, 20.0, 0.3, (2,))
        assert n.dtype == np.float64 and _np(n).tolist() == [7.0, 3.0]
        assert _np(random.geometric(k, 0.3, (3,))).tolist() == [3, 5, 1]


# JAX 0.10.2 under jax.jit: factorizations of a traced covariance and a traced orthogonal draw.
MVN_JAX = {
    "cholesky": [[-1.045316219329834, -0.8024512529373169], [1.5409455299377441, 0.0069923401]],
    "eigh": [[-1.5108275413513184, -1.2584515810012817], [-1.643324851989746, -3.1122186183929]],
    "svd": [[2.6181628704071045, -0.022258996963500977], [-0.035753488540649414, -0.3287889957]],
}


@pytest.mark.parametrize("method", sorted(MVN_JAX))
def test_multivariate_normal_methods_under_jit_like_jax(method):
    mean, cov = jnp.array([1.0, -2.0]), jnp.array([[2.0, 0.3], [0.3, 1.0]])
    draw = core.jit(
        lambda c: random.multivariate_normal(random.PRNGKey(3), mean, c, (2,), method=method)
    )
    np.testing.assert_allclose(draw(cov), MVN_JAX[method], rtol=2e-5, atol=2e-6)


def test_orthogonal_under_jit_like_jax():
    q = core.jit(lambda k: random.orthogonal(k, 3))(random.PRNGKey(3))
    want = [
        [-0.527179479598999, 0.7591920495033264, -0.38171905279159546],
        [0.7183464765548706, 0.15819141268730164, -0.6774613261222839],
        [-0.45393848419189453, -0.6313502192497253, -0.6287581324577332],
    ]
    np.testing.assert_allclose(q, want, rtol=1e-5, atol=1e-6)
    wide = random.orthogonal(random.PRNGKey(3), 2, m=3)
    np.testing.assert_allclose(wide @ wide.T, np.eye(2), atol=1e-6)
    np.testing.assert_allclose(wide[0], [-0.8998209238, 0.2379847764, -0.3656303286], rtol=1e-5)


def test_dirichlet_of_a_scalar_alpha_has_jaxs_first_line():
    with pytest.raises(ValueError) as info:
        random.dirichlet(random.key(0), F32(1.0), (2,))
    assert str(info.value).splitlines()[0] == (  # JAX 0.10.2's
        "dirichlet requires alpha.ndim >= 1, got alpha.ndim == 0"
    )


def test_orthogonal_complex_draws_are_jaxs():
    # JAX 0.10.2: a complex dtype gives a unitary matrix, from the same draws
    q = random.orthogonal(random.key(0), 2, dtype=jnp.complex64)
    want = [0.36478 - 0.88739j, -0.28079 + 0.02499j, -0.27183 + 0.07468j, -0.65181 - 0.70404j]
    np.testing.assert_allclose(np.asarray(q).ravel(), want, atol=2e-5)
    q = np.asarray(random.orthogonal(random.key(0), 3, (2,), dtype=jnp.complex64, m=2))
    np.testing.assert_allclose(
        np.swapaxes(q, -1, -2).conj() @ q, np.broadcast_to(np.eye(2), (2, 2, 2)), atol=1e-5
    )


def test_multivariate_normal_under_raising_rank_promotion():
    # JAX 0.10.2's samples (it allows rank promotion inside, whatever the config)
    cov = np.array([[1, 1], [1, 1.0]], np.float32)
    with core.config.override("jax_numpy_rank_promotion", "raise"):
        got = random.multivariate_normal(
            random.key(0), np.array([1.0, 2], np.float32), cov, (3,), method="eigh"
        )
    want = [[3.02526, 4.02526], [0.92138, 1.92138], [0.02791, 1.02791]]
    np.testing.assert_allclose(np.asarray(got), want, atol=2e-5)
