"""Weak types through `lax.pad` and what JAX builds from it: a pad is weakly typed only if its
operand and its padding value both are, so slice's and pad's transposes (a strong zero) and
`associative_scan`'s interleaving give strongly typed results and gradients, as JAX's."""

from __future__ import annotations

import numpy as np
import pytest

import core as jax
import core.numpy as jnp
from core import lax

W = jnp.full(4, 2.0)  # a weakly typed float32 array

# (expression, weak_type) as JAX 0.10.2 printed them
CASES = [
    (lambda: lax.pad(jnp.full(3, 2.0), 0.0, [(1, 1, 0)]), True),
    (lambda: lax.pad(jnp.full(3, 2.0), jnp.float32(0.0), [(1, 1, 0)]), False),
    (lambda: lax.associative_scan(jnp.add, W), False),
    (lambda: lax.associative_scan(jnp.add, jnp.full(1, 2.0)), True),
    (lambda: lax.cumsum(jnp.full(3, 2.0)), True),
    (lambda: jax.grad(lambda x: x[1:].sum())(W), False),
    (lambda: jax.grad(lambda x: x[::2].sum())(W), False),
    (lambda: jax.grad(lambda x: lax.pad(x, 0.0, [(1, 1, 1)]).sum())(W), False),
    (lambda: jax.grad(lambda x: lax.concatenate([x, x], 0).sum())(W), True),
    (lambda: jax.grad(lambda x: x.reshape(2, 2).sum())(W), True),
    (lambda: jax.grad(lambda x: lax.cummax(x).sum())(W), False),
    (lambda: jax.grad(lambda x: lax.cumprod(x).sum())(W), False),
    (lambda: jax.grad(lambda x: lax.cumsum(x).sum())(W), True),
]


@pytest.mark.parametrize("i", range(len(CASES)))
def test_weak_type(i):
    fn, weak = CASES[i]
    out = fn()
    assert out.dtype == np.float32
    assert out.weak_type is weak


def test_values_unchanged():
    # JAX 0.10.2: [2, 1, 0.75, 0.25] (ties split by the scan's nested maxima)
    g = jax.grad(lambda x: lax.cummax(x).sum())(W)
    np.testing.assert_array_equal(np.asarray(g), [2.0, 1.0, 0.75, 0.25])
