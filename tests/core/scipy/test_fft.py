"""core.scipy.fft against `jax.scipy.fft`'s recorded results (fft_answers.py), a table of
(function, args, kwargs); plus the round trip, jit/vmap/grad, and JAX's errors."""

import re

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.scipy import fft
from core.scipy.errors import ModeError, UnsupportedOptionError
from tests.core.scipy.fft_answers import RESULTS

RNG = np.random.RandomState(1)
X = np.round(RNG.randn(3, 4), 2).astype(np.float32)
X3 = np.round(RNG.randn(2, 3, 4), 2).astype(np.float32)
XC = (X + 1j * X[::-1]).astype(np.complex64)
CASES = [
    ("dct", (X,), {}),
    ("dct", (X,), {"norm": "ortho"}),
    ("dct", (X,), {"n": 2}),
    ("dct", (X,), {"n": 6, "axis": 0}),
    ("dct", (XC,), {}),
    ("dctn", (X,), {}),
    ("dctn", (X,), {"norm": "ortho"}),
    ("dctn", (X,), {"s": [2]}),
    ("dctn", (X,), {"s": [2, 5]}),
    ("dctn", (X3,), {}),
    ("dctn", (X3,), {"axes": (0, 2), "norm": "ortho"}),
    ("idct", (X,), {}),
    ("idct", (X,), {"norm": "ortho"}),
    ("idct", (X,), {"n": 3, "axis": 0}),
    ("idct", (XC,), {}),
    ("idctn", (X,), {}),
    ("idctn", (X3,), {"norm": "ortho"}),
    ("idctn", (X,), {"s": [2, 5]}),
]


@pytest.mark.parametrize("i", range(len(CASES)), ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_matches_jax(i):
    name, args, kwargs = CASES[i]
    got = np.asarray(getattr(fft, name)(*args, **kwargs))
    want = RESULTS[i]
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("norm", [None, "ortho"])
def test_round_trip_and_transformations(norm):
    np.testing.assert_allclose(fft.idctn(fft.dctn(X3, norm=norm), norm=norm), X3, atol=1e-5)
    batched = core.jit(core.vmap(lambda x: fft.dct(x, norm=norm)))(X)
    np.testing.assert_allclose(batched, fft.dct(X, norm=norm), rtol=1e-5, atol=1e-5)
    # The DCT is linear: the gradient of sum(dct(x) * w) is dct's transpose applied to w.
    w = np.float32([1.0, -2.0, 0.5, 3.0])
    g = core.grad(lambda x: (fft.dct(x, norm=norm) * w).sum())(X[0])
    basis = np.stack([np.asarray(fft.dct(e, norm=norm)) for e in np.eye(4, dtype=np.float32)])
    np.testing.assert_allclose(g, basis @ w, rtol=1e-5, atol=1e-5)


def test_errors():
    with pytest.raises(UnsupportedOptionError, match="type 2"):
        fft.dct(X, type=3)
    with pytest.raises(ModeError, match="norm='forward'"):
        fft.idctn(X, norm="forward")
    with pytest.raises(ValueError, match="at most x.ndim"):
        fft.dctn(X, s=[2, 2, 2])


@pytest.mark.parametrize(
    "f, axes, shown",
    [(fft.dctn, (0, 0), "(0, 0)"), (fft.dctn, (0, -2), "(0, 0)"), (fft.idctn, (1, -1), "(1, 1)")],
)
def test_repeated_axes_are_refused(f, axes, shown):
    # JAX 0.10.2: ValueError "repeated axis: (0, 0)" (the axes made non-negative), for idctn too
    with pytest.raises(ValueError, match=rf"^repeated axis: {re.escape(shown)}"):
        f(jnp.ones((2, 3)), axes=axes)
