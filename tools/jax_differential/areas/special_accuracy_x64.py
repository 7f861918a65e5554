"""`special_accuracy`'s sweeps in float64 (x64), and the functions' gradients (`jax.grad` at a
few points of each, float64), compared bit for bit with the distance in units in the last place
printed for each difference.

296 calls; 147 differed at first, 84 after session 33's fixes (float64 lgamma and digamma are
XLA's Lanczos expansions bit for bit, and with them the stats' logpdfs; erfc is XLA's Cephes
expansion, and with it ndtr, log_ndtr and the normal's cdfs; betaln; polygamma; i0e/i1e under
jit). Left: eager compositions JAX runs as one fused XLA kernel (erfc, ndtr, i0e, gammaincc:
1-133 ulp eager, jit bit for bit; expi/exp1 too, 6 ulp), betainc's batches (session 35:
JAX's Lentz loop, single elements JAX's bits but 1 in 63, and 249 of SA_BI's 441 elements still differ,
up to 3648 ulp; JAX's own results depend on the array's size: betainc(5, 2, 0.1) is
0x3F0CD5F99C38B047 at sizes 4, 8, 16, 24, 32, XLA's vectorized loop, which numbax gives, and 29
ulp more at sizes 1-3, 5-7, 9, 10 and 12), denormals (XLA's threads read them as 0), the
tanh-gelu gradient at -5 (7.5e-10 relative: numbax's one-expression slope, kept for memory).
"""

# ruff: noqa: E501

from tools.jax_differential.areas.special_accuracy import cases as float32_cases

# gradients: (function of one float, points)
GRADS = [
    ("jsp.special.gammaln", "[0.3, 1.0, 1.4616321449683622, 2.0, 2.5, 7.0, 30.0, 1e4, -0.5, -2.5]"),
    ("jsp.special.digamma", "[0.3, 1.0, 1.4616321449683622, 2.5, 7.0, 30.0, 1e4, -0.5, -2.5]"),
    ("jsp.special.gamma", "[0.3, 1.0, 2.5, 7.0, 30.0, -0.5, -2.5]"),
    ("jsp.special.erf", "[-3.0, -0.5, 0.0, 0.3, 1.0, 2.5, 6.0]"),
    ("jsp.special.erfc", "[-3.0, -0.5, 0.0, 0.3, 1.0, 2.5, 6.0, 20.0]"),
    ("jsp.special.erfinv", "[-0.99, -0.5, 0.0, 0.3, 0.9, 0.999]"),
    ("jsp.special.ndtr", "[-10.0, -3.0, -0.5, 0.0, 1.0, 6.0]"),
    ("jsp.special.ndtri", "[1e-10, 0.01, 0.3, 0.5, 0.9, 0.999]"),
    ("jsp.special.log_ndtr", "[-40.0, -10.0, -3.0, -0.5, 0.0, 1.0, 6.0, 10.0]"),
    ("jsp.special.expit", "[-40.0, -3.0, 0.0, 0.5, 3.0, 40.0]"),
    ("jsp.special.logit", "[1e-6, 0.1, 0.5, 0.9, 0.999]"),
    ("jsp.special.entr", "[1e-6, 0.1, 0.5, 1.0, 3.0]"),
    ("jsp.special.i0", "[-3.0, 0.0, 0.5, 2.0, 8.0, 30.0]"),
    ("jsp.special.i0e", "[-3.0, 0.0, 0.5, 2.0, 8.0, 30.0]"),
    ("jsp.special.i1", "[-3.0, 0.0, 0.5, 2.0, 8.0, 30.0]"),
    ("jsp.special.i1e", "[-3.0, 0.0, 0.5, 2.0, 8.0, 30.0]"),
    ("jsp.special.spence", "[0.1, 0.5, 1.0, 2.0, 10.0]"),
    ("jsp.special.expi", "[-3.0, -0.5, 0.5, 2.0, 10.0]"),
    ("jsp.special.exp1", "[0.1, 0.5, 2.0, 10.0]"),
    ("jnp.sinc", "[-2.5, -0.3, 0.0, 0.1, 1.0, 3.7]"),
    ("jax.nn.gelu", "[-5.0, -1.0, 0.0, 0.5, 3.0]"),
    ("functools.partial(jax.nn.gelu, approximate=False)", "[-5.0, -1.0, 0.0, 0.5, 3.0]"),
    ("jax.nn.softplus", "[-40.0, -1.0, 0.0, 0.5, 40.0]"),
    ("jax.nn.mish", "[-5.0, -1.0, 0.0, 0.5, 3.0]"),
    ("lambda x: jsp.special.polygamma(2, x)", "[0.3, 1.0, 2.5, 10.0]"),
    ("lambda x: jsp.special.multigammaln(x, 3)", "[1.5, 2.0, 3.7, 10.0]"),
    ("lambda x: jsp.special.zeta(x, 2.0)", "[1.5, 2.0, 4.5]"),
    ("lambda q: jsp.special.zeta(3.0, q)", "[0.5, 1.0, 10.0]"),
    ("lambda x: jsp.special.gammainc(2.5, x)", "[0.1, 1.0, 3.0, 20.0]"),
    ("lambda x: jsp.special.gammaincc(2.5, x)", "[0.1, 1.0, 3.0, 20.0]"),
    ("lambda a: jsp.special.gammainc(a, 2.0)", "[0.5, 1.0, 3.0, 20.0]"),
    ("lambda x: jsp.special.betainc(2.0, 3.5, x)", "[0.05, 0.3, 0.5, 0.9]"),
    ("lambda a: jsp.special.betaln(a, 3.5)", "[0.1, 1.0, 5.5, 100.0]"),
    ("lambda x: jsp.special.xlogy(x, 2.5)", "[0.0, 0.5, 3.0]"),
    ("lambda y: jsp.special.xlogy(2.0, y)", "[0.5, 3.0, 1e10]"),
    ("lambda y: jsp.special.xlog1py(2.0, y)", "[-0.5, 0.0, 3.0]"),
    (
        "lambda x: jsp.special.logsumexp(jnp.array([x, 1.0, -2.0]), b=jnp.array([1.0, -0.5, 2.0]))",
        "[0.0, 1.5, 4.0]",
    ),
    ("lambda x: jax.nn.log_softmax(jnp.array([x, 1.0, -2.0]))[0]", "[0.0, 1.5, 40.0]"),
    ("lambda x: jsp.stats.norm.logcdf(x)", "[-40.0, -5.0, 0.0, 3.0]"),
    ("lambda x: jsp.stats.t.logpdf(x, 2.5)", "[-3.0, 0.0, 1.5]"),
    ("lambda a: jsp.stats.gamma.logpdf(2.0, a)", "[0.5, 2.5, 10.0]"),
    ("lambda b: jsp.stats.beta.logpdf(0.3, 2.0, b)", "[0.5, 3.5]"),
    ("lambda mu: jsp.stats.poisson.logpmf(3.0, mu)", "[0.5, 3.5, 40.0]"),
    ("lambda p: jsp.stats.binom.logpmf(3.0, 20.0, p)", "[0.1, 0.5, 0.9]"),
]


def cases() -> list[tuple[str, bool]]:
    c = float32_cases()
    for f, pts in GRADS:
        c.append((f"jax.vmap(jax.grad({f}))(jnp.array({pts}))", True))
    return c
