"""jnp statistics (`jnp_stats`): quantile/percentile methods, nan-reductions, histogram,
bincount, unique, searchsorted, polyfit, convolve and interp.
"""

# ruff: noqa: E501


def cases() -> list[str]:
    x = "jnp.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0])"
    x2 = "jnp.array([[3.0, 1.0, 4.0, 1.0], [5.0, 9.0, 2.0, 6.0], [5.0, 3.0, 5.0, 8.0]])"
    xn = "jnp.array([[3.0, jnp.nan, 4.0, 1.0], [jnp.nan, jnp.nan, jnp.nan, jnp.nan], [5.0, 3.0, 5.0, 8.0]])"
    c = []
    methods = [
        "linear",
        "lower",
        "higher",
        "nearest",
        "midpoint",
        "inverted_cdf",
        "averaged_inverted_cdf",
        "closest_observation",
        "interpolated_inverted_cdf",
        "hazen",
        "weibull",
        "median_unbiased",
        "normal_unbiased",
        "bogus",
    ]
    for m in methods:
        c += [
            f"jnp.quantile({x}, jnp.array([0.0, 0.1, 0.25, 0.5, 0.9, 1.0]), method='{m}')",
            f"jnp.percentile({x2}, 30, axis=1, method='{m}')",
        ]
    c += [
        f"jnp.quantile({x}, 0.5)",
        f"jnp.quantile({x}, 1.5)",
        f"jnp.quantile({x}, -0.5)",
        f"jnp.quantile({x}.astype(jnp.int32), 0.3)",
        f"jnp.quantile({x}.astype(jnp.float16), 0.3)",
        f"jnp.quantile({x2}, jnp.array([0.2, 0.8]), axis=0)",
        f"jnp.quantile({x2}, 0.2, axis=(0, 1))",
        f"jnp.quantile({x2}, jnp.array([[0.2], [0.8]]), axis=1, keepdims=True)",
        f"jnp.quantile({x2}, 0.2, axis=1, keepdims=True)",
        f"jnp.quantile({x2}, 0.2, axis=2)",
        f"jnp.quantile({x2}, 0.2, interpolation='lower')",
        f"jnp.quantile({x2}, 0.2, overwrite_input=True)",
        f"jnp.quantile({xn}, 0.5, axis=1)",
        f"jnp.nanquantile({xn}, 0.5, axis=1)",
        f"jnp.nanquantile({xn}, jnp.array([0.1, 0.9]), axis=1, method='nearest')",
        f"jnp.nanpercentile({xn}, 50)",
        f"jnp.percentile({x}, 150)",
        f"jnp.percentile({x}, jnp.array([10, 50]))",
        f"jnp.median({x2})",
        f"jnp.median({x2}, axis=0, keepdims=True)",
        "jnp.median(jnp.array([1, 2, 3, 4]))",
        f"jnp.nanmedian({xn}, axis=1)",
        "jnp.median(jnp.array([], jnp.float32))",
        "jnp.quantile([1.0, 2.0], 0.5)",
    ]
    for f in (
        "nanmean",
        "nanvar",
        "nanstd",
        "nansum",
        "nanprod",
        "nanmin",
        "nanmax",
        "nanargmin",
        "nanargmax",
        "nancumsum",
        "nancumprod",
    ):
        c += [
            f"jnp.{f}({xn})",
            f"jnp.{f}({xn}, axis=1)",
            f"jnp.{f}({xn}.astype(jnp.float16), axis=0)",
            f"jnp.{f}(jnp.array([1, 2, 3]))",
        ]
        if f not in ("nanargmin", "nanargmax", "nancumsum", "nancumprod"):
            c.append(f"jnp.{f}({xn}, axis=1, keepdims=True)")
    c += [
        f"jnp.nanvar({xn}, axis=1, ddof=1)",
        f"jnp.nanvar({x2}, axis=1, ddof=4)",
        f"jnp.nanstd({xn}, ddof=2, axis=0)",
        f"jnp.nanmean({xn}, axis=1, where=jnp.array([True, False, True, True]))",
        f"jnp.nanmean({xn}, dtype=jnp.float16)",
        "jnp.nanmean(jnp.array([1, 2], jnp.int8), dtype=jnp.int32)",
        f"jnp.var({x2}, axis=1, ddof=5)",
        "jnp.var(jnp.array([1 + 1j, 2 - 1j]))",
        f"jnp.var({x2}, correction=1)",
        f"jnp.var({x2}, ddof=1, correction=1)",
        "jnp.std(jnp.array([1, 2, 4], jnp.int8))",
        "jnp.mean(jnp.array([1, 2], jnp.uint8), dtype=jnp.uint8)",
        "jnp.mean(jnp.zeros((0,)))",
        f"jnp.average({x2}, axis=1, weights=jnp.array([1.0, 2.0, 0.0, 1.0]))",
        f"jnp.average({x2}, axis=1, weights=jnp.array([1.0, 2.0, 0.0, 1.0]), returned=True)",
        f"jnp.average({x2}, weights=jnp.ones(4))",
        f"jnp.average({x2}, axis=0, weights=jnp.zeros(3))",
        "jnp.average(jnp.array([1, 2]), weights=jnp.array([1, 3]))",
        f"jnp.cov({x2})",
        f"jnp.cov({x2}, rowvar=False, ddof=0)",
        f"jnp.cov({x2}, fweights=jnp.array([1, 2, 1, 1]), aweights=jnp.array([0.5, 1.0, 1.0, 2.0]))",
        "jnp.cov(jnp.array([1.0, 2.0, 4.0]))",
        f"jnp.corrcoef({x2})",
        "jnp.corrcoef(jnp.array([1.0, 1.0, 1.0]), jnp.array([1.0, 2.0, 3.0]))",
        f"jnp.ptp({x2}, axis=1)",
        "jnp.ptp(jnp.array([1, 255], jnp.uint8))",
    ]
    c += [
        f"jnp.histogram({x})",
        f"jnp.histogram({x}, bins=3)",
        f"jnp.histogram({x}, bins=3, range=(0.0, 6.0))",
        f"jnp.histogram({x}, bins=jnp.array([0.0, 2.0, 5.0, 9.0]))",
        f"jnp.histogram({x}, bins=3, density=True)",
        f"jnp.histogram({x}, bins=3, weights=jnp.arange(8.0))",
        "jnp.histogram(jnp.array([1, 2, 2, 3]), bins=2)",
        "jnp.histogram(jnp.array([1.0, 1.0]), bins=2)",
        f"jnp.histogram({x}, bins=0)",
        f"jnp.histogram({x}, bins=3, range=(5.0, 1.0))",
        f"jnp.histogram({x}, bins='auto')",
        f"jnp.histogram_bin_edges({x}, bins=4)",
        f"jnp.histogram2d({x}, {x}[::-1], bins=2)",
        f"jnp.histogramdd(jnp.stack([{x}, {x}[::-1]], 1), bins=2)",
        "jnp.bincount(jnp.array([0, 1, 1, 3]))",
        "jnp.bincount(jnp.array([0, 1, 1, 3]), length=2)",
        "jnp.bincount(jnp.array([0, 1, 1, 3]), length=6)",
        "jnp.bincount(jnp.array([0, 1, 1, 3]), minlength=6)",
        "jnp.bincount(jnp.array([0, 1, 1, 3]), weights=jnp.array([0.5, 1.0, 2.0, 3.0]))",
        "jnp.bincount(jnp.array([0, 1, 1, 3]), weights=jnp.array([1, 2, 3, 4], jnp.int8))",
        "jnp.bincount(jnp.array([0, -1, 1, 3]))",
        "jnp.bincount(jnp.array([0.0, 1.0]))",
        "jnp.bincount(jnp.array([[0, 1]]))",
        "jnp.bincount(jnp.array([0, 1], jnp.uint8), length=3)",
        "jnp.bincount(jnp.array([True, True]))",
        "jnp.bincount(jnp.array([], jnp.int32))",
        "jnp.bincount(jnp.array([0, 1]), minlength=-1)",
        "jnp.digitize(jnp.array([0.5, 1.0, 2.5, 10.0]), jnp.array([1.0, 2.0, 3.0]))",
        "jnp.digitize(jnp.array([0.5, 1.0, 2.5, 10.0]), jnp.array([1.0, 2.0, 3.0]), right=True)",
        "jnp.digitize(jnp.array([0.5, 1.0, 2.5]), jnp.array([3.0, 2.0, 1.0]))",
    ]
    u = "jnp.array([3, 1, 2, 1, 3, 3, 0])"
    c += [
        f"jnp.unique({u})",
        f"jnp.unique({u}, return_index=True, return_inverse=True, return_counts=True)",
        f"jnp.unique({u}, size=6)",
        f"jnp.unique({u}, size=6, fill_value=-1)",
        f"jnp.unique({u}, size=2)",
        f"jnp.unique({u}, size=6, return_index=True, return_inverse=True, return_counts=True)",
        f"jnp.unique({u}, size=6, fill_value=9, return_counts=True)",
        "jnp.unique(jnp.array([[1, 2], [1, 2], [0, 5]]), axis=0)",
        "jnp.unique(jnp.array([[1, 2], [1, 2], [0, 5]]), axis=0, return_counts=True, size=4)",
        "jnp.unique(jnp.array([[1, 2], [1, 2], [0, 5]]), axis=1, return_inverse=True)",
        "jnp.unique(jnp.array([jnp.nan, 1.0, jnp.nan, 0.0, -0.0]))",
        "jnp.unique(jnp.array([jnp.nan, 1.0, jnp.nan]), equal_nan=False)",
        "jnp.unique(jnp.array([[3, 1], [1, 2]]), return_inverse=True)",
        "jnp.unique(jnp.array([], jnp.int32), size=2)",
        f"jnp.unique({u}, size=0)",
        f"jnp.unique({u}, size=-1)",
        f"jnp.unique({u}, sorted=False)",
        f"jnp.unique_values({u})",
        f"jnp.unique_counts({u})",
        "jnp.unique_inverse(jnp.array([[3, 1], [1, 2]]))",
        f"jnp.unique_all({u})",
        f"jax.jit(lambda x: jnp.unique(x, size=5, fill_value=0))({u})",
        f"jax.jit(lambda x: jnp.unique(x))({u})",
    ]
    s = "jnp.array([1.0, 2.0, 2.0, 3.0, jnp.nan])"
    v = "jnp.array([0.0, 2.0, 2.5, 3.0, 4.0, jnp.nan, -jnp.inf])"
    for side in ("'left'", "'right'"):
        for method in ("'scan'", "'scan_unrolled'", "'sort'", "'compare_all'"):
            c.append(f"jnp.searchsorted({s}, {v}, side={side}, method={method})")
    c += [
        f"jnp.searchsorted({s}, 2.0)",
        f"jnp.searchsorted({s}, {v}, side='middle')",
        f"jnp.searchsorted({s}, {v}, method='bogus')",
        f"jnp.searchsorted({s}[::-1], {v}, sorter=jnp.array([4, 3, 2, 1, 0]))",
        "jnp.searchsorted(jnp.array([[1.0, 2.0]]), 1.5)",
        "jnp.searchsorted(jnp.array([1, 2, 3], jnp.int8), jnp.array([2.5, 300.0]))",
        "jnp.searchsorted(jnp.array([], jnp.float32), jnp.array([1.0]))",
        "jnp.searchsorted(jnp.array([-0.0, 0.0]), jnp.array([0.0, -0.0]))",
    ]
    px = "jnp.array([0.0, 1.0, 2.0, 3.0, 4.0])"
    py = "jnp.array([1.0, 3.0, 7.0, 13.0, 21.0])"
    c += [
        f"jnp.polyfit({px}, {py}, 2)",
        f"jnp.polyfit({px}, {py}, 1, full=True)",
        f"jnp.polyfit({px}, {py}, 1, cov=True)",
        f"jnp.polyfit({px}, {py}, 1, cov='unscaled')",
        f"jnp.polyfit({px}, {py}, 2, w=jnp.array([1.0, 2.0, 1.0, 2.0, 1.0]))",
        f"jnp.polyfit({px}, jnp.stack([{py}, {py} * 2], 1), 1)",
        f"jnp.polyfit({px}, {py}, -1)",
        f"jnp.polyfit({px}, {py}, 1.5)",
        f"jnp.polyfit({px}, {py}[:3], 1)",
        "jnp.polyfit(jnp.arange(5), jnp.arange(5) ** 2, 2)",
        f"jnp.polyfit({px}, {py}, 2, rcond=1e-3)",
        "jnp.polyval(jnp.array([1.0, 2.0, 3.0]), jnp.array([0.0, 1.0, -2.0]))",
        "jnp.polyval(jnp.array([1, 2, 3]), jnp.array([0, 1, -2]))",
        "jnp.polyval(jnp.array([1, 2, 3]), 0.5)",
        "jnp.polyval(jnp.array([]), jnp.array([1.0, 2.0]))",
        "jnp.polyval(jnp.array([[1.0, 2.0]]), 1.0)",
        "jnp.polyval(jnp.array([1.0, 2.0]), jnp.array([1.0, 2.0]), unroll=2)",
        "jnp.polyval(jnp.array([1.0, 2.0], jnp.float16), jnp.array([3], jnp.int8))",
        "jnp.polyadd(jnp.array([1, 2]), jnp.array([1.0, 2.0, 3.0]))",
        "jnp.polymul(jnp.array([1, 2]), jnp.array([1.0, 2.0, 3.0]))",
        "jnp.polysub(jnp.array([1.0, 2.0, 3.0]), jnp.array([1.0, 2.0, 3.0]))",
        "jnp.polyder(jnp.array([1.0, 2.0, 3.0, 4.0]), 2)",
        "jnp.polyint(jnp.array([3.0, 2.0, 1.0]), k=5.0)",
        "jnp.polydiv(jnp.array([1.0, 3.0, 2.0]), jnp.array([1.0, 1.0]))",
        "jnp.poly(jnp.array([1.0, 2.0]))",
        "jnp.roots(jnp.array([1.0, -3.0, 2.0]))",
        "jnp.roots(jnp.array([0.0, 0.0, 1.0, -3.0, 2.0, 0.0]))",
    ]
    a = "jnp.array([1.0, 2.0, 3.0, 4.0])"
    b = "jnp.array([0.0, 1.0, 0.5])"
    for f in ("convolve", "correlate"):
        for m in ("'full'", "'same'", "'valid'", "'bogus'"):
            c += [f"jnp.{f}({a}, {b}, mode={m})", f"jnp.{f}({b}, {a}, mode={m})"]
        c += [
            f"jnp.{f}(jnp.array([1, 2, 3]), jnp.array([1, 1]))",
            f"jnp.{f}(jnp.array([1, 2, 3], jnp.int8), jnp.array([1.0, 1.0], jnp.float16))",
            f"jnp.{f}(jnp.array([1 + 1j, 2]), jnp.array([1j, 1]))",
            f"jnp.{f}({a}, jnp.array([]))",
            f"jnp.{f}(jnp.ones((2, 2)), {a})",
            f"jnp.{f}({a}, {b}, precision='highest')",
            f"jnp.{f}(jnp.array([True, False]), jnp.array([True, True]))",
        ]
    xp = "jnp.array([0.0, 1.0, 2.0, 4.0])"
    fp = "jnp.array([0.0, 10.0, 5.0, 25.0])"
    q = "jnp.array([-1.0, 0.0, 0.5, 1.0, 3.0, 4.0, 10.0, jnp.nan])"
    c += [
        f"jnp.interp({q}, {xp}, {fp})",
        # left=, right= and period= are left out: JAX 0.10.2's interp jits `_interp` anew with
        # other static_argnames per call and reuses the first call's compiled code, so its
        # answers depend on the calls before (numbax agrees with numpy there)
        f"jnp.interp({q}, {xp}, {fp} + 1j)",
        f"jnp.interp({q}, {xp}, jnp.array([0, 10, 5, 25]))",
        "jnp.interp(jnp.array([1, 2]), jnp.array([0, 3]), jnp.array([0, 3]))",
        f"jnp.interp({q}, {xp}, {fp}[:3])",
        f"jnp.interp({q}, jnp.ones((2, 2)), {fp})",
        f"jnp.interp({q}, jnp.array([0.0, 1.0, 1.0, 2.0]), jnp.array([0.0, 1.0, 2.0, 3.0]))",
        f"jnp.interp({q}.astype(jnp.float16), {xp}, {fp})",
        f"jnp.interp(2.5, {xp}, {fp})",
        f"jnp.interp({q}, jnp.array([1.0]), jnp.array([7.0]))",
        f"jax.grad(lambda x: jnp.interp(x, {xp}, {fp}))(1.5)",
        f"jnp.trapezoid({fp}, {xp})",
        f"jnp.trapezoid({fp}, dx=0.5)",
        f"jnp.diff({fp}, n=2, prepend=jnp.array([1.0]))",
        f"jnp.gradient({fp})",
        f"jnp.gradient({fp}, {xp})",
        f"jnp.gradient({fp}, 2.0)",
        "jnp.gradient(jnp.arange(12.0).reshape(3, 4) ** 2, axis=1)",
        f"jnp.ediff1d({fp}, to_begin=jnp.array([9.0]))",
        f"jnp.cumulative_sum({fp}, include_initial=True)",
        f"jnp.count_nonzero({x2} > 3, axis=1)",
        "jnp.argsort(jnp.array([3, 1, 2, 1]), stable=True, descending=True)",
        "jnp.lexsort((jnp.array([1, 2, 1]), jnp.array([0, 0, 1])))",
        "jnp.partition(jnp.array([3, 1, 4, 1, 5]), 2)",
        "jnp.argpartition(jnp.array([3, 1, 4, 1, 5]), 2)",
        "jnp.setdiff1d(jnp.array([1, 2, 3, 4]), jnp.array([2, 5]), size=4, fill_value=0)",
        "jnp.intersect1d(jnp.array([1, 2, 3, 4]), jnp.array([4, 2, 5]), return_indices=True)",
        "jnp.union1d(jnp.array([3, 1]), jnp.array([2, 1]), size=5)",
        "jnp.isin(jnp.array([1, 2, 3]), jnp.array([2, 4]), invert=True)",
    ]
    return c
