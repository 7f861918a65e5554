"""jax.scipy's errors keep JAX 0.10.2's first line (recorded from JAX); numbax adds its fix on
the next line. Found by the `scipy_more` area of tools/jax_differential."""

import numpy as np
import pytest

import core.numpy as jnp
from core.scipy import fft, interpolate, linalg, ndimage
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


@pytest.mark.parametrize("call, cls, first", CASES)
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
