"""Sets, sorting, searching and summary statistics in `jax.numpy` at their corners (our own
program), as data-handling code inside `jit` meets them: static sizes, fill values, ties, NaNs
and the errors of data-dependent shapes.

- `unique` with `return_index`/`return_inverse`/`return_counts`, `axis=0`, `size=` and
  `fill_value=` (under `jit`), `equal_nan=`, and the array-API `unique_values`,
  `unique_counts`, `unique_inverse`, `unique_all`;
- `intersect1d(return_indices=True, assume_unique=)`, `union1d`/`setdiff1d`/`setxor1d` with
  `size=`, `isin(invert=)`, `nonzero`/`argwhere`/`flatnonzero` with `size`/`fill_value`;
- `sort`/`argsort` with `stable`, `descending` and NaNs, `lexsort`, `partition`/`argpartition`,
  `sort_complex`, `searchsorted` with `side=` and every `method=`, `digitize(right=)`;
- `bincount` (`weights`, `minlength`, `length` under `jit`), `histogram` (`bins` as edges,
  `range=`, `density=`, `weights=`), `histogram2d`, `cov` (`rowvar`, `ddof`, `fweights`,
  `aweights`), `corrcoef`, `average(returned=True)`, `median`/`nanmedian` over axes,
  `quantile` with `method='linear'`, `nanpercentile`, `ptp`, `cumulative_sum(include_initial)`,
  `nancumsum`, `count_nonzero(keepdims)`;
- the first lines of `unique`, `nonzero` and a boolean mask under `jit` without a size.
"""

import jax
import jax.numpy as jnp


def data():
    x = jnp.array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5])
    f = jnp.array([0.5, jnp.nan, -1.0, 2.0, 0.5, jnp.nan, 3.0, -1.0])
    m = jnp.array([[1, 2], [3, 4], [1, 2], [0, 5]])
    return x, f, m


def uniques(out, x, f, m):
    vals, idx, inv, counts = jnp.unique(x, return_index=True, return_inverse=True,
                                        return_counts=True)  # fmt: skip
    out["unique"] = {"values": vals, "index": idx, "inverse": inv, "counts": counts}
    out["unique_rows"] = jnp.unique(m, axis=0)
    out["unique_rows_inverse"] = jnp.unique(m, axis=0, return_inverse=True)[1]
    sized = jax.jit(lambda v: jnp.unique(v, size=8, fill_value=-1, return_counts=True))(x)
    out["unique_sized"] = {"values": sized[0], "counts": sized[1]}
    out["unique_sized_default_fill"] = jax.jit(lambda v: jnp.unique(v, size=9))(x)
    out["unique_nan"] = jnp.unique(f)
    out["unique_nan_distinct"] = jnp.unique(f, equal_nan=False)
    out["unique_values"] = jnp.unique_values(x)
    uc = jnp.unique_counts(x)
    out["unique_counts"] = [uc.values, uc.counts]
    ui = jnp.unique_inverse(m)
    out["unique_inverse"] = [ui.values, ui.inverse_indices]
    ua = jnp.unique_all(x)
    out["unique_all"] = [ua.values, ua.indices, ua.inverse_indices, ua.counts]


def set_ops(out, x):
    y = jnp.array([5, 7, 1, 8, 1])
    common, ix, iy = jnp.intersect1d(x, y, return_indices=True)
    out["intersect"] = [common, ix, iy]
    out["intersect_unique"] = jnp.intersect1d(jnp.array([1, 3, 5]), jnp.array([5, 2, 1]),
                                              assume_unique=True)  # fmt: skip
    out["union_sized"] = jax.jit(lambda a, b: jnp.union1d(a, b, size=10, fill_value=0))(x, y)
    out["setdiff_sized"] = jax.jit(lambda a, b: jnp.setdiff1d(a, b, size=6, fill_value=-7))(x, y)
    out["setxor"] = jnp.setxor1d(x, y)
    out["isin"] = [jnp.isin(x, y), jnp.isin(x, y, invert=True)]
    out["nonzero_sized"] = jax.jit(lambda v: jnp.nonzero(v > 4, size=5, fill_value=-1))(x)
    out["argwhere_sized"] = jax.jit(lambda v: jnp.argwhere(v.reshape(1, -1) > 4, size=4))(x)
    out["flatnonzero"] = jax.jit(lambda v: jnp.flatnonzero(v == 5, size=4, fill_value=99))(x)


