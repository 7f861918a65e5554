"""core.numpy window functions and i0 against numpy (values) and JAX (float32 dtypes)."""

import numpy as np
import pytest

import core
import core.numpy as jnp


@pytest.mark.parametrize("name", ["bartlett", "blackman", "hamming", "hanning"])
@pytest.mark.parametrize("M", [0, 1, 5, 6])
def test_windows(name, M):
    got = getattr(jnp, name)(M)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, getattr(np, name)(M), atol=1e-6)


@pytest.mark.parametrize("M,beta", [(0, 1.0), (1, 2.0), (5, 3.0), (8, 14.0)])
def test_kaiser(M, beta):
    got = jnp.kaiser(M, beta)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, np.kaiser(M, beta), rtol=1e-5, atol=1e-6)


X = np.array([-30, -16, -15, -2, -1, 0, 0.5, 1, 2, 5, 10, 14.9, 15.1, 20, 50, 80], np.float32)


def test_i0_values_and_dtypes():
    np.testing.assert_allclose(jnp.i0(X), np.i0(X.astype(np.float64)), rtol=2e-6)
    assert jnp.i0(X).dtype == np.float32
    assert jnp.i0(np.array([1, 2])).dtype == np.float32
    # JAX 0.10.2: jnp.i0(jnp.array([-2, -1, 0, 1, 2]))
    want = [2.2795851, 1.266066, 1.0, 1.266066, 2.2795851]
    np.testing.assert_allclose(jnp.i0(np.array([-2, -1, 0, 1, 2])), want, rtol=1e-6)


def test_i0_rejects_complex():
    with pytest.raises(ValueError, match="i0"):
        jnp.i0(np.array([1j], np.complex64))


def test_i0_grad_is_i1():
    # I0' = I1; values of scipy.special.i1 at 0, 1, -3, 20
    want = [0.0, 0.5651591, -3.9533702, 4.2454973e07]
    got = [core.grad(jnp.i0)(np.float32(v)) for v in (0.0, 1.0, -3.0, 20.0)]
    np.testing.assert_allclose(got, want, rtol=2e-5)


def test_kaiser_under_jit_traced_beta():
    f = core.jit(lambda b: jnp.kaiser(5, b))
    np.testing.assert_allclose(f(np.float32(3.0)), np.kaiser(5, 3.0), rtol=1e-5)
