"""The derivatives of `lax.cumlogsumexp`: JAX differentiates the prefix scan of
`jnp.logaddexp` with that function's own derivative (+inf replaced by 0, the rounding of the
result kept), so `[0, inf]` gives `[1, 1]` and large equal values give JAX's 0.4998939."""

from __future__ import annotations

import numpy as np
import pytest

import core as jax
import core.numpy as jnp
from core import lax

INF = np.inf

# (input, gradient of the last running value) as JAX 0.10.2 printed them
LAST = [
    ([1e4, 1e4], [0.4998939, 0.4998939]),
    ([0.0, INF], [1.0, 1.0]),
    ([INF, INF], [1.0, 1.0]),
    ([-INF, -INF, 0.0], [np.nan, np.nan, 1.0]),
]


@pytest.mark.parametrize("x, want", LAST)
def test_grad_of_last(x, want):
    g = jax.grad(lambda v: lax.cumlogsumexp(v)[-1])(jnp.array(x, jnp.float32))
    np.testing.assert_allclose(np.asarray(g), want, rtol=2e-7)


# (reverse, tangent) of jvp at [-inf, 0, 2, 2] with ones, as JAX 0.10.2 printed them
JVP = [
    (False, [1.0, 1.0, 0.99999994, 1.0000001]),
    (True, [1.0000001, 1.0000001, 1.0, 1.0]),
]


@pytest.mark.parametrize("reverse, want", JVP)
def test_jvp_rounding(reverse, want):
    x = jnp.array([-INF, 0.0, 2.0, 2.0])
    _, t = jax.jvp(lambda v: lax.cumlogsumexp(v, reverse=reverse), (x,), (jnp.ones(4),))
    np.testing.assert_array_equal(np.asarray(t), np.array(want, np.float32))
