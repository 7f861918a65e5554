"""core.numpy polynomial functions against numpy values and JAX's dtypes."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.errors import ConcretizationTypeError

XI = np.array([1, 3, 2, 7, 4], np.int32)
X = np.array([1.0, 3.0, 2.0, 7.0, 4.0], np.float32)
M = np.array([[1, 5, 2], [4, 2, 8], [0, 1, 3.0]], np.float32)
Y = np.array([1.0, 5.0, 2.0, 1.0, 5.0], np.float32)

# (id, our call, numpy reference, dtype JAX returns)
CASES = [
    ("vander", lambda: jnp.vander(XI, 3), lambda: np.vander(XI, 3), "int32"),
    (
        "vander_increasing",
        lambda: jnp.vander(X, increasing=True),
        lambda: np.vander(X, increasing=True),
        "float32",
    ),
    ("polyval_int", lambda: jnp.polyval(XI, 2), lambda: np.polyval(XI, 2), "int32"),
    ("polyval_matrix_x", lambda: jnp.polyval(XI, M), lambda: np.polyval(XI, M), "float32"),
    (
        "polyadd",
        lambda: jnp.polyadd(XI, np.array([1.0, 2.0])),
        lambda: np.polyadd(XI, [1.0, 2.0]),
        "float32",
    ),
    (
        "polyadd_int",
        lambda: jnp.polyadd(np.array([1, 2]), np.array([3])),
        lambda: np.polyadd([1, 2], [3]),
        "int32",
    ),
    ("polysub", lambda: jnp.polysub(np.array([1, 2]), XI), lambda: np.polysub([1, 2], XI), "int32"),
    (
        "polymul",
        lambda: jnp.polymul(XI, np.array([1, 2])),
        lambda: np.polymul(XI, [1, 2]),
        "float32",
    ),
    (
        "polymul_trim",
        lambda: jnp.polymul(np.array([0, 1.0]), np.array([0, 2, 3.0]), trim_leading_zeros=True),
        lambda: np.polymul([0, 1.0], [0, 2, 3.0]),
        "float32",
    ),
    (
        "polydiv_q",
        lambda: jnp.polydiv(X, np.array([2.0, 1]))[0],
        lambda: np.polydiv(X, [2.0, 1])[0],
        "float32",
    ),
    (
        "polydiv_r_trim",
        lambda: jnp.polydiv(X, np.array([2.0, 1]), trim_leading_zeros=True)[1],
        lambda: np.polydiv(X, [2.0, 1])[1],
        "float32",
    ),
    ("polyder", lambda: jnp.polyder(XI, 2), lambda: np.polyder(XI, 2), "float32"),
    (
        "polyint",
        lambda: jnp.polyint(XI, 2, k=np.array([1, 2])),
        lambda: np.polyint(XI, 2, k=[1, 2]),
        "float32",
    ),
    ("polyint_default", lambda: jnp.polyint(XI), lambda: np.polyint(XI), "float32"),
    ("poly", lambda: jnp.poly(XI[:3]), lambda: np.poly(XI[:3]), "float32"),
    ("poly_matrix", lambda: jnp.poly(M), lambda: np.poly(M), "complex64"),
    (
        "roots",
        lambda: jnp.roots(np.array([1.0, -6, 11, -6])),
        lambda: np.roots([1.0, -6, 11, -6]),
        "complex64",
    ),
    (
        "roots_keep_zeros",
        lambda: jnp.roots(np.array([0, 1.0, 2]), strip_zeros=False),
        lambda: np.array([-2, np.nan + 1j * np.nan]),
        "complex64",
    ),
    ("polyfit", lambda: jnp.polyfit(X, X**2, 2), lambda: np.polyfit(X, X**2, 2), "float32"),
    # JAX takes int(deg): a degree of 1.5 fits a line (numpy refuses it)
    ("polyfit_float_deg", lambda: jnp.polyfit(X, Y, 1.5), lambda: np.polyfit(X, Y, 1), "float32"),
    (
        "polyfit_weighted_2d",
        lambda: jnp.polyfit(X, np.stack([Y, 2 * Y], 1), 1, w=X),
        lambda: np.polyfit(X, np.stack([Y, 2 * Y], 1), 1, w=X),
        "float32",
    ),
    (
        "polyfit_full_resid",
        lambda: jnp.polyfit(X, Y, 1, full=True)[1],
        lambda: np.polyfit(X, Y, 1, full=True)[1],
        "float32",
    ),
    (
        "polyfit_full_rank",
        lambda: jnp.polyfit(X, Y, 1, full=True)[2],
        lambda: np.polyfit(X, Y, 1, full=True)[2],
        "int32",
    ),
    (
        "polyfit_cov",
        lambda: jnp.polyfit(X, Y, 1, cov=True)[1],
        lambda: np.polyfit(X, Y, 1, cov=True)[1],
        "float32",
    ),
]


@pytest.mark.parametrize("ours,ref,dtype", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_against_numpy(ours, ref, dtype):
    got, want = ours(), np.asarray(ref())
    assert str(got.dtype) == dtype
    assert got.shape == want.shape
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-4, atol=1e-4)


def test_known_jax_values():
    # jnp.polyint([12, 12, 6]) and jnp.polyder([1, 2, 3, 4], 2) from JAX 0.10.2
    np.testing.assert_allclose(jnp.polyint(np.array([12, 12, 6])), [4.0, 6.0, 6.0, 0.0])
    np.testing.assert_allclose(jnp.polyder(np.array([1, 2, 3, 4]), 2), [6.0, 4.0])


@pytest.mark.parametrize(
    "call,err",
    [
        (lambda: jnp.vander(M), ValueError),
        (lambda: jnp.polyder(X, -1), ValueError),
        (lambda: jnp.polyint(X, 2, k=np.array([1.0, 2, 3])), ValueError),
        (lambda: jnp.polyfit(X, Y, -1), ValueError),
        (lambda: jnp.polyfit(X, Y[:3], 1), TypeError),
        (lambda: jnp.roots(M), ValueError),
        (lambda: core.jit(jnp.roots)(X), ConcretizationTypeError),
    ],
)
def test_errors(call, err):
    with pytest.raises(err):
        call()


def test_jit_and_grad():
    f = core.jit(lambda p, x: jnp.polyval(jnp.polymul(p, p), x))
    p = np.array([1.0, -2.0], np.float32)
    np.testing.assert_allclose(f(p, np.float32(3.0)), np.polyval(np.polymul(p, p), 3.0))
    # d/dp polyval(p, 2) = [4, 2, 1]
    np.testing.assert_allclose(
        core.grad(lambda p: jnp.polyval(p, 2.0))(np.ones(3, np.float32)), [4, 2, 1]
    )
    c = core.grad(lambda y: jnp.sum(jnp.polyfit(X, y, 1)))(Y)
    # polyfit is linear in y: c = pinv(V) y
    np.testing.assert_allclose(c, np.linalg.pinv(np.vander(X, 2)).sum(0), rtol=1e-3, atol=1e-4)


# JAX 0.10.2's polymul takes `len` of its operands: a 0-d one is Python's TypeError.
@pytest.mark.parametrize("args", [(3, jnp.array([1, 2])), (jnp.array([1.0]), jnp.array(2.0))])
def test_polymul_of_a_scalar_is_a_len_type_error(args):
    with pytest.raises(TypeError, match="^len\\(\\) of unsized object"):
        jnp.polymul(*args)


# polyadd and polysub read `shape[0]` in JAX 0.10.2: a 0-d operand is an IndexError.
@pytest.mark.parametrize("fn", [jnp.polyadd, jnp.polysub])
def test_polyadd_of_a_scalar_is_an_index_error(fn):
    with pytest.raises(IndexError, match="^tuple index out of range"):
        fn(jnp.array([1, 2]), 3)


def test_polyfit_of_fewer_points_than_coefficients_is_jaxs_minimum_norm_fit():
    # JAX 0.10.2: polyfit(arange(3.), arange(3.), 5) by lstsq of the scaled Vandermonde matrix
    got = jnp.polyfit(jnp.arange(3.0), jnp.arange(3.0), 5)
    want = [-0.010518714, -0.011057778, 0.017354975, 0.18311958, 0.82110244, 1.1816587e-07]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6)
    c, resids, rank, s, rcond = jnp.polyfit(jnp.arange(3.0), jnp.arange(3.0) ** 2, 3, full=True)
    assert resids.shape == (1,) and int(rank) == 3 and s.shape == (3,)  # lstsq's, as JAX's


def test_polyder_of_a_negative_order_has_jaxs_first_line():
    with pytest.raises(ValueError) as info:
        jnp.polyder(jnp.array([1.0, 2.0]), m=-1)
    assert str(info.value).splitlines()[0] == "Order of derivative must be positive"


@pytest.mark.filterwarnings("ignore:invalid value encountered")  # (inf - inf, numpy's warning)
def test_polydiv_keeps_nan_remainders_when_trimming():
    # JAX's trim counts |r| < tol as zero, so NaN entries stay (answers from JAX 0.10.2)
    q, r = jnp.polydiv(jnp.array([1.0, 2, 3, 4]), jnp.array([0.0, 2, 1]), trim_leading_zeros=True)
    np.testing.assert_array_equal(q, [np.inf, -np.inf])
    np.testing.assert_array_equal(r, [np.nan, np.nan, np.nan, np.inf])
