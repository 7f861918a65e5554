"""core.scipy.stats: batching, multivariate shapes, errors and derivatives."""

import numpy as np
import pytest
import scipy.stats as ss

import core
import core.numpy as jnp
from core.scipy import stats
from core.scipy.errors import ShapeMismatchError
from core.test_util import check_grads

RNG = np.random.RandomState(1)
L = np.tril(RNG.standard_normal((3, 3))) + 3 * np.eye(3)
COV = (L @ L.T).astype(np.float32)
MEAN = np.float32([0.5, -1.0, 2.0])
XS = RNG.standard_normal((4, 3)).astype(np.float32)


def test_multivariate_normal_matches_scipy():
    got = stats.multivariate_normal.logpdf(XS, MEAN, COV)
    want = ss.multivariate_normal(MEAN, COV).logpdf(XS)
    assert got.shape == (4,)
    np.testing.assert_allclose(got, want, rtol=1e-5)


def test_multivariate_normal_batched_covariances():
    covs = np.stack([COV, 2 * COV])
    got = stats.multivariate_normal.logpdf(XS[:2], MEAN, covs)
    want = [ss.multivariate_normal(MEAN, c).logpdf(x) for x, c in zip(XS[:2], covs)]
    np.testing.assert_allclose(got, want, rtol=1e-5)


def test_multivariate_normal_jit():
    f = core.jit(stats.multivariate_normal.logpdf)
    want = ss.multivariate_normal(MEAN, COV).logpdf(XS)
    np.testing.assert_allclose(f(XS, MEAN, COV), want, rtol=1e-5)


@pytest.mark.parametrize(
    "call",
    [
        lambda: stats.dirichlet.logpdf(np.float32([0.5, 0.5]), np.float32([[1.0, 2.0]])),
        lambda: stats.dirichlet.logpdf(np.float32([0.2, 0.2, 0.2, 0.4]), np.float32([1.0, 2.0])),
        lambda: stats.multivariate_normal.logpdf(XS, MEAN, np.eye(2, dtype=np.float32)),
    ],
)
def test_shape_errors(call):
    with pytest.raises(ShapeMismatchError):
        call()


def test_vmap_matches_loop():
    x = np.float32([[0.2, 1.5], [3.0, 0.7]])
    f = lambda row: stats.gamma.logpdf(row, 2.5, 0.0, 1.5)  # noqa: E731
    np.testing.assert_allclose(core.vmap(f)(x), np.stack([f(r) for r in x]), rtol=1e-6)


@pytest.mark.parametrize(
    "fn,args",
    [
        (stats.norm.logpdf, (np.float64([0.3, -1.2]), 0.5, 2.0)),
        (stats.norm.logcdf, (np.float64([-15.0, 0.3, 4.0]),)),
        (stats.t.logpdf, (np.float64([0.3, -1.2]), 3.0, 0.5, 2.0)),
        (stats.beta.logpdf, (np.float64([0.3, 0.6]), 2.0, 3.0)),
        (stats.gamma.logpdf, (np.float64([0.3, 2.6]), 2.5)),
        (lambda mu: stats.poisson.logpmf(np.float64([0.0, 3.0]), mu), (np.float64([2.5, 0.7]),)),
        (stats.truncnorm.logpdf, (np.float64([0.3, 1.2]), -1.0, 2.0)),
        (lambda x, m, c: stats.multivariate_normal.logpdf(x, m, c @ c.T), (XS, MEAN, L)),
        (lambda x, a: stats.dirichlet.logpdf(x, a), (np.float64([0.2, 0.3]), MEAN + 2)),
    ],
)
def test_grads(fn, args):
    with core.enable_x64():
        args = tuple(np.asarray(a, np.float64) if np.ndim(a) else a for a in args)
        check_grads(fn, args, order=1, modes=("fwd", "rev"))


def test_out_of_support_gradient_is_zero():
    g = core.grad(lambda s: stats.uniform.logpdf(5.0, 0.0, s))(2.0)
    assert g == 0.0


def test_uniform_cdf_as_jax():
    # JAX 0.10.2: a select with default 0 (so a NaN point gives 0) over strong constants (a
    # strongly typed float32 result for a bool or int point)
    x = jnp.array([-1.0, 0.0, 0.3, 1.0, 2.5, jnp.inf, -jnp.inf, jnp.nan])
    np.testing.assert_allclose(
        np.asarray(stats.uniform.cdf(x)), [0.0, 0.0, 0.3, 1.0, 1.0, 1.0, 0.0, 0.0], rtol=1e-7
    )
    out = stats.uniform.cdf(jnp.array([True, False]))
    assert out.dtype == np.float32 and not out.weak_type
