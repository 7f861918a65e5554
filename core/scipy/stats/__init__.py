"""`core.scipy.stats`: probability distributions, like `jax.scipy.stats`.

One module per distribution, each exposing the functions JAX exposes for it (`logpdf`, `pdf`,
`cdf`, `logcdf`, `sf`, `logsf`, `ppf`, `isf`; `logpmf`/`pmf` for discrete ones), with scipy's
`loc`/`scale` conventions: `f(x; loc, scale) = f((x - loc) / scale) / scale`.
"""

from core.scipy.stats import (
    bernoulli,
    beta,
    cauchy,
    chi2,
    dirichlet,
    expon,
    gamma,
    gennorm,
    geom,
    laplace,
    logistic,
    multivariate_normal,
    nbinom,
    norm,
    poisson,
    t,
    truncnorm,
    uniform,
    vonmises,
    wrapcauchy,
)

__all__ = [
    "bernoulli",
    "beta",
    "cauchy",
    "chi2",
    "dirichlet",
    "expon",
    "gamma",
    "gennorm",
    "geom",
    "laplace",
    "logistic",
    "multivariate_normal",
    "nbinom",
    "norm",
    "poisson",
    "t",
    "truncnorm",
    "uniform",
    "vonmises",
    "wrapcauchy",
]
