"""Derivatives at complex numbers: `lax.abs`'s tangent is the real part of `t * conj(z) / |z|`
(0 at z = 0), and the transposes of `real`/`imag` pair the cotangent with a strongly typed
zero, so gradients with respect to complex Python scalars are strongly typed complex64."""

from __future__ import annotations

import numpy as np
import pytest

import core as jax
import core.numpy as jnp
from core import lax


def test_lax_abs_jvp():
    # JAX 0.10.2: tangents [1.4000001, 0, 0], float32, strongly typed
    z = jnp.array([3 + 4j, -1j, 0j], jnp.complex64)
    t = jnp.array([1 + 1j, 2.0, 1j], jnp.complex64)
    out, dt = jax.jvp(lax.abs, (z,), (t,))
    assert dt.dtype == np.float32 and not dt.weak_type
    np.testing.assert_array_equal(np.asarray(dt), np.array([1.4000001, 0.0, 0.0], np.float32))


# (function, z, gradient) as JAX 0.10.2 printed them: complex64, not weakly typed
GRADS = [
    (lax.abs, np.complex64(3 + 4j), 0.6 - 0.8j),
    (lambda z: jnp.real(z) * 2.0, 1.0 + 2.0j, 2.0 + 0j),
    (lambda z: jnp.imag(z) * 2.0, 1.0 + 2.0j, -2.0j),
    (lambda z: jnp.abs(z) ** 2, 1.0 + 2.0j, 2.0 - 4.0j),
    (lambda z: jnp.angle(z), 1.0 + 1.0j, -0.5 - 0.5j),
    (jnp.abs, 3.0 + 4.0j, 0.6 - 0.8j),
]


@pytest.mark.parametrize("fn, z, want", GRADS)
def test_grad_strong_complex(fn, z, want):
    g = jax.grad(fn)(z)
    assert g.dtype == np.complex64 and not g.weak_type
    np.testing.assert_allclose(complex(g), want, rtol=1e-6)


def test_grad_through_lax_complex():
    # JAX 0.10.2: (0.6, 0.8), float32, strongly typed
    gx, gy = jax.grad(lambda x, y: jnp.abs(lax.complex(x, y)), argnums=(0, 1))(3.0, 4.0)
    assert not gx.weak_type and not gy.weak_type
    np.testing.assert_allclose([float(gx), float(gy)], [0.6, 0.8], rtol=1e-6)


# (function, z, gradient) with holomorphic=True as JAX 0.10.2 printed them: jnp.conj's transpose
# is the conjugate, so the Python scalar's weak type survives
HOLOMORPHIC = [
    (jnp.conj, 1.0 + 2.0j, 1.0 + 0j),
    (lambda z: z * jnp.conj(z), 1.0 + 2.0j, 2.0 - 4.0j),
]


@pytest.mark.parametrize("fn, z, want", HOLOMORPHIC)
def test_conj_keeps_weak_type(fn, z, want):
    g = jax.grad(fn, holomorphic=True)(z)
    assert g.dtype == np.complex64 and g.weak_type
    np.testing.assert_allclose(complex(g), want, rtol=1e-6)
