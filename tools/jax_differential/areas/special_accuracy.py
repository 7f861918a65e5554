"""Special functions' accuracy against JAX (`special_accuracy`; `special_accuracy_x64` runs
the same sweeps in float64, plus gradients): jax.scipy.special, jax.scipy.stats, jax.nn's
activations and jax.numpy's transcendental ufuncs over wide grids (tiny and huge magnitudes,
negative values, near poles and zeros: lgamma near 1 and 2, digamma near its root
1.4616..., gammaln of negative non-integers; integers, NaN, +-inf, -0.0), each eager and under
`jit`. Every case is compared bit for bit; a difference prints the largest distance in units
in the last place, where it is, and the largest relative error (`compare._ulps`).

252 calls; 73 differed at first, 65 after session 33's fixes (betaln's large-b branch,
polygamma's and i0e/i1e's expansions; float64 lgamma/digamma: `special_accuracy_x64`), 61
after session 34's (expi/exp1: JAX's Cephes rationals and expn loops). Left:
denormal inputs (XLA's threads treat them as 0: sqrt, gelu, i1, entr, betainc and zeta give 0
where numbax keeps the denormal), eager compositions JAX runs as one fused XLA kernel (erfc,
ndtr, log_ndtr, spence, gammainc, i0e: 1-13 ulp eager, jit bit for bit), zeta and so
polygamma at negative non-integer q below -10 (both sides' values are meaningless there).
"""

# ruff: noqa: E501

import re

