"""jax.scipy.stats.gaussian_kde (core/scipy/stats/kde.py) against scipy.stats.gaussian_kde,
and JAX's resampled values."""

import numpy as np
import pytest
import scipy.stats as st

import core
from core.scipy.stats import gaussian_kde

RNG = np.random.default_rng(0)
DATA = RNG.normal(size=(2, 50))
W = RNG.uniform(size=50)
P = RNG.normal(size=(2, 7))
MEAN = np.array([0.1, 0.2])

BANDWIDTHS = [{}, {"bw_method": "silverman"}, {"bw_method": 0.3, "weights": W}]
# (name, method applied to (estimator, estimator class))
METHODS = [
    ("evaluate", lambda k, cls: k(P)),
    ("logpdf", lambda k, cls: k.logpdf(P)),
    ("covariance", lambda k, cls: k.covariance),
    ("inv_cov", lambda k, cls: k.inv_cov),
    ("neff", lambda k, cls: k.neff),
    ("integrate_gaussian", lambda k, cls: k.integrate_gaussian(MEAN, np.eye(2))),
    ("integrate_kde", lambda k, cls: k.integrate_kde(cls(DATA[:, :20]))),
]


@pytest.mark.parametrize("kwargs", BANDWIDTHS)
@pytest.mark.parametrize("name, method", METHODS, ids=[m[0] for m in METHODS])
def test_matches_scipy_in_float64(kwargs, name, method):
    want = method(st.gaussian_kde(DATA, **kwargs), st.gaussian_kde)
    with core.enable_x64():
        got = method(gaussian_kde(DATA, **kwargs), gaussian_kde)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12, atol=1e-14)


def test_one_dimensional_box_integral_and_float32():
    want = st.gaussian_kde(DATA[0]).integrate_box_1d(-1.0, 0.5)
    kde = gaussian_kde(DATA[0].astype(np.float32))
    assert kde.d == 1 and kde.n == 50 and kde.dataset.dtype == np.float32
    np.testing.assert_allclose(float(kde.integrate_box_1d(-1.0, 0.5)), want, rtol=1e-5)


def test_resample_gives_jaxs_numbers():
    with core.enable_x64():
        out = gaussian_kde(DATA[0]).resample(core.random.key(0), (3,))
    # JAX 0.10.2, x64, the same data and key
    np.testing.assert_allclose(np.asarray(out), [[-0.72173034, 0.81744216, -0.28127913]], rtol=1e-7)


def test_is_a_pytree_through_jit_and_grad():
    kde = gaussian_kde(DATA.astype(np.float32))
    f = core.jit(lambda k, p: k.logpdf(p))
    np.testing.assert_allclose(f(kde, P), st.gaussian_kde(DATA).logpdf(P), rtol=1e-4)
    g = core.grad(lambda d: gaussian_kde(d)(P).sum())(DATA.astype(np.float32))
    assert g.shape == DATA.shape


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: gaussian_kde(np.ones(1)), ValueError, "multiple elements"),
        (lambda: gaussian_kde(DATA, bw_method="wide"), ValueError, "bw_method"),
        (lambda: gaussian_kde(DATA, weights=np.ones(3)), ValueError, "length n"),
        (lambda: gaussian_kde(DATA + 1j), NotImplementedError, "complex"),
        (lambda: gaussian_kde(DATA)(np.ones((3, 2))), ValueError, "points have dimension 3"),
        (lambda: gaussian_kde(DATA).integrate_box([0, 0], [1, 1]), NotImplementedError, "1D"),
        (lambda: gaussian_kde(DATA).set_bandwidth("scott"), NotImplementedError, "bandwidth"),
        (lambda: gaussian_kde(DATA).integrate_box_1d(0, 1), ValueError, "only handles 1D"),
    ],
)
def test_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()
