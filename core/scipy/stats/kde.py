"""`gaussian_kde`: Gaussian kernel density estimation, like `jax.scipy.stats.gaussian_kde`.

A pytree (its arrays are the leaves: `neff`, `dataset`, `weights`, `covariance`, `inv_cov`),
so a `gaussian_kde` passes through `jit`, `vmap` and `grad` like JAX's. The bandwidth is
Scott's or Silverman's factor (of the effective sample size `neff = 1 / sum(w^2)`), a scalar,
or a function of the estimator; the kernel covariance is the weighted data covariance times the
factor squared. Densities whiten the data with the Cholesky factor of the inverse covariance
and sum (or log-sum-exp) the kernels; the integrals against a Gaussian or another estimate
are closed forms through the Cholesky factor of the summed covariances.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

import core.numpy as jnp
from core import api, random
from core.numpy._util import check_arraylike, promote_dtypes_inexact
from core.scipy import linalg, special
from core.tree_util import register_pytree_node_class

__all__ = ["gaussian_kde"]


@register_pytree_node_class
class gaussian_kde:  # noqa: N801  (scipy's and JAX's name)
    """Gaussian kernel density estimator, as `jax.scipy.stats.gaussian_kde`.

    Args:
      dataset: the data, `(n,)` or `(d, n)` (real).
      bw_method: "scott" (default), "silverman", a scalar factor, or a function of the
        estimator returning the factor.
      weights: optional `(n,)` weights (normalized to sum to 1).
    """

    __slots__ = ("covariance", "dataset", "inv_cov", "neff", "weights")

    def __init__(self, dataset: Any, bw_method: Any = None, weights: Any = None):
        data = _as_samples(dataset)
        data, probs = _with_weights(data, weights)
        self._set("dataset", data)
        self._set("weights", probs)
        neff = self._set("neff", 1 / jnp.sum(probs**2))
        factor = _bandwidth_factor(self, "scott" if bw_method is None else bw_method, neff)
        sample_cov = jnp.atleast_2d(jnp.cov(data, rowvar=True, bias=False, aweights=probs))
        self._set("covariance", sample_cov * factor**2)
        self._set("inv_cov", jnp.linalg.inv(sample_cov) / factor**2)

    def _set(self, name: str, value: Any) -> Any:
        object.__setattr__(self, name, value)
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"gaussian_kde is immutable (cannot set {name!r})")

    def tree_flatten(self) -> tuple[tuple, None]:
        return (self.neff, self.dataset, self.weights, self.covariance, self.inv_cov), None

    @classmethod
    def tree_unflatten(cls, aux: None, children: Any) -> gaussian_kde:
        kde = cls.__new__(cls)
        for name, value in zip(("neff", "dataset", "weights", "covariance", "inv_cov"), children):
            kde._set(name, value)
        return kde

    @property
    def d(self) -> int:
        """The number of dimensions."""
        return self.dataset.shape[0]

    @property
    def n(self) -> int:
        """The number of data points."""
        return self.dataset.shape[1]

    def evaluate(self, points: Any) -> Any:
        """The estimated density at `points` (`(d, m)`, or `(m,)` for one dimension)."""
        return self._kernel_sums("evaluate", points, log=False)

    def __call__(self, points: Any) -> Any:
        return self.evaluate(points)

    def pdf(self, x: Any) -> Any:
        """The probability density function (`evaluate`)."""
        return self.evaluate(x)

    def logpdf(self, x: Any) -> Any:
        """The log of the density, by log-sum-exp over the kernels."""
        return self._kernel_sums("logpdf", x, log=True)

    def _kernel_sums(self, caller: str, points: Any, log: bool) -> Any:
        check_arraylike(caller, points)
        at = self._reshape_points(points)
        return _kernel_eval(log, self.dataset.T, self.weights, at.T, self.inv_cov)

    def integrate_gaussian(self, mean: Any, cov: Any) -> Any:
        """The density integrated against the Gaussian `N(mean, cov)`."""
        center = jnp.atleast_1d(jnp.squeeze(mean))
        spread = jnp.atleast_2d(cov)
        if center.shape != (self.d,):
            raise ValueError(f"mean does not have dimension {self.d}")
        if spread.shape != (self.d, self.d):
            raise ValueError(f"covariance does not have dimension {self.d}")
        overlap = _GaussianOverlap.of(self.covariance + spread)
        return overlap.at(self.dataset, self.weights, center)

    def integrate_box_1d(self, low: Any, high: Any) -> Any:
        """The one-dimensional density integrated from `low` to `high` (scalars)."""
        if self.d != 1:
            raise ValueError("integrate_box_1d() only handles 1D pdfs")
        if np.ndim(low) != 0 or np.ndim(high) != 0:
            raise ValueError("the limits of integration in integrate_box_1d must be scalars")
        bandwidth = jnp.squeeze(jnp.sqrt(self.covariance))

        def mass_below(limit):
            return special.ndtr(jnp.squeeze((limit - self.dataset) / bandwidth))

        return jnp.sum(self.weights * (mass_below(high) - mass_below(low)))

    def integrate_kde(self, other: gaussian_kde) -> Any:
        """The integral of the product of this density and `other`'s."""
        if other.d != self.d:
            raise ValueError("KDEs are not the same dimensionality")
        overlap = _GaussianOverlap.of(self.covariance + other.covariance)
        # Loop over the smaller data set's points, each against the whole larger one.
        outer, inner = (self, other) if self.n < other.n else (other, self)

        def against_inner(point):
            return overlap.at(inner.dataset, inner.weights, point)

        return jnp.sum(api.vmap(against_inner, in_axes=1)(outer.dataset) * outer.weights)

    def resample(self, key: Any, shape: tuple[int, ...] = ()) -> Any:
        """`(d, *shape)` samples from the estimated density (JAX's sampling, so the same key
        gives JAX's numbers)."""
        ind_key, eps_key = random.split(key)
        ind = random.choice(ind_key, self.n, shape=shape, p=self.weights)
        eps = random.multivariate_normal(
            eps_key,
            jnp.zeros(self.d, self.covariance.dtype),
            self.covariance,
            shape=shape,
            dtype=self.dataset.dtype,
        ).T
        return self.dataset[:, ind] + eps

    def integrate_box(self, low_bounds: Any, high_bounds: Any, maxpts: Any = None) -> Any:
        """Not provided (as in JAX): use `integrate_box_1d`."""
        raise NotImplementedError("only 1D box integrations are supported; use `integrate_box_1d`")

    def set_bandwidth(self, bw_method: Any = None) -> None:
        """Not provided (as in JAX): make a new estimator with the bandwidth."""
        raise NotImplementedError("dynamically changing the bandwidth method is not supported")

    def _reshape_points(self, points: Any) -> Any:
        grid = jnp.atleast_2d(points)
        if np.dtype(grid.dtype).kind == "c":
            raise NotImplementedError("gaussian_kde does not support complex coordinates")
        rows, cols = grid.shape
        if rows == self.d:  # one point per column already
            return grid
        if (rows, cols) == (1, self.d):  # a single point given as a row
            return jnp.reshape(grid, (self.d, 1))
        raise ValueError(f"points have dimension {rows}, dataset has dimension {self.d}")


