"""core.numpy statistics/signal functions against numpy values and JAX's dtypes."""

import warnings

import numpy as np
import pytest

import core
import core.numpy as jnp

X = np.array([1.0, 3.0, 2.0, 7.0, 4.0], np.float32)
XI = np.array([1, 3, 2, 7, 4], np.int32)
M = np.array([[1, 5, 2], [4, 2, 8], [0, 1, 3.0]], np.float32)
XN = np.array([[1, np.nan, 3], [np.nan, np.nan, np.nan], [2, 0, np.nan]], np.float32)
XP = np.array([0, 1, 2, 3.0], np.float32)
FP = np.array([1, 3, 2, 0.0], np.float32)
Q = np.array([-1, 0.5, 2.5, 9], np.float32)

# (id, our call, numpy reference, dtype JAX returns)
CASES = [
    ("diff", lambda j: j.diff(XI), lambda: np.diff(XI), "int32"),
    ("diff_n2_axis0", lambda j: j.diff(M, 2, axis=0), lambda: np.diff(M, 2, 0), "float32"),
    (
        "diff_prepend",
        lambda j: j.diff(XI, prepend=0, append=9),
        lambda: np.diff(XI, prepend=0, append=9),
        "int32",
    ),
    (
        "diff_bool",
        lambda j: j.diff(np.array([True, False, False])),
        lambda: np.array([True, False]),
        "bool",
    ),
    (
        "ediff1d",
        lambda j: j.ediff1d(M, to_end=np.array([9]), to_begin=0.5),
        lambda: np.ediff1d(M, to_end=[9], to_begin=0.5),
        "float32",
    ),
    ("gradient", lambda j: j.gradient(XI), lambda: np.gradient(XI), "float32"),
    (
        "gradient_axis0",
        lambda j: j.gradient(M, 2.0, axis=0),
        lambda: np.gradient(M, 2.0, axis=0),
        "float32",
    ),
    (
        "gradient_coords",
        lambda j: j.gradient(X, np.array([0, 1, 3, 4, 7.0], np.float32)),
        lambda: np.gradient(X, np.array([0, 1, 3, 4, 7.0])),
        "float32",
    ),
    ("trapezoid", lambda j: j.trapezoid(XI), lambda: np.trapezoid(XI), "float32"),
    ("trapezoid_x", lambda j: j.trapezoid(M, XP[:3]), lambda: np.trapezoid(M, XP[:3]), "float32"),
    (
        "trapezoid_dx",
        lambda j: j.trapezoid(M, dx=0.5, axis=0),
        lambda: np.trapezoid(M, dx=0.5, axis=0),
        "float32",
    ),
    ("cov", lambda j: j.cov(M), lambda: np.cov(M), "float32"),
    ("cov_int", lambda j: j.cov(XI), lambda: np.cov(XI), "float32"),
    ("cov_bias", lambda j: j.cov(M, bias=True), lambda: np.cov(M, bias=True), "float32"),
    (
        "cov_weights",
        lambda j: j.cov(
            M, rowvar=False, fweights=np.array([1, 2, 1]), aweights=np.array([1, 2, 3.0])
        ),
        lambda: np.cov(M, rowvar=False, fweights=[1, 2, 1], aweights=[1, 2, 3.0]),
        "float32",
    ),
    ("corrcoef", lambda j: j.corrcoef(M), lambda: np.corrcoef(M), "float32"),
    (
        "corrcoef_xy",
        lambda j: j.corrcoef(X, X[::-1] ** 2),
        lambda: np.corrcoef(X, X[::-1] ** 2),
        "float32",
    ),
    (
        "histogram_counts",
        lambda j: j.histogram(X, bins=4)[0],
        lambda: np.histogram(X, bins=4)[0],
        "float32",
    ),
    (
        "histogram_edges",
        lambda j: j.histogram(X, bins=4)[1],
        lambda: np.histogram(X, bins=4)[1],
        "float32",
    ),
    (
        "histogram_int_edges",
        lambda j: j.histogram(XI, bins=np.array([0, 2, 5, 8]))[0],
        lambda: np.histogram(XI, bins=[0, 2, 5, 8])[0],
        "float32",
    ),
    (
        "histogram_density",
        lambda j: j.histogram(X, 3, range=(0, 9), density=True)[0],
        lambda: np.histogram(X, 3, range=(0, 9), density=True)[0],
        "float32",
    ),
    (
        "histogram_weights",
        lambda j: j.histogram(X, 3, weights=XI)[0],
        lambda: np.histogram(X, 3, weights=XI)[0],
        "float32",
    ),
    (
        "histogram_bin_edges",
        lambda j: j.histogram_bin_edges(XI, bins=3),
        lambda: np.histogram_bin_edges(XI, bins=3),
        "float32",
    ),
    (
        "histogram2d",
        lambda j: j.histogram2d(X, X[::-1], bins=2)[0],
        lambda: np.histogram2d(X, X[::-1], bins=2)[0],
        "int32",
    ),
    (
        "histogramdd",
        lambda j: j.histogramdd(M, bins=2)[0],
        lambda: np.histogramdd(M, bins=2)[0],
        "int32",
    ),
    (
        "histogramdd_density",
        lambda j: j.histogramdd(
            M, bins=[2, 3, 2], weights=np.array([1.0, 2, 3], np.float32), density=True
        )[0],
        lambda: np.histogramdd(M, bins=[2, 3, 2], weights=[1.0, 2, 3], density=True)[0],
        "float32",
    ),
    (
        "digitize",
        lambda j: j.digitize(X, np.array([0, 2, 4.0])),
        lambda: np.digitize(X, [0, 2, 4.0]),
        "int32",
    ),
    (
        "digitize_decreasing_right",
        lambda j: j.digitize(XI, np.array([5, 3, 1]), right=True),
        lambda: np.digitize(XI, [5, 3, 1], right=True),
        "int32",
    ),
    ("interp", lambda j: j.interp(Q, XP, FP), lambda: np.interp(Q, XP, FP), "float32"),
    (
        "interp_left_right",
        lambda j: j.interp(Q, XP, FP, left=-1, right=5),
        lambda: np.interp(Q, XP, FP, left=-1, right=5),
        "float32",
    ),
    (
        "interp_period",
        lambda j: j.interp(Q, XP, FP, period=4),
        lambda: np.interp(Q, XP, FP, period=4),
        "float32",
    ),
    (
        "convolve",
        lambda j: j.convolve(XI, np.array([1, 2, 3])),
        lambda: np.convolve(XI, [1, 2, 3]),
        "float32",
    ),
    (
        "convolve_same_swapped",
        lambda j: j.convolve(np.array([1, 2.0]), X, mode="same"),
        lambda: np.convolve([1, 2.0], X, mode="same"),
        "float32",
    ),
    (
        "convolve_int_out",
        lambda j: j.convolve(XI, np.array([1, 2, 3]), preferred_element_type=np.int32),
        lambda: np.convolve(XI, [1, 2, 3]),
        "int32",
    ),
    (
        "correlate",
        lambda j: j.correlate(X, np.array([1, 2.0])),
        lambda: np.correlate(X, [1, 2.0]),
        "float32",
    ),
    (
        "correlate_full_swapped",
        lambda j: j.correlate(np.array([1, 2.0]), X, mode="full"),
        lambda: np.correlate([1, 2.0], X, mode="full"),
        "float32",
    ),
    (
        "unwrap",
        lambda j: j.unwrap(np.array([0, 3, 6.5, 0.2, 4], np.float32)),
        lambda: np.unwrap(np.array([0, 3, 6.5, 0.2, 4], np.float32)),
        "float32",
    ),
    (
        "unwrap_int",
        lambda j: j.unwrap(np.array([0, 300, 650, 20]), period=360),
        lambda: np.unwrap([0, 300, 650, 20], period=360),
        "int32",
    ),
    (
        "unwrap_axis0",
        lambda j: j.unwrap(M * 2, axis=0, discont=4.0),
        lambda: np.unwrap(M * 2, axis=0, discont=4.0),
        "float32",
    ),
    ("nanargmax", lambda j: j.nanargmax(XN, axis=1), lambda: np.array([2, -1, 0]), "int32"),
    (
        "nanargmin_keepdims",
        lambda j: j.nanargmin(XN, axis=0, keepdims=True),
        lambda: np.nanargmin(XN, axis=0, keepdims=True),
        "int32",
    ),
    ("nanargmax_int", lambda j: j.nanargmax(XI), lambda: np.nanargmax(XI), "int32"),
    ("nancumsum", lambda j: j.nancumsum(XN, axis=1), lambda: np.nancumsum(XN, axis=1), "float32"),
    ("nancumprod", lambda j: j.nancumprod(XN), lambda: np.nancumprod(XN), "float32"),
    ("nancumsum_int", lambda j: j.nancumsum(XI), lambda: np.nancumsum(XI), "int32"),
    ("nanmedian", lambda j: j.nanmedian(XN, axis=1), lambda: np.nanmedian(XN, axis=1), "float32"),
    ("nanmedian_int", lambda j: j.nanmedian(XI), lambda: np.nanmedian(XI), "float32"),
    (
        "nanquantile",
        lambda j: j.nanquantile(XN, np.array([0.2, 0.7]), axis=0, keepdims=True),
        lambda: np.nanquantile(XN, [0.2, 0.7], axis=0, keepdims=True),
        "float32",
    ),
    (
        "nanquantile_nearest",
        lambda j: j.nanquantile(XN, 0.5, axis=1, method="nearest"),
        lambda: np.nanquantile(XN, 0.5, axis=1, method="nearest"),
        "float32",
    ),
    (
        "nanpercentile_axes",
        lambda j: j.nanpercentile(M, 30, axis=(0, 1)),
        lambda: np.nanpercentile(M, 30, axis=(0, 1)),
        "float32",
    ),
    (
        "nanpercentile_midpoint",
        lambda j: j.nanpercentile(XN, np.array([10, 90]), method="midpoint"),
        lambda: np.nanpercentile(XN, [10, 90], method="midpoint"),
        "float32",
    ),
]


