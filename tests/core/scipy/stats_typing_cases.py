"""The cases of `test_stats_typing.py` (and of `record_stats_typing.py`, which records JAX's
answers for them): `jax.scipy.stats` results' dtypes and weak types, which follow the typed
constants inside JAX's formulas, and the edge values and errors of a few functions.

An argument is `(kind, value)`: `"py"` a Python scalar, or a dtype name (`"float32"`,
`"float16"`, `"int32"`, `"bool"`) for an array of that dtype.
"""

INTS = ("int32", [0, 1, 2, 3])
BOOLS = ("bool", [True, False])
ONE = ("py", 1)
XS = ("float32", [-1.0, 0.0, 0.3, 1.0, 2.5, float("inf"), float("-inf"), float("nan")])

# module: (functions, Python-float parameters after the point)
FAMILIES = {
    "bernoulli": (("logpmf", "pmf", "cdf", "ppf"), (0.3,)),
    "beta": (("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"), (2.0, 0.5)),
    "betabinom": (("logpmf", "pmf"), (5.0, 2.0, 0.5)),
    "cauchy": (("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf"), ()),
    "chi2": (("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"), (3.0,)),
    "gamma": (("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"), (2.0,)),
    "geom": (("logpmf", "pmf"), (0.3,)),
    "gumbel_r": (("sf", "logsf"), ()),
    "laplace": (("logpdf", "pdf", "cdf"), ()),
    "logistic": (("logpdf", "pdf", "cdf", "sf", "ppf", "isf"), ()),
    "nbinom": (("logpmf", "pmf"), (5.0, 0.3)),
    "norm": (("logpdf", "pdf", "cdf", "sf", "logcdf"), ()),
    "pareto": (("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf"), (2.0,)),
    "poisson": (("logpmf", "pmf", "cdf"), (2.0,)),
    "t": (("logpdf", "pdf"), (3.0,)),
    "uniform": (("logpdf", "pdf", "cdf", "ppf"), ()),
}

# (label, module, function, args)
CASES = []
for _module, (_fns, _params) in FAMILIES.items():
    for _fn in _fns:
        for _name, _x in (("ints", INTS), ("bools", BOOLS), ("scalar", ONE)):
            _args = [_x, *(("py", p) for p in _params)]
            CASES.append((f"{_module}.{_fn}-{_name}", _module, _fn, _args))

CASES += [
    # norm.ppf/isf: no promotion (ndtri takes float32/float64), the default float, strong
    ("norm.ppf-scalar", "norm", "ppf", [("py", 0.3)]),
    ("norm.ppf-f32", "norm", "ppf", [("float32", [0.0, 0.3, 1.0])]),
    ("norm.isf-scalar-loc", "norm", "isf", [("py", 0.3), ("py", 1.0), ("py", 2.0)]),
    ("norm.ppf-ints", "norm", "ppf", [INTS]),
    ("norm.isf-bools", "norm", "isf", [BOOLS]),
    ("norm.ppf-f16", "norm", "ppf", [("float16", [0.3])]),
    ("norm.cdf-f16", "norm", "cdf", [("float16", [0.3])]),
    ("norm.logcdf-f16", "norm", "logcdf", [("float16", [0.3])]),
    # truncnorm: a NaN point (and scale 0) falls through JAX's select to its default 0
    ("truncnorm.cdf", "truncnorm", "cdf", [XS, ("py", -1.0), ("py", 2.0)]),
    ("truncnorm.logsf", "truncnorm", "logsf", [XS, ("py", -1.0), ("py", 2.0), ("py", 1.0)]),
    ("truncnorm.sf-scale0", "truncnorm", "sf", [XS, ("py", -1.0), ("py", 2.0), ONE, ("py", 0.0)]),
    # the incomplete gamma at a == 0: NaN below 1, 1 from 1 on
    ("gamma.cdf-a0", "gamma", "cdf", [XS, ("py", 0.0)]),
    ("chi2.cdf-df0", "chi2", "cdf", [XS, ("py", 0.0)]),
    ("chi2.sf-df0", "chi2", "sf", [XS, ("py", 0.0)]),
    (
        "multivariate_normal.logpdf-cov-shape",
        "multivariate_normal",
        "logpdf",
        [("float32", [1.0, 1.0]), ("float32", [0.0, 0.0]), ("float32", [1.0, 2.0])],
    ),
]
