"""jax.scipy's errors keep JAX 0.10.2's first line (recorded from JAX); numbax adds its fix on
the next line. Found by the `scipy_more` area of tools/jax_differential."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.scipy import fft, interpolate, linalg, ndimage, signal, special
from core.scipy.cluster import vq
from core.scipy.errors import (
    ModeError,
    SchurDTypeError,
    ShapeMismatchError,
    UnsupportedOptionError,
)

V = jnp.array([1.0, 2.0, -1.0, 0.5])
T = jnp.array([[2.0, 0.0], [1.0, 3.0]])

# (call, error class, JAX's first line)
CASES = [
    (lambda: fft.dct(V, type=1), UnsupportedOptionError, "Only DCT type 2 is implemented."),
    (lambda: fft.idctn(V, type=3), UnsupportedOptionError, "Only DCT type 2 is implemented."),
    (
        lambda: fft.dct(V, norm="forward"),
        ModeError,
        "jax.scipy.fft.dct: norm='forward' is not implemented",
    ),
    (
        lambda: fft.idct(V, norm="bogus"),
        ModeError,
        "jax.scipy.fft.idct: norm='bogus' is not implemented",
    ),
    (
        lambda: linalg.solve_triangular(T, V[:2], trans=3),
        ModeError,
        "Invalid 'trans' value 3",
    ),
    (
        lambda: linalg.lu_solve(linalg.lu_factor(T), V[:2], trans=3),
        ModeError,
        "'trans' value must be 0, 1, or 2, got 3",
    ),
    (
        lambda: linalg.solve(T, V[:2], assume_a="banana"),
        ModeError,
        "Expected assume_a to be one of ['gen', 'sym', 'her', 'pos']; got 'banana'",
    ),
    (lambda: linalg.qr(T, mode="raw"), ModeError, "Unsupported QR decomposition mode 'raw'"),
    (
        lambda: linalg.expm(jnp.ones((3, 2))),
        ShapeMismatchError,
        "Expected A to be a (batched) square matrix, got A.shape=(3, 2).",
    ),
    (
        lambda: linalg.schur(jnp.array([[1, 2], [3, 4]])),
        SchurDTypeError,
        "schur does not accept dtype int32 at position 0. Accepted dtypes at position 0 are "
        "subtypes of floating, complexfloating.",
    ),
    (
        lambda: linalg.funm(jnp.array([[1, 2], [3, 4]]), jnp.exp),
        TypeError,
        "schur does not accept dtype int32 at position 0. Accepted dtypes at position 0 are "
        "subtypes of floating, complexfloating.",
    ),
    (
        lambda: linalg.schur(jnp.ones((3, 2))),
        ValueError,
        "The input to schur must be a square matrix. Got shape (3, 2).",
    ),
    (
        lambda: ndimage.map_coordinates(T, [V[:2], V[:2]], order=3),
        UnsupportedOptionError,
        "jax.scipy.ndimage.map_coordinates currently requires order<=1",
    ),
    (
        lambda: interpolate.RegularGridInterpolator((V,), V, bounds_error=True),
        UnsupportedOptionError,
        "`bounds_error` takes no effect under JIT",
    ),
]

L3 = jnp.array([[2.0, 0.0, 0.0], [1.0, 3.0, 0.0], [-1.0, 0.5, 4.0]])
A3 = jnp.array([[4.0, 1.0, 2.0], [1.0, 5.0, 0.5], [2.0, 0.5, 6.0]])
A32 = jnp.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.5]])
I22 = jnp.array([[1, 2], [3, 4]])

# (call, JAX's exception class (numbax's is a subclass), JAX's first line)
MORE_CASES = [
    (lambda: linalg.polar(I22), ValueError, "data type <class 'numpy.int32'> not inexact"),
    (lambda: linalg.polar(I22, method="svd"), TypeError,
     "svd does not accept dtype int32 at position 0. Accepted dtypes at position 0 are "
     "subtypes of floating, complexfloating."),
    (lambda: linalg.hessenberg(I22), TypeError,
     "hessenberg does not accept dtype int32 at position 0. Accepted dtypes at position 0 are "
     "subtypes of floating, complexfloating."),
    (lambda: linalg.hessenberg(jnp.ones((2, 3))), ValueError,
     "Argument to Hessenberg reduction must have shape [..., n, n], got shape (2, 3)"),
    (lambda: linalg.companion(jnp.ones((3, 1))), ValueError,
     "The length of `a` along the last axis must be at least 2; got shape (3, 1)."),
    (lambda: linalg.solve_triangular(L3, jnp.ones(4)), ValueError,
     "inconsistent size for core dimension 'n': 4 vs 3 on vectorized function with "
     "excluded=frozenset() and signature='(n,n),(n)->(n)'"),
    (lambda: linalg.solve_triangular(L3, jnp.ones((2, 4))), ValueError,
     "inconsistent size for core dimension 'n': 2 vs 3 on vectorized function with "
     "excluded=frozenset() and signature='(n,n),(n,k)->(n,k)'"),
    (lambda: linalg.cho_solve((A3, False), jnp.ones(4)), ValueError,
     "inconsistent size for core dimension 'n': 4 vs 3 on vectorized function with "
     "excluded=frozenset() and signature='(n,n),(n)->(n)'"),
    (lambda: linalg.lu_solve(linalg.lu_factor(A3), jnp.ones((4, 2))), ValueError,
     "inconsistent size for core dimension 'n': 4 vs 3 on vectorized function with "
     "excluded=frozenset() and signature='(n,n),(n),(n,k)->(n,k)'"),
    (lambda: linalg.cholesky(A32), ValueError,
     "The input to cholesky must be a square matrix. Got shape (2, 3)."),
    (lambda: linalg.cholesky(jnp.ones((2, 3, 4))), ValueError,
     "The input to cholesky must be a square matrix. Got shape (4, 3)."),
    (lambda: linalg.eigh(A32), TypeError,
     "add got incompatible shapes for broadcasting: (3, 2), (2, 3)."),
    (lambda: linalg.eigh(A3, A3), NotImplementedError,
     "Only the b=None case of eigh is implemented"),
    (lambda: linalg.eigh(A3, eigvals=(0, 1)), NotImplementedError,
     "Only the eigvals=None case of eigh is implemented."),
    (lambda: linalg.eigh(A3, type=2), NotImplementedError,
     "Only the type=1 case of eigh is implemented."),
    (lambda: linalg.solve(jnp.stack([A3, A3]), jnp.ones((3, 2)), assume_a="pos"), ValueError,
     "The arguments to solve must have shapes a=[..., m, m] and b=[..., m, k] or b=[..., m]; "
     "got a=(2, 3, 3) and b=(3, 2)"),
    (lambda: linalg.solve(A3, jnp.ones((2, 3, 2)), assume_a="pos"), ValueError,
     "The arguments to solve must have shapes a=[..., m, m] and b=[..., m, k] or b=[..., m]; "
     "got a=(3, 3) and b=(2, 3, 2)"),
    (lambda: signal.stft(jnp.ones(64), nperseg=16, window="bogus"), ValueError,
     "Invalid window name 'bogus' in parameter window='bogus'!"),
    (lambda: vq.vq(jnp.ones((4, 2)), jnp.ones((2, 3))), TypeError,
     "sub got incompatible shapes for broadcasting: (1, 2), (2, 3)."),
]  # fmt: skip


@pytest.mark.parametrize("call, cls, first", CASES + MORE_CASES)
def test_first_line_is_jax(call, cls, first):
    with pytest.raises(cls) as info:
        call()
    assert str(info.value).split("\n")[0] == first


def test_valid_trans_still_solves():
    # a^T x = b for the lower-triangular T: numpy's answer
    want = np.linalg.solve(np.asarray(T).T, np.array([1.0, 2.0]))
    got = linalg.solve_triangular(T, jnp.array([1.0, 2.0]), trans="T", lower=True)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6)


SPD = np.array([[4.0, 1.0, 2.0], [1.0, 5.0, 0.5], [2.0, 0.5, 6.0]])
SPD2 = np.stack([SPD, 2 * SPD + np.eye(3)])
TRI2 = np.tril(SPD2)


# b's shapes against batched (2, 3, 3) factors: JAX treats b as vectors when 1-D or one axis
# shorter ending in n, else as (..., n, k) matrices whose batch broadcasts (numpy's answers).
@pytest.mark.parametrize("bshape", [(3,), (3, 2), (2, 3), (1, 3, 3)])
def test_batched_solves_broadcast_b_as_jax(bshape):
    b = np.arange(1.0, 1.0 + np.prod(bshape)).reshape(bshape)
    vector = len(bshape) == 1 or bshape == (2, 3)
    bm = b[..., None] if vector else b
    want_c = np.linalg.solve(SPD2, np.broadcast_to(bm, (2, 3) + bm.shape[-1:]))
    want_t = np.linalg.solve(TRI2, np.broadcast_to(bm, (2, 3) + bm.shape[-1:]))
    if vector:
        want_c, want_t = want_c[..., 0], want_t[..., 0]
    got_c = linalg.cho_solve(linalg.cho_factor(jnp.asarray(SPD2)), jnp.asarray(b))
    got_t = linalg.solve_triangular(jnp.asarray(TRI2), jnp.asarray(b), lower=True)
    np.testing.assert_allclose(np.asarray(got_c), want_c, rtol=2e-5, atol=1e-6)
    np.testing.assert_allclose(np.asarray(got_t), want_t, rtol=2e-5, atol=1e-6)


# (call, JAX 0.10.2's values): zeta's poles and domain in XLA's order, expi(0), expn(n, 0) = 1/n,
# cho_factor's and the Cholesky solve's derivatives (the factored triangle, all of `a` through
# the solve's product), a named scipy window beyond numbax's own.
VALUES = [
    (lambda: special.zeta(jnp.array([0.5, -1.0, 1.0, 2.0, 3.0, 2.0, 2.0, jnp.inf]),
                          jnp.array([0.0, 0.0, -0.5, 0.0, 0.0, -1.0, -0.5, 0.0])),
     [np.nan, np.nan, np.inf, np.inf, np.nan, np.inf, 8.934802055358887, np.nan]),
    (lambda: special.zeta(jnp.array([0.0, -2.0, -3.0, -2.0]), jnp.array([-1.0, 0.0, -2.0, 1.5])),
     [np.inf, np.inf, np.nan, np.nan]),
    (lambda: special.expi(jnp.array([0.0, -0.0])), [np.nan, np.nan]),
    (lambda: special.expn(jnp.array([1, 2, 5]), jnp.zeros(3)), [np.inf, 0.5, 0.2]),
    (lambda: core.grad(lambda a: linalg.cho_solve(linalg.cho_factor(a),
                                                  jnp.array([1.0, -2.0, 0.5])).sum())(A3),
     [[-0.05914127081632614, 0.06024930626153946, -0.03684210404753685],
      [-0.042382270097732544, 0.07479223608970642, 0.04736841842532158], [0.0, 0.0, 0.0]]),
    (lambda: core.grad(lambda a: linalg.solve(a, jnp.array([1.0, -2.0, 0.5]),
                                              assume_a="pos").sum())(A3),
     [[-0.05914127454161644, 0.07603877782821655, 0.0],
      [-0.05817174166440964, 0.07479223608970642, 0.0],
      [-0.03684210404753685, 0.04736841470003128, 0.0]]),
]  # fmt: skip


@pytest.mark.parametrize("call, want", VALUES)
def test_values_are_jaxs(call, want):
    np.testing.assert_allclose(np.asarray(call()), np.asarray(want), rtol=2e-6, atol=1e-7)


def test_windows_beyond_numbax_come_from_scipy():
    x = jnp.sin(jnp.arange(64.0))
    f, p = signal.welch(x, nperseg=16, window=("kaiser", 3.0))
    assert p.shape == (9,) and np.isfinite(np.asarray(p)).all()