@pytest.mark.parametrize("ours,ref,dtype", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_against_numpy(ours, ref, dtype):
    got = ours(jnp)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # numpy's all-NaN slices
        want = np.asarray(ref())
    assert str(got.dtype) == dtype
    assert got.shape == want.shape
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-5)


def test_weak_types_follow_jax():
    assert jnp.diff(jnp.asarray(2.0) * np.ones(3, np.float32)).aval.weak_type is False
    assert jnp.interp(1.5, XP, FP).aval.weak_type is False


def test_all_nan_rows_give_nan():
    out = np.asarray(jnp.nanmedian(np.full((2, 3), np.nan, np.float32), axis=1))
    assert np.isnan(out).all()


@pytest.mark.parametrize(
    "call,err",
    [
        (lambda: jnp.diff(np.float32(1.0)), ValueError),
        (lambda: jnp.diff(X, n=-1), ValueError),
        (lambda: jnp.gradient(np.ones(1)), ValueError),
        (lambda: jnp.convolve(M, X), ValueError),
        (lambda: jnp.convolve(X, X, mode="bad"), ValueError),
        (lambda: jnp.interp(X, XP, FP[:3]), ValueError),
        (lambda: jnp.histogram(X, weights=X[:2]), ValueError),
        (lambda: jnp.digitize(X, M), ValueError),
        (lambda: jnp.nanquantile(X, 0.5, method="bogus"), ValueError),
    ],
)
def test_errors(call, err):
    with pytest.raises(err):
        call()