def sorting(out, x, f, m):
    out["sort_nan"] = jnp.sort(f)
    out["sort_descending"] = jnp.sort(f, descending=True)
    out["argsort_stable"] = jnp.argsort(x, stable=True)
    out["argsort_descending"] = jnp.argsort(x, descending=True, stable=True)
    out["argsort_nan"] = jnp.argsort(f)
    out["lexsort"] = jnp.lexsort((m[:, 1], m[:, 0]))
    out["partition"] = jnp.partition(x, 3)[:4].sort()
    out["partition_kth"] = jnp.partition(x, 3)[3]
    out["argpartition_kth"] = x[jnp.argpartition(x, 5)[5]]
    out["sort_complex"] = jnp.sort_complex(jnp.array([1 + 2j, 1 - 1j, -2 + 0j])).real
    edges = jnp.array([0.0, 1.0, 1.0, 2.5, 4.0])
    q = jnp.array([-1.0, 0.0, 1.0, 2.0, 4.0, 5.0])
    for method in ("scan", "scan_unrolled", "sort", "compare_all"):
        for side in ("left", "right"):
            out[f"searchsorted_{method}_{side}"] = jnp.searchsorted(edges, q, side=side,
                                                                    method=method)  # fmt: skip
    out["digitize"] = [jnp.digitize(q, edges), jnp.digitize(q, edges, right=True)]


def statistics(out, x, f, m):
    w = jnp.linspace(0.5, 1.5, x.size)
    out["bincount"] = jnp.bincount(x, weights=w, minlength=12)
    out["bincount_jit"] = jax.jit(lambda v: jnp.bincount(v, length=7))(x)
    out["histogram_edges"] = jnp.histogram(x, bins=jnp.array([0, 2, 5, 10]))[0]
    counts, edges = jnp.histogram(x.astype(float), bins=4, range=(0, 8), density=True, weights=w)
    out["histogram_density"] = [counts, edges]
    h2, xe, ye = jnp.histogram2d(x[:8].astype(float), f, bins=3, range=[[0, 9], [-1, 3]])
    out["histogram2d"] = [h2, xe, ye]
    data = jnp.stack([x[:6], x[5:11] ** 2, jnp.arange(6)]).astype(float)
    out["cov"] = jnp.cov(data)
    out["cov_cols"] = jnp.cov(data.T, rowvar=False, ddof=0)
    out["cov_weights"] = jnp.cov(data, fweights=jnp.array([1, 2, 1, 1, 3, 1]),
                                 aweights=jnp.linspace(0.2, 1.0, 6))  # fmt: skip
    out["corrcoef"] = jnp.corrcoef(data)
    avg, total = jnp.average(m, axis=0, weights=jnp.array([1.0, 2, 3, 4]), returned=True)
    out["average"] = [avg, total]
    grid = jnp.where(jnp.arange(12).reshape(3, 4) % 5 == 0, jnp.nan, jnp.arange(12.0).reshape(3, 4))
    out["median_axis"] = jnp.median(m, axis=0)
    out["nanmedian"] = jnp.nanmedian(grid, axis=1)
    out["median_nan"] = jnp.median(grid)
    out["quantile"] = jnp.quantile(x, jnp.array([0.1, 0.5, 0.9]), method="linear")
    out["nanpercentile"] = jnp.nanpercentile(grid, 30.0, axis=0, keepdims=True)
    out["ptp"] = jnp.ptp(m, axis=1)
    out["cumulative_sum"] = jnp.cumulative_sum(m, axis=0, include_initial=True)
    out["nancumsum"] = jnp.nancumsum(f)
    out["count_nonzero"] = jnp.count_nonzero(m > 1, axis=0, keepdims=True)


def errors(out, x):
    calls = {
        "unique": lambda: jax.jit(jnp.unique)(x),
        "nonzero": lambda: jax.jit(jnp.nonzero)(x),
        "mask": lambda: jax.jit(lambda v: v[v > 2])(x),
    }
    lines = {}
    for name, call in calls.items():
        try:
            call()
            lines[name] = "no error"
        except Exception as e:  # noqa: BLE001
            builtin = next(c.__name__ for c in type(e).__mro__ if c.__module__ == "builtins")
            lines[name] = [builtin, str(e).splitlines()[0]]
    out["errors"] = lines


def run():
    out = {}
    x, f, m = data()
    uniques(out, x, f, m)
    set_ops(out, x)
    sorting(out, x, f, m)
    statistics(out, x, f, m)
    errors(out, x)
    return out