def _as_samples(dataset: Any) -> Any:
    """`dataset` as a `(d, n)` array, checked as JAX checks it (dtype not yet promoted)."""
    check_arraylike("gaussian_kde", dataset)
    data = jnp.atleast_2d(dataset)
    if np.dtype(data.dtype).kind == "c":
        raise NotImplementedError("gaussian_kde does not support complex data")
    if not data.size > 1:
        raise ValueError("`dataset` input should have multiple elements.")
    return data


def _with_weights(data: Any, weights: Any) -> tuple[Any, Any]:
    """The data in an inexact dtype and the weights normalized to sum to 1 (uniform if None)."""
    n = data.shape[1]
    if weights is None:
        (data,) = promote_dtypes_inexact(data)
        return data, jnp.full(n, 1.0 / n, dtype=data.dtype)
    check_arraylike("gaussian_kde", weights)
    data, raw = promote_dtypes_inexact(data, weights)
    raw = jnp.atleast_1d(raw)
    probs = raw / jnp.sum(raw)
    if probs.ndim != 1:
        raise ValueError("`weights` input should be one-dimensional.")
    if len(probs) != n:
        raise ValueError("`weights` input should be of length n")
    return data, probs


def _bandwidth_factor(kde: gaussian_kde, bw_method: Any, neff: Any) -> Any:
    """The kernel's scale factor for `bw_method` (a rule's name, a scalar, or a callable)."""
    exponent = -1.0 / (kde.d + 4)
    if isinstance(bw_method, str):
        if bw_method == "scott":
            return jnp.power(neff, exponent)
        if bw_method == "silverman":
            return jnp.power(neff * (kde.d + 2) / 4.0, exponent)
    elif jnp.isscalar(bw_method):
        return bw_method
    elif callable(bw_method):
        return bw_method(kde)
    raise ValueError("`bw_method` should be 'scott', 'silverman', a scalar, or a callable.")


class _GaussianOverlap(NamedTuple):
    """Integrals of a Gaussian kernel of covariance `S` against weighted points: the Cholesky
    factor of `S` and the normalization `1 / ((2 pi)^(d/2) det(chol))`."""

    chol: Any
    norm: Any

    @classmethod
    def of(cls, cov: Any) -> _GaussianOverlap:
        chol = linalg.cho_factor(cov)
        d = cov.shape[0]
        return cls(chol, 1.0 / (jnp.sqrt(2 * np.pi) ** d * jnp.prod(jnp.diag(chol[0]))))

    def at(self, points: Any, weights: Any, center: Any) -> Any:
        """The weighted sum over the `(d, n)` points of the kernel centred at `center`."""
        offsets = points - center[:, None]
        mahalanobis = jnp.sum(offsets * linalg.cho_solve(self.chol, offsets), axis=0)
        return self.norm * jnp.sum(jnp.exp(-(0.5 * mahalanobis)) * weights)


def _kernel_eval(in_log: bool, points: Any, weights: Any, xi: Any, precision: Any) -> Any:
    """The weighted Gaussian kernels of `points` (`(n, d)`) summed at each of `xi` (`(m, d)`),
    or their log-sum-exp."""
    points, weights, xi, precision = promote_dtypes_inexact(points, weights, xi, precision)
    d = points.shape[1]
    if xi.shape[1] != d:
        raise ValueError("points and xi must have same trailing dim")
    if precision.shape != (d, d):
        raise ValueError("precision matrix must match data dims")
    whiten = linalg.cholesky(precision, lower=True)
    log_scale = jnp.sum(jnp.log(jnp.diag(whiten))) - 0.5 * d * jnp.log(2 * np.pi)
    gaps = (xi @ whiten)[:, None, :] - (points @ whiten)[None, :, :]
    log_kernels = log_scale - 0.5 * jnp.sum(jnp.square(gaps), axis=-1)  # (m, n)
    if in_log:
        return special.logsumexp(jnp.log(weights)[None, :] + log_kernels, axis=1)
    return jnp.sum(weights[None, :] * jnp.exp(log_kernels), axis=1)