def test_jit_and_grad():
    f = core.jit(lambda x: jnp.trapezoid(jnp.diff(x) ** 2) + jnp.interp(1.5, XP, x[:4]))
    x = np.array([1.0, 2.0, 4.0, 7.0, 11.0], np.float32)
    want = np.trapezoid(np.diff(x) ** 2) + np.interp(1.5, XP, x[:4])
    np.testing.assert_allclose(f(x), want, rtol=1e-6)
    g = core.grad(lambda x: jnp.sum(jnp.gradient(x) * jnp.arange(5.0)))(x)
    # d/dx of sum(w * gradient(x)) is the transpose of the finite-difference stencil applied to w
    w = np.arange(5.0)
    eye = np.eye(5)
    want_g = np.array([np.sum(np.gradient(eye[i]) * w) for i in range(5)])
    np.testing.assert_allclose(g, want_g, rtol=1e-6)


def test_histogram_under_jit_with_static_bins():
    f = core.jit(lambda a: jnp.histogram(a, bins=3, range=(0, 9))[0])
    np.testing.assert_array_equal(f(X), np.histogram(X, bins=3, range=(0, 9))[0])


def test_interp_of_bfloat16():
    # jax 0.10.2: [5, 7.5, 3] bfloat16 (numbax asked numpy's finfo about bfloat16 before)
    b = jnp.bfloat16
    xp, fp = np.array([0, 1, 2, 4], b), np.array([0, 10, 5, 1], b)
    out = jnp.interp(np.array([0.5, 1.5, 3.0], b), xp, fp)
    assert out.dtype == b
    np.testing.assert_array_equal(np.float32(out), [5.0, 7.5, 3.0])


# Complex covariance: JAX conjugates the second factor (`dot(X, X_T.conj())`), as numpy does;
# JAX transposes any 2-D `m` when `rowvar=False` (numpy keeps a (1, N) one: JAX's NaNs below).
XC = np.array(
    [[1 + 2j, 3 - 1j, 0.5j, 2 - 2j], [2, -1 + 1j, 4 - 2j, 1 + 1j], [0.5 - 1j, 2 + 3j, -1 - 1j, 0]],
    np.complex64,
)
FW, AW = np.array([1, 2, 3, 1]), np.array([0.5, 1.0, 2.0, 0.25], np.float32)


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"m": XC.T, "rowvar": False},
        {"bias": True},
        {"ddof": 2},
        {"fweights": FW},
        {"aweights": AW},
        {"fweights": FW, "aweights": AW},
        {"fweights": FW, "aweights": AW, "ddof": 0},
        {"y": XC[:1] * 2},
        {"m": XC[:1]},
    ],
    ids=repr,
)
def test_complex_cov_conjugates(kwargs):
    kwargs = dict(kwargs)
    m = kwargs.pop("m", XC)
    got = jnp.cov(m, **kwargs)
    assert got.dtype == np.complex64
    np.testing.assert_allclose(got, np.cov(m, **kwargs), rtol=2e-6, atol=2e-6)


