"""core.scipy.ndimage.map_coordinates against `jax.scipy.ndimage`'s recorded results
(ndimage_answers.py): every order and mode, float and integer inputs, in and out of range;
plus jit/vmap/grad and JAX's errors."""

import numpy as np
import pytest

import core
from core.scipy import ndimage
from core.scipy.errors import ShapeMismatchError, UnsupportedOptionError
from tests.core.scipy.ndimage_answers import RESULTS

IMG = np.arange(20, dtype=np.float32).reshape(4, 5) ** 1.5 / 7
IMGI = np.arange(12, dtype=np.int32).reshape(3, 4) * 3
C2 = [
    np.float32([-1.3, -0.5, 0.0, 0.4, 1.5, 2.7, 3.2, 4.6]),
    np.float32([0.2, -2.1, 1.5, 4.4, 3.5, 5.6, 0.9, -0.5]),
]
CI = [np.float32([0.5, 1.4, 2.6, -0.6]), np.float32([0.5, 2.5, 3.7, 1.2])]
C1 = [np.float32([[-3.5, -1.2, 0.3], [2.5, 4.4, 7.9]])]
V1 = np.float32([1.0, 4.0, -2.0, 3.5, 0.5])
MODES = ("constant", "nearest", "wrap", "mirror", "reflect")
CASES = [
    (IMG, C2, order, mode, cval)
    for order in (0, 1)
    for mode in MODES
    for cval in ((0.0, -1.5) if mode == "constant" else (0.0,))
]
CASES += [
    (IMGI, CI, 1, "constant", 0.0),
    (IMGI, CI, 0, "nearest", 0.0),
    (V1, C1, 1, "mirror", 0.0),
    (V1, C1, 1, "reflect", 0.0),
    (V1, C1, 0, "wrap", 0.0),
]


@pytest.mark.parametrize(
    "i", range(len(CASES)), ids=[f"{c[2]}-{c[3]}-{i}" for i, c in enumerate(CASES)]
)
def test_matches_jax(i):
    img, coords, order, mode, cval = CASES[i]
    got = np.asarray(ndimage.map_coordinates(img, coords, order, mode=mode, cval=cval))
    want = RESULTS[i]
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def test_transformations():
    run = core.jit(core.vmap(lambda c0: ndimage.map_coordinates(IMG, [c0, C2[1]], 1)))
    got = run(np.stack([C2[0], C2[0] + 0.25]))
    np.testing.assert_allclose(got[0], RESULTS[6], rtol=1e-6, atol=1e-6)  # order 1, constant
    # Linear interpolation in the interior: d/dc0 is the difference of the neighbouring rows.
    g = core.grad(lambda c0: ndimage.map_coordinates(IMG, [c0, np.float32(1.0)], 1))(
        np.float32(1.25)
    )
    np.testing.assert_allclose(g, IMG[2, 1] - IMG[1, 1], rtol=1e-6)


def test_errors():
    with pytest.raises(ShapeMismatchError, match="length input.ndim"):
        ndimage.map_coordinates(IMG, C2[:1], 1)
    with pytest.raises(UnsupportedOptionError, match="requires order<=1"):
        ndimage.map_coordinates(IMG, C2, 3)
    with pytest.raises(UnsupportedOptionError, match="mode 'grid-wrap'"):
        ndimage.map_coordinates(IMG, C2, 1, mode="grid-wrap")
