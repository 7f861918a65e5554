"""`jax.scipy.special.zeta` is differentiable in both arguments (JAX's custom derivative: that
of the Euler-Maclaurin series, whose value `jvp` returns), while `lax.zeta` has no derivative
in its order (JAX's NotImplementedError and first line)."""

from __future__ import annotations

import numpy as np
import pytest

import core as jax
import core.numpy as jnp
from core import lax
from core.scipy import special

# (x, q, d/dx, d/dq) as JAX 0.10.2 printed them
GRADS = [
    (2.0, 1.0, -0.9375482, -2.404114),
    (3.0, 2.0, -0.19812626, -0.24696971),
    (1.0, 1.0, -np.inf, None),
    (0.5, 1.0, -3.9226465, None),
]


@pytest.mark.parametrize("x, q, dx, dq", GRADS)
def test_grad(x, q, dx, dq):
    gx, gq = jax.grad(special.zeta, argnums=(0, 1))(x, q)
    assert gx.dtype == np.float32 and gx.weak_type
    np.testing.assert_allclose(float(gx), dx, rtol=2e-6)
    if dq is not None:
        np.testing.assert_allclose(float(gq), dq, rtol=2e-6)


# JAX 0.10.2: the series' value and the tangent, both strongly typed float32
def test_jvp_value_is_the_series():
    out, t = jax.jvp(special.zeta, (3.0, 2.0), (1.0, 0.5))
    assert out.dtype == np.float32 and not out.weak_type and not t.weak_type
    np.testing.assert_allclose([float(out), float(t)], [0.20205691, -0.32161108], rtol=2e-6)


# (x, gradient) with an integer q, as JAX 0.10.2 printed them
def test_integer_shift_and_arrays():
    g = jax.grad(lambda x: special.zeta(x, 1).sum())(jnp.array([1.5, 2.0, 4.0, 10.0]))
    want = [-3.9322395, -0.93754822, -0.068911262, -6.9703296e-04]
    np.testing.assert_allclose(np.asarray(g), want, rtol=2e-6)


def test_hessian_and_float16():
    np.testing.assert_allclose(float(jax.hessian(special.zeta)(3.0, 1.0)), 0.23974693, rtol=2e-6)
    g = jax.grad(special.zeta)(jnp.float16(2.0), jnp.float16(1.0))
    assert g.dtype == np.float16
    np.testing.assert_allclose(float(g), -0.9385, rtol=2e-3)


def test_lax_zeta_has_no_order_derivative():
    with pytest.raises(
        NotImplementedError, match="^Differentiation rule for 'zeta' not implemented"
    ):
        jax.grad(lambda x: lax.zeta(x, 1.0))(2.0)