def test_cov_rowvar_false_transposes_a_row_like_jax():
    got = jnp.cov(XC[:1], rowvar=False)
    assert got.shape == (4, 4) and np.isnan(got).all()  # JAX: 4 variables of 1 observation


def test_complex_corrcoef_eager_and_jit():
    want = np.corrcoef(XC)  # JAX's values (recorded) agree to float32 round-off
    for f in (jnp.corrcoef, core.jit(jnp.corrcoef)):
        got = f(XC)
        assert got.dtype == np.complex64
        np.testing.assert_allclose(got, want, rtol=2e-6, atol=2e-6)


@pytest.mark.parametrize(
    "call, error, message",
    [
        # JAX 0.10.2's first lines (differential run)
        (
            lambda: jnp.quantile(jnp.arange(12.0).reshape(3, 4), jnp.array([[0.2], [0.8]]), axis=1),
            ValueError,
            "q must be have rank <= 1, got shape (2, 1)",
        ),
        (
            lambda: jnp.nanquantile(jnp.arange(4.0), jnp.array([[0.5]])),
            ValueError,
            "q must be have rank <= 1, got shape (1, 1)",
        ),
        (
            lambda: jnp.average(jnp.ones((3, 4)), weights=jnp.ones(4)),
            ValueError,
            "Axis must be specified when shapes of a and weights differ.",
        ),
        (
            lambda: jnp.convolve(jnp.ones((2, 2)), jnp.ones(3)),
            ValueError,
            "convolve() only support 1-dimensional inputs.",
        ),
        (
            lambda: jnp.correlate(jnp.ones((2, 2)), jnp.ones(3)),
            ValueError,
            "correlate() only support 1-dimensional inputs.",
        ),
        (
            lambda: jnp.bincount(jnp.array([[0, 1]])),
            ValueError,
            "only 1-dimensional input supported.",
        ),
        (
            lambda: jnp.bincount(jnp.array([0.0, 1.0])),
            TypeError,
            "x argument to bincount must have an integer type; got float32",
        ),
    ],
)
def test_statistics_argument_errors(call, error, message):
    with pytest.raises(error) as e:
        call()
    assert str(e.value).split("\n")[0] == message


def test_histogram2d_of_coordinates_of_different_lengths_is_a_type_error():
    # JAX 0.10.2 raises TypeError (from concatenating x and y)
    with pytest.raises(TypeError, match="x and y must have the same shape"):
        jnp.histogram2d(jnp.arange(5.0), jnp.arange(3.0), bins=2)


# JAX 0.10.2 clamps a quantile outside [0, 1] to the smallest or largest non-NaN value, for
# every method (values recorded); an all-NaN row stays NaN.
@pytest.mark.parametrize("method", ["linear", "lower", "higher", "midpoint", "nearest"])
def test_nanquantile_outside_0_1_reads_the_extreme_values(method):
    x = jnp.array([[1.0, np.nan, 3.0, 5.0], [np.nan] * 4])
    got = jnp.nanquantile(x, jnp.array([1.2, 1.5, 2.0, -0.3]), axis=1, method=method)
    want = [[5.0, np.nan], [5.0, np.nan], [5.0, np.nan], [1.0, np.nan]]
    np.testing.assert_array_equal(got, np.array(want, np.float32))
    assert float(jnp.nanpercentile(x[0], 150, method=method)) == 5.0


# The variance of complex values is real: JAX 0.10.2 gives float32 and no ComplexWarning.
@pytest.mark.parametrize(("fn", "want"), [(jnp.nanvar, 4.0), (jnp.nanstd, 2.0)])
def test_nanvar_of_complex_values_is_real_without_a_warning(fn, want):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = fn(jnp.array([1 + 1j, np.nan, 1 - 3j]))
    assert got.dtype == np.float32
    assert float(got) == want


@pytest.mark.parametrize("fn", [jnp.histogram, jnp.histogram_bin_edges])
def test_histogram_refuses_bin_estimator_names_as_jax(fn):
    # JAX 0.10.2: TypeError "asarray: expected ArrayLike, got auto of type <class 'str'>."
    with pytest.raises(TypeError) as info:
        fn(jnp.array([1.0, 2.0, 3.0]), bins="auto")
    first = str(info.value).splitlines()[0]
    assert first == "asarray: expected ArrayLike, got auto of type <class 'str'>."


def test_interp_refuses_complex_x():
    with pytest.raises(ValueError, match="jnp.interp: complex x values not supported."):
        jnp.interp(1j, 1j * np.arange(3.0), np.arange(3.0))
