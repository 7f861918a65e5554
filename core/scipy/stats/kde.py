"""`gaussian_kde`: Gaussian kernel density estimation, like `jax.scipy.stats.gaussian_kde`.

A pytree (its arrays are the leaves: `neff`, `dataset`, `weights`, `covariance`, `inv_cov`),
so a `gaussian_kde` passes through `jit`, `vmap` and `grad` like JAX's. The bandwidth is
Scott's or Silverman's factor (of the effective sample size `neff = 1 / sum(w^2)`), a scalar,
or a function of the estimator; the kernel covariance is the weighted data covariance times the
factor squared. Densities whiten the data with the Cholesky factor of the inverse covariance
and sum (or log-sum-exp) the kernels; the integrals are JAX's closed forms.
"""

from __future__ import annotations

import functools
from typing import Any

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
        check_arraylike("gaussian_kde", dataset)
        dataset = jnp.atleast_2d(dataset)
        if np.dtype(dataset.dtype).kind == "c":
            raise NotImplementedError("gaussian_kde does not support complex data")
        if not dataset.size > 1:
            raise ValueError("`dataset` input should have multiple elements.")
        d, n = dataset.shape
        if weights is not None:
            check_arraylike("gaussian_kde", weights)
            dataset, weights = promote_dtypes_inexact(dataset, weights)
            weights = jnp.atleast_1d(weights)
            weights = weights / jnp.sum(weights)
            if weights.ndim != 1:
                raise ValueError("`weights` input should be one-dimensional.")
            if len(weights) != n:
                raise ValueError("`weights` input should be of length n")
        else:
            (dataset,) = promote_dtypes_inexact(dataset)
            weights = jnp.full(n, 1.0 / n, dtype=dataset.dtype)
        self._set("dataset", dataset)
        self._set("weights", weights)
        neff = self._set("neff", 1 / jnp.sum(weights**2))
        bw_method = "scott" if bw_method is None else bw_method
        if isinstance(bw_method, str) and bw_method == "scott":
            factor = jnp.power(neff, -1.0 / (d + 4))
        elif isinstance(bw_method, str) and bw_method == "silverman":
            factor = jnp.power(neff * (d + 2) / 4.0, -1.0 / (d + 4))
        elif jnp.isscalar(bw_method) and not isinstance(bw_method, str):
            factor = bw_method
        elif callable(bw_method):
            factor = bw_method(self)
        else:
            raise ValueError("`bw_method` should be 'scott', 'silverman', a scalar, or a callable.")
        data_cov = jnp.atleast_2d(jnp.cov(dataset, rowvar=True, bias=False, aweights=weights))
        self._set("covariance", data_cov * factor**2)
        self._set("inv_cov", jnp.linalg.inv(data_cov) / factor**2)

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
        check_arraylike("evaluate", points)
        points = self._reshape_points(points)
        return _kernel_eval(False, self.dataset.T, self.weights, points.T, self.inv_cov)

    def __call__(self, points: Any) -> Any:
        return self.evaluate(points)

    def pdf(self, x: Any) -> Any:
        """The probability density function (`evaluate`)."""
        return self.evaluate(x)

    def logpdf(self, x: Any) -> Any:
        """The log of the density, by log-sum-exp over the kernels."""
        check_arraylike("logpdf", x)
        x = self._reshape_points(x)
        return _kernel_eval(True, self.dataset.T, self.weights, x.T, self.inv_cov)

    def integrate_gaussian(self, mean: Any, cov: Any) -> Any:
        """The density integrated against the Gaussian `N(mean, cov)`."""
        mean = jnp.atleast_1d(jnp.squeeze(mean))
        cov = jnp.atleast_2d(cov)
        if mean.shape != (self.d,):
            raise ValueError(f"mean does not have dimension {self.d}")
        if cov.shape != (self.d, self.d):
            raise ValueError(f"covariance does not have dimension {self.d}")
        chol = linalg.cho_factor(self.covariance + cov)
        norm = 1.0 / (jnp.sqrt(2 * np.pi) ** self.d * jnp.prod(jnp.diag(chol[0])))
        return _kernel_convolve(chol, norm, self.dataset, self.weights, mean)

    def integrate_box_1d(self, low: Any, high: Any) -> Any:
        """The one-dimensional density integrated from `low` to `high` (scalars)."""
        if self.d != 1:
            raise ValueError("integrate_box_1d() only handles 1D pdfs")
        if np.ndim(low) != 0 or np.ndim(high) != 0:
            raise ValueError("the limits of integration in integrate_box_1d must be scalars")
        sigma = jnp.squeeze(jnp.sqrt(self.covariance))
        low = jnp.squeeze((low - self.dataset) / sigma)
        high = jnp.squeeze((high - self.dataset) / sigma)
        return jnp.sum(self.weights * (special.ndtr(high) - special.ndtr(low)))

    def integrate_kde(self, other: gaussian_kde) -> Any:
        """The integral of the product of this density and `other`'s."""
        if other.d != self.d:
            raise ValueError("KDEs are not the same dimensionality")
        chol = linalg.cho_factor(self.covariance + other.covariance)
        norm = 1.0 / (jnp.sqrt(2 * np.pi) ** self.d * jnp.prod(jnp.diag(chol[0])))
        sm, lg = (self, other) if self.n < other.n else (other, self)
        one = functools.partial(_kernel_convolve, chol, norm, lg.dataset, lg.weights)
        return jnp.sum(api.vmap(one, in_axes=1)(sm.dataset) * sm.weights)

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
        points = jnp.atleast_2d(points)
        if np.dtype(points.dtype).kind == "c":
            raise NotImplementedError("gaussian_kde does not support complex coordinates")
        d, m = points.shape
        if d != self.d:
            if d == 1 and m == self.d:
                return jnp.reshape(points, (self.d, 1))
            raise ValueError(f"points have dimension {d}, dataset has dimension {self.d}")
        return points


def _kernel_convolve(chol: Any, norm: Any, target: Any, weights: Any, mean: Any) -> Any:
    diff = target - mean[:, None]
    alpha = linalg.cho_solve(chol, diff)
    arg = 0.5 * jnp.sum(diff * alpha, axis=0)
    return norm * jnp.sum(jnp.exp(-arg) * weights)


def _kernel_eval(in_log: bool, points: Any, weights: Any, xi: Any, precision: Any) -> Any:
    """The weighted Gaussian kernels of `points` (`(n, d)`) summed at each of `xi` (`(m, d)`),
    or their log-sum-exp."""
    points, weights, xi, precision = promote_dtypes_inexact(points, weights, xi, precision)
    d = points.shape[1]
    if xi.shape[1] != d:
        raise ValueError("points and xi must have same trailing dim")
    if precision.shape != (d, d):
        raise ValueError("precision matrix must match data dims")
    whitening = linalg.cholesky(precision, lower=True)
    points = points @ whitening
    xi = xi @ whitening
    log_norm = jnp.sum(jnp.log(jnp.diag(whitening))) - 0.5 * d * jnp.log(2 * np.pi)
    sq = jnp.sum(jnp.square(xi[:, None, :] - points[None, :, :]), axis=-1)  # (m, n)
    arg = log_norm - 0.5 * sq
    if in_log:
        return special.logsumexp(jnp.log(weights)[None, :] + arg, axis=1)
    return jnp.sum(weights[None, :] * jnp.exp(arg), axis=1)
