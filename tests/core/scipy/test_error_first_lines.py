"""jax.scipy's errors keep JAX 0.10.2's first line (recorded from JAX); numbax adds its fix on
the next line. Found by the `scipy_more` area of tools/jax_differential.py."""

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