# The grids, in the default float dtype (float32, float64 under x64), built with numpy on both
# sides. SA_REAL: magnitudes from denormal to huge of both signs, the specials; SA_LG: lgamma
# near its zeros 1 and 2 and at negative non-integers near the poles; SA_DG: digamma near its
# positive root and at negative non-integers; SA_P: probabilities and beyond; SA_U: erfinv's
# [-1, 1]; SA_LIN: activations' range; SA_POS: positive arguments for the Bessel functions,
# spence and the stats' scales; SA_EI: expi's and exp1's (JAX's loops take tens of seconds on
# SA_REAL's far values).
PRELUDE = """
SA_DT = np.dtype(jnp.array(1.0).dtype)
SA_X64 = SA_DT == np.float64
def SA(v):
    return jnp.asarray(np.array(v, dtype=np.float64).astype(SA_DT))
SA_MAG = [0.0, 1e-30, 1e-20, 1e-10, 1e-6, 1e-4, 1e-3, 0.01, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6,
          0.7, 0.8, 0.9, 0.99, 1.0, 1.01, 1.1, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 6.5,
          8.0, 10.0, 12.5, 15.0, 20.0, 30.0, 50.0, 80.0, 100.0, 200.0, 500.0, 1e3, 1e4, 1e5, 1e6,
          1e8, 1e10, 1e15, 1e20, 1e30, 3e38]
SA_MAG_DT = SA_MAG + ([1e-310, 1e-300, 1e-100, 1e50, 1e100, 1e300] if SA_X64 else [1e-40])
SA_REAL = SA(SA_MAG_DT + [-v for v in SA_MAG_DT] + [np.inf, -np.inf, np.nan])
SA_POS = SA([v for v in SA_MAG_DT if 0 < v < 1e6] + [np.inf, np.nan])
SA_LG = SA([1 + k / 64 for k in range(-6, 7)] + [1 + s * 2.0 ** -e for s in (1, -1) for e in (10, 15, 20, 30, 40)]
           + [2 + k / 64 for k in range(-6, 7)] + [2 + s * 2.0 ** -e for s in (1, -1) for e in (10, 15, 20, 30, 40)]
           + [-0.5 - k for k in range(10)] + [-k + d for k in range(1, 6) for d in (-0.1, -1e-3, 1e-3, 0.1)]
           + [-100.5, -1000.25, -1e5 - 0.5, 0.25, 3.0, 4.0, 10.0, 171.5, 1e15, 2e36, 1e-40])
SA_DG = SA([1.4616321449683622 + k * 1e-3 for k in range(-5, 6)]
           + [1.4616321449683622 + d for d in (-1e-6, 1e-6, -1e-9, 1e-9)]
           + [-0.5, -1.5, -2.5, -0.1, -0.9, -10.3, -1 + 1e-3, -1 - 1e-3, -3 + 1e-5, 1e-8, 0.5, 2.0, 1e3, 1e7])
SA_P = SA([0.0, 1e-40, 1e-30, 1e-10, 1e-6, 1e-3, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.45, 0.5, 0.55,
           0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 0.999, 1 - 1e-6, 1.0, -0.0, -0.5, 1.5, np.nan])
SA_U = SA(list(np.linspace(-1.0, 1.0, 41)) + [-0.999999, 0.999999, 1e-10, -1e-10, 1e-30, -0.0, 1.5, -2.0, np.nan])
SA_LIN = SA(list(np.linspace(-8.0, 8.0, 65)) + [-1e-6, 1e-6, -30.0, 30.0, -100.0, 100.0, -1e30, 1e30, -0.0, np.inf, -np.inf, np.nan])
def SA_OUTER(*grids):
    m = np.meshgrid(*[np.asarray(g, dtype=np.float64) for g in grids], indexing='ij')
    return tuple(SA(g.ravel()) for g in m)
SA_IG = SA_OUTER([0.0, 1e-3, 0.1, 0.5, 1.0, 2.5, 10.0, 50.0, 200.0, 1e4, -1.0, np.nan],
                          [0.0, 1e-5, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 100.0, 1e3, np.inf, np.nan])
SA_BI = SA_OUTER([0.1, 0.5, 1.0, 2.0, 5.0, 20.0, 100.0],
                                  [0.1, 0.5, 1.0, 2.0, 5.0, 20.0, 100.0],
                                  [0.0, 0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99, 1.0])
SA_BL = SA_OUTER([1e-5, 0.1, 0.5, 1.0, 2.0, 5.5, 10.0, 50.0, 1e3, 1e6],
                          [1e-5, 0.1, 0.5, 1.0, 2.0, 5.5, 10.0, 50.0, 1e3, 1e6])
SA_Z = SA_OUTER([1.0, 1.5, 2.0, 3.0, 4.5, 10.0, 30.0], [0.1, 0.5, 1.0, 2.0, 10.0, 100.0, 1e4])
SA_XL = SA_OUTER([0.0, -0.0, 1e-30, 0.5, 1.0, 3.0, -2.0],
                          [0.0, 1e-30, 0.5, 1.0, 2.0, 1e30, np.inf, np.nan, -1.0, -0.5])
SA_LSE = SA([[0.0, 1.0, 2.0, 3.0], [-1e30, 0.0, 1e-3, 5.0], [100.0, 100.0, -100.0, 99.0],
             [-np.inf, -np.inf, -np.inf, -np.inf], [-np.inf, 0.0, -np.inf, 1.0], [80.0, 90.0, 88.0, 87.5]])
SA_LSB = SA([[1.0, -1.0, 0.5, 2.0], [0.0, 1.0, -1.0, 1.0], [1.0, -1.0, 0.0, 0.0],
             [1.0, 1.0, 1.0, 1.0], [2.0, 0.0, 3.0, -1.0], [-1.0, 1.0, -2.0, 0.5]])
SA_EI = SA([1e-3, 0.1, 0.5, 1.0, 1.5, 2.0, 3.5, 5.0, 8.0, 12.5, 20.0, 30.0]
           + [-1e-3, -0.1, -0.5, -1.0, -1.5, -2.0, -3.5, -5.0, -8.0, -12.5, -20.0, -30.0] + [0.0, np.inf, np.nan])
SA_K = SA([0.0, 1.0, 2.0, 3.0, 5.0, 10.0, 20.0, 50.0, 100.0, 2.5, -1.0])
"""

