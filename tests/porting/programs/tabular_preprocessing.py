"""A tabular-data pipeline in `jax.numpy`: cleaning a small table with gaps, robust statistics,
binning and category encodings, as users prepare features before a model.

- NaN-aware statistics: `nanmedian`, `nanpercentile` (methods), `nanquantile`, `nanmean`,
  `nanstd(ddof=)`, `nanvar`, `nanargmax`, `nancumsum`, `ptp`, median absolute deviation,
  winsorising by `clip` at percentiles, `nan_to_num` with fills;
- sets with static sizes: `unique(size=, fill_value=)`, `isin`, `setdiff1d`/`intersect1d`/
  `union1d`(`size=`, `fill_value=`), `intersect1d(return_indices=True)`;
- `partition`/`argpartition` for the k smallest, `select`, `piecewise`, `digitize`,
  `apply_along_axis`, `apply_over_axes`, `cumulative_sum(include_initial=)`, `ediff1d`,
  `trim_zeros`, `delete`/`insert`/`append`, `unstack`, `tril_indices`/`diag_indices`/
  `fill_diagonal(inplace=False)`, `fromfunction`, `meshgrid(indexing=)`;
- a standardised design matrix fitting a ridge regression by `solve`, its gradient by `grad`.

The percentiles compared by `lower`/`higher`/`nearest`/`midpoint` fall between order
statistics: at one (the 50th of 21 values) JAX picks its neighbour, as XLA's CPU division is
not correctly rounded (`q / 100` of 10.0 is 0x1.999998p-4, and `(q / 100) * 20` of 50.0 is
9.9999990); numbax rounds as numpy does.
"""

import jax
import jax.numpy as jnp
import numpy as np


def table():
    rng = np.random.default_rng(7)
    age = rng.normal(40, 12, 24).round(1)
    income = np.exp(rng.normal(10, 0.6, 24)).round(0)
    score = rng.normal(0, 1, 24)
    city = rng.integers(0, 5, 24)
    age[[3, 17]] = np.nan
    income[[5, 9, 20]] = np.nan
    income[11] = 1e7  # an outlier
    target = 0.05 * np.nan_to_num(age, nan=40) + 0.3 * score + 0.1 * city
    return [jnp.asarray(a, jnp.float32) for a in (age, income, score)] + [
        jnp.asarray(city, jnp.int32),
        jnp.asarray(target, jnp.float32),
    ]


def statistics(out):
    age, income, score, _, _ = table()
    both = jnp.stack([age, income], 1)
    out["nanmedian"] = jnp.nanmedian(both, axis=0)
    out["nanpercentile"] = {m: jnp.nanpercentile(income, jnp.array([12.5, 37.0, 83.0]), method=m)
                            for m in ("linear", "lower", "higher", "midpoint", "nearest")}  # fmt: skip
    out["nanquantile_keepdims"] = jnp.nanquantile(both, 0.25, axis=0, keepdims=True)
    out["nanmean_std"] = [jnp.nanmean(both, 0), jnp.nanstd(both, 0, ddof=1), jnp.nanvar(age)]
    out["nanargmax"] = jnp.nanargmax(income)
    out["nancumsum"] = jnp.nancumsum(age)[:6]
    out["ptp"] = [jnp.ptp(score), jnp.ptp(both, axis=0)]
    med = jnp.nanmedian(income)
    mad = jnp.nanmedian(jnp.abs(income - med))
    out["robust_z"] = jnp.nan_to_num((income - med) / (1.4826 * mad), nan=0.0)[:8]
    lo, hi = jnp.nanpercentile(income, jnp.array([5.0, 95.0]))
    out["winsorised"] = jnp.clip(income, lo, hi)
    out["nan_to_num"] = jnp.nan_to_num(
        jnp.array([jnp.nan, jnp.inf, -jnp.inf, 1.0]), nan=-1.0, posinf=9.0
    )
    out["all_nan_median"] = jnp.nanmedian(jnp.full(3, jnp.nan))


def sets(out):
    _, _, _, city, _ = table()
    vals, counts = jnp.unique(city, size=6, fill_value=-1, return_counts=True)
    out["unique"] = [vals, counts]
    out["isin"] = jnp.isin(city, jnp.array([1, 3]))
    out["isin_invert"] = jnp.isin(city[:6], jnp.array([1, 3]), invert=True)
    a, b = jnp.array([5, 1, 3, 3, 9, 7]), jnp.array([3, 4, 5, 6])
    out["setdiff"] = jnp.setdiff1d(a, b, size=5, fill_value=0)
    out["intersect"] = jnp.intersect1d(a, b, size=3, fill_value=-1)
    both, ia, ib = jnp.intersect1d(a, b, return_indices=True)
    out["intersect_indices"] = [both, ia, ib]
    out["union"] = jnp.union1d(a, b, size=8, fill_value=-1)
    out["setdiff_unsized"] = jnp.setdiff1d(a, b)
    out["setxor"] = jnp.setxor1d(a, b)


