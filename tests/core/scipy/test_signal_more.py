"""`core.scipy.signal.fftconvolve` and `detrend` against JAX 0.10.2 (`jax_signal_more.json`,
recorded by `record_signal_more.py`): modes, mapped axes, complex inputs, breakpoints."""

import json
import pathlib

import numpy as np
import pytest

import core.numpy as jnp
from core.scipy import signal

A = json.loads((pathlib.Path(__file__).parent / "jax_signal_more.json").read_text())
a, b, d = (np.asarray(A[k], np.float32) for k in ("a", "b", "d"))
TOL = {"rtol": 2e-5, "atol": 2e-5}


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_fftconvolve_modes(mode):
    out = signal.fftconvolve(jnp.asarray(a), jnp.asarray(b), mode)
    assert out.dtype == jnp.float32
    np.testing.assert_allclose(out, A[f"fft_{mode}"], **TOL)
    np.testing.assert_allclose(out, signal.convolve(a, b, mode), **TOL)


def test_fftconvolve_axes_and_complex():
    out = signal.fftconvolve(jnp.asarray(a), jnp.asarray(b[:1].repeat(5, 0)), axes=1)
    np.testing.assert_allclose(out, A["fft_axes"], **TOL)
    c = jnp.asarray(np.asarray(A["c_re"]) + 1j * np.asarray(A["c_im"]), jnp.complex64)
    out = signal.fftconvolve(c, c[:3])
    np.testing.assert_allclose(
        out, np.asarray(A["fft_complex"][0]) + 1j * np.asarray(A["fft_complex"][1]), **TOL
    )
    with pytest.raises(ValueError, match="mapped axes must have same shape"):
        signal.fftconvolve(jnp.asarray(a), jnp.asarray(b), axes=1)


def test_detrend():
    np.testing.assert_allclose(signal.detrend(jnp.asarray(d)), A["detrend_linear"], **TOL)
    out = signal.detrend(jnp.asarray(d), axis=0, type="constant")
    np.testing.assert_allclose(out, A["detrend_constant"], **TOL)
    np.testing.assert_allclose(signal.detrend(jnp.asarray(d), bp=[3]), A["detrend_bp"], **TOL)
    with pytest.raises(ValueError, match="'linear' or 'constant'"):
        signal.detrend(jnp.asarray(d), type="quadratic")
