"""The distribution cases of `test_stats_more.py` (and of `record_stats_more.py`, which
records JAX's answers for them)."""

X = [-1.0, 0.0, 0.5, 1.0, 2.0, 3.5, 7.0]
K = [-1.0, 0.0, 1.0, 3.0, 5.0, 6.0]
P = [0.0, 0.2, 0.5, 0.99, 1.0]
SAMPLE = [[3.0, 1.0, 3.0, 2.0], [2.0, 2.0, 5.0, 5.0], [1.0, 4.0, 4.0, 4.0]]

# (label, module, function, args): args are lists (arrays) or scalars, broadcast by the function.
CASES = [
    ("binom.pmf", "binom", "pmf", [K, 5.0, [[0.0], [0.3], [1.0]]]),
    ("binom.logpmf_loc", "binom", "logpmf", [K, 4.0, 0.4, 1.0]),
    ("betabinom.pmf", "betabinom", "pmf", [K, 5.0, 1.5, [[0.5], [2.0]]]),
    ("betabinom.logpmf_bad", "betabinom", "logpmf", [K, [[-1.0], [3.0]], 1.0, 2.0]),
    ("pareto.logpdf", "pareto", "logpdf", [X, 2.5, 0.0, 1.0]),
    ("pareto.pdf", "pareto", "pdf", [X, 1.5, -1.0, 2.0]),
    ("pareto.cdf", "pareto", "cdf", [X, 2.5]),
    ("pareto.logcdf", "pareto", "logcdf", [X, 2.5]),
    ("pareto.sf", "pareto", "sf", [X, 2.5]),
    ("pareto.logsf", "pareto", "logsf", [X, 2.5]),
    ("pareto.ppf", "pareto", "ppf", [[-0.1, *P, 1.5], 2.5, 1.0, 2.0]),
]
for name in ("gumbel_l", "gumbel_r"):
    for fn in ("logpdf", "pdf", "logcdf", "cdf", "sf", "logsf"):
        CASES.append((f"{name}.{fn}", name, fn, [X, 0.5, [[2.0], [-1.0]]]))
    CASES.append((f"{name}.ppf", name, "ppf", [[-0.1, *P, 1.5], 0.5, 2.0]))
