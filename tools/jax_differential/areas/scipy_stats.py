"""`jax.scipy.stats` over points and parameters of every kind (1349 calls; none differ
from JAX 0.10.2: dtypes and weak types follow JAX's typed constants, see
`core.scipy.special._util.lax_const`).
"""

# ruff: noqa: E501

# jax.scipy.stats: distribution -> (functions, good parameter values, discrete)
STATS = {
    "bernoulli": (("logpmf", "cdf", "ppf", "pmf"), ("0.3",), True),
    "beta": (("logpdf", "cdf", "sf", "logcdf", "pdf", "logsf"), ("2.0", "0.5"), False),
    "betabinom": (("logpmf", "pmf"), ("5.0", "2.0", "0.5"), True),
    "binom": (("logpmf", "pmf"), ("5.0", "0.3"), True),
    "cauchy": (("logpdf", "cdf", "sf", "ppf", "logcdf", "pdf", "logsf", "isf"), (), False),
    "chi2": (("logpdf", "cdf", "sf", "logcdf", "pdf", "logsf"), ("3.0",), False),
    "expon": (("logpdf", "cdf", "sf", "ppf", "logcdf", "pdf", "logsf"), (), False),
    "gamma": (("logpdf", "cdf", "sf", "logcdf", "pdf", "logsf"), ("2.0",), False),
    "gennorm": (("logpdf", "cdf", "pdf"), ("1.5",), False),
    "geom": (("logpmf", "pmf"), ("0.3",), True),
    "gumbel_l": (("logpdf", "cdf", "sf", "ppf", "logcdf", "pdf", "logsf"), (), False),
    "gumbel_r": (("logpdf", "cdf", "sf", "ppf", "logcdf", "pdf", "logsf"), (), False),
    "laplace": (("logpdf", "cdf", "pdf"), (), False),
    "logistic": (("logpdf", "cdf", "sf", "ppf", "pdf", "isf"), (), False),
    "nbinom": (("logpmf", "pmf"), ("5.0", "0.3"), True),
    "norm": (("logpdf", "cdf", "sf", "ppf", "logcdf", "pdf", "logsf", "isf"), (), False),
    "pareto": (("logpdf", "cdf", "sf", "ppf", "logcdf", "pdf", "logsf"), ("2.0",), False),
    "poisson": (("logpmf", "cdf", "pmf"), ("2.0",), True),
    "t": (("logpdf", "pdf"), ("3.0",), False),
    "truncnorm": (("logpdf", "cdf", "sf", "logcdf", "pdf", "logsf"), ("-1.0", "2.0"), False),
    "uniform": (("logpdf", "cdf", "ppf", "pdf"), (), False),
    "vonmises": (("logpdf", "pdf"), ("1.5",), False),
    "wrapcauchy": (("logpdf", "pdf"), ("0.5",), False),
}


def cases() -> list[str]:
    xs = "jnp.array([-1.0, 0.0, 0.3, 1.0, 2.5, jnp.inf, -jnp.inf, jnp.nan])"
    ks = "jnp.array([-1.0, 0.0, 1.0, 2.5, 3.0, 10.0, jnp.nan])"
    qs = "jnp.array([-0.1, 0.0, 0.3, 0.5, 1.0, 1.1, jnp.nan])"
    c = []
    for dist, (fns, good, discrete) in STATS.items():
        for fn in fns:
            x = qs if fn in ("ppf", "isf") else ks if discrete else xs
            call = f"jsp.stats.{dist}.{fn}"
            g = "".join(", " + v for v in good)
            c += [
                f"{call}({x}{g})",
                f"{call}({x}.astype(jnp.float16){g})",
                f"{call}(jnp.array([0, 1, 2, 3]){g})",
                f"{call}(1{g})",
                f"{call}(0.5{g})",
                f"{call}(jnp.array([True, False]){g})",
            ]
            if good:
                zero = ", 0.0" * len(good)
                neg = ", -1.0" * len(good)
                one = ", 1.0" * len(good)
                c += [f"{call}({x}{zero})", f"{call}({x}{neg})", f"{call}({x}{one})"]
                c.append(
                    f"{call}({x}, jnp.array([[{good[0]}], [1.0]]){''.join(', ' + v for v in good[1:])})"
                )
                if len(good) > 1:
                    c.append(f"{call}({x}, {good[0]}" + ", 2" * (len(good) - 1) + ")")
            c.append(f"{call}({x}{g}, 1.0)")
            if not discrete:
                c += [
                    f"{call}({x}{g}, 1.0, 2.0)",
                    f"{call}({x}{g}, 0.0, 0.0)",
                    f"{call}({x}{g}, 0.0, -1.0)",
                    f"{call}({x}{g}, scale=jnp.array([[1.0], [3.0]]))",
                ]
    c += [
        "jsp.stats.dirichlet.logpdf(jnp.array([0.2, 0.3, 0.5]), jnp.array([1.0, 2.0, 3.0]))",
        "jsp.stats.dirichlet.logpdf(jnp.array([0.2, 0.3]), jnp.array([1.0, 2.0, 3.0]))",
        "jsp.stats.dirichlet.logpdf(jnp.array([0.2, 0.3, 0.6]), jnp.array([1.0, 2.0, 3.0]))",
        "jsp.stats.dirichlet.logpdf(jnp.array([[0.2, 0.3], [0.8, 0.7]]), jnp.array([1.0, 2.0]))",
        "jsp.stats.dirichlet.logpdf(jnp.array([0.0, 1.0]), jnp.array([1.0, 2.0]))",
        "jsp.stats.dirichlet.pdf(jnp.array([0.5, 0.5]), jnp.array([-1.0, 2.0]))",
        "jsp.stats.multinomial.logpmf(jnp.array([1, 2, 0]), 3, jnp.array([0.2, 0.3, 0.5]))",
        "jsp.stats.multinomial.logpmf(jnp.array([1, 2, 0]), 4, jnp.array([0.2, 0.3, 0.5]))",
        "jsp.stats.multinomial.pmf(jnp.array([1.5, 1.5]), 3, jnp.array([0.5, 0.5]))",
        "jsp.stats.multivariate_normal.logpdf(jnp.array([0.5, 1.0]), jnp.zeros(2), jnp.eye(2))",
        "jsp.stats.multivariate_normal.logpdf(jnp.ones((3, 2)), jnp.zeros(2), 2.0)",
        "jsp.stats.multivariate_normal.logpdf(jnp.ones((3, 2)), jnp.zeros(2), jnp.array([1.0, 2.0]))",
        "jsp.stats.multivariate_normal.logpdf(jnp.ones(2), jnp.zeros(3), jnp.eye(3))",
        "jsp.stats.multivariate_normal.logpdf(jnp.ones(2), jnp.zeros(2), jnp.eye(2), allow_singular=True)",
        "jsp.stats.multivariate_normal.pdf(jnp.array([1, 2]), jnp.zeros(2), jnp.eye(2))",
        "jsp.stats.multivariate_normal.logpdf(1.0, 0.0, 2.0)",
    ]
    return c