# unary functions over a grid: (source of the function, grid)
UNARY = [
    ("jsp.special.gammaln", "SA_REAL"),
    ("jsp.special.gammaln", "SA_LG"),
    ("jsp.special.digamma", "SA_REAL"),
    ("jsp.special.digamma", "SA_DG"),
    ("jsp.special.digamma", "SA_LG"),
    ("jsp.special.gamma", "SA_REAL"),
    ("jsp.special.gamma", "SA_LG"),
    ("jsp.special.gammasgn", "SA_LG"),
    ("jsp.special.erf", "SA_REAL"),
    ("jsp.special.erfc", "SA_REAL"),
    ("jsp.special.erfc", "SA_LIN"),
    ("jsp.special.erfinv", "SA_U"),
    ("jsp.special.ndtr", "SA_REAL"),
    ("jsp.special.ndtr", "SA_LIN"),
    ("jsp.special.ndtri", "SA_P"),
    ("jsp.special.log_ndtr", "SA_REAL"),
    ("jsp.special.log_ndtr", "SA_LIN"),
    ("jsp.special.expit", "SA_REAL"),
    ("jsp.special.expit", "SA_LIN"),
    ("jsp.special.logit", "SA_P"),
    ("jsp.special.entr", "SA_REAL"),
    ("jsp.special.i0", "SA_REAL"),
    ("jsp.special.i0e", "SA_REAL"),
    ("jsp.special.i1", "SA_REAL"),
    ("jsp.special.i1e", "SA_REAL"),
    ("jsp.special.i0e", "SA_LIN"),
    ("jsp.special.i1e", "SA_LIN"),
    ("jsp.special.spence", "SA_REAL"),
    ("jsp.special.expi", "SA_EI"),
    ("jsp.special.exp1", "SA_EI"),
    ("jnp.sinc", "SA_REAL"),
    ("jnp.sinc", "SA_LIN"),
    ("jax.nn.gelu", "SA_LIN"),
    ("functools.partial(jax.nn.gelu, approximate=False)", "SA_LIN"),
    ("jax.nn.gelu", "SA_REAL"),
    ("functools.partial(jax.nn.gelu, approximate=False)", "SA_REAL"),
    ("jax.nn.sigmoid", "SA_LIN"),
    ("jax.nn.log_sigmoid", "SA_LIN"),
    ("jax.nn.softplus", "SA_LIN"),
    ("jax.nn.silu", "SA_LIN"),
    ("jax.nn.mish", "SA_LIN"),
    ("jax.nn.elu", "SA_LIN"),
    ("jax.nn.selu", "SA_LIN"),
    ("jax.nn.celu", "SA_LIN"),
    ("jax.nn.sparse_plus", "SA_LIN"),
    ("jax.nn.squareplus", "SA_LIN"),
    ("jax.nn.log1mexp", "SA_POS"),
    ("jax.nn.tanh", "SA_LIN"),
]
for _f in ("exp", "expm1", "exp2", "log", "log1p", "log2", "log10", "sin", "cos", "tan", "sinh",
           "cosh", "tanh", "arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh", "sqrt",
           "cbrt"):  # fmt: skip
    UNARY.append((f"jnp.{_f}", "SA_REAL"))
UNARY += [(f"jnp.{f}", "SA_U") for f in ("arcsin", "arccos", "arctanh")]