def reshaping(out):
    age, income, score, city, _ = table()
    x = jnp.nan_to_num(age, nan=40.0)
    out["partition"] = jnp.sort(jnp.partition(x, 4)[:4])
    out["argpartition_smallest"] = jnp.sort(x[jnp.argpartition(x, 3)[:3]])
    out["select"] = jnp.select([x < 30, x < 50], [0, 1], default=2)
    out["piecewise"] = jnp.piecewise(
        score,
        [score < -1, score > 1],
        [lambda s: -1.0 - 0.1 * s, lambda s: 1.0 + 0.1 * s, lambda s: s],
    )
    out["digitize"] = jnp.digitize(x, jnp.array([25.0, 35.0, 45.0, 55.0]), right=True)
    m = jnp.stack([score[:6], score[6:12], score[12:18]])
    out["apply_along"] = jnp.apply_along_axis(lambda r: jnp.sort(r)[::-1][:2], 1, m)
    out["apply_over"] = jnp.apply_over_axes(jnp.sum, m.reshape(3, 2, 3), [0, 2])
    out["cumulative_sum"] = jnp.cumulative_sum(city[:5], include_initial=True)
    out["cumulative_prod"] = jnp.cumulative_prod(jnp.array([[1.0, 2.0], [3.0, 4.0]]), axis=0)
    out["ediff1d"] = jnp.ediff1d(x[:5], to_begin=jnp.array([0.0]), to_end=jnp.array([9.0, 9.0]))
    out["trim_zeros"] = jnp.trim_zeros(jnp.array([0, 0, 3, 0, 4, 0]))
    out["trim_front"] = jnp.trim_zeros(jnp.array([0, 0, 3, 0, 4, 0]), "f")
    out["delete"] = jnp.delete(jnp.arange(8), jnp.array([1, 4]))
    out["delete_axis"] = jnp.delete(m, 1, axis=0)
    out["insert"] = jnp.insert(jnp.arange(5.0), 2, jnp.array([-1.0, -2.0]))
    out["append"] = jnp.append(m, jnp.zeros((1, 6)), axis=0)
    rows = jnp.unstack(m[:, :2])
    out["unstack"] = [len(rows), rows[1]]
    r, c = jnp.tril_indices(4, -1)
    out["tril_indices"] = [r, c]
    out["diag_indices"] = jnp.diag_indices(3)
    out["fill_diagonal"] = jnp.fill_diagonal(jnp.zeros((3, 4)), 5.0, inplace=False)
    out["fromfunction"] = jnp.fromfunction(lambda i, j: i * 10 + j, (3, 4), dtype=jnp.int32)
    gx, gy = jnp.meshgrid(jnp.arange(3), jnp.arange(2), indexing="ij")
    out["meshgrid_ij"] = [gx, gy]
    sx, sy = jnp.meshgrid(jnp.arange(3.0), jnp.arange(2.0), sparse=True)
    out["meshgrid_sparse"] = [sx, sy]


def ridge(out):
    age, income, score, city, target = table()
    feats = jnp.stack(
        [
            jnp.nan_to_num(age, nan=jnp.nanmedian(age)),
            jnp.log(jnp.nan_to_num(income, nan=jnp.nanmedian(income))),
            score,
        ],
        1,
    )
    feats = (feats - feats.mean(0)) / feats.std(0)
    onehot = (city[:, None] == jnp.arange(5)).astype(jnp.float32)
    design = jnp.concatenate([feats, onehot], 1)
    lam = 0.5
    w = jnp.linalg.solve(design.T @ design + lam * jnp.eye(8), design.T @ target)
    out["ridge_w"] = w

    def loss(w):
        return jnp.mean((design @ w - target) ** 2) + lam / target.shape[0] * jnp.sum(w**2)

    out["grad_at_solution"] = jnp.abs(jax.grad(loss)(w)).max() < 1e-4
    out["loss"] = loss(w)


def run():
    out = {}
    statistics(out)
    sets(out)
    reshaping(out)
    ridge(out)
    return out