# calls of several arguments (sources of expressions)
CALLS = [
    "jsp.special.gammainc(*SA_IG)",
    "jsp.special.gammaincc(*SA_IG)",
    "jsp.special.betainc(*SA_BI)",
    "jsp.special.betaln(*SA_BL)",
    "jsp.special.zeta(*SA_Z)",
    "jsp.special.xlogy(*SA_XL)",
    "jsp.special.xlog1py(*SA_XL)",
    "jsp.special.polygamma(0, SA_DG)",
    "jsp.special.polygamma(1, SA_DG)",
    "jsp.special.polygamma(2, SA_DG)",
    "jsp.special.polygamma(3, SA_POS)",
    "jsp.special.polygamma(1, SA_LG)",
    "jsp.special.multigammaln(SA([1.5, 2.0, 3.7, 10.0, 100.0, 1e4]), 1)",
    "jsp.special.multigammaln(SA([1.5, 2.0, 3.7, 10.0, 100.0, 1e4]), 3)",
    "jsp.special.bessel_jn(SA([0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 30.0]), v=3)",
    "jsp.special.bessel_jn(SA([0.1, 1.0, 5.0, 12.0]), v=0, n_iter=30)",
    "jsp.special.logsumexp(SA_LSE, axis=1)",
    "jsp.special.logsumexp(SA_LSE)",
    "jsp.special.logsumexp(SA_LSE, axis=0, keepdims=True)",
    "jsp.special.logsumexp(SA_LSE, axis=1, b=SA_LSB, return_sign=True)",
    "jsp.special.logsumexp(SA_LSE, axis=1, b=jnp.abs(SA_LSB))",
    "jsp.special.logsumexp(SA_LSE, b=SA_LSB, return_sign=True)",
    "jax.nn.logsumexp(SA_LSE, axis=-1, where=SA_LSB > 0)",
    "jax.nn.softmax(SA_LSE, axis=-1)",
    "jax.nn.log_softmax(SA_LSE, axis=-1)",
    "jax.nn.softmax(SA_LSE, axis=0)",
    "jax.nn.log_softmax(SA_LSE, axis=0)",
    "jsp.special.softmax(SA_LSE, axis=1)",
    "jsp.special.log_softmax(SA_LSE, axis=1)",
    "jnp.power(SA_POS, SA(2.5))",
    "jnp.power(SA_REAL, SA(3.0))",
    "jnp.arctan2(SA_REAL, SA(0.5))",
    "jnp.logaddexp(SA_LIN, SA(1.5))",
    "jnp.logaddexp2(SA_LIN, SA(-2.0))",
    # stats
    "jsp.stats.norm.logpdf(SA_REAL)",
    "jsp.stats.norm.logpdf(SA_LIN, SA(1.5), SA(0.3))",
    "jsp.stats.norm.cdf(SA_LIN, SA(1.5), SA(0.3))",
    "jsp.stats.norm.logcdf(SA_LIN)",
    "jsp.stats.norm.sf(SA_LIN)",
    "jsp.stats.norm.ppf(SA_P, SA(1.0), SA(2.0))",
    "jsp.stats.t.logpdf(SA_LIN, SA(2.5))",
    "jsp.stats.t.logpdf(SA_LIN, SA(1.0))",
    "jsp.stats.t.logpdf(SA_LIN, SA(1e6), SA(0.5), SA(2.0))",
    "jsp.stats.gamma.logpdf(SA_POS, SA(2.5))",
    "jsp.stats.gamma.logpdf(SA_POS, SA(0.5), SA(0.0), SA(3.0))",
    "jsp.stats.gamma.cdf(SA_POS, SA(2.5))",
    "jsp.stats.beta.logpdf(SA_P, SA(2.0), SA(3.5))",
    "jsp.stats.beta.logpdf(SA_P, SA(0.5), SA(0.5))",
    "jsp.stats.beta.cdf(SA_P, SA(2.0), SA(3.5))",
    "jsp.stats.poisson.logpmf(SA_K, SA(3.5))",
    "jsp.stats.poisson.cdf(SA_K, SA(3.5))",
    "jsp.stats.poisson.logpmf(SA_K, SA(40.0))",
    "jsp.stats.binom.logpmf(SA_K, SA(20.0), SA(0.3))",
    "jsp.stats.binom.logpmf(SA_K, SA(100.0), SA(0.9))",
]


def jitted(src: str) -> str:
    """`src` under `jit` with its grids and `SA(...)` constants as arguments (constants closed
    over would be XLA's constant folding's, not its kernels')."""
    args: list[str] = []

    def param(m: re.Match) -> str:
        args.append(m.group(0))
        return f"a{len(args) - 1}"

    body = re.sub(r"SA\([^()]*\)|SA_[A-Z0-9]+", param, src)
    names = ", ".join(f"a{i}" for i in range(len(args)))
    return f"jax.jit(lambda {names}: {body})({', '.join(args)})"


def cases() -> list[tuple[str, bool]]:
    c = []
    for f, grid in UNARY:
        c += [(f"{f}({grid})", True), (f"jax.jit({f})({grid})", True)]
    for src in CALLS:
        c += [(src, True), (jitted(src), True)]
    return c
